"""Heavy jobs are limited per API key (issue 36): at most ``ASTRO_RENDERS_PER_KEY`` (4) report
renders and ``ASTRO_BATCHES_PER_KEY`` (20) matching batches queued or running per key (a session's
per login); one more is 429 with ``Retry-After``, refunded; another key of the same account has
its own count; jobs record the key that queued them (``jobs.created_by``)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart

from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Account, ApiKey
from astro_server.platform.models.jobs import Job
from astro_server.settings import Settings

MAX_CONCURRENT_RENDERS = Settings().renders_per_key
MAX_CONCURRENT_BATCHES = Settings().batches_per_key

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


@pytest.fixture(autouse=True)
def held_kicks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs stay queued (no worker takes them), so the counts are the test's to set."""

    async def hold(job_id: str) -> None:
        return None

    monkeypatch.setattr("astro_server.platform.broker.kick_job", hold)


async def _key_id(secret: str) -> str:
    key = await ApiKey.get(prefix=secret[:12])
    return key.id


async def _busy(account_id: str, created_by: str, kind: str, count: int) -> None:
    for _ in range(count):
        await Job.create(
            id="job_" + secrets.token_hex(12),
            account_id=account_id,
            livemode=True,
            kind=kind,
            params={},
            status="running",
            created_by=created_by,
            created_at=datetime.now(UTC),
        )


async def test_renders_are_limited_per_key_at_the_edge(app: Quart) -> None:
    account_id, live = await new_account("pro", 1000)
    second = await accounts.create_api_key(account_id, "live")
    test = await accounts.create_api_key(account_id, "test")
    client = app.test_client()
    live_id = await _key_id(live)
    # One below the limit: the next render is accepted and records its key.
    await _busy(account_id, live_id, "reports.natal", MAX_CONCURRENT_RENDERS - 2)
    await _busy(account_id, live_id, "reports.hr_screening", 1)  # every report kind counts
    edge = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(live))
    assert edge.status_code == 202, await edge.get_json()
    queued = await Job.get(id=(await edge.get_json())["job_id"])
    assert queued.created_by == live_id
    assert await Job.filter(created_by=live_id, status__in=["queued", "running"]).count() == (
        MAX_CONCURRENT_RENDERS
    )
    before = (await Account.get(id=account_id)).credits
    refused = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(live))
    assert refused.status_code == 429, await refused.get_json()
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    answer = await refused.get_json()
    assert answer["error"] == "rate_limited"
    assert "API key" in answer["message"]
    assert f"({MAX_CONCURRENT_RENDERS})" in answer["message"]
    assert (await Account.get(id=account_id)).credits == before
    # Another key of the same account, and its test key, have their own counts.
    for other in (second, test):
        ok = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(other))
        assert ok.status_code == 202, await ok.get_json()
    # One of the first key's finished: it renders again.
    await Job.filter(id=queued.id).update(status="succeeded")
    again = await client.post("/api/v3/reports/natal/pdf", json=BODY, headers=key_headers(live))
    assert again.status_code == 202, await again.get_json()


async def test_matching_batches_are_limited_per_key_at_the_edge(app: Quart) -> None:
    account_id, live = await new_account("pro", 1000)
    second = await accounts.create_api_key(account_id, "live")
    client = app.test_client()
    live_id = await _key_id(live)
    await _busy(account_id, live_id, "vedic.kundli_matching_batch", MAX_CONCURRENT_BATCHES - 1)
    person = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
    batch = {"records": [{"id": "r1", "boy": person, "girl": person}]}
    path = "/api/v3/vedic/kundli-matching/batch"
    edge = await client.post(path, json=batch, headers=key_headers(live))
    assert edge.status_code == 202, await edge.get_json()
    await Job.filter(id=(await edge.get_json())["job_id"]).update(status="running")
    refused = await client.post(path, json=batch, headers=key_headers(live))
    assert refused.status_code == 429, await refused.get_json()
    assert refused.headers["Retry-After"]
    other = await client.post(path, json=batch, headers=key_headers(second))
    assert other.status_code == 202, await other.get_json()
