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
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.webhooks import verify
from astro_server.features.cultural.tasks import TICK_INTERVAL_S
from tests._support.accounts import create_account
from tests._support.receiver import Inbox, receive
from tests._support.stack import ServerProcess, Stack, poll, redis_db

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def receiver(https_server: HTTPServer) -> tuple[HTTPServer, Inbox]:
    return https_server, receive(https_server, "/campaigns")


@pytest.fixture
def production_stack(
    stack_factory: Callable[..., Stack], migrated_pg_database: str, redis_url: str
) -> Stack:
    """The PostgreSQL + Redis stack of conftest, on a Redis database of its own (slot 2,
    flushed first): other tests flush slot 0 while they start, which deletes a running
    worker's stream and stops it."""
    import redis

    own = redis_db(redis_url, 2)
    client = redis.Redis.from_url(own)
    client.flushdb()
    client.close()
    return stack_factory(database_url=migrated_pg_database, redis_url=own)


def test_campaign_day_is_delivered_signed_and_once_through_the_sdk(
    production_stack: Stack,
    receiver: tuple[HTTPServer, Inbox],
    ca_file: Path,
) -> None:
    server, inbox = receiver
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1", "SSL_CERT_FILE": str(ca_file)}
    api = production_stack.server(env)
    account = create_account(production_stack, tier="enterprise", credits=500, name="campaigns-e2e")

    # The delivery time is the current minute (UTC), so the campaign's first due instant is
    # tomorrow's; the test then moves it back to today's, which has passed (see below), instead
    # of waiting for the wall clock to reach a minute.
    due_today = datetime.now(UTC).replace(second=0, microsecond=0)
    due = due_today + timedelta(days=1)
    today = due_today.date()

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
            delivery_time=due_today.strftime("%H:%M"),
            timezone="UTC",
        )
        assert campaign.api_response.credits_charged == 4
        assert campaign.next_delivery_at is not None
        assert campaign.next_delivery_at.replace(second=0, microsecond=0) == due.replace(
            second=0, microsecond=0
        )

        # Stand in for the clock: make the stored due instant today's (already passed), as if
        # the scheduler had been down since then.
        production_stack.sql(
            "UPDATE campaigns SET next_due_at = $1 WHERE id = $2", due_today, campaign.id
        )

        production_stack.worker(env)
        production_stack.scheduler(env)
        production_stack.scheduler(env)  # a second scheduler: still one delivery

        items = inbox.wait_for(1, timeout_s=150)
        assert items, "no delivery arrived"
        # Both schedulers have moved on once the stored due instant is tomorrow's again; a
        # duplicate, if any, would be dispatched by then and arrive within a tick or two.
        moved_on = poll(
            lambda: production_stack.sql(
                "SELECT next_due_at FROM campaigns WHERE id = $1", campaign.id
            )[0]["next_due_at"],
            lambda at: at == due,
        )
        assert moved_on == due
        items = inbox.wait_for(2, timeout_s=2 * TICK_INTERVAL_S + 0.5)
        assert len(items) == 1
        body, headers = items[0]
        event = verify(body, headers, endpoint.signing_secret)
        assert event["type"] == "campaign.content_ready"
        data = event["data"]
        assert data["campaign_id"] == campaign.id
        day = data["date"]
        assert day == today.isoformat()

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

        other = create_account(
            production_stack, tier="enterprise", credits=500, name="campaigns-e2e"
        )
        with AstroClient(api_key=other["api_key"], base_url=api.base_url) as stranger:
            with pytest.raises(astro_sdk.NotFoundError):
                stranger.campaigns.get(campaign.id)
            with pytest.raises(astro_sdk.NotFoundError):
                stranger.campaigns.content(campaign.id, date=day)
        pro = create_account(production_stack, tier="pro", credits=500, name="campaigns-e2e")
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
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    # Only an API is needed (every day of the campaign is past: nothing is delivered), and the
    # account is the test's own: the session's shared stack.
    account = create_account(shared_stack, tier="enterprise", credits=500, name="campaigns-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
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
