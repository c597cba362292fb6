"""The birth-time ``sensitivity`` option and the rectification window (typed answers).

The birth-based calculations (Western natal and its derived charts, BaZi, Saju, Qi Men, Zi Wei
Dou Shu, the Vedic chart, dasha and kundli matching, the Thai wheel and auspicious times,
Uranian, the HR assessment) take ``sensitivity`` (``{"uncertainty_minutes": N}``, 0 to 720);
the answer's ``sensitivity`` then says, for each result that depends on the birth time, when it
changes before and after the given time (to 1 second) and what to, and which results are not
certain within the uncertainty. It is ``None``
without the option. Priced as the operation's ``<operation>.sensitivity`` row (+1 credit).
``client.western.rectification_window`` lists every change of ascendant, midheaven and Moon sign,
nakshatra pada and Chinese hour pillar inside a window of local times.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "RectificationEvent",
    "RectificationRequest",
    "RectificationWindow",
    "Sensitivity",
    "SensitivityItem",
    "SensitivityOption",
    "SensitivityOptions",
    "TimeChange",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
MAX_UNCERTAINTY_MINUTES = 720


class SensitivityOption(RequestModel):
    """How uncertain the birth time is."""

    uncertainty_minutes: float = Field(default=0.0, ge=0, le=MAX_UNCERTAINTY_MINUTES)
    """Minutes either side of the given time the birth may lie in (0 to 720)."""


class SensitivityOptions(RequestModel):
    """Mixed into the request models of the routes with the option."""

    sensitivity: SensitivityOption | None = None


class TimeChange(ResponseModel):
    """A result's nearest change on one side of the birth."""

    minutes: float
    """Minutes from the given time (negative before it)."""
    to: str
    at: dt.datetime
    """The UTC instant, to 1 second."""


class SensitivityItem(ResponseModel):
    result: str
    """``ascendant.sign``, ``moon.pada``, ``pillar.hour`` ..."""
    value: str
    changes_before: TimeChange | None
    changes_after: TimeChange | None
    certain: bool


class Sensitivity(ResponseModel):
    uncertainty_minutes: float
    horizon_minutes: float
    precision_seconds: float
    items: list[SensitivityItem]
    uncertain: list[str]
    """The results that change within the uncertainty."""
    warnings: list[str] = Field(default_factory=list)


class RectificationRequest(RequestModel):
    """A day, a place and a window of local times (at most 24 hours)."""

    date: dt.date
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezone_offset_minutes: int | None = Field(
        default=None, alias="timezoneOffsetMinutes", ge=-1080, le=1080
    )
    timezone: str | None = Field(default=None, max_length=64)
    start_time: str = Field(pattern=_TIME_PATTERN)
    end_time: str = Field(pattern=_TIME_PATTERN)
    """On the next day when not after ``start_time`` (equal: a full 24 hours)."""
    ayanamsa: Literal[
        "lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"
    ] = "lahiri"


class RectificationEvent(ResponseModel):
    result: str
    at: dt.datetime
    local: dt.datetime
    from_: str = Field(alias="from")
    to: str = ""


class RectificationWindow(ResponseModel):
    start_utc: dt.datetime
    end_utc: dt.datetime
    offset_minutes: int
    timezone: str | None
    precision_seconds: float
    events: list[RectificationEvent]
    warnings: list[str] = Field(default_factory=list)
