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
circles, so no entry and exit fall in one step) and each change is narrowed to 1 second by
probing where the pairs' margins (orb minus distance) predict it, with bisection as a safeguard.
Beyond 60 degrees of latitude no item is given, with a warning (every set holds midpoints of the
angles; see :mod:`astro_calc.sensitivity.western`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import numpy as np
import numpy.typing as npt

from astro_calc import ephemeris
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
    BRACKET_S,
    Crossing,
    Sensitivity,
    Shift,
    angles_reliable,
    check_window,
    item,
    sensitivity,
)
from astro_calc.uranian.chart import (
    FACTORS,
    NodeKind,
    _resolve,
    check_dial,
    check_orb,
    factor_longitudes,
)

PERSONAL_POINTS: tuple[str, ...] = ("ascendant", "midheaven", "aries_point")
_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for i, a in enumerate(FACTORS) for b in FACTORS[i + 1 :]
)
#: Per personal point, the pairs that do not contain it.
_OTHER_PAIRS: dict[str, tuple[int, ...]] = {
    p: tuple(k for k, pair in enumerate(_PAIRS) if p not in pair) for p in PERSONAL_POINTS
}
_NUDGE_S: float = 0.2

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def midpoints_at_point(lons: dict[str, float], point: str, dial: float, orb: float) -> str:
    """The midpoint pictures ``point = A/B`` within ``orb`` on ``dial`` (module docstring)."""
    return _names(point, _margins(lons, dial, orb)[point] >= 0.0)


_A: npt.NDArray[np.int64] = np.array([FACTORS.index(a) for a, _b in _PAIRS], dtype=np.int64)
_B: npt.NDArray[np.int64] = np.array([FACTORS.index(b) for _a, b in _PAIRS], dtype=np.int64)
_OTHER_INDEX: dict[str, npt.NDArray[np.int64]] = {
    p: np.array(pairs, dtype=np.int64) for p, pairs in _OTHER_PAIRS.items()
}


def _margins(lons: dict[str, float], dial: float, orb: float) -> dict[str, FloatArray]:
    """Per personal point, ``orb`` minus the dial distance to each other pair's midpoint (the
    pair is in the set when it is >= 0): :func:`midpoint` and :func:`dial_distance` elementwise,
    the same IEEE operations in the same order (as :func:`astro_calc.uranian.picture_hits`)."""
    lon = np.array([lons[name] for name in FACTORS], dtype=np.float64)
    la, lb = lon[_A], lon[_B]
    diff = (lb - la) % 360.0
    diff = np.where(diff > 180.0, diff - 360.0, diff)
    mids = ((la + diff / 2.0) % 360.0) % dial
    out = {}
    for p in PERSONAL_POINTS:
        d = (lons[p] % dial - mids[_OTHER_INDEX[p]]) % dial
        out[p] = orb - np.where(d <= dial - d, d, dial - d)
    return out


def _names(point: str, inside: BoolArray) -> str:
    pairs = _OTHER_PAIRS[point]
    return ", ".join(
        sorted(f"{_PAIRS[pairs[k]][0]}/{_PAIRS[pairs[k]][1]}" for k in np.flatnonzero(inside))
    )


def _first_changes(
    margins: Callable[[float], dict[str, FloatArray]],
    direction: int,
    horizon_s: float,
    step_s: float,
    first: dict[str, FloatArray],
) -> list[Crossing | None]:
    """For each personal point, the first change of its set from s = 0 in ``direction``.

    The set is stepped every ``step_s`` seconds (no pair enters and leaves the orb within one
    step); a step that changes it is narrowed to :data:`BRACKET_S` by probing just past (then
    just short of) the earliest crossing the margins predict by linear interpolation, with a
    bisection whenever a probe fails to halve the bracket."""
    cache: dict[float, dict[str, FloatArray]] = {0.0: first}

    def at(s: float) -> dict[str, FloatArray]:
        got = cache.get(s)
        if got is None:
            got = cache[s] = margins(direction * s)
        return got

    start = {p: first[p] >= 0.0 for p in PERSONAL_POINTS}
    found: list[Crossing | None] = [None] * len(PERSONAL_POINTS)
    limit = abs(horizon_s)
    s_prev = 0.0
    while s_prev < limit and any(f is None for f in found):
        s_next = min(s_prev + step_s, limit)
        for k, p in enumerate(PERSONAL_POINTS):
            if found[k] is not None or np.array_equal(at(s_next)[p] >= 0.0, start[p]):
                continue
            lo, hi = s_prev, s_next
            nudge = _NUDGE_S
            while hi - lo > BRACKET_S:
                m_lo, m_hi = at(lo)[p], at(hi)[p]
                moved = (m_lo >= 0.0) != (m_hi >= 0.0)
                if moved.any():
                    share = m_lo[moved] / (m_lo[moved] - m_hi[moved])
                    probe = lo + (hi - lo) * float(share.min()) + nudge
                    nudge = -nudge
                else:
                    probe = 0.5 * (lo + hi)
                width = hi - lo
                probe = min(max(probe, lo + 0.05 * width), hi - 0.05 * width)
                if np.array_equal(at(probe)[p] >= 0.0, start[p]):
                    lo = probe
                else:
                    hi = probe
                if hi - lo > 0.5 * width:
                    mid = 0.5 * (lo + hi)
                    if np.array_equal(at(mid)[p] >= 0.0, start[p]):
                        lo = mid
                    else:
                        hi = mid
            found[k] = (direction * 0.5 * (lo + hi), _names(p, at(hi)[p] >= 0.0))
        s_prev = s_next
    return found


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

    if not angles_reliable(birth_lat):
        # Every personal point's set holds midpoints of the angles.
        return sensitivity((), uncertainty_minutes, horizon, (ANGLES_LEFT_OUT,))

    def margins(s: float) -> dict[str, FloatArray]:
        lons, _used, _warnings = factor_longitudes(shift.jd(s), birth_lat, birth_lon, node=node)
        return _margins(lons, dial, orb)

    first = margins(0.0)
    horizon_s = horizon * 60.0
    step_s = 40.0 * orb
    before = _first_changes(margins, -1, horizon_s, step_s, first)
    after = _first_changes(margins, 1, horizon_s, step_s, first)
    values = [_names(p, first[p] >= 0.0) for p in PERSONAL_POINTS]
    items = [
        item(f"{p}.midpoints", values[k], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, p in enumerate(PERSONAL_POINTS)
    ]
    return sensitivity(items, uncertainty_minutes, horizon)
