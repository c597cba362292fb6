"""Horoscope texts: every template renders in both languages; horoscopes are complete,
deterministic and varied."""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import msgspec
import pytest

from astro_calc.errors import CalcInputError
from astro_calc.horoscope import (
    SECTIONS,
    SIGNS,
    DailyHoroscope,
    daily_horoscope,
    daily_horoscopes,
    localize_times,
    localized_content,
    solar_house,
)
from astro_calc.horoscope.sky import ASPECTS, PHASES, PLANETS
from astro_calc.horoscope.texts import (
    LANGUAGES,
    TEXT_SECTIONS,
    format_time,
    horoscope_texts,
    render,
)

_THAI = re.compile(r"[\u0E00-\u0E7F]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_NATURES = ("harmonious", "challenging", "conjunction", "quiet")
_BANDS = ("low", "mid", "high")


def _expected_keys() -> set[str]:
    keys = {"overall.moon", "overall.moon_leaving", "overall.moon_ingress", "overall.ingress"}
    keys |= {f"overall.phase.{g}" for g in ("new", "waxing", "full", "waning")}
    keys |= {
        f"overall.lunation.{x}" for x in ("new_moon", "first_quarter", "full_moon", "last_quarter")
    }
    keys |= {"overall.station.retrograde", "overall.station.direct"}
    keys |= {f"overall.ruler.{n}" for n in _NATURES}
    keys |= {f"overall.close.{b}" for b in _BANDS}
    for section in SECTIONS:
        keys |= {f"{section}.planet", f"{section}.planet_retrograde"}
        keys |= {f"{section}.{n}" for n in _NATURES}
        keys |= {f"{section}.close.{b}" for b in _BANDS}
    return keys


def _all_slots(language: str) -> dict[str, object]:
    names = horoscope_texts(language)["names"]
    slots: dict[str, object] = {
        "sign": names["signs"]["leo"],
        "moon_sign": names["signs"]["libra"],
        "moon_house": 3,
        "moon_house_ord": names["ordinals"]["3"],
        "moon_house_topic": names["houses"]["3"],
        "phase": names["phases"]["full_moon"],
        "planet": names["planets"]["venus"],
        "other": names["planets"]["saturn"],
        "ruler": names["planets"]["sun"],
        "aspect": names["aspects"]["trine"],
        "aspect_phrase": names["aspect_phrases"]["opposition"],
        "time": format_time(datetime(2025, 1, 1, 7, 5, tzinfo=UTC), language),
        "event_sign": names["signs"]["aries"],
        "planet_sign": names["signs"]["pisces"],
        "ruler_sign": names["signs"]["gemini"],
    }
    for prefix in ("", "ruler_"):
        slots[f"{prefix}house"] = 7
        slots[f"{prefix}house_ord"] = names["ordinals"]["7"]
        slots[f"{prefix}house_topic"] = names["houses"]["7"]
    return slots


@pytest.mark.parametrize("language", LANGUAGES)
def test_template_keys_are_exactly_those_the_writer_uses(language: str) -> None:
    assert set(horoscope_texts(language)["templates"]) == _expected_keys()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_has_several_phrasings_and_renders_fully(language: str) -> None:
    slots = _all_slots(language)
    formatter = string.Formatter()
    for key, variants in horoscope_texts(language)["templates"].items():
        assert len(variants) >= 2, key
        assert len(set(variants)) == len(variants), key
        for template in variants:
            used = {field for _, field, _, _ in formatter.parse(template) if field}
            assert used <= set(slots), (key, used - set(slots))
            text = render(template, slots, language)
            assert "{" not in text, (key, text)
            assert "}" not in text, (key, text)
            if language == "th":
                assert _THAI.search(text), key
                assert set(_LATIN_WORD.findall(text)) <= {"UTC"}, (key, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_the_writer_can_use_exists(language: str) -> None:
    names = horoscope_texts(language)["names"]
    assert set(names["signs"]) == set(SIGNS)
    assert set(names["planets"]) == set(PLANETS)
    assert set(names["aspects"]) == set(ASPECTS) == set(names["aspect_phrases"])
    assert set(names["phases"]) == set(PHASES)
    assert set(names["houses"]) == set(names["ordinals"]) == {str(i) for i in range(1, 13)}
    assert set(names["houses_short"]) == set(names["houses"])
    assert set(names["colours"]) == {"sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn"}


_SPAN = [date(2025, 1, 1) + timedelta(days=i) for i in range(0, 120, 3)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_horoscopes_over_many_days_are_complete(language: str) -> None:
    for day in _SPAN:
        for horoscope in daily_horoscopes(day, language):
            for section in ("overall", *SECTIONS):
                part = getattr(horoscope, section)
                assert 1 <= part.rating <= 5
                assert len(part.text) > 60
                assert "{" not in part.text
                if language == "th":
                    assert set(_LATIN_WORD.findall(part.text)) <= {"UTC"}, part.text
            assert 11 <= horoscope.lucky_number <= 79
            assert horoscope.lucky_colour
            assert horoscope.facts[0].kind == "moon_sign"


def test_ratings_spread_over_a_year() -> None:
    seen_ratings: set[int] = set()
    for i in range(0, 365, 2):
        horoscope = daily_horoscope("leo", date(2024, 1, 1) + timedelta(days=i))
        seen_ratings |= {getattr(horoscope, s).rating for s in SECTIONS}
    assert seen_ratings >= {2, 3, 4}


def test_same_inputs_give_the_same_horoscope() -> None:
    first = daily_horoscope("scorpio", date(2025, 7, 4), "th")
    second = daily_horoscope("scorpio", date(2025, 7, 4), "th")
    assert first == second


def test_horoscope_is_the_same_in_another_process() -> None:
    code = (
        "import datetime, msgspec; from astro_calc.horoscope import daily_horoscope; "
        "print(msgspec.json.encode(daily_horoscope('pisces', datetime.date(2025, 2, 9), 'th'))"
        ".decode())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    here = msgspec.json.encode(daily_horoscope("pisces", date(2025, 2, 9), "th"))
    assert json.loads(out) == json.loads(here)


def test_wording_varies_across_days_and_signs() -> None:
    days = [daily_horoscope("aries", date(2025, 5, 1) + timedelta(days=i)) for i in range(30)]
    assert len({h.overall.text for h in days}) == 30
    signs = daily_horoscopes(date(2025, 5, 1))
    assert len({h.overall.text for h in signs}) == 12
    assert len({h.love.text for h in signs}) >= 6


def test_moon_house_is_the_solar_house_of_the_moons_sign() -> None:
    for horoscope in daily_horoscopes(date(2025, 3, 15)):
        assert horoscope.moon_house == solar_house(horoscope.moon_sign, horoscope.sign)
    assert solar_house("libra", "aries") == 7
    assert solar_house("aries", "pisces") == 2


def test_text_states_the_moon_sign_of_the_day() -> None:
    horoscope = daily_horoscope("virgo", date(2025, 3, 15), "en")
    assert horoscope.moon_sign == "libra"
    assert "Libra" in horoscope.overall.text
    thai = daily_horoscope("virgo", date(2025, 3, 15), "th")
    assert "ตุลย์" in thai.overall.text


def test_event_facts_are_stated_with_their_times() -> None:
    horoscope = daily_horoscope("virgo", date(2025, 3, 15), "en")
    station = next(f for f in horoscope.facts if f.kind == "station")
    assert station.bodies == ("mercury",)
    assert station.at.startswith("2025-03-15T06:46")
    assert "06:46 UTC" in horoscope.overall.text


def test_facts_encode_as_json() -> None:
    data = msgspec.to_builtins(daily_horoscope("gemini", date(2025, 1, 1)))
    assert data["date"] == "2025-01-01"
    assert all(f["at"].endswith("Z") for f in data["facts"])


@pytest.mark.parametrize(
    ("sign", "language", "field"), [("ophiuchus", "en", "sign"), ("leo", "fr", "language")]
)
def test_unknown_sign_or_language_names_the_field(sign: str, language: str, field: str) -> None:
    with pytest.raises(CalcInputError) as error:
        daily_horoscope(sign, date(2025, 1, 1), language)
    assert error.value.field == field


# --- times in the reader's zone (issue 35) -------------------------------------------------


def _event_times(horoscope: DailyHoroscope) -> list[datetime]:
    return [
        datetime.fromisoformat(f.at.replace("Z", "+00:00"))
        for f in horoscope.facts
        if f.kind in ("aspect", "ingress", "station", "lunation")
    ]


@pytest.mark.parametrize("zone_name", ["Asia/Bangkok", "America/Los_Angeles", "Asia/Kolkata"])
@pytest.mark.parametrize("language", ["en", "th"])
def test_times_in_the_readers_zone_are_the_facts_instants(zone_name: str, language: str) -> None:
    """Every time a text states, read back in the zone, is one of the day's event instants
    converted by zoneinfo (independently of the localizer): no UTC time and no "(UTC)" is left."""
    zone = ZoneInfo(zone_name)
    seen = 0
    for offset in range(0, 28, 3):
        day = date(2025, 3, 1) + timedelta(days=offset)
        for sign in ("aries", "virgo", "pisces"):
            horoscope = daily_horoscope(sign, day, language)
            content = localized_content(msgspec.to_builtins(horoscope), zone)
            expected = {
                (t.astimezone(zone).strftime("%H:%M"), t.astimezone(zone).day)
                for t in _event_times(horoscope)
            }
            for name in TEXT_SECTIONS:
                text = content[name]["text"]
                assert "UTC" not in text
                assert "เวลาสากล" not in text
                # English "13:46", Thai "13.46 น." (the Royal Institute's dot, issue 47)
                clock_form = r"(\d\d:\d\d)" if language == "en" else r"(\d\d\.\d\d) น\."
                pattern = clock_form + r"(?: (?:on|ของวันที่) (\d+))?"
                if language == "th":
                    assert not re.search(r"\d\d:\d\d", text), text
                for match in re.finditer(pattern, text):
                    clock, other_day = match.group(1).replace(".", ":"), match.group(2)
                    local_day = int(other_day) if other_day else day.day
                    assert (clock, local_day) in expected, (sign, day, text)
                    seen += 1
    assert seen > 10


def test_old_thai_utc_times_read_as_thai_words_and_bangkok_is_seven_hours_on() -> None:
    text = "ดาวพุธหยุดนิ่งเวลา 06:46 น. (UTC) และดาวจันทร์เข้าราศีเวลา 23:10 น. (UTC)"
    day = date(2025, 3, 15)
    assert localize_times(text, day, "th", ZoneInfo("UTC")) == (
        "ดาวพุธหยุดนิ่งเวลา 06.46 น. ตามเวลาสากล และดาวจันทร์เข้าราศีเวลา 23.10 น. ตามเวลาสากล"
    )
    assert localize_times(text, day, "th", ZoneInfo("Asia/Bangkok")) == (
        "ดาวพุธหยุดนิ่งเวลา 13.46 น. และดาวจันทร์เข้าราศีเวลา 06.10 น. ของวันที่ 16 มี.ค."
    )
    english = "Mercury stations at 06:46 UTC; the Moon enters Aries at 23:10 UTC."
    assert localize_times(english, day, "en", ZoneInfo("America/New_York")) == (
        "Mercury stations at 02:46; the Moon enters Aries at 19:10."
    )
    assert localize_times(english, day, "en", ZoneInfo("Asia/Tokyo")) == (
        "Mercury stations at 15:46; the Moon enters Aries at 08:10 on 16 Mar."
    )
