"""Models of calendar feeds (``/api/v3/calendar-feeds``, API key): iCalendar subscription URLs
of sky events or of a client profile's forecast, which a calendar app polls."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.sky_events import (
    CalendarLanguage,
    EventBody,
    EventKind,
    TransitingBody,
    VoidOfCourseRule,
)

__all__ = [
    "CalendarFeed",
    "CalendarFeedFile",
    "CalendarFeedKind",
    "CalendarFeedList",
    "CreateCalendarFeedRequest",
    "CreatedCalendarFeed",
    "DeletedCalendarFeed",
]

CalendarFeedKind = Literal["sky_events", "forecast"]


class CreateCalendarFeedRequest(RequestModel):
    kind: CalendarFeedKind = "sky_events"
    name: str = Field(default="", max_length=120)
    kinds: list[EventKind] | None = Field(default=None, min_length=1, max_length=10)
    bodies: list[EventBody] | None = Field(default=None, min_length=1, max_length=20)
    void_of_course_rule: VoidOfCourseRule = "traditional"
    timezone: str = Field(default="UTC", min_length=1, max_length=64)
    language: CalendarLanguage = "en"
    profile_id: str | None = Field(default=None, pattern=r"^prof_[a-f0-9]{24}$")
    """A forecast feed's client profile."""
    orb_deg: dict[TransitingBody, float] | None = None


class CalendarFeed(ResponseModel):
    id: str
    kind: str
    name: str
    kinds: list[str]
    """Empty: all five."""
    bodies: list[str] | None
    void_of_course_rule: str
    timezone: str
    language: str
    profile_id: str | None
    orb_deg: dict[str, float] | None
    livemode: bool
    read_count: int
    last_read_at: dt.datetime | None
    created_at: dt.datetime | None


class CreatedCalendarFeed(ResponseModel):
    feed: CalendarFeed
    url: str
    """The subscription URL: shown only here (the server keeps a digest of its token)."""
    webcal_url: str


class CalendarFeedList(ResponseModel):
    feeds: list[CalendarFeed]


class DeletedCalendarFeed(ResponseModel):
    """The empty answer of a revocation (204)."""


class CalendarFeedFile(ResponseModel):
    """The registry's stand-in for a feed's file, which is iCalendar text, not JSON."""
