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
against a brute-force enumeration of every combination, over one published-style chart and many
random ones on every dial, in ``tests/test_uranian_chart.py``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Final, Literal

import msgspec
import numpy as np
import numpy.typing as npt

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


class UranianPosition(msgspec.Struct, frozen=True, gc=False):
    name: str
    longitude: float
    dial_position: float
    is_hamburg: bool


class Midpoint(msgspec.Struct, frozen=True, gc=False):
    pair: tuple[str, str]
    longitude: float
    dial_position: float
    interpretation_en: str
    interpretation_th: str


class PlanetaryPicture(msgspec.Struct, frozen=True, gc=False):
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
    return lons, used, (*warnings, *h.warnings)


def uranian_positions(lons: dict[str, float], dial: float) -> tuple[UranianPosition, ...]:
    """Every factor in canonical order with its longitude reduced modulo the dial."""
    return tuple(
        UranianPosition(name, lons[name], lons[name] % dial, name in HAMBURG) for name in FACTORS
    )


@lru_cache(maxsize=1)
def _pair_texts() -> tuple[tuple[tuple[str, str], str, str], ...]:
    return tuple(
        ((a, b), midpoint_interpretation(a, b, "en"), midpoint_interpretation(a, b, "th"))
        for i, a in enumerate(FACTORS)
        for b in FACTORS[i + 1 :]
    )


def midpoints(lons: dict[str, float], dial: float) -> tuple[Midpoint, ...]:
    """Every pair of factors (canonical order) with its shorter-arc midpoint."""
    out = []
    for pair, en, th in _pair_texts():
        mp = midpoint(lons[pair[0]], lons[pair[1]])
        out.append(Midpoint(pair, mp, mp % dial, en, th))
    return tuple(out)


# --- the picture search --------------------------------------------------------------------------
# Factors and pairs by index. Pairs are numbered in canonical order, so "the pair that comes first
# in canonical order" is simply the smaller pair number.
_N: Final = len(FACTORS)
_PAIRS: Final = tuple((i, j) for i in range(_N) for j in range(i + 1, _N))
_PAIR_COUNT: Final = len(_PAIRS)
_PAIR_A: Final = tuple(i for i, _j in _PAIRS)
_PAIR_B: Final = tuple(j for _i, j in _PAIRS)
_PAIR_MASK: Final = tuple((1 << i) | (1 << j) for i, j in _PAIRS)
# Window slack for the bisection: candidates are taken a hair wider than the orb and then checked
# with the exact orb arithmetic, so rounding in the window bounds can never drop a picture.
_SLACK: Final = 1e-9


def _picture_catalogue() -> tuple[
    tuple[str, ...], tuple[tuple[str, ...], ...], list[int], list[int]
]:
    """Every picture the search can produce, numbered by the rank of its interpretation key
    (so sorting pictures by (orb, key) is sorting integers): the keys, the factors, and the
    tables from (pair, factor) and (first pair, second pair) to that number (-1: none)."""
    combos: list[tuple[str, tuple[str, ...], int]] = []  # key, factors, slot
    factors: tuple[str, ...]
    for p, (a, b) in enumerate(_PAIRS):
        for c in range(_N):
            if c not in (a, b):
                factors = (FACTORS[a], FACTORS[b], FACTORS[c])
                combos.append((f"{factors[0]}/{factors[1]}={factors[2]}", factors, p * _N + c))
    midpoint_slots = _PAIR_COUNT * _N
    for p1 in range(_PAIR_COUNT):
        for p2 in range(p1 + 1, _PAIR_COUNT):
            if not _PAIR_MASK[p1] & _PAIR_MASK[p2]:
                a, b, c, d = _PAIRS[p1] + _PAIRS[p2]
                factors = (FACTORS[a], FACTORS[b], FACTORS[c], FACTORS[d])
                key = f"{factors[0]}+{factors[1]}-{factors[2]}={factors[3]}"
                # Sum slots are stored after the midpoint slots, to tell the two apart.
                combos.append((key, factors, midpoint_slots + p1 * _PAIR_COUNT + p2))
    combos.sort()
    midpoint_rank = [-1] * (_PAIR_COUNT * _N)
    sum_rank = [-1] * (_PAIR_COUNT * _PAIR_COUNT)
    for rank, (_key, _factors, slot) in enumerate(combos):
        if slot < midpoint_slots:
            midpoint_rank[slot] = rank
        else:
            sum_rank[slot - midpoint_slots] = rank
    keys = tuple(combo[0] for combo in combos)
    return keys, tuple(combo[1] for combo in combos), midpoint_rank, sum_rank


_PICTURE_KEYS, _PICTURE_FACTORS, _MIDPOINT_RANK, _SUM_RANK = _picture_catalogue()
PICTURE_COUNT: Final = len(_PICTURE_FACTORS)
_RANK_BITS: Final = PICTURE_COUNT.bit_length()
_RANK_MASK: Final = (1 << _RANK_BITS) - 1


