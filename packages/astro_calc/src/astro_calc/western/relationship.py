"""Relationship charts: synastry (inter-aspects, house overlays, a compatibility score) and
composite charts (midpoint composite and Davison).

Compatibility score (documented convention, 0..100): every inter-aspect between the first
subject's and the second subject's points contributes a weight
``w = pair_weight * (1 - orb / orb_allowed)``, where ``pair_weight`` is 2 when both points are
"personal" (``sun``, ``moon``, ``venus``, ``mars``, ``ascendant``) and 1 otherwise. Trines,
sextiles and conjunctions are harmonious, squares and oppositions challenging; minor aspects do
not count. ``score = 100 * H / (H + C)`` rounded to one decimal, 50 when neither occurs.

Composite (midpoint method): each body and the midheaven are the midpoints, on the shorter arc, of
the two natal longitudes. The houses, the ascendant and the vertex are derived from that midheaven
(Robert Hand's method, *Planets in Composite*, 1975): the composite midheaven's right ascension
(the ARMC) at the mean latitude of the two births, with the true obliquity at their mean instant,
cast in the chosen house system. Midpoints of the natal cusps taken one by one are not used: when
two natal cusps lie nearly opposite, neighbouring midpoints flip to opposite sides and about one
pair in twenty got cusps out of zodiac order, an ascendant in the west and most bodies in house 1.
Davison: the chart for the instant halfway between the two births (in UT) at the place halfway
between them (mean latitude, longitude midpoint on the shorter arc).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.aspects import Aspect, aspect_set, aspects_between, aspects_within
from astro_calc.western.dignity import dignity_score, essential_dignities
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    Angles,
    ElementBalance,
    HouseCusp,
    ModalityBalance,
    NatalChart,
    PlanetPosition,
    angles_from,
    aspect_points,
    balance,
    chart_at,
    check_bodies,
    check_house_system,
    house_cusps,
    house_finder,
)
from astro_calc.western.subject import (
    SIGNS,
    BirthSubject,
    SubjectTime,
    instant_time,
    midpoint,
    resolve_subject,
)

PERSONAL_POINTS: Final = frozenset({"sun", "moon", "venus", "mars", "ascendant"})
_HARMONIOUS: Final = frozenset({"trine", "sextile", "conjunction"})
_CHALLENGING: Final = frozenset({"square", "opposition"})


class HouseOverlay(msgspec.Struct, frozen=True):
    """``body`` of ``owner`` (``"a"`` or ``"b"``) falls in ``house`` of the other's chart."""

    owner: str
    body: str
    house: int


class CompatibilityScore(msgspec.Struct, frozen=True):
    score: float
    harmonious_weight: float
    challenging_weight: float
    method: str


class SynastryMeta(msgspec.Struct, frozen=True):
    subject_a: SubjectTime
    subject_b: SubjectTime
    house_system: str
    ephemeris: str
    warnings: tuple[str, ...]


class Synastry(msgspec.Struct, frozen=True):
    """Inter-aspects have ``body1`` from subject A and ``body2`` from subject B."""

    chart_a: NatalChart
    chart_b: NatalChart
    aspects: tuple[Aspect, ...]
    house_overlays: tuple[HouseOverlay, ...]
    compatibility: CompatibilityScore
    meta: SynastryMeta


class CompositeMeta(msgspec.Struct, frozen=True):
    method: str
    subject_a: SubjectTime
    subject_b: SubjectTime
    davison: SubjectTime | None
    latitude: float
    longitude: float
    house_system: str
    ephemeris: str
    warnings: tuple[str, ...]


class CompositeChart(msgspec.Struct, frozen=True):
    planets: tuple[PlanetPosition, ...]
    houses: tuple[HouseCusp, ...]
    angles: Angles
    aspects: tuple[Aspect, ...]
    elements: ElementBalance
    modalities: ModalityBalance
    meta: CompositeMeta


