"""Models of the Vedic tag group (``/api/v3/vedic/...``).

The server documents the request bodies field by field; the synchronous responses are not yet
documented in its OpenAPI, so their models carry no declared fields and every value is read from
``model_extra`` (``chart.model_extra["grahas"]``). The drift test will ask for the fields the day
the server documents them.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "Ayanamsa",
    "BirthSubject",
    "KundliBatchRecord",
    "KundliMatchingBatchRequest",
    "KundliMatchingRequest",
    "PanchangaRequest",
    "VedicChart",
    "VedicChartRequest",
    "VedicDasha",
    "VedicDashaRequest",
    "VedicKundliMatch",
    "VedicPanchanga",
    "VedicRemedies",
    "VedicRemediesRequest",
]

Ayanamsa = Literal["lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"]
_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"


class BirthSubject(RequestModel):
    """The spec's birth subject; with neither offset nor zone the server finds the zone from the
    coordinates and applies its historical offset."""

    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    """Local time, 24-hour ``HH:MM`` or ``HH:MM:SS``."""
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    ayanamsa: Ayanamsa = "lahiri"
    timezone: str | None = Field(default=None, max_length=64)
    """IANA zone, e.g. ``Asia/Kolkata``."""


class VedicChartRequest(RequestModel):
    subject: BirthSubject
    node: Literal["mean", "true"] = "mean"
    house_system: str = Field(default="W", pattern=r"^[PKWEORCBAMTX]$")
    divisional_charts: list[str] = Field(
        default_factory=lambda: [
            "D1", "D2", "D3", "D4", "D7", "D9", "D10", "D12",
            "D16", "D20", "D24", "D27", "D30", "D40", "D45", "D60",
        ],
        max_length=16,
    )  # fmt: skip


class KundliMatchingRequest(RequestModel):
    boy: BirthSubject
    girl: BirthSubject
    school: Literal["north", "south"] = "north"


class KundliBatchRecord(RequestModel):
    id: str = Field(min_length=1, max_length=100)
    """Your record id; the job result has one entry per id."""
    boy: BirthSubject
    girl: BirthSubject


class KundliMatchingBatchRequest(RequestModel):
    records: list[KundliBatchRecord] = Field(min_length=1, max_length=50)
    school: Literal["north", "south"] = "north"


class VedicDashaRequest(RequestModel):
    subject: BirthSubject
    year_days: float = 365.25
    """Dasha year length in days: 365.25, 365.2422 or 360."""
    depth: int = Field(default=3, ge=1, le=3)
    at: dt.datetime | None = None


class PanchangaRequest(RequestModel):
    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    timezone: str | None = Field(default=None, max_length=64)
    ayanamsa: Ayanamsa = "lahiri"
    sunrise: Literal["upper_limb", "disc_center"] = "upper_limb"


class VedicRemediesRequest(RequestModel):
    subject: BirthSubject
    at: dt.datetime | None = None
    language: Literal["en", "th"] = "en"
    node: Literal["mean", "true"] = "mean"


class VedicChart(ResponseModel):
    """Sidereal chart (fields in ``model_extra`` until the server documents them)."""


class VedicKundliMatch(ResponseModel):
    """Ashtakoota result: ``total``, ``max``, ``kootas``, ``doshas``, ``verdict``, ... (in
    ``model_extra`` until the server documents them)."""


class VedicDasha(ResponseModel):
    """Vimshottari periods (in ``model_extra`` until the server documents them)."""


class VedicPanchanga(ResponseModel):
    """Tithi, vara, nakshatra, yoga, karana, sunrise, sunset (in ``model_extra``)."""


class VedicRemedies(ResponseModel):
    """Remedies with their reasons (in ``model_extra``)."""
