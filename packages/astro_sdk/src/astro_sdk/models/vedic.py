"""Models of the Vedic tag group (``/api/v3/vedic/...``).

Requests mirror the server's bodies field by field (names, required flags, bounds); responses
mirror the documented result shapes (the drift test checks both). Enumerations in responses are
read as plain strings, their values listed on each field, so a value added later breaks nothing.
Longitudes are sidereal degrees in [0, 360) in the requested ayanamsa; times are UTC.
The kundli matching batch answers with a job handle; its finished job's ``result`` can be read
with :class:`KundliBatchResult` (``KundliBatchResult.model_validate(job.result)``).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.interpretations import InterpretationOptions, Interpretations
from astro_sdk.models.profiles import (
    ProfileReference,
    ReferenceShape,
    SubjectOrReference,
    SubjectShape,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "Ayanamsa",
    "BirthSubject",
    "CurrentDasha",
    "DashaPeriod",
    "GrahaPosition",
    "InterpretedVedicChart",
    "InterpretedVedicDasha",
    "InterpretedVedicKundliMatch",
    "KundliBatchError",
    "KundliBatchItem",
    "KundliBatchRecord",
    "KundliBatchResult",
    "KundliMatchingBatchRequest",
    "KundliMatchingRequest",
    "Lagna",
    "MatchCancellation",
    "MatchDosha",
    "MatchKoota",
    "MatchVerdict",
    "MoonPlacement",
    "PanchangaElement",
    "PanchangaRequest",
    "Remedy",
    "Tithi",
    "Vara",
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
    latitude: float = Field(default=None, ge=-90, le=90)  # type: ignore[assignment]
    longitude: float = Field(default=None, ge=-180, le=180)  # type: ignore[assignment]
    """Required unless ``place`` is given (then both are left out)."""
    place: int | None = None
    """A place id from ``client.places.search``: its coordinates (and zone, when neither is
    given) instead of ``latitude`` and ``longitude``."""
    timezone_offset_minutes: int | None = Field(
        default=None, alias="timezoneOffsetMinutes", ge=-1080, le=1080
    )
    ayanamsa: Ayanamsa = "lahiri"
    timezone: str | None = Field(default=None, max_length=64)
    """IANA zone, e.g. ``Asia/Kolkata``."""


BirthSubjectOrReference = Annotated[
    Annotated[BirthSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A BirthSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class VedicChartRequest(InterpretationOptions, SensitivityOptions):
    subject: BirthSubjectOrReference
    node: Literal["mean", "true"] = "mean"
    house_system: str = Field(default="W", pattern=r"^[PKWEORCBAMTX]$")
    divisional_charts: list[str] = Field(
        default_factory=lambda: [
            "D1", "D2", "D3", "D4", "D7", "D9", "D10", "D12",
            "D16", "D20", "D24", "D27", "D30", "D40", "D45", "D60",
        ],
        max_length=16,
    )  # fmt: skip


class KundliMatchingRequest(InterpretationOptions, SensitivityOptions):
    boy: BirthSubjectOrReference
    girl: BirthSubjectOrReference
    school: Literal["north", "south"] = "north"


class KundliBatchRecord(RequestModel):
    id: str = Field(min_length=1, max_length=100)
    """Your record id; the job result has one entry per id."""
    boy: BirthSubjectOrReference
    girl: BirthSubjectOrReference


class KundliMatchingBatchRequest(RequestModel):
    records: list[KundliBatchRecord] = Field(min_length=1, max_length=50)
    school: Literal["north", "south"] = "north"


class VedicDashaRequest(InterpretationOptions, SensitivityOptions):
    subject: BirthSubjectOrReference
    year_days: float = 365.25
    """Dasha year length in days: 365.25, 365.2422 or 360."""
    depth: int = Field(default=3, ge=1, le=3)
    at: dt.datetime | None = None


class PanchangaRequest(RequestModel):
    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezone_offset_minutes: int | None = Field(
        default=None, alias="timezoneOffsetMinutes", ge=-1080, le=1080
    )
    timezone: str | None = Field(default=None, max_length=64)
    ayanamsa: Ayanamsa = "lahiri"
    sunrise: Literal["upper_limb", "disc_center", "hindu"] = "upper_limb"


class VedicRemediesRequest(RequestModel):
    subject: BirthSubjectOrReference
    at: dt.datetime | None = None
    language: Literal["en", "th"] = "en"
    node: Literal["mean", "true"] = "mean"


# --- sidereal chart ------------------------------------------------------------------------------


class Lagna(ResponseModel):
    """The ascendant: sidereal longitude, sign (``sign_number`` 1 = Aries), nakshatra (1 to 27)
    and pada (1 to 4)."""

    longitude_deg: float
    sign: str
    sign_number: int
    degree_in_sign: float
    nakshatra: int
    nakshatra_name: str
    pada: int


class GrahaPosition(ResponseModel):
    """One graha (``sun`` ... ``saturn``, ``rahu``, ``ketu``) in the sidereal chart."""

    name: str
    longitude_deg: float
    sign: str
    sign_number: int
    """1 = Aries ... 12 = Pisces."""
    degree_in_sign: float
    nakshatra: int
    """1 (Ashwini) to 27 (Revati)."""
    nakshatra_name: str
    pada: int
    """1 to 4."""
    house: int
    """1 to 12, counted from the lagna (whole-sign by default)."""
    speed_deg_per_day: float
    retrograde: bool
    dignity: str
    """exalted, moolatrikona, own, debilitated or none."""
    combust: bool


class VedicChart(ResponseModel):
    """``POST /api/v3/vedic/chart``: grahas, lagna, house cusps and divisional charts."""

    jd_ut: float
    utc: dt.datetime
    """The birth instant."""
    ayanamsa: str
    ayanamsa_deg: float
    node: str
    """mean or true (Rahu/Ketu)."""
    house_system: str
    lagna: Lagna
    grahas: list[GrahaPosition]
    house_cusps_deg: list[float]
    divisional_charts: dict[str, dict[str, str]]
    """Varga name (``D1`` ... ``D60``) -> graha or ``lagna`` -> sign name."""
    ephemeris: str
    """Which ephemeris computed the positions."""


# --- kundli matching -----------------------------------------------------------------------------


class MoonPlacement(ResponseModel):
    """One person's sidereal Moon, on which the Ashtakoota is computed."""

    moon_sign: str
    moon_sign_number: int
    nakshatra: int
    nakshatra_name: str
    pada: int
    moon_longitude_deg: float


