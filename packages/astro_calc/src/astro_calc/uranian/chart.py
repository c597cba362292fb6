"""The Uranian (Hamburg school) chart: positions and dial positions, midpoints, planetary pictures.

Conventions:

* Factors, in canonical order: ``sun``..``pluto``, ``node`` (the mean lunar node unless
  ``node="true"``), ``ascendant``, ``midheaven``, ``aries_point`` (0 degrees Aries), and the eight
  Hamburg hypothetical planets ``cupido``, ``hades``, ``zeus``, ``kronos``, ``apollon``,
  ``admetos``, ``vulkanus``, ``poseidon`` (Swiss Ephemeris formulae, ``is_hamburg`` true).
  Tropical, geocentric apparent longitudes.
* ``dial_position`` is the longitude modulo the dial (90, 45 or 22.5 degrees); distances on a
  dial are the shorter way round it.
* Midpoints of every pair of factors on the shorter arc (the other midpoint lies 180 degrees away
  and falls on the same dial position for all three dials).
* Planetary pictures, both forms, each within ``orb_max`` on the chosen dial:
  midpoint pictures ``C = A/B`` (factors ``[A, B, C]``), where C stands on the midpoint of A and B,
  ``orb_total`` the dial distance between C and A/B; sum pictures ``A + B - C = D`` (factors
  ``[A, B, C, D]``, four distinct factors), i.e. ``A + B = C + D`` modulo the dial, ``orb_total``
  the dial distance between the sensitive point ``A + B - C`` and D. A sum picture is listed once:
  the pair (A, B) is the one that comes first in canonical order, each pair in canonical order.
  ``dial_position`` is that of the midpoint A/B or of the sensitive point ``A + B - C``.
* ``interpretation_key`` is ``"A/B=C"`` or ``"A+B-C=D"`` with factor names in that order; texts
  (en, th) are composed from the factor meanings in ``data/uranian/factors.json``.

Checked against: positions from direct pyswisseph calls (bodies 40..47) and the picture search
against a brute-force enumeration in ``tests/test_uranian_chart.py``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc import time as ltime
from astro_calc.errors import CalcInputError
from astro_calc.western.subject import load_data, midpoint

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
HAMBURG: Final = ("cupido", "hades", "zeus", "kronos", "apollon", "admetos", "vulkanus", "poseidon")
FACTORS: Final = (*PLANETS, "node", "ascendant", "midheaven", "aries_point", *HAMBURG)
_ORDER: Final = {name: i for i, name in enumerate(FACTORS)}
DIALS: Final = (90.0, 45.0, 22.5)
ORB_MIN: Final = 0.25
ORB_MAX: Final = 3.0
NodeKind = Literal["mean", "true"]


class UranianPosition(msgspec.Struct, frozen=True):
    name: str
    longitude: float
    dial_position: float
    is_hamburg: bool


class Midpoint(msgspec.Struct, frozen=True):
    pair: tuple[str, str]
    longitude: float
    dial_position: float
    interpretation_en: str
    interpretation_th: str


class PlanetaryPicture(msgspec.Struct, frozen=True):
    factors: tuple[str, ...]
    dial_position: float
    orb_total: float
    interpretation_key: str
    interpretation_en: str
    interpretation_th: str


class UranianMeta(msgspec.Struct, frozen=True):
    """The spec's ``orb_max`` and ``computed_at``, plus the echo of the resolved birth instant."""

    orb_max: float
    computed_at: datetime
    dial_mode: float
    utc: datetime
    local: datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float
    node: str
    ephemeris: str
    warnings: tuple[str, ...]


class UranianChart(msgspec.Struct, frozen=True):
    """The spec's Uranian chart response."""

    birth_place: str
    meta: UranianMeta
    positions: tuple[UranianPosition, ...]
    midpoints: tuple[Midpoint, ...]
    planetary_pictures: tuple[PlanetaryPicture, ...]


class UranianMidpoints(msgspec.Struct, frozen=True):
    birth_place: str
    meta: UranianMeta
    positions: tuple[UranianPosition, ...]
    midpoints: tuple[Midpoint, ...]


class UranianPictures(msgspec.Struct, frozen=True):
    birth_place: str
    meta: UranianMeta
    positions: tuple[UranianPosition, ...]
    planetary_pictures: tuple[PlanetaryPicture, ...]


# --- interpretations -----------------------------------------------------------------------------

_TEXTS: Final = load_data("uranian", "factors.json")
LANGUAGES: Final = ("en", "th")


def _compose(template: str, names: dict[str, str], lang: str) -> str:
    factors = _TEXTS["factors"]
    values: dict[str, str] = {}
    for slot, factor in names.items():
        values[slot] = factors[factor][lang]["name"]
        values[slot.lower()] = factors[factor][lang]["meaning"]
    text: str = _TEXTS["templates"][template][lang].format(**values)
    return text


@lru_cache(maxsize=4096)
def midpoint_interpretation(a: str, b: str, lang: str) -> str:
    """Text for the midpoint A/B in ``lang`` (``en`` or ``th``)."""
    return _compose("midpoint", {"A": a, "B": b}, lang)


