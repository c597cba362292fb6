"""Birth-time sensitivity of the Human Design chart.

Results (``result`` names), each exactly as :func:`astro_calc.human_design.human_design_chart`
gives it for the moved birth (the design moment moves with it: it is found again, 88 degrees of
solar arc before each moved birth, so its uncertainty is followed too):

* ``type``, ``authority``, ``profile``, ``definition``;
* ``incarnation_cross``: the name with the four gates, ``"Right Angle Cross of the Sphinx 1
  (13/7 | 1/2)"``;
* ``centers.defined``: the defined centres in bodygraph order, comma-separated (``""`` for
  none); ``channels``: the defined channels, comma-separated;
* ``personality.<body>.gate`` and ``design.<body>.gate`` for the thirteen bodies of each side:
  the gate each activation stands in (the design side shows how the design moment's own
  movement carries its activations across gates).

Every result is a step function of the birth time that changes only when an activation enters
another gate (or, for the profile, a Sun enters another line). The chart is stepped every
:data:`STEP_S` seconds (a gate lasts at least eight hours for the fastest body, the Moon, and
the Suns' lines about a day; a slow body standing still on a gate's edge could cross it and
back within a step, which would be missed) and each change is bisected to 1 second
(:func:`astro_calc.sensitivity._search.discrete_changes`), on the chart's own functions.
"""

from __future__ import annotations

from astro_calc.human_design.chart import (
    BODIES,
    HumanDesignChart,
    chart_at,
    check_node,
)
from astro_calc.sensitivity._search import (
    Sensitivity,
    Shift,
    State,
    check_window,
    discrete_changes,
    item,
    sensitivity,
)
from astro_calc.western.subject import BirthSubject, resolve_subject

#: Seconds between two looks at the chart while searching.
STEP_S: float = 1800.0
CHART_RESULTS: tuple[str, ...] = (
    "type",
    "authority",
    "profile",
    "definition",
    "incarnation_cross",
    "centers.defined",
    "channels",
)
GATE_RESULTS: tuple[str, ...] = tuple(
    f"{side}.{body}.gate" for side in ("personality", "design") for body in BODIES
)
RESULTS: tuple[str, ...] = CHART_RESULTS + GATE_RESULTS


def result_values(chart: HumanDesignChart) -> tuple[str, ...]:
    """The value of every result of :data:`RESULTS` for a chart (module docstring)."""
    c = chart.incarnation_cross
    g = c.gates
    chart_values = (
        chart.type,
        chart.authority,
        chart.profile,
        chart.definition,
        f"{c.name} ({g[0]}/{g[1]} | {g[2]}/{g[3]})",
        ", ".join(x.name for x in chart.centers if x.defined),
        ", ".join(chart.channels),
    )
    gates = tuple(str(a.gate) for a in chart.activations.personality) + tuple(
        str(a.gate) for a in chart.activations.design
    )
    return chart_values + gates


def _state(chart: HumanDesignChart) -> State:
    values = result_values(chart)
    # What every chart-level result switches on: all gates and the two Suns' lines.
    identity = ",".join(values[len(CHART_RESULTS) :]) + (
        f"|{chart.activations.personality[0].line}{chart.activations.design[0].line}"
    )
    n = len(CHART_RESULTS)
    return tuple((identity, v) for v in values[:n]) + tuple((v, v) for v in values[n:])


def human_design_sensitivity(
    subject: BirthSubject,
    *,
    node: str = "true",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the type, authority, profile, definition, cross, defined centres, channels and
    every activation's gate of :func:`astro_calc.human_design.human_design_chart` (same birth
    and node) are to changing with the birth time: value, nearest change before and after within
    ``horizon_minutes`` (default 780), and whether each is certain within
    ``uncertainty_minutes`` (0..720); to 1 second (module docstring)."""
    kind = check_node(node)
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    echo = resolve_subject(subject)
    shift = Shift(echo.utc, echo.local, echo.julian_day)

    def state(s: float) -> State:
        return _state(chart_at(shift.jd(s), node=kind))

    first = state(0.0)
    horizon_s = horizon * 60.0
    before = discrete_changes(state, -1, horizon_s, STEP_S, first=first)
    after = discrete_changes(state, 1, horizon_s, STEP_S, first=first)
    items = [
        item(result, first[k][1], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, result in enumerate(RESULTS)
    ]
    return sensitivity(items, uncertainty_minutes, horizon)
