"""Models of campaign content (``/api/v3/campaigns``, API key, enterprise tier).

A campaign is a content calendar: for each day from ``start`` to ``end`` (at most 92 days), each
sign and language, the published daily horoscope, the markets' cultural facts and social copy in
three lengths (``long`` <= 280, ``medium`` <= 140, ``short`` <= 70 characters, counted in
grapheme clusters). Each day is delivered at ``delivery.time`` in ``delivery.timezone`` to the
account's webhook endpoints subscribed to ``campaign.content_ready``.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.cultural import Market, MarketDay
from astro_sdk.models.horoscopes import PublishedHoroscope, Sign

__all__ = [
    "Campaign",
    "CampaignContent",
    "CampaignContentItem",
    "CampaignContentQuery",
    "CampaignCulturalEntry",
    "CampaignDelivery",
    "CampaignDeliverySettings",
    "CampaignEnvelope",
    "CampaignLanguage",
    "CampaignListQuery",
    "CampaignPage",
    "CreateCampaignRequest",
    "DeletedCampaign",
    "SocialCopy",
    "UpdateCampaignRequest",
]

CampaignLanguage = Literal["en", "th"]


class CampaignDeliverySettings(RequestModel):
    time: str = Field(default="08:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    """Local delivery time, 24-hour ``HH:MM``."""
    timezone: str = Field(default="UTC", min_length=1, max_length=64)
    """IANA zone (Area/City) or UTC; an unknown zone is a 400 naming ``delivery.timezone``."""


class CreateCampaignRequest(RequestModel):
    name: str = Field(min_length=1, max_length=120)
    start: dt.date
    """Years 1901-2099."""
    end: dt.date
    """At most 92 days after ``start`` counting both ends; longer is a 400 naming ``end``."""
    signs: list[Sign] = Field(min_length=1, max_length=12)
    """Distinct signs."""
    languages: list[CampaignLanguage] = Field(min_length=1, max_length=2)
    markets: list[Market] = Field(min_length=1, max_length=9)
    delivery: CampaignDeliverySettings = Field(default_factory=CampaignDeliverySettings)
    """When each day is delivered (default 08:00 UTC)."""


class UpdateCampaignRequest(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=120)
    active: bool | None = None
    """False pauses deliveries; true resumes from the next due day."""


class CampaignListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class CampaignContentQuery(RequestModel):
    date: dt.date
    """A day of the campaign (its local date)."""
    format: Literal["json", "csv"] = "json"


class CampaignDelivery(ResponseModel):
    time: str
    timezone: str


class Campaign(ResponseModel):
    """A campaign. ``next_delivery_at`` is null when paused or when no day is left."""

    id: str
    name: str
    start: dt.date
    end: dt.date
    signs: list[str]
    languages: list[str]
    markets: list[str]
    delivery: CampaignDelivery
    active: bool
    livemode: bool
    next_delivery_at: dt.datetime | None
    credits_charged: int
    created_at: dt.datetime | None
    updated_at: dt.datetime | None


class CampaignEnvelope(ResponseModel):
    campaign: Campaign


class CampaignPage(ResponseModel):
    campaigns: list[Campaign]
    next_cursor: str | None


class DeletedCampaign(ResponseModel):
    """``DELETE`` answers 204 with no body: the campaign is gone, nothing more is delivered."""


class SocialCopy(ResponseModel):
    long: str  # at most 280 characters (grapheme clusters)
    medium: str  # at most 140
    short: str  # at most 70


class CampaignContentItem(ResponseModel):
    sign: str
    language: str
    horoscope: PublishedHoroscope
    highlights: list[str]  # the markets' festivals and holidays of the day
    social_copy: SocialCopy


class CampaignCulturalEntry(ResponseModel):
    market: str
    language: str
    day: MarketDay  # rated for starting a campaign


class CampaignContent(ResponseModel):
    campaign_id: str
    date: dt.date
    timezone: str
    cultural: list[CampaignCulturalEntry]
    items: list[CampaignContentItem]  # per sign, then language
