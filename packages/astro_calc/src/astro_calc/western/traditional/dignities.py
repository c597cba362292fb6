"""The full table of essential dignities: domicile, exaltation, triplicity, bounds, faces.

Tables (``data/western/traditional.json``, each key cited there):

* domicile: the seven classical rulers (Ptolemy, *Tetrabiblos* I.17, tr. Robbins 1940);
* exaltation: sign and degree (Firmicus, *Mathesis* II.3, tr. Bram 1975); fall opposite;
* triplicity: the three Dorothean rulers of each element, by day, by night and participating
  (Dorotheus, *Carmen Astrologicum* I.1, tr. Pingree 1976 / Dykes 2017);
* bounds: the Egyptian bounds (Ptolemy, *Tetrabiblos* I.21; Valens, *Anthology* I.3, tr. Riley
  2010); a bound holds from its start degree up to, not including, its end degree;
* faces: the Chaldean decans, Mars first at 0 Aries, then in descending order of the spheres.

Almuten (the planet with the most essential dignity over a point) scores after Lilly
(*Christian Astrology*, 1647, pp. 101-104): domicile 5, exaltation 4, triplicity 3, bound 2,
face 1. ``triplicity="all"`` (default) counts each of the three Dorothean rulers as holding the
triplicity (Dorotheus gives the element to all three; flatlib, our test oracle, scores them so);
``"sect"`` counts only the ruler of the chart's sect, as Lilly's day/night table does.
Ties answer every planet with the top score, in the Chaldean order.

Checked in ``tests/test_western_traditional_dignities.py`` against flatlib's tables on every
degree, and each planet's bounds against its minor years (Valens, *Anthology* I.3).
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.western.subject import SIGNS, element_of, load_data

Sect = Literal["day", "night"]
TriplicityScoring = Literal["sect", "all"]

_DATA: Final = load_data("western", "traditional.json")
#: The seven classical planets in Chaldean order (slowest first).
CHALDEAN_ORDER: Final[tuple[str, ...]] = tuple(_DATA["firdaria"]["chaldean_order"])
CLASSICAL_PLANETS: Final[tuple[str, ...]] = (
    "sun",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
)
DOMICILE: Final[dict[str, str]] = dict(_DATA["domicile"])
EXALTATION: Final[dict[str, tuple[str, int]]] = {
    planet: (str(row[0]), int(row[1])) for planet, row in _DATA["exaltation"].items()
}
TRIPLICITY: Final[dict[str, tuple[str, str, str]]] = {
    element: (rulers[0], rulers[1], rulers[2]) for element, rulers in _DATA["triplicity"].items()
}
BOUNDS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    sign: tuple((str(p), int(end)) for p, end in rows) for sign, rows in _DATA["bounds"].items()
}
FACES: Final[dict[str, tuple[str, str, str]]] = {
    sign: (rows[0], rows[1], rows[2]) for sign, rows in _DATA["faces"].items()
}
SCORES: Final[dict[str, int]] = {
    "domicile": 5,
    "exaltation": 4,
    "triplicity": 3,
    "bound": 2,
    "face": 1,
    "detriment": -5,
    "fall": -4,
}
_EXALTED_IN: Final = {sign: planet for planet, (sign, _deg) in EXALTATION.items()}


def _opposite(sign: str) -> str:
    return SIGNS[(SIGNS.index(sign) + 6) % 12]


class Triplicity(msgspec.Struct, frozen=True, gc=False):
    """The three Dorothean rulers of a sign's element."""

    day: str
    night: str
    participating: str


class DignityRow(msgspec.Struct, frozen=True, gc=False):
    """Who holds each essential dignity over one ecliptic degree (tropical ``longitude``).

    ``exaltation``/``exaltation_degree`` and ``fall`` are None in signs without one;
    ``detriment`` lists the ruler(s) of the opposite sign."""

    longitude: float
    sign: str
    sign_degree: float
    domicile: str
    exaltation: str | None
    exaltation_degree: int | None
    triplicity: Triplicity
    bound: str
    bound_start: int
    bound_end: int
    face: str
    face_start: int
    detriment: str
    fall: str | None


class Almuten(msgspec.Struct, frozen=True, gc=False):
    """The almuten of a point: the top-scoring planet(s) (ties in Chaldean order), the top
    ``score`` and every planet's ``scores`` (Lilly's points)."""

    planets: tuple[str, ...]
    score: int
    scores: dict[str, int]
    triplicity_scoring: str


def _check_longitude(longitude: float, field: str = "longitude") -> float:
    if not isinstance(longitude, (int, float)) or longitude != longitude:  # NaN
        raise CalcInputError(field, "must be a number of degrees")
    return float(longitude) % 360.0


def bound_of(sign: str, sign_degree: float) -> tuple[str, int, int]:
    """The Egyptian bound holding ``sign_degree`` (0 <= d < 30): ruler, start and end degree."""
    start = 0
    for planet, end in BOUNDS[sign]:
        if sign_degree < end:
            return planet, start, end
        start = end
    planet, end = BOUNDS[sign][-1]
    return planet, BOUNDS[sign][-2][1], end


