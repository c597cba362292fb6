"""The developer workflow's session routes (``/v1/developer/...``, issue 31): the portal's
Developers area reads and changes only through them.

Checked: a session token only (an API key is a 401 naming the session); the overview's balance,
tier and this month's spend against the ledger rows written here; usage by operation and day;
the ledger paged with its job and report; live and test keys made, listed per mode, rotated
with a grace period and revoked (the revoked key is refused by the API at once); webhook
endpoints per mode, test event to a local receiver (status, duration, answer), pause, retry of
a failed delivery; the audit log filtered by action and actor; a viewer reads but changes
nothing (403); another account's ids are 404.
"""

from __future__ import annotations

import datetime as dt
import secrets
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, new_account, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.reports.models import Report
from astro_server.platform.auth import accounts
from astro_server.platform.billing import ledger
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery.http import AttemptResult
from astro_server.platform.models.accounts import Customer
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.models.delivery import FeedDelivery
from astro_server.platform.models.jobs import Job
from astro_server.settings import Settings

PASSWORD = "a long enough password"
HOOK = "https://127.0.0.1:9/hook"


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    """SQLite and PostgreSQL (the ``database_url`` fixture is parametrized over both)."""
    return settings_for(
        database_url,
        tmp_path,
        allow_loopback_destinations=True,
        buy_credits_url="https://127.0.0.1:8443/buy",
    )


