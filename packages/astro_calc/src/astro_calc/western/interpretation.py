"""Natal chart interpretations in English and Thai: the one source of the Western natal texts
(the natal PDF report and the calculation endpoints' ``interpretations`` option both use it).

Texts live in ``data/western/interpretation/<language>/*.json`` (one file per section), loaded
once per language and cached. Every item has a ``summary`` (one or two sentences) and a
``detail`` paragraph; level ``summary`` gives the summary only, level ``full`` the summary
followed by the detail (three to five sentences in all).

Sections, in this order (:data:`SECTIONS`):

1. ``big_three``: the Sun's sign, the Moon's sign, the Ascendant's sign.
2. ``planet_sign``: Mercury..Pluto in their signs (the Sun and Moon are in the Big Three).
3. ``planet_house``: Sun..Pluto in their houses (the chart's house system).
4. ``angles``: the Midheaven's sign (the Ascendant is in the Big Three).
5. ``aspects``: the chart's major aspects (conjunction, opposition, trine, square, sextile)
   between two of the ten planets, or from a planet to the Ascendant or Midheaven, tightest orb
   first. A pair's text is composed of the pair's theme and the aspect's nature, both prose; the
   closing sentence names the two planets' domains and its phrasing is chosen by the pair, so no
   closing sentence repeats within one reading.
6. ``balance``: element and modality balance by weighted count (:data:`BALANCE_WEIGHTS`: Sun,
   Moon and Ascendant 3, Mercury, Venus and Mars 2, Jupiter and Saturn 1; Uranus, Neptune and
   Pluto 0, being generational). An element is dominant when it holds the top score and at least
   :data:`ELEMENT_DOMINANT_MIN` of the 17 points (ties: each tied element), lacking at 0 points;
   a modality dominant at the top score and at least :data:`MODALITY_DOMINANT_MIN`. With no
   dominant element (modality) the chart gets the ``balanced`` text.
7. ``patterns``: :func:`astro_calc.western.patterns.find_patterns` (grand trine, grand cross,
   T-square, yod, stellium of four or more planets by sign or by house).

Dignities (:func:`planet_dignity`) follow :mod:`astro_calc.western.dignity`: Ptolemy's
rulerships and exaltations as tabulated by Lilly (*Christian Astrology*, 1647, p. 104) plus the
modern rulers Uranus (Aquarius), Neptune (Pisces) and Pluto (Scorpio). The traditional ruler of
each of those signs keeps its domicile there too; the text says which school a domicile
belongs to. Where the texts lean on a ruler (e.g. the Midheaven in Scorpio) they name both.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.western.aspects import Aspect
from astro_calc.western.dignity import dignity_score, essential_dignities
from astro_calc.western.natal import PLANETS, NatalChart
from astro_calc.western.patterns import ChartPattern, find_patterns
from astro_calc.western.subject import (
    ELEMENTS,
    MODALITIES,
    SIGNS,
    element_of,
    load_data,
    modality_of,
)

Language = Literal["en", "th"]
Level = Literal["summary", "full"]
Section = Literal[
    "big_three", "planet_sign", "planet_house", "angles", "aspects", "balance", "patterns"
]
DignityState = Literal["domicile", "exaltation", "detriment", "fall", "peregrine"]

LANGUAGES: Final[tuple[Language, ...]] = ("en", "th")
LEVELS: Final[tuple[Level, ...]] = ("summary", "full")
SECTIONS: Final[tuple[Section, ...]] = (
    "big_three",
    "planet_sign",
    "planet_house",
    "angles",
    "aspects",
    "balance",
    "patterns",
)
INTERPRETED_ASPECTS: Final = ("conjunction", "opposition", "trine", "square", "sextile")
ANGLES: Final = ("ascendant", "midheaven")
#: Aspect pairs with a text: every two of the ten planets, and each planet to each angle.
ASPECT_PAIRS: Final[tuple[tuple[str, str], ...]] = (
    *((a, b) for i, a in enumerate(PLANETS) for b in PLANETS[i + 1 :]),
    *((p, angle) for angle in ANGLES for p in PLANETS),
)
BALANCE_WEIGHTS: Final[dict[str, int]] = {
    "sun": 3,
    "moon": 3,
    "ascendant": 3,
    "mercury": 2,
    "venus": 2,
    "mars": 2,
    "jupiter": 1,
    "saturn": 1,
    "uranus": 0,
    "neptune": 0,
    "pluto": 0,
}
ELEMENT_DOMINANT_MIN: Final = 6
MODALITY_DOMINANT_MIN: Final = 8
_TRADITIONAL_RULER: Final = {"scorpio": "mars", "aquarius": "saturn", "pisces": "jupiter"}
_MODERN_RULER: Final = {"scorpio": "pluto", "aquarius": "uranus", "pisces": "neptune"}
_ASPECT_VARIANT: Final = {
    "conjunction": "conjunction",
    "trine": "soft",
    "sextile": "soft",
    "square": "hard",
    "opposition": "hard",
}
_PAIR_INDEX: Final = {pair: i for i, pair in enumerate(ASPECT_PAIRS)}
_SECTION_FILES: Final = (
    "names",
    "planet_sign",
    "planet_house",
    "angles",
    "aspects",
    "balance",
    "patterns",
)


class Basis(msgspec.Struct, frozen=True, omit_defaults=True):
    """The chart fact an item comes from; only the fields that apply are set, e.g.
    ``{"body": "venus", "sign": "libra", "house": 7}``, ``{"aspect": "trine", "bodies":
    ["sun", "moon"], "orb": 1.2}``, ``{"pattern": "t_square", "bodies": [...], "apex": "mars"}``,
    ``{"balance": "element", "dominant": "fire"}``. ``body`` is a planet, ``angle``
    ``ascendant`` or ``midheaven``; ``orb`` in degrees (rounded to 0.01)."""

    body: str | None = None
    angle: str | None = None
    sign: str | None = None
    house: int | None = None
    aspect: str | None = None
    bodies: tuple[str, ...] | None = None
    orb: float | None = None
    pattern: str | None = None
    apex: str | None = None
    balance: str | None = None
    dominant: str | None = None
    lacking: str | None = None


class InterpretationItem(msgspec.Struct, frozen=True):
    """One text: a stable ``key`` (e.g. ``planet_sign.venus``, ``aspect.sun.moon``,
    ``pattern.grand_trine.1``), its ``section``, a ``title`` and the ``text`` in the chosen
    language and level, and the ``basis`` it was read from."""

    key: str
    section: Section
    title: str
    text: str
    basis: Basis


class BalanceScore(msgspec.Struct, frozen=True):
    """Weighted element and modality points (:data:`BALANCE_WEIGHTS`, 17 in all)."""

    elements: dict[str, int]
    modalities: dict[str, int]


class NatalInterpretation(msgspec.Struct, frozen=True):
    """The items in :data:`SECTIONS` order, the patterns found and the weighted balance."""

    language: Language
    level: Level
    items: tuple[InterpretationItem, ...]
    patterns: tuple[ChartPattern, ...]
    balance: BalanceScore


class PlanetDignity(msgspec.Struct, frozen=True):
    """A planet's essential dignity in a sign: ``state`` is the strongest of ``dignities``
    (``domicile`` before ``exaltation``, ``detriment`` before ``fall``; ``peregrine`` when none),
    ``score`` Lilly's points (+5, +4, -5, -4), ``school`` says whose rulership a domicile or
    detriment is (``traditional``: Ptolemy/Lilly; ``modern``: the outer planets' rulerships of
    Scorpio, Aquarius, Pisces; ``both`` for the signs whose ruler the schools share), ``label``
    the state in the chosen language."""

    planet: str
    sign: str
    state: DignityState
    dignities: tuple[str, ...]
    score: int
    school: Literal["traditional", "modern", "both"] | None
    label: str


class LocalizedNames(msgspec.Struct, frozen=True):
    """Names in one language for tables and headings: ``planets`` (sun..pluto), ``angles``
    (ascendant, midheaven), ``signs``, ``houses`` (``"1"``.. ``"12"``: "1st" in English, "1" in
    Thai), ``aspects`` (the five major), ``elements``, ``modalities``, ``dignities`` (domicile,
    exaltation, detriment, fall, peregrine) and ``sections`` (the chapter titles of
    :data:`SECTIONS`)."""

    planets: dict[str, str]
    angles: dict[str, str]
    signs: dict[str, str]
    houses: dict[str, str]
    aspects: dict[str, str]
    elements: dict[str, str]
    modalities: dict[str, str]
    dignities: dict[str, str]
    sections: dict[str, str]


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise CalcInputError("level", f"unknown level {level!r}; one of summary, full")


@cache
def texts(language: Language) -> dict[str, dict[str, Any]]:
    """Every section's data for a language, loaded once (cached)."""
    _check_language(language)
    return {
        name: load_data("western", f"interpretation/{language}/{name}.json")
        for name in _SECTION_FILES
    }


