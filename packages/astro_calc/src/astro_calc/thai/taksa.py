"""The Taksa wheel (ทักษา): birth-day planet, the eight positions, kalakini, colours and letters
for names, and the moving Taksa by age.

Conventions
-----------
* The Thai day begins at 06:00 local time: a birth before 06:00 belongs to the previous weekday.
  Wednesday is split: from 18:00 Wednesday to 06:00 Thursday is "Wednesday night", ruled by Rahu.
* The wheel runs in the Taksa order Sun, Moon, Mars, Mercury, Saturn, Jupiter, Rahu, Venus
  (numbers 1 2 3 4 7 5 8 6). Starting from the birth-day planet the eight positions are boriwan,
  ayu, det, si, mula, utsaha, montri, kalakini.
* Letters: each planet owns a class of Thai letters (Sun the vowels, Moon ก-ง, Mars จ-ญ,
  Mercury ฎ-ณ, Jupiter บ-ม, Venus ศ-ฮ, Saturn ด-น, Rahu ย ร ล ว). The kalakini planet's letters
  and colour are to be avoided; the letters and colours of si, det, montri and ayu are favoured.
* Moving Taksa by age: in the n-th year of life (completed age n - 1) the moving planet stands
  ``n - 1`` steps along the wheel from the birth planet, so the year takes that position's
  outlook; the major period ruler (ดาวเสวยอายุ) follows the wheel with periods Sun 6, Moon 15,
  Mars 8, Mercury 17, Saturn 10, Jupiter 19, Rahu 12, Venus 21 years (108 in all).

Checked position by position for all eight birth days against the table published in
พลูหลวง, *ทักษาพยากรณ์* (and the Royal Institute dictionary's definition of ทักษา), in
``tests/test_thai_taksa.py``.
"""

from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from importlib import resources
from typing import Any, Final

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.thai.texts import text, texts

DAY_START: Final = time(6, 0)
RAHU_START: Final = time(18, 0)
_WEEKDAY_KEYS: Final = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)  # fmt: skip
FAVOURED_POSITIONS: Final = ("si", "det", "montri", "ayu")


