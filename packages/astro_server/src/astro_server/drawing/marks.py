"""Body marks shared by the wheels and the dial: a ring of glyphs at spread positions, each a
``<g data-body data-longitude>`` group holding the tick at the true position, the leader line
to the glyph when it had to move, the glyph and its labels."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from astro_server.drawing.canvas import Canvas, attr
from astro_server.drawing.geometry import point, spread
from astro_server.drawing.glyphs import glyph, has_glyph

_encode = msgspec.json.encode


def number_text(value: float) -> str:
    """A float exactly as the calculation's JSON response writes it (msgspec's encoding)."""
    return _encode(value).decode()


@dataclass(frozen=True)
class Mark:
    """One factor to draw: API ``name``, ``longitude`` (echoed in ``data-longitude``), the screen
    ``angle`` of its true position, the label under the glyph, whether it is retrograde."""

    name: str
    longitude: float
    angle: float
    retrograde: bool = False
    label: tuple[str, ...] = ()
    fallback: str = ""  # text drawn when there is no glyph (AC, MC)
    highlight: bool = False


@dataclass(frozen=True)
class Ring:
    """Radii (viewBox units) of one ring of marks."""

    tick_outer: float
    tick_inner: float
    glyph_r: float
    glyph_size: float
    label_size: tuple[float, ...]
    label_gap: float
    min_gap: float  # degrees between neighbouring glyphs


def _text_width(text: str, size: float) -> float:
    """Approximate advance of a short label in the bundled Noto Sans (digits 0.57 em)."""
    return 0.57 * size * len(text)


def degree_labels(longitude_in_sign: float) -> tuple[str, str]:
    """``12°`` and ``34′`` of a position within its sign (minutes truncated, as tables do)."""
    total = int(longitude_in_sign * 60.0 + 1e-9)
    return f"{total // 60}°", f"{total % 60:02d}′"


def draw_ring(
    canvas: Canvas, marks: Sequence[Mark], ring: Ring, cx: float, cy: float, colour: str
) -> None:
    pal = canvas.palette
    placed = spread([m.angle for m in marks], ring.min_gap)
    out: list[str] = []
    for mark, shown in zip(marks, placed, strict=True):
        fill = pal.primary if mark.highlight else colour
        x1, y1 = point(cx, cy, ring.tick_outer, mark.angle)
        x2, y2 = point(cx, cy, ring.tick_inner, mark.angle)
        parts = [
            f'<g class="body" data-body={attr(mark.name)} '
            f'data-longitude="{number_text(mark.longitude)}">',
            f'<line class="true-position" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" '
            f'y2="{y2:.2f}" stroke="{fill}" stroke-width="2.2"/>',
        ]
        if abs(((shown - mark.angle + 180.0) % 360.0) - 180.0) > 0.05:
            lx, ly = point(cx, cy, ring.glyph_r + ring.glyph_size * 0.62, shown)
            parts.append(
                f'<line class="leader" x1="{x2:.2f}" y1="{y2:.2f}" x2="{lx:.2f}" y2="{ly:.2f}" '
                f'stroke="{pal.muted}" stroke-width="1"/>'
            )
        gx, gy = point(cx, cy, ring.glyph_r, shown)
        if has_glyph(mark.name):
            parts.append(
                f'<g class="glyph" data-x="{gx:.2f}" data-y="{gy:.2f}" '
                f'data-size="{ring.glyph_size:.1f}">'
                + glyph(mark.name, gx, gy, ring.glyph_size, fill)
                + "</g>"
            )
        else:
            parts.append(
                f'<g class="glyph" data-x="{gx:.2f}" data-y="{gy:.2f}" '
                f'data-size="{ring.glyph_size:.1f}">'
                + canvas.text(gx, gy, mark.fallback, size=ring.glyph_size * 0.62, fill=fill)
                + "</g>"
            )
        # The labels and the retrograde mark stack inward from the glyph; each one's radial
        # room is its box's extent along the radius (wide text needs more room at 3 and 9
        # o'clock than at 12 and 6).
        across, along = abs(math.cos(math.radians(shown))), abs(math.sin(math.radians(shown)))
        radius = ring.glyph_r - ring.glyph_size / 2
        for text, size in zip(mark.label, ring.label_size, strict=False):
            half = (across * _text_width(text, size) + along * size) / 2
            radius -= ring.label_gap + half
            tx, ty = point(cx, cy, radius, shown)
            parts.append(canvas.text(tx, ty, text, size=size, fill=fill))
            radius -= half
        if mark.retrograde:
            retro = ring.glyph_size * 0.42
            radius -= ring.label_gap + retro / 2
            rx, ry = point(cx, cy, radius, shown)
            parts.append(glyph("retrograde", rx, ry, retro, pal.hard))
        parts.append("</g>")
        out.append("".join(parts))
    canvas.extend(out)
