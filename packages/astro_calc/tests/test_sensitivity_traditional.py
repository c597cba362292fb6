"""Birth-time sensitivity of the traditional techniques (astro_calc.sensitivity.traditional).

Checked by brute force: for random births (latitudes within +-60 degrees), every reported change
is evaluated with the techniques' own functions (sect_of, lot_longitudes, the ascendant) one
second before and one second after ``at``: the old value before, the new one after (1 s).
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity.traditional import traditional_sensitivity
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime
from astro_calc.western.traditional.chart import lot_longitudes
from astro_calc.western.traditional.timing import basics_at


def _value(result: str, moment: datetime, latitude: float, longitude: float) -> str:
    echo = SubjectTime(moment, moment, 0, None, "offset", ephemeris.julian_day(moment))
    basics = basics_at(echo, latitude, longitude)
    if result == "sect":
        return basics.sect
    if result == "ascendant.sign":
        return SIGNS[int(basics.ascendant // 30) % 12]
    name = result.split(".")[1]
    lon = lot_longitudes(basics.ascendant, basics.positions, basics.sect)[name]
    return SIGNS[int(lon // 30) % 12]


def _births(n: int) -> list[tuple[datetime, float, float]]:
    rng = random.Random(4646)
    out = []
    for _ in range(n):
        moment = datetime(1950, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(80 * 525960))
        out.append((moment, round(rng.uniform(-60, 60), 3), round(rng.uniform(-180, 180), 3)))
    return out


@pytest.mark.parametrize(("moment", "latitude", "longitude"), _births(8))
def test_every_change_is_where_the_techniques_change(
    moment: datetime, latitude: float, longitude: float
) -> None:
    subject = BirthSubject(
        moment.date(), moment.strftime("%H:%M"), latitude, longitude, timezone_offset_minutes=0
    )
    moment = moment.replace(second=0)
    found = traditional_sensitivity(subject, uncertainty_minutes=60)
    names = [i.result for i in found.items]
    assert names[:2] == ["sect", "ascendant.sign"]
    assert names[2:] == [
        f"lot.{n}.sign"
        for n in ("fortune", "spirit", "eros", "necessity", "courage", "victory", "nemesis")
    ]
    for it in found.items:
        assert it.value == _value(it.result, moment, latitude, longitude), it.result
        for change, sign in ((it.changes_before, -1), (it.changes_after, 1)):
            if change is None:
                continue
            old = _value(it.result, change.at - timedelta(seconds=sign), latitude, longitude)
            new = _value(it.result, change.at + timedelta(seconds=sign), latitude, longitude)
            assert (old, new) == (it.value, change.to), (it.result, change)
        assert it.certain == all(
            c is None or c.minutes > 60 for c in (it.changes_before, it.changes_after)
        )
    # The ascendant changes sign at least every few hours at these latitudes.
    asc = found.items[1]
    assert asc.changes_before is not None
    assert asc.changes_after is not None


def test_high_latitudes_search_nothing_and_say_why() -> None:
    found = traditional_sensitivity(
        BirthSubject(date(1990, 5, 1), "07:30", 69.6, 18.9, timezone_offset_minutes=60)
    )
    assert found.items == ()
    assert found.warnings


def test_the_uncertainty_is_checked() -> None:
    with pytest.raises(CalcInputError) as err:
        traditional_sensitivity(
            BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5), uncertainty_minutes=721
        )
    assert err.value.field == "sensitivity.uncertainty_minutes"