@lru_cache(maxsize=1 << 16)
def picture_interpretation(factors: tuple[str, ...], lang: str) -> str:
    """Text for a planetary picture (three factors: C = A/B; four: A + B - C = D)."""
    if len(factors) == 3:
        return _compose("midpoint_picture", dict(zip("ABC", factors, strict=True)), lang)
    return _compose("sum_picture", dict(zip("ABCD", factors, strict=True)), lang)


def picture_key(factors: tuple[str, ...]) -> str:
    if len(factors) == 3:
        return f"{factors[0]}/{factors[1]}={factors[2]}"
    return f"{factors[0]}+{factors[1]}-{factors[2]}={factors[3]}"


# --- calculation ---------------------------------------------------------------------------------


def dial_distance(x: float, y: float, dial: float) -> float:
    """Distance between two positions on a dial, the shorter way round it."""
    d = (x - y) % dial
    return d if d <= dial - d else dial - d


def check_dial(dial_mode: float) -> float:
    value = float(dial_mode)
    if value not in DIALS:
        raise CalcInputError("dial_mode", "must be one of 90, 45, 22.5")
    return value


def check_orb(orb_max: float) -> float:
    value = float(orb_max)
    if not ORB_MIN <= value <= ORB_MAX:
        raise CalcInputError("orb_max", f"must be between {ORB_MIN} and {ORB_MAX}")
    return value


def factor_longitudes(
    jd_ut: float, latitude: float, longitude: float, *, node: NodeKind = "mean"
) -> tuple[dict[str, float], str, tuple[str, ...]]:
    """Longitudes of every factor in canonical order, the ephemeris used and warnings."""
    if node not in ("mean", "true"):
        raise CalcInputError("node", "must be 'mean' or 'true'")
    node_body = "mean_node" if node == "mean" else "true_node"
    positions, used, warnings = ephemeris.body_positions(jd_ut, (*PLANETS, node_body, *HAMBURG))
    h = ephemeris.houses(jd_ut, latitude, longitude, "O")
    lons = {name: positions[name].longitude for name in PLANETS}
    lons["node"] = positions[node_body].longitude
    lons["ascendant"] = h.ascendant
    lons["midheaven"] = h.midheaven
    lons["aries_point"] = 0.0
    for name in HAMBURG:
        lons[name] = positions[name].longitude
    return lons, used, warnings


def uranian_positions(lons: dict[str, float], dial: float) -> tuple[UranianPosition, ...]:
    return tuple(
        UranianPosition(name, lons[name], lons[name] % dial, name in HAMBURG) for name in FACTORS
    )


def midpoints(lons: dict[str, float], dial: float) -> tuple[Midpoint, ...]:
    """Every pair of factors (canonical order) with its shorter-arc midpoint."""
    out = []
    for i, a in enumerate(FACTORS):
        for b in FACTORS[i + 1 :]:
            mp = midpoint(lons[a], lons[b])
            out.append(
                Midpoint(
                    (a, b),
                    mp,
                    mp % dial,
                    midpoint_interpretation(a, b, "en"),
                    midpoint_interpretation(a, b, "th"),
                )
            )
    return tuple(out)


def _picture(factors: tuple[str, ...], dial_position: float, orb: float) -> PlanetaryPicture:
    return PlanetaryPicture(
        factors=factors,
        dial_position=dial_position,
        orb_total=round(orb, 6),
        interpretation_key=picture_key(factors),
        interpretation_en=picture_interpretation(factors, "en"),
        interpretation_th=picture_interpretation(factors, "th"),
    )


def planetary_pictures(
    lons: dict[str, float], dial: float, orb_max: float
) -> tuple[PlanetaryPicture, ...]:
    """Midpoint and sum pictures within ``orb_max`` on ``dial`` (see the module docstring),
    ordered by ``orb_total`` then key."""
    pairs = [(a, b) for i, a in enumerate(FACTORS) for b in FACTORS[i + 1 :]]
    found: list[PlanetaryPicture] = []
    for a, b in pairs:
        mp = midpoint(lons[a], lons[b]) % dial
        for c in FACTORS:
            if c in (a, b):
                continue
            orb = dial_distance(lons[c], mp, dial)
            if orb <= orb_max:
                found.append(_picture((a, b, c), mp, orb))
    # Sum pictures: pairs of pairs whose sums agree on the dial. Sorting the sums and sliding a
    # window of width orb_max (round the dial once) visits only the near pairs.
    sums = sorted(((lons[a] + lons[b]) % dial, _ORDER[a], a, b) for a, b in pairs)
    n = len(sums)
    for i in range(n):
        s1, _rank1, a, b = sums[i]
        for k in range(1, n):
            s2, _rank2, c, d = sums[(i + k) % n]
            gap = (s2 - s1) % dial
            if gap > orb_max:
                break
            if c in (a, b) or d in (a, b):
                continue
            # Each unordered pair of pairs once: the pair that comes first in canonical order
            # leads, whichever of the two sums is smaller on the dial.
            first, second = (
                ((a, b), (c, d))
                if (_ORDER[a], _ORDER[b]) < (_ORDER[c], _ORDER[d])
                else ((c, d), (a, b))
            )
            sensitive = (lons[first[0]] + lons[first[1]] - lons[second[0]]) % dial
            found.append(_picture((*first, *second), sensitive, gap))
    found.sort(key=lambda p: (p.orb_total, p.interpretation_key))
    return tuple(found)


