"""Account webhook endpoints (API key) and account events through the feeds' delivery engine:
create/list/get/patch/delete/rotate, events delivered signed to a local HTTPS receiver, the
attempt log, the retry operation (409 once succeeded), disabling on 410, tenant isolation.
SQLite and PostgreSQL; the app's own (in-process) broker runs the delivery task."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from _delivery_support import Receiver, start_receiver, stop_receiver
from _platform_support import key_headers, new_account, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client
from standardwebhooks.webhooks import Webhook

from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery import events
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.delivery.secrets_box import SecretBox
from astro_server.platform.models.delivery import FeedDelivery, WebhookEndpoint
from astro_server.settings import Settings

BASE = "/api/v3/webhook-endpoints"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[Receiver]:
    started = start_receiver(ca)
    yield started
    stop_receiver(started)


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, allow_loopback_destinations=True)


@pytest.fixture(autouse=True)
async def delivery_client(app: Quart, receiver: Receiver) -> AsyncIterator[None]:
    """The app's deliveries go to the receiver (trusting its CA)."""
    client = receiver.client()
    delivery_common.set_client(client)
    yield
    delivery_common.set_client(None)
    await client.aclose()


@pytest.fixture
async def account(app: Quart) -> tuple[str, dict[str, str]]:
    account_id, key = await new_account("pro", 100)
    return account_id, key_headers(key)


async def create(client: Client, headers: dict[str, str], **body: Any) -> tuple[int, Any]:
    response = await client.post(BASE, json=body, headers=headers)
    return response.status_code, await response.get_json()


async def settled(delivery_id: str, timeout_s: float = 20) -> FeedDelivery:
    """The delivery once the in-process worker has recorded an attempt."""
    for _ in range(int(timeout_s * 20)):
        delivery = await FeedDelivery.get(id=delivery_id)
        if delivery.status not in ("pending", "delivering") and delivery.attempts:
            return delivery
        await asyncio.sleep(0.05)
    raise AssertionError(f"delivery {delivery_id} did not settle")


async def test_create_returns_the_endpoint_and_its_secret_once(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    _, headers = account
    status, body = await create(
        client, headers, url=receiver.url(), event_types=["report.succeeded", "report.failed"]
    )
    assert status == 201
    endpoint = body["endpoint"]
    assert re.fullmatch(r"whe_[a-f0-9]{24}", endpoint["id"])
    assert endpoint["url"] == receiver.url()
    assert endpoint["event_types"] == ["report.succeeded", "report.failed"]
    assert (endpoint["active"], endpoint["livemode"], endpoint["consecutive_failures"]) == (
        True,
        True,
        0,
    )
    assert endpoint["created_at"].endswith("Z")
    secret = body["signing_secret"]
    assert secret.startswith("whsec_")
    row = await WebhookEndpoint.get(id=endpoint["id"])
    assert secret not in row.secret_ciphertext
    assert SecretBox("k" * 32).decrypt(row.secret_ciphertext, bound_to=row.id) == secret
    fetched = await (await client.get(f"{BASE}/{endpoint['id']}", headers=headers)).get_json()
    assert fetched == {"endpoint": endpoint}
    listed = await (await client.get(BASE, headers=headers)).get_json()
    assert listed == {"endpoints": [endpoint], "next_cursor": None}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "https://10.0.0.1/in", "event_types": ["report.failed"]}, "url"),
        ({"url": "http://hooks.example.com/in", "event_types": ["report.failed"]}, "url"),
        ({"url": "https://169.254.169.254/", "event_types": ["report.failed"]}, "url"),
        ({"url": "https://hooks.example.com/", "event_types": ["report.done"]}, "event_types[0]"),
        ({"url": "https://hooks.example.com/", "event_types": []}, "event_types"),
        ({"url": "https://hooks.example.com/"}, "event_types"),
    ],
)
async def test_bad_input_is_400_naming_the_field(
    client: Client, account: tuple[str, dict[str, str]], body: dict[str, Any], field: str
) -> None:
    status, answer = await create(client, account[1], **body)
    assert status == 400
    assert field in [d["field"] for d in answer["details"]]
    assert await WebhookEndpoint.all().count() == 0