@cache
def localized_names(language: Language) -> LocalizedNames:
    """The names of planets, angles, signs, houses, aspects, elements, modalities, dignities and
    sections in ``language`` (the same data the texts use)."""
    names = texts(language)["names"]
    return LocalizedNames(
        **{field: dict(names[field]) for field in LocalizedNames.__struct_fields__}
    )


def _fill(template: str, values: dict[str, str]) -> str:
    return template.format_map(values) if "{" in template else template


def _school(planet: str, sign: str) -> Literal["traditional", "modern", "both"]:
    ruled = sign if sign in _MODERN_RULER else SIGNS[(SIGNS.index(sign) + 6) % 12]
    if _MODERN_RULER.get(ruled) == planet:
        return "modern"
    if _TRADITIONAL_RULER.get(ruled) == planet:
        return "traditional"
    return "both"


def planet_dignity(planet: str, sign: str, language: Language = "en") -> PlanetDignity:
    """The essential dignity of a planet in a sign (see the module docstring for the table)."""
    _check_language(language)
    if sign not in SIGNS:
        raise CalcInputError("sign", f"unknown sign {sign!r}")
    found = tuple("domicile" if d == "rulership" else d for d in essential_dignities(planet, sign))
    state: DignityState = found[0] if found else "peregrine"  # type: ignore[assignment]
    school = _school(planet, sign) if state in ("domicile", "detriment") else None
    label = texts(language)["names"]["dignities"][state]
    return PlanetDignity(
        planet,
        sign,
        state,
        found,
        dignity_score(essential_dignities(planet, sign)),
        school,
        label,
    )


