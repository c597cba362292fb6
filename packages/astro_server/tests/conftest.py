"""Fixtures of the server tests: one migrated app in-process (``app``) and its test client.

``app`` runs :func:`running_app` with ``app_settings`` (default: a new SQLite database under the
test's ``tmp_path``) and ``app_blueprints`` (default: none). A test module that needs other
settings (PostgreSQL too through the ``database_url`` fixture, which is parametrized over both,
or settings overrides) or extra blueprints overrides one of those two fixtures, not ``app``;
a module whose tests queue in-process jobs is marked ``drain_jobs``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from _platform_support import running_app, settings_for
from quart import Blueprint, Quart
from quart.typing import TestClientProtocol as Client

from astro_server.settings import Settings


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    """The settings of :func:`app`: SQLite in ``tmp_path`` unless a module overrides this."""
    return settings_for(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path)


@pytest.fixture
def app_blueprints() -> list[Blueprint]:
    """Blueprints registered on :func:`app` besides the platform's (none by default)."""
    return []


@pytest.fixture
async def app(
    request: pytest.FixtureRequest, app_settings: Settings, app_blueprints: list[Blueprint]
) -> AsyncIterator[Quart]:
    """A migrated app on :func:`app_settings`, started (``test_app``) for one test. Marked
    ``drain_jobs``, a test's in-process jobs are waited for before the app stops."""
    async with running_app(app_settings, app_blueprints) as application:
        yield application
        if request.node.get_closest_marker("drain_jobs"):
            await application.extensions["astro"].broker.wait_all()


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()
