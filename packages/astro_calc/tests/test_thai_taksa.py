"""Taksa wheel against the published table of positions.

Reference: พลูหลวง (ประยูร พลอารีย์), *ทักษาพยากรณ์*, table of the eight Taksa positions by birth day
(also the order บริวาร อายุ เดช ศรี มูละ อุตสาหะ มนตรี กาลกิณี in the Royal Institute Dictionary,
entry ทักษา). Transcribed below as planet numbers (1 Sun, 2 Moon, 3 Mars, 4 Mercury, 5 Jupiter,
6 Venus, 7 Saturn, 8 Rahu) in position order.
"""

from __future__ import annotations

from datetime import date, time

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.thai.taksa import taksa_wheel, thai_birth_day, wheel_for_day, yearly_taksa

PUBLISHED = {
    "sunday": (1, 2, 3, 4, 7, 5, 8, 6),
    "monday": (2, 3, 4, 7, 5, 8, 6, 1),
    "tuesday": (3, 4, 7, 5, 8, 6, 1, 2),
    "wednesday": (4, 7, 5, 8, 6, 1, 2, 3),
    "wednesday_night": (8, 6, 1, 2, 3, 4, 7, 5),
    "thursday": (5, 8, 6, 1, 2, 3, 4, 7),
    "friday": (6, 1, 2, 3, 4, 7, 5, 8),
    "saturday": (7, 5, 8, 6, 1, 2, 3, 4),
}
KALAKINI_LETTERS = {
    "sunday": "ศ",
    "monday": "อ",
    "tuesday": "ก",
    "wednesday": "จ",
    "wednesday_night": "บ",
    "thursday": "ด",
    "friday": "ย",
    "saturday": "ฎ",
}


@pytest.mark.parametrize("day", sorted(PUBLISHED))
def test_positions_match_published_table(day: str) -> None:
    wheel = wheel_for_day(day)
    assert tuple(p.planet_number for p in wheel) == PUBLISHED[day]
    assert [p.position for p in wheel] == [
        "boriwan", "ayu", "det", "si", "mula", "utsaha", "montri", "kalakini",
    ]  # fmt: skip


@pytest.mark.parametrize("day", sorted(KALAKINI_LETTERS))
def test_kalakini_letters(day: str) -> None:
    assert wheel_for_day(day)[7].letters[0] == KALAKINI_LETTERS[day]


def test_thai_day_starts_at_six_and_wednesday_night_is_rahu() -> None:
    wed = date(2024, 1, 3)  # a Wednesday
    assert thai_birth_day(wed, time(5, 59))[0] == "tuesday"
    assert thai_birth_day(wed, time(6, 0))[0] == "wednesday"
    assert thai_birth_day(wed, time(17, 59))[0] == "wednesday"
    assert thai_birth_day(wed, time(18, 0))[0] == "wednesday_night"
    assert thai_birth_day(date(2024, 1, 4), time(5, 0)) == ("wednesday_night", wed)


def test_wheel_colours_and_letters_for_sunday_birth() -> None:
    w = taksa_wheel(date(2024, 1, 7), time(10, 0))
    assert w.kalakini.planet == "venus"
    assert w.inauspicious_colour_en == "light blue, blue"
    assert "ส" in w.inauspicious_letters
    assert "ส" not in w.auspicious_letters
    assert {p.position for p in w.auspicious_colours} == {"ayu", "det", "si", "montri"}


def test_moving_taksa_steps_one_position_a_year() -> None:
    assert yearly_taksa("sunday", 0).position == "boriwan"
    assert yearly_taksa("sunday", 3).position == "si"
    assert yearly_taksa("sunday", 7).position == "kalakini"
    assert yearly_taksa("sunday", 8).position == "boriwan"


def test_major_period_rulers_follow_the_108_year_cycle() -> None:
    first = yearly_taksa("sunday", 5)
    assert (first.period_ruler, first.period_start_age, first.period_end_age) == ("sun", 0, 6)
    second = yearly_taksa("sunday", 6)
    assert (second.period_ruler, second.period_start_age, second.period_end_age) == ("moon", 6, 21)
    assert yearly_taksa("sunday", 107).period_ruler == "venus"
    assert yearly_taksa("sunday", 108).period_ruler == "sun"


def test_age_outside_range_is_refused() -> None:
    with pytest.raises(CalcInputError) as err:
        yearly_taksa("sunday", 151)
    assert err.value.field == "age"
