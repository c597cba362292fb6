"""Birth-time sensitivity of the Uranian chart's personal points.

Definition. The personal points are the chart's points of its own, as
:mod:`astro_calc.uranian.chart` lists them: ``ascendant``, ``midheaven`` and ``aries_point``.
For each, the result ``<point>.midpoints`` is the set of midpoint pictures ``point = A/B`` of
the chart: the pairs of other factors whose shorter-arc midpoint stands within ``orb_max`` of the
point's dial position on the ``dial_mode`` dial, written ``"moon/saturn, sun/venus"`` (pairs in
canonical factor order, sorted; ``""`` for none). It changes whenever a midpoint enters or
leaves the orb around the point: the ascendant and midheaven move a degree in about four
minutes, and the midpoints that hold them move half as fast, so even the Aries point's set
changes within minutes. Sum pictures (``A + B - C = D``) are not followed: with four free
factors they change every few seconds and tell an astrologer nothing about the birth time.

Values from :func:`astro_calc.uranian.chart.factor_longitudes`,
:func:`astro_calc.western.subject.midpoint` and :func:`astro_calc.uranian.chart.dial_distance`,
the functions the chart's pictures come from (a midpoint picture of the chart is exactly such a
pair within the orb). The set is stepped every ``40 * orb_max`` seconds (a midpoint crosses the
2 * orb window around the point in no less than about 100 * orb_max seconds away from the polar
circles, so no entry and exit fall in one step) and each change is bisected to 1 second.
"""

from __future__ import annotations

from datetime import date

from astro_calc import ephemeris
from astro_calc.sensitivity._search import (
    Sensitivity,
    Shift,
    State,
    check_window,
    discrete_changes,
    item,
    sensitivity,
)
from astro_calc.uranian.chart import (
    FACTORS,
    NodeKind,
    _resolve,
    check_dial,
    check_orb,
    dial_distance,
    factor_longitudes,
)
from astro_calc.western.subject import midpoint

PERSONAL_POINTS: tuple[str, ...] = ("ascendant", "midheaven", "aries_point")
_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for i, a in enumerate(FACTORS) for b in FACTORS[i + 1 :]
)


def midpoints_at_point(lons: dict[str, float], point: str, dial: float, orb: float) -> str:
    """The midpoint pictures ``point = A/B`` within ``orb`` on ``dial`` (module docstring)."""
    at = lons[point] % dial
    hits = [
        f"{a}/{b}"
        for a, b in _PAIRS
        if point not in (a, b) and dial_distance(at, midpoint(lons[a], lons[b]) % dial, dial) <= orb
    ]
    return ", ".join(sorted(hits))


def uranian_sensitivity(
    birth_date: date,
    birth_time: str,
    birth_lat: float,
    birth_lon: float,
    *,
    dial_mode: float = 90.0,
    orb_max: float = 1.0,
    timezone: str | None = None,
    timezone_offset_minutes: int | None = None,
    node: NodeKind = "mean",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the midpoint pictures at the personal points of
    :func:`astro_calc.uranian.uranian_chart` (same birth, dial, orb and node) are to changing:
    value, nearest change before and after within ``horizon_minutes`` (default 780), whether
    certain within ``uncertainty_minutes`` (0..720). Bisection on the chart's own functions, to
    1 second (module docstring)."""
    dial = check_dial(dial_mode)
    orb = check_orb(orb_max)
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    resolved = _resolve(
        birth_date, birth_time, birth_lat, birth_lon, timezone, timezone_offset_minutes
    )
    shift = Shift(resolved.utc, resolved.local, ephemeris.julian_day(resolved.utc))

    def state(s: float) -> State:
        lons, _used, _warnings = factor_longitudes(shift.jd(s), birth_lat, birth_lon, node=node)
        values = (midpoints_at_point(lons, p, dial, orb) for p in PERSONAL_POINTS)
        return tuple((v, v) for v in values)

    first = state(0.0)
    horizon_s = horizon * 60.0
    step_s = 40.0 * orb
    before = discrete_changes(state, -1, horizon_s, step_s, first=first)
    after = discrete_changes(state, 1, horizon_s, step_s, first=first)
    items = [
        item(f"{p}.midpoints", first[k][1], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, p in enumerate(PERSONAL_POINTS)
    ]
    return sensitivity(items, uncertainty_minutes, horizon)