async def test_a_session_token_is_refused(client: Client) -> None:
    response = await client.get(BASE, headers={"Authorization": "Bearer service_sess_abc"})
    assert response.status_code == 401


async def test_an_event_is_delivered_signed_and_logged(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.succeeded"])
    endpoint_id, secret = body["endpoint"]["id"], body["signing_secret"]
    _, other = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    data = {"report_id": "rep_" + "1" * 24, "status": "succeeded", "pdf_url": "https://x/y"}
    event_id = await events.emit_account_event(account_id, "report.succeeded", data, True)
    assert re.fullmatch(r"evt_[a-f0-9]{24}", event_id)
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint_id)
    assert await FeedDelivery.filter(endpoint_id=other["endpoint"]["id"]).count() == 0
    delivery = await settled(row.id)
    assert delivery.status == "succeeded"
    (received,) = receiver.received
    event = Webhook(secret).verify(received.body, received.headers)
    assert event["id"] == event_id
    assert event["type"] == "report.succeeded"
    assert event["livemode"] is True
    assert event["data"] == data
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", event["created_at"])
    assert received.headers["Webhook-Id"] == delivery.message_id
    log = await (await client.get(f"{BASE}/{endpoint_id}/deliveries", headers=headers)).get_json()
    (view,) = log["deliveries"]
    assert (view["event_id"], view["event_type"], view["status"]) == (
        event_id,
        "report.succeeded",
        "succeeded",
    )
    assert view["attempt_log"][0]["status_code"] == 200
    retried = await client.post(
        f"{BASE}/{endpoint_id}/deliveries/{delivery.id}/retry", headers=headers
    )
    assert retried.status_code == 409
    assert (await retried.get_json())["code"] == "delivery_succeeded"
    assert len(receiver.received) == 1


async def test_a_failed_delivery_is_retried_by_the_retry_operation(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    endpoint_id, secret = body["endpoint"]["id"], body["signing_secret"]
    receiver.status = 500
    await events.emit_account_event(account_id, "report.failed", {"error": "render failed"}, True)
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint_id)
    delivery = await settled(row.id)
    assert (delivery.status, delivery.last_status_code) == ("retrying", 500)
    endpoint = await WebhookEndpoint.get(id=endpoint_id)
    assert endpoint.consecutive_failures == 1
    # Not finished yet: the retry operation waits for the round to end.
    busy = await client.post(f"{BASE}/{endpoint_id}/deliveries/{row.id}/retry", headers=headers)
    assert busy.status_code == 409
    await FeedDelivery.filter(id=row.id).update(status="failed", next_attempt_at=None)
    receiver.status = 200
    retried = await client.post(f"{BASE}/{endpoint_id}/deliveries/{row.id}/retry", headers=headers)
    assert retried.status_code == 202
    delivery = await settled(row.id)
    assert delivery.status == "succeeded"
    assert delivery.attempts == 2
    first, second = receiver.received
    assert first.body == second.body
    assert first.headers["Webhook-Id"] == second.headers["Webhook-Id"]
    Webhook(secret).verify(second.body, second.headers)
    assert (await WebhookEndpoint.get(id=endpoint_id)).consecutive_failures == 0


async def test_http_410_disables_the_endpoint(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    endpoint_id = body["endpoint"]["id"]
    receiver.status = 410
    await events.emit_account_event(account_id, "report.failed", {"error": "x"}, True)
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint_id)
    assert (await settled(row.id)).status == "abandoned"
    view = (await (await client.get(f"{BASE}/{endpoint_id}", headers=headers)).get_json())[
        "endpoint"
    ]
    assert view["active"] is False
    assert view["disabled_at"] is not None
    # An inactive endpoint gets no new events; reactivating clears the failure state.
    await events.emit_account_event(account_id, "report.failed", {"error": "y"}, True)
    assert await FeedDelivery.filter(endpoint_id=endpoint_id).count() == 1
    patched = await client.patch(f"{BASE}/{endpoint_id}", json={"active": True}, headers=headers)
    assert (await patched.get_json())["endpoint"]["disabled_at"] is None


