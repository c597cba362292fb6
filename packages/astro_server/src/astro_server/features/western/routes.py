"""Western tag group: natal, synastry, composite, returns, progressions, transits.

Handlers are thin: validate -> astro_calc.western -> respond (msgspec structs encoded once).
A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``) plus an optional IANA ``timezone`` and ``fold``; with
neither offset nor zone, the zone is found from the coordinates. Every result's ``meta`` echoes
the resolved UTC instant and offset. Transits (up to a year of root finding) run off the event
loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Literal

import msgspec
from pydantic import BaseModel, Field, field_validator
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag

from astro_calc import western
from astro_calc.ephemeris import FIRST_YEAR, LAST_YEAR
from astro_calc.errors import CalcInputError
from astro_calc.interpretations import Interpretations
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
from astro_server.features.common.interpretations import (
    InterpretationOptions,
    interpretation_variant,
    interpreted_model,
    natal_items,
    respond,
)
from astro_server.features.common.pictures import PictureOptions, picture_response
from astro_server.features.common.routing import (
    SPAN_TEXT,
    as_utc,
    in_ephemeris_span,
    respond_off_loop,
)
from astro_server.features.common.sensitivity import (
    SensitivityOption,
    SensitivityOptions,
    sensitive_model,
    with_sensitivity,
)
from astro_server.features.common.subject import (
    TIME_PATTERN,
    BirthSubject,
    check_zone,
    names_subject_fields,
    offset_minutes_field,
    timezone_field,
)
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable
from astro_server.platform.msgspec_docs import response_model

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
    subjects: tuple[tuple[str, WesternSubject], ...], house_system: str, option: SensitivityOption
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
                subject.to_calc(),
                house_system=house_system,
                uncertainty_minutes=option.uncertainty_minutes,
            ),
        )
        for prefix, subject in subjects
    ]
    return combined(parts)


async def _sensitivity_of(
    data: SensitivityOptions, subjects: tuple[tuple[str, WesternSubject], ...], house_system: str
) -> Callable[[bytes], bytes]:
    """``respond``'s ``extra``: the natal inputs' sensitivity appended when asked for (computed
    off the event loop: two charts' worth for a pair)."""
    option = data.sensitivity
    found = None
    if option is not None:
        found = await asyncio.to_thread(natal_inputs_sensitivity, subjects, house_system, option)
    return lambda body: with_sensitivity(body, found)


@blueprint.post("/api/v3/western/natal")
@require_api_key
@billable("western.natal", body=NatalRequest, variant=interpretation_variant("western.natal"))
@document_response(sensitive_model(interpreted_model(NatalChart)), 200)
@tag(TAG)
@operation_id("westernNatal")
@names_subject_fields
async def western_natal(data: NatalRequest) -> Response:
    """Natal chart: bodies with sign, house, dignity; houses; angles; aspects; balance.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth-time result is to changing, charged as the ``.sensitivity`` row (+1 credit).
    """
    chart = _natal_chart(data)
    found = None
    if data.sensitivity is not None:
        found = natal_sensitivity(
            data.subject.to_calc(),
            house_system=data.house_system,
            bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
            uncertainty_minutes=data.sensitivity.uncertainty_minutes,
        )
    return respond(
        chart,
        data,
        lambda language, level: natal_items(chart, language, level),
        lambda body: with_sensitivity(body, found),
    )


@blueprint.post("/api/v3/western/synastry")
@require_api_key
@billable("western.synastry", body=PairRequest, variant=interpretation_variant("western.synastry"))
@document_response(sensitive_model(interpreted_model(Synastry)), 200)
@tag(TAG)
@operation_id("westernSynastry")
async def western_synastry(data: PairRequest) -> Response:
    """Inter-aspects, house overlays and a documented compatibility score (0 to 100).

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth's natal results (angles, houses, the Moon's sign) are to changing, named
    ``subject_a.`` and ``subject_b.``, charged as the ``.sensitivity`` row (+1 credit).
    """
    extra = await _sensitivity_of(
        data, (("subject_a", data.subject_a), ("subject_b", data.subject_b)), data.house_system
    )
    result = synastry(
        data.subject_a.to_calc(),
        data.subject_b.to_calc(),
        house_system=data.house_system,
        include_minor=data.include_minor,
    )
    return respond(
        result,
        data,
        lambda language, level: synastry_interpretation(result, language=language, level=level),
        extra,
    )


@blueprint.post("/api/v3/western/composite")
@require_api_key
@billable(
    "western.composite", body=CompositeRequest, variant=interpretation_variant("western.composite")
)
@document_response(sensitive_model(interpreted_model(CompositeChart)), 200)
@tag(TAG)
@operation_id("westernComposite")
async def western_composite(data: CompositeRequest) -> Response:
    """Composite chart by shorter-arc midpoints (houses derived from the composite midheaven), or
    the Davison time-and-place midpoint chart.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    each birth's natal results (angles, houses, the Moon's sign) are to changing, named
    ``subject_a.`` and ``subject_b.``, charged as the ``.sensitivity`` row (+1 credit).
    """
    extra = await _sensitivity_of(
        data, (("subject_a", data.subject_a), ("subject_b", data.subject_b)), data.house_system
    )
    result = composite_chart(
        data.subject_a.to_calc(),
        data.subject_b.to_calc(),
        method=data.method,
        house_system=data.house_system,
    )
    return respond(
        result,
        data,
        lambda language, level: composite_interpretation(result, language=language, level=level),
        extra,
    )


@blueprint.post("/api/v3/western/returns")
@require_api_key
@billable("western.returns", body=ReturnsRequest, variant=interpretation_variant("western.returns"))
@document_response(sensitive_model(interpreted_model(ReturnChart)), 200)
@tag(TAG)
@operation_id("westernReturns")
@names_subject_fields
async def western_returns(data: ReturnsRequest) -> Response:
    """Solar return for a year, or the first lunar return after a date, at a chosen place.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the natal results it is computed from (angles, houses, the Moon's sign) are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    subject = data.subject.to_calc()
    extra = await _sensitivity_of(data, (("", data.subject),), data.house_system)
    if data.kind == "solar":
        if data.year is None:
            raise CalcInputError("year", "required for a solar return")
        result = solar_return(
            subject,
            data.year,
            latitude=data.latitude,
            longitude=data.longitude,
            timezone=data.timezone,
            house_system=data.house_system,
        )
    else:
        if data.after is None:
            raise CalcInputError("after", "required for a lunar return")
        result = lunar_return(
            subject,
            as_utc(data.after),
            latitude=data.latitude,
            longitude=data.longitude,
            timezone=data.timezone,
            house_system=data.house_system,
        )
    return respond(
        result,
        data,
        lambda language, level: returns_interpretation(result, language=language, level=level),
        extra,
    )


@blueprint.post("/api/v3/western/progressions")
@require_api_key
@billable(
    "western.progressions",
    body=ProgressionsRequest,
    variant=interpretation_variant("western.progressions"),
)
@document_response(sensitive_model(interpreted_model(ProgressionsResult)), 200)
@tag(TAG)
@operation_id("westernProgressions")
@names_subject_fields
async def western_progressions(data: ProgressionsRequest) -> Response:
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
    extra = await _sensitivity_of(data, (("", data.subject),), data.house_system)
    if data.method == "secondary":
        secondary = secondary_progressions(
            subject,
            target,
            mc_method=data.mc_method,
            house_system=data.house_system,
            orb_deg=data.orb_deg,
        )
        return respond(
            ProgressionsResult("secondary", secondary, None),
            data,
            lambda language, level: progressions_interpretation(
                secondary, orb_deg=data.orb_deg, language=language, level=level
            ),
            extra,
        )
    directions = solar_arc_directions(subject, target, orb_deg=data.orb_deg)
    return respond(
        ProgressionsResult("solar_arc", None, directions),
        data,
        lambda language, level: progressions_interpretation(
            directions, orb_deg=data.orb_deg, language=language, level=level
        ),
        extra,
    )


@blueprint.post("/api/v3/western/transits")
@require_api_key
@billable(
    "western.transits", body=TransitsRequest, variant=interpretation_variant("western.transits")
)
@document_response(sensitive_model(interpreted_model(TransitReport)), 200)
@tag(TAG)
@operation_id("westernTransits")
@names_subject_fields
async def western_transits(data: TransitsRequest) -> Response:
    """Every exact transit-to-natal aspect, ingress and station in a range of up to a year.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the natal results it is computed from (angles, houses, the Moon's sign) are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    report = await asyncio.to_thread(
        transits,
        data.subject.to_calc(),
        as_utc(data.start),
        as_utc(data.end),
        transiting_bodies=data.transiting_bodies or DEFAULT_TRANSITING,
        aspects=data.aspects or MAJOR_ASPECTS,
        include_ingresses=data.include_ingresses,
        include_stations=data.include_stations,
    )
    # The natal chart a transit search reads is on Placidus cusps (its default).
    extra = await _sensitivity_of(data, (("", data.subject),), "P")
    if data.interpretations == "none":
        return respond(report, data, _never, extra)
    found = await asyncio.to_thread(
        transits_interpretation, report, language=data.language, level=data.interpretations
    )
    return respond(report, data, lambda language, level: found, extra)


def _never(language: str, level: str) -> Interpretations:
    raise AssertionError("no interpretations were asked for")


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


@blueprint.post("/api/v3/western/natal/wheel")
@require_api_key
@billable("western.natal_wheel", body=NatalWheelRequest)
@tag(TAG)
@operation_id("westernNatalWheel")
@names_subject_fields
async def western_natal_wheel(data: NatalWheelRequest) -> Response:
    """Natal wheel picture: the ascendant at 9 o'clock, zodiac counter-clockwise, house cusps,
    bodies with degrees and retrograde marks, aspect lines by kind. SVG, or PNG rendered from it;
    each body is a group with ``data-body``/``data-longitude``, each cusp line
    ``data-cusp``/``data-longitude``, with the numbers of ``POST /api/v3/western/natal``."""
    svg = natal_wheel_svg(_natal_chart(data), **data.drawing_options())
    return await picture_response(svg, data)


@blueprint.post("/api/v3/western/synastry/wheel")
@require_api_key
@billable("western.synastry_wheel", body=SynastryWheelRequest)
@tag(TAG)
@operation_id("westernSynastryWheel")
async def western_synastry_wheel(data: SynastryWheelRequest) -> Response:
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
    return await picture_response(svg, data)


@blueprint.post("/api/v3/western/transits/wheel")
@require_api_key
@billable("western.transits_wheel", body=TransitsWheelRequest)
@tag(TAG)
@operation_id("westernTransitsWheel")
@names_subject_fields
async def western_transits_wheel(data: TransitsWheelRequest) -> Response:
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
    return await picture_response(svg, data)


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


def _rectification(data: RectificationRequest) -> RectificationWindow:
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


@blueprint.post("/api/v3/western/rectification-window")
@require_api_key
@billable("western.rectification_window", body=RectificationRequest)
@document_response(response_model(RectificationWindow), 200)
@tag(TAG)
@operation_id("westernRectificationWindow")
async def western_rectification_window(data: RectificationRequest) -> Response:
    """Rectification helper: every change of ascendant sign, midheaven sign, Moon sign (tropical),
    nakshatra pada (sidereal, ``ayanamsa``) and Chinese hour pillar between ``start_time`` and
    ``end_time`` on ``date`` at the place, each with its exact time (UTC and local, to 1 second),
    in time order; a starting point for an astrologer rectifying a birth time. The window is at
    most 24 hours (``end_time`` not after ``start_time`` ends on the next day)."""
    return await respond_off_loop(_rectification, data)
