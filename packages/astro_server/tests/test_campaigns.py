"""Campaign content (enterprise): create/list/get/patch/delete, every request bound at its edge
(both sides), the enterprise tier, pricing and estimates, tenant isolation, the content of a day
(the same horoscope text as ``GET /api/v3/horoscopes/daily``, copy lengths, stability, CSV), and
the scheduled delivery: exactly one ``campaign.content_ready`` event per campaign and date
however often and however concurrently the tick runs, signed and received by a local HTTPS
receiver. SQLite and PostgreSQL; the app's own (in-process) broker runs the delivery task.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import trustme
from _delivery_support import Receiver, start_receiver, stop_receiver
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client
from standardwebhooks.webhooks import Webhook

from astro_calc.horoscope import SIGNS
from astro_server.features.cultural.campaigns import delivery as campaign_delivery
from astro_server.features.cultural.campaigns import store
from astro_server.features.cultural.campaigns.social_copy import LIMITS, grapheme_count
from astro_server.features.cultural.models import Campaign, CampaignDay
from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery import events
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.delivery import FeedDelivery
from astro_server.registry import PERIODIC_TASKS
from astro_server.settings import Settings

BASE = "/api/v3/campaigns"
BODY: dict[str, Any] = {
    "name": "Songkran 2025",
    "start": "2025-04-10",
    "end": "2025-04-16",
    "signs": ["leo", "aries"],
    "languages": ["en", "th"],
    "markets": ["TH", "CN", "IN"],
    "delivery": {"time": "09:30", "timezone": "Asia/Bangkok"},
}


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[Receiver]:
    started = start_receiver(ca)
    yield started
    stop_receiver(started)


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite unless a test asks for ``postgres`` too (indirect parametrization)."""
    if getattr(request, "param", "sqlite") == "postgres":
        url: str = request.getfixturevalue("migrated_pg_database")
        return url
    return f"sqlite://{tmp_path / 'astro.sqlite3'}"


