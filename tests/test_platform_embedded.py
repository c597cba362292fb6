"""Embedded mode end to end: no database or Redis configured, one ``astro-server serve``.

SQLite in the data directory, jobs and the scheduler inside the API process.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import httpx
import pytest

from tests._support.stack import Stack

pytestmark = pytest.mark.slow

SUBJECT = {
    "date": "1990-05-17",
    "time": "08:30",
    "latitude": 28.6,
    "longitude": 77.2,
    "timezoneOffsetMinutes": 330,
}


def test_embedded_server_runs_a_billable_job_in_process(
    stack_factory: Callable[..., Stack],
) -> None:
    stack = stack_factory()
    server = stack.server()
    created = json.loads(
        stack.run_cli(
            "create-account", "--name", "laptop", "--tier", "starter", "--credits", "10", "--json"
        ).stdout
    )
    headers = {"X-API-Key": created["api_key"]}
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        ready = client.get("/readyz").json()
        assert ready["checks"]["database"] == "ok"
        assert ready["checks"]["broker"] == "in-process"
        assert ready["checks"]["visual"] == "ok"
        records = [{"id": "a", "boy": SUBJECT, "girl": {**SUBJECT, "date": "1992-03-01"}}]
        queued = client.post(
            "/api/v3/vedic/kundli-matching/batch", json={"records": records}, headers=headers
        )
        assert queued.status_code == 202, queued.text
        assert queued.headers["X-Credits-Charged"] == "2"
        poll = queued.json()["poll"]
        deadline = time.monotonic() + 30
        while (job := client.get(poll, headers=headers).json())["status"] in ("queued", "running"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert job["status"] == "succeeded"
        assert job["result"]["succeeded"] == 1
        listed = client.get("/api/v3/jobs", headers=headers).json()
        assert [j["job_id"] for j in listed["jobs"]] == [job["job_id"]]
        estimate = client.post(
            "/api/v3/estimates",
            json={"operation": "vedic.kundli_matching_batch", "params": {"records": records}},
            headers=headers,
        ).json()
        assert (estimate["estimated_credits"], estimate["balance"]) == (2, 8)