def face_of(sign: str, sign_degree: float) -> tuple[str, int]:
    """The Chaldean face (decan) holding ``sign_degree``: ruler and start degree."""
    index = min(2, int(sign_degree // 10.0))
    return FACES[sign][index], index * 10


def dignity_row(longitude: float) -> DignityRow:
    """The whole dignity table at one ecliptic longitude (tropical degrees). See the module
    docstring for the sources; checked against flatlib's tables on every degree."""
    lon = _check_longitude(longitude)
    sign = SIGNS[int(lon // 30.0) % 12]
    degree = lon - 30.0 * SIGNS.index(sign)
    exalted = _EXALTED_IN.get(sign)
    fallen = _EXALTED_IN.get(_opposite(sign))
    bound, b_start, b_end = bound_of(sign, degree)
    face, f_start = face_of(sign, degree)
    day, night, participating = TRIPLICITY[element_of(sign)]
    return DignityRow(
        longitude=lon,
        sign=sign,
        sign_degree=degree,
        domicile=DOMICILE[sign],
        exaltation=exalted,
        exaltation_degree=EXALTATION[exalted][1] if exalted else None,
        triplicity=Triplicity(day, night, participating),
        bound=bound,
        bound_start=b_start,
        bound_end=b_end,
        face=face,
        face_start=f_start,
        detriment=DOMICILE[_opposite(sign)],
        fall=fallen,
    )


def _check_sect(sect: str) -> Sect:
    if sect == "day":
        return "day"
    if sect == "night":
        return "night"
    raise CalcInputError("sect", f"unknown sect {sect!r}; one of day, night")


def _triplicity_rulers(row: DignityRow, sect: str, triplicity: str) -> tuple[str, ...]:
    chosen = _check_sect(sect)
    trip = row.triplicity
    if triplicity == "all":
        return (trip.day, trip.night, trip.participating)
    if triplicity == "sect":
        return (trip.day if chosen == "day" else trip.night,)
    raise CalcInputError("triplicity", f"unknown triplicity scoring {triplicity!r}; all, sect")


def dignities_at(
    planet: str, longitude: float, sect: str, *, triplicity: str = "all"
) -> tuple[str, ...]:
    """The essential dignities and debilities of ``planet`` at ``longitude`` in a chart of
    ``sect``: any of ``domicile``, ``exaltation``, ``triplicity`` (one of the three Dorothean
    rulers; with ``triplicity="sect"`` only the ruler of the chart's sect), ``bound``, ``face``,
    ``detriment``, ``fall``, in that order; empty when peregrine or for a point without
    dignities (outer planets, nodes)."""
    row = dignity_row(longitude)
    rulers = _triplicity_rulers(row, sect, triplicity)
    out: list[str] = []
    if row.domicile == planet:
        out.append("domicile")
    if row.exaltation == planet:
        out.append("exaltation")
    if planet in rulers:
        out.append("triplicity")
    if row.bound == planet:
        out.append("bound")
    if row.face == planet:
        out.append("face")
    if row.detriment == planet:
        out.append("detriment")
    if row.fall == planet:
        out.append("fall")
    return tuple(out)


def minor_dignities_at(
    planet: str, longitude: float, sect: str, *, triplicity: str = "all"
) -> tuple[str, ...]:
    """Only ``triplicity``, ``bound`` and ``face`` of :func:`dignities_at`: what the natal chart's
    dignities (``rulership``, ``exaltation``, ``detriment``, ``fall`` by sign) gain."""
    found = dignities_at(planet, longitude, sect, triplicity=triplicity)
    return tuple(d for d in found if d in _MINOR)


_MINOR: Final = frozenset({"triplicity", "bound", "face"})


def dignity_score_of(dignities: tuple[str, ...]) -> int:
    """Lilly's points summed (domicile 5, exaltation 4, triplicity 3, bound 2, face 1,
    detriment -5, fall -4)."""
    return sum(SCORES[d] for d in dignities)


def almuten(longitude: float, sect: str, *, triplicity: str = "all") -> Almuten:
    """The almuten of a point at ``longitude`` in a chart of ``sect`` (see the module docstring
    for the points and the ``triplicity`` convention: ``"all"`` default, or ``"sect"``).
    Checked against flatlib's ``almutem`` on every degree."""
    row = dignity_row(longitude)
    trip_rulers = _triplicity_rulers(row, sect, triplicity)
    scores: dict[str, int] = {}
    for planet in CHALDEAN_ORDER:
        points = 0
        if row.domicile == planet:
            points += SCORES["domicile"]
        if row.exaltation == planet:
            points += SCORES["exaltation"]
        if planet in trip_rulers:
            points += SCORES["triplicity"]
        if row.bound == planet:
            points += SCORES["bound"]
        if row.face == planet:
            points += SCORES["face"]
        scores[planet] = points
    top = max(scores.values())
    winners = tuple(p for p in CHALDEAN_ORDER if scores[p] == top)
    return Almuten(winners, top, scores, triplicity)