def balance_score(chart: NatalChart) -> BalanceScore:
    """Weighted element and modality points of a chart (:data:`BALANCE_WEIGHTS`)."""
    elements = dict.fromkeys(ELEMENTS, 0)
    modalities = dict.fromkeys(MODALITIES, 0)
    signs = [(p.name, p.sign) for p in chart.planets if p.name in BALANCE_WEIGHTS]
    signs.append(("ascendant", chart.angles.ascendant.sign))
    for name, sign in signs:
        weight = BALANCE_WEIGHTS[name]
        elements[element_of(sign)] += weight
        modalities[modality_of(sign)] += weight
    return BalanceScore(elements, modalities)


def _join(names: list[str], data: dict[str, Any]) -> str:
    words = data["names"]["list"]
    if len(names) == 1:
        return names[0]
    return str(words["separator"]).join(names[:-1]) + str(words["last"]) + names[-1]


def _text(entry: dict[str, str], level: Level, values: dict[str, str]) -> str:
    summary = _fill(entry["summary"], values)
    if level == "summary":
        return summary
    return summary + " " + _fill(entry["detail"], values)


#: How often the full sentence of one dignity (domicile, exaltation, detriment, fall) may be
#: read in one reading; later planets in that dignity get the brief form ("is also exalted in
#: Cancer"), so no clause recurs three times (issue 47).
DIGNITY_FULL_MAX_USES: Final = 2


def _dignity_sentence(
    planet: str, sign: str, data: dict[str, Any], used: dict[str, int] | None = None
) -> str:
    found = essential_dignities(planet, sign)
    if not found:
        return ""
    state = "domicile" if found[0] == "rulership" else found[0]
    names = data["names"]
    if used is not None:
        used[state] = used.get(state, 0) + 1
        if used[state] > DIGNITY_FULL_MAX_USES:
            brief = _fill(
                names["dignity_brief"][state],
                {"planet": names["planets_in_text"][planet], "sign": names["signs"][sign]},
            )
            return " " + _capitalized(brief)
    key = state
    if len(found) == 2:  # Mercury in Virgo (rulership, exaltation) or Pisces (detriment, fall)
        key = "domicile_exaltation" if state == "domicile" else "detriment_fall"
    elif state in ("domicile", "detriment"):
        school = _school(planet, sign)
        if school != "both":
            key = f"{state}_{school}"
    template: str = names["dignity_sentences"][key]
    ruled = sign if state == "domicile" else SIGNS[(SIGNS.index(sign) + 6) % 12]
    values = {
        "planet": names["planets_in_text"][planet],
        "sign": names["signs"][sign],
        "ruled": names["signs"][ruled],
        "traditional": names["planets_in_text"].get(_TRADITIONAL_RULER.get(ruled, ""), ""),
        "modern": names["planets_in_text"].get(_MODERN_RULER.get(ruled, ""), ""),
    }
    return " " + _capitalized(_fill(template, values))


def _capitalized(text: str) -> str:
    """The first letter upper-cased (English sentences opening with "the Sun"; Thai has no
    case)."""
    return text[:1].upper() + text[1:]


