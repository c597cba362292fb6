"""Qi Men Dun Jia charts.

chai_bu: against the independent qimen-rs engine (SpenserCai/qimen-rs 0.2.1, MIT; hour-school
chai bu on the rotating plate with the same stated conventions: centre lodged in 坤, 天禽 with
天芮, void and horse from the hour) for 2,000 random hours 1950-2050 in UTC+8: dun, yuan, ju,
chief star and door palaces, and for every palace the earth stem, heaven stems, stars, door and
deity.

zhi_run: no independent implementation of the 置闰 chain installs here, so it is checked against
its defining rules: blocks open on upper-yuan 符头 days, the leap falls only at 芒种 or 大雪,
about every 2.9 years, and on every day whose block term is the term in force the ju equals the
chai_bu ju (which qimen-rs checks).
"""

from __future__ import annotations

import itertools
import random
import unicodedata
from datetime import date, datetime, time, timedelta

import pytest
from qimen_rs import calculate

from astro_calc.chinese.qimen import _zhi_run_blocks, qimen_chart
from astro_calc.chinese.solar_terms import civil_date, solar_terms
from astro_calc.chinese.symbols import day_cycle_index
from astro_calc.errors import CalcInputError

DEITY = {
    "chief": "zhi_fu",
    "serpent": "teng_she",
    "moon": "tai_yin",
    "six_harmony": "liu_he",
    "white_tiger": "bai_hu",
    "black_tortoise": "xuan_wu",
    "nine_earth": "jiu_di",
    "nine_heaven": "jiu_tian",
}
DOOR = {
    "rest": "xiu",
    "death": "si",
    "harm": "shang",
    "delusion": "du",
    "open": "kai",
    "fear": "jing",
    "life": "sheng",
    "view": "scene",
}


def _plain(pinyin: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", pinyin) if unicodedata.category(c) != "Mn"
    )


def test_chai_bu_matches_qimen_rs_for_2000_random_hours() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        d = datetime(1950, 1, 1) + timedelta(minutes=rng.randrange(0, 100 * 525_600))
        ours = qimen_chart(d.date(), d.time(), offset_minutes=480)
        theirs = calculate(
            {
                "year": d.year,
                "month": d.month,
                "day": d.day,
                "hour": d.hour,
                "minute": d.minute,
                "utc_offset_minutes": 480,
                "day_boundary": "zi_start",
            }
        )
        assert (ours.dun, ours.yuan, ours.ju) == (theirs["dun"], theirs["yuan"], theirs["ju"]), d
        leaders = theirs["leaders"]
        assert ours.chief.star.key == leaders["star"]
        assert DOOR[ours.chief.door.key] == leaders["door"]
        assert (ours.chief.star_palace, ours.chief.door_palace) == (
            leaders["star_palace"],
            leaders["door_palace"],
        )
        assert _plain(ours.horse_star.pinyin) == theirs["horse"]["branch"]
        assert [_plain(b.pinyin) for b in ours.void_branches] == theirs["xun"]["void_branches"]
        for p, q in zip(ours.palaces, theirs["palaces"], strict=True):
            assert _plain(p.earth_stem.pinyin) == q["earth_stem"]
            assert [_plain(s.pinyin) for s in p.heaven_stems] == [
                h["stem"] for h in q["heaven_stems"]
            ]
            assert [s.key for s in p.stars] == q["stars"]
            assert (DOOR[p.door.key] if p.door else None) == q["door"]
            assert (DEITY[p.deity.key] if p.deity else None) == q["deity"]
            assert p.is_horse == q["is_horse"]


def test_published_example_2024_02_10_noon() -> None:
    # qimen-rs README example (2024-02-10 12:00 UTC+8): 立春 lower yuan, yang dun ju 2,
    # chief star 天芮 over palace 4, chief door 死门 in palace 8.
    chart = qimen_chart(date(2024, 2, 10), time(12, 0), offset_minutes=480)
    assert chart.solar_term.character == "立春"
    assert (chart.dun, chart.yuan, chart.ju) == ("yang", "lower", 2)
    assert chart.pillars == ("甲辰", "丙寅", "甲辰", "庚午")
    assert chart.xun_head == "甲子"
    assert chart.xun_hidden_stem.character == "戊"
    assert (chart.chief.star.character, chart.chief.star_palace) == ("天芮", 4)
    assert (chart.chief.door.character, chart.chief.door_palace) == ("死门", 8)
    assert [b.character for b in chart.void_branches] == ["戌", "亥"]
    assert (chart.horse_star.character, chart.horse_palace) == ("申", 2)
    assert chart.palaces[1].earth_stem_hosted is not None  # palace 2 hosts the centre's stem
    assert chart.palaces[4].door is None
    assert chart.palaces[4].stars == ()


def test_zhi_run_blocks_start_on_upper_yuan_heads_and_leap_only_at_mangzhong_daxue() -> None:
    leaps = 0
    for year in range(1901, 2101):
        blocks = _zhi_run_blocks(year, 480.0)
        for (h, ty, ti), (h2, ty2, ti2) in itertools.pairwise(blocks):
            assert day_cycle_index(h) % 15 == 0
            assert (h2 - h).days == 15
            if (ty, ti) == (ty2, ti2) and h2.year == year:
                leaps += 1
                assert solar_terms(ty)[ti].character in ("芒种", "大雪")
                nxt = solar_terms(ty + 1)[0] if ti == 23 else solar_terms(ty)[ti + 1]
                assert (civil_date(nxt.jd_ut, 480.0) - h2).days > 9
    assert 65 <= leaps <= 72  # one leap per ~2.9 years over 200 years


def test_zhi_run_equals_chai_bu_when_the_block_term_is_in_force() -> None:
    rng = random.Random(5)
    agreed = 0
    for _ in range(400):
        d = datetime(1960, 1, 1, 12) + timedelta(days=rng.randrange(0, 80 * 365))
        zr = qimen_chart(d.date(), d.time(), offset_minutes=480, method="zhi_run")
        cb = qimen_chart(d.date(), d.time(), offset_minutes=480)
        assert zr.yuan == cb.yuan
        if zr.ju_solar_term.jd_ut == cb.solar_term.jd_ut:
            assert (zr.dun, zr.ju, zr.palaces) == (cb.dun, cb.ju, cb.palaces)
            agreed += 1
        else:  # 超神 uses the coming term, 接气 or 置闰 the previous one
            gap = abs(zr.ju_solar_term.jd_ut - cb.solar_term.jd_ut)
            assert 13 < gap < 17
    assert agreed > 150


def test_unknown_method_names_the_field() -> None:
    with pytest.raises(CalcInputError) as err:
        qimen_chart(date(2024, 1, 1), time(0, 0), offset_minutes=480, method="fly")  # type: ignore[arg-type]
    assert err.value.field == "method"
