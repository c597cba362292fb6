"""Horoscope feed subscription endpoints (spec 1-3 and the extra operations), SQLite and PG."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import trustme
from _delivery_support import Receiver, fake_horoscope, start_receiver, stop_receiver
from _platform_support import new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client
from standardwebhooks.webhooks import Webhook

from astro_server.platform import runtime
from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery.secrets_box import SecretBox
from astro_server.platform.models.delivery import FeedDelivery, HoroscopeFeedSubscription

BASE = "/v1/horoscope-feed-subscriptions"
#: The engine's real content loader (the app fixture replaces it with a fake).
REAL_PUBLISHED = feed_pipeline.published_horoscope
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[Receiver]:
    started = start_receiver(ca)
    yield started
    stop_receiver(started)


@pytest.fixture
async def app(
    database_url: str, tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Quart]:
    async def published(
        sign: str, local_date: Any, language: str, timezone: str = "UTC"
    ) -> dict[str, Any]:
        return fake_horoscope(sign, local_date, language)

    monkeypatch.setattr(feed_pipeline, "published_horoscope", published)
    settings = settings_for(database_url, tmp_path, allow_loopback_destinations=True)
    async with running_app(settings) as application:
        delivery_client = receiver.client()
        delivery_common.set_client(delivery_client)
        yield application
        delivery_common.set_client(None)
        await delivery_client.aclose()


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


async def login(client: Client, email: str) -> tuple[dict[str, str], str]:
    """A new account with one customer; returns (session headers, API key)."""
    account_id, api_key = await new_account()
    await accounts.create_customer(account_id, email, PASSWORD)
    response = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200
    token = (await response.get_json())["token"]
    return {"Authorization": f"Bearer {token}"}, api_key


@pytest.fixture
async def ana(client: Client) -> dict[str, str]:
    headers, _ = await login(client, "ana@example.com")
    return headers


async def create(client: Client, headers: dict[str, str], **body: Any) -> Any:
    response = await client.post(BASE, json=body, headers=headers)
    return response.status_code, await response.get_json()


async def test_create_returns_the_subscription_and_its_secret_once(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    status, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    assert status == 201
    sub = body["subscription"]
    assert re.fullmatch(r"hfs_[a-f0-9]{24}", sub["id"])
    assert {k: sub[k] for k in ("sign", "language", "timezone", "delivery_time", "active")} == {
        "sign": "leo",
        "language": "en",
        "timezone": "UTC",
        "delivery_time": "08:00",
        "active": True,
    }
    assert sub["consecutive_failures"] == 0
    assert sub["disabled_at"] is None
    assert sub["created_at"].endswith("Z")
    assert sub["destination_url"] == receiver.url()
    secret = body["signing_secret"]
    assert secret.startswith("whsec_")
    row = await HoroscopeFeedSubscription.get(id=sub["id"])
    assert secret not in row.secret_ciphertext
    assert SecretBox("k" * 32).decrypt(row.secret_ciphertext, bound_to=row.id) == secret
    fetched = await client.get(f"{BASE}/{sub['id']}", headers=ana)
    assert "signing_secret" not in await fetched.get_json()
    listed = await (await client.get(BASE, headers=ana)).get_json()
    assert "signing_secret" not in str(listed)


async def test_all_fields_are_stored_as_given(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    status, body = await create(
        client,
        ana,
        destination_url=receiver.url("/hooks/astro?tenant=7"),
        sign="pisces",
        language="th",
        timezone="Asia/Bangkok",
        delivery_time="23:59",
    )
    assert status == 201
    sub = body["subscription"]
    stored = (sub["language"], sub["timezone"], sub["delivery_time"])
    assert stored == ("th", "Asia/Bangkok", "23:59")


async def test_api_key_gets_401_on_every_feed_route(client: Client) -> None:
    _, api_key = await login(client, "bo@example.com")
    sub_id = "hfs_" + "0" * 24
    calls = [
        ("POST", BASE),
        ("GET", BASE),
        ("GET", f"{BASE}/{sub_id}"),
        ("PATCH", f"{BASE}/{sub_id}"),
        ("DELETE", f"{BASE}/{sub_id}"),
        ("POST", f"{BASE}/{sub_id}/rotate-secret"),
        ("POST", f"{BASE}/{sub_id}/test"),
        ("GET", f"{BASE}/{sub_id}/deliveries"),
        ("POST", f"{BASE}/{sub_id}/deliveries/dlv_{'0' * 24}/retry"),
    ]
    for method, path in calls:
        for headers in ({"X-API-Key": api_key}, {"Authorization": f"Bearer {api_key}"}):
            response = await client.open(path, method=method, headers=headers, json={})
            assert response.status_code == 401, (method, path)
            body = await response.get_json()
            assert body["error"] == "unauthorized"
            assert "session token" in body["message"]
    response = await client.get(BASE)
    assert response.status_code == 401


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/in",
        "https://10.0.0.1/in",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:10.0.0.1]/in",
        "https://2852039166/in",
        "https://metadata.google.internal/",
        "https://[fd00:ec2::254]/",
        "https://100.64.0.1/",
    ],
)
async def test_unsafe_destination_is_400(client: Client, ana: dict[str, str], url: str) -> None:
    status, body = await create(client, ana, destination_url=url, sign="leo")
    assert status == 400
    assert body["code"] == "unsafe_destination"
    assert body["details"][0]["field"] == "destination_url"
    assert await HoroscopeFeedSubscription.all().count() == 0


async def test_loopback_is_unsafe_without_the_flag(
    client: Client, ana: dict[str, str], receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    strict = delivery_common.current_settings().with_overrides(allow_loopback_destinations=False)
    monkeypatch.setattr(runtime.current(), "settings", strict)
    for url in (receiver.url(), "https://127.0.0.1/", "https://0x7f.1/", "https://[::1]/"):
        status, body = await create(client, ana, destination_url=url, sign="leo")
        assert (status, body["code"]) == (400, "unsafe_destination"), url
        assert "loopback" in body["message"]


@pytest.mark.parametrize("zone", ["EST", "Mars/Olympus", "Asia/Nowhere", "UTC+7"])
async def test_invalid_timezone_is_400(
    client: Client, ana: dict[str, str], receiver: Receiver, zone: str
) -> None:
    status, body = await create(
        client, ana, destination_url=receiver.url(), sign="leo", timezone=zone
    )
    assert status == 400
    assert body["code"] == "invalid_timezone"
    assert body["details"][0]["field"] == "timezone"


async def test_a_bad_zone_and_an_unsafe_destination_are_both_named(
    client: Client, ana: dict[str, str]
) -> None:
    status, body = await create(
        client, ana, destination_url="https://10.0.0.1/in", sign="leo", timezone="Mars/Olympus"
    )
    assert status == 400
    assert [d["field"] for d in body["details"]] == ["timezone", "destination_url"]


async def test_duplicate_subscription_is_400(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    assert (await create(client, ana, destination_url=receiver.url(), sign="leo"))[0] == 201
    status, body = await create(
        client, ana, destination_url=receiver.url(), sign="leo", timezone="Asia/Tokyo"
    )
    assert status == 400
    assert body["code"] == "duplicate_subscription"
    # Another sign, another language, or another customer is not a duplicate.
    assert (await create(client, ana, destination_url=receiver.url(), sign="virgo"))[0] == 201
    status, _ = await create(client, ana, destination_url=receiver.url(), sign="leo", language="th")
    assert status == 201
    other, _ = await login(client, "cy@example.com")
    assert (await create(client, other, destination_url=receiver.url(), sign="leo"))[0] == 201
    # Other spellings of the same destination are the same destination (and stored canonical).
    same = receiver.url().replace("https://localhost", "HTTPS://LocalHost") + "?#again"
    status, body = await create(client, ana, destination_url=same, sign="leo")
    assert (status, body["code"]) == (400, "duplicate_subscription")
    status, body = await create(client, ana, destination_url=same, sign="libra")
    assert status == 201
    assert body["subscription"]["destination_url"] == receiver.url()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"sign": "leo"}, "destination_url"),
        ({"destination_url": "https://example.com/x"}, "sign"),
        ({"destination_url": "https://example.com/x", "sign": "ophiuchus"}, "sign"),
        ({"destination_url": "https://example.com/x", "sign": "leo", "language": "fr"}, "language"),
        (
            {"destination_url": "https://example.com/x", "sign": "leo", "delivery_time": "24:00"},
            "delivery_time",
        ),
        (
            {"destination_url": "https://example.com/x", "sign": "leo", "delivery_time": "8:00"},
            "delivery_time",
        ),
    ],
)
async def test_field_errors(
    client: Client, ana: dict[str, str], body: dict[str, str], field: str
) -> None:
    response = await client.post(BASE, json=body, headers=ana)
    assert response.status_code == 400
    payload = await response.get_json()
    assert payload["error"] == "validation_error"
    assert [d["field"] for d in payload["details"]] == [field]


async def test_list_is_the_callers_own_with_cursor_paging(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    created = []
    for sign in ("aries", "taurus", "gemini", "cancer", "leo"):
        _, body = await create(client, ana, destination_url=receiver.url(), sign=sign)
        created.append(body["subscription"]["id"])
    other, _ = await login(client, "dee@example.com")
    await create(client, other, destination_url=receiver.url(), sign="leo")
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        query = {"limit": "2"} | ({"cursor": cursor} if cursor else {})
        response = await client.get(BASE, headers=ana, query_string=query)
        assert response.status_code == 200
        page = await response.get_json()
        seen += [s["id"] for s in page["subscriptions"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3
    assert sorted(seen) == sorted(created)
    assert len(seen) == len(set(seen))


async def test_pause_and_resume(client: Client, ana: dict[str, str], receiver: Receiver) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id = body["subscription"]["id"]
    paused = await client.patch(f"{BASE}/{sub_id}", json={"active": False}, headers=ana)
    assert paused.status_code == 200
    assert (await paused.get_json())["subscription"]["active"] is False
    assert (await HoroscopeFeedSubscription.get(id=sub_id)).next_due_at is None
    # A disabled subscription: resuming clears disabled_at and consecutive_failures.
    await HoroscopeFeedSubscription.filter(id=sub_id).update(
        active=False, consecutive_failures=10, disabled_at=datetime.now(UTC)
    )
    resumed = await client.patch(f"{BASE}/{sub_id}", json={"active": True}, headers=ana)
    sub = (await resumed.get_json())["subscription"]
    assert (sub["active"], sub["disabled_at"], sub["consecutive_failures"]) == (True, None, 0)
    assert (await HoroscopeFeedSubscription.get(id=sub_id)).next_due_at is not None
    for not_a_boolean in ("maybe", "false", 0):  # strict: lax pydantic read "false" and 0
        bad = await client.patch(f"{BASE}/{sub_id}", json={"active": not_a_boolean}, headers=ana)
        assert bad.status_code == 400
        assert (await bad.get_json())["details"][0]["field"] == "active"
    assert (await HoroscopeFeedSubscription.get(id=sub_id)).active is True
    # A field this route does not change is refused by name, not answered 200 unchanged.
    other = await client.patch(
        f"{BASE}/{sub_id}", json={"active": False, "delivery_time": "09:00"}, headers=ana
    )
    assert other.status_code == 400
    assert (await other.get_json())["details"][0]["field"] == "delivery_time"
    assert (await HoroscopeFeedSubscription.get(id=sub_id)).active is True


async def test_another_customers_subscription_is_404(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id = body["subscription"]["id"]
    mallory, _ = await login(client, "mallory@example.com")
    for method, path, payload in [
        ("GET", f"{BASE}/{sub_id}", None),
        ("PATCH", f"{BASE}/{sub_id}", {"active": False}),
        ("DELETE", f"{BASE}/{sub_id}", None),
        ("POST", f"{BASE}/{sub_id}/rotate-secret", None),
        ("POST", f"{BASE}/{sub_id}/test", None),
        ("GET", f"{BASE}/{sub_id}/deliveries", None),
    ]:
        response = await client.open(path, method=method, headers=mallory, json=payload)
        assert response.status_code == 404, (method, path)
        assert (await response.get_json())["error"] == "not_found"
    assert (await HoroscopeFeedSubscription.get(id=sub_id)).active is True
    assert receiver.received == []


async def test_test_delivery_is_signed_and_logged(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo", language="th")
    sub_id, secret = body["subscription"]["id"], body["signing_secret"]
    response = await client.post(f"{BASE}/{sub_id}/test", headers=ana)
    assert response.status_code == 200
    delivery = (await response.get_json())["delivery"]
    assert (delivery["kind"], delivery["status"], delivery["attempts"]) == ("test", "succeeded", 1)
    assert delivery["attempt_log"][0]["status_code"] == 200
    assert delivery["attempt_log"][0]["response_body"] == "ok"
    (got,) = receiver.received
    event = Webhook(secret).verify(got.body, got.headers)
    assert event["type"] == "horoscope.daily"
    assert event["test"] is True
    assert event["id"] == got.headers["Webhook-Id"] == delivery["message_id"]
    assert event["data"]["sign"] == "leo"
    assert event["data"]["language"] == "th"


async def test_failed_test_delivery_does_not_count(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id = body["subscription"]["id"]
    receiver.status = 410
    delivery = (await (await client.post(f"{BASE}/{sub_id}/test", headers=ana)).get_json())[
        "delivery"
    ]
    assert (delivery["status"], delivery["last_status_code"]) == ("failed", 410)
    sub = (await (await client.get(f"{BASE}/{sub_id}", headers=ana)).get_json())["subscription"]
    assert (sub["active"], sub["consecutive_failures"]) == (True, 0)


async def test_rotated_secret_signs_beside_the_old_one(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id, old = body["subscription"]["id"], body["signing_secret"]
    response = await client.post(f"{BASE}/{sub_id}/rotate-secret", headers=ana)
    assert response.status_code == 200
    rotated = await response.get_json()
    new = rotated["signing_secret"]
    assert new != old
    assert new.startswith("whsec_")
    assert rotated["previous_secret_expires_at"].endswith("Z")
    await client.post(f"{BASE}/{sub_id}/test", headers=ana)
    (got,) = receiver.received
    assert len(got.headers["Webhook-Signature"].split(" ")) == 2
    Webhook(old).verify(got.body, got.headers)
    Webhook(new).verify(got.body, got.headers)


async def test_deliveries_log_and_manual_retry(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id, secret = body["subscription"]["id"], body["signing_secret"]
    sub = await HoroscopeFeedSubscription.get(id=sub_id)
    failed = await FeedDelivery.create(
        id="dlv_" + "a" * 24,
        subscription=sub,
        local_date=sub.created_at.date(),
        message_id="msg_manualretry",
        status="failed",
        attempts=8,
        round_attempts=8,
    )
    response = await client.post(f"{BASE}/{sub_id}/deliveries/{failed.id}/retry", headers=ana)
    assert response.status_code == 202
    # The in-process broker runs the attempt; wait for it through the log endpoint.
    for _ in range(100):
        page = await (await client.get(f"{BASE}/{sub_id}/deliveries", headers=ana)).get_json()
        if page["deliveries"][0]["status"] == "succeeded":
            break
        await asyncio.sleep(0.05)
    (entry,) = page["deliveries"]
    assert entry["status"] == "succeeded"
    assert entry["attempts"] == 9
    assert entry["attempt_log"][0]["number"] == 9
    assert entry["attempt_log"][0]["status_code"] == 200
    (got,) = receiver.received
    event = Webhook(secret).verify(got.body, got.headers)
    assert event["id"] == "msg_manualretry"
    again = await client.post(f"{BASE}/{sub_id}/deliveries/dlv_{'b' * 24}/retry", headers=ana)
    assert again.status_code == 404


async def test_delete(client: Client, ana: dict[str, str], receiver: Receiver) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id = body["subscription"]["id"]
    assert (await client.delete(f"{BASE}/{sub_id}", headers=ana)).status_code == 204
    assert (await client.get(f"{BASE}/{sub_id}", headers=ana)).status_code == 404
    assert await HoroscopeFeedSubscription.filter(id=sub_id).count() == 0


async def test_openapi_documents_the_operations(client: Client) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    create_op = paths[BASE]["post"]
    assert create_op["operationId"] == "createHoroscopeFeedSubscription"
    assert create_op["tags"] == ["Customer delivery"]
    assert paths[BASE]["get"]["operationId"] == "listHoroscopeFeedSubscriptions"
    item = next(p for p in paths if p.startswith(BASE + "/{") and p.count("/") == 3)
    assert paths[item]["patch"]["operationId"] == "updateHoroscopeFeedSubscription"
    request_schema = create_op["requestBody"]["content"]["application/json"]["schema"]
    request_schema = request_schema["properties"]
    assert request_schema["delivery_time"]["pattern"] == r"^([01]\d|2[0-3]):[0-5]\d$"
    assert request_schema["destination_url"]["pattern"] == "^https://"


async def test_a_customer_holds_at_most_the_configured_number_of_subscriptions(
    database_url: str, tmp_path: Path, receiver: Receiver
) -> None:
    # Three allowed: six concurrent creations leave exactly three; one more is a 409 that names
    # the limit; deleting one makes room. Another customer has a limit of their own.
    settings = settings_for(
        database_url, tmp_path, allow_loopback_destinations=True, max_subscriptions_per_customer=3
    )
    async with running_app(settings) as application:
        client = application.test_client()
        ana_headers, _ = await login(client, "ana@example.com")
        bo_headers, _ = await login(client, "bo@example.com")
        signs = ["aries", "taurus", "gemini", "cancer", "leo", "virgo"]
        results = await asyncio.gather(
            *(create(client, ana_headers, destination_url=receiver.url(), sign=s) for s in signs)
        )
        statuses = sorted(status for status, _ in results)
        assert statuses == [201, 201, 201, 409, 409, 409]
        refused = next(body for status, body in results if status == 409)
        assert (refused["error"], refused["code"]) == ("conflict", "subscription_limit")
        assert "3" in refused["message"]
        listed = await client.get(BASE, headers=ana_headers)
        assert len((await listed.get_json())["subscriptions"]) == 3
        status, _ = await create(client, bo_headers, destination_url=receiver.url(), sign="leo")
        assert status == 201
        kept = next(body["subscription"]["id"] for status, body in results if status == 201)
        assert (await client.delete(f"{BASE}/{kept}", headers=ana_headers)).status_code == 204
        status, _ = await create(client, ana_headers, destination_url=receiver.url(), sign="libra")
        assert status == 201


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=0", "limit"), ("limit=101", "limit"), ("cursor=dlv_unknown", "cursor")],
)
@pytest.mark.parametrize("log", [False, True])
async def test_the_lists_refuse_a_limit_or_cursor_out_of_bounds(
    client: Client, ana: dict[str, str], receiver: Receiver, query: str, field: str, log: bool
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    path = f"{BASE}/{body['subscription']['id']}/deliveries" if log else BASE
    response = await client.get(f"{path}?{query}", headers=ana)
    assert response.status_code == 400
    payload = await response.get_json()
    assert payload["error"] == "validation_error"
    assert [d["field"] for d in payload["details"]] == [field]
    for inside in ("limit=1", "limit=100"):
        assert (await client.get(f"{path}?{inside}", headers=ana)).status_code == 200


async def test_the_delivery_log_pages_with_a_cursor(
    client: Client, ana: dict[str, str], receiver: Receiver
) -> None:
    _, body = await create(client, ana, destination_url=receiver.url(), sign="leo")
    sub_id = body["subscription"]["id"]
    sub = await HoroscopeFeedSubscription.get(id=sub_id)
    made = [d.id for d in await FeedDelivery.filter(subscription_id=sub_id)]  # the welcome test
    for n in range(3):
        row = await FeedDelivery.create(
            id=f"dlv_{n:024d}", subscription=sub,
            local_date=sub.created_at.date() - timedelta(days=n + 1),  # one message a day
            message_id=f"msg_page{n}", status="failed", attempts=8, round_attempts=8,
        )  # fmt: skip
        made.append(row.id)
    seen: list[str] = []
    cursor = ""
    while True:
        response = await client.get(f"{BASE}/{sub_id}/deliveries?limit=2{cursor}", headers=ana)
        page = await response.get_json()
        assert len(page["deliveries"]) <= 2
        seen += [d["id"] for d in page["deliveries"]]
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert sorted(seen) == sorted(made)
    assert len(seen) == len(set(seen))


_TIME = re.compile(r"(\d\d\.\d\d) น\.(?: ของวันที่ (\d+))?")  # the Royal Institute's dot


def _bangkok_times(data: dict[str, Any]) -> set[tuple[str, int]]:
    """(HH:MM, day of month) in Bangkok of the content's event facts (zoneinfo, not our code)."""
    zone = ZoneInfo("Asia/Bangkok")
    out = set()
    for fact in data["facts"]:
        if fact["kind"] in ("aspect", "ingress", "station", "lunation"):
            moment = datetime.fromisoformat(fact["at"].replace("Z", "+00:00")).astimezone(zone)
            out.add((moment.strftime("%H.%M"), moment.day))
    return out


