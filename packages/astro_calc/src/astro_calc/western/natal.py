"""The natal chart: bodies, houses, angles, aspects, dignities, element and modality balance.

Conventions (parameters with defaults):

* Tropical zodiac, apparent geocentric positions of date (Swiss Ephemeris via
  :mod:`astro_calc.ephemeris`; Moshier unless ``ASTRO_EPHE_PATH`` holds Swiss files).
* Bodies ``sun``..``pluto``, ``mean_node``, ``true_node``, ``mean_lilith`` (mean lunar apogee)
  and ``chiron``; Chiron needs Swiss asteroid files and is otherwise left out with a warning.
* House system ``P`` (Placidus) by default; any of P K W E O R C B A M T X. Inside the polar
  circles Placidus and Koch fall back to Porphyry with a warning.
* A body's ``house`` counts from cusp 1 forward; a body exactly on a cusp is in the house that
  cusp opens. ``retrograde`` is a negative longitude speed (the nodes are mostly retrograde).
* Aspects among the bodies, the ascendant and the midheaven (the mean/true node pair is
  skipped); see :mod:`astro_calc.western.aspects` for orbs and applying/separating.
* Element and modality balance counts the ten planets ``sun``..``pluto``, one each.

Checked against: direct pyswisseph calls and kerykeion over hundreds of random charts, and
published charts from Astrodatabank, in ``tests/test_western_natal.py``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.aspects import Aspect, AspectDefinition, Point, aspect_set, aspects_within
from astro_calc.western.dignity import dignities_with_score
from astro_calc.western.subject import (
    SIGNS,
    BirthSubject,
    SubjectTime,
    check_location,
    element_of,
    instant_time,
    modality_of,
    resolve_subject,
)

PLANETS: Final = (
    "sun",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)
DEFAULT_BODIES: Final = (*PLANETS, "mean_node", "true_node", "mean_lilith", "chiron")
WESTERN_BODIES: Final = frozenset(DEFAULT_BODIES)
HOUSE_SYSTEM_CODES: Final = tuple(ephemeris.HOUSE_SYSTEMS)
_NODE_PAIR: Final = frozenset({frozenset({"mean_node", "true_node"})})


class PlanetPosition(msgspec.Struct, frozen=True, gc=False):
    """A body: ecliptic ``longitude``/``latitude`` in degrees, ``speed`` in degrees per day,
    ``sign_degree`` 0..30 within ``sign``, ``house`` 1..12."""

    name: str
    longitude: float
    latitude: float
    speed: float
    sign: str
    sign_degree: float
    house: int
    retrograde: bool
    dignities: tuple[str, ...]
    dignity_score: int


class HouseCusp(msgspec.Struct, frozen=True, gc=False):
    number: int
    cusp: float
    sign: str
    sign_degree: float


class AnglePoint(msgspec.Struct, frozen=True, gc=False):
    longitude: float
    sign: str
    sign_degree: float


class Angles(msgspec.Struct, frozen=True, gc=False):
    ascendant: AnglePoint
    midheaven: AnglePoint
    descendant: AnglePoint
    imum_coeli: AnglePoint
    vertex: AnglePoint


class ElementBalance(msgspec.Struct, frozen=True, gc=False):
    fire: int
    earth: int
    air: int
    water: int


class ModalityBalance(msgspec.Struct, frozen=True, gc=False):
    cardinal: int
    fixed: int
    mutable: int


# Untracked by the garbage collector (gc=False) like the structs above: their fields are
# numbers, strings, datetimes and tuples built before them, so no cycle can run through them.
class ChartMeta(msgspec.Struct, frozen=True, gc=False):
    """The resolved instant (UTC, local clock and offset, Julian day UT), the house system used
    (and the one asked for, which differs after a polar fallback), the ephemeris, warnings."""

    utc: datetime
    local: datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float
    latitude: float
    longitude: float
    house_system: str
    requested_house_system: str
    ephemeris: str
    warnings: tuple[str, ...]


class NatalChart(msgspec.Struct, frozen=True, gc=False):
    planets: tuple[PlanetPosition, ...]
    houses: tuple[HouseCusp, ...]
    angles: Angles
    aspects: tuple[Aspect, ...]
    elements: ElementBalance
    modalities: ModalityBalance
    meta: ChartMeta

    def planet(self, name: str) -> PlanetPosition:
        for p in self.planets:
            if p.name == name:
                return p
        raise KeyError(name)


def angle_point(longitude: float) -> AnglePoint:
    lon = longitude % 360.0
    return AnglePoint(lon, SIGNS[int(lon // 30.0) % 12], lon % 30.0)


def angles_from(ascendant: float, midheaven: float, vertex: float) -> Angles:
    return Angles(
        ascendant=angle_point(ascendant),
        midheaven=angle_point(midheaven),
        descendant=angle_point(ascendant + 180.0),
        imum_coeli=angle_point(midheaven + 180.0),
        vertex=angle_point(vertex),
    )


def check_bodies(bodies: Iterable[str]) -> tuple[str, ...]:
    if bodies is DEFAULT_BODIES:
        return DEFAULT_BODIES
    chosen = tuple(bodies)
    for name in chosen:
        if name not in WESTERN_BODIES:
            raise CalcInputError(
                "bodies", f"unknown body {name!r}; one of {', '.join(DEFAULT_BODIES)}"
            )
    return chosen


def check_house_system(system: str) -> str:
    if system not in ephemeris.HOUSE_SYSTEMS:
        raise CalcInputError(
            "house_system",
            f"unknown house system {system!r}; one of {', '.join(ephemeris.HOUSE_SYSTEMS)}",
        )
    return system


def house_finder(houses: ephemeris.Houses) -> Callable[[float], int]:
    """House number of a longitude on these houses: a bisection over the cusps' distances from
    cusp 1 when they run in order, else :meth:`ephemeris.Houses.house_of`'s house circles."""
    if not houses.in_order:
        return houses.house_of
    start = houses.cusps[0]
    offsets = [(c - start) % 360.0 for c in houses.cusps]

    def find(longitude: float) -> int:
        return bisect_right(offsets, (longitude - start) % 360.0)

    return find