#: How often one closing phrasing of an aspect kind may be read in one reading: its fixed
#: clauses ("the ease is real, and it grows into talent only when used") would otherwise recur
#: with every trine of a chart (issue 47: no clause of 12+ characters more than twice).
CLOSING_MAX_USES: Final = 2


def _closing_index(
    aspect: str, preferred: int, count: int, used: dict[tuple[str, int], int]
) -> int | None:
    """The closing phrasing for the next aspect of kind ``aspect``: the pair's own (``preferred``)
    while it has been read fewer than :data:`CLOSING_MAX_USES` times, else the next phrasing in
    order that has; ``None`` once every phrasing is used up (the item then ends with the pair's
    theme). Deterministic: aspects are taken in the reading's order."""
    for step in range(count):
        index = (preferred + step) % count
        if used.get((aspect, index), 0) < CLOSING_MAX_USES:
            used[(aspect, index)] = used.get((aspect, index), 0) + 1
            return index
    return None


def _aspect_item(
    a: Aspect,
    level: Level,
    data: dict[str, Any],
    used_closings: dict[tuple[str, int], int] | None = None,
) -> InterpretationItem | None:
    if a.aspect not in _ASPECT_VARIANT:
        return None
    pair = (a.body1, a.body2)
    if pair not in _PAIR_INDEX:
        pair = (a.body2, a.body1)
        if pair not in _PAIR_INDEX:
            return None
    names = data["names"]
    first, second = pair
    pair_data = data["aspects"]["pairs"][f"{first}-{second}"]
    # The closing sentence names both planets' domains, so two pairs of one chart never share
    # it; the pair also picks which of the kind's phrasings reads, for variety.
    closings = data["aspects"]["aspects"][a.aspect]
    preferred = _PAIR_INDEX[pair] % len(closings)
    index = (
        preferred
        if used_closings is None or level != "full"
        else _closing_index(a.aspect, preferred, len(closings), used_closings)
    )
    values = {
        "first": _point_name(first, names),
        "second": _point_name(second, names),
        "aspect": names["aspects"][a.aspect],
        "first_domain": names["domains"][first],
        "second_domain": names["domains"][second],
    }
    text = _fill(pair_data[_ASPECT_VARIANT[a.aspect]], values)
    if level == "full":
        text += " " + _fill(pair_data["theme"], values)
        if index is not None:
            text += " " + _capitalized(_fill(closings[index], values))
    title = _fill(names["titles"]["aspect"][a.aspect], values)
    return InterpretationItem(
        f"aspect.{first}.{second}",
        "aspects",
        title,
        text,
        Basis(aspect=a.aspect, bodies=(first, second), orb=round(a.orb, 2)),
    )


def _point_name(name: str, names: dict[str, Any]) -> str:
    return str(names["planets"][name] if name in names["planets"] else names["angles"][name])


def _balance_items(
    score: BalanceScore, level: Level, data: dict[str, Any]
) -> list[InterpretationItem]:
    out: list[InterpretationItem] = []
    names = data["names"]
    for kind, points, minimum, labels in (
        ("element", score.elements, ELEMENT_DOMINANT_MIN, names["elements"]),
        ("modality", score.modalities, MODALITY_DOMINANT_MIN, names["modalities"]),
    ):
        texts_of = data["balance"][kind]
        top = max(points.values())
        dominant = [k for k, v in points.items() if v == top and v >= minimum]
        for name in dominant:
            out.append(
                InterpretationItem(
                    f"balance.{kind}.dominant.{name}",
                    "balance",
                    _fill(names["titles"]["dominant"][kind], {"name": labels[name]}),
                    _text(texts_of["dominant"][name], level, {}),
                    Basis(balance=kind, dominant=name),
                )
            )
        if not dominant:
            out.append(
                InterpretationItem(
                    f"balance.{kind}.balanced",
                    "balance",
                    names["titles"]["balanced"][kind],
                    _text(texts_of["balanced"], level, {}),
                    Basis(balance=kind),
                )
            )
        for name, value in points.items():
            if value == 0:
                out.append(
                    InterpretationItem(
                        f"balance.{kind}.lacking.{name}",
                        "balance",
                        _fill(names["titles"]["lacking"][kind], {"name": labels[name]}),
                        _text(texts_of["lacking"][name], level, {}),
                        Basis(balance=kind, lacking=name),
                    )
                )
    return out


#: How many patterns of one kind are explained in full in one reading; later ones are named.
PATTERN_FULL_MAX_USES: Final = 2


