"""Qi Men Dun Jia charts.

chai_bu: against the independent qimen-rs engine (SpenserCai/qimen-rs 0.2.1, MIT; hour-school
chai bu on the rotating plate with the same stated conventions: centre lodged in 坤, 天禽 with
天芮, void and horse from the hour) for 2,000 random hours 1950-2050 in UTC+8: dun, yuan, ju,
chief star and door palaces, and for every palace the earth stem, heaven stems, stars, door and
deity.

zhi_run: no installable library implements the 置闰 chain (qimen-rs is chai bu only; kinqimen
0.0.6.6 needs an sxtwl that does not build here and its 置闰 is a day-count heuristic, not the
符头 chain), so it is checked against
* the published worked examples of 易德轩 (https://qimen.yi958.com/Article_448.html: 大雪 1898
  repeated) and of the article on 超神/接气/置闰 (https://retarot.com/qimendunjia/13774: 立春 1995
  taken up early by the 甲子 符头, yang ju 8);
* an independent implementation of the published rule written here with another structure (a
  schedule per solar TERM of its first 符头, on lunar-python's term times and day cycle, with the
  ju table typed from the published mnemonic), compared on every day 1950-2050 for term, yuan,
  yin/yang dun and ju, and by it the palace layout equals the chai_bu layout of that dun and ju.
"""

from __future__ import annotations

import bisect
import random
import unicodedata
from datetime import date, datetime, time, timedelta

import pytest
from lunar_python import Solar
from qimen_rs import calculate

from astro_calc.chinese.qimen import qimen_chart
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


# --- zhi_run --------------------------------------------------------------------------------------

# The ju mnemonic as published (https://www.51dongshi.net/wzztf/rcdav/rcdavdehv): 阳遁 冬至、
# 惊蛰 一七四, 小寒 二八五, 大寒、春分 三九六, 雨水 九六三, 清明、立夏 四一七, 立春 八五二,
# 谷雨、小满 五二八, 芒种 六三九; 阴遁 夏至、白露 九三六, 小暑 八二五, 大暑、秋分 七一四,
# 立秋 二五八, 寒露、立冬 六九三, 处暑 一四七, 霜降、小雪 五八二, 大雪 四七一.
_MNEMONIC = {
    "冬至": "174", "惊蛰": "174", "小寒": "285", "大寒": "396", "春分": "396", "雨水": "963",
    "清明": "417", "立夏": "417", "立春": "852", "谷雨": "528", "小满": "528", "芒种": "639",
    "夏至": "936", "白露": "936", "小暑": "825", "大暑": "714", "秋分": "714", "立秋": "258",
    "寒露": "693", "立冬": "693", "处暑": "147", "霜降": "582", "小雪": "582", "大雪": "471",
}  # fmt: skip
# Term order from 冬至, the first yang term; the yin half starts at 夏至 (position 12).
_TERMS_FROM_DONGZHI = (
    "冬至小寒大寒立春雨水惊蛰春分清明谷雨立夏小满芒种"  # yang dun
    "夏至小暑大暑立秋处暑白露秋分寒露霜降立冬小雪大雪"  # yin dun
)
_ORDER = tuple(_TERMS_FROM_DONGZHI[i : i + 2] for i in range(0, 48, 2))
_YUAN = ("upper", "middle", "lower")


class _ZhiRunOracle:
    """The published 置闰 rule, built as a schedule per solar term.

    Terms are numbered continuously (k = 24 * year + position from 冬至, the 冬至 of December of
    year y - 1 being position 0 of "year" y) with their civil dates in Beijing time from
    lunar-python. The upper-yuan 符头 (甲子 己卯 甲午 己酉) fall every 15 days; each term gets the
    first 符头 after the previous term's blocks (one block, two if it was repeated). A term is
    repeated when it is 芒种 or 大雪 and its first 符头 comes 9 or more days before its date."""

    def __init__(self, first_year: int, last_year: int) -> None:
        days: dict[int, date] = {}
        for y in range(first_year - 1, last_year + 2):
            for name, solar in Solar.fromYmd(y, 7, 1).getLunar().getJieQiTable().items():
                if name in _ORDER:
                    d = date(solar.getYear(), solar.getMonth(), solar.getDay())
                    year = d.year + 1 if name == "冬至" else d.year
                    days[24 * year + _ORDER.index(name)] = d
        self.term_day = days
        jiazi = date(2000, 1, 1)
        while (
            Solar.fromYmd(jiazi.year, jiazi.month, jiazi.day).getLunar().getDayInGanZhi() != "甲子"
        ):
            jiazi += timedelta(days=1)
        self.grid = jiazi.toordinal() % 15  # ordinals of 符头 days are = grid (mod 15)
        keys = sorted(days)
        k0 = keys[0]
        # Start with the 符头 on or before the first 冬至; a wrong start is absorbed by the
        # first leap, years before the range compared.
        first = days[k0].toordinal() - (days[k0].toordinal() - self.grid) % 15
        self.schedule: list[tuple[int, int, int]] = []  # (first 符头 ordinal, term k, blocks)
        for k in keys:
            lead = days[k].toordinal() - first
            repeated = _ORDER[k % 24] in ("芒种", "大雪") and lead >= 9
            blocks = 2 if repeated else 1
            self.schedule.append((first, k, blocks))
            first += 15 * blocks
        self.heads = [h for h, _, _ in self.schedule]

    def ju(self, d: date) -> tuple[str, str, str, int]:
        """(term, yuan, dun, ju) of a civil day."""
        n = d.toordinal()
        head, k, _ = self.schedule[bisect.bisect_right(self.heads, n) - 1]
        yuan = ((n - head) % 15) // 5
        name = _ORDER[k % 24]
        dun = "yang" if k % 24 < 12 else "yin"
        return name, _YUAN[yuan], dun, int(_MNEMONIC[name][yuan])


