"""Models of the Hellenistic timing routes of the Western tag group: profections, zodiacal
releasing (and its timeline picture), firdaria, and the lots of ``client.western.natal(lots=True)``.

Requests mirror the server's bodies field by field; responses the documented result shapes.
Instants are UTC (``...Z``) to the whole second. Conventions (server docs, "Hellenistic timing
and lots"): whole-sign houses from the ascendant's sign; sect by the Sun's altitude; lots after
Paulus Alexandrinus, reversed by night; releasing years of 360 days (Valens) by default; the
firdaria's nodes after Mars by night by default.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.interpretations import InterpretationOptions, Interpretations
from astro_sdk.models.pictures import PictureOptions
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions
from astro_sdk.models.western import Lot, WesternSubjectOrReference

__all__ = [
    "CurrentFirdar",
    "Disclaimer",
    "FirdarPeriod",
    "FirdarSubPeriod",
    "Firdaria",
    "FirdariaRequest",
    "InterpretedProfections",
    "InterpretedZodiacalReleasing",
    "Lot",
    "ProfectionMonth",
    "Profections",
    "ProfectionsRequest",
    "ReleasingLot",
    "ReleasingPeriod",
    "SensitiveFirdaria",
    "ZodiacalReleasing",
    "ZodiacalReleasingChartRequest",
    "ZodiacalReleasingRequest",
]

ReleasingLot = Literal["spirit", "fortune"]
#: The longest releasing window at level 4, in days (the server refuses a longer one).
MAX_LEVEL4_WINDOW_DAYS = 3660


# --- requests ----------------------------------------------------------------------------------


class ProfectionsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubjectOrReference
    on_date: dt.date
    """The local date whose profection year is answered (not before the birth date, within
    150 years of it)."""


class ReleasingFields(RequestModel):
    """Zodiacal releasing's fields, shared by the calculation and its timeline picture."""

    subject: WesternSubjectOrReference
    lot: ReleasingLot = "spirit"
    levels: int = Field(default=2, ge=1, le=4)
    """Depth 1 to 4; at level 4 the window is at most 3660 days."""
    start: dt.date | None = None
    """First day of the window (00:00 UTC); default and earliest: the birth."""
    end: dt.date | None = None
    """Last day, inclusive; default 90 years from the start (the longest window at level 4)."""
    year_length_days: Literal[360, 365.25] = 360  # type: ignore[valid-type]
    """360 (Valens, default) or 365.25."""


class ZodiacalReleasingRequest(ReleasingFields, InterpretationOptions, SensitivityOptions):
    """Zodiacal releasing plus the interpretation and sensitivity options."""


class ZodiacalReleasingChartRequest(ReleasingFields, PictureOptions):
    """The releasing request plus the picture options."""


class FirdariaRequest(SensitivityOptions):
    subject: WesternSubjectOrReference
    on_date: dt.date | None = None
    """Adds ``current``: the periods at 12:00 UTC of this date."""
    node_placement: Literal["after_mars", "after_mercury"] = "after_mars"
    """Night charts: the nodes after Mars (default) or after Mercury."""
    year_length_days: Literal[365.25, 365.2422, 360] = 365.25  # type: ignore[valid-type]


# --- responses ---------------------------------------------------------------------------------


class Disclaimer(ResponseModel):
    """The disclaimer of a timing reading: ``code`` (``traditional_timing``) and ``text`` in
    the request's language."""

    code: str
    text: str


class ProfectionMonth(ResponseModel):
    month: int
    sign: str
    house: int
    lord: str
    start: dt.datetime
    end: dt.datetime


class Profections(ResponseModel):
    on_date: dt.date
    age: int
    sign: str
    house: int
    """Whole-sign house: ``age mod 12 + 1``."""
    lord_of_year: str
    ascendant_sign: str
    year_start: dt.datetime
    year_end: dt.datetime
    current_month: int
    months: list[ProfectionMonth]
    disclaimer: Disclaimer


class InterpretedProfections(Profections):
    """Profections with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class ReleasingPeriod(ResponseModel):
    level: int
    sign: str
    ruler: str
    start: dt.datetime
    end: dt.datetime
    """Clipped to the window."""
    loosing_of_the_bond: bool
    peak: bool
    """In a sign angular to Fortune."""
    house_from_fortune: int


class ZodiacalReleasing(ResponseModel):
    lot: str
    lot_longitude: float
    lot_sign: str
    fortune_sign: str
    sect: str
    year_length_days: float
    levels: int
    start: dt.datetime
    end: dt.datetime
    periods: list[ReleasingPeriod]
    disclaimer: Disclaimer


class InterpretedZodiacalReleasing(ZodiacalReleasing):
    """ZodiacalReleasing with the ``interpretations`` (the periods at the window's start) and
    ``sensitivity`` asked for (``None`` without the option)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class FirdarSubPeriod(ResponseModel):
    ruler: str
    start: dt.datetime
    end: dt.datetime


class FirdarPeriod(ResponseModel):
    ruler: str
    """A planet, ``north_node`` or ``south_node``."""
    start: dt.datetime
    end: dt.datetime
    sub_periods: list[FirdarSubPeriod]
    """Seven Chaldean sub-periods; none for the nodes."""


class CurrentFirdar(ResponseModel):
    on_date: dt.date
    ruler: str
    sub_ruler: str | None


class Firdaria(ResponseModel):
    sect: str
    year_length_days: float
    node_placement: str
    periods: list[FirdarPeriod]
    current: CurrentFirdar | None = None


class SensitiveFirdaria(Firdaria):
    """Firdaria with the ``sensitivity`` asked for (``None`` without the option)."""

    sensitivity: Sensitivity | None = None