# The same tables as arrays, for the vectorised search.
_A: Final = np.array(_PAIR_A, dtype=np.int64)
_B: Final = np.array(_PAIR_B, dtype=np.int64)
_MASK: Final = np.array(_PAIR_MASK, dtype=np.int64)
_MIDPOINT_RANKS: Final = np.array(_MIDPOINT_RANK, dtype=np.int64).reshape(_PAIR_COUNT, _N)
_SUM_RANKS: Final = np.array(_SUM_RANK, dtype=np.int64)
_OUTSIDE_PAIR: Final = _MIDPOINT_RANKS >= 0  # factor C is not A or B
_SLOTS: Final = np.arange(_PAIR_COUNT, dtype=np.int64)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _micro_degrees(orbs: FloatArray) -> IntArray:
    """``round(orb, 6) * 10**6`` as exact integers, for orbs >= 0. The product rounding can only
    matter next to a half-way point; there the exact decimal rounding of ``round`` decides.
    ``n / 1e6`` is then bit for bit ``round(orb, 6)``: both are the double nearest n * 10**-6."""
    scaled = orbs * 1e6
    whole = np.floor(scaled)
    fraction = scaled - whole
    micro = (whole + (fraction > 0.5)).astype(np.int64)
    for k in np.flatnonzero(np.abs(fraction - 0.5) < 1e-6):
        micro[k] = round(round(float(orbs[k]), 6) * 1e6)
    return micro


def _dial_distances(x: FloatArray, dial: float) -> FloatArray:
    """:func:`dial_distance` elementwise, with the same floating-point operations."""
    d = x % dial
    return np.where(d <= dial - d, d, dial - d)


class PictureHits(msgspec.Struct, frozen=True, gc=False):
    """The planetary pictures of one chart in response order, as parallel lists: ``ranks`` (the
    picture's number, see :func:`picture_factors`), ``dial_positions`` and ``orbs`` (rounded to
    1e-6 degree)."""

    ranks: list[int]
    dial_positions: list[float]
    orbs: list[float]


def picture_factors(rank: int) -> tuple[str, ...]:
    """The factors of picture number ``rank`` (``[A, B, C]`` for C = A/B, ``[A, B, C, D]`` for
    A + B - C = D); numbers follow the order of the interpretation keys."""
    return _PICTURE_FACTORS[rank]


def picture_hits(lons: dict[str, float], dial: float, orb_max: float) -> PictureHits:
    """Midpoint and sum pictures within ``orb_max`` on ``dial`` (see the module docstring),
    ordered by ``orb_total`` then key, without building a struct per picture.

    Midpoint pictures: every factor against every pair's midpoint, as one 231 x 22 array. Sum
    pictures: the 231 pair sums sorted on the dial; for each sum the following sums within the
    orb (round the dial once) are found by bisection, a hair wide, and then checked with the
    exact orb arithmetic of the definition. Each pair of pairs is met once, from the smaller sum
    (the orb is below half of any dial). The arithmetic is elementwise IEEE double, the same
    operations in the same order as the scalar definitions (:func:`midpoint`,
    :func:`dial_distance`), so results do not depend on the vectorisation. Checked against a
    brute-force enumeration of every factor combination over many random charts, dials and orbs
    in ``tests/test_uranian_chart.py``."""
    lon = np.array([lons[name] for name in FACTORS], dtype=np.float64)
    la, lb = lon[_A], lon[_B]

    # C = A/B: the shorter-arc midpoint, as ephemeris.angle_diff and western.subject.midpoint.
    diff = (lb - la) % 360.0
    diff = np.where(diff > 180.0, diff - 360.0, diff)
    mid = ((la + diff / 2.0) % 360.0) % dial
    distance = _dial_distances(lon[None, :] - mid[:, None], dial)
    pair_of, factor_of = np.nonzero((distance <= orb_max) & _OUTSIDE_PAIR)
    midpoint_codes = _micro_degrees(distance[pair_of, factor_of]) << _RANK_BITS
    midpoint_codes |= _MIDPOINT_RANKS[pair_of, factor_of]
    midpoint_positions = mid[pair_of]

    # A + B - C = D: sums that agree on the dial. A stable sort keeps ties in canonical order.
    n = _PAIR_COUNT
    sums = (la + lb) % dial
    order = np.argsort(sums, kind="stable")
    values = sums[order]
    ring = np.concatenate((values, values + dial))
    ends = np.searchsorted(ring, values + (orb_max + _SLACK), side="right")
    counts = np.clip(ends - _SLOTS - 1, 0, n - 1)
    lower = np.repeat(_SLOTS, counts)
    upper = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(
        np.cumsum(counts) - counts, counts
    )
    upper = (upper + lower + 1) % n
    p1, p2 = order[lower], order[upper]
    gaps = (values[upper] - values[lower]) % dial
    keep = ((_MASK[p1] & _MASK[p2]) == 0) & (gaps <= orb_max)
    p1, p2, gaps = p1[keep], p2[keep], gaps[keep]
    first, second = np.minimum(p1, p2), np.maximum(p1, p2)
    sensitive = (lon[_A[first]] + lon[_B[first]] - lon[_A[second]]) % dial
    sum_codes = (_micro_degrees(gaps) << _RANK_BITS) | _SUM_RANKS[first * n + second]

    # (orb in micro-degrees << _RANK_BITS) | rank sorts as (orb_total, interpretation_key).
    codes = np.concatenate((midpoint_codes, sum_codes))
    positions = np.concatenate((midpoint_positions, sensitive))
    by_code = np.argsort(codes)
    codes = codes[by_code]
    return PictureHits(
        ranks=(codes & _RANK_MASK).tolist(),
        dial_positions=positions[by_code].tolist(),
        orbs=((codes >> _RANK_BITS) / 1e6).tolist(),
    )


