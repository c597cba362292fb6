"""``client.campaigns``: requests as the server expects them, validation before sending, the
envelope unwrapped, CSV text without the BOM, errors (sync and async)."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from sdk_testkit import Script, async_client, error, reply, sync_client

import astro_sdk

CAMPAIGN = {
    "id": "cmp_" + "a" * 24, "name": "Songkran", "start": "2027-04-10", "end": "2027-04-16",
    "signs": ["leo"], "languages": ["th"], "markets": ["TH"],
    "delivery": {"time": "08:00", "timezone": "Asia/Bangkok"}, "active": True, "livemode": True,
    "next_delivery_at": "2027-04-10T01:00:00.000Z", "credits_charged": 14,
    "created_at": "2026-11-24T10:00:00.000Z", "updated_at": "2026-11-24T10:00:00.000Z",
}  # fmt: skip


def test_create_sends_the_fields_and_an_idempotency_key_and_unwraps_the_campaign() -> None:
    script = Script(reply(201, {"campaign": CAMPAIGN}, {"X-Credits-Charged": "14"}))
    campaign = sync_client(script).campaigns.create(
        name="Songkran", start=dt.date(2027, 4, 10), end="2027-04-16", signs=["leo"],
        languages=["th"], markets=["TH"], delivery_time="08:00", timezone="Asia/Bangkok",
    )  # fmt: skip
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v3/campaigns")
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert json.loads(request.content) == {
        "name": "Songkran", "start": "2027-04-10", "end": "2027-04-16", "signs": ["leo"],
        "languages": ["th"], "markets": ["TH"],
        "delivery": {"time": "08:00", "timezone": "Asia/Bangkok"},
    }  # fmt: skip
    assert campaign.id == CAMPAIGN["id"]
    assert campaign.next_delivery_at == dt.datetime(2027, 4, 10, 1, tzinfo=dt.UTC)
    assert campaign.api_response.credits_charged == 14


def test_bad_input_is_refused_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).campaigns.create(
            name="x", start="2027-04-10", end="2027-04-16", signs=["ophiuchus"],  # type: ignore[list-item]
            languages=["en"], markets=["TH"], delivery_time="8:00",
        )  # fmt: skip
    fields = [d["field"] for d in caught.value.details]
    assert fields == ["signs[0]", "delivery.time"]
    assert script.requests == []


def test_content_csv_is_text_without_the_bom() -> None:
    csv_bytes = "date,sign\r\n2027-04-13,leo\r\n".encode("utf-8-sig")
    script = Script(
        httpx.Response(200, content=csv_bytes, headers={"Content-Type": "text/csv; charset=utf-8"})
    )
    text = sync_client(script).campaigns.content_csv(CAMPAIGN["id"], date="2027-04-13")
    assert text == "date,sign\r\n2027-04-13,leo\r\n"
    request = script.requests[0]
    assert request.url.path == f"/api/v3/campaigns/{CAMPAIGN['id']}/content"
    assert dict(request.url.params) == {"date": "2027-04-13", "format": "csv"}


async def test_async_update_and_a_missing_campaign() -> None:
    paused = {**CAMPAIGN, "active": False, "next_delivery_at": None}
    script = Script(reply(200, {"campaign": paused}), error(404, "not_found", "Campaign not found"))
    async with async_client(script) as client:
        campaign = await client.campaigns.update(CAMPAIGN["id"], active=False)
        assert (campaign.active, campaign.next_delivery_at) == (False, None)
        with pytest.raises(astro_sdk.NotFoundError):
            await client.campaigns.get("cmp_" + "b" * 24)
    assert json.loads(script.requests[0].content) == {"active": False}
    assert script.requests[0].method == "PATCH"
