"""The numerology profile: core numbers from name and birth date, and the personal cycles.

Numbers and their rules (see :mod:`astro_calc.numerology.core` for reduction and letters):

* life path: month, day and year each reduced (masters kept), summed, reduced (masters kept).
  Checked against Decoz's worked examples: 1936-10-12 -> 5, 1992-11-22 -> 9.
* expression (all letters), soul urge (vowels), personality (consonants). Checked against
  published examples: John Winston Lennon -> 1, Oprah Gail Winfrey -> 7 (seventhlifepath.com);
  John Smith -> expression 8, soul urge 6, personality 11 (cosmic-copilot.com); Chaldean
  "BUSINESS" -> 28 -> 1 (numerologyforbiz.com), "MAYA" -> 7 (chaldean-numerology-calculator.com).
* birthday: the day of the month reduced (masters kept), so the 29th is 11.
* maturity: life path + expression, reduced (masters kept).
* personal year: birth month + birth day + the calendar year of ``on_date``, each reduced, then
  reduced to 1-9 (the nine-year cycle has no master years); personal month = personal year +
  calendar month; personal day = personal month + calendar day (each reduced to 1-9).

A name in Thai script also gets the Thai letter-value reading (:func:`thai_name_numerology`);
a name with only Thai letters has no Latin name numbers (they are ``None``). A name without any
letters is ``CalcInputError("name", ...)``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Final

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.numerology._data import texts
from astro_calc.numerology.core import (
    MASTER_NUMBERS,
    SYSTEMS,
    System,
    has_thai_letters,
    latin_name_parts,
    name_number,
    reduce_number,
)
from astro_calc.numerology.thai import ThaiNumerology, thai_name_numerology

MAX_NAME_LENGTH: Final = 200
REDUCTION_RULE: Final = (
    "repeated digit sum to 1-9, keeping 11, 22 and 33; life path reduces month, day and year "
    "separately first; personal year, month and day reduce to 1-9"
)


class NumerologyNumber(msgspec.Struct, frozen=True):
    aspect: str  # life_path, expression, soul_urge, personality, birthday, maturity, personal_*
    aspect_name: str
    describes: str
    value: int
    compound: int  # the sum before the final reduction
    master: bool
    title: str
    keywords: tuple[str, ...]
    meaning: str


class NumerologyProfile(msgspec.Struct, frozen=True):
    name: str
    birth_date: date
    on_date: date
    system: str
    language: str
    reduction_rule: str
    life_path: NumerologyNumber
    birthday: NumerologyNumber
    expression: NumerologyNumber | None
    soul_urge: NumerologyNumber | None
    personality: NumerologyNumber | None
    maturity: NumerologyNumber | None
    personal_year: NumerologyNumber
    personal_month: NumerologyNumber
    personal_day: NumerologyNumber
    thai_name: ThaiNumerology | None = None


def _number(aspect: str, value: int, compound: int, language: str) -> NumerologyNumber:
    text = texts(language)
    entry = text["numbers"][str(value)]
    aspect_text = text["aspects"][aspect]
    meaning = entry["meaning"]
    if aspect.startswith("personal_"):
        meaning = text["cycles"][str(value)]
    return NumerologyNumber(
        aspect=aspect,
        aspect_name=aspect_text["name"],
        describes=aspect_text["describes"],
        value=value,
        compound=compound,
        master=value in MASTER_NUMBERS,
        title=entry["title"],
        keywords=tuple(entry["keywords"]),
        meaning=meaning,
    )


def life_path_number(birth_date: date) -> tuple[int, int]:
    """(life path, compound) by Decoz's method: reduce month, day, year; add; reduce."""
    compound = (
        reduce_number(birth_date.month)
        + reduce_number(birth_date.day)
        + reduce_number(sum(int(d) for d in str(birth_date.year)))
    )
    return reduce_number(compound), compound


def personal_cycle_numbers(birth_date: date, on_date: date) -> tuple[int, int, int]:
    """(personal year, personal month, personal day) for ``on_date``, each 1-9."""

    def single(value: int) -> int:
        return reduce_number(value, keep_masters=False)

    year = single(single(birth_date.month) + single(birth_date.day) + single(on_date.year))
    month = single(year + single(on_date.month))
    day = single(month + single(on_date.day))
    return year, month, day


def numerology_profile(
    name: str,
    birth_date: date,
    *,
    system: str = "pythagorean",
    on_date: date | None = None,
    language: str = "en",
) -> NumerologyProfile:
    """Core numbers and personal cycles for a full birth name and date of birth.

    ``system`` is ``pythagorean`` (default) or ``chaldean``; ``on_date`` (default: today in UTC)
    sets the personal year, month and day. Conventions and references: module docstring."""
    if system not in SYSTEMS:
        raise CalcInputError("system", f"unknown system {system!r}; one of {', '.join(SYSTEMS)}")
    texts(language)  # validates the language before any work
    if not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise CalcInputError("name", f"must be 1 to {MAX_NAME_LENGTH} characters")
    sys_name: System = "chaldean" if system == "chaldean" else "pythagorean"
    parts = latin_name_parts(name)
    thai = has_thai_letters(name)
    if not parts and not thai:
        raise CalcInputError("name", "contains no letters")
    thai_reading = thai_name_numerology(name, language) if thai else None
    today = on_date or datetime.now(UTC).date()

    life_path, lp_compound = life_path_number(birth_date)
    birthday_value = reduce_number(birth_date.day)

    expression = soul_urge = personality = maturity = None
    if parts:
        ex_value, ex_compound = name_number(parts, sys_name, "all")
        expression = _number("expression", ex_value, ex_compound, language)
        su_value, su_compound = name_number(parts, sys_name, "vowels")
        if su_compound:
            soul_urge = _number("soul_urge", su_value, su_compound, language)
        pe_value, pe_compound = name_number(parts, sys_name, "consonants")
        if pe_compound:
            personality = _number("personality", pe_value, pe_compound, language)
        ma_compound = life_path + ex_value
        maturity = _number("maturity", reduce_number(ma_compound), ma_compound, language)

    year, month, day = personal_cycle_numbers(birth_date, today)
    return NumerologyProfile(
        name=name.strip(),
        birth_date=birth_date,
        on_date=today,
        system=system,
        language=language,
        reduction_rule=REDUCTION_RULE,
        life_path=_number("life_path", life_path, lp_compound, language),
        birthday=_number("birthday", birthday_value, birth_date.day, language),
        expression=expression,
        soul_urge=soul_urge,
        personality=personality,
        maturity=maturity,
        personal_year=_number("personal_year", year, year, language),
        personal_month=_number("personal_month", month, month, language),
        personal_day=_number("personal_day", day, day, language),
        thai_name=thai_reading,
    )
