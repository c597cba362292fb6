"""Essential dignity of a planet by sign.

Table (``data/western/dignities.json``): rulership and exaltation of the seven classical planets
after Ptolemy as tabulated by Lilly (*Christian Astrology*, 1647, p. 104), plus the modern rulers
Uranus (Aquarius), Neptune (Pisces) and Pluto (Scorpio) beside the classical rulers of those signs.
Detriment is the sign opposite a rulership, fall the sign opposite the exaltation. Outer planets
have no exaltation or fall. Triplicity, terms (bounds) and faces (decans) are NOT included.
Score: Lilly's points, rulership +5, exaltation +4, detriment -5, fall -4, summed.
"""

from __future__ import annotations

from typing import Final

from astro_calc.western.subject import SIGNS, load_data

_TABLE: Final = load_data("western", "dignities.json")
SCORES: Final[dict[str, int]] = {k: int(v) for k, v in _TABLE["scores"].items()}


def _opposite(sign: str) -> str:
    return SIGNS[(SIGNS.index(sign) + 6) % 12]


def _build() -> dict[tuple[str, str], tuple[str, ...]]:
    table: dict[tuple[str, str], list[str]] = {}
    for planet, signs in _TABLE["rulership"].items():
        for sign in signs:
            table.setdefault((planet, sign), []).append("rulership")
            table.setdefault((planet, _opposite(sign)), []).append("detriment")
    for planet, sign in _TABLE["exaltation"].items():
        table.setdefault((planet, sign), []).append("exaltation")
        table.setdefault((planet, _opposite(sign)), []).append("fall")
    order = ("rulership", "exaltation", "detriment", "fall")
    return {k: tuple(sorted(v, key=order.index)) for k, v in table.items()}


_BY_PLANET_SIGN: Final = _build()


_WITH_SCORE: Final = {k: (v, sum(SCORES[d] for d in v)) for k, v in _BY_PLANET_SIGN.items()}
_NONE: Final[tuple[tuple[str, ...], int]] = ((), 0)


def dignities_with_score(planet: str, sign: str) -> tuple[tuple[str, ...], int]:
    """:func:`essential_dignities` and :func:`dignity_score` in one lookup."""
    return _WITH_SCORE.get((planet, sign), _NONE)


def essential_dignities(planet: str, sign: str) -> tuple[str, ...]:
    """The dignities (``rulership``, ``exaltation``) and debilities (``detriment``, ``fall``) of
    a planet in a sign; empty when peregrine or for points without dignities (nodes, Lilith)."""
    return _BY_PLANET_SIGN.get((planet, sign), ())


def dignity_score(dignities: tuple[str, ...]) -> int:
    """Lilly's essential-dignity points summed over the given dignities."""
    return sum(SCORES[d] for d in dignities)