@lru_cache(maxsize=1)
def taksa_data() -> dict[str, Any]:
    raw = resources.files("astro_calc").joinpath("data/thai/taksa.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


class TaksaPosition(msgspec.Struct, frozen=True):
    position: str
    position_th: str
    position_en: str
    meaning_th: str
    meaning_en: str
    planet: str
    planet_number: int
    planet_th: str
    planet_en: str
    colour_th: str
    colour_en: str
    letters: tuple[str, ...]


class YearlyTaksa(msgspec.Struct, frozen=True):
    age_years: int
    position: str
    planet: str
    outlook_th: str
    outlook_en: str
    period_ruler: str  # ดาวเสวยอายุ
    period_start_age: int
    period_end_age: int


class TaksaWheel(msgspec.Struct, frozen=True):
    birth_day: str  # sunday ... saturday or wednesday_night
    birth_day_th: str
    birth_day_en: str
    birth_planet: str
    thai_day_date: date  # the civil date whose Thai day holds the birth
    positions: tuple[TaksaPosition, ...]
    kalakini: TaksaPosition
    auspicious_colours: tuple[TaksaPosition, ...]
    inauspicious_colour_th: str
    inauspicious_colour_en: str
    auspicious_letters: tuple[str, ...]
    inauspicious_letters: tuple[str, ...]
    yearly: YearlyTaksa | None = None


def thai_birth_day(local_date: date, local_time: time) -> tuple[str, date]:
    """The Thai birth day key (and the civil date it starts on) of a local birth moment."""
    day = local_date - timedelta(days=1) if local_time < DAY_START else local_date
    key = _WEEKDAY_KEYS[day.weekday()]
    if key == "wednesday" and (local_time >= RAHU_START or local_time < DAY_START):
        key = "wednesday_night"
    return key, day


def _position(position: str, planet: str) -> TaksaPosition:
    data = taksa_data()
    pos = text("position", position)
    meaning = texts()["position"][position]
    name = text("planet", planet)
    colour = text("colour", planet)
    return TaksaPosition(
        position=position,
        position_th=pos.th,
        position_en=pos.en,
        meaning_th=meaning["meaning_th"],
        meaning_en=meaning["meaning_en"],
        planet=planet,
        planet_number=data["planet_number"][planet],
        planet_th=name.th,
        planet_en=name.en,
        colour_th=colour.th,
        colour_en=colour.en,
        letters=tuple(data["letters"][planet]),
    )


@lru_cache(maxsize=8)
def wheel_for_day(day_key: str) -> tuple[TaksaPosition, ...]:
    """The eight positions for a birth-day key (sunday ... saturday, wednesday_night)."""
    data = taksa_data()
    try:
        planet = data["day_planet"][day_key]
    except KeyError:
        raise CalcInputError("birth_day", f"unknown day {day_key!r}") from None
    order: list[str] = data["taksa_order"]
    start = order.index(planet)
    return tuple(
        _position(position, order[(start + i) % 8]) for i, position in enumerate(data["positions"])
    )


def yearly_taksa(day_key: str, age_years: int) -> YearlyTaksa:
    """The moving Taksa for completed age ``age_years`` (see the module docstring)."""
    if not 0 <= age_years <= 150:
        raise CalcInputError("age", "must be between 0 and 150")
    data = taksa_data()
    wheel = wheel_for_day(day_key)
    step = age_years % 8
    current = wheel[step]
    outlook = text("year_outlook", current.position)
    order: list[str] = data["taksa_order"]
    start = order.index(wheel[0].planet)
    elapsed = 0
    i = 0
    remaining = age_years % 108
    while True:
        ruler = order[(start + i) % 8]
        years = int(data["dasha_years"][ruler])
        if remaining < elapsed + years:
            break
        elapsed += years
        i += 1
    cycle_base = age_years - remaining
    return YearlyTaksa(
        age_years=age_years,
        position=current.position,
        planet=current.planet,
        outlook_th=outlook.th,
        outlook_en=outlook.en,
        period_ruler=ruler,
        period_start_age=cycle_base + elapsed,
        period_end_age=cycle_base + elapsed + years,
    )


def taksa_wheel(
    birth_date: date,
    birth_time: time,
    *,
    on_date: date | None = None,
) -> TaksaWheel:
    """The Taksa wheel of a local birth date and time; with ``on_date`` also the moving Taksa for
    the completed age on that date."""
    day_key, thai_day = thai_birth_day(birth_date, birth_time)
    wheel = wheel_for_day(day_key)
    kalakini = wheel[7]
    favoured = tuple(p for p in wheel if p.position in FAVOURED_POSITIONS)
    letters: list[str] = []
    for p in favoured:
        letters.extend(p.letters)
    day_name = text("weekday", day_key)
    yearly = None
    if on_date is not None:
        if on_date < birth_date:
            raise CalcInputError("on_date", "must not be before the birth date")
        age = (
            on_date.year
            - birth_date.year
            - ((on_date.month, on_date.day) < (birth_date.month, birth_date.day))
        )
        yearly = yearly_taksa(day_key, age)
    return TaksaWheel(
        birth_day=day_key,
        birth_day_th=day_name.th,
        birth_day_en=day_name.en,
        birth_planet=wheel[0].planet,
        thai_day_date=thai_day,
        positions=wheel,
        kalakini=kalakini,
        auspicious_colours=favoured,
        inauspicious_colour_th=kalakini.colour_th,
        inauspicious_colour_en=kalakini.colour_en,
        auspicious_letters=tuple(letters),
        inauspicious_letters=kalakini.letters,
        yearly=yearly,
    )


def taksa_wheel_at(moment_local: datetime) -> TaksaWheel:
    """Convenience: the wheel for a local (aware or naive) birth datetime."""
    return taksa_wheel(moment_local.date(), moment_local.time().replace(tzinfo=None))
