"""Birth-time sensitivity of the Human Design chart, checked by brute force.

10 random births (seeded; 1900-2100, whole seconds, UTC+7), each reported crossing checked at
``at`` -+ 1 s with :func:`human_design_chart`'s own instant function (:func:`chart_at`), and
the chart sampled every 10 minutes from the birth to each crossing or the horizon's edge (the
fastest gate, the Moon's, lasts at least eight hours; a chart-level value changes only with a
gate or a Sun's line).
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

import pytest
from sensitivity_check import check_sensitivity

from astro_calc.ephemeris import julian_day
from astro_calc.human_design import chart_at
from astro_calc.sensitivity import human_design_sensitivity
from astro_calc.sensitivity.human_design import RESULTS, result_values
from astro_calc.western import BirthSubject
from astro_calc.western.subject import resolve_subject

STEPS = dict.fromkeys(RESULTS, 600.0)


@pytest.mark.slow
def test_every_crossing_of_10_random_births_matches_brute_force() -> None:
    rng = random.Random(43)
    problems: list[str] = []
    changes = 0
    charts: dict[datetime, tuple[str, ...]] = {}

    def value(moment: datetime, result: str) -> str:
        got = charts.get(moment)
        if got is None:
            got = charts[moment] = result_values(chart_at(julian_day(moment)))
        return got[RESULTS.index(result)]

    for _ in range(10):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = time(seconds // 3600, seconds // 60 % 60, seconds % 60)
        subject = BirthSubject(
            date=day,
            time=clock.strftime("%H:%M:%S"),
            latitude=13.75,
            longitude=100.5,
            timezone_offset_minutes=420,
        )
        answer = human_design_sensitivity(subject, uncertainty_minutes=60)
        birth = resolve_subject(subject).utc
        problems += check_sensitivity(answer, birth, value, STEPS, f"{day} {clock}")
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 40  # both Moons change gate within 13 hours in most births


def test_the_founders_authority_turns_emotional_six_hours_later() -> None:
    # Ra Uru Hu, 9 April 1948 00:14 Montreal: a 5/1 splenic manifestor whose Moon reaches gate
    # 49 (the channel 19-49 to the Root) about six hours after the birth.
    answer = human_design_sensitivity(
        BirthSubject(
            date=date(1948, 4, 9),
            time="00:14",
            latitude=45.5,
            longitude=-73.57,
            timezone="America/Montreal",
        ),
        uncertainty_minutes=60,
    )
    by = {i.result: i for i in answer.items}
    assert by["type"].value == "manifestor"
    assert by["type"].certain
    authority = by["authority"]
    assert authority.value == "splenic"
    assert authority.changes_after is not None
    assert authority.changes_after.to == "emotional"
    assert 360 < authority.changes_after.minutes < 370
    assert by["design.sun.gate"].value == "61"
    assert "personality.moon.gate" in answer.uncertain