def compatibility_score(
    aspects: Iterable[Aspect], orbs_allowed: Mapping[str, float]
) -> CompatibilityScore:
    """The score described in the module docstring from a list of inter-aspects."""
    harmonious = challenging = 0.0
    for a in aspects:
        if a.aspect not in _HARMONIOUS and a.aspect not in _CHALLENGING:
            continue
        allowed = orbs_allowed[a.aspect]
        tightness = 1.0 - a.orb / allowed if allowed > 0 else 1.0
        weight = (
            2.0 if a.body1 in PERSONAL_POINTS and a.body2 in PERSONAL_POINTS else 1.0
        ) * tightness
        if a.aspect in _HARMONIOUS:
            harmonious += weight
        else:
            challenging += weight
    total = harmonious + challenging
    score = 50.0 if total == 0 else round(100.0 * harmonious / total, 1)
    return CompatibilityScore(
        score=score,
        harmonious_weight=round(harmonious, 4),
        challenging_weight=round(challenging, 4),
        method="harmonious_share_v1",
    )


def synastry(
    subject_a: BirthSubject,
    subject_b: BirthSubject,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    aspects: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    include_minor: bool = False,
) -> Synastry:
    """Synastry of two births: both natal charts, every inter-aspect (A's bodies, ascendant and
    midheaven to B's; major aspects unless ``include_minor``), where each one's bodies fall in the
    other's houses, and the compatibility score of the module docstring. Checked against direct
    pyswisseph positions and a hand-computed score in ``tests/test_western_relationship.py``."""
    check_house_system(house_system)
    names = check_bodies(bodies)
    definitions = aspect_set(aspects, orbs, include_minor=include_minor)
    echo_a = resolve_subject(subject_a, "subject_a.")
    echo_b = resolve_subject(subject_b, "subject_b.")
    chart_a = chart_at(
        echo_a,
        subject_a.latitude,
        subject_a.longitude,
        house_system=house_system,
        bodies=names,
        orbs=orbs,
    )
    chart_b = chart_at(
        echo_b,
        subject_b.latitude,
        subject_b.longitude,
        house_system=house_system,
        bodies=names,
        orbs=orbs,
    )
    points_a = aspect_points(
        chart_a.planets, chart_a.angles.ascendant.longitude, chart_a.angles.midheaven.longitude
    )
    points_b = aspect_points(
        chart_b.planets, chart_b.angles.ascendant.longitude, chart_b.angles.midheaven.longitude
    )
    inter = aspects_between(points_a, points_b, definitions)
    # The other chart's houses as geometry, not only cusps: near the poles some systems' cusps
    # are out of zodiac order and the house is then found from the house circles.
    houses_a = ephemeris.houses(
        echo_a.julian_day, subject_a.latitude, subject_a.longitude, house_system
    )
    houses_b = ephemeris.houses(
        echo_b.julian_day, subject_b.latitude, subject_b.longitude, house_system
    )
    overlays = [HouseOverlay("a", p.name, houses_b.house_of(p.longitude)) for p in chart_a.planets]
    overlays += [HouseOverlay("b", p.name, houses_a.house_of(p.longitude)) for p in chart_b.planets]
    return Synastry(
        chart_a=chart_a,
        chart_b=chart_b,
        aspects=tuple(inter),
        house_overlays=tuple(overlays),
        compatibility=compatibility_score(inter, {d.name: d.orb for d in definitions}),
        meta=SynastryMeta(
            subject_a=echo_a,
            subject_b=echo_b,
            house_system=chart_a.meta.house_system,
            ephemeris=chart_a.meta.ephemeris,
            warnings=tuple(dict.fromkeys((*chart_a.meta.warnings, *chart_b.meta.warnings))),
        ),
    )


CompositeMethod = Literal["midpoint", "davison"]