@cache
def _by_sign(name: str) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """Per sign index: the sign, the body's dignities there and their score."""
    return tuple((sign, *dignities_with_score(name, sign)) for sign in SIGNS)


#: :func:`_by_sign` of the Western bodies, read with a plain dict lookup on the chart's path.
_SIGN_ROWS: Final = {name: _by_sign(name) for name in DEFAULT_BODIES}


def planet_positions(
    positions: Mapping[str, ephemeris.BodyPosition], houses: ephemeris.Houses
) -> tuple[PlanetPosition, ...]:
    out: list[PlanetPosition] = []
    append = out.append
    rows = _SIGN_ROWS
    start = houses.cusps[0]
    # house_finder's bisection, inlined when the cusps run in order (every system outside the
    # polar circles): a chart looks up a dozen bodies.
    offsets = [(c - start) % 360.0 for c in houses.cusps] if houses.in_order else None
    house_of = houses.house_of
    for name, p in positions.items():
        lon = p.longitude
        speed = p.speed
        by_sign = rows.get(name) or _by_sign(name)
        sign, dignities, score = by_sign[int(lon // 30.0) % 12]
        append(
            PlanetPosition(
                name,
                lon,
                p.latitude,
                speed,
                sign,
                lon % 30.0,
                bisect_right(offsets, (lon - start) % 360.0)
                if offsets is not None
                else house_of(lon),
                speed < 0,
                dignities,
                score,
            )
        )
    return tuple(out)


def house_cusps(cusps: tuple[float, ...]) -> tuple[HouseCusp, ...]:
    signs = SIGNS
    return tuple(
        [HouseCusp(i, c, signs[int(c // 30.0) % 12], c % 30.0) for i, c in enumerate(cusps, 1)]
    )


# Sign -> (element index, modality index) in ElementBalance / ModalityBalance field order.
_ELEMENT_INDEX: Final = {"fire": 0, "earth": 1, "air": 2, "water": 3}
_MODALITY_INDEX: Final = {"cardinal": 0, "fixed": 1, "mutable": 2}
_BALANCE_OF: Final = {
    sign: (_ELEMENT_INDEX[element_of(sign)], _MODALITY_INDEX[modality_of(sign)]) for sign in SIGNS
}
_PLANET_SET: Final = frozenset(PLANETS)


def balance(planets: Iterable[PlanetPosition]) -> tuple[ElementBalance, ModalityBalance]:
    elements = [0, 0, 0, 0]
    modalities = [0, 0, 0]
    for p in planets:
        if p.name in _PLANET_SET:
            element, modality = _BALANCE_OF[p.sign]
            elements[element] += 1
            modalities[modality] += 1
    return ElementBalance(*elements), ModalityBalance(*modalities)


def aspect_points(
    planets: Iterable[PlanetPosition],
    ascendant: float,
    midheaven: float,
    *,
    ascendant_speed: float = 0.0,
    midheaven_speed: float = 0.0,
) -> list[Point]:
    """The points aspects are looked for between: the bodies and the two angles, each with its
    longitude speed in degrees per day (an angle's is 0 where it stands still: synastry,
    composite, directed charts)."""
    points: list[Point] = [(p.name, p.longitude, p.speed) for p in planets]
    points.append(("ascendant", ascendant, ascendant_speed))
    points.append(("midheaven", midheaven, midheaven_speed))
    return points


def chart_at(
    time_echo: SubjectTime,
    latitude: float,
    longitude: float,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    aspects: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    include_minor: bool = True,
) -> NatalChart:
    """The chart of an already resolved instant at a place (natal, return, Davison)."""
    check_house_system(house_system)
    names = check_bodies(bodies)
    definitions = aspect_set(aspects, orbs, include_minor=include_minor)
    return _chart(time_echo, latitude, longitude, house_system, names, definitions)


#: Bodies found missing without an ephemeris path: asking pyswisseph again searches the disk
#: each time. Only then is "missing" true of every date: with a path, an asteroid file covers
#: 600 years and Chiron itself 675-4650 CE, so a body missing at one date may be there at another.
_MISSING: dict[str | None, set[str]] = {}
_NONE_MISSING: Final[frozenset[str]] = frozenset()


def cached_positions(
    jd: float,
    names: tuple[str, ...],
    *,
    path: str | ephemeris.FromEnv | None = ephemeris.FROM_ENV,
) -> tuple[dict[str, ephemeris.BodyPosition], str, tuple[str, ...]]:
    """:func:`ephemeris.body_positions`, remembering which file bodies are absent when no
    ephemeris path is set (``path``: see :class:`ephemeris.FromEnv`)."""
    if isinstance(path, ephemeris.FromEnv):
        path = ephemeris.ephemeris_path()
    missing = _MISSING.get(path, _NONE_MISSING)
    ask = tuple(n for n in names if n not in missing) if missing else names
    positions, used, warnings = ephemeris.body_positions(jd, ask, path=path)
    if len(positions) != len(ask):
        absent = [n for n in ask if n in ephemeris.FILE_BODIES and n not in positions]
        if absent and path is None:
            _MISSING.setdefault(path, set()).update(absent)
    if len(ask) != len(names):
        known = tuple(
            f"{n} omitted: needs Swiss Ephemeris asteroid files (ASTRO_EPHE_PATH)"
            for n in names
            if n in missing
        )
        warnings = (*warnings, *known)
    return positions, used, warnings


def _chart(
    time_echo: SubjectTime,
    latitude: float,
    longitude: float,
    house_system: str,
    names: tuple[str, ...],
    definitions: tuple[AspectDefinition, ...],
) -> NatalChart:
    jd = time_echo.julian_day
    path = ephemeris.ephemeris_path()  # once for the whole chart
    positions, used, warnings = cached_positions(jd, names, path=path)
    h = ephemeris.houses(jd, latitude, longitude, house_system, path=path)
    planets = planet_positions(positions, h)
    elements, modalities = balance(planets)
    found = aspects_within(
        aspect_points(
            planets,
            h.ascendant,
            h.midheaven,
            ascendant_speed=h.ascendant_speed,
            midheaven_speed=h.midheaven_speed,
        ),
        definitions,
        skip_pairs=_NODE_PAIR,
    )
    return NatalChart(
        planets=planets,
        houses=house_cusps(h.cusps),
        angles=angles_from(h.ascendant, h.midheaven, h.vertex),
        aspects=tuple(found),
        elements=elements,
        modalities=modalities,
        meta=ChartMeta(
            utc=time_echo.utc,
            local=time_echo.local,
            offset_minutes=time_echo.offset_minutes,
            timezone=time_echo.timezone,
            time_source=time_echo.time_source,
            julian_day=jd,
            latitude=latitude,
            longitude=longitude,
            house_system=h.system,
            requested_house_system=house_system,
            ephemeris=used,
            warnings=(*warnings, *h.warnings),
        ),
    )


def natal_chart(
    subject: BirthSubject,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    aspects: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    include_minor: bool = True,
) -> NatalChart:
    """The natal chart of a birth subject.

    ``house_system`` is a Swiss Ephemeris letter (default ``P``); ``bodies`` a subset of
    :data:`DEFAULT_BODIES`; ``aspects`` names the aspects to find (default all eleven, or the five
    major ones when ``include_minor`` is false); ``orbs`` overrides default orbs in degrees per
    aspect name. See the module docstring for conventions; checked against pyswisseph and
    kerykeion (random charts, 0.01 degree) and Astrodatabank charts."""
    check_house_system(house_system)
    names = check_bodies(bodies)
    definitions = aspect_set(aspects, orbs, include_minor=include_minor)
    echo = resolve_subject(subject)
    return _chart(echo, subject.latitude, subject.longitude, house_system, names, definitions)


def chart_for_instant(
    moment: datetime,
    latitude: float,
    longitude: float,
    *,
    timezone: str | None = None,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    aspects: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    include_minor: bool = True,
) -> NatalChart:
    """The chart of an aware instant at a place; the local clock echoed is the zone at the place
    (found from the coordinates unless ``timezone`` is given)."""
    check_location(latitude, longitude)
    echo = instant_time(moment, latitude, longitude, timezone)
    return chart_at(
        echo,
        latitude,
        longitude,
        house_system=house_system,
        bodies=bodies,
        aspects=aspects,
        orbs=orbs,
        include_minor=include_minor,
    )
