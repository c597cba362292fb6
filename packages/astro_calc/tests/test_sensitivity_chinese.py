"""Birth-time sensitivity of BaZi, Korean Saju and the Qi Men ju, checked by brute force and
against lunar-python's solar-term times.

Brute force: 200 random births per chart (seeded; 1900-2100; every solar-time mode or hour
basis, both day boundaries, both Qi Men methods), each crossing checked at ``at`` -+ 1 s with the
chart functions themselves (:func:`bazi_from_instant`, :func:`korean_saju`, and
:func:`ju_selection`, the first step of :func:`qimen_chart`, tied to it below), and the chart
sampled from the birth to each crossing or the horizon's edge: every 30 minutes for the pillars
(the shortest, the hour pillar, lasts two hours) and every 10 minutes for the ju.

lunar-python: for births within 12 hours of a jie (节), the month pillar's change must fall on
lunar-python's time of that jie within 10 s (its table is given to the second; the two
ephemerides agree to a few seconds before 2050, as ``test_chinese_solar_terms.py`` shows).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta, timezone

from lunar_python import Solar
from sensitivity_check import check_sensitivity, local_clock

from astro_calc.chinese import bazi_from_instant, korean_saju, qimen_chart
from astro_calc.chinese.pillars import DayBoundary, SolarTimeMode
from astro_calc.chinese.qimen import QimenMethod, ju_selection
from astro_calc.chinese.saju import HourBasis
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import bazi_sensitivity, qimen_sensitivity, saju_sensitivity
from astro_calc.time import ResolvedTime, resolve

HKT = timezone(timedelta(hours=8))
PILLAR_STEPS = {f"pillar.{p}": 1800.0 for p in ("year", "month", "day", "hour")}


def _moment(rng: random.Random, first_year: int = 1900) -> tuple[date, time]:
    start = date(first_year, 1, 1)
    day = start + timedelta(days=rng.randrange(0, (date(2100, 12, 31) - start).days))
    seconds = rng.randrange(0, 86_400)
    return day, time(seconds // 3600, seconds // 60 % 60, seconds % 60)


def _pillars(chart_pillars: object) -> dict[str, str]:
    return {
        f"pillar.{name}": getattr(chart_pillars, name).ganzhi
        for name in ("year", "month", "day", "hour")
    }


ValueAt = Callable[[datetime, str], str]


def _bazi_values(
    lat: float, lon: float, offset: int, solar_time: SolarTimeMode, boundary: DayBoundary
) -> ValueAt:
    """The pillars of :func:`bazi_from_instant` at an instant, the birth's offset kept."""
    charts: dict[datetime, dict[str, str]] = {}
    zone = timezone(timedelta(minutes=offset))

    def value(moment: datetime, result: str) -> str:
        if moment not in charts:
            local = local_clock(offset, moment).replace(tzinfo=zone)
            resolved = ResolvedTime(moment, local, offset, None, "offset")
            chart = bazi_from_instant(
                resolved, latitude=lat, longitude=lon, day_boundary=boundary, solar_time=solar_time
            )
            charts[moment] = _pillars(chart.pillars)
        return charts[moment][result]

    return value


def _saju_values(offset: int, basis: HourBasis, boundary: DayBoundary) -> ValueAt:
    """The pillars of :func:`korean_saju` at an instant, the birth's offset kept."""
    charts: dict[datetime, dict[str, str]] = {}

    def value(moment: datetime, result: str) -> str:
        if moment not in charts:
            local = local_clock(offset, moment)
            chart = korean_saju(
                local.date(),
                local.time(),
                offset_minutes=offset,
                hour_basis=basis,
                day_boundary=boundary,
            )
            charts[moment] = _pillars(chart.bazi.pillars)
        return charts[moment][result]

    return value


def _ju_values(offset: int, method: QimenMethod, boundary: DayBoundary) -> ValueAt:
    def value(moment: datetime, result: str) -> str:
        j = ju_selection(moment, local_clock(offset, moment), offset, method, boundary)
        return f"{j.dun} {j.ju}"

    return value


def test_every_crossing_of_200_random_bazi_charts_matches_brute_force() -> None:
    rng = random.Random(34)
    problems: list[str] = []
    for _ in range(200):
        day, clock = _moment(rng)
        lat, lon = rng.uniform(-50.0, 55.0), rng.uniform(-180.0, 180.0)
        offset = round(lon / 15.0) * 60
        solar_time: SolarTimeMode = rng.choice(("clock", "mean", "true"))
        boundary: DayBoundary = rng.choice(("zi", "midnight"))
        answer = bazi_sensitivity(
            day,
            clock,
            latitude=lat,
            longitude=lon,
            offset_minutes=offset,
            solar_time=solar_time,
            day_boundary=boundary,
            uncertainty_minutes=120,
        )
        birth = resolve(day, clock, offset_minutes=offset).utc
        value = _bazi_values(lat, lon, offset, solar_time, boundary)
        label = f"{day} {clock} {offset} {lon:.2f} {solar_time} {boundary}"
        problems += check_sensitivity(answer, birth, value, PILLAR_STEPS, label)
    assert not problems, "\n".join(problems[:20])


