"""Western tag group: natal, synastry, composite, returns, progressions, transits.

Handlers are thin: validate -> astro_calc.western -> respond (msgspec structs encoded once).
A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``) plus an optional IANA ``timezone`` and ``fold``; with
neither offset nor zone, the zone is found from the coordinates. Every result's ``meta`` echoes
the resolved UTC instant and offset. Transits (up to a year of root finding) run off the event
loop.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

import msgspec
from pydantic import BaseModel, Field, field_validator
from quart import Blueprint

from astro_calc import western
from astro_calc.ephemeris import FIRST_YEAR, LAST_YEAR
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import (
    RectificationWindow,
    Sensitivity,
    combined,
    natal_sensitivity,
    rectification_window,
)
from astro_calc.time import parse_time_of_day
from astro_calc.western import (
    ALL_ASPECTS,
    DEFAULT_BODIES,
    MAJOR_ASPECTS,
    CompositeChart,
    NatalChart,
    ReturnChart,
    SecondaryProgressions,
    SolarArcDirections,
    Synastry,
    TransitReport,
    chart_for_instant,
    composite_chart,
    lunar_return,
    natal_chart,
    secondary_progressions,
    solar_arc_directions,
    solar_return,
    synastry,
    transits,
)
from astro_calc.western.aspects import aspect_set, aspects_between
from astro_calc.western.natal import aspect_points
from astro_calc.western.readings import (
    composite_interpretation,
    progressions_interpretation,
    returns_interpretation,
    synastry_interpretation,
    transits_interpretation,
)
from astro_calc.western.transits import DEFAULT_TRANSITING
from astro_server.drawing import bi_wheel_svg, natal_wheel_svg
from astro_server.features.common.calculation import calculation
from astro_server.features.common.interpretations import (
    InterpretationOptions,
    natal_items,
)
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import (
    SPAN_TEXT,
    as_utc,
    in_ephemeris_span,
)
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
)
from astro_server.features.common.subject import (
    TIME_PATTERN,
    BirthSubject,
    check_zone,
    offset_minutes_field,
    timezone_field,
)

blueprint = Blueprint("western", __name__)
TAG = ["Western"]

HouseSystem = Literal["P", "K", "W", "E", "O", "R", "C", "B", "A", "M", "T", "X"]
Body = Literal[
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    "mean_node", "true_node", "mean_lilith", "chiron",
]  # fmt: skip
AspectName = Literal[
    "conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semisextile",
    "semisquare", "sesquiquadrate", "quintile", "biquintile",
]  # fmt: skip
assert set(DEFAULT_BODIES) == set(Body.__args__)  # type: ignore[attr-defined]
assert set(ALL_ASPECTS) == set(AspectName.__args__)  # type: ignore[attr-defined]


class WesternSubject(BirthSubject):
    timezone: str | None = timezone_field("Europe/London")
    fold: Literal[0, 1] = Field(
        default=0, description="For a local time repeated at the end of DST: 0 earlier, 1 later"
    )

    def repeated_time_fold(self) -> int:
        return self.fold

    def to_calc(self) -> western.BirthSubject:
        return western.BirthSubject(
            date=self.date,
            time=self.time,
            latitude=self.latitude,
            longitude=self.longitude,
            timezone_offset_minutes=self.timezoneOffsetMinutes,
            timezone=self.timezone,
            fold=self.fold,
        )


def _orbs_field() -> dict[AspectName, float] | None:
    return Field(
        default=None,
        description="Orb in degrees (0 to 15) per aspect name, overriding the defaults",
    )


class NatalFields(BaseModel):
    """The natal chart's fields, shared by the calculation and its wheel picture."""

    subject: WesternSubject
    house_system: HouseSystem = Field(default="P", description="P Placidus (default), K, W, E, ...")
    bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=14, description="Default: all bodies"
    )
    aspects: list[AspectName] | None = Field(
        default=None, max_length=11, description="Default: all eleven (or the five major)"
    )
    orbs: dict[AspectName, float] | None = _orbs_field()
    include_minor: bool = Field(default=True, description="Find minor aspects too")

    @field_validator("orbs")
    @classmethod
    def _orb_range(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        for name, orb in (value or {}).items():
            if not 0 <= orb <= 15:
                raise ValueError(f"orb of {name} must be between 0 and 15 degrees")
        return value


class NatalRequest(NatalFields, InterpretationOptions, SensitivityOptions):
    """The natal calculation: the chart's fields plus the interpretation and birth-time
    sensitivity options."""


class PairFields(BaseModel):
    subject_a: WesternSubject
    subject_b: WesternSubject
    house_system: HouseSystem = "P"
    include_minor: bool = Field(default=False, description="Count minor aspects too")


class PairRequest(PairFields, InterpretationOptions, SensitivityOptions):
    """The synastry calculation: the pair plus the interpretation and sensitivity options."""


class CompositeRequest(InterpretationOptions, SensitivityOptions):
    subject_a: WesternSubject
    subject_b: WesternSubject
    method: Literal["midpoint", "davison"] = Field(
        default="midpoint",
        description=(
            "midpoint: bodies and midheaven at the shorter-arc midpoints, houses and ascendant "
            "derived from that midheaven at the mean latitude (Robert Hand's method); davison: "
            "the chart for the midpoint in time and place"
        ),
    )
    house_system: HouseSystem = "P"


class ReturnsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    kind: Literal["solar", "lunar"] = Field(description="solar: for a year; lunar: after a date")
    year: int | None = Field(
        default=None, ge=FIRST_YEAR, le=LAST_YEAR, description=f"Solar return year ({SPAN_TEXT})"
    )
    after: dt.datetime | None = Field(
        default=None, description="Lunar return: the first one after this instant (UTC if naive)"
    )
    latitude: float | None = Field(default=None, ge=-90, le=90, description="Default: birthplace")
    longitude: float | None = Field(default=None, ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64, description="Local clock echoed")
    house_system: HouseSystem = "P"

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("after")(in_ephemeris_span)


class ProgressionsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    target_date: dt.datetime = Field(description="Progress to this instant (UTC if naive)")
    method: Literal["secondary", "solar_arc"] = Field(default="secondary")
    mc_method: Literal["naibod", "solar_arc"] = Field(
        default="naibod", description="Progressed angles (secondary progressions only)"
    )
    house_system: HouseSystem = "P"
    orb_deg: float = Field(default=1.0, gt=0, le=5, description="Orb of aspects to natal points")

    _in_span = field_validator("target_date")(in_ephemeris_span)


class TransitsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    start: dt.datetime = Field(description="Range start (UTC if naive)")
    end: dt.datetime = Field(description="Range end, at most 366 days after start")
    transiting_bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=13, description="Default: sun, mercury..pluto"
    )
    aspects: list[AspectName] | None = Field(
        default=None, min_length=1, max_length=11, description="Default: the five major"
    )
    include_ingresses: bool = True
    include_stations: bool = True

    _in_span = field_validator("start", "end")(in_ephemeris_span)