class MatchKoota(ResponseModel):
    """One of the eight kootas (varna, vashya, tara, yoni, graha_maitri, gana, bhakoot, nadi),
    with each person's attribute."""

    name: str
    score: float
    max: float
    boy: str
    girl: str


class MatchDosha(ResponseModel):
    name: str
    """nadi, bhakoot, manglik, rajju or vedha."""
    person: str
    """both, boy or girl."""
    present: bool
    cancelled: bool


class MatchCancellation(ResponseModel):
    """A rule that cancelled a dosha."""

    dosha: str
    person: str
    rule: str


class MatchVerdict(ResponseModel):
    band: str
    """excellent, good, average or not_recommended."""
    recommended: bool
    reasons: list[str]


class VedicKundliMatch(ResponseModel):
    """``POST /api/v3/vedic/kundli-matching``: Ashtakoota points (``total`` of ``max`` 36),
    the kootas, doshas with their cancellations, and the verdict."""

    school: str
    """north or south."""
    total: float
    max: float
    kootas: list[MatchKoota]
    boy: MoonPlacement
    girl: MoonPlacement
    doshas: list[MatchDosha]
    cancellations: list[MatchCancellation]
    verdict: MatchVerdict


class KundliBatchError(ResponseModel):
    """Why one batch record failed in the calculation, e.g. a local time skipped by a daylight
    saving change; ``field`` names it as ``records[i].girl.time``."""

    error: str
    field: str
    message: str