class Receiver:
    """A delivery client standing in for the customer's endpoint (no socket)."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.sent: list[tuple[str, bytes, dict[str, str]]] = []

    async def post(self, url: str, body: bytes, headers: dict[str, str]) -> AttemptResult:
        self.sent.append((url, body, headers))
        return AttemptResult(
            status=self.status,
            duration_ms=12,
            response_body="thanks" if self.status < 300 else "nope",
            error=None if self.status < 300 else f"HTTP {self.status}",
        )


@pytest.fixture
def receiver(app: Quart) -> Any:
    fake = Receiver()
    delivery_common.set_client(fake)  # type: ignore[arg-type]
    yield fake
    delivery_common.set_client(None)


async def session(
    client: Client, account_id: str, email: str, role: str = "owner"
) -> dict[str, str]:
    customer = await accounts.create_customer(account_id, email, PASSWORD)
    await Customer.filter(id=customer.id).update(role=role)
    answer = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 200, await answer.get_data(as_text=True)
    return {"Authorization": f"Bearer {(await answer.get_json())['token']}"}


async def test_an_api_key_is_refused_and_the_overview_sums_this_month(
    app: Quart, client: Client
) -> None:
    account_id, key = await new_account("pro", credits=1000)
    me = await session(client, account_id, "dev@example.com")
    refused = await client.get("/v1/developer/overview", headers=key_headers(key))
    assert refused.status_code == 401
    assert "session token" in (await refused.get_json())["message"]

    now = dt.datetime.now(dt.UTC)
    month_start = dt.datetime(now.year, now.month, 1, tzinfo=dt.UTC)
    for amount, kind, when in (
        (-5, "debit", now),
        (-7, "debit", now),
        (3, "refund", now),
        (-100, "debit", month_start - dt.timedelta(hours=1)),  # last month: not counted
    ):
        row = await LedgerEntry.create(
            account_id=account_id, kind=kind, amount=amount, operation="western.natal"
        )
        await LedgerEntry.filter(id=row.id).update(created_at=when)
    answer = await client.get("/v1/developer/overview", headers=me)
    assert answer.status_code == 200
    body = await answer.get_json()
    assert body["account"]["tier"] == "pro"
    assert body["account"]["credits_balance"] == 1000
    assert body["month"]["calls"] == 2
    assert body["month"]["credits_charged"] == 12
    assert body["month"]["credits_refunded"] == 3
    assert body["month"]["net_credits"] == 9
    assert body["keys"] == {"active": 1, "revoked": 0}
    assert body["buy_credits_url"] == "https://127.0.0.1:8443/buy"
    test_mode = await (await client.get("/v1/developer/overview?mode=test", headers=me)).get_json()
    assert test_mode["month"]["calls"] == 0
    assert test_mode["keys"] == {"active": 0, "revoked": 0}


async def test_usage_and_ledger_link_rows_to_jobs_and_reports(app: Quart, client: Client) -> None:
    account_id, _ = await new_account("pro")
    me = await session(client, account_id, "dev@example.com")
    await ledger.add_credits(account_id, 500)
    job = await Job.create(
        id="job_" + secrets.token_hex(12),
        account_id=account_id,
        kind="reports.natal",
        params={},
        created_at=dt.datetime.now(dt.UTC),
    )
    report = await Report.create(
        id="rep_" + secrets.token_hex(12),
        account_id=account_id,
        job_id=job.id,
        created_at=dt.datetime.now(dt.UTC),
    )
    for n in range(5):
        await LedgerEntry.create(
            account_id=account_id,
            kind="debit",
            amount=-(n + 1),
            operation="reports.natal" if n == 4 else "western.natal",
            job_id=job.id if n == 4 else None,
        )
    usage = await (
        await client.get("/v1/developer/usage?group_by=operation", headers=me)
    ).get_json()
    by_op = {g["key"]: g for g in usage["groups"]}
    assert by_op["western.natal"]["credits_charged"] == 1 + 2 + 3 + 4
    assert by_op["reports.natal"]["calls"] == 1
    days = await (await client.get("/v1/developer/usage?group_by=day", headers=me)).get_json()
    assert sum(g["calls"] for g in days["groups"]) == 5

    first = await (await client.get("/v1/developer/ledger?limit=2", headers=me)).get_json()
    assert [e["credits"] for e in first["entries"]] == [-5, -4]
    assert first["entries"][0]["job_id"] == job.id
    assert first["entries"][0]["report_id"] == report.id
    assert first["entries"][1]["report_id"] is None
    rest = await (
        await client.get(f"/v1/developer/ledger?limit=10&cursor={first['next_cursor']}", headers=me)
    ).get_json()
    assert [e["type"] for e in rest["entries"]] == ["debit", "debit", "debit", "top_up"]
    assert rest["next_cursor"] is None
    assert (await (await client.get("/v1/developer/ledger?mode=test", headers=me)).get_json())[
        "entries"
    ] == []
    found = await client.get(f"/v1/developer/jobs/{job.id}", headers=me)
    assert (await found.get_json())["report_id"] == report.id

    other_id, _ = await new_account("pro")
    other = await session(client, other_id, "other@example.com")
    assert (await client.get(f"/v1/developer/jobs/{job.id}", headers=other)).status_code == 404
    theirs = await (await client.get("/v1/developer/ledger", headers=other)).get_json()
    assert theirs["entries"] == []


async def test_keys_per_mode_rotate_with_grace_revoke_and_the_audit_log(
    app: Quart, client: Client
) -> None:
    account_id, _ = await new_account("pro")
    me = await session(client, account_id, "dev@example.com")
    made = await client.post(
        "/v1/developer/keys",
        json={"name": "ci", "environment": "test", "scopes": ["western"]},
        headers=me,
    )
    assert made.status_code == 201
    created = await made.get_json()
    assert created["secret"].startswith("ak_test_")
    assert created["key"]["scopes"] == ["western"]
    test_key = created["key"]["id"]
    works = await client.get("/api/v3/account", headers=key_headers(created["secret"]))
    assert works.status_code == 200
    listed_live = await (await client.get("/v1/developer/keys", headers=me)).get_json()
    assert test_key not in [k["id"] for k in listed_live["keys"]]
    listed_test = await (await client.get("/v1/developer/keys?mode=test", headers=me)).get_json()
    assert [k["id"] for k in listed_test["keys"]] == [test_key]
    # Another mode's id is 404, as another account's is.
    wrong_mode = await client.delete(f"/v1/developer/keys/{test_key}", headers=me)
    assert wrong_mode.status_code == 404

    rotated = await client.post(
        f"/v1/developer/keys/{test_key}/rotate?mode=test", json={"grace_s": 3600}, headers=me
    )
    assert rotated.status_code == 200
    rotation = await rotated.get_json()
    assert rotation["previous"]["expires_at"] is not None
    old_still = await client.get("/api/v3/account", headers=key_headers(created["secret"]))
    assert old_still.status_code == 200  # within its grace period
    new_id = rotation["key"]["id"]
    revoked = await client.delete(f"/v1/developer/keys/{new_id}?mode=test", headers=me)
    assert revoked.status_code == 200
    assert (await revoked.get_json())["revoked_at"] is not None
    refused = await client.get("/api/v3/account", headers=key_headers(rotation["secret"]))
    assert refused.status_code == 401

    log = await (await client.get("/v1/developer/audit-log", headers=me)).get_json()
    # The account's first key was made by the operator (create_account); then this login's.
    # Revoking the rotated key also ends its predecessor's grace (issue 50), audited too.
    assert [(e["action"], e["actor"]["kind"]) for e in log["events"]] == [
        ("key.revoked", "customer"),
        ("key.revoked", "customer"),
        ("key.rotated", "customer"),
        ("key.created", "customer"),
        ("key.created", "operator"),
    ]
    assert [e["livemode"] for e in log["events"]] == [False, False, False, False, True]
    only = await (
        await client.get("/v1/developer/audit-log?action=key.rotated", headers=me)
    ).get_json()
    assert [e["object_id"] for e in only["events"]] == [test_key]
    actor = log["events"][0]["actor"]["id"]
    assert (
        len(
            (
                await (
                    await client.get(f"/v1/developer/audit-log?actor={actor}", headers=me)
                ).get_json()
            )["events"]
        )
        == 4
    )
    nobody = await (
        await client.get("/v1/developer/audit-log?actor=cus_nobody", headers=me)
    ).get_json()
    assert nobody["events"] == []


async def test_a_viewer_reads_and_another_account_gets_404(app: Quart, client: Client) -> None:
    account_id, _ = await new_account("enterprise")
    owner = await session(client, account_id, "owner@example.com")
    viewer = await session(client, account_id, "viewer@example.com", role="viewer")
    made = await client.post("/v1/developer/keys", json={"name": "x"}, headers=owner)
    key_id = (await made.get_json())["key"]["id"]
    assert (await client.get("/v1/developer/keys", headers=viewer)).status_code == 200
    assert (await client.get("/v1/developer/audit-log", headers=viewer)).status_code == 200
    for method, path, body in (
        ("POST", "/v1/developer/keys", {"name": "y"}),
        ("DELETE", f"/v1/developer/keys/{key_id}", None),
        (
            "POST",
            "/v1/developer/webhook-endpoints",
            {"url": HOOK, "event_types": ["report.failed"]},
        ),
    ):
        answer = await client.open(path, method=method, json=body, headers=viewer)
        assert answer.status_code == 403, path
    other_id, _ = await new_account("enterprise")
    stranger = await session(client, other_id, "stranger@example.com")
    assert (
        await client.delete(f"/v1/developer/keys/{key_id}", headers=stranger)
    ).status_code == 404
    rotate = await client.post(
        f"/v1/developer/keys/{key_id}/rotate", json={"grace_s": 0}, headers=stranger
    )
    assert rotate.status_code == 404


async def test_webhook_endpoints_test_event_pause_and_retry(
    app: Quart, client: Client, receiver: Receiver
) -> None:
    account_id, _ = await new_account("pro")
    me = await session(client, account_id, "dev@example.com")
    made = await client.post(
        "/v1/developer/webhook-endpoints?mode=test",
        json={"url": HOOK, "event_types": ["report.failed"]},
        headers=me,
    )
    assert made.status_code == 201
    created = await made.get_json()
    assert created["endpoint"]["livemode"] is False
    assert created["signing_secret"].startswith("whsec_")
    endpoint_id = created["endpoint"]["id"]
    base = f"/v1/developer/webhook-endpoints/{endpoint_id}"
    assert (await client.get(base, headers=me)).status_code == 404  # live mode: not there
    assert (await client.get(base + "?mode=test", headers=me)).status_code == 200

    tested = await client.post(base + "/test?mode=test", headers=me)
    assert tested.status_code == 200
    delivery = (await tested.get_json())["delivery"]
    assert delivery["status"] == "succeeded"
    assert delivery["attempt_log"][0]["status_code"] == 200
    assert delivery["attempt_log"][0]["duration_ms"] == 12
    assert delivery["attempt_log"][0]["response_body"] == "thanks"
    url, body, headers = receiver.sent[-1]
    assert url == HOOK
    assert b'"test":true' in body
    assert b'"livemode":false' in body
    assert "webhook-signature" in {h.lower() for h in headers}

    paused = await client.patch(
        base + "?mode=test",
        json={"active": False, "event_types": ["report.failed", "report.succeeded"]},
        headers=me,
    )
    endpoint = (await paused.get_json())["endpoint"]
    assert endpoint["active"] is False
    assert endpoint["event_types"] == ["report.failed", "report.succeeded"]
    resumed = await client.patch(base + "?mode=test", json={"active": True}, headers=me)
    assert (await resumed.get_json())["endpoint"]["active"] is True

    failed = await FeedDelivery.create(
        id="dlv_" + secrets.token_hex(12),
        endpoint_id=endpoint_id,
        kind="event",
        event_type="report.failed",
        message_id="msg_" + secrets.token_hex(12),
        status="failed",
        attempts=3,
        body='{"id":"evt_1","type":"report.failed"}',
    )
    log = await (await client.get(base + "/deliveries?mode=test", headers=me)).get_json()
    assert {d["id"] for d in log["deliveries"]} == {failed.id, delivery["id"]}
    retried = await client.post(base + f"/deliveries/{failed.id}/retry?mode=test", headers=me)
    assert retried.status_code == 202
    no_retry = await client.post(base + f"/deliveries/{delivery['id']}/retry?mode=test", headers=me)
    assert no_retry.status_code == 409  # a test is sent again, not retried

    rotated = await client.post(base + "/rotate-secret?mode=test", headers=me)
    assert (await rotated.get_json())["signing_secret"] != created["signing_secret"]
    other_id, _ = await new_account("pro")
    stranger = await session(client, other_id, "stranger@example.com")
    assert (await client.post(base + "/test?mode=test", headers=stranger)).status_code == 404
    gone = await client.delete(base + "?mode=test", headers=me)
    assert gone.status_code == 204
