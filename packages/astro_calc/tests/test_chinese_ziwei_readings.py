"""Readings of a Zi Wei chart: which texts a chart gets, that every text exists in both
languages and is filled in, and that none uses a spelling the glossary forbids."""

from __future__ import annotations

import random
from datetime import date, time, timedelta

from astro_calc import glossary
from astro_calc.chinese.ziwei import ziwei_chart
from astro_calc.chinese.ziwei_readings import TEXTS, producible_keys, ziwei_readings


def test_the_x_iztro_readme_chart_reads_zi_wei_four_transformations_and_the_career_body() -> None:
    """2000-08-16 Yin hour, female (see test_chinese_ziwei): Zi Wei alone in the life palace,
    Tai Yang Lu in Children, Wu Qu Quan in Wealth, Tai Yin Ke in Friends, Tian Tong Ji in
    Health, the body palace in Career."""
    readings = ziwei_readings(ziwei_chart(date(2000, 8, 16), time(4, 0), "female"))
    assert [r.key for r in readings] == [
        "life.ziwei",
        "transformation.lu.taiyang.children",
        "transformation.quan.wuqu.wealth",
        "transformation.ke.taiyin.friends",
        "transformation.ji.tiantong.health",
        "body.career",
    ]
    lu = readings[1]
    assert lu.en.startswith("Hua Lu (Prosperity) falls on Tai Yang in the Children palace")
    assert "ดาวไท่หยางในวังบุตร" in lu.th


def test_an_empty_life_palace_gets_the_borrowed_star_reading() -> None:
    rng = random.Random(3)
    while True:
        birth = date(1950, 1, 1) + timedelta(days=rng.randrange(20_000))
        chart = ziwei_chart(birth, time(rng.randrange(24)), "male")
        if not chart.palaces[0].major_stars:
            break
    assert ziwei_readings(chart)[0].key == "life.empty"


def test_every_text_exists_in_both_languages_and_is_filled_in() -> None:
    assert producible_keys() <= set(TEXTS)
    rng = random.Random(8)
    for _ in range(200):
        birth = date(1900, 3, 1) + timedelta(days=rng.randrange(73_000))
        for r in ziwei_readings(ziwei_chart(birth, time(rng.randrange(24)), "female")):
            assert r.en.strip()
            assert r.th.strip()
            assert "{" not in r.en + r.th, r.key


def test_no_text_uses_a_forbidden_spelling() -> None:
    for key, text in TEXTS.items():
        assert glossary.find_forbidden(text["th"]) == [], key
        assert glossary.find_forbidden(text["en"]) == [], key