def _assert_thai_local(data: dict[str, Any]) -> int:
    day = date.fromisoformat(data["date"])
    expected = _bangkok_times(data)
    count = 0
    for name in ("overall", "love", "career", "money", "health"):
        text = data[name]["text"]
        assert "UTC" not in text, text  # neither "(UTC)" nor "UTC"
        assert "เวลาสากล" not in text, text
        for match in _TIME.finditer(text):
            assert (match[1], int(match[2] or day.day)) in expected, text
            count += 1
    return count


async def test_thai_feed_content_for_a_bangkok_subscription_has_no_utc(
    client: Client,
    ana: dict[str, str],
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 35: a feed speaks in its subscription's zone and language: Thai texts for an
    Asia/Bangkok subscription print Bangkok times ("13.46 น."), never "(UTC)"."""
    monkeypatch.setattr(feed_pipeline, "published_horoscope", REAL_PUBLISHED)
    _, body = await create(
        client, ana, destination_url=receiver.url(), sign="virgo", language="th",
        timezone="Asia/Bangkok",
    )  # fmt: skip
    sub_id, secret = body["subscription"]["id"], body["signing_secret"]
    response = await client.post(f"{BASE}/{sub_id}/test", headers=ana)
    assert response.status_code == 200
    (got,) = receiver.received
    event = Webhook(secret).verify(got.body, got.headers)
    assert event["data"]["language"] == "th"
    assert event["data"]["timezone"] == "Asia/Bangkok"
    _assert_thai_local(event["data"])
    # A day with a stated event (Mercury stations direct at 06:46 UTC on 2025-03-15): the
    # scheduled deliveries' loader, with the subscription's zone, prints 13.46 น.
    sub = await HoroscopeFeedSubscription.get(id=sub_id)
    data = await feed_pipeline.cached_horoscope(
        sub.sign, date(2025, 3, 15), sub.language, sub.timezone
    )
    assert "13.46 น." in data["overall"]["text"]
    assert _assert_thai_local(data) >= 1