def _resolve(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    timezone: str | None,
    timezone_offset_minutes: int | None,
) -> ltime.ResolvedTime:
    if not -90.0 <= birth_lat <= 90.0:
        raise CalcInputError("birth_lat", "must be between -90 and 90")
    if not -180.0 <= birth_lon <= 180.0:
        raise CalcInputError("birth_lon", "must be between -180 and 180")
    local_time = ltime.parse_time_of_day(birth_time, "birth_time")
    return ltime.resolve(
        birth_date,
        local_time,
        latitude=birth_lat,
        longitude=birth_lon,
        offset_minutes=timezone_offset_minutes,
        timezone_name=timezone,
    )


def _prepare(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    birth_place: str,
    dial_mode: float,
    orb_max: float,
    timezone: str | None,
    timezone_offset_minutes: int | None,
    node: NodeKind,
    computed_at: datetime | None,
) -> tuple[dict[str, float], UranianMeta]:
    if not 1 <= len(birth_place) <= 200:
        raise CalcInputError("birth_place", "length must be between 1 and 200")
    dial = check_dial(dial_mode)
    orb = check_orb(orb_max)
    resolved = _resolve(
        birth_date, birth_time, birth_lat, birth_lon, timezone, timezone_offset_minutes
    )
    jd = ephemeris.julian_day(resolved.utc)
    lons, used, warnings = factor_longitudes(jd, birth_lat, birth_lon, node=node)
    meta = UranianMeta(
        orb_max=orb,
        computed_at=(computed_at or datetime.now(UTC)).astimezone(UTC),
        dial_mode=dial,
        utc=resolved.utc,
        local=resolved.local,
        offset_minutes=resolved.offset_minutes,
        timezone=resolved.timezone,
        time_source=resolved.source,
        julian_day=jd,
        node=node,
        ephemeris=used,
        warnings=warnings,
    )
    return lons, meta


def uranian_chart(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    birth_place: str,
    *,
    dial_mode: float = 90.0,
    orb_max: float = 1.0,
    timezone: str | None = None,
    timezone_offset_minutes: int | None = None,
    node: NodeKind = "mean",
    computed_at: datetime | None = None,
) -> UranianChart:
    """The spec's Uranian chart: positions with dial positions, all midpoints, and planetary
    pictures within ``orb_max`` (0.25..3 degrees) on the ``dial_mode`` dial (90, 45 or 22.5).
    ``birth_time`` is local ``HH:MM``; the clock is read from ``timezone_offset_minutes``, an
    IANA ``timezone`` or, with neither, the zone at the coordinates. Input errors name the spec's
    fields (``birth_lat``, ``birth_time``, ...). See the module docstring for conventions."""
    lons, meta = _prepare(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode,
        orb_max,
        timezone,
        timezone_offset_minutes,
        node,
        computed_at,
    )
    return UranianChart(
        birth_place=birth_place,
        meta=meta,
        positions=uranian_positions(lons, meta.dial_mode),
        midpoints=midpoints(lons, meta.dial_mode),
        planetary_pictures=planetary_pictures(lons, meta.dial_mode, meta.orb_max),
    )


def uranian_midpoints(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    birth_place: str,
    *,
    dial_mode: float = 90.0,
    orb_max: float = 1.0,
    timezone: str | None = None,
    timezone_offset_minutes: int | None = None,
    node: NodeKind = "mean",
    computed_at: datetime | None = None,
) -> UranianMidpoints:
    """Positions and all midpoints (the chart without planetary pictures); same inputs."""
    lons, meta = _prepare(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode,
        orb_max,
        timezone,
        timezone_offset_minutes,
        node,
        computed_at,
    )
    return UranianMidpoints(
        birth_place=birth_place,
        meta=meta,
        positions=uranian_positions(lons, meta.dial_mode),
        midpoints=midpoints(lons, meta.dial_mode),
    )


def uranian_planetary_pictures(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    birth_place: str,
    *,
    dial_mode: float = 90.0,
    orb_max: float = 1.0,
    timezone: str | None = None,
    timezone_offset_minutes: int | None = None,
    node: NodeKind = "mean",
    computed_at: datetime | None = None,
) -> UranianPictures:
    """Positions and planetary pictures (the chart without the midpoint list); same inputs."""
    lons, meta = _prepare(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode,
        orb_max,
        timezone,
        timezone_offset_minutes,
        node,
        computed_at,
    )
    return UranianPictures(
        birth_place=birth_place,
        meta=meta,
        positions=uranian_positions(lons, meta.dial_mode),
        planetary_pictures=planetary_pictures(lons, meta.dial_mode, meta.orb_max),
    )
