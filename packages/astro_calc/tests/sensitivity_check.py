"""Brute-force checking of a birth-time sensitivity answer (shared by test_sensitivity_*.py).

For every item:

* its ``value`` is what the tradition's chart function gives at the birth;
* for each reported change, the chart function one second on the birth's side of ``at`` gives
  ``value`` and one second beyond it gives ``to`` (or, when a second change follows within that
  second, ``to`` holds somewhere in it); ``minutes`` is the distance to ``at``;
* nothing changes between the birth and the change (or the horizon's edge when none is
  reported): the chart function is sampled from the birth every ``steps[result]`` seconds, a
  step below the shortest time that result can last, so a missed earlier change would show.

``value_at(utc, result)`` returns a result's value at an instant, computed with the chart
function (or the very functions it is built from) for the local clock at the birth's UTC offset
(the convention of the sensitivity answer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

from astro_calc.sensitivity import Sensitivity

ONE_S = timedelta(seconds=1)


def check_sensitivity(
    answer: Sensitivity,
    birth_utc: datetime,
    value_at: Callable[[datetime, str], str],
    steps: Mapping[str, float],
    label: str,
) -> list[str]:
    """Every disagreement with brute force, as readable lines (empty: all checks passed)."""
    cache: dict[tuple[datetime, str], str] = {}

    def value(moment: datetime, result: str) -> str:
        got = cache.get((moment, result))
        if got is None:
            got = cache[moment, result] = value_at(moment, result)
        return got

    problems: list[str] = []
    horizon = timedelta(minutes=answer.horizon_minutes)
    for it in answer.items:
        r = it.result
        if value(birth_utc, r) != it.value:
            problems.append(f"{label} {r}: value {it.value!r} != {value(birth_utc, r)!r}")
            continue
        for side, change in ((-1, it.changes_before), (1, it.changes_after)):
            if change is not None:
                at = change.at
                if at.tzinfo is None or at.utcoffset() != timedelta(0) or at.microsecond:
                    problems.append(f"{label} {r}: at {at!r} is not a whole UTC second")
                distance = (at - birth_utc).total_seconds() * side
                if not 0 <= distance <= horizon.total_seconds() + 1:
                    problems.append(f"{label} {r}: change at {at} is on the wrong side")
                    continue
                if abs(change.minutes * 60 - distance) > 0.01:
                    problems.append(f"{label} {r}: minutes {change.minutes} != {distance / 60}")
                # A change within a second of the birth: the birth itself is the near side.
                near = at - side * ONE_S if distance >= 1 else birth_utc
                far = at + side * ONE_S
                became = value(far, r) == change.to or any(
                    # A second change less than a second after the first (the Uranian sets are
                    # dense in time): ``to`` must then hold somewhere in that second.
                    value(at + side * k * ONE_S / 10, r) == change.to
                    for k in range(-7, 10)
                )
                if value(near, r) != it.value or not became:
                    problems.append(
                        f"{label} {r}: at {at} side {side}: "
                        f"{value(near, r)!r} -> {value(far, r)!r}, reported "
                        f"{it.value!r} -> {change.to!r}"
                    )
                end = distance - 1.0
            else:
                end = horizon.total_seconds()
            step = steps[r]
            k = 1
            while k * step < end:
                moment = birth_utc + timedelta(seconds=side * k * step)
                if value(moment, r) != it.value:
                    problems.append(f"{label} {r}: changed to {value(moment, r)!r} at {moment}")
                    break
                k += 1
            if change is None:
                edge = birth_utc + side * horizon
                if value(edge, r) != it.value:
                    problems.append(f"{label} {r}: changed by the horizon's edge {edge}")
        expected_certain = all(
            c is None or c.minutes > answer.uncertainty_minutes
            for c in (it.changes_before, it.changes_after)
        )
        if it.certain != expected_certain or (r in answer.uncertain) == it.certain:
            problems.append(f"{label} {r}: certain={it.certain} inconsistent")
    return problems


def local_clock(offset_minutes: int, moment: datetime) -> datetime:
    """The naive local clock reading of ``moment`` at the birth's UTC offset."""
    return (moment.astimezone(UTC) + timedelta(minutes=offset_minutes)).replace(tzinfo=None)