def test_every_crossing_of_200_random_saju_charts_matches_brute_force() -> None:
    rng = random.Random(35)
    problems: list[str] = []
    checked = 0
    while checked < 200:
        # From 1910: before 1908 Seoul kept local mean time, an offset in seconds that
        # korean_saju's whole-minute offset_minutes cannot reproduce for the brute force.
        day, clock = _moment(rng, 1910)
        basis: HourBasis = rng.choice(("korean_almanac", "clock", "mean", "true"))
        boundary: DayBoundary = rng.choice(("zi", "midnight"))
        try:
            resolved = resolve(
                day, clock, latitude=37.5665, longitude=126.978, timezone_name="Asia/Seoul"
            )
        except CalcInputError:
            continue  # a local time skipped by Korean daylight saving
        checked += 1
        answer = saju_sensitivity(
            day, clock, hour_basis=basis, day_boundary=boundary, uncertainty_minutes=30
        )
        value = _saju_values(resolved.offset_minutes, basis, boundary)
        label = f"{day} {clock} Seoul {basis} {boundary}"
        problems += check_sensitivity(answer, resolved.utc, value, PILLAR_STEPS, label)
    assert not problems, "\n".join(problems[:20])


def test_the_ju_of_ju_selection_is_qimen_chart_s() -> None:
    rng = random.Random(36)
    for _ in range(100):
        day, clock = _moment(rng)
        method = rng.choice(("chai_bu", "zhi_run"))
        boundary = rng.choice(("zi", "midnight"))
        chart = qimen_chart(day, clock, offset_minutes=480, method=method, day_boundary=boundary)
        local = datetime.combine(day, clock)
        j = ju_selection(chart.utc, local, 480, method, boundary)
        assert (j.dun, j.ju, j.yuan, j.ju_term) == (
            chart.dun,
            chart.ju,
            chart.yuan,
            chart.ju_solar_term,
        )


def test_every_crossing_of_200_random_qimen_charts_matches_brute_force() -> None:
    rng = random.Random(37)
    problems: list[str] = []
    changes = 0
    for _ in range(200):
        day, clock = _moment(rng)
        offset = rng.choice((420, 480, 540))
        method: QimenMethod = rng.choice(("chai_bu", "zhi_run"))
        boundary: DayBoundary = rng.choice(("zi", "midnight"))
        answer = qimen_sensitivity(
            day, clock, offset_minutes=offset, method=method, day_boundary=boundary
        )
        birth = resolve(day, clock, offset_minutes=offset).utc

        value = _ju_values(offset, method, boundary)
        label = f"{day} {clock} {offset} {method} {boundary}"
        problems += check_sensitivity(answer, birth, value, {"qimen.ju": 600.0}, label)
        changes += sum(
            c is not None for c in (answer.items[0].changes_before, answer.items[0].changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 30  # a ju changes with the yuan (every fifth day) and at the terms


def test_month_pillar_changes_at_lunar_python_s_jie_times() -> None:
    """For 60 jie 1901-2049 (seeded), births drawn within 12 hours before or after lunar-python's
    time of the jie: the reported month-pillar change is at that time within 10 s."""
    rng = random.Random(38)
    checked = 0
    for _ in range(60):
        year = rng.randrange(1901, 2050)
        table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
        name = rng.choice(
            ("立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪")
        )
        s = table[name]
        jie = datetime(
            s.getYear(),
            s.getMonth(),
            s.getDay(),
            s.getHour(),
            s.getMinute(),
            s.getSecond(),
            tzinfo=HKT,
        )
        birth = jie + timedelta(seconds=rng.uniform(-12 * 3600, 12 * 3600))
        birth = birth.replace(microsecond=0)
        local = birth.astimezone(HKT)
        answer = bazi_sensitivity(
            local.date(), local.time(), latitude=39.9, longitude=116.4, offset_minutes=480
        )
        month = next(i for i in answer.items if i.result == "pillar.month")
        change = month.changes_after if birth < jie else month.changes_before
        assert change is not None, (name, year, birth)
        assert abs((change.at - jie).total_seconds()) <= 10, (name, year, change.at, jie)
        year_item = next(i for i in answer.items if i.result == "pillar.year")
        year_change = year_item.changes_after if birth < jie else year_item.changes_before
        assert (year_change is not None) == (name == "立春")
        checked += 1
    assert checked == 60


def test_a_birth_ten_minutes_before_the_hour_pillar_changes() -> None:
    answer = bazi_sensitivity(
        date(1990, 5, 17),
        time(14, 50),
        latitude=39.9,
        longitude=116.4,
        offset_minutes=480,
        uncertainty_minutes=15,
    )
    hour = next(i for i in answer.items if i.result == "pillar.hour")
    assert hour.value == "丁未"
    assert hour.changes_after is not None
    assert hour.changes_after.minutes == 10.0
    assert hour.changes_after.to == "戊申"
    assert hour.changes_after.at == datetime(1990, 5, 17, 7, 0, tzinfo=UTC)
    assert not hour.certain
    assert answer.uncertain == ("pillar.hour",)
