"""Chart patterns (aspect configurations and stelliums) of a natal chart.

Definitions (documented conventions; only the ten planets ``sun``..``pluto`` take part, the
angles, nodes, Lilith and Chiron do not):

* Patterns are read from the chart's own aspect list (:attr:`NatalChart.aspects`), so they use
  the chart's orbs (default: ``data/western/aspects.json``): two planets are "trine" when the
  chart lists a trine between them, and so on. No orb is re-checked here.
* ``grand_trine``: three planets mutually trine.
* ``grand_cross``: four planets forming two oppositions, each planet square to both planets of
  the other opposition.
* ``t_square``: two planets in opposition, both square to a third (the apex). A T-square whose
  three planets all belong to a reported grand cross is not listed again.
* ``yod``: two planets in sextile, both quincunx a third (the apex). The quincunx is a minor
  aspect: a chart computed without minor aspects has no yods.
* ``stellium``: four or more of the ten planets in one sign, and separately four or more in one
  house (both are reported when both hold). Three planets together are common (Sun, Mercury
  and Venus are never far apart) and are not called a stellium here.

Each pattern lists its planets in the order of :data:`PLANETS`; for a T-square and a yod the
apex is named separately. Patterns are sorted by kind (the order above) then by planets.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final, Literal

import msgspec

from astro_calc.western.aspects import Aspect
from astro_calc.western.natal import PLANETS, NatalChart
from astro_calc.western.subject import SIGNS

PatternKind = Literal["grand_trine", "grand_cross", "t_square", "yod", "stellium"]
PATTERN_KINDS: Final[tuple[PatternKind, ...]] = (
    "grand_trine",
    "grand_cross",
    "t_square",
    "yod",
    "stellium",
)
STELLIUM_MIN: Final = 4
_ORDER: Final = {name: i for i, name in enumerate(PLANETS)}


class ChartPattern(msgspec.Struct, frozen=True, omit_defaults=True):
    """One pattern: its ``kind``, its ``bodies`` (planet order), the ``apex`` of a T-square or a
    yod, and for a stellium where it is: ``sign`` or ``house``."""

    kind: PatternKind
    bodies: tuple[str, ...]
    apex: str | None = None
    sign: str | None = None
    house: int | None = None


def _sorted(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=_ORDER.__getitem__))


def _pairs(aspects: Iterable[Aspect]) -> dict[str, set[frozenset[str]]]:
    by_kind: dict[str, set[frozenset[str]]] = {}
    for a in aspects:
        if a.body1 in _ORDER and a.body2 in _ORDER:
            by_kind.setdefault(a.aspect, set()).add(frozenset((a.body1, a.body2)))
    return by_kind


def find_patterns(chart: NatalChart) -> tuple[ChartPattern, ...]:
    """The grand trines, grand crosses, T-squares, yods and stelliums of a chart (see the
    module docstring for the definitions)."""
    pairs = _pairs(chart.aspects)
    trine = pairs.get("trine", set())
    square = pairs.get("square", set())
    opposition = pairs.get("opposition", set())
    sextile = pairs.get("sextile", set())
    quincunx = pairs.get("quincunx", set())
    present = _sorted(p.name for p in chart.planets if p.name in _ORDER)
    found: list[ChartPattern] = []

    def linked(kind: set[frozenset[str]], a: str, b: str) -> bool:
        return frozenset((a, b)) in kind

    for a, b, c in combinations(present, 3):
        if linked(trine, a, b) and linked(trine, b, c) and linked(trine, a, c):
            found.append(ChartPattern("grand_trine", (a, b, c)))

    crosses: list[frozenset[str]] = []
    opp_list = sorted((_sorted(p) for p in opposition), key=lambda t: (_ORDER[t[0]], _ORDER[t[1]]))
    for (a, b), (c, d) in combinations(opp_list, 2):
        if len({a, b, c, d}) < 4:
            continue
        if all(linked(square, x, y) for x in (a, b) for y in (c, d)):
            crosses.append(frozenset((a, b, c, d)))
            found.append(ChartPattern("grand_cross", _sorted((a, b, c, d))))

    t_squares = []
    for a, b in opp_list:
        for apex in present:
            if apex in (a, b) or not (linked(square, a, apex) and linked(square, b, apex)):
                continue
            if any({a, b, apex} <= cross for cross in crosses):
                continue
            t_squares.append(ChartPattern("t_square", _sorted((a, b, apex)), apex=apex))
    found.extend(sorted(t_squares, key=lambda p: ([_ORDER[n] for n in p.bodies], p.apex)))

    yods = []
    for pair in sextile:
        a, b = _sorted(pair)
        for apex in present:
            if apex not in pair and linked(quincunx, a, apex) and linked(quincunx, b, apex):
                yods.append(ChartPattern("yod", _sorted((a, b, apex)), apex=apex))
    found.extend(sorted(yods, key=lambda p: ([_ORDER[n] for n in p.bodies], p.apex)))

    planets = [p for p in chart.planets if p.name in _ORDER]
    by_sign: dict[str, list[str]] = {}
    by_house: dict[int, list[str]] = {}
    for p in planets:
        by_sign.setdefault(p.sign, []).append(p.name)
        by_house.setdefault(p.house, []).append(p.name)
    for sign in SIGNS:
        names = by_sign.get(sign, [])
        if len(names) >= STELLIUM_MIN:
            found.append(ChartPattern("stellium", _sorted(names), sign=sign))
    for house in range(1, 13):
        names = by_house.get(house, [])
        if len(names) >= STELLIUM_MIN:
            found.append(ChartPattern("stellium", _sorted(names), house=house))
    return tuple(found)
