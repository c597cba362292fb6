"""Birth-time sensitivity of the Western natal chart, checked by brute force.

200 random births (seeded; 1900-2100, latitudes within +-60 degrees, every house system), each
crossing checked with :func:`astro_calc.western.natal_chart` itself at ``at`` -+ 1 s, and the
chart sampled from the birth to each crossing (or the horizon) to catch a missed earlier one:
every 20 s for the degree bands (an angle stays at least a minute in a degree at these
latitudes), every 5 minutes for the angles' signs and the houses, every 2 hours for the Moon's
sign (it stays two days in a sign). See ``sensitivity_check.py``.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime, timedelta

import msgspec
import pytest
from sensitivity_check import check_sensitivity

from astro_calc import ephemeris
from astro_calc.ephemeris import HOUSE_SYSTEMS
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import natal_sensitivity, vedic_sensitivity
from astro_calc.vedic import BirthSubject as VedicSubject
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    angles_from,
    cached_positions,
    planet_positions,
)

STEPS = {
    "ascendant.degree": 20.0,
    "midheaven.degree": 20.0,
    "ascendant.sign": 300.0,
    "midheaven.sign": 300.0,
    "moon.sign": 7200.0,
    **{f"house.{b}": 300.0 for b in DEFAULT_BODIES},
}
SYSTEMS = tuple(HOUSE_SYSTEMS)


def _births(n: int, seed: int) -> list[tuple[BirthSubject, str, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        lon = rng.uniform(-180.0, 180.0)
        offset = round(lon / 15.0) * 60
        subject = BirthSubject(day, clock, rng.uniform(-60.0, 60.0), lon, offset)
        out.append((subject, rng.choice(SYSTEMS), offset))
    return out


class _Chart:
    """Values of the natal chart's time-dependent results at an instant, computed with the
    pieces :func:`natal_chart` is made of (its houses, its body positions, its
    ``planet_positions``), one body at a time: a whole chart per sample would make the test
    ten times slower. ``test_..._values_are_the_natal_chart_s`` ties them to natal_chart."""

    def __init__(self, subject: BirthSubject, system: str) -> None:
        self.subject = subject
        self.system = system
        self._houses: dict[datetime, ephemeris.Houses] = {}

    def houses(self, moment: datetime) -> ephemeris.Houses:
        h = self._houses.get(moment)
        if h is None:
            jd = ephemeris.julian_day(moment)
            s = self.subject
            h = self._houses[moment] = ephemeris.houses(jd, s.latitude, s.longitude, self.system)
        return h

    def value(self, moment: datetime, result: str) -> str:
        h = self.houses(moment)
        angles = angles_from(h.ascendant, h.midheaven, h.vertex)
        if result == "ascendant.sign":
            return angles.ascendant.sign
        if result == "midheaven.sign":
            return angles.midheaven.sign
        if result == "ascendant.degree":
            return f"{angles.ascendant.sign} {int(angles.ascendant.sign_degree)}"
        if result == "midheaven.degree":
            return f"{angles.midheaven.sign} {int(angles.midheaven.sign_degree)}"
        body = "moon" if result == "moon.sign" else result.removeprefix("house.")
        positions, _used, _warnings = cached_positions(ephemeris.julian_day(moment), (body,))
        planet = planet_positions(positions, h)[0]
        return planet.sign if result == "moon.sign" else str(planet.house)


def test_every_crossing_of_200_random_natal_charts_matches_brute_force() -> None:
    problems: list[str] = []
    changes = 0
    for subject, system, _offset in _births(200, seed=34):
        answer = natal_sensitivity(subject, house_system=system, uncertainty_minutes=30)
        birth = natal_chart(subject, aspects=(), include_minor=False).meta.utc
        chart = _Chart(subject, system)
        problems += check_sensitivity(answer, birth, chart.value, STEPS, f"{subject} {system}")
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 200 * 30  # the checks did meet crossings: almost every item has two


def test_the_brute_force_values_are_the_natal_chart_s() -> None:
    for subject, system, _offset in _births(20, seed=35):
        chart = natal_chart(subject, house_system=system)
        values = _Chart(subject, system)
        at = chart.meta.utc
        assert values.value(at, "ascendant.sign") == chart.angles.ascendant.sign
        assert values.value(at, "midheaven.sign") == chart.angles.midheaven.sign
        degree = int(chart.angles.ascendant.sign_degree)
        assert values.value(at, "ascendant.degree") == f"{chart.angles.ascendant.sign} {degree}"
        degree = int(chart.angles.midheaven.sign_degree)
        assert values.value(at, "midheaven.degree") == f"{chart.angles.midheaven.sign} {degree}"
        assert values.value(at, "moon.sign") == chart.planet("moon").sign
        for p in chart.planets:
            assert values.value(at, f"house.{p.name}") == str(p.house)


def test_the_answer_lists_every_time_dependent_result_of_the_chart() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 48.137, 11.575, timezone="Europe/Berlin")
    answer = natal_sensitivity(subject)
    names = [i.result for i in answer.items]
    assert names[:4] == [
        "ascendant.sign",
        "ascendant.degree",
        "midheaven.sign",
        "midheaven.degree",
    ]
    chart = natal_chart(subject)
    assert names[4:-1] == [f"house.{p.name}" for p in chart.planets]
    assert names[-1] == "moon.sign"
    assert answer.precision_seconds == 1.0
    assert answer.horizon_minutes == 780.0


def test_a_birth_minutes_from_an_ascendant_sign_change_is_uncertain_within_ten_minutes() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 48.137, 11.575, timezone="Europe/Berlin")
    asc = natal_sensitivity(subject).items[0]
    assert asc.changes_after is not None
    # Move the birth to three minutes before the change.
    at = asc.changes_after.at - timedelta(minutes=3)
    local = at.astimezone(UTC) + timedelta(hours=2)
    near = BirthSubject(local.date(), local.strftime("%H:%M:%S"), 48.137, 11.575, 120)
    answer = natal_sensitivity(near, uncertainty_minutes=10)
    item = answer.items[0]
    assert item.result == "ascendant.sign"
    assert not item.certain
    assert item.changes_after is not None
    assert item.changes_after.minutes == 3.0
    assert item.changes_after.at == asc.changes_after.at
    assert "ascendant.sign" in answer.uncertain
    assert natal_sensitivity(near, uncertainty_minutes=2).items[0].certain


def test_uncertainty_outside_0_to_720_minutes_is_refused() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 48.137, 11.575, 120)
    with pytest.raises(CalcInputError) as err:
        natal_sensitivity(subject, uncertainty_minutes=721)
    assert err.value.field == "sensitivity.uncertainty_minutes"
    with pytest.raises(CalcInputError):
        natal_sensitivity(subject, uncertainty_minutes=-1)


def test_the_answer_encodes_to_the_design_s_shape() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 48.137, 11.575, 120)
    body = msgspec.json.decode(
        msgspec.json.encode(natal_sensitivity(subject, uncertainty_minutes=5))
    )
    assert set(body) == {
        "uncertainty_minutes",
        "horizon_minutes",
        "precision_seconds",
        "items",
        "uncertain",
        "warnings",
    }
    asc = body["items"][0]
    assert set(asc) == {"result", "value", "changes_before", "changes_after", "certain"}
    after = asc["changes_after"]
    assert after["to"] == "libra"
    assert re.fullmatch(r"1990-05-17T13:33:4\dZ", after["at"])  # UTC, whole seconds, Z
    at = datetime.fromisoformat(after["at"])
    assert after["minutes"] == round(
        (at - datetime(1990, 5, 17, 12, 35, tzinfo=UTC)).seconds / 60, 4
    )
    moon = body["items"][-1]
    assert moon["result"] == "moon.sign"
    assert moon["changes_before"] is None  # none within the horizon
    assert body["uncertain"] == [i["result"] for i in body["items"] if not i["certain"]]


def test_beyond_60_degrees_only_the_moon_s_sign_is_given_with_a_warning() -> None:
    # Tromso: the ascendant races and jumps near the polar circle; the search would be unsound.
    subject = BirthSubject(date(1990, 12, 17), "14:35", 69.65, 18.96, 60)
    answer = natal_sensitivity(subject)
    assert [i.result for i in answer.items] == ["moon.sign"]
    assert len(answer.warnings) == 1
    assert "60 degrees" in answer.warnings[0]
    vedic = vedic_sensitivity(VedicSubject(date(1990, 12, 17), "14:35", 69.65, 18.96, 60))
    assert "lagna.sign" not in [i.result for i in vedic.items]
    assert vedic.warnings == answer.warnings
    assert (
        natal_sensitivity(BirthSubject(date(1990, 12, 17), "14:35", 59.9, 10.7, 60)).warnings == ()
    )