def composite_chart(
    subject_a: BirthSubject,
    subject_b: BirthSubject,
    *,
    method: CompositeMethod = "midpoint",
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    aspects: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    include_minor: bool = True,
) -> CompositeChart:
    """Composite chart of two births by the ``midpoint`` method or the ``davison`` chart (see the
    module docstring). Checked against midpoints of independent pyswisseph positions and the
    Davison instant recomputed by hand in ``tests/test_western_relationship.py``."""
    if method not in ("midpoint", "davison"):
        raise CalcInputError("method", "must be 'midpoint' or 'davison'")
    check_house_system(house_system)
    names = check_bodies(bodies)
    definitions = aspect_set(aspects, orbs, include_minor=include_minor)
    echo_a = resolve_subject(subject_a, "subject_a.")
    echo_b = resolve_subject(subject_b, "subject_b.")
    lat = (subject_a.latitude + subject_b.latitude) / 2.0
    lon = midpoint(subject_a.longitude, subject_b.longitude)
    if lon > 180.0:
        lon -= 360.0

    def chart_of(echo: SubjectTime, latitude: float, longitude: float) -> NatalChart:
        return chart_at(
            echo,
            latitude,
            longitude,
            house_system=house_system,
            bodies=names,
            aspects=aspects,
            orbs=orbs,
            include_minor=include_minor,
        )

    if method == "davison":
        jd = (echo_a.julian_day + echo_b.julian_day) / 2.0
        davison = instant_time(ephemeris.datetime_from_jd(jd), lat, lon)
        davison = msgspec.structs.replace(davison, julian_day=jd)
        chart = chart_of(davison, lat, lon)
        return CompositeChart(
            planets=chart.planets,
            houses=chart.houses,
            angles=chart.angles,
            aspects=chart.aspects,
            elements=chart.elements,
            modalities=chart.modalities,
            meta=CompositeMeta(
                method=method,
                subject_a=echo_a,
                subject_b=echo_b,
                davison=davison,
                latitude=lat,
                longitude=lon,
                house_system=chart.meta.house_system,
                ephemeris=chart.meta.ephemeris,
                warnings=chart.meta.warnings,
            ),
        )
    chart_a = chart_of(echo_a, subject_a.latitude, subject_a.longitude)
    chart_b = chart_of(echo_b, subject_b.latitude, subject_b.longitude)
    mc = midpoint(chart_a.angles.midheaven.longitude, chart_b.angles.midheaven.longitude)
    eps = ephemeris.obliquity((echo_a.julian_day + echo_b.julian_day) / 2.0)
    houses = ephemeris.houses_from_armc(
        ephemeris.armc_of_midheaven(mc, eps), lat, eps, house_system
    )
    house_of = house_finder(houses)
    by_name_b = {p.name: p for p in chart_b.planets}
    planets = []
    for pa in chart_a.planets:
        pb = by_name_b.get(pa.name)
        if pb is None:
            continue
        lon_c = midpoint(pa.longitude, pb.longitude)
        sign = SIGNS[int(lon_c // 30.0) % 12]
        speed = (pa.speed + pb.speed) / 2.0
        dignities = essential_dignities(pa.name, sign)
        planets.append(
            PlanetPosition(
                name=pa.name,
                longitude=lon_c,
                latitude=(pa.latitude + pb.latitude) / 2.0,
                speed=speed,
                sign=sign,
                sign_degree=lon_c % 30.0,
                house=house_of(lon_c),
                retrograde=speed < 0,
                dignities=dignities,
                dignity_score=dignity_score(dignities) if dignities else 0,
            )
        )
    cusps = houses.cusps
    asc = houses.ascendant
    vertex = houses.vertex
    elements, modalities = balance(planets)
    found = aspects_within(
        aspect_points(planets, asc, mc),
        definitions,
        skip_pairs=frozenset({frozenset({"mean_node", "true_node"})}),
    )
    return CompositeChart(
        planets=tuple(planets),
        houses=house_cusps(cusps),
        angles=angles_from(asc, mc, vertex),
        aspects=tuple(found),
        elements=elements,
        modalities=modalities,
        meta=CompositeMeta(
            method=method,
            subject_a=echo_a,
            subject_b=echo_b,
            davison=None,
            latitude=lat,
            longitude=lon,
            house_system=houses.system,
            ephemeris=chart_a.meta.ephemeris,
            warnings=tuple(
                dict.fromkeys((*chart_a.meta.warnings, *chart_b.meta.warnings, *houses.warnings))
            ),
        ),
    )


def davison_instant(a: SubjectTime, b: SubjectTime) -> datetime:
    """The Davison moment: halfway between two births in UT."""
    return ephemeris.datetime_from_jd((a.julian_day + b.julian_day) / 2.0)
