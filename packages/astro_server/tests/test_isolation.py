"""Isolation inside one account (issue 36): test and live objects never meet, roles and scopes
hold on every object. SQLite and PostgreSQL, the embedded app.

* Mode: a test key (``ak_test_``) neither reads, changes nor deletes a live webhook endpoint,
  report, visual upload or reading, nor lists them; a live key not a test one (404, as for
  another account's).
* Events carry the mode of what caused them and reach only endpoints of that mode.
* Roles: a member neither manages the account's visual-reading deliveries nor deletes a reading
  it did not make (403); an admin does.
* Scopes: a job is visible only to a key whose scopes cover its kind; a ``profile_id`` reference
  needs the ``profiles`` scope.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.reports.models import Report
from astro_server.features.visual.models import VisualReading, VisualUpload
from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Customer
from astro_server.platform.models.delivery import FeedDelivery, WebhookEndpoint
from astro_server.platform.models.jobs import Job

ENDPOINTS = "/api/v3/webhook-endpoints"
HOOK = "https://127.0.0.1:9/hook"  # loopback, never answered: only the rows are looked at
SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
PASSWORD = "a long enough password"


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(
        database_url,
        tmp_path,
        allow_loopback_destinations=True,
        rate_limits={"free": 10_000, "starter": 10_000, "pro": 10_000, "enterprise": 10_000},
    )
    async with running_app(settings) as application:
        yield application
        await application.extensions["astro"].broker.wait_all()


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


def _id(prefix: str) -> str:
    return prefix + secrets.token_hex(12)


def _now() -> datetime:
    return datetime.now(UTC)


async def _keys(tier: str = "pro") -> tuple[str, str, str]:
    """(account id, live key, test key) of a new account."""
    account_id, live = await new_account(tier, 100)
    return account_id, live, await accounts.create_api_key(account_id, "test")


async def _session(client: Client, account_id: str, role: str) -> dict[str, str]:
    email = f"{role}-{secrets.token_hex(4)}@example.test"
    customer = await accounts.create_customer(account_id, email, PASSWORD)
    await Customer.filter(id=customer.id).update(role=role)
    answer = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 200, await answer.get_json()
    return {
        "Authorization": f"Bearer {(await answer.get_json())['token']}",
        "X-Customer": customer.id,
    }


def _bearer(session: dict[str, str]) -> dict[str, str]:
    return {"Authorization": session["Authorization"]}


async def _endpoint(client: Client, key: str, types: list[str]) -> dict[str, Any]:
    answer = await client.post(
        ENDPOINTS, json={"url": HOOK, "event_types": types}, headers=key_headers(key)
    )
    assert answer.status_code == 201, await answer.get_json()
    endpoint: dict[str, Any] = (await answer.get_json())["endpoint"]
    return endpoint


# --- mode ---------------------------------------------------------------------------------------


async def test_webhook_endpoints_of_the_other_mode_are_not_found(client: Client) -> None:
    _, live, test = await _keys()
    live_endpoint = await _endpoint(client, live, ["report.succeeded"])
    test_endpoint = await _endpoint(client, test, ["report.succeeded"])
    before = await WebhookEndpoint.get(id=live_endpoint["id"])
    for key, other in ((test, live_endpoint["id"]), (live, test_endpoint["id"])):
        headers = key_headers(key)
        for method, path, body in (
            ("GET", f"{ENDPOINTS}/{other}", None),
            ("PATCH", f"{ENDPOINTS}/{other}", {"active": False}),
            ("POST", f"{ENDPOINTS}/{other}/rotate-secret", None),
            ("GET", f"{ENDPOINTS}/{other}/deliveries", None),
            ("DELETE", f"{ENDPOINTS}/{other}", None),
        ):
            answer = await client.open(path, method=method, json=body, headers=headers)
            assert answer.status_code == 404, (method, path, await answer.get_json())
    after = await WebhookEndpoint.get(id=live_endpoint["id"])
    assert (after.secret_ciphertext, after.active) == (before.secret_ciphertext, True)
    for key, mine in ((live, live_endpoint["id"]), (test, test_endpoint["id"])):
        listed = await (await client.get(ENDPOINTS, headers=key_headers(key))).get_json()
        assert [e["id"] for e in listed["endpoints"]] == [mine]
        answer = await client.post(f"{ENDPOINTS}/{mine}/rotate-secret", headers=key_headers(key))
        assert answer.status_code == 200


async def test_reports_of_the_other_mode_are_neither_read_nor_listed(client: Client) -> None:
    account_id, live, test = await _keys()
    session = await _session(client, account_id, "owner")
    reports = {}
    for livemode in (True, False):
        reports[livemode] = await Report.create(
            id="rep_" + secrets.token_hex(12),
            account_id=account_id,
            livemode=livemode,
            created_at=_now(),
        )
    for key, livemode in ((live, True), (test, False)):
        mine = await client.get(f"/api/v3/reports/{reports[livemode].id}", headers=key_headers(key))
        assert mine.status_code == 200
        other = await client.get(
            f"/api/v3/reports/{reports[not livemode].id}", headers=key_headers(key)
        )
        assert other.status_code == 404
    listed = await (await client.get("/v1/reports", headers=_bearer(session))).get_json()
    assert [r["report_id"] for r in listed["reports"]] == [reports[True].id]
    answer = await client.get(f"/v1/reports/{reports[False].id}", headers=_bearer(session))
    assert answer.status_code == 404


async def _visual_rows(
    account_id: str, livemode: bool, created_by: str | None = None
) -> tuple[VisualUpload, VisualReading]:
    upload = await VisualUpload.create(
        id=_id("upl_"),
        account_id=account_id,
        livemode=livemode,
        created_by=created_by,
        kind="face",
        content_type="image/jpeg",
        content_length=10,
        sha256="0" * 64,
        status="uploaded",
        raw_key="nothing.raw",
        expires_at=_now() + timedelta(minutes=15),
    )
    reading = await VisualReading.create(
        id=_id("vr_"),
        account_id=account_id,
        livemode=livemode,
        created_by=created_by,
        upload_id=_id("upl_"),
        kind="face",
        language="en",
        status="succeeded",
        reading={"summary": "a reading"},
    )
    return upload, reading


async def test_visual_objects_of_the_other_mode_are_not_found(client: Client) -> None:
    account_id, live, test = await _keys()
    session = await _session(client, account_id, "owner")
    rows = {mode: await _visual_rows(account_id, mode) for mode in (True, False)}
    base = "/api/v3/visual-readings"
    for key, livemode in ((live, True), (test, False)):
        upload, reading = rows[not livemode]
        headers = key_headers(key)
        answers = [
            await client.post(f"{base}/uploads/{upload.id}/complete", headers=headers),
            await client.post(
                base, json={"upload_id": upload.id, "language": "en"}, headers=headers
            ),
            await client.get(f"{base}/{reading.id}", headers=headers),
            await client.delete(f"{base}/{reading.id}", headers=headers),
        ]
        assert [a.status_code for a in answers] == [404] * 4
        mine = await client.get(f"{base}/{rows[livemode][1].id}", headers=headers)
        assert mine.status_code == 200
    assert (await VisualUpload.get(id=rows[True][0].id)).status == "uploaded"
    assert await VisualReading.filter(upload_id=rows[True][0].id).count() == 0
    assert (await VisualReading.get(id=rows[True][1].id)).images_deleted_at is None
    listed = await (await client.get("/v1/visual-readings", headers=_bearer(session))).get_json()
    assert [r["id"] for r in listed["readings"]] == [rows[True][1].id]
    answer = await client.get(f"/v1/visual-readings/{rows[False][1].id}", headers=_bearer(session))
    assert answer.status_code == 404


async def test_a_test_keys_upload_event_reaches_only_test_endpoints(client: Client) -> None:
    from _visual_support import astronaut, encode

    _, live, test = await _keys()
    types = ["visual_upload.validated", "visual_upload.rejected"]
    live_endpoint = await _endpoint(client, live, types)
    test_endpoint = await _endpoint(client, test, types)
    photo = encode(astronaut())
    grant = {
        "content_length": len(photo),
        "sha256": hashlib.sha256(photo).hexdigest(),
        "content_type": "image/jpeg",
        "kind": "face",
    }
    granted = await (
        await client.post("/api/v3/visual-readings/uploads", json=grant, headers=key_headers(test))
    ).get_json()
    url = urlsplit(granted["upload_url"])
    put = await client.put(
        f"{url.path}?{url.query}", data=photo, headers=granted["required_headers"]
    )
    assert put.status_code == 204
    done = await client.post(
        f"/api/v3/visual-readings/uploads/{granted['upload_id']}/complete",
        headers=key_headers(test),
    )
    assert done.status_code == 200, await done.get_json()
    assert await FeedDelivery.filter(endpoint_id=live_endpoint["id"]).count() == 0
    (delivery,) = await FeedDelivery.filter(endpoint_id=test_endpoint["id"])
    event = json.loads(delivery.body or "")
    assert (event["type"], event["livemode"]) == ("visual_upload.validated", False)
    upload = await VisualUpload.get(id=granted["upload_id"])
    assert upload.livemode is False
    from astro_server.platform.models.files import StoredFile

    assert (await StoredFile.get(id=upload.photo_file_id)).livemode is False


# --- roles --------------------------------------------------------------------------------------


async def test_a_member_manages_neither_account_deliveries_nor_others_readings(
    client: Client,
) -> None:
    account_id, _, _ = await _keys("enterprise")
    admin = await _session(client, account_id, "admin")
    member = await _session(client, account_id, "member")
    viewer = await _session(client, account_id, "viewer")
    base = "/v1/visual-reading-deliveries"
    body = {"destination": "team@example.test", "event_types": ["visual_reading.succeeded"]}
    refused = await client.post(base, json=body, headers=_bearer(member))
    assert refused.status_code == 403
    assert "'admin' role" in (await refused.get_json())["message"]
    made = await client.post(base, json=body, headers=_bearer(admin))
    assert made.status_code == 201
    sub_id = (await made.get_json())["subscription"]["id"]
    patch = await client.patch(f"{base}/{sub_id}", json={"active": False}, headers=_bearer(member))
    delete = await client.delete(f"{base}/{sub_id}", headers=_bearer(member))
    assert (patch.status_code, delete.status_code) == (403, 403)
    assert (await WebhookEndpoint.get(id=sub_id)).active is True
    seen = await client.get(f"{base}/{sub_id}", headers=_bearer(member))
    assert seen.status_code == 200  # reading stays open to every role
    patched = await client.patch(f"{base}/{sub_id}", json={"active": False}, headers=_bearer(admin))
    assert patched.status_code == 200

    readings = "/v1/visual-readings"
    _, by_key = await _visual_rows(account_id, True, None)
    _, by_member = await _visual_rows(account_id, True, member["X-Customer"])
    _, by_admin = await _visual_rows(account_id, True, admin["X-Customer"])
    for session, reading, status in (
        (member, by_key, 403),
        (member, by_admin, 403),
        (viewer, by_member, 403),
        (member, by_member, 200),
        (admin, by_key, 200),
    ):
        answer = await client.delete(f"{readings}/{reading.id}", headers=_bearer(session))
        assert answer.status_code == status, (reading.created_by, await answer.get_json())
        deleted = (await VisualReading.get(id=reading.id)).images_deleted_at is not None
        assert deleted is (status == 200)


# --- scopes -------------------------------------------------------------------------------------


async def _job(account_id: str, kind: str) -> Job:
    return await Job.create(
        id=_id("job_"),
        account_id=account_id,
        kind=kind,
        params={},
        status="succeeded",
        result={"html_url": "http://testserver/files/secret"},
        created_at=_now(),
    )


async def test_jobs_are_visible_only_to_keys_whose_scopes_cover_their_kind(
    client: Client,
) -> None:
    account_id, full, _ = await _keys()
    western = await accounts.create_api_key(account_id, scopes_wanted=frozenset({"western"}))
    reports = await accounts.create_api_key(account_id, scopes_wanted=frozenset({"reports"}))
    report_job = await _job(account_id, "reports.natal")
    vedic_job = await _job(account_id, "vedic.kundli_matching_batch")

    async def listed(key: str) -> set[str]:
        body = await (await client.get("/api/v3/jobs", headers=key_headers(key))).get_json()
        return {j["job_id"] for j in body["jobs"]}

    assert await listed(full) == {report_job.id, vedic_job.id}
    assert await listed(reports) == {report_job.id}
    assert await listed(western) == set()
    refused = await client.get(f"/api/v3/jobs/{report_job.id}", headers=key_headers(western))
    assert refused.status_code == 403
    assert "'reports'" in (await refused.get_json())["message"]
    cancel = await client.post(f"/api/v3/jobs/{report_job.id}/cancel", headers=key_headers(western))
    assert cancel.status_code == 403
    seen = await client.get(f"/api/v3/jobs/{report_job.id}", headers=key_headers(reports))
    assert seen.status_code == 200
    other = await client.get(f"/api/v3/jobs/{vedic_job.id}", headers=key_headers(reports))
    assert other.status_code == 403


async def test_a_profile_reference_needs_the_profiles_scope(client: Client) -> None:
    account_id, full, _ = await _keys()
    made = await client.post(
        "/api/v3/profiles", json={"name": "Somchai", "birth": SUBJECT}, headers=key_headers(full)
    )
    assert made.status_code == 201, await made.get_json()
    profile_id = (await made.get_json())["profile"]["id"]
    western = await accounts.create_api_key(account_id, scopes_wanted=frozenset({"western"}))
    both = await accounts.create_api_key(
        account_id, scopes_wanted=frozenset({"western", "profiles"})
    )
    natal = "/api/v3/western/natal"
    refused = await client.post(
        natal, json={"subject": {"profile_id": profile_id}}, headers=key_headers(western)
    )
    assert refused.status_code == 403
    body = await refused.get_json()
    assert "profiles" in body["message"]
    assert "1987" not in json.dumps(body)
    assert refused.headers.get("X-Credits-Charged") is None
    inline = await client.post(natal, json={"subject": SUBJECT}, headers=key_headers(western))
    allowed = await client.post(
        natal, json={"subject": {"profile_id": profile_id}}, headers=key_headers(both)
    )
    assert (inline.status_code, allowed.status_code) == (200, 200)
    assert (await inline.get_json()) == (await allowed.get_json())
