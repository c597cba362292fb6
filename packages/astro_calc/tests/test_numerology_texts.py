"""Every number the code can produce has its text in English and Thai."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astro_calc.numerology import LANGUAGES, numerology_profile, phone_numerology
from astro_calc.numerology._data import texts

_THAI = re.compile(r"[\u0E00-\u0E7F]")
_CORE = [*range(1, 10), 11, 22, 33]
_ASPECTS = {
    "life_path",
    "expression",
    "soul_urge",
    "personality",
    "birthday",
    "maturity",
    "personal_year",
    "personal_month",
    "personal_day",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_core_number_has_title_keywords_and_meaning(language: str) -> None:
    numbers = texts(language)["numbers"]
    assert set(numbers) == {str(n) for n in _CORE}
    for n in _CORE:
        entry = numbers[str(n)]
        assert entry["title"].strip()
        assert len(entry["keywords"]) >= 3
        assert len(entry["meaning"]) > 60


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cycle_aspect_and_thai_root_has_text(language: str) -> None:
    data = texts(language)
    assert set(data["cycles"]) == {str(n) for n in range(1, 10)}
    assert set(data["aspects"]) == _ASPECTS
    assert set(data["thai_roots"]) == {str(n) for n in range(1, 10)}
    assert all(len(v) > 30 for v in data["cycles"].values())
    assert all(a["name"] and a["describes"] for a in data["aspects"].values())
    assert all(r["planet"] and len(r["meaning"]) > 40 for r in data["thai_roots"].values())


def test_thai_texts_are_in_thai() -> None:
    data = texts("th")
    for entry in data["numbers"].values():
        assert _THAI.search(entry["meaning"])
        assert _THAI.search(entry["title"])
    for value in data["cycles"].values():
        assert _THAI.search(value)
    for root in data["thai_roots"].values():
        assert _THAI.search(root["planet"])


def test_english_and_thai_texts_differ_everywhere() -> None:
    en, th = texts("en"), texts("th")
    for key in en["numbers"]:
        assert en["numbers"][key]["meaning"] != th["numbers"][key]["meaning"]


_names = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzéüñ -'กขคงจนมยรวสอาีเ"),
    min_size=1,
    max_size=40,
).filter(lambda s: any(ch.isalpha() for ch in s))


@settings(max_examples=150, deadline=None)
@given(
    _names,
    st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)),
    st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)),
    st.sampled_from(["pythagorean", "chaldean"]),
    st.sampled_from(LANGUAGES),
)
def test_any_profile_uses_only_numbers_with_text(
    name: str, birth: date, today: date, system: str, language: str
) -> None:
    profile = numerology_profile(name, birth, system=system, on_date=today, language=language)
    numbers = [
        profile.life_path,
        profile.birthday,
        profile.expression,
        profile.soul_urge,
        profile.personality,
        profile.maturity,
        profile.personal_year,
        profile.personal_month,
        profile.personal_day,
    ]
    for number in numbers:
        if number is not None:
            assert number.meaning.strip()
            assert number.value in _CORE
    assert 1 <= profile.personal_year.value <= 9


@pytest.mark.parametrize("language", LANGUAGES)
def test_phone_readings_have_text_for_every_root(language: str) -> None:
    roots = {phone_numerology(f"08{n}", language).root for n in range(10, 100)}
    assert roots == set(range(1, 10))
