"""Birth-time sensitivity of the HR assessment's inputs, checked by brute force.

200 random births (seeded; 1900-2100, latitudes within +-60 degrees, offsets near the
longitude's), each crossing checked at ``at`` -+ 1 s with :func:`hr_facts` itself (the pillars
of its BaZi profile, the Thai birth day and planet of its Taksa outlook's wheel), and the
assessment sampled every 30 minutes from the birth to each crossing or the horizon's edge (the
shortest result, the hour pillar, lasts two hours).
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

import pytest
from sensitivity_check import check_sensitivity, local_clock

from astro_calc.errors import CalcInputError
from astro_calc.hr.assessment import hr_facts
from astro_calc.sensitivity import hr_sensitivity
from astro_calc.time import resolve

RESULTS = (
    "pillar.year",
    "pillar.month",
    "pillar.day",
    "pillar.hour",
    "thai.birth_day",
    "taksa.birth_planet",
)
STEPS = dict.fromkeys(RESULTS, 1800.0)


def _values(offset: int, lat: float, lon: float, moment: datetime) -> dict[str, str]:
    local = local_clock(offset, moment)
    facts = hr_facts(
        name="x",
        birth_date=local.date(),
        birth_time=local.time(),
        latitude=lat,
        longitude=lon,
        offset_minutes=offset,
        position="engineer",
        as_of=local.date() + timedelta(days=800),
    )
    p = facts.bazi.pillars
    values = {f"pillar.{n}": getattr(p, n).ganzhi for n in ("year", "month", "day", "hour")}
    outlook = facts.thaksa
    return values | {
        "thai.birth_day": outlook.birth_day,
        "taksa.birth_planet": outlook.birth_planet,
    }


def test_every_crossing_of_200_random_assessments_matches_brute_force() -> None:
    rng = random.Random(343)
    problems: list[str] = []
    changes = 0
    for _ in range(200):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = time(seconds // 3600, seconds // 60 % 60, seconds % 60)
        lat, lon = rng.uniform(-60.0, 60.0), rng.uniform(-180.0, 180.0)
        offset = round(lon / 15.0) * 60
        answer = hr_sensitivity(
            day, clock, latitude=lat, longitude=lon, offset_minutes=offset, uncertainty_minutes=45
        )
        assert tuple(i.result for i in answer.items) == RESULTS
        cache: dict[datetime, dict[str, str]] = {}

        def value(
            moment: datetime,
            result: str,
            cache: dict[datetime, dict[str, str]] = cache,
            where: tuple[int, float, float] = (offset, lat, lon),
        ) -> str:
            if moment not in cache:
                cache[moment] = _values(*where, moment)
            return cache[moment][result]

        birth = resolve(day, clock, offset_minutes=offset).utc
        problems += check_sensitivity(answer, birth, value, STEPS, f"{day} {clock} {lat} {lon}")
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 200 * 4  # the hour pillar both ways, the day and the Thai day mostly


def test_the_hour_pillar_is_that_of_the_assessment() -> None:
    facts = hr_facts(
        name="x",
        birth_date=date(1990, 5, 17),
        birth_time=time(14, 35),
        latitude=13.75,
        longitude=100.5,
        offset_minutes=420,
        position="engineer",
        as_of=date(2026, 1, 1),
    )
    answer = hr_sensitivity(
        date(1990, 5, 17), time(14, 35), latitude=13.75, longitude=100.5, offset_minutes=420
    )
    items = {i.result: i for i in answer.items}
    assert facts.bazi.pillars.hour is not None
    assert items["pillar.hour"].value == facts.bazi.pillars.hour.ganzhi
    hour = items["pillar.hour"]
    assert hour.changes_after is not None
    assert hour.changes_after.minutes == 25.0  # the 未 hour ends at 15:00 on the civil clock


def test_without_a_birth_time_there_is_nothing_to_be_sensitive_to() -> None:
    with pytest.raises(CalcInputError) as err:
        hr_sensitivity(date(1990, 5, 17), None, latitude=13.75, longitude=100.5)
    assert err.value.field == "birth_time"