async def test_patch_replaces_event_types_and_refuses_other_fields(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    _, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    path = f"{BASE}/{body['endpoint']['id']}"
    response = await client.patch(
        path,
        json={"event_types": ["visual_reading.succeeded", "campaign.content_ready"]},
        headers=headers,
    )
    assert (await response.get_json())["endpoint"]["event_types"] == [
        "visual_reading.succeeded",
        "campaign.content_ready",
    ]
    paused = await client.patch(path, json={"active": False}, headers=headers)
    assert (await paused.get_json())["endpoint"]["active"] is False
    refused = await client.patch(path, json={"url": "https://evil.example/"}, headers=headers)
    assert refused.status_code == 400
    assert (await refused.get_json())["details"][0]["field"] == "url"


async def test_rotation_signs_with_both_secrets_during_the_overlap(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    endpoint_id, old = body["endpoint"]["id"], body["signing_secret"]
    rotated = await (
        await client.post(f"{BASE}/{endpoint_id}/rotate-secret", headers=headers)
    ).get_json()
    new = rotated["signing_secret"]
    assert new != old
    assert new.startswith("whsec_")
    await events.emit_account_event(account_id, "report.failed", {"error": "x"}, True)
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint_id)
    await settled(row.id)
    (received,) = receiver.received
    Webhook(old).verify(received.body, received.headers)
    Webhook(new).verify(received.body, received.headers)


async def test_test_keys_get_test_events_only(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    from astro_server.platform.auth import accounts

    account_id, _ = account
    test_key = await accounts.create_api_key(account_id, "test")
    _, body = await create(
        client, key_headers(test_key), url=receiver.url(), event_types=["report.failed"]
    )
    assert body["endpoint"]["livemode"] is False
    await events.emit_account_event(account_id, "report.failed", {"error": "live"}, True)
    assert await FeedDelivery.filter(endpoint_id=body["endpoint"]["id"]).count() == 0
    await events.emit_account_event(account_id, "report.failed", {"error": "test"}, False)
    (row,) = await FeedDelivery.filter(endpoint_id=body["endpoint"]["id"])
    await settled(row.id)
    assert json.loads(receiver.received[0].body)["livemode"] is False


async def test_every_id_route_is_404_for_another_account(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    endpoint_id = body["endpoint"]["id"]
    receiver.status = 500
    await events.emit_account_event(account_id, "report.failed", {"error": "x"}, True)
    (row,) = await FeedDelivery.filter(endpoint_id=endpoint_id)
    await settled(row.id)
    _, intruder_key = await new_account("pro", 100)
    intruder = key_headers(intruder_key)
    calls = [
        ("GET", f"{BASE}/{endpoint_id}", None),
        ("PATCH", f"{BASE}/{endpoint_id}", {"active": False}),
        ("POST", f"{BASE}/{endpoint_id}/rotate-secret", None),
        ("GET", f"{BASE}/{endpoint_id}/deliveries", None),
        ("POST", f"{BASE}/{endpoint_id}/deliveries/{row.id}/retry", None),
        ("DELETE", f"{BASE}/{endpoint_id}", None),
    ]
    for method, path, json_body in calls:
        response = await client.open(path, method=method, headers=intruder, json=json_body)
        assert response.status_code == 404, (method, path)
        assert (await response.get_json())["error"] == "not_found"
    assert (await client.get(BASE, headers=intruder)).status_code == 200
    assert (await (await client.get(BASE, headers=intruder)).get_json())["endpoints"] == []
    assert (await WebhookEndpoint.get(id=endpoint_id)).active


async def test_list_pages_with_a_cursor_and_delete_is_204(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    _, headers = account
    made = []
    for n in range(3):
        _, body = await create(
            client, headers, url=receiver.url(f"/h{n}"), event_types=["report.failed"]
        )
        made.append(body["endpoint"]["id"])
    first = await (await client.get(f"{BASE}?limit=2", headers=headers)).get_json()
    assert len(first["endpoints"]) == 2
    assert first["next_cursor"]
    second = await (
        await client.get(f"{BASE}?limit=2&cursor={first['next_cursor']}", headers=headers)
    ).get_json()
    assert second["next_cursor"] is None
    seen = [e["id"] for e in first["endpoints"] + second["endpoints"]]
    assert sorted(seen) == sorted(made)
    deleted = await client.delete(f"{BASE}/{made[0]}", headers=headers)
    assert deleted.status_code == 204
    assert (await client.get(f"{BASE}/{made[0]}", headers=headers)).status_code == 404


async def test_emitting_an_unknown_type_is_a_programming_error(app: Quart) -> None:
    with pytest.raises(ValueError, match="unknown account event type"):
        await events.emit_account_event("acct_x", "report.done", {}, True)


async def test_an_event_whose_hand_over_fails_is_left_due_for_the_tick(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])

    async def broken(ids: list[str], token: str) -> None:
        raise ConnectionError("broker down")

    sent: list[tuple[list[str], str]] = []

    async def kick(ids: list[str], token: str) -> None:
        sent.append((ids, token))

    await events.emit_account_event(account_id, "report.failed", {"error": "x"}, True, kick=broken)
    (row,) = await FeedDelivery.filter(endpoint_id=body["endpoint"]["id"])
    assert (row.status, row.lease_token) == ("pending", None)
    assert row.next_attempt_at == row.due_at
    assert await feed_pipeline.dispatch_due(utc_now(), kick=kick) == 1
    assert sent[0][0] == [row.id]


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=0", "limit"), ("limit=101", "limit"), ("cursor=dlv_unknown", "cursor")],
)
@pytest.mark.parametrize("log", [False, True])
async def test_the_lists_refuse_a_limit_or_cursor_out_of_bounds(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver, query: str,
    field: str, log: bool,
) -> None:  # fmt: skip
    _, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    path = f"{BASE}/{body['endpoint']['id']}/deliveries" if log else BASE
    response = await client.get(f"{path}?{query}", headers=headers)
    assert response.status_code == 400
    payload = await response.get_json()
    assert payload["error"] == "validation_error"
    assert [d["field"] for d in payload["details"]] == [field]
    for inside in ("limit=1", "limit=100"):
        assert (await client.get(f"{path}?{inside}", headers=headers)).status_code == 200


async def test_the_delivery_log_pages_with_a_cursor(
    client: Client, account: tuple[str, dict[str, str]], receiver: Receiver
) -> None:
    account_id, headers = account
    _, body = await create(client, headers, url=receiver.url(), event_types=["report.failed"])
    endpoint_id = body["endpoint"]["id"]
    for n in range(3):
        data = {"report_id": f"rep_{n:024d}", "status": "failed"}
        await events.emit_account_event(account_id, "report.failed", data, True)
    rows = await FeedDelivery.filter(endpoint_id=endpoint_id)
    for row in rows:
        await settled(row.id)
    seen: list[str] = []
    cursor = ""
    pages = 0
    while True:
        response = await client.get(
            f"{BASE}/{endpoint_id}/deliveries?limit=2{cursor}", headers=headers
        )
        page = await response.get_json()
        seen += [d["id"] for d in page["deliveries"]]
        assert all(len(d["attempt_log"]) == 1 for d in page["deliveries"])
        pages += 1
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert pages == 2
    assert sorted(seen) == sorted(r.id for r in rows)
    assert len(seen) == len(set(seen)) == 3
