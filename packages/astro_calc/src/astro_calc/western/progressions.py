"""Secondary progressions and solar-arc directions for a target date.

Conventions:

* Secondary progressions, "a day for a year": the progressed instant is
  ``jd_birth + (jd_target - jd_birth) / 365.242189`` (tropical year in days); progressed bodies
  are their positions at that instant.
* Progressed angles (``mc_method``): ``naibod`` advances the natal ARMC (sidereal time of the
  midheaven) by the Naibod rate, 0.985647 degrees (59'08") per year of age; ``solar_arc``
  advances the natal midheaven in longitude by the solar arc (progressed minus natal Sun).
  The ascendant and other cusps follow from the progressed ARMC at the birth latitude with the
  obliquity of the progressed instant.
* Solar-arc directions: every natal body and angle advanced by the solar arc; aspects from
  directed to natal points within ``orb_deg`` (default 1 degree), major aspects only.

Checked against: direct pyswisseph calls for the progressed instant and the Naibod/solar-arc
arithmetic recomputed in ``tests/test_western_progressions.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.aspects import MAJOR_ASPECTS, Aspect, Point, aspect_set, aspects_between
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    Angles,
    HouseCusp,
    PlanetPosition,
    angles_from,
    aspect_points,
    cached_positions,
    chart_at,
    check_bodies,
    check_house_system,
    house_cusps,
    planet_positions,
)
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, aware, resolve_subject

TROPICAL_YEAR_DAYS: Final = 365.242189
NAIBOD_DEG_PER_YEAR: Final = 0.985647
McMethod = Literal["naibod", "solar_arc"]


class ProgressionMeta(msgspec.Struct, frozen=True):
    birth: SubjectTime
    target_utc: datetime
    progressed_utc: datetime
    progressed_julian_day: float
    age_years: float
    mc_method: str
    house_system: str
    ephemeris: str
    warnings: tuple[str, ...]


class SecondaryProgressions(msgspec.Struct, frozen=True):
    """Progressed bodies (``house`` in the progressed houses), progressed angles and cusps, the
    solar arc in degrees, and aspects from progressed bodies (``body1``) to natal points."""

    planets: tuple[PlanetPosition, ...]
    houses: tuple[HouseCusp, ...]
    angles: Angles
    solar_arc: float
    aspects_to_natal: tuple[Aspect, ...]
    meta: ProgressionMeta


class DirectedPoint(msgspec.Struct, frozen=True):
    name: str
    natal_longitude: float
    longitude: float
    sign: str
    sign_degree: float


class SolarArcMeta(msgspec.Struct, frozen=True):
    birth: SubjectTime
    target_utc: datetime
    age_years: float
    orb_deg: float
    ephemeris: str
    warnings: tuple[str, ...]


class SolarArcDirections(msgspec.Struct, frozen=True):
    solar_arc: float
    points: tuple[DirectedPoint, ...]
    aspects_to_natal: tuple[Aspect, ...]
    meta: SolarArcMeta


def _ages(birth: SubjectTime, target: datetime | date) -> tuple[datetime, float, float]:
    when = aware(target, "target_date")
    jd_target = ephemeris.julian_day(when)
    if jd_target < birth.julian_day:
        raise CalcInputError("target_date", "must not be before the birth")
    age_years = (jd_target - birth.julian_day) / TROPICAL_YEAR_DAYS
    return when, age_years, birth.julian_day + age_years


def secondary_progressions(
    subject: BirthSubject,
    target: datetime | date,
    *,
    mc_method: McMethod = "naibod",
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    orb_deg: float = 1.0,
) -> SecondaryProgressions:
    """Secondary progressions to ``target`` (an aware date-time, or a date meaning 00:00 UTC),
    with progressed angles by ``mc_method`` (see the module docstring)."""
    if mc_method not in ("naibod", "solar_arc"):
        raise CalcInputError("mc_method", "must be 'naibod' or 'solar_arc'")
    if not 0.0 < orb_deg <= 5.0:
        raise CalcInputError("orb_deg", "must be greater than 0 and at most 5")
    check_house_system(house_system)
    names = check_bodies(bodies)
    birth = resolve_subject(subject)
    when, age_years, jd_prog = _ages(birth, target)
    natal = chart_at(
        birth, subject.latitude, subject.longitude, house_system=house_system, bodies=names
    )
    positions, used, warnings = cached_positions(jd_prog, names)
    solar_arc = (positions["sun"].longitude - natal.planet("sun").longitude) % 360.0
    natal_houses = ephemeris.houses(
        birth.julian_day, subject.latitude, subject.longitude, house_system
    )
    eps = ephemeris.obliquity(jd_prog)
    if mc_method == "naibod":
        armc = natal_houses.armc + age_years * NAIBOD_DEG_PER_YEAR
    else:
        armc = ephemeris.armc_of_midheaven(natal_houses.midheaven + solar_arc, eps)
    prog_houses = ephemeris.houses_from_armc(armc, subject.latitude, eps, house_system)
    planets = planet_positions(positions, prog_houses)
    definitions = aspect_set(MAJOR_ASPECTS, dict.fromkeys(MAJOR_ASPECTS, orb_deg))
    # Natal points are fixed: only the progressed body moves toward or away from exact.
    natal_points: list[Point] = [
        (name, lon, 0.0)
        for name, lon, _speed in aspect_points(
            natal.planets, natal.angles.ascendant.longitude, natal.angles.midheaven.longitude
        )
    ]
    prog_points = aspect_points(planets, prog_houses.ascendant, prog_houses.midheaven)
    return SecondaryProgressions(
        planets=planets,
        houses=house_cusps(prog_houses.cusps),
        angles=angles_from(prog_houses.ascendant, prog_houses.midheaven, prog_houses.vertex),
        solar_arc=solar_arc,
        aspects_to_natal=tuple(aspects_between(prog_points, natal_points, definitions)),
        meta=ProgressionMeta(
            birth=birth,
            target_utc=when,
            progressed_utc=ephemeris.datetime_from_jd(jd_prog),
            progressed_julian_day=jd_prog,
            age_years=age_years,
            mc_method=mc_method,
            house_system=prog_houses.system,
            ephemeris=used,
            warnings=tuple(dict.fromkeys((*warnings, *natal.meta.warnings, *prog_houses.warnings))),
        ),
    )


def solar_arc_directions(
    subject: BirthSubject,
    target: datetime | date,
    *,
    bodies: Iterable[str] = DEFAULT_BODIES,
    orb_deg: float = 1.0,
) -> SolarArcDirections:
    """Solar-arc directions to ``target``: every natal body and the four angles advanced by the
    solar arc (progressed Sun minus natal Sun, secondary-progression convention), and major
    aspects from directed (``body1``) to natal points within ``orb_deg``."""
    if not 0.0 < orb_deg <= 5.0:
        raise CalcInputError("orb_deg", "must be greater than 0 and at most 5")
    names = check_bodies(bodies)
    birth = resolve_subject(subject)
    when, age_years, jd_prog = _ages(birth, target)
    natal = chart_at(birth, subject.latitude, subject.longitude, house_system="P", bodies=names)
    solar_arc = (
        ephemeris.body_position(jd_prog, "sun").longitude - natal.planet("sun").longitude
    ) % 360.0
    natal_lons: list[tuple[str, float]] = [(p.name, p.longitude) for p in natal.planets]
    natal_lons += [
        ("ascendant", natal.angles.ascendant.longitude),
        ("midheaven", natal.angles.midheaven.longitude),
        ("descendant", natal.angles.descendant.longitude),
        ("imum_coeli", natal.angles.imum_coeli.longitude),
    ]
    points = []
    for name, lon in natal_lons:
        directed = (lon + solar_arc) % 360.0
        points.append(
            DirectedPoint(name, lon, directed, SIGNS[int(directed // 30.0) % 12], directed % 30.0)
        )
    definitions = aspect_set(MAJOR_ASPECTS, dict.fromkeys(MAJOR_ASPECTS, orb_deg))
    # Directed points move at the Sun's progressed rate, about one degree a year; as aspects
    # between directed and natal points only shrink or grow with the arc, "applying" means the
    # arc is still growing toward exact (directed speed > 0, natal speed 0).
    directed_points: list[Point] = [(p.name, p.longitude, 1.0) for p in points[:-2]]
    natal_points: list[Point] = [(name, lon, 0.0) for name, lon in natal_lons[:-2]]
    return SolarArcDirections(
        solar_arc=solar_arc,
        points=tuple(points),
        aspects_to_natal=tuple(aspects_between(directed_points, natal_points, definitions)),
        meta=SolarArcMeta(
            birth=birth,
            target_utc=when,
            age_years=age_years,
            orb_deg=orb_deg,
            ephemeris=natal.meta.ephemeris,
            warnings=natal.meta.warnings,
        ),
    )
