"""At most ``MAX_CONCURRENT_RENDERS`` report renders queued or running per account and mode
(issue 36): one more is 429 with ``Retry-After``, refunded; the other mode has its own count."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart

from astro_server.features.reports.service import MAX_CONCURRENT_RENDERS
from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.jobs import Job

BODY = {
    "birth_subject": {
        "date": "1987-11-23",
        "time": "14:05",
        "latitude": 13.7563,
        "longitude": 100.5018,
    },
    "name": "Somchai",
    "format": "html",
    "async": True,
}


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    async with running_app(settings_for(database_url, tmp_path)) as application:
        yield application
        await application.extensions["astro"].broker.wait_all()


async def test_one_render_too_many_is_429_and_refunded(app: Quart) -> None:
    account_id, live = await new_account("pro", 1000)
    test = await accounts.create_api_key(account_id, "test")
    for _ in range(MAX_CONCURRENT_RENDERS):
        await Job.create(
            id="job_" + secrets.token_hex(12),
            account_id=account_id,
            livemode=True,
            kind="reports.natal",
            params={},
            status="running",
            created_at=datetime.now(UTC),
        )
    client = app.test_client()
    before = (await Account.get(id=account_id)).credits
    refused = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(live))
    assert refused.status_code == 429, await refused.get_json()
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert (await refused.get_json())["error"] == "rate_limited"
    assert (await Account.get(id=account_id)).credits == before
    # The test mode counts its own renders: none are running there.
    other = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(test))
    assert other.status_code == 202, await other.get_json()
    # One finished: the live key renders again.
    first = await Job.filter(account_id=account_id, livemode=True, status="running").first()
    assert first is not None
    await Job.filter(id=first.id).update(status="succeeded")
    again = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(live))
    assert again.status_code == 202, await again.get_json()
