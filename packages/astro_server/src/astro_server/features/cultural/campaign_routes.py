"""Campaign content (enterprise tier, API key; tag group "Cultural Intelligence", where the spec's
enterprise "campaign content" meets the market calendars it is built from).

A campaign names a date range (at most 92 days counting both ends), signs (1-12), languages
(``en``/``th``), markets (1-9) and a daily delivery time in an IANA zone. Creation is paid once,
per campaign day (``campaigns.create`` in the price table); reading, pausing, deleting and the
content and its deliveries are free. Every route needs the enterprise tier (403 naming it).
Another account's campaign is 404; campaigns made with a test key are seen only with test keys.

``GET /api/v3/campaigns/{id}/content?date=`` gives one day (``date`` required and inside the
campaign: a whole campaign would be up to 2,208 horoscopes in one response).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_calc.cultural.calendar import MAX_YEAR, MIN_YEAR, MarketDay
from astro_server.features.cultural import tasks as campaign_tasks  # noqa: F401  (registers the tick)
from astro_server.features.cultural.campaigns import content, store
from astro_server.features.horoscopes.routes import PublishedHoroscope, Sign
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.billing.pricing import tier_allows
from astro_server.platform.caller import Caller
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.delivery.schedule import (
    DELIVERY_TIME_PATTERN,
    InvalidTimezone,
    delivery_zone,
)
from astro_server.platform.errors import APIError, validation_error
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("campaigns", __name__)
TAGS = ["Cultural Intelligence"]
BASE = "/api/v3/campaigns"
CAMPAIGN_ID = r"^cmp_[a-f0-9]{24}$"
TIER = "enterprise"
CSV_TYPE = "text/csv; charset=utf-8"

Market = Literal["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"]
Language = Literal["en", "th"]


def _distinct(value: list[str]) -> list[str]:
    if len(set(value)) != len(value):
        raise ValueError("an item is listed twice")
    return value


def _in_span(value: dt.date) -> dt.date:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"must be in the years {MIN_YEAR}-{MAX_YEAR}")
    return value


def _name(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


class DeliverySettings(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    time: str = Field(
        default="08:00",
        pattern=DELIVERY_TIME_PATTERN,
        description="Local delivery time, 24-hour HH:MM",
    )
    timezone: str = Field(
        default="UTC", min_length=1, max_length=64, description="IANA zone (Area/City) or UTC"
    )

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        try:
            delivery_zone(value)
        except InvalidTimezone as exc:
            raise ValueError(str(exc)) from None
        return value


class CreateCampaignRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(min_length=1, max_length=store.MAX_NAME, description="Campaign name")
    start: dt.date = Field(description=f"First day (local date; years {MIN_YEAR}-{MAX_YEAR})")
    end: dt.date = Field(description=f"Last day, at most {store.MAX_DAYS} days counting both ends")
    signs: list[Sign] = Field(min_length=1, max_length=12, json_schema_extra={"uniqueItems": True})
    languages: list[Language] = Field(
        min_length=1, max_length=2, json_schema_extra={"uniqueItems": True}
    )
    markets: list[Market] = Field(
        min_length=1, max_length=9, json_schema_extra={"uniqueItems": True}
    )
    delivery: DeliverySettings = Field(
        default_factory=DeliverySettings, description="When each day's content is delivered"
    )

    _blank = field_validator("name")(_name)
    _unique = field_validator("signs", "languages", "markets")(_distinct)
    _start = field_validator("start")(_in_span)

    @field_validator("end")
    @classmethod
    def _range(cls, value: dt.date, info: ValidationInfo) -> dt.date:
        _in_span(value)
        start = info.data.get("start")
        if start is not None:
            if value < start:
                raise ValueError("must not be before start")
            days = (value - start).days + 1
            if days > store.MAX_DAYS:
                raise ValueError(f"the campaign is {days} days; at most {store.MAX_DAYS}")
        return value

    def days(self) -> int:
        return (self.end - self.start).days + 1


class UpdateCampaignRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=store.MAX_NAME)
    active: bool | None = Field(
        default=None, description="false pauses deliveries; true resumes from the next due day"
    )

    @field_validator("name")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        return None if value is None else _name(value)


class CampaignDelivery(BaseModel):
    time: str = Field(pattern=DELIVERY_TIME_PATTERN)
    timezone: str


class Campaign(BaseModel):
    id: str = Field(pattern=CAMPAIGN_ID)
    name: str
    start: dt.date
    end: dt.date
    signs: list[Sign]
    languages: list[Language]
    markets: list[Market]
    delivery: CampaignDelivery
    active: bool
    livemode: bool = Field(description="false for campaigns made with a test key (ak_test_)")
    next_delivery_at: dt.datetime | None = Field(
        description="The next delivery; null when paused or finished"
    )
    credits_charged: int = Field(ge=0)
    created_at: dt.datetime | None
    updated_at: dt.datetime | None


class CampaignEnvelope(BaseModel):
    campaign: Campaign


class CampaignList(BaseModel):
    campaigns: list[Campaign]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class ContentQuery(BaseModel):
    date: dt.date = Field(description="A day of the campaign (local date)")
    format: Literal["json", "csv"] = Field(
        default="json", description="json, or csv (UTF-8 with BOM, one row per sign and language)"
    )


class SocialCopy(BaseModel):
    long: str = Field(description="At most 280 characters (grapheme clusters)")
    medium: str = Field(description="At most 140 characters")
    short: str = Field(description="At most 70 characters")


class ContentItem(BaseModel):
    sign: Sign
    language: Language
    horoscope: PublishedHoroscope
    highlights: list[str] = Field(description="The markets' festivals and holidays of the day")
    social_copy: SocialCopy


class CulturalEntry(BaseModel):
    market: Market
    language: Language
    day: response_model(MarketDay, prefix="Cultural")  # type: ignore[valid-type]


class CampaignContent(BaseModel):
    campaign_id: str = Field(pattern=CAMPAIGN_ID)
    date: dt.date
    timezone: str
    cultural: list[CulturalEntry] = Field(
        description="Per language and market: the day rated for starting a campaign"
    )
    items: list[ContentItem] = Field(description="Per sign, then language")


def _require_tier(caller: Caller) -> None:
    tier = caller.tier
    if not tier_allows(tier, TIER):
        raise APIError(
            403,
            f"Campaigns need the {TIER!r} tier or higher; this account is on {tier!r}.",
            error="forbidden",
        )


async def _campaign(caller: Caller, campaign_id: str) -> Any:
    _require_tier(caller)
    return await store.owned_campaign(caller.account_id, caller.livemode, campaign_id)


@blueprint.post(BASE)
@require_api_key
@billable("campaigns.create", body=CreateCampaignRequest, quantity=lambda body: body.days())
@document_response(CampaignEnvelope, 201)
@document_response(ErrorBody, 400)
@tag(TAGS)
@operation_id("createCampaign")
async def create_campaign(data: CreateCampaignRequest, caller: Caller) -> Response:
    """Create a campaign content calendar (enterprise tier): for each day from ``start`` to
    ``end`` (at most 92 days) the published horoscope of each sign and language, the markets'
    cultural facts and social copy in three lengths, delivered at ``delivery.time`` in
    ``delivery.timezone`` to the account's webhook endpoints subscribed to
    ``campaign.content_ready``. Costs 2 credits per campaign day, charged once here."""
    charge = current_charge()
    campaign = await store.create_campaign(
        account_id=caller.account_id,
        livemode=caller.livemode,
        name=data.name,
        start=data.start,
        end=data.end,
        signs=list(data.signs),
        languages=list(data.languages),
        markets=list(data.markets),
        delivery_time=data.delivery.time,
        timezone=data.delivery.timezone,
        credits_charged=charge.credits if charge else 0,
        now=utc_now(),
    )
    return json_response({"campaign": store.campaign_view(campaign)}, 201)


@blueprint.get(BASE)
@require_api_key
@validate_querystring(ListQuery)
@document_response(CampaignList, 200)
@document_response(ErrorBody, 403)
@tag(TAGS)
@operation_id("listCampaigns")
async def list_campaigns(query_args: ListQuery, caller: Caller) -> Response:
    """The account's campaigns, newest first, paged with ``cursor``."""
    _require_tier(caller)
    page, next_cursor = await store.list_campaigns(
        caller.account_id, caller.livemode, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response(
        {"campaigns": [store.campaign_view(c) for c in page], "next_cursor": next_cursor}
    )


@blueprint.get(f"{BASE}/<campaign_id>")
@require_api_key
@document_response(CampaignEnvelope, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("getCampaign")
async def get_campaign(campaign_id: str, caller: Caller) -> Response:
    """One campaign of the account."""
    return json_response({"campaign": store.campaign_view(await _campaign(caller, campaign_id))})


@blueprint.patch(f"{BASE}/<campaign_id>")
@require_api_key
@validate_request(UpdateCampaignRequest)
@document_response(CampaignEnvelope, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("updateCampaign")
async def update_campaign(
    campaign_id: str, data: UpdateCampaignRequest, caller: Caller
) -> Response:
    """Rename (``name``) and/or pause or resume (``active``) a campaign. Resuming delivers from
    the next due day; days missed while paused are not sent (their content stays readable)."""
    campaign = await _campaign(caller, campaign_id)
    campaign = await store.update_campaign(
        campaign, name=data.name, active=data.active, now=utc_now()
    )
    return json_response({"campaign": store.campaign_view(campaign)})


@blueprint.delete(f"{BASE}/<campaign_id>")
@require_api_key
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("deleteCampaign")
async def delete_campaign(campaign_id: str, caller: Caller) -> Response:
    """Delete the campaign: nothing more is delivered. Credits are not refunded."""
    await store.delete_campaign(await _campaign(caller, campaign_id))
    return Response(status=204)


@blueprint.get(f"{BASE}/<campaign_id>/content")
@require_api_key
@validate_querystring(ContentQuery)
@document_response(CampaignContent, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("getCampaignContent")
async def get_campaign_content(
    campaign_id: str, query_args: ContentQuery, caller: Caller
) -> Response:
    """One day of the campaign: for each sign and language the published daily horoscope (the
    text ``GET /api/v3/horoscopes/daily`` serves), the markets' highlights and social copy
    (<= 280, <= 140 and <= 70 characters, counted in grapheme clusters), and each market's
    cultural facts of the day. The same request always gives the same text. ``format=csv``:
    one row per sign and language (UTF-8 with BOM). Free."""
    campaign = await _campaign(caller, campaign_id)
    day = query_args.date
    if not campaign.start <= day <= campaign.end:
        raise validation_error(
            [
                {
                    "field": "date",
                    "message": f"must be a day of the campaign ({campaign.start.isoformat()} to "
                    f"{campaign.end.isoformat()})",
                }
            ]
        )
    body = await content.day_content(campaign, day)
    if query_args.format == "csv":
        filename = f"{campaign.id}-{day.isoformat()}.csv"
        return Response(
            content.content_csv(body),
            content_type=CSV_TYPE,
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )
    return json_response(body)


def document_csv(document: dict[str, Any]) -> None:
    """The content route's 200 in both formats (quart-schema documents JSON only)."""
    for path_item in document["paths"].values():
        for operation in path_item.values():
            if operation.get("operationId") != "getCampaignContent":
                continue
            ok = operation.setdefault("responses", {}).get(200) or operation["responses"].get("200")
            if ok is not None:
                ok.setdefault("content", {})["text/csv"] = {
                    "schema": {"type": "string", "description": "UTF-8 with BOM, CRLF rows"}
                }