class ProgressionsResult(msgspec.Struct, frozen=True):
    """``secondary`` for method=secondary, ``solar_arc`` for method=solar_arc."""

    method: str
    secondary: SecondaryProgressions | None
    solar_arc: SolarArcDirections | None


def natal_inputs_sensitivity(
    subjects: tuple[tuple[str, WesternSubject], ...], house_system: str, minutes: float
) -> Sensitivity:
    """The sensitivity of a derived chart: that of the natal chart of each birth it is computed
    from (the same house system, every body), each birth's results prefixed with its field
    name when there are two (``subject_a.ascendant.sign``). Returns, progressions, solar arc,
    transits, synastry and composite charts all move with these natal inputs: the natal angles,
    house cusps and the Moon (docs/decisions.md, "Birth-time sensitivity")."""
    parts = [
        (
            prefix,
            natal_sensitivity(
                subject.to_calc(), house_system=house_system, uncertainty_minutes=minutes
            ),
        )
        for prefix, subject in subjects
    ]
    return combined(parts)


def _pair_sensitivity(data: PairRequest | CompositeRequest, minutes: float) -> Sensitivity:
    pair = (("subject_a", data.subject_a), ("subject_b", data.subject_b))
    return natal_inputs_sensitivity(pair, data.house_system, minutes)


def _birth_sensitivity(data: ReturnsRequest | ProgressionsRequest, minutes: float) -> Sensitivity:
    return natal_inputs_sensitivity((("", data.subject),), data.house_system, minutes)


