"""Thai name and phone numerology against the published Thai letter-value table."""

from __future__ import annotations

from datetime import date

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.numerology import numerology_profile, phone_numerology, thai_name_numerology
from astro_calc.numerology._data import letter_tables

# sinsae.com/เลขศาสตร์, "ตารางค่าตัวเลขสำหรับอักษรไทย" (rows 1-8 as published there;
# row 9 and ไม้ตรี from the common table): consonants, vowel signs and tone marks per value.
_PUBLISHED_ROWS = {
    1: "กดทถภฤ" + "าุำ" + "\u0e48",
    2: "ขชบปง" + "เแู" + "\u0e49",
    3: "ฆฑฒตฃ" + "\u0e4b",
    4: "คธรญษ" + "โะิั",
    5: "ฉณฌนมหฮฎฬ" + "ึ",
    6: "จลวอ" + "ใ",
    7: "ศสซ" + "ีื",
    8: "ยพฟผฝ" + "\u0e47",
    9: "ฏฐ" + "ไ" + "\u0e4c",
}


@pytest.mark.parametrize(("value", "chars"), sorted(_PUBLISHED_ROWS.items()))
def test_thai_letter_values_match_the_published_table(value: int, chars: str) -> None:
    table = letter_tables()["thai"]
    assert {ch: table[ch] for ch in chars} == dict.fromkeys(chars, value)


def test_every_thai_consonant_in_use_has_a_value() -> None:
    table = letter_tables()["thai"]
    obsolete = {"ฅ"}
    consonants = [chr(c) for c in range(0x0E01, 0x0E2F)]
    assert [ch for ch in consonants if ch not in table and ch not in obsolete] == []


def test_somchai_by_hand_from_the_table() -> None:
    # ส 7 + ม 5 + ช 2 + า 1 + ย 8 = 23 -> 5, Jupiter.
    reading = thai_name_numerology("สมชาย")
    assert (reading.total, reading.root, reading.planet) == (23, 5, "Jupiter")
    assert [v.value for v in reading.values] == [7, 5, 2, 1, 8]


def test_name_with_surname_gives_part_totals() -> None:
    # สมชาย 23; ใจดี = ใ 6 + จ 6 + ด 1 + ี 7 = 20; total 43 -> 7, Saturn (เสาร์ in Thai).
    reading = thai_name_numerology("สมชาย  ใจดี", language="th")
    assert reading.part_totals == (23, 20)
    assert (reading.total, reading.root, reading.planet) == (43, 7, "เสาร์")
    assert reading.text == "สมชาย ใจดี"


def test_unvalued_marks_are_reported_not_counted() -> None:
    reading = thai_name_numerology("นาๆ")
    assert reading.total == 5 + 1
    assert reading.ignored == ("ๆ",)


def test_thai_only_name_profile_has_thai_reading_and_no_latin_numbers() -> None:
    profile = numerology_profile("สมชาย ใจดี", date(1990, 5, 14), on_date=date(2025, 1, 1))
    assert profile.thai_name is not None
    assert profile.thai_name.total == 43
    assert profile.expression is None
    assert profile.life_path.value == 11


def test_mixed_script_name_gets_both_readings() -> None:
    profile = numerology_profile("Somchai สมชาย", date(1990, 5, 14), on_date=date(2025, 1, 1))
    assert profile.expression is not None
    assert profile.thai_name is not None
    assert profile.thai_name.total == 23


def test_phone_digit_sum_and_root() -> None:
    # 0+8+1+2+3+4+5+6+7+8 = 44 -> 8, Rahu.
    reading = phone_numerology("081-234-5678")
    assert (reading.total, reading.root, reading.planet) == (44, 8, "Rahu")


def test_phone_in_international_form_is_read_nationally() -> None:
    assert phone_numerology("+66 81 234 5678").text == "0812345678"
    assert phone_numerology("+66 81 234 5678").total == 44


@pytest.mark.parametrize("phone", ["", "abc", "12", "0000", "+1 (555) 12x"])
def test_bad_phone_numbers_name_the_field(phone: str) -> None:
    with pytest.raises(CalcInputError) as error:
        phone_numerology(phone)
    assert error.value.field == "phone"


def test_thai_name_without_thai_letters_is_an_input_error() -> None:
    with pytest.raises(CalcInputError) as error:
        thai_name_numerology("John")
    assert error.value.field == "name"
