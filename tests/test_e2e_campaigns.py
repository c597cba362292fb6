"""Campaign content end to end through the SDK against live processes (hypercorn API, one
worker, two schedulers) on PostgreSQL and Redis:

* an enterprise account registers a webhook endpoint for ``campaign.content_ready`` and creates
  a campaign whose delivery time is the next minute; the scheduler builds the day's content and
  the worker delivers it to a local HTTPS receiver, where ``astro_sdk.webhooks.verify`` accepts
  it; with two schedulers running, the day still arrives exactly once;
* the delivered copy is the copy ``client.campaigns.content`` serves, and the CSV has the same
  text;
* list, get, update, delete, the tier (403 naming it), a 93-day campaign (400 naming ``end``),
  another account's campaign (404), sync and async clients.

The receiver's certificate comes from a trustme CA the processes trust through ``SSL_CERT_FILE``;
loopback destinations are allowed by the settings flag meant for tests.
"""

from __future__ import annotations

import csv
import io
import json
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import trustme
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.webhooks import verify
from conftest import Stack, poll, redis_db

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


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
    server.expect_request("/campaigns", method="POST").respond_with_handler(inbox.handle)
    server.start()
    yield server, inbox
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture
def production_stack(
    stack_factory: Callable[..., Stack], fresh_pg_database: str, redis_url: str
) -> Stack:
    """The PostgreSQL + Redis stack of conftest, on a Redis database of its own (slot 2,
    flushed first): other tests flush slot 0 while they start, which deletes a running
    worker's stream and stops it."""
    import redis

    own = redis_db(redis_url, 2)
    client = redis.Redis.from_url(own)
    client.flushdb()
    client.close()
    return stack_factory(database_url=fresh_pg_database, redis_url=own)


def create_account(stack: Stack, tier: str = "enterprise") -> dict[str, Any]:
    out = stack.run_cli(
        "create-account", "--name", "campaigns-e2e", "--tier", tier, "--credits", "500", "--json"
    )
    account: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return account


