"""Numerology numbers against published worked examples (cited per test)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from astro_calc.errors import CalcInputError
from astro_calc.numerology import (
    life_path_number,
    numerology_profile,
    personal_cycle_numbers,
    reduce_number,
)
from astro_calc.numerology._data import letter_tables
from astro_calc.numerology.core import is_vowel, latin_name_parts, name_number

_DAY = date(2025, 6, 1)


@pytest.mark.parametrize(
    ("value", "keep", "expected"),
    [
        (0, True, 0),
        (7, True, 7),
        (10, True, 1),
        (29, True, 11),
        (29, False, 2),
        (22, True, 22),
        (22, False, 4),
        (33, True, 33),
        (1992, True, 3),
        (99, True, 9),
        (38, True, 11),
    ],
)
def test_reduction_rule(value: int, keep: bool, expected: int) -> None:
    assert reduce_number(value, keep_masters=keep) == expected


def test_pythagorean_letter_values_follow_the_alphabet_cycle() -> None:
    # Decoz's table (worldnumerology.com/numerology-expression): A J S = 1 ... I R = 9.
    table = letter_tables()["pythagorean"]
    rows = {1: "AJS", 2: "BKT", 3: "CLU", 4: "DMV", 5: "ENW", 6: "FOX", 7: "GPY", 8: "HQZ", 9: "IR"}
    assert {ch: v for v, chars in rows.items() for ch in chars} == table


def test_chaldean_letter_values_match_the_published_chart() -> None:
    # chaldean-numerology-calculator.com/methodology: no letter has the value 9.
    table = letter_tables()["chaldean"]
    rows = {1: "AIJQY", 2: "BKR", 3: "CGLS", 4: "DMT", 5: "EHNX", 6: "UVW", 7: "OZ", 8: "FP"}
    assert {ch: v for v, chars in rows.items() for ch in chars} == table


@pytest.mark.parametrize(
    ("birth", "expected"),
    [
        # Hans Decoz, decoz.com "Do your own numerology report": both worked examples.
        (date(1936, 10, 12), 5),
        (date(1992, 11, 22), 9),
        # lifepathcalc.pages.dev worked examples (component method).
        (date(1985, 3, 17), 7),
        (date(1990, 5, 14), 11),
        (date(1975, 4, 4), 3),
    ],
)
def test_life_path_published_examples(birth: date, expected: int) -> None:
    assert life_path_number(birth)[0] == expected


def test_life_path_keeps_master_components_decoz() -> None:
    # Decoz: November (11) and the 22nd stay masters: 11 + 22 + 3 = 36.
    assert life_path_number(date(1992, 11, 22)) == (9, 36)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # seventhlifepath.com, "Expression - Destiny number": 2 + 33 + 11 = 46 -> 1; 4 + 2 + 1 = 7.
        ("John Winston Lennon", 1),
        ("Oprah Gail Winfrey", 7),
        # cosmic-copilot.com name calculator: JOHN SMITH expression 44 -> 8.
        ("John Smith", 8),
    ],
)
def test_expression_published_examples(name: str, expected: int) -> None:
    profile = numerology_profile(name, date(2000, 1, 1), on_date=_DAY)
    assert profile.expression is not None
    assert profile.expression.value == expected


def test_lennon_keeps_master_name_parts() -> None:
    # WINSTON = 33 and LENNON = 29 -> 11 stay masters before the total (seventhlifepath.com).
    assert name_number(latin_name_parts("John Winston Lennon"), "pythagorean") == (1, 46)


def test_john_smith_soul_urge_and_personality() -> None:
    # cosmic-copilot.com: vowels O + I = 15 -> 6; consonants 29 -> 11 (master kept).
    profile = numerology_profile("John Smith", date(2000, 1, 1), on_date=_DAY)
    assert profile.soul_urge is not None
    assert profile.personality is not None
    assert profile.soul_urge.value == 6
    assert profile.personality.value == 11
    assert profile.personality.master


@pytest.mark.parametrize(
    ("name", "compound", "value"),
    [
        # numerologyforbiz.com/en/methods/chaldean: BUSINESS = 28 -> 1.
        ("Business", 28, 1),
        # chaldean-numerology-calculator.com: MAYA = 4 + 1 + 1 + 1 = 7.
        ("Maya", 7, 7),
        # Cheiro keeps no master numbers: compounds 11 and 22 reduce to 2 and 4.
        # MICHAEL = 4+1+3+5+1+5+3 = 22 -> 4; BARBARA = 2+1+2+2+1+2+1 = 11 -> 2.
        ("Michael", 22, 4),
        ("Barbara", 11, 2),
    ],
)
def test_chaldean_published_examples(name: str, compound: int, value: int) -> None:
    profile = numerology_profile(name, date(2000, 1, 1), system="chaldean", on_date=_DAY)
    assert profile.expression is not None
    assert (profile.expression.compound, profile.expression.value) == (compound, value)


def test_accents_and_hyphens_are_read_as_plain_letters() -> None:
    accented = numerology_profile("José Müller-Lüdenscheid", date(1990, 1, 1), on_date=_DAY)
    plain = numerology_profile("Jose Muller Ludenscheid", date(1990, 1, 1), on_date=_DAY)
    assert accented.expression == plain.expression
    assert latin_name_parts("Anne-Marie O'Brien") == ["ANNE", "MARIE", "OBRIEN"]
    assert latin_name_parts("Straße Łukasz") == ["STRASSE", "LUKASZ"]


@pytest.mark.parametrize(
    ("part", "index", "vowel"),
    [("MARY", 3, True), ("LYNN", 1, True), ("YOLANDA", 0, False), ("MAYA", 2, False)],
)
def test_y_is_a_vowel_only_without_vowel_neighbours(part: str, index: int, vowel: bool) -> None:
    assert is_vowel(part, index) is vowel


def test_birthday_keeps_master_days() -> None:
    assert numerology_profile("Ann", date(1990, 3, 29), on_date=_DAY).birthday.value == 11
    assert numerology_profile("Ann", date(1990, 3, 22), on_date=_DAY).birthday.value == 22
    assert numerology_profile("Ann", date(1990, 3, 14), on_date=_DAY).birthday.value == 5


def test_maturity_is_life_path_plus_expression() -> None:
    profile = numerology_profile("John Smith", date(1936, 10, 12), on_date=_DAY)
    assert profile.maturity is not None
    assert profile.maturity.compound == 5 + 8
    assert profile.maturity.value == 4


def test_personal_cycles_worked_by_hand() -> None:
    # Born 14 June; on 2025-03-09: year 6 + 5 + (2025 -> 9) = 20 -> 2; month 2 + 3 = 5;
    # day 5 + 9 = 14 -> 5.
    assert personal_cycle_numbers(date(1980, 6, 14), date(2025, 3, 9)) == (2, 5, 5)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)))
def test_personal_year_advances_by_one_each_year(birth: date) -> None:
    first = personal_cycle_numbers(birth, date(2024, 7, 1))[0]
    second = personal_cycle_numbers(birth, date(2025, 7, 1))[0]
    assert second == first % 9 + 1


@pytest.mark.parametrize("name", ["", "   ", "1234", "--- ...", "!!"])
def test_name_without_letters_is_an_input_error(name: str) -> None:
    with pytest.raises(CalcInputError) as error:
        numerology_profile(name, date(1990, 1, 1), on_date=_DAY)
    assert error.value.field == "name"


def test_unknown_system_and_language_name_their_fields() -> None:
    with pytest.raises(CalcInputError) as system_error:
        numerology_profile("Ann", date(1990, 1, 1), system="kabbalah")
    assert system_error.value.field == "system"
    with pytest.raises(CalcInputError) as language_error:
        numerology_profile("Ann", date(1990, 1, 1), language="jp")
    assert language_error.value.field == "language"


def test_a_stray_thai_mark_beside_a_latin_name_is_not_a_thai_name() -> None:
    # ๆ (repetition mark) and Thai digits have no letter value: the Latin name is read as usual.
    for name in ("John ๆ", "Smith ๑๒"):
        profile = numerology_profile(name, date(1990, 1, 1), on_date=_DAY)
        assert profile.expression is not None
        assert profile.thai_name is None
