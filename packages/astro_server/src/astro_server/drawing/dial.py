"""The Uranian dial: 90°, 45° or 22.5°, 0 at 12 o'clock, counter-clockwise (the Hamburg School's
dial; :func:`astro_server.drawing.geometry.dial_angle`).

Every factor of the Uranian chart (planets, node, ascendant, midheaven, Aries point and the eight
Hamburg bodies) is a ``<g data-body data-longitude>`` group at ``longitude mod dial``. With a
pointer (``pointer_deg``, a dial position) the pointer's axis is drawn, and the factors and
midpoints within ``orb_max`` of it on the dial are highlighted; the touched midpoints are marked
on the inner circle and listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from astro_calc.uranian import Midpoint, UranianPosition
from astro_server.drawing.canvas import CENTRE, Canvas
from astro_server.drawing.geometry import dial_angle, point
from astro_server.drawing.glyphs import Language, labels
from astro_server.drawing.marks import Mark, Ring, draw_ring, number_text
from astro_server.drawing.themes import ThemeName, palette

C: Final = CENTRE
R_DIAL: Final = 400.0
R_INNER: Final = 250.0
RING: Final = Ring(
    tick_outer=R_DIAL,
    tick_inner=R_DIAL - 14,
    glyph_r=355,
    glyph_size=28,
    label_size=(13,),
    label_gap=3,
    min_gap=6.8,
)
ABBREVIATIONS: Final = {
    "sun": "SU",
    "moon": "MO",
    "mercury": "ME",
    "venus": "VE",
    "mars": "MA",
    "jupiter": "JU",
    "saturn": "SA",
    "uranus": "UR",
    "neptune": "NE",
    "pluto": "PL",
    "node": "NO",
    "ascendant": "AS",
    "midheaven": "MC",
    "aries_point": "AR",
    "cupido": "CU",
    "hades": "HA",
    "zeus": "ZE",
    "kronos": "KR",
    "apollon": "AP",
    "admetos": "AD",
    "vulkanus": "VU",
    "poseidon": "PO",
}


def dial_distance(a: float, b: float, dial: float) -> float:
    """Shortest distance of two positions on a dial of ``dial`` degrees."""
    d = (a - b) % dial
    return min(d, dial - d)


def _scale(canvas: Canvas, dial: float) -> None:
    pal = canvas.palette
    out = [
        f'<circle cx="{C}" cy="{C}" r="{R_DIAL + 40}" fill="{pal.band}" '
        f'stroke="{pal.foreground}" stroke-width="2"/>',
        f'<circle cx="{C}" cy="{C}" r="{R_DIAL}" fill="{pal.background}" '
        f'stroke="{pal.foreground}" stroke-width="1.6"/>',
        f'<circle cx="{C}" cy="{C}" r="{R_INNER}" fill="none" stroke="{pal.muted}" '
        'stroke-width="1"/>',
    ]
    step = dial / 90.0  # 90 divisions whatever the dial
    ticks = []
    for k in range(90):
        a = dial_angle(k * step, dial)
        length = 18.0 if k % 5 == 0 else 8.0
        x1, y1 = point(C, C, R_DIAL, a)
        x2, y2 = point(C, C, R_DIAL + length, a)
        ticks.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
        if k % 5 == 0:
            lx, ly = point(C, C, R_DIAL + 29, a)
            value = k * step
            text = f"{value:g}"
            out.append(canvas.text(lx, ly, text, size=13, fill=pal.foreground))
    out.append(f'<path d="{"".join(ticks)}" stroke="{pal.foreground}" stroke-width="1"/>')
    canvas.extend(out)


def uranian_dial_svg(
    positions: Sequence[UranianPosition],
    midpoints: Sequence[Midpoint],
    *,
    dial: float,
    orb_max: float,
    pointer_deg: float | None = None,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
    caption: Sequence[str] = (),
) -> str:
    """The dial as an SVG document (see the module docstring)."""
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    heading = f"{labels()['title'][language]['dial']} {dial:g}°"
    canvas = Canvas(pal, title=heading, thai=language == "th")
    _scale(canvas, dial)
    touched: list[Midpoint] = []
    if pointer_deg is not None:
        pointer = pointer_deg % dial
        touched = [m for m in midpoints if dial_distance(m.dial_position, pointer, dial) <= orb_max]
        a = dial_angle(pointer, dial)
        x1, y1 = point(C, C, R_DIAL + 6, a)
        x2, y2 = point(C, C, R_DIAL, a + 180.0)
        canvas.add(
            f'<g class="pointer" data-dial-position="{number_text(pointer)}">'
            f'<line x1="{x2:.2f}" y1="{y2:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" '
            f'stroke="{pal.primary}" stroke-width="2.4"/>'
            f'<circle cx="{x1:.2f}" cy="{y1:.2f}" r="6" fill="{pal.primary}"/></g>'
        )
        marks = []
        for m in touched:
            mx, my = point(C, C, R_INNER, dial_angle(m.dial_position, dial))
            marks.append(
                f'<circle class="midpoint" data-pair="{m.pair[0]}/{m.pair[1]}" '
                f'data-longitude="{number_text(m.longitude)}" cx="{mx:.2f}" cy="{my:.2f}" '
                f'r="4.5" fill="{pal.primary}"/>'
            )
        canvas.extend(marks)
    marks_out = []
    for p in positions:
        hit = pointer_deg is not None and (
            dial_distance(p.dial_position, pointer_deg % dial, dial) <= orb_max
        )
        marks_out.append(
            Mark(
                p.name,
                p.longitude,
                dial_angle(p.dial_position, dial),
                label=(f"{p.dial_position:.1f}°",),
                fallback=ABBREVIATIONS[p.name],
                highlight=hit,
            )
        )
    draw_ring(canvas, marks_out, RING, C, C, pal.foreground)
    lines = [heading, *caption]
    for index, line in enumerate(lines):
        canvas.add(
            canvas.text(
                18,
                30 + 24 * index,
                line,
                size=22 if index == 0 else 15,
                fill=pal.foreground,
                anchor="start",
            )
        )
    if touched:
        listed = [f"{ABBREVIATIONS[m.pair[0]]}/{ABBREVIATIONS[m.pair[1]]}" for m in touched]
        rows = [" ".join(listed[i : i + 6]) for i in range(0, min(len(listed), 36), 6)]
        for index, row in enumerate(reversed(rows)):
            canvas.add(
                canvas.text(18, 980 - 20 * index, row, size=14, fill=pal.primary, anchor="start")
            )
    return canvas.svg(size_px)
