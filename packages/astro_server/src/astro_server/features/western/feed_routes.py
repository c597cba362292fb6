"""Calendar feeds (issue 45): iCalendar subscription URLs a calendar app polls.

``POST /api/v3/calendar-feeds`` makes one (API key, scope ``western``) and answers its URL once;
``GET`` lists the account's feeds (of the key's mode), ``DELETE .../{id}`` revokes one. The URL,
``GET /calendar/{token}.ics``, takes no credential: the token is the credential (unknown or
revoked: 403), it is free, limited per client address and per feed, and each read shows in
usage. The rules are in :mod:`astro_server.features.western.service`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError
from quart import Blueprint, Response, request
from quart_schema import document_response, operation_id, tag, validate_request

from astro_server.features.common.pictures import CALENDAR_OPERATIONS, CALENDAR_TYPE
from astro_server.features.common.subject import check_zone
from astro_server.features.western import service as feeds
from astro_server.features.western.sky_requests import (
    EventBody,
    Kind,
    Language,
    TransitingBody,
    VoidRule,
)
from astro_server.platform.auth.guards import limit_public_read, require_api_key
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.hosts import public_base
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("calendar_feeds", __name__)
public = Blueprint("calendar_feed_files", __name__)
TAGS = ["Western"]
BASE = "/api/v3/calendar-feeds"
FEED_ID = r"^calf_[a-f0-9]{24}$"
#: Public reads: per client address per minute, per feed per hour.
READS_PER_ADDRESS_PER_MINUTE = 30
READS_PER_FEED_PER_HOUR = 60
CACHE_CONTROL = "private, max-age=86400"
#: The public file's 200 is documented as text/calendar (features/common/pictures.py).
CALENDAR_OPERATIONS.add("getCalendarFeedFile")


class CreateCalendarFeedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["sky_events", "forecast"] = Field(
        default="sky_events",
        description="sky_events: the account's choice of events; forecast: a client profile's "
        "transits (profile_id required)",
    )
    name: str = Field(default="", max_length=120, description="The calendar's name in the app")
    kinds: list[Kind] | None = Field(
        default=None, min_length=1, max_length=10, description="sky_events: default all five"
    )
    bodies: list[EventBody] | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="sky_events: bodies of ingresses and stations (default Sun, Mercury..Pluto)",
    )
    void_of_course_rule: VoidRule = "traditional"
    timezone: str = Field(
        default="UTC", min_length=1, max_length=64, description="IANA zone of the window's days"
    )
    language: Language = Field(default="en", description="Language of the event texts")
    profile_id: str | None = Field(
        default=None, pattern=r"^prof_[a-f0-9]{24}$", description="forecast: the client profile"
    )
    orb_deg: dict[TransitingBody, float] | None = Field(
        default=None, description="forecast: orb per transiting body, above 0 and at most 10"
    )

    _known_zone = field_validator("timezone")(check_zone)

    @field_validator("orb_deg")
    @classmethod
    def _orb_range(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        for body, orb in (value or {}).items():
            if not 0.0 < orb <= 10.0:
                raise ValueError(f"the orb of {body} must be above 0 and at most 10")
        return value

    @model_validator(mode="after")
    def _fits_kind(self) -> Self:
        forecast = self.kind == "forecast"
        if forecast and self.profile_id is None:
            raise PydanticCustomError(
                "feed", "a forecast feed needs the client profile", {"field": "profile_id"}
            )
        wrong = ("kinds", "bodies") if forecast else ("profile_id", "orb_deg")
        for name in wrong:
            if getattr(self, name) is not None:
                raise PydanticCustomError(
                    "feed", "not allowed for a {kind} feed", {"field": name, "kind": self.kind}
                )
        return self


class CalendarFeed(BaseModel):
    id: str = Field(pattern=FEED_ID)
    kind: Literal["sky_events", "forecast"]
    name: str
    kinds: list[Kind] = Field(description="Empty: all five")
    bodies: list[EventBody] | None
    void_of_course_rule: VoidRule
    timezone: str
    language: Language
    profile_id: str | None
    orb_deg: dict[str, float] | None
    livemode: bool = Field(description="false for feeds made with a test key (ak_test_)")
    read_count: int = Field(ge=0, description="Reads of the feed's URL so far")
    last_read_at: datetime | None
    created_at: datetime | None


class CreatedCalendarFeed(BaseModel):
    feed: CalendarFeed
    url: str = Field(description="The subscription URL (https); shown only in this response")
    webcal_url: str = Field(description="The same URL as webcal://, which opens a calendar app")


class CalendarFeedList(BaseModel):
    feeds: list[CalendarFeed]


@blueprint.post(BASE)
@require_api_key
@validate_request(CreateCalendarFeedRequest)
@document_response(CreatedCalendarFeed, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 409)
@tag(TAGS)
@operation_id("createCalendarFeed")
async def create_calendar_feed(data: CreateCalendarFeedRequest, caller: Caller) -> Response:
    """Create a calendar subscription URL: sky events, or a client profile's forecast.

    A calendar app (Google, Apple, Outlook) subscribed to ``url`` reads an iCalendar file of
    the events from 30 days before today to 335 days after it, refreshed daily; reads are free,
    need no key and show in usage. The URL is shown only in this answer; the server keeps only
    a digest of its token. 400 names a refused field (``profile_id``: no such profile); 409
    ``feed_limit``: the account has 50 feeds.
    """
    if data.profile_id is not None and not _may_read_profiles(caller):
        raise APIError(
            403,
            "A forecast feed reads a profile's birth data: the key needs the 'profiles' scope.",
            error="forbidden",
        )
    feed, token = await feeds.create_feed(caller, data.model_dump())
    url = f"{public_base()}/calendar/{token}.ics"
    webcal = "webcal://" + url.split("://", 1)[1]
    body = {"feed": feeds.feed_view(feed), "url": url, "webcal_url": webcal}
    return json_response(body, 201)


def _may_read_profiles(caller: Caller) -> bool:
    return "*" in caller.scopes or "profiles" in caller.scopes


@blueprint.get(BASE)
@require_api_key
@document_response(CalendarFeedList, 200)
@tag(TAGS)
@operation_id("listCalendarFeeds")
async def list_calendar_feeds(caller: Caller) -> Response:
    """The account's calendar feeds (of the key's mode) that are not revoked, newest first."""
    found = await feeds.list_feeds(caller)
    return json_response({"feeds": [feeds.feed_view(f) for f in found]})


@blueprint.delete(f"{BASE}/<feed_id>")
@require_api_key
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("deleteCalendarFeed")
async def delete_calendar_feed(feed_id: str, caller: Caller) -> Response:
    """Revoke a calendar feed: its URL stops answering at once (403 from then on)."""
    if not feed_id.startswith("calf_") or len(feed_id) != 29:
        raise not_found("Calendar feed")
    await feeds.revoke_feed(caller, feed_id)
    return Response(status=204)


@public.get("/calendar/<token>.ics")
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 429)
@tag(TAGS)
@operation_id("getCalendarFeedFile")
async def calendar_feed_file(token: str) -> Response:
    """A calendar feed's iCalendar file (``text/calendar``), the URL a calendar app polls.

    No credential: the URL's token is one. The file covers 30 days before today (UTC) to 335
    days after it and changes once a day: ``ETag`` (``If-None-Match`` answers 304) and
    ``Cache-Control: private, max-age=86400``. 403: the token is unknown or the feed was revoked;
    404: a forecast feed's profile was deleted; 429: more than 30 reads a minute from one
    address or 60 an hour of one feed. Free.
    """
    address = request.remote_addr or "unknown"
    await limit_public_read(f"calfeed-addr:{address}", READS_PER_ADDRESS_PER_MINUTE, 60)
    digest = feeds.token_digest(token)[:32]
    await limit_public_read(f"calfeed:{digest}", READS_PER_FEED_PER_HOUR, 3600)
    feed = await feeds.feed_for_token(token)
    if feed is None:
        raise APIError(
            403, "This calendar feed URL is not valid or was revoked.", error="forbidden"
        )
    made = await feeds.calendar_file(feed)
    await feeds.record_read(feed)
    headers = {"ETag": made.etag, "Cache-Control": CACHE_CONTROL}
    if request.if_none_match.contains(made.etag.strip('"')):
        return Response(b"", status=304, headers=headers)
    return Response(made.body, content_type=CALENDAR_TYPE + "; charset=utf-8", headers=headers)
