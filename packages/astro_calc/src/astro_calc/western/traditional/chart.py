"""Sect, the seven Hermetic lots, whole-sign houses and the traditional chart.

Sect (Brennan, *Hellenistic Astrology*, 2017, ch. 7): a chart is of the **day** when the Sun
stands above the horizon, **night** otherwise. Convention: the geometric altitude of the Sun's
centre (no refraction, no semi-diameter) from the local sidereal time (the houses' ARMC), the
Sun's right ascension and declination (true obliquity of date) and the latitude; an altitude of
exactly 0 counts as day. Away from the polar circles this is the same as "the Sun on the upper
half of the ecliptic, from the descendant through the midheaven to the ascendant"
(:func:`sect_of`, ``(sun - ascendant) mod 360`` above 180), to within the Sun's ecliptic
latitude (under 1"), and the birth-time search uses that form; inside the polar circles the
ascendant can stand in the west, and only the altitude answers rightly (the polar night is a
night chart at noon). flatlib, the test oracle, tests the altitude too.

Lots (Paulus Alexandrinus, *Introductory Matters* ch. 23, tr. D. G. Greenbaum, 2001; the same
formulas in Brennan 2017, ch. 16). Each is ``ascendant + to - from`` by day and
``ascendant + from - to`` by night ("from A to B, projected from the ascendant"):

========== ================= ================= ===============================
lot        from              to                by day
========== ================= ================= ===============================
fortune    sun               moon              asc + moon - sun
spirit     moon              sun               asc + sun - moon
eros       spirit            venus             asc + venus - spirit
necessity  mercury           fortune           asc + fortune - mercury
courage    mars              fortune           asc + fortune - mars
victory    spirit            jupiter           asc + jupiter - spirit
nemesis    saturn            fortune           asc + fortune - saturn
========== ================= ================= ===============================

Eros and necessity follow Paulus; Valens (*Anthology* IV.25, tr. Riley) gives other versions
of those two, not used here. A lot's ``house`` is its whole-sign house from the ascendant's sign
(the Hellenistic house, Brennan 2017 ch. 11); ``quadrant_house`` is its house on the chart's
quadrant system.

Checked against flatlib (its Hermetic lots use the same formulas) on random charts, to 0.01
degree, in ``tests/test_western_traditional_chart.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.natal import ChartMeta, HouseCusp, NatalChart, house_cusps, natal_chart
from astro_calc.western.subject import SIGNS, BirthSubject
from astro_calc.western.traditional.dignities import (
    CLASSICAL_PLANETS,
    DOMICILE,
    SCORES,
    dignities_at,
    dignity_score_of,
    minor_dignities_at,
)

Sect = Literal["day", "night"]

#: The lots in the order they are computed (later ones use fortune and spirit).
LOT_NAMES: Final[tuple[str, ...]] = (
    "fortune",
    "spirit",
    "eros",
    "necessity",
    "courage",
    "victory",
    "nemesis",
)
#: Each lot as (from, to): by day ``asc + to - from``, by night ``asc + from - to``.
LOT_FORMULAS: Final[dict[str, tuple[str, str]]] = {
    "fortune": ("sun", "moon"),
    "spirit": ("moon", "sun"),
    "eros": ("spirit", "venus"),
    "necessity": ("mercury", "fortune"),
    "courage": ("mars", "fortune"),
    "victory": ("spirit", "jupiter"),
    "nemesis": ("saturn", "fortune"),
}


class Lot(msgspec.Struct, frozen=True, gc=False):
    """A lot: ``longitude`` (tropical degrees), ``sign``, ``sign_degree``, whole-sign ``house``
    from the ascendant's sign, ``quadrant_house`` on the chart's house system and the
    ``formula`` used (``"asc + moon - sun"``)."""

    longitude: float
    sign: str
    sign_degree: float
    house: int
    quadrant_house: int
    formula: str


class WholeSignHouse(msgspec.Struct, frozen=True, gc=False):
    """A whole-sign house: the ``number``-th sign from the ascendant's, and its domicile ruler."""

    number: int
    sign: str
    ruler: str


class TraditionalPlanet(msgspec.Struct, frozen=True, gc=False):
    """A classical planet with its whole-sign ``house``, its ``quadrant_house``, whether it is
    of the chart's sect (``in_sect``: Sun, Jupiter, Saturn by day; Moon, Venus, Mars by night;
    Mercury by its side of the Sun: morning rising with the day, evening with the night) and its
    essential ``dignities`` with their ``dignity_score`` (Lilly's points)."""

    name: str
    longitude: float
    sign: str
    sign_degree: float
    house: int
    quadrant_house: int
    retrograde: bool
    in_sect: bool
    dignities: tuple[str, ...]
    dignity_score: int


class TraditionalChart(msgspec.Struct, frozen=True, gc=False):
    """``sect``, the seven ``lots``, the seven ``planets``, the ``whole_sign_houses`` beside the
    quadrant ``houses`` of ``house_system``, the ascendant and the chart's ``meta``."""

    sect: str
    ascendant: float
    ascendant_sign: str
    lots: dict[str, Lot]
    planets: tuple[TraditionalPlanet, ...]
    whole_sign_houses: tuple[WholeSignHouse, ...]
    houses: tuple[HouseCusp, ...]
    meta: ChartMeta


