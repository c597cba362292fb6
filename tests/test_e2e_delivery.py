"""End to end: a customer subscribes through the SDK; the scheduler fires; a worker delivers the
published horoscope to a local HTTPS receiver, which verifies it with ``astro_sdk.webhooks``.

The stack is real: hypercorn API, two scheduler processes (to show exactly-once), one worker, on
PostgreSQL and Redis. The receiver is pytest-httpserver with a certificate from a trustme CA that
the worker trusts through ``SSL_CERT_FILE``; loopback destinations are allowed by the settings
flag meant for tests.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient
from astro_sdk.webhooks import verify
from astro_server.platform.delivery.tasks import TICK_INTERVAL_S
from tests._support.accounts import create_account
from tests._support.receiver import Inbox, receive
from tests._support.stack import Stack, poll

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

EMAIL = "feeds@example.com"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def receiver(https_server: HTTPServer) -> tuple[HTTPServer, Inbox]:
    return https_server, receive(https_server, "/astro/feed")


def test_scheduled_delivery_reaches_the_receiver_signed_and_once(
    production_stack: Stack,
    receiver: tuple[HTTPServer, Inbox],
    ca_file: Path,
) -> None:
    server, inbox = receiver
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1"}
    api = production_stack.server(env)
    account = create_account(
        production_stack, tier="pro", credits=100, name="feeds-e2e", customer_email=EMAIL
    )

    # The delivery time is the current minute (UTC), so the subscription's first due instant is
    # tomorrow's; the test then moves it back to today's, which has passed (see below), instead
    # of waiting for the wall clock to reach a minute.
    due_today = datetime.now(UTC).replace(second=0, microsecond=0)
    delivery_time = due_today.strftime("%H:%M")
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

        # Stand in for the clock: the next due instant the API stored is tomorrow's; make it
        # today's (already passed), as if the scheduler had been down since then.
        (row,) = production_stack.sql(
            "SELECT next_due_at FROM horoscope_feed_subscriptions WHERE id = $1", sub.id
        )
        assert row["next_due_at"] == due_today + timedelta(days=1)
        production_stack.sql(
            "UPDATE horoscope_feed_subscriptions SET next_due_at = $1 WHERE id = $2",
            due_today,
            sub.id,
        )

        worker_env = {**env, "SSL_CERT_FILE": str(ca_file)}
        production_stack.worker(worker_env)
        production_stack.scheduler(worker_env)
        production_stack.scheduler(worker_env)  # a second scheduler: still one delivery

        items = inbox.wait_for(1, timeout_s=150)
        assert items, "no delivery arrived"
        # Both schedulers have moved on once the stored due instant is tomorrow's again; a
        # duplicate, if any, would be dispatched by then and arrive within a tick or two.
        moved_on = poll(
            lambda: production_stack.sql(
                "SELECT next_due_at FROM horoscope_feed_subscriptions WHERE id = $1", sub.id
            )[0]["next_due_at"],
            lambda at: at == due_today + timedelta(days=1),
        )
        assert moved_on == due_today + timedelta(days=1)
        items = inbox.wait_for(2, timeout_s=2 * TICK_INTERVAL_S + 0.5)
        assert len(items) == 1
        body, headers = items[0]
        event = verify(body, headers, secret)
        assert event["type"] == "horoscope.daily"
        assert event["id"] == headers["Webhook-Id"]
        local_date = event["data"]["date"]
        assert local_date == due_today.date().isoformat()

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