class KundliBatchItem(ResponseModel):
    """One record of a finished batch, in request order: ``result`` when ``status`` is
    ``succeeded``, ``error`` when it is ``failed``."""

    id: str
    status: str
    result: VedicKundliMatch | None = None
    error: KundliBatchError | None = None


class KundliBatchResult(ResponseModel):
    """The ``result`` of a finished kundli matching batch job (one failed record never fails
    the job)."""

    school: str
    succeeded: int
    failed: int
    results: list[KundliBatchItem]


# --- dasha ---------------------------------------------------------------------------------------


class DashaPeriod(ResponseModel):
    """A Vimshottari period of ``lord``; ``level`` 1 mahadasha, 2 antardasha, 3 pratyantardasha,
    with its sub-periods down to the requested depth."""

    lord: str
    start: dt.datetime
    end: dt.datetime
    level: int
    sub_periods: list[DashaPeriod] = Field(default_factory=list)


class CurrentDasha(ResponseModel):
    """The periods running at ``at``."""

    at: dt.datetime
    mahadasha: str
    antardasha: str
    pratyantardasha: str
    mahadasha_end: dt.datetime
    antardasha_end: dt.datetime
    pratyantardasha_end: dt.datetime


class VedicDasha(ResponseModel):
    """``POST /api/v3/vedic/dasha``: the Vimshottari mahadashas from the Moon's nakshatra."""

    moon_longitude_deg: float
    nakshatra: int
    nakshatra_name: str
    year_days: float
    balance_years: float
    """Years of the first mahadasha remaining at birth."""
    mahadashas: list[DashaPeriod]
    current: CurrentDasha | None = None


# --- panchanga -----------------------------------------------------------------------------------


class PanchangaElement(ResponseModel):
    """A nakshatra, yoga or karana, with the instants it starts and ends."""

    number: int
    name: str
    start: dt.datetime
    end: dt.datetime


class Tithi(ResponseModel):
    number: int
    """1 to 30 (15 Purnima, 30 Amavasya)."""
    name: str
    paksha: str
    """shukla or krishna."""
    start: dt.datetime
    end: dt.datetime


class Vara(ResponseModel):
    """The Vedic weekday, from sunrise to the next sunrise."""

    number: int
    """1 = Sunday."""
    name: str
    weekday: str
    start: dt.datetime
    end: dt.datetime


class VedicPanchanga(ResponseModel):
    """``POST /api/v3/vedic/panchanga``: tithi, vara, nakshatra, yoga and karana at a moment,
    with sunrise and sunset."""

    moment: dt.datetime
    latitude: float
    longitude: float
    ayanamsa: str
    sunrise_convention: str
    """upper_limb, disc_center or hindu."""
    sunrise: dt.datetime
    sunset: dt.datetime
    next_sunrise: dt.datetime
    vara: Vara
    tithi: Tithi
    nakshatra: PanchangaElement
    yoga: PanchangaElement
    karana: PanchangaElement


# --- remedies ------------------------------------------------------------------------------------


class Remedy(ResponseModel):
    """One remedy for one graha, tied to the reason found in the chart."""

    reason: str
    """weak_planet, afflicted_planet, manglik, kaal_sarp, sade_sati or dasha_lord."""
    planet: str
    detail: str
    explanation: str
    gemstone: str
    mantra: str
    deity: str
    charity: str
    fasting_day: str
    colour: str


class VedicRemedies(ResponseModel):
    """``POST /api/v3/vedic/remedies``: the remedies, texts in ``language`` (en or th)."""

    language: str
    at: dt.datetime
    remedies: list[Remedy]


class InterpretedVedicChart(VedicChart):
    """VedicChart with the ``interpretations`` and ``sensitivity`` asked for (``None`` without
    the option)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedVedicKundliMatch(VedicKundliMatch):
    """VedicKundliMatch with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedVedicDasha(VedicDasha):
    """VedicDasha with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None