def sun_altitude(
    jd_ut: float, latitude: float, armc: float, sun_longitude: float, sun_latitude: float = 0.0
) -> float:
    """Geometric altitude (degrees) of the Sun's centre: from its ecliptic longitude and latitude,
    the true obliquity of date, the local sidereal time as ``armc`` (degrees) and the latitude."""
    eps = math.radians(ephemeris.obliquity(jd_ut))
    lam, beta, phi = math.radians(sun_longitude), math.radians(sun_latitude), math.radians(latitude)
    sin_dec = math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam)
    dec = math.asin(max(-1.0, min(1.0, sin_dec)))
    ra = math.atan2(math.sin(lam) * math.cos(eps) - math.tan(beta) * math.sin(eps), math.cos(lam))
    hour_angle = math.radians(armc) - ra
    sin_alt = math.sin(phi) * math.sin(dec) + math.cos(phi) * math.cos(dec) * math.cos(hour_angle)
    return math.degrees(math.asin(max(-1.0, min(1.0, sin_alt))))


def sect_at(
    jd_ut: float, latitude: float, armc: float, sun_longitude: float, sun_latitude: float = 0.0
) -> Sect:
    """``"day"`` when the Sun's geometric altitude is 0 or more (the module's convention)."""
    altitude = sun_altitude(jd_ut, latitude, armc, sun_longitude, sun_latitude)
    return "day" if altitude >= 0.0 else "night"


def sect_of(sun_longitude: float, ascendant: float) -> Sect:
    """The ecliptic form of the sect: ``"day"`` when the Sun is on the upper half of the
    ecliptic, from the descendant through the midheaven to the ascendant (exactly on the
    ascendant, rising, counts as day). Equal to :func:`sect_at` outside the polar circles up to
    the Sun's ecliptic latitude; the birth-time search runs on it."""
    arc = (sun_longitude - ascendant) % 360.0
    return "day" if arc > 180.0 or arc == 0.0 else "night"


