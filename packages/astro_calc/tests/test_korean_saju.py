"""Korean Saju against the Korean almanac and an independent Korean implementation.

* KASI almanac: the Korea Astronomy and Space Science Institute's lunar-solar service
  (LrsrCldInfoService.getSpcifyLunCalInfo) gives the day pillar (일진) of the first day of every
  lunar month 1900-2050: 1,867 published day pillars, as embedded in the korean-saju package.
* korean-saju (glee1228/korean_saju 0.3.0, MIT): pillars from KASI term times with local mean
  time on the birthplace meridian (AST = KST + 4 min per degree from 135 E) and 야자시
  separation: our ``hour_basis="mean"``, ``day_boundary="midnight"``; 600 random moments
  2000-2027 (its KASI term range), away from jie and hour boundaries by two minutes.
  The service is KASI's public "음양력 정보" API (https://www.data.go.kr/data/15012679/openapi.do:
  간지(세차/월건/일진) per date); korean-saju's data file names it as its source.
* A published Korean almanac (만세력) exercise with its answers
  (https://testsaju.tistory.com/35): day pillars of 1945-08-15 (병진), 1950-06-25 (신묘),
  1966-03-22 (경진), 1966-04-21 (경술), 1968-08-07 (기유), 1968-09-06 (기묘), and the year,
  month and day pillars of 1987-06-22 (정묘년 병오월 임인일).
* The worked example of korean-saju's documentation: 1994-04-28 23:40 KST Seoul gives 甲申 day
  and 丙子 hour with 야자시 separation, 乙酉 day without.
"""

from __future__ import annotations

import json
import random
from datetime import date, datetime, time, timedelta
from importlib import resources

import pytest
from korean_saju import Saju, load_bundled_data

from astro_calc.chinese.saju import korean_saju
from astro_calc.errors import CalcInputError


def test_day_pillars_match_the_kasi_almanac_1900_2050() -> None:
    path = resources.files("korean_saju").joinpath("data/kasi_lunar_1900_2050.json")
    months = json.loads(path.read_text("utf-8"))["months"]
    assert len(months) == 1867
    for m in months:
        day = date.fromisoformat(m["startSolar"])
        chart = korean_saju(day, time(12, 0))
        # "갑진(甲辰)": hangul then hanja.
        day_pillar = chart.bazi.pillars.day
        assert (
            f"{day_pillar.stem.hangul}{day_pillar.branch.hangul}({day_pillar.ganzhi})" == m["iljin"]
        )


def test_pillars_match_korean_saju_for_600_random_moments() -> None:
    _lunar, terms = load_bundled_data()
    rng = random.Random(9)
    seoul_lon = 126.9784
    checked = 0
    for _ in range(600):
        kst = datetime(2000, 2, 1) + timedelta(minutes=rng.randrange(0, 27 * 525_600))
        ours = korean_saju(
            kst.date(), kst.time(), longitude=seoul_lon, hour_basis="mean", offset_minutes=540
        )
        bazi = ours.bazi
        jd = bazi.pillar_time.local
        near_hour = (jd.hour % 2 == 1 and jd.minute < 2) or (jd.hour % 2 == 0 and jd.minute > 57)
        near_jie = (
            min(
                abs((bazi.birth.utc - bazi.previous_jie.utc).total_seconds()),
                abs((bazi.next_jie.utc - bazi.birth.utc).total_seconds()),
            )
            < 120
        )
        if near_hour or near_jie:
            continue
        theirs = Saju.from_birth(
            kst_moment=kst, solar_terms=terms, longitude=seoul_lon, yaja_si_separated=True
        )
        p = bazi.pillars
        assert [p.year.ganzhi, p.month.ganzhi, p.day.ganzhi, p.hour.ganzhi] == [
            theirs.year_pillar.hanja,
            theirs.month_pillar.hanja,
            theirs.day_pillar.hanja,
            theirs.hour_pillar.hanja,
        ], kst
        checked += 1
    assert checked > 550


def test_documented_yajasi_example() -> None:
    separated = korean_saju(date(1994, 4, 28), time(23, 40))
    assert separated.pillars_hanja == "甲戌年 戊辰月 甲申日 丙子時"
    assert separated.pillars_hangul == "갑술년 무진월 갑신일 병자시"
    unified = korean_saju(date(1994, 4, 28), time(23, 40), day_boundary="zi")
    assert unified.bazi.pillars.day.ganzhi == "乙酉"
    assert unified.bazi.pillars.hour.ganzhi == "丙子"


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(1945, 8, 15), "병진일"),
        (date(1950, 6, 25), "신묘일"),
        (date(1966, 3, 22), "경진일"),
        (date(1966, 4, 21), "경술일"),
        (date(1968, 8, 7), "기유일"),
        (date(1968, 9, 6), "기묘일"),
        (date(1987, 6, 22), "정묘년 병오월 임인일"),
    ],
)
def test_published_almanac_exercise(day: date, expected: str) -> None:
    # https://testsaju.tistory.com/35: answers of a 만세력 exercise (solar dates; noon in Seoul).
    chart = korean_saju(day, time(12, 0))
    assert expected in chart.pillars_hangul


def test_almanac_hours_start_at_half_past_under_kst() -> None:
    # 2024-05-01 (KST, UTC+9): 자시 begins 23:30; 23:29 is still 해시.
    before = korean_saju(date(2024, 5, 1), time(23, 29))
    after = korean_saju(date(2024, 5, 1), time(23, 30))
    assert before.bazi.pillars.hour.branch.hangul == "해"
    assert after.bazi.pillars.hour.branch.hangul == "자"
    assert after.standard_meridian_deg == 135.0


def test_almanac_hours_follow_the_1954_1961_meridian_and_daylight_saving() -> None:
    # 1958-01-10: Korea kept UTC+8:30 (127.5 E), no DST: 자시 from 23:00 on the clock.
    winter = korean_saju(date(1958, 1, 10), time(23, 5))
    assert winter.standard_meridian_deg == 127.5
    assert not winter.daylight_saving
    assert winter.bazi.pillars.hour.branch.hangul == "자"
    # 1987-07-01: KST with daylight saving (UTC+10): 12:00 on the clock is 10:30 almanac time.
    summer = korean_saju(date(1987, 7, 1), time(12, 0))
    assert summer.daylight_saving
    assert summer.standard_meridian_deg == 135.0
    assert summer.bazi.pillar_time.local == datetime(1987, 7, 1, 10, 30)
    assert summer.bazi.pillars.hour.branch.hangul == "사"


def test_names_carry_hangul_and_hanja() -> None:
    chart = korean_saju(date(1990, 1, 1), time(9, 0), gender="female")
    ten_gods = {h.ten_god.hangul for p in (chart.bazi.pillars.year,) for h in p.hidden_stems}
    assert ten_gods <= {
        "비견",
        "겁재",
        "식신",
        "상관",
        "편재",
        "정재",
        "편관",
        "정관",
        "편인",
        "정인",
    }
    assert chart.bazi.luck is not None
    assert chart.bazi.pillars.year.na_yin.hanja


def test_unknown_hour_basis_names_the_field() -> None:
    with pytest.raises(CalcInputError) as err:
        korean_saju(date(1990, 1, 1), time(9, 0), hour_basis="sundial")  # type: ignore[arg-type]
    assert err.value.field == "hour_basis"
