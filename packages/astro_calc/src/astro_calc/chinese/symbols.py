"""The symbols of the sexagenary cycle, built once from ``data/chinese/cycle.json``.

Every named symbol carries its simplified Chinese character (``character``), pinyin, the
traditional form used in Korean almanacs (``hanja``) and its hangul reading, so one result shape
serves BaZi and Saju. Instances are frozen and shared between charts.

Cycle arithmetic (checked against lunar-python in the tests):

* a sexagenary index ``c`` in 0..59 has stem ``c % 10`` and branch ``c % 12``;
  from a stem ``s`` and a branch ``b`` of equal parity, ``c = (6 s - 5 b) mod 60``;
* a civil date's day index is ``(JDN - 11) mod 60`` with JDN the Julian day number at noon
  (2000-01-01 is 戊午, index 54);
* a Gregorian year's index (counted from Lichun) is ``(year - 4) mod 60`` (1984 is 甲子).
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

import msgspec

ElementKey = Literal["wood", "fire", "earth", "metal", "water"]
Polarity = Literal["yang", "yin"]

ELEMENTS: Final[tuple[ElementKey, ...]] = ("wood", "fire", "earth", "metal", "water")


class Stem(msgspec.Struct, frozen=True):
    index: int  # 0 = 甲 ... 9 = 癸
    character: str
    pinyin: str
    hanja: str
    hangul: str
    romanized: str
    element: ElementKey
    polarity: Polarity


class Branch(msgspec.Struct, frozen=True):
    index: int  # 0 = 子 ... 11 = 亥
    character: str
    pinyin: str
    hanja: str
    hangul: str
    romanized: str
    element: ElementKey
    polarity: Polarity
    animal: str


class NamedSymbol(msgspec.Struct, frozen=True):
    """A named item of a fixed list (ten gods, life stages, solar terms, na yin)."""

    index: int
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str


class NaYin(msgspec.Struct, frozen=True):
    index: int  # 0..29, one per pair of the cycle
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str
    element: ElementKey


def _load() -> dict[str, Any]:
    text = resources.files("astro_calc").joinpath("data/chinese/cycle.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA: Final = _load()

STEMS: Final[tuple[Stem, ...]] = tuple(
    Stem(
        i,
        s["zh"],
        s["pinyin"],
        s["hanja"],
        s["hangul"],
        s["romanized"],
        s["element"],
        s["polarity"],
    )
    for i, s in enumerate(DATA["stems"])
)

BRANCHES: Final[tuple[Branch, ...]] = tuple(
    Branch(
        i,
        b["zh"],
        b["pinyin"],
        b["hanja"],
        b["hangul"],
        b["romanized"],
        b["element"],
        "yang" if i % 2 == 0 else "yin",
        b["animal"],
    )
    for i, b in enumerate(DATA["branches"])
)

#: Hidden stems of each branch, principal first (the common table, as in lunar-python).
HIDDEN_STEMS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b["hidden_stems"]) for b in DATA["branches"]
)


def _named(section: str) -> tuple[NamedSymbol, ...]:
    return tuple(
        NamedSymbol(i, x["key"], x["zh"], x["pinyin"], x["hanja"], x["hangul"], x["en"])
        for i, x in enumerate(DATA[section])
    )


TEN_GODS: Final = _named("ten_gods")
LIFE_STAGES: Final = _named("life_stages")
SOLAR_TERM_NAMES: Final = _named("solar_terms")
NA_YIN: Final[tuple[NaYin, ...]] = tuple(
    NaYin(i, x["key"], x["zh"], x["pinyin"], x["hanja"], x["hangul"], x["en"], x["element"])
    for i, x in enumerate(DATA["na_yin"])
)

TEN_GOD_KEYS: Final[tuple[str, ...]] = tuple(t.key for t in TEN_GODS)

_ELEMENT_INDEX: Final[dict[str, int]] = {e: i for i, e in enumerate(ELEMENTS)}

#: Branch where each stem's twelve-stage cycle begins (长生): yang stems count forward, yin
#: stems backward; earth follows fire (火土同宫), the common convention of lunar-python.
_BIRTH_BRANCH: Final = (11, 6, 2, 9, 2, 9, 5, 0, 8, 3)


def element_index(element: str) -> int:
    return _ELEMENT_INDEX[element]


def produces(a: str, b: str) -> bool:
    """Element ``a`` generates ``b`` (wood -> fire -> earth -> metal -> water -> wood)."""
    return (_ELEMENT_INDEX[a] + 1) % 5 == _ELEMENT_INDEX[b]


def controls(a: str, b: str) -> bool:
    """Element ``a`` restrains ``b`` (wood -> earth -> water -> fire -> metal -> wood)."""
    return (_ELEMENT_INDEX[a] + 2) % 5 == _ELEMENT_INDEX[b]


def cycle_index(stem: int, branch: int) -> int:
    """Sexagenary index of a stem and branch of equal parity."""
    if (stem - branch) % 2:
        raise ValueError("stem and branch must have the same parity")
    return (6 * stem - 5 * branch) % 60


def ganzhi(index: int) -> str:
    return STEMS[index % 10].character + BRANCHES[index % 12].character


def day_cycle_index(civil_date: date) -> int:
    """Sexagenary index of a civil date (continuous day count, proleptic Gregorian)."""
    # date.toordinal() + 1721425 is the Julian day number at noon.
    return (civil_date.toordinal() + 1721425 - 11) % 60


def year_cycle_index(year: int) -> int:
    """Sexagenary index of the year that begins at Lichun of Gregorian ``year``."""
    return (year - 4) % 60


@cache
def ten_god(day_master: int, other: int) -> NamedSymbol:
    """Ten-god relation of stem ``other`` to the day-master stem (lunar-python's SHI_SHEN)."""
    dm, ot = STEMS[day_master], STEMS[other]
    same = dm.polarity == ot.polarity
    if dm.element == ot.element:
        base = 0
    elif produces(dm.element, ot.element):
        base = 2
    elif controls(dm.element, ot.element):
        base = 4
    elif controls(ot.element, dm.element):
        base = 6
    else:  # other produces the day master
        base = 8
    return TEN_GODS[base + (0 if same else 1)]


@cache
def life_stage(stem: int, branch: int) -> NamedSymbol:
    """Twelve-stage (十二长生) position of a stem in a branch."""
    start = _BIRTH_BRANCH[stem]
    offset = (branch - start) % 12 if stem % 2 == 0 else (start - branch) % 12
    return LIFE_STAGES[offset]


def na_yin(index: int) -> NaYin:
    return NA_YIN[index // 2]


def void_branches(index: int) -> tuple[int, int]:
    """The two branches left out of the ten-day week (旬空) that holds cycle index ``index``."""
    head = index - index % 10
    first = (head % 12 + 10) % 12
    return first, (first + 1) % 12
