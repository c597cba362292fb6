"""Birth-time sensitivity of the Thai birth day and Taksa planet, checked by brute force.

200 random births (seeded; 1900-2100, UTC+7), each crossing checked at ``at`` -+ 1 s with
:func:`taksa_wheel` itself, and the wheel sampled every 30 minutes from the birth to each
crossing or the horizon's edge (a Thai birth day lasts at least twelve hours). The rule is the
Taksa module's: the day starts at 06:00, Wednesday night from 18:00 to 06:00.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta

from sensitivity_check import check_sensitivity, local_clock

from astro_calc.sensitivity import thai_sensitivity
from astro_calc.thai import taksa_wheel
from astro_calc.time import resolve

STEPS = {"thai.birth_day": 1800.0, "taksa.birth_planet": 1800.0}


def _value(offset: int, moment: datetime, result: str) -> str:
    local = local_clock(offset, moment)
    wheel = taksa_wheel(local.date(), local.time())
    return wheel.birth_day if result == "thai.birth_day" else wheel.birth_planet


def test_every_crossing_of_200_random_thai_births_matches_brute_force() -> None:
    rng = random.Random(34)
    problems: list[str] = []
    changes = 0
    for _ in range(200):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = time(seconds // 3600, seconds // 60 % 60, seconds % 60)
        resolved = resolve(day, clock, offset_minutes=420)
        answer = thai_sensitivity(resolved, uncertainty_minutes=90)

        def value(moment: datetime, result: str) -> str:
            return _value(420, moment, result)

        problems += check_sensitivity(answer, resolved.utc, value, STEPS, f"{day} {clock}")
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 400  # with a 13-hour horizon nearly every birth meets a 06:00


def test_a_wednesday_evening_birth_turns_into_wednesday_night_at_18_00() -> None:
    # 16 May 1990 was a Wednesday.
    answer = thai_sensitivity(resolve(date(1990, 5, 16), time(17, 35), offset_minutes=420))
    day, planet = answer.items
    assert (day.value, planet.value) == ("wednesday", "mercury")
    assert day.changes_after is not None
    assert day.changes_after.to == "wednesday_night"
    assert day.changes_after.minutes == 25.0
    assert day.changes_after.at == datetime(1990, 5, 16, 11, 0, tzinfo=UTC)
    assert planet.changes_after is not None
    assert planet.changes_after.to == "rahu"
    assert day.changes_before is not None
    assert day.changes_before.to == "tuesday"
    assert day.changes_before.at == datetime(1990, 5, 15, 23, 0, tzinfo=UTC)  # 06:00 Wednesday
