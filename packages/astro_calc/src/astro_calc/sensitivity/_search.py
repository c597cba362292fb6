"""The two root finders behind birth-time sensitivity, and the answer's shape.

The search variable is ``s``: seconds from the given birth instant (negative = earlier). Moving
the birth moves the UTC instant and the local clock together; the UTC offset found for the given
birth stays (the question is "what if the child was born a few minutes earlier", not "what if
the clock rule differed").

Two engines (and a third for the Uranian sets, in :mod:`astro_calc.sensitivity.uranian`), all
ending with a bracket ``[lo, hi]`` at most :data:`BRACKET_S` wide whose ends were evaluated with
the result's own function (the old value at ``lo``, the new at ``hi``):

* :func:`phase_crossing` for results read off a continuous, monotone coordinate (a longitude in
  signs, degrees, nakshatras, padas; a body's place in its house). The coordinate is given as a
  *phase* in band units: the result is the band ``floor(phase) mod period``. The crossing of the
  next band edge is found by Newton steps from the phase's rate (or secant steps), each step
  overshooting a little so the root is bracketed, then narrowed by Newton probes on either side
  of the predicted root with Illinois false position as the safeguard. Monotone means the first
  edge reached is the first change, so nothing is skipped.
* :func:`discrete_changes` for results that are step functions of the clock (pillars, the Thai
  day, the Qi Men ju): the state is stepped every ``step_s`` (shorter than the shortest time a
  state can last, so no change is stepped over) and each change is bisected. A state is a pair
  (identity, value): the identity is what the step function actually switches on (a solar term
  and a yuan), the value what is reported (the ju number); an identity change that keeps the
  value is passed over and the search goes on.

Precision: every reported instant is the middle of a bracket of at most 0.5 s rounded to the
whole second, so it is within 0.75 s of the true change: the value one second before ``at`` is
the old one and one second after it the new one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Final

import msgspec

from astro_calc.errors import CalcInputError

#: Width of the final bracket, seconds.
BRACKET_S: Final = 0.5
#: Default search horizon on each side of the birth, minutes: the largest uncertainty (720)
#: plus an hour's margin.
DEFAULT_HORIZON_MINUTES: Final = 780.0
MAX_UNCERTAINTY_MINUTES: Final = 720.0
MAX_HORIZON_MINUTES: Final = 2880.0
#: The stated precision of every crossing.
PRECISION_SECONDS: Final = 1.0
#: Beyond this latitude (degrees, either hemisphere) the ascendant, the midheaven and the house
#: cusps are left out: near and inside the polar circles the ascendant races and jumps, the
#: coordinates the search relies on stop being monotone, and the answers were found wrong.
MAX_ANGLE_LATITUDE: Final = 60.0
ANGLES_LEFT_OUT: Final = (
    "results that depend on the ascendant, the midheaven or the house cusps are left out "
    f"beyond {MAX_ANGLE_LATITUDE:g} degrees of latitude, where the ascendant moves too "
    "irregularly for them to be found reliably"
)


class TimeChange(msgspec.Struct, frozen=True):
    """A change of a result: ``minutes`` from the given birth (always positive; the field it sits
    in says before or after), the value it changes ``to``, and the instant ``at`` (UTC, to the
    second)."""

    minutes: float
    to: str
    at: datetime


class SensitivityItem(msgspec.Struct, frozen=True):
    """One time-dependent result: its ``value`` at the given time, the nearest change before and
    after within the horizon (``None``: none within the horizon) and whether it is ``certain``
    (no change within the caller's uncertainty; a change exactly that far away counts)."""

    result: str
    value: str
    changes_before: TimeChange | None
    changes_after: TimeChange | None
    certain: bool


class Sensitivity(msgspec.Struct, frozen=True):
    """The ``sensitivity`` object of an answer: every item, and the names of the results that
    are not certain within ``uncertainty_minutes``."""

    uncertainty_minutes: float
    horizon_minutes: float
    precision_seconds: float
    items: tuple[SensitivityItem, ...]
    uncertain: tuple[str, ...]
    warnings: tuple[str, ...] = ()


# --- shared helpers -------------------------------------------------------------------------------


class Shift:
    """A birth moved by ``s`` seconds: the Julian day (UT), the UTC instant and the naive local
    clock reading (the given birth's UTC offset kept)."""

    __slots__ = ("jd0", "local0", "utc0")

    def __init__(self, utc: datetime, local: datetime, jd_ut: float) -> None:
        self.utc0 = utc.astimezone(UTC)
        self.local0 = local.replace(tzinfo=None)
        self.jd0 = jd_ut

    def jd(self, s: float) -> float:
        return self.jd0 + s / 86400.0

    def utc(self, s: float) -> datetime:
        return self.utc0 + timedelta(seconds=s)

    def local(self, s: float) -> datetime:
        return self.local0 + timedelta(seconds=s)


def check_window(uncertainty_minutes: float, horizon_minutes: float | None) -> float:
    """The horizon in minutes: at least the uncertainty; input errors name the option's field."""
    if not 0.0 <= uncertainty_minutes <= MAX_UNCERTAINTY_MINUTES:
        raise CalcInputError(
            "sensitivity.uncertainty_minutes", f"must be between 0 and {MAX_UNCERTAINTY_MINUTES:g}"
        )
    horizon = DEFAULT_HORIZON_MINUTES if horizon_minutes is None else float(horizon_minutes)
    if not 0.0 < horizon <= MAX_HORIZON_MINUTES:
        raise CalcInputError(
            "sensitivity.horizon_minutes", f"must be between 0 and {MAX_HORIZON_MINUTES:g}"
        )
    return max(horizon, float(uncertainty_minutes))


Crossing = tuple[float, str]  # (seconds from the birth, signed; the new value)


def change_at(birth_utc: datetime, crossing: Crossing | None) -> TimeChange | None:
    """A crossing as the answer's change: ``at`` rounded to the whole second, ``minutes`` from
    the birth to ``at`` (positive)."""
    if crossing is None:
        return None
    seconds, to = crossing
    moment = birth_utc.astimezone(UTC) + timedelta(seconds=seconds)
    at = (moment + timedelta(microseconds=500_000)).replace(microsecond=0)
    minutes = abs((at - birth_utc).total_seconds()) / 60.0
    return TimeChange(round(minutes, 4), to, at)


def item(
    result: str,
    value: str,
    birth_utc: datetime,
    before: Crossing | None,
    after: Crossing | None,
    uncertainty_minutes: float,
) -> SensitivityItem:
    b = change_at(birth_utc, before)
    a = change_at(birth_utc, after)
    certain = all(c is None or c.minutes > uncertainty_minutes for c in (b, a))
    return SensitivityItem(result, value, b, a, certain)


def sensitivity(
    items: Sequence[SensitivityItem],
    uncertainty_minutes: float,
    horizon_minutes: float,
    warnings: Sequence[str] = (),
) -> Sensitivity:
    return Sensitivity(
        float(uncertainty_minutes),
        float(horizon_minutes),
        PRECISION_SECONDS,
        tuple(items),
        tuple(i.result for i in items if not i.certain),
        tuple(warnings),
    )


def combined(parts: Sequence[tuple[str, Sensitivity]]) -> Sensitivity:
    """Several answers as one, for a calculation built on several births or charts: each part's
    results named ``<prefix>.<result>`` (as they are with an empty prefix), the uncertain lists
    joined, the warnings joined without repeats. The parts share the uncertainty and horizon
    (the first part's are kept). No crossing is computed here."""
    if not parts:
        raise ValueError("combined() needs at least one part")
    items: list[SensitivityItem] = []
    warnings: list[str] = []
    for prefix, part in parts:
        for it in part.items:
            name = f"{prefix}.{it.result}" if prefix else it.result
            items.append(msgspec.structs.replace(it, result=name))
        warnings.extend(w for w in part.warnings if w not in warnings)
    first = parts[0][1]
    return sensitivity(items, first.uncertainty_minutes, first.horizon_minutes, warnings)


def angles_reliable(latitude: float) -> bool:
    """Whether results that depend on the angles are searched at this latitude."""
    return abs(latitude) <= MAX_ANGLE_LATITUDE


# --- continuous, monotone coordinates -------------------------------------------------------------

#: One evaluation of a phase: (phase in band units, reported value, d phase / d s or None).
PhaseSample = tuple[float, str, float | None]


def _wrap(x: float, period: float) -> float:
    """x reduced into [-period/2, period/2)."""
    return (x + period / 2.0) % period - period / 2.0


def phase_crossing(
    sample: Callable[[float], PhaseSample],
    direction: int,
    horizon_s: float,
    period: float,
    rate_hint: float,
    *,
    first: PhaseSample | None = None,
) -> Crossing | None:
    """The first change of ``floor(phase) mod period`` from s = 0 in ``direction`` (+1 later,
    -1 earlier) within ``horizon_s`` seconds, or None.

    ``sample(s)`` returns the phase, the value the result function gives and, when known, the
    phase's rate per second. ``rate_hint`` is the typical rate (per second, signed) used when no
    rate is given. The phase must be monotone over the horizon and move less than ``period / 4``
    bands between two samples (steps aim at the next edge, one band away at most)."""
    p0, _v0, r0 = first if first is not None else sample(0.0)
    rate = r0 if r0 is not None and r0 != 0.0 else rate_hint
    # Moving up in phase along the search direction: the next edge is floor(p0) + 1; down: the
    # edge is floor(p0) itself, and the band changes as soon as the phase drops below it.
    up = rate * direction > 0
    target = math.floor(p0) + 1.0 if up else math.floor(p0)
    sign = 1.0 if up else -1.0

    def h(p: float) -> float:
        # Negative before the edge; moving up the band changes at h = 0, moving down after it.
        return sign * _wrap(p - target, period)

    def changed(hv: float) -> bool:
        return hv > 0.0 or (up and hv == 0.0)

    s_prev, h_prev = 0.0, h(p0)
    speed = abs(rate)  # |d h / d |s||
    limit = abs(horizon_s)
    exact = r0 is not None
    for iteration in range(100_000):
        step = -h_prev / speed if speed > 0.0 else limit
        if iteration >= 100:
            # Not converging (a coordinate that is not monotone, inside the polar circles):
            # march on in half-minute steps so the search ends within the horizon.
            step = max(step, 30.0)
        # Overshoot a hair so the root gets bracketed: a fixed 0.2 s when the rate is the
        # sample's own (Newton lands that close), else 5 % plus 0.5 s.
        s_next = min(s_prev + (step + 0.2 if exact else step * 1.05 + 0.5), limit)
        p, v, r = sample(direction * s_next)
        h_next = h(p)
        if changed(h_next):
            # d h / d |s| = sign * direction * (d phase / d s)
            factor = sign * direction if exact else None
            return _narrow(
                sample, h, changed, direction, (s_prev, s_next, h_prev, h_next, v), r, factor
            )
        if s_next >= limit:
            return None
        # The sample's own rate when it moves the right way, else the secant of the two samples.
        secant = (h_next - h_prev) / (s_next - s_prev)
        if r is not None and r * direction * sign > 0.0:
            speed = abs(r)
        elif secant > 0.0:
            speed = secant
        s_prev, h_prev = s_next, h_next
    return None  # unreachable: the steps above reach the horizon first


def _narrow(
    sample: Callable[[float], PhaseSample],
    h: Callable[[float], float],
    changed: Callable[[float], bool],
    direction: int,
    bracket: tuple[float, float, float, float, str],
    rate: float | None,
    factor: float | None,
) -> Crossing:
    """Narrow a bracket on |s| (unchanged at lo, changed at hi) to :data:`BRACKET_S`.

    With the phase's rate known, each probe is the Newton root from the newest sample, moved
    0.2 s to the far side of it (so two probes close a bracket around an accurate root);
    otherwise, when that probe falls outside the bracket, or after a probe that did not halve
    it, Illinois false position (which keeps shrinking it)."""
    lo, hi, h_lo, h_hi, v_hi = bracket

    def slope(r: float | None) -> float | None:
        return factor * r if factor is not None and r is not None else None

    newest = (hi, h_hi, slope(rate))
    side = 0
    newton = True
    for _ in range(200):
        width = hi - lo
        if width <= BRACKET_S:
            break
        s_new, h_new, k_new = newest
        mid = -1.0
        if newton and k_new is not None and k_new > 0.0:
            mid = s_new - h_new / k_new + (-0.2 if changed(h_new) else 0.2)
        if not lo + 0.01 < mid < hi - 0.01:
            mid = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
            if not lo + 0.05 < mid < hi - 0.05:
                mid = 0.5 * (lo + hi)
        p, v, r = sample(direction * mid)
        h_mid = h(p)
        newest = (mid, h_mid, slope(r))
        if not changed(h_mid):
            lo, h_lo = mid, h_mid
            if side == 1:
                h_hi *= 0.5
            side = 1
        else:
            hi, h_hi, v_hi = mid, h_mid, v
            if side == -1:
                h_lo *= 0.5
            side = -1
        # A Newton probe that did not halve the bracket (a rate that is off): one Illinois
        # step next, so the bracket keeps shrinking.
        newton = hi - lo <= 0.5 * width
    return (direction * 0.5 * (lo + hi), v_hi)


# --- step functions of the clock ------------------------------------------------------------------

#: A state: per result, (identity, value).
State = tuple[tuple[str, str], ...]


def discrete_changes(
    state: Callable[[float], State],
    direction: int,
    horizon_s: float,
    step_s: float,
    *,
    first: State | None = None,
) -> list[Crossing | None]:
    """For each result of ``state(s)``, the first change of its value from s = 0 in
    ``direction`` within ``horizon_s`` seconds (None: none). ``step_s`` must be shorter than the
    shortest time any identity can last."""
    cache: dict[float, State] = {}

    def at(s: float) -> State:
        got = cache.get(s)
        if got is None:
            got = cache[s] = state(direction * s)
        return got

    start = first if first is not None else at(0.0)
    cache[0.0] = start
    found: list[Crossing | None] = [None] * len(start)
    open_ = set(range(len(start)))
    limit = abs(horizon_s)
    s_prev = 0.0
    while open_ and s_prev < limit:
        s_next = min(s_prev + step_s, limit)
        now = at(s_next)
        for k in sorted(open_):
            lo = s_prev
            # Each pass bisects the first identity change in (lo, s_next]; one that keeps the
            # value moves lo past it and the next one is looked for.
            while at(lo)[k][0] != now[k][0]:
                ident, hi = at(lo)[k][0], s_next
                while hi - lo > BRACKET_S:
                    mid = 0.5 * (lo + hi)
                    if at(mid)[k][0] == ident:
                        lo = mid
                    else:
                        hi = mid
                if at(hi)[k][1] != start[k][1]:
                    found[k] = (direction * 0.5 * (lo + hi), at(hi)[k][1])
                    open_.discard(k)
                    break
                lo = hi
        s_prev = s_next
    return found