def _pattern_item(
    pattern: ChartPattern, index: int, level: Level, data: dict[str, Any]
) -> InterpretationItem:
    names = data["names"]
    values = {
        "bodies": _join([names["planets_in_text"][b] for b in pattern.bodies], data),
        "apex": names["planets_in_text"][pattern.apex] if pattern.apex else "",
        "sign": names["signs"][pattern.sign] if pattern.sign else "",
        "house": names["houses"][str(pattern.house)] if pattern.house else "",
    }
    kind = pattern.kind
    entry_key: str = kind
    if kind == "stellium":
        entry_key = "stellium_sign" if pattern.sign else "stellium_house"
    entry = data["patterns"][entry_key]
    text = _capitalized(_text(entry, level, values))
    if index > PATTERN_FULL_MAX_USES:
        # A third pattern of one kind is named, not explained again (issue 47).
        text = _capitalized(_fill(data["patterns"]["repeat"]["summary"], values))
    return InterpretationItem(
        f"pattern.{kind}.{index}",
        "patterns",
        _fill(names["titles"]["patterns"][entry_key], values),
        text,
        Basis(
            pattern=kind,
            bodies=pattern.bodies,
            apex=pattern.apex,
            sign=pattern.sign,
            house=pattern.house,
        ),
    )


def natal_interpretation(
    chart: NatalChart, *, language: Language, level: Level
) -> NatalInterpretation:
    """The interpretation of a natal chart, items in :data:`SECTIONS` order (see the module
    docstring). Bodies the chart lacks are skipped; signs and houses come from the chart."""
    _check_language(language)
    _check_level(level)
    data = texts(language)
    names = data["names"]
    titles = names["titles"]
    planets = {p.name: p for p in chart.planets if p.name in _PLANET_SET}
    items: list[InterpretationItem] = []
    used_dignities: dict[str, int] = {}

    def sign_item(key: str, section: Section, p_name: str) -> InterpretationItem:
        p = planets[p_name]
        values = {"planet": names["planets"][p_name], "sign": names["signs"][p.sign]}
        text = _text(data["planet_sign"][p_name][p.sign], level, values)
        if level == "full":
            text += _dignity_sentence(p_name, p.sign, data, used_dignities)
        return InterpretationItem(
            key,
            section,
            _fill(titles["planet_sign"], values),
            text,
            Basis(body=p_name, sign=p.sign),
        )

    def angle_item(key: str, section: Section, angle: str) -> InterpretationItem:
        sign = getattr(chart.angles, angle).sign
        values = {"sign": names["signs"][sign]}
        return InterpretationItem(
            key,
            section,
            _fill(titles[angle], values),
            _text(data["angles"][angle][sign], level, values),
            Basis(angle=angle, sign=sign),
        )

    for p_name in ("sun", "moon"):
        if p_name in planets:
            items.append(sign_item(f"big_three.{p_name}", "big_three", p_name))
    items.append(angle_item("big_three.ascendant", "big_three", "ascendant"))
    for p_name in PLANETS[2:]:
        if p_name in planets:
            items.append(sign_item(f"planet_sign.{p_name}", "planet_sign", p_name))
    for p_name in PLANETS:
        if p_name in planets:
            p = planets[p_name]
            values = {"planet": names["planets"][p_name], "house": names["houses"][str(p.house)]}
            items.append(
                InterpretationItem(
                    f"planet_house.{p_name}",
                    "planet_house",
                    _fill(titles["planet_house"], values),
                    _text(data["planet_house"][p_name][str(p.house)], level, values),
                    Basis(body=p_name, sign=p.sign, house=p.house),
                )
            )
    items.append(angle_item("angles.midheaven", "angles", "midheaven"))
    used_closings: dict[tuple[str, int], int] = {}
    for a in sorted(
        (a for a in chart.aspects if a.aspect in _ASPECT_VARIANT),
        key=lambda a: (round(a.orb, 6), _pair_rank(a)),
    ):
        item = _aspect_item(a, level, data, used_closings)
        if item is not None:
            items.append(item)
    score = balance_score(chart)
    items.extend(_balance_items(score, level, data))
    patterns = find_patterns(chart)
    counts: dict[str, int] = {}
    for pattern in patterns:
        counts[pattern.kind] = counts.get(pattern.kind, 0) + 1
        items.append(_pattern_item(pattern, counts[pattern.kind], level, data))
    return NatalInterpretation(language, level, tuple(items), patterns, score)


_PLANET_SET: Final = frozenset(PLANETS)


def _pair_rank(a: Aspect) -> int:
    return _PAIR_INDEX.get(
        (a.body1, a.body2), _PAIR_INDEX.get((a.body2, a.body1), len(_PAIR_INDEX))
    )
