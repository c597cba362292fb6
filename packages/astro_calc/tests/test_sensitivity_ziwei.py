"""Birth-time sensitivity of the Zi Wei chart (hour branch, life and body palaces), checked by
brute force with the chart function itself (tests/sensitivity_check.py): 40 random births
1900-2100 (seeded), both late-Zi rules, each change checked at ``at`` -+ 1 s and the chart
sampled every 30 minutes from the birth to the change or the horizon's edge (the shortest state,
early or late Zi, lasts an hour)."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest
from sensitivity_check import check_sensitivity

from astro_calc.chinese.ziwei import LateZi, ziwei_chart
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import ziwei_sensitivity

STEPS = {
    "ziwei.hour_branch": 1800.0,
    "ziwei.life_palace_branch": 1800.0,
    "ziwei.body_palace_branch": 1800.0,
}


def _births() -> list[tuple[date, time, int, LateZi]]:
    rng = random.Random(11)
    out = []
    for k in range(40):
        day = date(1900, 3, 1) + timedelta(days=rng.randrange(73_000))
        seconds = rng.randrange(86_400)
        at = time(seconds // 3600, seconds // 60 % 60, seconds % 60)
        rule: LateZi = "same_day" if k % 4 == 0 else "next_day_stars"
        out.append((day, at, rng.choice((420, 480, 540, -300)), rule))
    return out


@pytest.mark.parametrize(("birth", "at", "offset", "late_zi"), _births())
def test_each_change_is_where_the_chart_changes(
    birth: date, at: time, offset: int, late_zi: LateZi
) -> None:
    answer = ziwei_sensitivity(
        birth, at, "female", offset_minutes=offset, late_zi=late_zi, horizon_minutes=240
    )
    zone = timezone(timedelta(minutes=offset))
    birth_utc = datetime.combine(birth, at, zone).astimezone(UTC)

    def value_at(moment: datetime, result: str) -> str:
        local = moment.astimezone(zone)
        chart = ziwei_chart(local.date(), local.time(), "female", late_zi=late_zi)
        return str(getattr(chart, result.removeprefix("ziwei.")))

    assert check_sensitivity(answer, birth_utc, value_at, STEPS, str(birth)) == []


def test_a_birth_at_quarter_to_nine_changes_hour_and_palaces_at_nine() -> None:
    """07:00-09:00 is the Chen hour; at 09:00 (01:00 UTC at UTC+8) the Si hour begins and the
    life palace steps back one branch, the body palace forward one."""
    answer = ziwei_sensitivity(
        date(1990, 5, 1), time(8, 45), "male", offset_minutes=480, uncertainty_minutes=20
    )
    by = {i.result: i for i in answer.items}
    hour = by["ziwei.hour_branch"]
    assert (hour.value, hour.changes_after.to if hour.changes_after else None) == ("chen", "si")
    assert hour.changes_after is not None
    assert hour.changes_after.minutes == 15.0
    assert hour.changes_after.at == datetime(1990, 5, 1, 1, 0, tzinfo=UTC)
    assert answer.uncertain == (
        "ziwei.hour_branch",
        "ziwei.life_palace_branch",
        "ziwei.body_palace_branch",
    )
    life = by["ziwei.life_palace_branch"]
    assert life.changes_after is not None
    assert (life.value, life.changes_after.to) == ("chou", "zi")


def test_late_to_early_zi_keeps_the_zi_branch() -> None:
    """23:30 (late Zi) to 00:00 (early Zi) is one Zi branch: the hour branch's next change is at
    01:00, not at midnight."""
    answer = ziwei_sensitivity(date(2001, 7, 10), time(23, 30), "male", offset_minutes=480)
    hour = next(i for i in answer.items if i.result == "ziwei.hour_branch")
    assert hour.value == "zi"
    assert hour.changes_after is not None
    assert (hour.changes_after.minutes, hour.changes_after.to) == (90.0, "chou")


def test_bad_uncertainty_and_dates_name_their_field() -> None:
    with pytest.raises(CalcInputError) as err:
        ziwei_sensitivity(date(1990, 5, 1), time(8), "male", uncertainty_minutes=721)
    assert err.value.field == "sensitivity.uncertainty_minutes"
    with pytest.raises(CalcInputError) as err:
        ziwei_sensitivity(date(1900, 2, 2), time(8), "male", offset_minutes=480)
    assert err.value.field == "date"
