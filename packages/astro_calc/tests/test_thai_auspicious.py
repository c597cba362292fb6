"""Auspicious timing: the documented rules, the range limit and text coverage."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.thai.auspicious import PURPOSES, auspicious_times
from astro_calc.thai.taksa import wheel_for_day
from astro_calc.thai.texts import texts


def test_366_days_are_accepted_and_367_refused_on_end_date() -> None:
    start = date(2025, 1, 1)
    assert auspicious_times(start, start + timedelta(days=365), "travel").days_examined == 366
    with pytest.raises(CalcInputError) as err:
        auspicious_times(start, start + timedelta(days=366), "travel")
    assert err.value.field == "end_date"


def test_unknown_purpose_is_refused() -> None:
    with pytest.raises(CalcInputError) as err:
        auspicious_times(date(2025, 1, 1), date(2025, 1, 2), "divorce")
    assert err.value.field == "purpose"


def test_wedding_days_follow_the_rules() -> None:
    result = auspicious_times(date(2025, 1, 1), date(2025, 12, 31), "wedding")
    assert result.auspicious_days
    for day in result.auspicious_days:
        lunar = day.lunar_date
        assert lunar.phase == "waxing"
        assert not lunar.wan_phra
        assert lunar.lunar_month % 2 == 0 or lunar.lunar_month == 9
        assert day.weekday not in ("tuesday", "saturday")
        assert day.windows


def test_makha_bucha_2025_is_avoided_for_weddings_as_wan_phra() -> None:
    result = auspicious_times(date(2025, 2, 12), date(2025, 2, 12), "wedding")
    keys = {r.key for r in result.avoided_days[0].reasons}
    assert "wan_phra_avoid" in keys


def test_person_kalakini_weekday_is_avoided() -> None:
    # Born on a Sunday: kalakini is Venus, so Fridays are avoided.
    result = auspicious_times(
        date(2025, 3, 1), date(2025, 3, 31), "travel",
        birth_date=date(1990, 1, 7), birth_time=time(10, 0),
    )  # fmt: skip
    fridays = [d for d in result.avoided_days if d.weekday == "friday"]
    assert len(fridays) == 4
    assert all("person_kalakini_day" in {r.key for r in d.reasons} for d in fridays)
    assert not [d for d in result.auspicious_days if d.weekday == "friday"]


def test_watches_are_ruled_in_the_atthakan_order() -> None:
    # Sunday, no person: the watches run Sun, Venus, Mercury, Moon, Saturn, Jupiter, Mars, Sun;
    # Sunday's own wheel puts Mercury in si, Mars in det, Rahu in montri, Moon in ayu.
    result = auspicious_times(date(2025, 1, 5), date(2025, 1, 5), "travel")
    windows = result.auspicious_days[0].windows
    assert [(w.start, w.planet) for w in windows] == [
        ("09:00", "mercury"), ("10:30", "moon"), ("15:00", "mars"),
    ]  # fmt: skip


def test_ordination_avoided_during_the_rains_retreat() -> None:
    result = auspicious_times(date(2025, 8, 1), date(2025, 8, 31), "ordination")
    assert not result.auspicious_days


def test_every_producible_text_key_has_thai_and_english() -> None:
    data = texts()
    keys: set[tuple[str, str]] = set()
    for purpose in PURPOSES:
        keys.add(("purpose", purpose))
        res = auspicious_times(date(2024, 1, 1), date(2024, 12, 31), purpose,
                               birth_date=date(1990, 1, 7), birth_time=time(10, 0))  # fmt: skip
        res2 = auspicious_times(date(2025, 1, 1), date(2025, 12, 31), purpose)
        for day in (
            res.auspicious_days + res.avoided_days + res2.auspicious_days + res2.avoided_days
        ):
            keys.update(("reason", r.key) for r in day.reasons)
            keys.update(("reason", w.reason.key) for w in day.windows)
    for day_key in ("sunday", "monday", "tuesday", "wednesday", "wednesday_night",
                    "thursday", "friday", "saturday"):  # fmt: skip
        keys.add(("weekday", day_key))
        for p in wheel_for_day(day_key):
            keys.update({("position", p.position), ("planet", p.planet), ("colour", p.planet),
                         ("year_outlook", p.position)})  # fmt: skip
    for group in ("year_type", "phase", "animal", "moon_phase", "festival"):
        keys.update((group, k) for k in data[group])
    for group, key in keys:
        entry = data[group][key]
        assert entry["th"].strip(), (group, key)
        assert entry["en"].strip(), (group, key)
    for entry in data["position"].values():
        assert entry["meaning_th"]
        assert entry["meaning_en"]
    # every reason in the data is actually produced somewhere
    assert {k for g, k in keys if g == "reason"} == set(data["reason"])