def _natal_sensitivity(data: NatalRequest, minutes: float) -> Sensitivity:
    return natal_sensitivity(
        data.subject.to_calc(),
        house_system=data.house_system,
        bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
        uncertainty_minutes=minutes,
    )


@calculation(
    blueprint,
    "POST /api/v3/western/natal",
    operation_id="westernNatal",
    tags=TAG,
    price="western.natal",
    body=NatalRequest,
    result=NatalChart,
    interpret=lambda chart, data: natal_items(chart, data.language, data.interpretations),
    sensitivity=_natal_sensitivity,
    names_subject=True,
)
def western_natal(data: NatalRequest) -> NatalChart:
    """Natal chart: bodies with sign, house, dignity; houses; angles; aspects; balance.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth-time result is to changing, charged as the ``.sensitivity`` row (+1 credit).
    """
    return _natal_chart(data)


@calculation(
    blueprint,
    "POST /api/v3/western/synastry",
    operation_id="westernSynastry",
    tags=TAG,
    price="western.synastry",
    body=PairRequest,
    result=Synastry,
    interpret=lambda result, data: synastry_interpretation(
        result, language=data.language, level=data.interpretations
    ),
    sensitivity=_pair_sensitivity,
)
def western_synastry(data: PairRequest) -> Synastry:
    """Inter-aspects, house overlays and a documented compatibility score (0 to 100).

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth's natal results (angles, houses, the Moon's sign) are to changing, named
    ``subject_a.`` and ``subject_b.``, charged as the ``.sensitivity`` row (+1 credit).
    """
    return synastry(
        data.subject_a.to_calc(),
        data.subject_b.to_calc(),
        house_system=data.house_system,
        include_minor=data.include_minor,
    )


@calculation(
    blueprint,
    "POST /api/v3/western/composite",
    operation_id="westernComposite",
    tags=TAG,
    price="western.composite",
    body=CompositeRequest,
    result=CompositeChart,
    interpret=lambda result, data: composite_interpretation(
        result, language=data.language, level=data.interpretations
    ),
    sensitivity=_pair_sensitivity,
)
def western_composite(data: CompositeRequest) -> CompositeChart:
    """Composite chart by shorter-arc midpoints (houses derived from the composite midheaven), or
    the Davison time-and-place midpoint chart.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth's natal results (angles, houses, the Moon's sign) are to changing, named
    ``subject_a.`` and ``subject_b.``, charged as the ``.sensitivity`` row (+1 credit).
    """
    return composite_chart(
        data.subject_a.to_calc(),
        data.subject_b.to_calc(),
        method=data.method,
        house_system=data.house_system,
    )


