"""End to end: a customer subscribes through the SDK; the scheduler fires; a worker delivers the
published horoscope to a local HTTPS receiver, which verifies it with ``astro_sdk.webhooks``.

The stack is real: hypercorn API, two scheduler processes (to show exactly-once), one worker, on
PostgreSQL and Redis. The receiver is pytest-httpserver with a certificate from a trustme CA that
the worker trusts through ``SSL_CERT_FILE``; loopback destinations are allowed by the settings
flag meant for tests.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import astro_sdk
from astro_sdk import AstroClient
from astro_sdk.webhooks import verify
from conftest import Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

EMAIL = "feeds@example.com"
PASSWORD = "correct horse battery staple"


class Inbox:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[tuple[bytes, dict[str, str]]] = []

    def handle(self, request: Request) -> Response:
        with self.lock:
            self.items.append((request.get_data(), dict(request.headers)))
        return Response("received", status=200)

    def wait_for(self, count: int, timeout_s: float) -> list[tuple[bytes, dict[str, str]]]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.items) >= count:
                    return list(self.items)
            time.sleep(0.2)
        with self.lock:
            return list(self.items)


@pytest.fixture
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[tuple[HTTPServer, Inbox]]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("localhost").configure_cert(context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context, threaded=True)
    inbox = Inbox()
    server.expect_request("/astro/feed", method="POST").respond_with_handler(inbox.handle)
    server.start()
    yield server, inbox
    server.clear()
    if server.is_running():
        server.stop()


def create_account(stack: Stack) -> dict[str, Any]:
    out = stack.run_cli(
        "create-account", "--name", "feeds-e2e", "--tier", "pro", "--credits", "100", "--json"
    )
    account: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    stack.run_cli(
        "create-customer",
        "--account",
        account["account_id"],
        "--email",
        EMAIL,
        "--password",
        PASSWORD,
    )
    return account


def test_scheduled_delivery_reaches_the_receiver_signed_and_once(
    production_stack: Stack,
    receiver: tuple[HTTPServer, Inbox],
    ca: trustme.CA,
    tmp_path: Path,
) -> None:
    server, inbox = receiver
    ca_file = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1"}
    api = production_stack.server(env)
    account = create_account(production_stack)

    # Deliver at the next whole minute (UTC), so the scheduler fires within the test.
    now = datetime.now(UTC)
    if now.second > 50:
        time.sleep(61 - now.second)
        now = datetime.now(UTC)
    delivery_time = (now + timedelta(minutes=1)).strftime("%H:%M")
    destination = f"https://localhost:{server.port}/astro/feed"

    with AstroClient(base_url=api.base_url) as client:
        customer = client.auth.login(EMAIL, PASSWORD)
        created = customer.horoscope_feeds.create(
            destination_url=destination, sign="leo", delivery_time=delivery_time
        )
        secret = created.signing_secret
        sub = created.subscription
        assert sub.active
        assert (sub.sign, sub.language, sub.timezone) == ("leo", "en", "UTC")
        # The SDK refuses to send an API key to a session route; the server refuses it too.
        with pytest.raises(astro_sdk.MissingCredentialError):
            AstroClient(base_url=api.base_url, api_key=account["api_key"]).horoscope_feeds.list()
        keyed = httpx.get(
            f"{api.base_url}/v1/horoscope-feed-subscriptions",
            headers={"X-API-Key": account["api_key"]},
            timeout=30,
        )
        assert keyed.status_code == 401
        with pytest.raises(astro_sdk.BadRequestError) as unsafe:
            customer.horoscope_feeds.create(destination_url="https://10.0.0.1/x", sign="leo")
        assert unsafe.value.code == "unsafe_destination"

        worker_env = {**env, "SSL_CERT_FILE": str(ca_file)}
        production_stack.worker(worker_env)
        production_stack.scheduler(worker_env)
        production_stack.scheduler(worker_env)  # a second scheduler: still one delivery

        items = inbox.wait_for(1, timeout_s=150)
        assert items, "no delivery arrived"
        time.sleep(6)  # let a duplicate, if any, arrive
        items = inbox.wait_for(2, timeout_s=0)
        assert len(items) == 1
        body, headers = items[0]
        event = verify(body, headers, secret)
        assert event["type"] == "horoscope.daily"
        assert event["id"] == headers["Webhook-Id"]
        local_date = event["data"]["date"]

        log = customer.horoscope_feeds.deliveries(sub.id)
        (delivery,) = log.data
        assert delivery.status == "succeeded"
        assert delivery.local_date is not None
        assert delivery.local_date.isoformat() == local_date
        assert delivery.attempt_log[0].status_code == 200
        assert delivery.attempt_log[0].response_body == "received"

    published = httpx.get(
        f"{api.base_url}/api/v3/horoscopes/daily",
        params={"sign": "leo", "date": local_date, "language": "en"},
        headers={"X-API-Key": account["api_key"]},
        timeout=30,
    )
    assert published.status_code == 200
    assert event["data"] == published.json()