def test_zhi_run_published_1898_daxue_leap() -> None:
    # 易德轩 "置闰" (https://qimen.yi958.com/Article_448.html): 大雪 on 1898-12-07 (甲辰); its 符头
    # 甲午 on 1898-11-27 is 大雪 上元, 己亥 12-02 中元, 甲辰 12-07 下元, then 己酉 12-12 上元 again,
    # 甲寅 12-17 中元, 己未 12-22 下元: 大雪 used twice. 大雪 is yin dun 4 7 1.
    expected = [("upper", 4), ("middle", 7), ("lower", 1)] * 2
    for k, (yuan, ju) in enumerate(expected):
        for offset in range(5):
            d = date(1898, 11, 27) + timedelta(days=5 * k + offset)
            chart = qimen_chart(d, time(12, 0), offset_minutes=480, method="zhi_run")
            assert chart.ju_solar_term.character == "大雪", d
            assert (chart.dun, chart.yuan, chart.ju) == ("yin", yuan, ju), d
    assert qimen_chart(date(1898, 11, 27), time(12), offset_minutes=480).pillars[2] == "甲午"
    # After the leap 冬至 (1898-12-22) is taken up late (接气) by the 甲子 符头 of 12-27.
    chart = qimen_chart(date(1898, 12, 27), time(12, 0), offset_minutes=480, method="zhi_run")
    assert (chart.ju_solar_term.character, chart.dun, chart.yuan, chart.ju) == (
        "冬至",
        "yang",
        "upper",
        1,
    )


def test_zhi_run_published_1995_lichun_chao_shen() -> None:
    # https://retarot.com/qimendunjia/13774 (超神、接氣與置閏): 立春 on 1995-02-04 (丙寅); its 符头
    # 甲子 two days earlier (1995-02-02) already opens 立春 上元, yang dun ju 8 (超神).
    for d in (date(1995, 2, 2), date(1995, 2, 3), date(1995, 2, 4)):
        chart = qimen_chart(d, time(10, 0), offset_minutes=480, method="zhi_run")
        assert chart.ju_solar_term.character == "立春", d
        assert (chart.dun, chart.yuan, chart.ju) == ("yang", "upper", 8), d
    assert qimen_chart(date(1995, 2, 2), time(10), offset_minutes=480).pillars[2] == "甲子"
    # chai_bu keeps 大寒 until the term's instant (15:12 Beijing time): 大寒 上元 is yang 3.
    chai_bu = qimen_chart(date(1995, 2, 3), time(10, 0), offset_minutes=480)
    assert (chai_bu.solar_term.character, chai_bu.ju) == ("大寒", 3)


def test_zhi_run_matches_independent_schedule_every_day_1950_2050() -> None:
    oracle = _ZhiRunOracle(1940, 2051)
    d, end = date(1950, 1, 1), date(2050, 12, 31)
    kinds = {"超神": 0, "接气": 0}
    while d <= end:
        chart = qimen_chart(d, time(12, 0), offset_minutes=480, method="zhi_run")
        name, yuan, dun, ju = oracle.ju(d)
        got = (chart.ju_solar_term.character, chart.yuan, chart.dun, chart.ju)
        assert got == (name, yuan, dun, ju), d
        if chart.ju_solar_term.jd_ut > chart.utc.timestamp() / 86400 + 2440587.5:
            kinds["超神"] += 1
        elif chart.ju_solar_term.jd_ut < chart.solar_term.jd_ut:
            kinds["接气"] += 1
        d += timedelta(days=1)
    # The leap (a repeated 芒种 or 大雪) comes about every 2.9 years: about 35 in 101 years.
    repeated = [k for _, k, blocks in oracle.schedule if blocks == 2 and 1950 <= k // 24 <= 2050]
    assert 33 <= len(repeated) <= 36
    assert {_ORDER[k % 24] for k in repeated} == {"芒种", "大雪"}
    assert kinds["超神"] > 5000
    assert kinds["接气"] > 1000


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