def test_campaign_day_is_delivered_signed_and_once_through_the_sdk(
    production_stack: Stack,
    receiver: tuple[HTTPServer, Inbox],
    ca: trustme.CA,
    tmp_path: Path,
) -> None:
    server, inbox = receiver
    ca_file = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1", "SSL_CERT_FILE": str(ca_file)}
    api = production_stack.server(env)
    account = create_account(production_stack)

    # Deliver at the next whole minute (UTC), so the scheduler fires within the test.
    now = datetime.now(UTC)
    if now.second > 45:
        time.sleep(61 - now.second)
        now = datetime.now(UTC)
    due = now + timedelta(minutes=1)
    today = now.date()

    with AstroClient(api_key=account["api_key"], base_url=api.base_url) as client:
        endpoint = client.webhook_endpoints.create(
            url=f"https://localhost:{server.port}/campaigns",
            event_types=["campaign.content_ready"],
        )
        campaign = client.campaigns.create(
            name="Launch week",
            start=today,
            end=today + timedelta(days=1),
            signs=["leo", "virgo"],
            languages=["en", "th"],
            markets=["TH", "CN"],
            delivery_time=due.strftime("%H:%M"),
            timezone="UTC",
        )
        assert campaign.api_response.credits_charged == 4
        assert campaign.next_delivery_at is not None
        assert campaign.next_delivery_at.replace(second=0, microsecond=0) == due.replace(
            second=0, microsecond=0
        )

        production_stack.worker(env)
        production_stack.scheduler(env)
        production_stack.scheduler(env)  # a second scheduler: still one delivery

        items = inbox.wait_for(1, timeout_s=150)
        assert items, "no delivery arrived"
        time.sleep(6)  # let a duplicate, if any, arrive
        items = inbox.wait_for(2, timeout_s=0)
        assert len(items) == 1
        body, headers = items[0]
        event = verify(body, headers, endpoint.signing_secret)
        assert event["type"] == "campaign.content_ready"
        data = event["data"]
        assert data["campaign_id"] == campaign.id
        day = data["date"]
        assert day == due.date().isoformat()

        content = client.campaigns.content(campaign.id, date=day)
        assert content.api_response.credits_charged in (None, 0)
        assert [i["social_copy"] for i in data["items"]] == [
            i.social_copy.model_dump() for i in content.items
        ]
        assert [(i.sign, i.language) for i in content.items] == [
            ("leo", "en"), ("leo", "th"), ("virgo", "en"), ("virgo", "th"),
        ]  # fmt: skip
        assert content.model_extra == {}
        daily = client.horoscopes.daily(sign="virgo", date=day, language="th")
        assert content.items[3].horoscope.overall.text == daily.overall.text
        rows = list(
            csv.DictReader(io.StringIO(client.campaigns.content_csv(campaign.id, date=day)))
        )
        assert [r["copy_short"] for r in rows] == [i.social_copy.short for i in content.items]

        (delivery,) = poll(
            lambda: client.webhook_endpoints.deliveries(endpoint.endpoint.id).data,
            lambda found: found[0].status != "delivering",
        )
        assert (delivery.status, delivery.event_type) == ("succeeded", "campaign.content_ready")

        listed = client.campaigns.list()
        assert [c.id for c in listed.data] == [campaign.id]
        paused = client.campaigns.update(campaign.id, active=False, name="Launch week (paused)")
        assert (paused.active, paused.next_delivery_at, paused.name) == (
            False,
            None,
            "Launch week (paused)",
        )
        with pytest.raises(astro_sdk.BadRequestError) as too_long:
            client.campaigns.create(
                name="too long", start="2026-01-01", end="2026-04-03", signs=["leo"],
                languages=["en"], markets=["TH"],
            )  # fmt: skip
        assert [d["field"] for d in too_long.value.details] == ["end"]

        other = create_account(production_stack)
        with AstroClient(api_key=other["api_key"], base_url=api.base_url) as stranger:
            with pytest.raises(astro_sdk.NotFoundError):
                stranger.campaigns.get(campaign.id)
            with pytest.raises(astro_sdk.NotFoundError):
                stranger.campaigns.content(campaign.id, date=day)
        pro = create_account(production_stack, tier="pro")
        with (
            AstroClient(api_key=pro["api_key"], base_url=api.base_url) as lower,
            pytest.raises(astro_sdk.PermissionDeniedError) as denied,
        ):
            lower.campaigns.list()
        assert "'enterprise'" in denied.value.message

        client.campaigns.delete(campaign.id)
        with pytest.raises(astro_sdk.NotFoundError):
            client.campaigns.get(campaign.id)


async def test_async_client_creates_reads_and_deletes(
    production_stack: Stack,
) -> None:
    api = production_stack.server()
    account = create_account(production_stack)
    async with AsyncAstroClient(api_key=account["api_key"], base_url=api.base_url) as aio:
        campaign = await aio.campaigns.create(
            name="Mid-Autumn",
            start="2025-10-01",
            end="2025-10-07",
            signs=["cancer"],
            languages=["th"],
            markets=["CN", "HK"],
            delivery_time="10:00",
            timezone="Asia/Hong_Kong",
        )
        assert campaign.api_response.credits_charged == 14
        assert campaign.next_delivery_at is None  # every day is past
        fetched = await aio.campaigns.get(campaign.id)
        assert fetched.delivery.timezone == "Asia/Hong_Kong"
        content = await aio.campaigns.content(campaign.id, date="2025-10-06")
        (china, hong_kong) = content.cultural
        assert [f.key for f in china.day.festivals] == ["mid_autumn"]
        assert hong_kong.market == "HK"
        assert content.items[0].highlights[0].startswith("จีน: ")
        csv_text = await aio.campaigns.content_csv(campaign.id, date="2025-10-06")
        assert csv_text.splitlines()[0].startswith("date,sign,language,copy_long")
        page = await aio.campaigns.list(limit=1)
        assert [c.id for c in page.data] == [campaign.id]
        renamed = await aio.campaigns.update(campaign.id, name="Mid-Autumn 2025")
        assert renamed.name == "Mid-Autumn 2025"
        await aio.campaigns.delete(campaign.id)
        with pytest.raises(astro_sdk.NotFoundError):
            await aio.campaigns.get(campaign.id)
