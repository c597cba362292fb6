"""Visual-reading deliveries (spec 5, session routes) in the embedded app on SQLite and
PostgreSQL: the fields at their edges, the webhook kind (SSRF rule, signing secret once,
delivery verified with standardwebhooks), the e-mail kind received by a local SMTP sink
(aiosmtpd) as a bilingual text and HTML message with the summary and a link and no photo,
PATCH pause and resume, delete, another account's subscription 404, and the attempt log."""

from __future__ import annotations

import asyncio
import email
import socket
import ssl
from collections.abc import AsyncIterator, Iterator
from email import policy
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import trustme
from _platform_support import new_account, running_app, settings_for
from _visual_support import encode, grace_hopper
from aiosmtpd.controller import Controller
from pytest_httpserver import HTTPServer
from quart import Quart
from quart.typing import TestClientProtocol as Client
from standardwebhooks import Webhook
from test_visual_readings import grant_body
from werkzeug import Request, Response

from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.models.delivery import FeedDeliveryAttempt

BASE = "/v1/visual-reading-deliveries"
EVENTS = ["visual_reading.succeeded", "visual_upload.validated"]


class Sink:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Sink, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[tuple[HTTPServer, list[tuple[bytes, dict[str, str]]]]]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("localhost", "127.0.0.1").configure_cert(context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context, threaded=True)
    server.start()
    got: list[tuple[bytes, dict[str, str]]] = []

    def handle(request: Request) -> Response:
        got.append((request.get_data(), dict(request.headers)))
        return Response("ok")

    server.expect_request("/hooks", method="POST").respond_with_handler(handle)
    yield server, got
    server.clear()
    server.stop()


@pytest.fixture
async def app(
    database_url: str, tmp_path: Path, ca: trustme.CA, smtp: tuple[Sink, int]
) -> AsyncIterator[Quart]:
    settings = settings_for(
        database_url, tmp_path, allow_loopback_destinations=True,
        smtp_url=f"smtp://127.0.0.1:{smtp[1]}", mail_from="readings@astro.test",
        public_url="https://astro.test",
    )  # fmt: skip
    async with running_app(settings) as application:
        context = ssl.create_default_context()
        ca.configure_trust(context)
        client = DeliveryClient(allow_loopback=True, ssl_context=context)
        delivery_common.set_client(client)
        yield application
        await application.extensions["astro"].broker.wait_all()
        delivery_common.set_client(None)
        await client.aclose()


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


async def login(client: Client, email_address: str) -> tuple[str, dict[str, str]]:
    account_id, _ = await new_account("pro", 100)
    await accounts.create_customer(account_id, email_address, "correct horse battery")
    response = await client.post(
        "/auth/login", json={"email": email_address, "password": "correct horse battery"}
    )
    return account_id, {"Authorization": f"Bearer {(await response.get_json())['token']}"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"destination": "http://example.com/x", "event_types": EVENTS}, "destination"),
        ({"destination": "https://10.0.0.1/x", "event_types": EVENTS}, "destination"),
        ({"destination": "ana@localhost", "event_types": EVENTS}, "destination"),
        ({"destination": "ana@example.com", "event_types": []}, "event_types"),
        ({"destination": "ana@example.com", "event_types": ["report.succeeded"]}, "event_types"),
    ],
)
async def test_bad_subscriptions_name_the_field(
    client: Client, body: dict[str, Any], field: str
) -> None:
    _, session = await login(client, "ana@example.com")
    response = await client.post(BASE, json=body, headers=session)
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"].startswith(field)


