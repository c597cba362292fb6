"""Bar charts drawn on the server as inline SVG (no script, no chart library, no CDN).

:func:`bars` lays out a grouped vertical bar chart (one group per category, e.g. a day; one bar
per series, e.g. a product) and :func:`hbars` a horizontal one (one row per category). Both
return plain geometry in the SVG's own units; ``templates/portal/_charts.html`` draws it, with
a ``<title>``/``<desc>`` and the same numbers as a data table for screen readers and print.

Scale: linear from 0; the axis top is the smallest "nice" number (1, 2 or 5 x 10^n) at or
above the largest value, so the three gridlines (0, half, top) read as round numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

WIDTH: Final = 720
HEIGHT: Final = 260
LEFT: Final = 48
RIGHT: Final = 12
TOP: Final = 14
BOTTOM: Final = 40
MAX_X_LABELS: Final = 8
#: Series colours: each at least 3:1 against white (WCAG 1.4.11, graphical objects).
COLOURS: Final = ("#4a2fb0", "#b4410a", "#17683a")


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    label: str  # "<category>, <series>: <value>" (the bar's tooltip)
    value: str  # the value as written next to a horizontal bar


@dataclass(frozen=True)
class Tick:
    position: float  # y for a vertical chart, x for a horizontal one
    label: str


@dataclass
class Chart:
    width: int
    height: int
    bars: list[Bar] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)  # value axis
    labels: list[Tick] = field(default_factory=list)  # category axis
    legend: list[tuple[str, str]] = field(default_factory=list)  # (colour, series name)
    plot: tuple[float, float, float, float] = (0, 0, 0, 0)  # left, top, right, bottom


def nice_top(value: float) -> float:
    """The smallest of 1, 2, 5 x 10^n at or above ``value`` (1 for nothing to show)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if step * power >= value:
            return float(step * power)
    return float(10 * power)  # pragma: no cover - the loop always returns


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def bars(
    categories: list[str],
    series: list[tuple[str, list[float]]],
    *,
    short: dict[str, str] | None = None,
) -> Chart:
    """Grouped vertical bars: ``series`` is ``[(name, one value per category), ...]``;
    ``short`` gives a shorter axis label per category (e.g. ``11-24`` for a date)."""
    chart = Chart(WIDTH, HEIGHT)
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    chart.plot = (left, top, right, bottom)
    peak = max((v for _, values in series for v in values), default=0)
    axis_top = max(2.0, nice_top(peak))  # counts: whole-number gridlines (0, 1, 2) at least
    span = bottom - top
    chart.ticks = [Tick(bottom - span * f, _number(axis_top * f)) for f in (0.0, 0.5, 1.0)]
    band = (right - left) / max(1, len(categories))
    bar_w = band * 0.8 / max(1, len(series))
    every = max(1, math.ceil(len(categories) / MAX_X_LABELS))
    for i, category in enumerate(categories):
        x0 = left + band * i + band * 0.1
        for j, (name, values) in enumerate(series):
            value = values[i]
            h = span * value / axis_top
            chart.bars.append(
                Bar(
                    x0 + bar_w * j,
                    bottom - h,
                    bar_w,
                    h,
                    COLOURS[j % len(COLOURS)],
                    f"{category}, {name}: {_number(value)}",
                    _number(value),
                )
            )
        if i % every == 0:
            label = (short or {}).get(category, category)
            chart.labels.append(Tick(left + band * i + band / 2, label))
    chart.legend = [(COLOURS[j % len(COLOURS)], name) for j, (name, _) in enumerate(series)]
    return chart


def hbars(categories: list[str], series: list[tuple[str, list[float]]]) -> Chart:
    """Grouped horizontal bars, one row per category (a product), one bar per series."""
    row_h = 24 * max(1, len(series)) + 16
    height = TOP + row_h * max(1, len(categories)) + BOTTOM
    chart = Chart(WIDTH, height)
    left, top, right, bottom = 150, TOP, WIDTH - 60, height - BOTTOM
    chart.plot = (left, top, right, bottom)
    peak = max((v for _, values in series for v in values), default=0)
    axis_top = max(2.0, nice_top(peak))  # counts: whole-number gridlines (0, 1, 2) at least
    span = right - left
    chart.ticks = [Tick(left + span * f, _number(axis_top * f)) for f in (0.0, 0.5, 1.0)]
    for i, category in enumerate(categories):
        y0 = top + row_h * i + 8
        for j, (name, values) in enumerate(series):
            value = values[i]
            chart.bars.append(
                Bar(
                    left,
                    y0 + 24 * j,
                    span * value / axis_top,
                    20,
                    COLOURS[j % len(COLOURS)],
                    f"{category}, {name}: {_number(value)}",
                    _number(value),
                )
            )
        chart.labels.append(Tick(y0 + 24 * len(series) / 2, category))
    chart.legend = [(COLOURS[j % len(COLOURS)], name) for j, (name, _) in enumerate(series)]
    return chart
