"""Interpretations of the lord of the year and the releasing periods, en and th: every planet,
house, peak and the loosing of the bond has a text in both languages, and the items follow the
answer they read."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from astro_calc import glossary
from astro_calc.errors import CalcInputError
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, load_data
from astro_calc.western.traditional.dignities import CLASSICAL_PLANETS
from astro_calc.western.traditional.readings import (
    profection_interpretation,
    releasing_interpretation,
)
from astro_calc.western.traditional.timing import (
    ZodiacalReleasing,
    profections_at,
    releasing_periods,
)

BIRTH = datetime(1990, 5, 1, tzinfo=UTC)
ECHO = SubjectTime(BIRTH, BIRTH, 0, None, "offset", 2448012.5)


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_text_is_there_in_both_languages(language: str) -> None:
    data = load_data("western", f"traditional/{language}.json")
    assert set(data["lord_of_year"]) == set(CLASSICAL_PLANETS)
    assert set(data["profection_house"]) == {str(n) for n in range(1, 13)}
    for lot in ("spirit", "fortune"):
        assert set(data["releasing"][lot]) == set(CLASSICAL_PLANETS)
    assert set(data["peak"]) == {"1", "4", "7", "10"}
    assert not glossary.find_forbidden(str(data))


@pytest.mark.parametrize("language", ["en", "th"])
def test_the_lord_of_the_year_reads_the_profection(language: str) -> None:
    found = profections_at(ECHO, ascendant=125.0, on_date=date(2020, 5, 1))  # Leo rising, 30
    reading = profection_interpretation(found, language, "full")  # type: ignore[arg-type]
    lord, house = reading.items
    assert lord.key == "lord_of_year.saturn"
    assert lord.basis.lord == "saturn"
    assert lord.basis.house == 7
    assert glossary.name("planet", "saturn", language) in lord.title  # type: ignore[arg-type]
    data = load_data("western", f"traditional/{language}.json")["lord_of_year"]["saturn"]
    assert lord.text.startswith(data["summary"])
    assert lord.text.endswith(data["detail"])
    assert house.key == "profection_house.7"


def test_releasing_reads_each_level_with_its_peak_and_loosing() -> None:
    start, end = BIRTH, BIRTH + timedelta(days=30 * 365.25)
    periods = releasing_periods(
        BIRTH,
        SIGNS.index("capricorn"),
        SIGNS.index("libra"),
        levels=2,
        year_length_days=360.0,
        window=(start, end),
    )
    found = ZodiacalReleasing(
        "spirit", 280.0, "capricorn", "libra", "day", 360.0, 2, start, end, periods
    )
    at = BIRTH + timedelta(days=211 * 30 + 1)  # inside the loosing of the bond into Cancer
    reading = releasing_interpretation(found, at, "th")
    keys = [i.key for i in reading.items]
    # Capricorn is the 4th sign from Libra (a peak); Cancer the 10th (the strongest peak).
    assert keys == [
        "releasing.spirit.saturn",
        "peak.4",
        "releasing.spirit.moon",
        "peak.10",
        "loosing_of_the_bond",
    ]
    assert reading.items[2].basis.level == 2
    assert reading.items[2].basis.sign == "cancer"


def test_unknown_language_names_the_field() -> None:
    found = profections_at(ECHO, ascendant=125.0, on_date=date(2020, 5, 1))
    with pytest.raises(CalcInputError) as err:
        profection_interpretation(found, "fr")  # type: ignore[arg-type]
    assert err.value.field == "language"


def test_a_real_birth_reads_end_to_end() -> None:
    from astro_calc.western.traditional import profections, zodiacal_releasing

    subject = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    assert profection_interpretation(profections(subject, date(2026, 12, 7)), "th").items
    z = zodiacal_releasing(subject, levels=4, start=date(2026, 1, 1), end=date(2026, 12, 31))
    assert len([i for i in releasing_interpretation(z).items if i.key.startswith("rel")]) == 4