# One (key, en, th) per picture number, filled as pictures turn up: the same string objects are
# handed out every time (no per-picture composition or hashing, and their UTF-8 is kept).
_PICTURE_TEXTS: list[tuple[str, str, str] | None] = [None] * PICTURE_COUNT


def picture_texts(rank: int) -> tuple[str, str, str]:
    """Interpretation key, English and Thai text of picture number ``rank``."""
    texts = _PICTURE_TEXTS[rank]
    if texts is None:
        factors = _PICTURE_FACTORS[rank]
        texts = (
            _PICTURE_KEYS[rank],
            picture_interpretation(factors, "en"),
            picture_interpretation(factors, "th"),
        )
        _PICTURE_TEXTS[rank] = texts
    return texts


def planetary_pictures(
    lons: dict[str, float], dial: float, orb_max: float
) -> tuple[PlanetaryPicture, ...]:
    """Midpoint and sum pictures within ``orb_max`` on ``dial`` (see the module docstring),
    ordered by ``orb_total`` then key; found by :func:`picture_hits`."""
    hits = picture_hits(lons, dial, orb_max)
    out = []
    for rank, position, orb in zip(hits.ranks, hits.dial_positions, hits.orbs, strict=True):
        key, en, th = picture_texts(rank)
        out.append(PlanetaryPicture(_PICTURE_FACTORS[rank], position, orb, key, en, th))
    return tuple(out)


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
        time_field="birth_time",
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


class UranianFactors(msgspec.Struct, frozen=True):
    """A resolved Uranian birth: the echoed place, the response ``meta`` and every factor's
    longitude (canonical order), from which the chart's parts are computed."""

    birth_place: str
    meta: UranianMeta
    longitudes: dict[str, float]


def uranian_factors(
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
) -> UranianFactors:
    """The inputs of :func:`uranian_chart` checked and resolved: the birth instant, the factor
    longitudes (pyswisseph, checked in ``tests/test_uranian_chart.py``) and the response meta.
    :func:`uranian_positions`, :func:`midpoints` and :func:`picture_hits` take it from there."""
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
    return UranianFactors(birth_place, meta, lons)


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
    f = uranian_factors(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode=dial_mode,
        orb_max=orb_max,
        timezone=timezone,
        timezone_offset_minutes=timezone_offset_minutes,
        node=node,
        computed_at=computed_at,
    )
    dial = f.meta.dial_mode
    return UranianChart(
        birth_place=birth_place,
        meta=f.meta,
        positions=uranian_positions(f.longitudes, dial),
        midpoints=midpoints(f.longitudes, dial),
        planetary_pictures=planetary_pictures(f.longitudes, dial, f.meta.orb_max),
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
    f = uranian_factors(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode=dial_mode,
        orb_max=orb_max,
        timezone=timezone,
        timezone_offset_minutes=timezone_offset_minutes,
        node=node,
        computed_at=computed_at,
    )
    dial = f.meta.dial_mode
    return UranianMidpoints(
        birth_place=birth_place,
        meta=f.meta,
        positions=uranian_positions(f.longitudes, dial),
        midpoints=midpoints(f.longitudes, dial),
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
    f = uranian_factors(
        birth_date,
        birth_time,
        birth_lat,
        birth_lon,
        birth_place,
        dial_mode=dial_mode,
        orb_max=orb_max,
        timezone=timezone,
        timezone_offset_minutes=timezone_offset_minutes,
        node=node,
        computed_at=computed_at,
    )
    dial = f.meta.dial_mode
    return UranianPictures(
        birth_place=birth_place,
        meta=f.meta,
        positions=uranian_positions(f.longitudes, dial),
        planetary_pictures=planetary_pictures(f.longitudes, dial, f.meta.orb_max),
    )