@calculation(
    blueprint,
    "POST /api/v3/western/returns",
    operation_id="westernReturns",
    tags=TAG,
    price="western.returns",
    body=ReturnsRequest,
    result=ReturnChart,
    interpret=lambda result, data: returns_interpretation(
        result, language=data.language, level=data.interpretations
    ),
    sensitivity=_birth_sensitivity,
    names_subject=True,
)
def western_returns(data: ReturnsRequest) -> ReturnChart:
    """Solar return for a year, or the first lunar return after a date, at a chosen place.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the natal results it is computed from (angles, houses, the Moon's sign) are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    subject = data.subject.to_calc()
    if data.kind == "solar":
        if data.year is None:
            raise CalcInputError("year", "required for a solar return")
        return solar_return(
            subject,
            data.year,
            latitude=data.latitude,
            longitude=data.longitude,
            timezone=data.timezone,
            house_system=data.house_system,
        )
    if data.after is None:
        raise CalcInputError("after", "required for a lunar return")
    return lunar_return(
        subject,
        as_utc(data.after),
        latitude=data.latitude,
        longitude=data.longitude,
        timezone=data.timezone,
        house_system=data.house_system,
    )


@calculation(
    blueprint,
    "POST /api/v3/western/progressions",
    operation_id="westernProgressions",
    tags=TAG,
    price="western.progressions",
    body=ProgressionsRequest,
    result=ProgressionsResult,
    interpret=lambda result, data: progressions_interpretation(
        result.secondary or result.solar_arc,
        orb_deg=data.orb_deg,
        language=data.language,
        level=data.interpretations,
    ),
    sensitivity=_birth_sensitivity,
    names_subject=True,
)
def western_progressions(data: ProgressionsRequest) -> ProgressionsResult:
    """Secondary progressions (progressed angles by Naibod or solar-arc MC) or solar-arc
    directions for a target date; the one asked for by ``method`` is filled, the other null.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the natal results it is computed from (angles, houses, the Moon's sign) are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    subject = data.subject.to_calc()
    target = as_utc(data.target_date)
    if data.method == "secondary":
        secondary = secondary_progressions(
            subject,
            target,
            mc_method=data.mc_method,
            house_system=data.house_system,
            orb_deg=data.orb_deg,
        )
        return ProgressionsResult("secondary", secondary, None)
    directions = solar_arc_directions(subject, target, orb_deg=data.orb_deg)
    return ProgressionsResult("solar_arc", None, directions)


@calculation(
    blueprint,
    "POST /api/v3/western/transits",
    operation_id="westernTransits",
    tags=TAG,
    price="western.transits",
    body=TransitsRequest,
    result=TransitReport,
    interpret=lambda report, data: transits_interpretation(
        report, language=data.language, level=data.interpretations
    ),
    # The natal chart a transit search reads is on Placidus cusps (its default).
    sensitivity=lambda data, minutes: natal_inputs_sensitivity((("", data.subject),), "P", minutes),
    names_subject=True,
)
def western_transits(data: TransitsRequest) -> TransitReport:
    """Every exact transit-to-natal aspect, ingress and station in a range of up to a year.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the natal results it is computed from (angles, houses, the Moon's sign) are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    return transits(
        data.subject.to_calc(),
        as_utc(data.start),
        as_utc(data.end),
        transiting_bodies=data.transiting_bodies or DEFAULT_TRANSITING,
        aspects=data.aspects or MAJOR_ASPECTS,
        include_ingresses=data.include_ingresses,
        include_stations=data.include_stations,
    )


# --- pictures ------------------------------------------------------------------------------------


class NatalWheelRequest(NatalFields, PictureOptions):
    """The natal request plus the picture options."""


class SynastryWheelRequest(PairFields, PictureOptions):
    """The synastry request plus the picture options."""


class TransitsWheelRequest(PictureOptions):
    subject: WesternSubject
    at: dt.datetime = Field(description="The moment of the outer (transiting) ring, UTC if naive")
    house_system: HouseSystem = Field(default="P", description="The natal chart's houses")
    transiting_bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=14, description="Default: sun, mercury..pluto"
    )
    aspects: list[AspectName] | None = Field(
        default=None, min_length=1, max_length=11, description="Default: the five major"
    )

    _in_span = field_validator("at")(in_ephemeris_span)


def _natal_chart(data: NatalFields) -> NatalChart:
    return natal_chart(
        data.subject.to_calc(),
        house_system=data.house_system,
        bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
        aspects=data.aspects,
        orbs={str(k): v for k, v in data.orbs.items()} if data.orbs else None,
        include_minor=data.include_minor,
    )


@calculation(
    blueprint,
    "POST /api/v3/western/natal/wheel",
    operation_id="westernNatalWheel",
    tags=TAG,
    picture=True,
    price="western.natal_wheel",
    body=NatalWheelRequest,
    names_subject=True,
)
def western_natal_wheel(data: NatalWheelRequest) -> str:
    """Natal wheel picture: the ascendant at 9 o'clock, zodiac counter-clockwise, house cusps,
    bodies with degrees and retrograde marks, aspect lines by kind. SVG, or PNG rendered from it;
    each body is a group with ``data-body``/``data-longitude``, each cusp line
    ``data-cusp``/``data-longitude``, with the numbers of ``POST /api/v3/western/natal``."""
    svg = natal_wheel_svg(_natal_chart(data), **data.drawing_options())
    return svg


@calculation(
    blueprint,
    "POST /api/v3/western/synastry/wheel",
    operation_id="westernSynastryWheel",
    tags=TAG,
    picture=True,
    price="western.synastry_wheel",
    body=SynastryWheelRequest,
)
def western_synastry_wheel(data: SynastryWheelRequest) -> str:
    """Synastry bi-wheel picture: subject A's chart inside, subject B's bodies in the outer
    ring, and the inter-aspects of ``POST /api/v3/western/synastry`` across the centre."""
    result = synastry(
        data.subject_a.to_calc(),
        data.subject_b.to_calc(),
        house_system=data.house_system,
        include_minor=data.include_minor,
    )
    svg = bi_wheel_svg(
        result.chart_a,
        result.chart_b,
        result.aspects,
        kind="synastry",
        **data.drawing_options(),
    )
    return svg


@calculation(
    blueprint,
    "POST /api/v3/western/transits/wheel",
    operation_id="westernTransitsWheel",
    tags=TAG,
    picture=True,
    price="western.transits_wheel",
    body=TransitsWheelRequest,
    names_subject=True,
)
def western_transits_wheel(data: TransitsWheelRequest) -> str:
    """Transits bi-wheel picture: the natal chart inside, the sky at ``at`` (geocentric
    positions, the same bodies as ``POST /api/v3/western/transits``) outside, and the aspects
    from each transiting body to the natal bodies and angles across the centre."""
    subject = data.subject.to_calc()
    natal = natal_chart(subject, house_system=data.house_system, aspects=(), include_minor=False)
    sky = chart_for_instant(
        as_utc(data.at),
        data.subject.latitude,
        data.subject.longitude,
        timezone=natal.meta.timezone,
        house_system=data.house_system,
        bodies=data.transiting_bodies or DEFAULT_TRANSITING,
        aspects=(),
    )
    definitions = aspect_set(data.aspects or MAJOR_ASPECTS)
    natal_points = aspect_points(
        natal.planets, natal.angles.ascendant.longitude, natal.angles.midheaven.longitude
    )
    sky_points = [(p.name, p.longitude, p.speed) for p in sky.planets]
    # body1 from the natal chart, body2 the transiting body (the bi-wheel's inner/outer order).
    crossing = aspects_between(natal_points, sky_points, definitions)
    svg = bi_wheel_svg(natal, sky, crossing, kind="transits", **data.drawing_options())
    return svg


# --- rectification -------------------------------------------------------------------------------

Ayanamsa = Literal["lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"]


class RectificationRequest(BaseModel):
    """A day, a place and a window of local clock times (at most 24 hours)."""

    date: dt.date = Field(description="Local calendar date the window starts on (YYYY-MM-DD)")
    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")
    timezoneOffsetMinutes: int | None = offset_minutes_field(  # the spec's field name
        "Offset from UTC in minutes; wins over timezone when both are given"
    )
    timezone: str | None = timezone_field("Europe/London")
    start_time: str = Field(
        pattern=TIME_PATTERN, description="Window start, local 24-hour HH:MM or HH:MM:SS"
    )
    end_time: str = Field(
        pattern=TIME_PATTERN,
        description=(
            "Window end, local HH:MM or HH:MM:SS; on the next day when not after start_time "
            "(equal to it: a full 24 hours, the longest window)"
        ),
    )
    ayanamsa: Ayanamsa = Field(default="lahiri", description="Sidereal zodiac of the padas")

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("date")(in_ephemeris_span)


@calculation(
    blueprint,
    "POST /api/v3/western/rectification-window",
    operation_id="westernRectificationWindow",
    tags=TAG,
    price="western.rectification_window",
    body=RectificationRequest,
    result=RectificationWindow,
)
def western_rectification_window(data: RectificationRequest) -> RectificationWindow:
    """Rectification helper: every change of ascendant sign, midheaven sign, Moon sign (tropical),
    nakshatra pada (sidereal, ``ayanamsa``) and Chinese hour pillar between ``start_time`` and
    ``end_time`` on ``date`` at the place, each with its exact time (UTC and local, to 1 second),
    in time order; a starting point for an astrologer rectifying a birth time. The window is at
    most 24 hours (``end_time`` not after ``start_time`` ends on the next day)."""
    return rectification_window(
        data.date,
        parse_time_of_day(data.start_time, "start_time"),
        parse_time_of_day(data.end_time, "end_time"),
        latitude=data.latitude,
        longitude=data.longitude,
        offset_minutes=data.timezoneOffsetMinutes,
        timezone_name=data.timezone,
        ayanamsa=data.ayanamsa,
    )
