"""Western tag group: natal, synastry, composite, returns, progressions, transits.

Each route is one :func:`~astro_server.features.common.calculation.calculation` declaration on
the astro_calc.western computation it runs (in a worker thread); the request bodies are in
:mod:`astro_server.features.western.requests`. A birth subject is the spec's object (``date``,
``time`` HH:MM or HH:MM:SS, ``latitude``, ``longitude``, ``timezoneOffsetMinutes``) plus an
optional IANA ``timezone`` and ``fold``; with neither offset nor zone, the zone is found from
the coordinates. Every result's ``meta`` echoes the resolved UTC instant and offset.
"""

from __future__ import annotations

import msgspec
from quart import Blueprint

from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import (
    RectificationWindow,
    Sensitivity,
    combined,
    natal_sensitivity,
    rectification_window,
    traditional_sensitivity,
)
from astro_calc.time import parse_time_of_day
from astro_calc.western import (
    DEFAULT_BODIES,
    MAJOR_ASPECTS,
    CompositeChart,
    NatalChart,
    ReturnChart,
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
from astro_calc.western.traditional import natal_lots, with_minor_dignities
from astro_calc.western.transits import DEFAULT_TRANSITING
from astro_server.drawing import bi_wheel_svg, natal_wheel_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.interpretations import natal_items
from astro_server.features.common.routing import as_utc
from astro_server.features.western.requests import (
    CompositeRequest,
    NatalChartWithLots,
    NatalFields,
    NatalRequest,
    NatalWheelRequest,
    PairRequest,
    ProgressionsRequest,
    ProgressionsResult,
    RectificationRequest,
    ReturnsRequest,
    SynastryWheelRequest,
    TransitsRequest,
    TransitsWheelRequest,
)
from astro_server.features.western.requests import (
    WesternSubject as WesternSubject,  # re-exported: reports and tests read it here
)

blueprint = Blueprint("western", __name__)
TAG = ["Western"]
route = calculations(blueprint, tags=TAG)


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
    subject = data.subject.to_calc()
    natal = natal_sensitivity(
        subject,
        house_system=data.house_system,
        bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
        uncertainty_minutes=minutes,
    )
    if not data.lots:
        return natal
    # The lots' layer adds the sect and each lot's sign (the ascendant's is the natal item).
    found = traditional_sensitivity(subject, uncertainty_minutes=minutes)
    layer = msgspec.structs.replace(
        found,
        items=tuple(i for i in found.items if i.result != "ascendant.sign"),
        uncertain=tuple(name for name in found.uncertain if name != "ascendant.sign"),
    )
    return combined([("", natal), ("", layer)])


@route(
    "POST /api/v3/western/natal",
    "westernNatal",
    price="western.natal",
    body=NatalRequest,
    result=NatalChartWithLots,
    interpret=lambda chart, data: natal_items(chart, data.language, data.interpretations),
    sensitivity=_natal_sensitivity,
    names_subject=True,
)
def western_natal(data: NatalRequest) -> NatalChart:
    """Natal chart: bodies with sign, house, dignity; houses; angles; aspects; balance.

    ``lots: true`` adds ``sect`` and the seven Hermetic lots (Paulus Alexandrinus' formulas,
    reversed by night; each with its whole-sign ``house``) and the classical planets'
    triplicity, bound and face in ``dignities`` (same price; docs/decisions.md "Hellenistic
    timing and lots"). ``interpretations`` (summary or full, with ``language`` en or th) adds
    the texts in ``interpretations``, charged as the operation's interpretation row (tier pro);
    none leaves the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds
    how close each birth-time result is to changing (with ``lots``, the sect and each lot's
    sign too), charged as the ``.sensitivity`` row (+1 credit).
    """
    chart = _natal_chart(data)
    if not data.lots:
        return chart
    layer = natal_lots(chart)
    extended = with_minor_dignities(chart, layer.sect)
    fields = msgspec.structs.asdict(extended)
    return NatalChartWithLots(**fields, sect=layer.sect, lots=layer.lots)


@route(
    "POST /api/v3/western/synastry",
    "westernSynastry",
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


@route(
    "POST /api/v3/western/composite",
    "westernComposite",
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


@route(
    "POST /api/v3/western/returns",
    "westernReturns",
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


@route(
    "POST /api/v3/western/progressions",
    "westernProgressions",
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


@route(
    "POST /api/v3/western/transits",
    "westernTransits",
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


def _natal_chart(data: NatalFields) -> NatalChart:
    return natal_chart(
        data.subject.to_calc(),
        house_system=data.house_system,
        bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
        aspects=data.aspects,
        orbs={str(k): v for k, v in data.orbs.items()} if data.orbs else None,
        include_minor=data.include_minor,
    )


@route(
    "POST /api/v3/western/natal/wheel",
    "westernNatalWheel",
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


@route(
    "POST /api/v3/western/synastry/wheel",
    "westernSynastryWheel",
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


@route(
    "POST /api/v3/western/transits/wheel",
    "westernTransitsWheel",
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


@route(
    "POST /api/v3/western/rectification-window",
    "westernRectificationWindow",
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