BOTH_DATABASES = pytest.mark.parametrize("db_url", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
async def app(db_url: str, tmp_path: Path, receiver: Receiver) -> AsyncIterator[Quart]:
    settings = settings_for(db_url, tmp_path, allow_loopback_destinations=True)
    async with running_app(settings) as application:
        delivery_client = receiver.client()
        delivery_common.set_client(delivery_client)
        yield application
        delivery_common.set_client(None)
        await delivery_client.aclose()


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


@pytest.fixture
async def account(app: Quart) -> tuple[str, dict[str, str]]:
    account_id, key = await new_account("enterprise", 1000)
    return account_id, key_headers(key)


async def create(client: Client, headers: dict[str, str], **changes: Any) -> tuple[int, Any]:
    body = {**BODY, **changes}
    response = await client.post(BASE, json=body, headers=headers)
    return response.status_code, await response.get_json()


async def test_create_charges_per_day_and_returns_the_campaign(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    account_id, headers = account
    response = await client.post(BASE, json=BODY, headers=headers)
    assert response.status_code == 201
    assert response.headers["X-Credits-Charged"] == "14"  # 7 days x 2 credits
    campaign = (await response.get_json())["campaign"]
    assert re.fullmatch(r"cmp_[a-f0-9]{24}", campaign["id"])
    assert {k: campaign[k] for k in BODY if k != "delivery"} == {
        k: v for k, v in BODY.items() if k != "delivery"
    }
    assert campaign["delivery"] == {"time": "09:30", "timezone": "Asia/Bangkok"}
    assert (campaign["active"], campaign["livemode"], campaign["credits_charged"]) == (
        True,
        True,
        14,
    )
    # A campaign in the past has no delivery left.
    assert campaign["next_delivery_at"] is None
    assert (await Account.get(id=account_id)).credits == 986
    fetched = await (await client.get(f"{BASE}/{campaign['id']}", headers=headers)).get_json()
    assert fetched == {"campaign": campaign}


async def test_next_delivery_is_the_first_day_at_the_local_time(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    status, body = await create(client, headers, start="2030-01-01", end="2030-01-02")
    assert status == 201
    # 09:30 in Bangkok (UTC+7) is 02:30 UTC.
    assert body["campaign"]["next_delivery_at"] == "2030-01-01T02:30:00.000Z"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"end": "2025-07-11"}, "end"),  # 93 days counting both ends
        ({"end": "2025-04-09"}, "end"),  # before start
        ({"start": "1900-12-31", "end": "1901-01-01"}, "start"),
        ({"start": "2099-12-31", "end": "2100-01-01"}, "end"),
        ({"signs": ["ophiuchus"]}, "signs[0]"),
        ({"signs": []}, "signs"),
        ({"signs": ["leo", "leo"]}, "signs"),
        ({"signs": ["aries"] * 13}, "signs"),
        ({"languages": ["de"]}, "languages[0]"),
        ({"languages": []}, "languages"),
        ({"languages": ["en", "th", "en"]}, "languages"),
        ({"markets": ["TH", "FR"]}, "markets[1]"),
        ({"markets": []}, "markets"),
        ({"markets": ["TH", "TH"]}, "markets"),
        ({"delivery": {"time": "24:00", "timezone": "UTC"}}, "delivery.time"),
        ({"delivery": {"time": "7:30", "timezone": "UTC"}}, "delivery.time"),
        ({"delivery": {"time": "09:60", "timezone": "UTC"}}, "delivery.time"),
        ({"delivery": {"time": "09:00", "timezone": "Mars/Olympus_Mons"}}, "delivery.timezone"),
        ({"delivery": {"time": "09:00", "timezone": ""}}, "delivery.timezone"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_bad_input_is_a_field_level_400_that_costs_nothing(
    client: Client, account: tuple[str, dict[str, str]], changes: dict[str, Any], field: str
) -> None:
    account_id, headers = account
    status, body = await create(client, headers, **changes)
    assert status == 400, body
    assert body["error"] == "validation_error"
    assert field in [d["field"] for d in body["details"]]
    assert (await Account.get(id=account_id)).credits == 1000


@pytest.mark.parametrize(
    "changes",
    [
        {"start": "2025-04-10", "end": "2025-07-10"},  # exactly 92 days
        {"start": "2025-04-10", "end": "2025-04-10"},  # one day
        {"start": "1901-01-01", "end": "1901-01-01"},
        {"start": "2099-12-31", "end": "2099-12-31"},
        {"signs": list(SIGNS)},
        {"markets": ["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"]},
        {"languages": ["th"]},
        {"delivery": {"time": "23:59", "timezone": "America/New_York"}},
        {"delivery": {"time": "00:00", "timezone": "UTC"}},
        {"name": "x" * 120},
    ],
)
async def test_inputs_at_the_edge_are_accepted(
    client: Client, account: tuple[str, dict[str, str]], changes: dict[str, Any]
) -> None:
    _, headers = account
    status, body = await create(client, headers, **changes)
    assert status == 201, body


async def test_a_92_day_campaign_costs_184_credits_and_the_estimate_agrees(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    params = {"start": "2025-04-10", "end": "2025-07-10"}
    estimate = await client.post(
        "/api/v3/estimates",
        json={"operation": "campaigns.create", "params": params},
        headers=headers,
    )
    body = await estimate.get_json()
    assert (body["quantity"], body["estimated_credits"], body["tier_required"]) == (
        92,
        184,
        "enterprise",
    )
    response = await client.post(BASE, json={**BODY, **params}, headers=headers)
    assert response.headers["X-Credits-Charged"] == "184"
    over = await client.post(
        "/api/v3/estimates",
        json={"operation": "campaigns.create", "params": {"start": "2025-04-10",
              "end": "2025-07-11"}},
        headers=headers,
    )  # fmt: skip
    assert over.status_code == 400


@pytest.mark.parametrize("tier", ["free", "starter", "pro"])
async def test_lower_tiers_are_refused_naming_the_tier(client: Client, tier: str) -> None:
    _, key = await new_account(tier, 1000)
    headers = key_headers(key)
    for response in (
        await client.post(BASE, json=BODY, headers=headers),
        await client.get(BASE, headers=headers),
        await client.get(f"{BASE}/cmp_{'0' * 24}", headers=headers),
    ):
        assert response.status_code == 403
        body = await response.get_json()
        assert body["error"] == "forbidden"
        assert "'enterprise'" in body["message"]


@BOTH_DATABASES
async def test_another_accounts_campaign_is_not_found(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    _, created = await create(client, headers)
    campaign_id = created["campaign"]["id"]
    _, other_key = await new_account("enterprise", 1000)
    other = key_headers(other_key)
    item = f"{BASE}/{campaign_id}"
    assert (await client.get(item, headers=other)).status_code == 404
    assert (await client.patch(item, json={"active": False}, headers=other)).status_code == 404
    assert (await client.delete(item, headers=other)).status_code == 404
    content = await client.get(f"{item}/content?date=2025-04-13", headers=other)
    assert content.status_code == 404
    assert (await (await client.get(BASE, headers=other)).get_json())["campaigns"] == []
    # Untouched for its owner.
    assert (await client.get(item, headers=headers)).status_code == 200


async def test_list_pages_newest_first_and_patch_and_delete(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    ids = []
    for n in range(3):
        _, created = await create(client, headers, name=f"c{n}", start="2030-01-01",
                                  end="2030-01-05")  # fmt: skip
        ids.append(created["campaign"]["id"])
    first = await (await client.get(f"{BASE}?limit=2", headers=headers)).get_json()
    assert [c["id"] for c in first["campaigns"]] == [ids[2], ids[1]]
    second = await (
        await client.get(f"{BASE}?limit=2&cursor={first['next_cursor']}", headers=headers)
    ).get_json()
    assert [c["id"] for c in second["campaigns"]] == [ids[0]]
    assert second["next_cursor"] is None
    bad_cursor = await client.get(f"{BASE}?cursor=cmp_{'f' * 24}", headers=headers)
    assert bad_cursor.status_code == 400
    assert (await client.get(f"{BASE}?limit=101", headers=headers)).status_code == 400

    item = f"{BASE}/{ids[0]}"
    paused = await (
        await client.patch(item, json={"active": False, "name": "renamed"}, headers=headers)
    ).get_json()
    assert (paused["campaign"]["active"], paused["campaign"]["name"]) == (False, "renamed")
    assert paused["campaign"]["next_delivery_at"] is None
    resumed = await (await client.patch(item, json={"active": True}, headers=headers)).get_json()
    assert resumed["campaign"]["next_delivery_at"] == "2030-01-01T02:30:00.000Z"
    for bad in ({"name": ""}, {"active": "no"}, {"start": "2030-01-02"}):
        assert (await client.patch(item, json=bad, headers=headers)).status_code == 400
    assert (await client.delete(item, headers=headers)).status_code == 204
    assert (await client.get(item, headers=headers)).status_code == 404


async def test_content_serves_the_published_horoscope_with_copy_and_cultural_facts(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    _, created = await create(client, headers)
    item = f"{BASE}/{created['campaign']['id']}/content"
    response = await client.get(f"{item}?date=2025-04-13", headers=headers)
    assert response.status_code == 200
    assert response.headers.get("X-Credits-Charged") in (None, "0")
    body = await response.get_json()
    assert (body["date"], body["timezone"]) == ("2025-04-13", "Asia/Bangkok")
    assert [(i["sign"], i["language"]) for i in body["items"]] == [
        ("leo", "en"), ("leo", "th"), ("aries", "en"), ("aries", "th"),
    ]  # fmt: skip
    assert [(c["market"], c["language"]) for c in body["cultural"]] == [
        ("TH", "en"), ("CN", "en"), ("IN", "en"), ("TH", "th"), ("CN", "th"), ("IN", "th"),
    ]  # fmt: skip
    songkran = body["cultural"][0]["day"]
    assert songkran["public_holidays"][0]["text"] == "Public holiday: Songkran Festival"
    for entry in body["items"]:
        daily = await client.get(
            f"/api/v3/horoscopes/daily?sign={entry['sign']}&date=2025-04-13"
            f"&language={entry['language']}&timezone=Asia/Bangkok",
            headers=headers,
        )
        # The same text as the API's, its times in the campaign's zone.
        assert entry["horoscope"] == await daily.get_json()
        assert entry["horoscope"]["timezone"] == "Asia/Bangkok"
        for name, limit in LIMITS.items():
            assert 0 < grapheme_count(entry["social_copy"][name]) <= limit
    thai = body["items"][1]
    assert thai["highlights"] == ["ไทย: วันสงกรานต์"]
    assert thai["social_copy"]["short"] == (
        "ราศีสิงห์ · 13 เม.ย. 2568: ดาวจันทร์เริ่มวันในราศีตุลย์… ไทย: วันสงกรานต์"
    )
    again = await (await client.get(f"{item}?date=2025-04-13", headers=headers)).get_json()
    assert again == body  # stable


@pytest.mark.parametrize("day", ["2025-04-09", "2025-04-17"])
async def test_content_of_a_day_outside_the_campaign_is_a_400(
    client: Client, account: tuple[str, dict[str, str]], day: str
) -> None:
    _, headers = account
    _, created = await create(client, headers)
    response = await client.get(
        f"{BASE}/{created['campaign']['id']}/content?date={day}", headers=headers
    )
    assert response.status_code == 400
    assert [d["field"] for d in (await response.get_json())["details"]] == ["date"]


async def test_content_as_csv_has_a_bom_a_header_and_one_row_per_sign_and_language(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    _, created = await create(client, headers)
    item = f"{BASE}/{created['campaign']['id']}/content"
    response = await client.get(f"{item}?date=2025-04-16&format=csv", headers=headers)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    raw = await response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert [(r["sign"], r["language"]) for r in rows] == [
        ("leo", "en"), ("leo", "th"), ("aries", "en"), ("aries", "th"),
    ]  # fmt: skip
    as_json = await (await client.get(f"{item}?date=2025-04-16", headers=headers)).get_json()
    for row, entry in zip(rows, as_json["items"], strict=True):
        assert row["copy_long"] == entry["social_copy"]["long"]
        assert row["copy_short"] == entry["social_copy"]["short"]
        assert row["overall"] == entry["horoscope"]["overall"]["text"]
        assert row["date"] == "2025-04-16"
    bad = await client.get(f"{item}?date=2025-04-16&format=xml", headers=headers)
    assert bad.status_code == 400


@BOTH_DATABASES
async def test_each_day_is_delivered_once_however_often_the_tick_runs(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    endpoint, secret = await events.create_endpoint(
        account_id=account_id,
        url=receiver.url(),
        event_types=["campaign.content_ready"],
        livemode=True,
        settings=delivery_common.current_settings(),
    )
    _, created = await create(
        client, headers, start="2030-03-01", end="2030-03-02", signs=["virgo"],
        delivery={"time": "08:00", "timezone": "Asia/Bangkok"},
    )  # fmt: skip
    campaign_id = created["campaign"]["id"]
    due = datetime(2030, 3, 1, 1, 0, tzinfo=UTC)  # 08:00 in Bangkok
    assert created["campaign"]["next_delivery_at"] == "2030-03-01T01:00:00.000Z"
    assert await campaign_delivery.tick(due - timedelta(seconds=1)) == 0
    # Two ticks at once, then a third: one event.
    emitted = await asyncio.gather(
        campaign_delivery.tick(due + timedelta(seconds=1)),
        campaign_delivery.tick(due + timedelta(seconds=1)),
    )
    assert sum(emitted) == 1
    assert await campaign_delivery.tick(due + timedelta(seconds=3)) == 0
    days = await CampaignDay.filter(campaign_id=campaign_id)
    assert [(d.local_date, d.endpoints) for d in days] == [(date(2030, 3, 1), 1)]
    for _ in range(200):
        if receiver.received:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    assert len(receiver.received) == 1
    message = receiver.received[0]
    event = Webhook(secret).verify(message.body, message.headers)
    assert event["type"] == "campaign.content_ready"
    data = event["data"]
    assert (data["campaign_id"], data["date"]) == (campaign_id, "2030-03-01")
    assert data["content_url"] == f"{BASE}/{campaign_id}/content?date=2030-03-01"
    content = await (await client.get(data["content_url"], headers=headers)).get_json()
    assert [i["social_copy"] for i in data["items"]] == [i["social_copy"] for i in content["items"]]
    assert data["highlights"] == {"en": [], "th": []}  # nothing in TH, CN or IN that day
    assert len(message.body) < 64_000
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint.id)
    assert row.status == "succeeded"
    # The next day falls due a day later; the campaign then has no day left.
    assert await campaign_delivery.tick(due + timedelta(days=1, seconds=1)) == 1
    final = await (await client.get(f"{BASE}/{campaign_id}", headers=headers)).get_json()
    assert final["campaign"]["next_delivery_at"] is None
    assert json.loads(receiver.received[-1].body)["data"]["date"] in ("2030-03-01", "2030-03-02")


async def test_a_paused_campaign_is_not_delivered(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    _, created = await create(client, headers, start="2030-03-01", end="2030-03-02")
    campaign_id = created["campaign"]["id"]
    await client.patch(f"{BASE}/{campaign_id}", json={"active": False}, headers=headers)
    assert await campaign_delivery.tick(datetime(2030, 3, 1, 3, 0, tzinfo=UTC)) == 0
    assert not await CampaignDay.filter(campaign_id=campaign_id).exists()


async def test_resuming_sends_neither_the_paused_days_nor_a_duplicate(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    # Decision (docs/decisions.md, campaigns): the days whose delivery time passed while paused
    # are not back-filled (their content stays readable); delivery resumes with the next due day.
    _, headers = account
    _, created = await create(
        client, headers, start="2030-03-01", end="2030-03-05", signs=["virgo"],
        delivery={"time": "08:00", "timezone": "Asia/Bangkok"},
    )  # fmt: skip
    campaign = await Campaign.get(id=created["campaign"]["id"])

    def at(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
        return datetime(2030, 3, day, hour, minute, second, tzinfo=UTC)  # 08:00 ICT = 01:00 UTC

    async def delivered() -> list[int]:
        days = await CampaignDay.filter(campaign_id=campaign.id).order_by("local_date")
        return [d.local_date.day for d in days]

    assert await campaign_delivery.tick(at(1, 1, 0, 1)) == 1
    await store.update_campaign(campaign, name=None, active=False, now=at(1, 5))
    assert await campaign_delivery.tick(at(2, 1, 0, 1)) == 0
    assert await campaign_delivery.tick(at(3, 1, 0, 1)) == 0
    # Resumed two hours after the 3rd's delivery time (inside the scheduler's six-hour catch-up):
    # the next delivery is the 4th; no burst of the 2nd and 3rd, now or later.
    resumed = await store.update_campaign(campaign, name=None, active=True, now=at(3, 3))
    assert resumed.next_due_at == at(4, 1)
    assert await campaign_delivery.tick(at(3, 3, 0, 1)) == 0
    assert await campaign_delivery.tick(at(4, 1, 0, 1)) == 1
    assert await campaign_delivery.tick(at(4, 1, 0, 5)) == 0
    assert await delivered() == [1, 4]
    # Paused and resumed before the day's time: that day is still sent, once.
    await store.update_campaign(campaign, name=None, active=False, now=at(4, 5))
    resumed = await store.update_campaign(campaign, name=None, active=True, now=at(5, 0, 30))
    assert resumed.next_due_at == at(5, 1)
    # "Resume" of a running campaign whose day fell due before the tick took it: no skip.
    again = await store.update_campaign(campaign, name=None, active=True, now=at(5, 1, 0, 30))
    assert again.next_due_at == at(5, 1)
    assert await campaign_delivery.tick(at(5, 1, 0, 31)) == 1
    assert await delivered() == [1, 4, 5]
    # The missed days' content is still served on request.
    for missed in ("2030-03-02", "2030-03-03"):
        response = await client.get(f"{BASE}/{campaign.id}/content?date={missed}", headers=headers)
        assert response.status_code == 200
        assert (await response.get_json())["date"] == missed


async def test_a_campaign_paused_while_the_tick_runs_is_not_delivered(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    _, headers = account
    _, created = await create(client, headers, start="2030-03-01", end="2030-03-02")
    campaign = await Campaign.get(id=created["campaign"]["id"])
    await Campaign.filter(id=campaign.id).update(active=False)  # paused after the tick read it
    assert (
        await campaign_delivery.deliver_day(campaign, date(2030, 3, 1), datetime.now(UTC)) is None
    )
    assert not await CampaignDay.filter(campaign_id=campaign.id).exists()


async def test_test_mode_campaigns_are_seen_only_with_test_keys(
    client: Client, account: tuple[str, dict[str, str]]
) -> None:
    account_id, live = account
    test = key_headers(await accounts.create_api_key(account_id, "test"))
    status, created = await create(client, test)
    assert status == 201
    campaign = created["campaign"]
    assert campaign["livemode"] is False
    assert (await client.get(f"{BASE}/{campaign['id']}", headers=live)).status_code == 404
    assert (await (await client.get(BASE, headers=live)).get_json())["campaigns"] == []
    assert (await client.get(f"{BASE}/{campaign['id']}", headers=test)).status_code == 200


def test_the_registry_lists_the_campaign_tick() -> None:
    task = next(task for task in PERIODIC_TASKS if task.name == "delivery.campaigns_tick")
    assert task.interval_s(Settings()) == 2.0
