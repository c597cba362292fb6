"""Readings: every key the code can produce has English and Thai text, and charts use them."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from astro_calc.chinese.bazi import bazi_chart
from astro_calc.chinese.readings import TEXTS, bazi_readings, producible_keys


def _has_thai(text: str) -> bool:
    return any("\u0e00" <= c <= "\u0e7f" for c in text)


def test_every_producible_key_has_english_and_thai() -> None:
    keys = producible_keys()
    assert len(keys) == 43
    for key in keys:
        assert TEXTS[key]["en"].strip(), key
        assert _has_thai(TEXTS[key]["th"]), key
    assert set(TEXTS) == keys  # no orphan texts either


def test_random_charts_only_produce_known_keys_and_cover_every_topic() -> None:
    rng = random.Random(4)
    seen: set[str] = set()
    topics: set[str] = set()
    for i in range(400):
        d = datetime(1930, 1, 1) + timedelta(minutes=rng.randrange(0, 90 * 525_600))
        chart = bazi_chart(
            d.date(),
            d.time(),
            latitude=13.75,
            longitude=100.5,
            offset_minutes=420,
            gender="female" if i % 2 else "male",
            reference_date=date(2025, 6, 1),
        )
        for r in bazi_readings(chart):
            assert r.key in producible_keys()
            assert r.en == TEXTS[r.key]["en"]
            assert r.th == TEXTS[r.key]["th"]
            seen.add(r.key)
            topics.add(r.topic)
    assert topics == {
        "day_master",
        "strength",
        "element_balance",
        "ten_god_emphasis",
        "luck_pillar",
    }
    assert {k for k in seen if k.startswith("day_master.")} == {
        k for k in producible_keys() if k.startswith("day_master.")
    }


def test_bruce_lee_readings() -> None:
    chart = bazi_chart(
        date(1940, 11, 27),
        datetime(2000, 1, 1, 7, 12).time(),
        latitude=37.79,
        longitude=-122.41,
        timezone_name="America/Los_Angeles",
        gender="male",
        reference_date=date(1970, 1, 1),
    )
    keys = [r.key for r in bazi_readings(chart)]
    assert keys[0] == "day_master.jia"
    assert keys[1] == "strength.weak"
    assert keys[-1].startswith("luck.")
