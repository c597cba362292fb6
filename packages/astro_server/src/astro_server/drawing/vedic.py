"""Vedic charts: the North Indian diamond (houses fixed, signs move) and the South Indian square
(signs fixed, Pisces top-left, running clockwise), for the rasi chart or any varga.

North: house 1 is the top diamond and the houses run counter-clockwise (2 top-left, 4 left,
7 bottom, 10 right); each house shows its sign number (1 = Aries) and its grahas. South: each of
the twelve border cells is a sign; the lagna's cell is marked with a diagonal and "As". Grahas
are written as abbreviations (English ``Su Mo Ma Me Ju Ve Sa Ra Ke``, Thai ``อา จ อ พ พฤ ศ ส รา
เก``), with the degree within the sign in the rasi chart (D1) and ``(R)`` when retrograde. Each
graha is a ``<g data-body data-longitude data-sign>`` group (the lagna's body name ``lagna``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from astro_calc.vedic import SiderealChart
from astro_calc.zodiac import SIGNS as _SIGNS
from astro_server.drawing.canvas import VIEW, Canvas, attr
from astro_server.drawing.glyphs import Language, labels
from astro_server.drawing.marks import number_text
from astro_server.drawing.themes import ThemeName, palette

Style = Literal["north", "south"]
M: Final = 80.0  # margin around the chart square
S: Final = VIEW - 2 * M
# North: per house, the label centre and the point toward which the sign number sits, in
# units of the square; triangles hold fewer names per row than diamonds.
_NORTH: Final = (
    ((0.50, 0.25), (0.50, 0.45), 3),
    ((0.25, 0.09), (0.25, 0.21), 2),
    ((0.09, 0.25), (0.21, 0.25), 1),
    ((0.25, 0.50), (0.45, 0.50), 3),
    ((0.09, 0.75), (0.21, 0.75), 1),
    ((0.25, 0.91), (0.25, 0.79), 2),
    ((0.50, 0.75), (0.50, 0.55), 3),
    ((0.75, 0.91), (0.75, 0.79), 2),
    ((0.91, 0.75), (0.79, 0.75), 1),
    ((0.75, 0.50), (0.55, 0.50), 3),
    ((0.91, 0.25), (0.79, 0.25), 1),
    ((0.75, 0.09), (0.75, 0.21), 2),
)
# South: sign index -> (column, row) of its cell on the 4 x 4 grid.
_SOUTH: Final = {
    11: (0, 0),
    0: (1, 0),
    1: (2, 0),
    2: (3, 0),
    3: (3, 1),
    4: (3, 2),
    5: (3, 3),
    6: (2, 3),
    7: (1, 3),
    8: (0, 3),
    9: (0, 2),
    10: (0, 1),
}


class _Entry:
    __slots__ = ("body", "longitude", "sign", "text")

    def __init__(self, body: str, longitude: float, sign: int, text: str) -> None:
        self.body, self.longitude, self.sign, self.text = body, longitude, sign, text


def _entries(chart: SiderealChart, varga: str, language: Language) -> list[_Entry]:
    names: dict[str, str] = labels()["vedic_abbreviation"][language]
    placement = chart.divisional_charts.get(varga)
    rasi = varga == "D1"
    out = []
    lagna = chart.lagna
    lagna_sign = (
        _SIGNS.index(placement["lagna"]) if placement and not rasi else lagna.sign_number - 1
    )
    text = names["lagna"] + (f" {int(lagna.degree_in_sign)}°" if rasi else "")
    out.append(_Entry("lagna", lagna.longitude_deg, lagna_sign, text))
    for g in chart.grahas:
        sign = _SIGNS.index(placement[g.name]) if placement and not rasi else g.sign_number - 1
        text = names[g.name] + (f" {int(g.degree_in_sign)}°" if rasi else "")
        if g.retrograde and g.name not in ("rahu", "ketu"):
            text += " (R)"
        out.append(_Entry(g.name, g.longitude_deg, sign, text))
    return out


def _names(canvas: Canvas, entries: list[_Entry], x: float, y: float, per_row: int) -> list[str]:
    pal = canvas.palette
    rows = [entries[i : i + per_row] for i in range(0, len(entries), per_row)]
    size = 22.0 if len(rows) <= 2 else 18.0 if len(rows) <= 3 else 15.0
    line = size * 1.3
    out = []
    top = y - (len(rows) - 1) * line / 2
    for r, row in enumerate(rows):
        width = 4.2 * size
        left = x - (len(row) - 1) * width / 2
        for k, entry in enumerate(row):
            colour = pal.primary if entry.body == "lagna" else pal.foreground
            out.append(
                f'<g class="body" data-body={attr(entry.body)} '
                f'data-longitude="{number_text(entry.longitude)}" '
                f'data-sign="{_SIGNS[entry.sign]}">'
                + canvas.text(left + k * width, top + r * line, entry.text, size=size, fill=colour)
                + "</g>"
            )
    return out


def _north(canvas: Canvas, entries: list[_Entry], lagna_sign: int) -> None:
    pal = canvas.palette
    x0, y0, x1, y1, mx, my = M, M, M + S, M + S, M + S / 2, M + S / 2
    stroke = f'stroke="{pal.foreground}" stroke-width="2" fill="none"'
    canvas.extend(
        [
            f'<rect x="{x0}" y="{y0}" width="{S}" height="{S}" fill="{pal.band}" '
            f'stroke="{pal.foreground}" stroke-width="2.4"/>',
            f'<path d="M{x0} {y0}L{x1} {y1}M{x1} {y0}L{x0} {y1}" {stroke}/>',
            f'<path d="M{mx} {y0}L{x1} {my}L{mx} {y1}L{x0} {my}Z" {stroke}/>',
        ]
    )
    for house in range(12):
        (cx, cy), (sx, sy), per_row = _NORTH[house]
        sign = (lagna_sign + house) % 12
        canvas.add(
            f'<g class="house" data-house="{house + 1}" data-sign="{_SIGNS[sign]}">'
            + canvas.text(M + sx * S, M + sy * S, str(sign + 1), size=17, fill=pal.muted)
            + "</g>"
        )
        inside = [e for e in entries if e.sign == sign]
        canvas.extend(_names(canvas, inside, M + cx * S, M + cy * S, per_row))


def _south(canvas: Canvas, entries: list[_Entry], lagna_sign: int, language: Language) -> None:
    pal = canvas.palette
    cell = S / 4
    sign_names: list[str] = labels()["sign"][language]
    out = [
        f'<rect x="{M}" y="{M}" width="{S}" height="{S}" fill="{pal.band}" '
        f'stroke="{pal.foreground}" stroke-width="2.4"/>',
        f'<rect x="{M + cell}" y="{M + cell}" width="{2 * cell}" height="{2 * cell}" '
        f'fill="{pal.background}" stroke="{pal.foreground}" stroke-width="2"/>',
    ]
    for sign, (col, row) in _SOUTH.items():
        x, y = M + col * cell, M + row * cell
        out.append(
            f'<g class="house" data-sign="{_SIGNS[sign]}"><rect x="{x:.1f}" y="{y:.1f}" '
            f'width="{cell:.1f}" height="{cell:.1f}" fill="none" stroke="{pal.foreground}" '
            'stroke-width="1.6"/>'
            + canvas.text(x + 8, y + 16, sign_names[sign], size=14, fill=pal.muted, anchor="start")
            + "</g>"
        )
        if sign == lagna_sign:
            out.append(
                f'<path d="M{x + cell - 46:.1f} {y:.1f}L{x + cell:.1f} {y + 46:.1f}" '
                f'stroke="{pal.primary}" stroke-width="2.4"/>'
            )
        inside = [e for e in entries if e.sign == sign]
        out.extend(_names(canvas, inside, x + cell / 2, y + cell / 2 + 10, 2))
    canvas.extend(out)


def vedic_chart_svg(
    chart: SiderealChart,
    *,
    style: Style = "north",
    varga: str = "D1",
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
) -> str:
    """The chart of ``varga`` (``D1`` the rasi chart; any varga in ``chart.divisional_charts``)
    in the North or South Indian style, as an SVG document."""
    key = varga.upper()
    if key != "D1" and key not in chart.divisional_charts:
        raise ValueError(f"the chart has no divisional chart {varga!r}")
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    varga_name = labels()["varga"][language].get(key, key)
    heading = f"{key} {varga_name}"
    canvas = Canvas(pal, title=heading, thai=language == "th")
    entries = _entries(chart, key, language)
    lagna_sign = entries[0].sign
    if style == "north":
        _north(canvas, entries, lagna_sign)
        canvas.add(canvas.text(M, M / 2, heading, size=24, fill=pal.foreground, anchor="start"))
        canvas.add(
            canvas.text(
                VIEW - M,
                M / 2,
                f"{chart.ayanamsa} {chart.utc:%Y-%m-%d %H:%M} UTC",
                size=15,
                fill=pal.muted,
                anchor="end",
            )
        )
    else:
        _south(canvas, entries, lagna_sign, language)
        canvas.add(canvas.text(VIEW / 2, VIEW / 2 - 20, heading, size=28, fill=pal.foreground))
        canvas.add(
            canvas.text(
                VIEW / 2,
                VIEW / 2 + 22,
                f"{chart.ayanamsa} {chart.utc:%Y-%m-%d %H:%M} UTC",
                size=15,
                fill=pal.muted,
            )
        )
    return canvas.svg(size_px)