def sign_index(longitude: float) -> int:
    return int((longitude % 360.0) // 30.0) % 12


def whole_sign_house(longitude: float, ascendant: float) -> int:
    """The whole-sign house (1-12) of a longitude: its sign counted from the ascendant's."""
    return (sign_index(longitude) - sign_index(ascendant)) % 12 + 1


def whole_sign_houses(ascendant: float) -> tuple[WholeSignHouse, ...]:
    first = sign_index(ascendant)
    return tuple(
        WholeSignHouse(n + 1, SIGNS[(first + n) % 12], DOMICILE[SIGNS[(first + n) % 12]])
        for n in range(12)
    )


def lot_longitudes(ascendant: float, positions: Mapping[str, float], sect: str) -> dict[str, float]:
    """The seven lots' longitudes from the ascendant and the seven planets' longitudes
    (``positions`` by name). See the module docstring for the formulas."""
    points = dict(positions)
    out: dict[str, float] = {}
    day = sect == "day"
    for name in LOT_NAMES:
        a, b = LOT_FORMULAS[name]
        start, to = points[a], points[b]
        lon = (ascendant + (to - start if day else start - to)) % 360.0
        out[name] = points[name] = lon
    return out


def lot_formula(name: str, sect: str) -> str:
    a, b = LOT_FORMULAS[name]
    return f"asc + {b} - {a}" if sect == "day" else f"asc + {a} - {b}"


def lots_of(
    ascendant: float,
    positions: Mapping[str, float],
    sect: str,
    quadrant_house_of: Callable[[float], int],
) -> dict[str, Lot]:
    """The seven lots as :class:`Lot` structs (what the natal chart's ``"lots": true`` adds)."""
    out: dict[str, Lot] = {}
    for name, lon in lot_longitudes(ascendant, positions, sect).items():
        out[name] = Lot(
            longitude=lon,
            sign=SIGNS[sign_index(lon)],
            sign_degree=lon % 30.0,
            house=whole_sign_house(lon, ascendant),
            quadrant_house=quadrant_house_of(lon),
            formula=lot_formula(name, sect),
        )
    return out


def in_sect(planet: str, sect: str, longitude: float, sun_longitude: float) -> bool:
    """Whether a classical planet belongs to the chart's sect (Brennan 2017, ch. 7). Mercury is
    diurnal as a morning star (rising before the Sun: west of it in longitude), nocturnal as an
    evening star."""
    if planet in ("sun", "jupiter", "saturn"):
        return sect == "day"
    if planet in ("moon", "venus", "mars"):
        return sect == "night"
    morning = (longitude - sun_longitude) % 360.0 > 180.0
    return morning == (sect == "day")


def traditional_chart(
    subject: BirthSubject, *, house_system: str = "P", triplicity: str = "all"
) -> TraditionalChart:
    """The traditional chart of a birth: sect, the seven lots, the seven classical planets with
    their full essential dignities (:mod:`.dignities`, ``triplicity`` convention there), the
    whole-sign houses and the quadrant houses of ``house_system`` (default Placidus). Positions
    come from :func:`astro_calc.western.natal.natal_chart` (tropical, apparent, geocentric)."""
    chart = natal_chart(subject, house_system=house_system, bodies=CLASSICAL_PLANETS)
    asc = chart.angles.ascendant.longitude
    positions = {p.name: p.longitude for p in chart.planets}
    h = ephemeris.houses(chart.meta.julian_day, subject.latitude, subject.longitude, house_system)
    sun = chart.planet("sun")
    sect = sect_at(chart.meta.julian_day, subject.latitude, h.armc, sun.longitude, sun.latitude)
    house_of = h.house_of
    planets = tuple(
        TraditionalPlanet(
            name=p.name,
            longitude=p.longitude,
            sign=p.sign,
            sign_degree=p.sign_degree,
            house=whole_sign_house(p.longitude, asc),
            quadrant_house=p.house,
            retrograde=p.retrograde,
            in_sect=in_sect(p.name, sect, p.longitude, positions["sun"]),
            dignities=(found := dignities_at(p.name, p.longitude, sect, triplicity=triplicity)),
            dignity_score=dignity_score_of(found),
        )
        for p in chart.planets
    )
    return TraditionalChart(
        sect=sect,
        ascendant=asc,
        ascendant_sign=chart.angles.ascendant.sign,
        lots=lots_of(asc, positions, sect, house_of),
        planets=planets,
        whole_sign_houses=whole_sign_houses(asc),
        houses=house_cusps(h.cusps),
        meta=chart.meta,
    )


class NatalLots(msgspec.Struct, frozen=True, gc=False):
    """What the natal chart's ``"lots": true`` adds: ``sect`` and the seven ``lots``."""

    sect: str
    lots: dict[str, Lot]


def natal_lots(
    chart: NatalChart, *, quadrant_house_of: Callable[[float], int] | None = None
) -> NatalLots:
    """Sect and the seven lots of an already computed natal chart (its ascendant and the seven
    classical planets; ``bodies`` must include them). ``quadrant_house_of`` gives a lot's house on
    the chart's system (default: between the chart's cusps in zodiac order)."""
    positions = {p.name: p.longitude for p in chart.planets if p.name in CLASSICAL_PLANETS}
    missing = [name for name in CLASSICAL_PLANETS if name not in positions]
    if missing:
        raise CalcInputError("bodies", f"the lots need {', '.join(missing)} in the chart")
    asc = chart.angles.ascendant.longitude
    meta = chart.meta
    armc = ephemeris.houses(meta.julian_day, meta.latitude, meta.longitude, "W").armc
    sun = chart.planet("sun")
    sect = sect_at(meta.julian_day, meta.latitude, armc, sun.longitude, sun.latitude)
    cusps = tuple(c.cusp for c in chart.houses)
    house_of = quadrant_house_of or (lambda lon: ephemeris.house_of(lon, cusps))
    return NatalLots(sect, lots_of(asc, positions, sect, house_of))


def natal_dignities(
    chart: NatalChart, sect: str, *, triplicity: str = "all"
) -> dict[str, tuple[str, ...]]:
    """The triplicity, bound and face each classical planet of a natal chart holds (what its
    dignities gain beside ``rulership``/``exaltation``/``detriment``/``fall``), by planet."""
    return {
        p.name: minor_dignities_at(p.name, p.longitude, sect, triplicity=triplicity)
        for p in chart.planets
        if p.name in CLASSICAL_PLANETS
    }


#: The order of a planet's dignities once the natal chart's (``rulership``, ``exaltation``,
#: ``detriment``, ``fall``) gain the minor ones: the order of the dignity table.
NATAL_DIGNITY_ORDER: Final = (
    "rulership",
    "exaltation",
    "triplicity",
    "bound",
    "face",
    "detriment",
    "fall",
)


def with_minor_dignities(chart: NatalChart, sect: str, *, triplicity: str = "all") -> NatalChart:
    """The natal chart with each classical planet's ``dignities`` gaining the triplicity, bound
    and face it holds (:func:`natal_dignities`; Dorotheus' triplicity rulers, the Egyptian
    bounds, the Chaldean faces, see :mod:`.dignities`), in :data:`NATAL_DIGNITY_ORDER`, and its
    ``dignity_score`` their Lilly points (triplicity 3, bound 2, face 1) more. Other bodies
    (outer planets, nodes, Lilith, Chiron) are unchanged: the minor dignities belong to the
    seven planets only."""
    minor = natal_dignities(chart, sect, triplicity=triplicity)
    planets = []
    for p in chart.planets:
        gained = minor.get(p.name, ())
        if gained:
            names = set(p.dignities) | set(gained)
            p = msgspec.structs.replace(
                p,
                dignities=tuple(d for d in NATAL_DIGNITY_ORDER if d in names),
                dignity_score=p.dignity_score + sum(SCORES[d] for d in gained),
            )
        planets.append(p)
    return msgspec.structs.replace(chart, planets=tuple(planets))
