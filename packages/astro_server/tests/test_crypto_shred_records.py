"""Crypto-shred leaves nothing readable (issue 36): job parameters and idempotency replay
bodies are sealed under the account's data key, so after ``crypto-shred`` the raw rows (SQLite
and PostgreSQL) hold no name or birth data in clear and can never be opened again; a worker
still opens its parameters before the shred, and a job queued before it fails cleanly
(``data_erased``, refunded)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart

from astro_server.features.profiles import service as profiles_service
from astro_server.platform import db, jobs
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.jobs import Job

NAME = "Somchai Jaidee"
SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
# Strings that must not appear in any row of the tables below once the data key is gone.
PLAINTEXTS = [NAME, "Somchai", "Jaidee", "1987-11-23", "13.7563", "100.5018"]
REPORT = {"birth_subject": SUBJECT, "name": NAME, "format": "html", "async": True}
TABLES = ("jobs", "idempotency_records", "reports", "stored_files")


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    async with running_app(settings_for(database_url, tmp_path)) as application:
        yield application


@pytest.fixture
def held_kicks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Jobs are queued but no worker takes them: the test runs each with ``jobs.run_job``."""
    kicked: list[str] = []

    async def record(job_id: str) -> None:
        kicked.append(job_id)

    monkeypatch.setattr("astro_server.platform.broker.kick_job", record)
    return kicked


async def _raw_rows() -> str:
    rows: list[dict[str, Any]] = []
    for table in TABLES:
        rows.extend(await db.fetch(f"SELECT * FROM {table}", []))  # noqa: S608 (fixed names)
    return json.dumps(rows, default=str, ensure_ascii=False)


async def test_after_a_shred_jobs_and_replays_hold_nothing_readable(
    app: Quart, held_kicks: list[str]
) -> None:
    account_id, key = await new_account("pro", 1000)
    client = app.test_client()
    natal = {"subject": {**SUBJECT, "name": NAME}}
    chart_headers = key_headers(key, **{"Idempotency-Key": "chart-1"})
    chart = await client.post("/api/v3/western/natal", json=natal, headers=chart_headers)
    assert chart.status_code == 200, await chart.get_json()
    chart_body = await chart.get_data()
    assert b"1987-11-23" in chart_body  # the answer itself holds the birth data

    headers = key_headers(key, **{"Idempotency-Key": "report-1"})
    first = await client.post("/api/v3/reports/natal/pdf", json=REPORT, headers=headers)
    assert first.status_code == 202, await first.get_json()
    ran = (await first.get_json())["job_id"]
    later = await client.post("/api/v3/reports/natal/pdf", json=REPORT, headers=key_headers(key))
    assert later.status_code == 202
    left_queued = (await later.get_json())["job_id"]
    assert held_kicks == [ran, left_queued]

    # Sealed from the start; the worker opens the parameters and renders.
    sealed_rows = await _raw_rows()
    assert all(secret not in sealed_rows for secret in PLAINTEXTS)
    stored = (await Job.get(id=ran)).params
    assert set(stored) == {"$sealed", "$key", "report_id"}
    await jobs.run_job(ran)
    done = await Job.get(id=ran)
    assert done.status == "succeeded", done.error
    replay = await client.post("/api/v3/western/natal", json=natal, headers=chart_headers)
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert await replay.get_data() == chart_body

    before = (await Account.get(id=account_id)).credits
    async with app.app_context():
        assert await profiles_service.crypto_shred(account_id) == 1

    text = await _raw_rows()
    for secret in PLAINTEXTS:
        assert secret not in text, secret
    # The job queued before the shred fails cleanly, with its charge refunded.
    await jobs.run_job(left_queued)
    failed = await Job.get(id=left_queued)
    assert failed.status == "failed"
    assert failed.error["error"] == "data_erased"
    assert failed.credits_refunded == failed.credits_charged > 0
    assert (await Account.get(id=account_id)).credits == before + failed.credits_charged
    polled = await client.get(f"/api/v3/jobs/{left_queued}", headers=key_headers(key))
    assert polled.status_code == 200
    assert (await polled.get_json())["error"]["error"] == "data_erased"
    report = await client.get(
        f"/api/v3/reports/{(await later.get_json())['report_id']}", headers=key_headers(key)
    )
    assert (await report.get_json())["status"] == "failed"
    # The replay is gone with the key: a clear 409 asking for a new key, not a 500.
    gone = await client.post("/api/v3/western/natal", json=natal, headers=chart_headers)
    assert gone.status_code == 409, await gone.get_data()
    assert "crypto-shred" in (await gone.get_json())["message"]
    # New data gets a new key and works as before.
    fresh = await client.post(
        "/api/v3/western/natal", json=natal, headers=key_headers(key, **{"Idempotency-Key": "c2"})
    )
    assert fresh.status_code == 200