async def wait_until(predicate: Any, timeout_s: float = 30) -> None:
    for _ in range(int(timeout_s / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_webhook_and_email_receive_a_reading_without_the_photo(
    client: Client,
    smtp: tuple[Sink, int],
    receiver: tuple[HTTPServer, list[tuple[bytes, dict[str, str]]]],
) -> None:
    sink, _ = smtp
    server, got = receiver
    account_id, session = await login(client, "ana@example.com")
    hook = await client.post(
        BASE,
        json={"destination": f"https://localhost:{server.port}/hooks", "event_types": EVENTS},
        headers=session,
    )
    assert hook.status_code == 201
    created = await hook.get_json()
    assert created["signing_secret"].startswith("whsec_")
    assert created["subscription"]["channel"] == "webhook"
    mail = await client.post(
        BASE, json={"destination": "Ana@Example.com", "event_types": EVENTS}, headers=session
    )
    mailed = await mail.get_json()
    assert "signing_secret" not in mailed
    assert mailed["subscription"]["destination"] == "ana@example.com"
    # Account webhooks (API key) do not list these.
    listed = await (await client.get(BASE, headers=session)).get_json()
    assert len(listed["subscriptions"]) == 2

    data = encode(grace_hopper())
    granted = await (
        await client.post("/v1/visual-readings/uploads", json=grant_body(data), headers=session)
    ).get_json()
    url = urlsplit(granted["upload_url"])
    await client.put(f"{url.path}?{url.query}", data=data)
    await client.post(
        f"/v1/visual-readings/uploads/{granted['upload_id']}/complete", headers=session
    )
    handle = await (
        await client.post(
            "/v1/visual-readings",
            json={"upload_id": granted["upload_id"], "language": "th"},
            headers=session,
        )
    ).get_json()
    await wait_until(lambda: len(got) >= 2 and len(sink.messages) >= 2)

    events = [Webhook(created["signing_secret"]).verify(b, h) for b, h in got]
    assert sorted(e["type"] for e in events) == sorted(EVENTS)
    by_subject = {m["Subject"]: m for m in sink.messages}
    ready = by_subject["Your reading is ready / ผลการอ่านจากภาพของคุณพร้อมแล้ว"]
    assert ready["To"] == "ana@example.com"
    assert ready["From"] == "readings@astro.test"
    parts = {p.get_content_type(): p.get_content() for p in ready.walk() if not p.is_multipart()}
    assert set(parts) == {"text/plain", "text/html"}
    link = f"https://astro.test/v1/visual-readings/{handle['reading_id']}"
    assert link in parts["text/plain"]
    assert link in parts["text/html"]
    assert "ดูโหงวเฮ้ง: ใบหน้ารูปไข่" in parts["text/plain"]  # the Thai summary
    assert all(p.get_content_maintype() != "image" for p in ready.walk())
    from astro_server.platform.models.delivery import FeedDelivery

    for _ in range(200):  # the outcome is recorded once the batch's attempts are done
        rows = await FeedDelivery.all()
        if [r.status for r in rows] == ["succeeded"] * 4:
            break
        await asyncio.sleep(0.05)
    assert sorted((r.event_type, r.status, r.attempts) for r in rows) == [
        ("visual_reading.succeeded", "succeeded", 1), ("visual_reading.succeeded", "succeeded", 1),
        ("visual_upload.validated", "succeeded", 1), ("visual_upload.validated", "succeeded", 1),
    ]  # fmt: skip
    # Each outcome is written with its attempt row in one transaction: once every delivery
    # reads succeeded, each has exactly its one attempt (the receiver and the sink have the
    # message before the worker records the answer, hence the wait on the statuses above).
    logged = await FeedDeliveryAttempt.all()
    assert sorted((a.delivery_id, a.number, a.succeeded) for a in logged) == sorted(
        (r.id, 1, True) for r in rows
    )

    # The delivery log of each subscription, a page at a time.
    hook_id = created["subscription"]["id"]
    first = await (
        await client.get(f"{BASE}/{hook_id}/deliveries?limit=1", headers=session)
    ).get_json()
    assert len(first["deliveries"]) == 1
    assert first["next_cursor"] == first["deliveries"][0]["id"]
    second = await (
        await client.get(
            f"{BASE}/{hook_id}/deliveries?limit=1&cursor={first['next_cursor']}", headers=session
        )
    ).get_json()
    assert second["next_cursor"] is None
    paged = first["deliveries"] + second["deliveries"]
    assert sorted(d["event_type"] for d in paged) == sorted(EVENTS)
    assert {d["endpoint_id"] for d in paged} == {hook_id}
    assert [len(d["attempt_log"]) for d in paged] == [1, 1]
    assert all(d["attempt_log"][0]["status_code"] == 200 for d in paged)
    full = await (await client.get(f"{BASE}/{hook_id}/deliveries", headers=session)).get_json()
    assert [d["id"] for d in full["deliveries"]] == [d["id"] for d in paged]
    assert full["next_cursor"] is None

    # Pause, resume, delete; another account sees none of it.
    sub_id = mailed["subscription"]["id"]
    paused = await client.patch(f"{BASE}/{sub_id}", json={"active": False}, headers=session)
    assert (await paused.get_json())["subscription"]["active"] is False
    resumed = await client.patch(f"{BASE}/{sub_id}", json={"active": True}, headers=session)
    assert (await resumed.get_json())["subscription"]["active"] is True
    _, stranger = await login(client, "bo@example.com")
    assert (await client.get(f"{BASE}/{sub_id}", headers=stranger)).status_code == 404
    assert (await client.get(f"{BASE}/{hook_id}/deliveries", headers=stranger)).status_code == 404
    assert (await client.delete(f"{BASE}/{sub_id}", headers=session)).status_code == 204
    assert (await client.get(f"{BASE}/{sub_id}", headers=session)).status_code == 404
    del account_id


async def test_an_unreachable_mail_server_is_a_failed_attempt_counted_like_a_webhook(
    database_url: str, tmp_path: Path
) -> None:
    from astro_server.platform.delivery.events import emit_account_event
    from astro_server.platform.models.delivery import FeedDelivery, WebhookEndpoint

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    settings = settings_for(database_url, tmp_path, smtp_url=f"smtp://127.0.0.1:{closed_port}")
    async with running_app(settings) as application:
        client = application.test_client()
        account_id, session = await login(client, "ana@example.com")
        created = await client.post(
            BASE, json={"destination": "ana@example.com", "event_types": EVENTS}, headers=session
        )
        sub_id = (await created.get_json())["subscription"]["id"]
        await emit_account_event(
            account_id, "visual_upload.validated", {"upload_id": "upl_" + "0" * 24}, True
        )
        for _ in range(200):
            (row,) = await FeedDelivery.filter(endpoint_id=sub_id)
            if row.attempts:
                break
            await asyncio.sleep(0.05)
        await application.extensions["astro"].broker.wait_all()
        for _ in range(100):  # the outcome is recorded after the attempt
            (row,) = await FeedDelivery.filter(endpoint_id=sub_id)
            if row.status != "sending" and row.last_error:
                break
            await asyncio.sleep(0.05)
        assert (row.status, row.attempts) == ("retrying", 1)
        assert row.last_error is not None
        assert row.last_error.startswith("smtp:")
        endpoint = await WebhookEndpoint.get(id=sub_id)
        assert (endpoint.consecutive_failures, endpoint.active) == (1, True)
        attempt = await FeedDeliveryAttempt.get(delivery_id=row.id)
        assert not attempt.succeeded


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=0", "limit"), ("limit=101", "limit"), ("cursor=whe_unknown", "cursor")],
)
@pytest.mark.parametrize("log", [False, True])
async def test_both_lists_refuse_a_limit_or_cursor_out_of_bounds(
    client: Client, query: str, field: str, log: bool
) -> None:
    _, session = await login(client, "ana@example.com")
    created = await client.post(
        BASE, json={"destination": "ana@example.com", "event_types": EVENTS}, headers=session
    )
    sub_id = (await created.get_json())["subscription"]["id"]
    path = f"{BASE}/{sub_id}/deliveries" if log else BASE
    response = await client.get(f"{path}?{query}", headers=session)
    assert response.status_code == 400
    body = await response.get_json()
    assert body["error"] == "validation_error"
    assert [d["field"] for d in body["details"]] == [field]
    for inside in ("limit=1", "limit=100"):  # the edges that are allowed
        assert (await client.get(f"{path}?{inside}", headers=session)).status_code == 200


async def test_subscriptions_page_with_a_cursor(client: Client) -> None:
    _, session = await login(client, "ana@example.com")
    made = []
    for n in range(3):
        response = await client.post(
            BASE, json={"destination": f"ana{n}@example.com", "event_types": EVENTS},
            headers=session,
        )  # fmt: skip
        made.append((await response.get_json())["subscription"]["id"])
    seen: list[str] = []
    cursor = ""
    pages = 0
    while True:
        response = await client.get(f"{BASE}?limit=2{cursor}", headers=session)
        page = await response.get_json()
        seen += [s["id"] for s in page["subscriptions"]]
        pages += 1
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert pages == 2
    assert seen == made[::-1]  # newest first, each once
    _, stranger = await login(client, "bo@example.com")
    other = await client.get(f"{BASE}?cursor={made[0]}", headers=stranger)
    assert other.status_code == 400  # another account's id is no cursor of this list
