"""The Thai Taksa wheel (ทักษา): eight sectors for the eight directions, north at the top, each
with its fixed planet (the classical table: Sun north-east, then clockwise Moon east, Mars
south-east, Mercury south, Saturn south-west, Jupiter west, Rahu north-west, Venus north), the
planet's Taksa number, and the role it takes for the birth day (บริวาร, อายุ, เดช, ศรี, มูละ,
อุตสาหะ, มนตรี, กาลกิณี). Kalakini is drawn in the warning colour, the favoured roles (ศรี, เดช,
มนตรี, อายุ) in the primary colour; the birth planet's sector is outlined; with a moving Taksa
its planet carries a ring. Each sector is a ``<g data-position data-planet>`` group.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from astro_calc.glossary import date_text
from astro_calc.thai import TaksaWheel
from astro_calc.thai.taksa import FAVOURED_POSITIONS
from astro_server.drawing.canvas import CENTRE, Canvas, attr
from astro_server.drawing.geometry import point
from astro_server.drawing.glyphs import Language, glyph, labels
from astro_server.drawing.themes import ThemeName, palette

C: Final = CENTRE
R_OUT: Final = 400.0
R_IN: Final = 120.0
_GLYPH: Final = {"rahu": "north_node"}


def _screen(compass: float) -> float:
    """Screen angle (counter-clockwise from 3 o'clock) of a compass bearing (clockwise from
    north)."""
    return (90.0 - compass) % 360.0


def taksa_wheel_svg(
    wheel: TaksaWheel,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "th",
    size_px: int = 800,
) -> str:
    """The Taksa wheel of a birth as an SVG document (see the module docstring)."""
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    table = labels()
    titles = table["title"][language]
    heading = titles["taksa"]
    canvas = Canvas(pal, title=heading, thai=True)
    th = language == "th"
    directions = table["taksa_direction"]
    out = [
        f'<circle cx="{C}" cy="{C}" r="{R_OUT}" fill="{pal.band}" stroke="{pal.foreground}" '
        'stroke-width="2.4"/>'
    ]
    moving = wheel.yearly.planet if wheel.yearly is not None else None
    for position in wheel.positions:
        direction = directions[position.planet]
        centre = _screen(float(direction["angle"]))
        if position.position == "kalakini":
            colour = pal.warn
        elif position.position in FAVOURED_POSITIONS:
            colour = pal.primary
        else:
            colour = pal.foreground
        a0, a1 = centre - 22.5, centre + 22.5
        x0, y0 = point(C, C, R_OUT, a0)
        x1, y1 = point(C, C, R_OUT, a1)
        i0, j0 = point(C, C, R_IN, a0)
        i1, j1 = point(C, C, R_IN, a1)
        birth = position.position == "boriwan"
        sector = (
            f'<path d="M{i0:.2f} {j0:.2f}L{x0:.2f} {y0:.2f}A{R_OUT} {R_OUT} 0 0 0 {x1:.2f} '
            f'{y1:.2f}L{i1:.2f} {j1:.2f}A{R_IN} {R_IN} 0 0 1 {i0:.2f} {j0:.2f}Z" '
            f'fill="{pal.background if not birth else pal.band}" stroke="{pal.foreground}" '
            f'stroke-width="{3.2 if birth else 1.4}"/>'
        )
        parts = [
            f'<g class="taksa" data-position={attr(position.position)} '
            f"data-planet={attr(position.planet)}>",
            sector,
        ]
        # The compass word outside the rim; inside, a vertical stack at the sector's middle
        # (glyph, planet and number, role), which reads the same in every sector.
        horizontal = math.cos(math.radians(centre))
        anchor = "end" if horizontal < -0.3 else "start" if horizontal > 0.3 else "middle"
        dx, dy = point(C, C, R_OUT + 22, centre)
        parts.append(
            canvas.text(
                dx, dy, direction["th" if th else "en"], size=18, fill=pal.muted, anchor=anchor
            )
        )
        mx, my = point(C, C, 272, centre)
        parts.append(glyph(_GLYPH.get(position.planet, position.planet), mx, my - 38, 42, colour))
        if moving == position.planet:
            parts.append(
                f'<circle class="moving" cx="{mx:.2f}" cy="{my - 38:.2f}" r="33" fill="none" '
                f'stroke="{pal.primary}" stroke-width="2.4" stroke-dasharray="5 4"/>'
            )
        planet_name = position.planet_th if th else position.planet_en
        parts.append(
            canvas.text(
                mx, my + 10, f"{planet_name} {position.planet_number}", size=19, fill=pal.foreground
            )
        )
        role = position.position_th if th else position.position_en
        name, _, gloss = role.partition(" (")  # English roles carry their meaning in brackets
        parts.append(canvas.text(mx, my + 42, name, size=24, fill=colour))
        if gloss:
            parts.append(canvas.text(mx, my + 68, gloss.rstrip(")"), size=15, fill=colour))
        parts.append("</g>")
        out.append("".join(parts))
    out.append(
        f'<circle cx="{C}" cy="{C}" r="{R_IN}" fill="{pal.background}" '
        f'stroke="{pal.foreground}" stroke-width="2"/>'
    )
    day = wheel.birth_day_th if th else wheel.birth_day_en
    out.append(canvas.text(C, C - 36, titles["born"], size=18, fill=pal.muted))
    out.append(canvas.text(C, C - 4, day, size=26, fill=pal.foreground))
    out.append(
        canvas.text(
            C,
            C + 34,
            date_text(wheel.thai_day_date, "th", short=True)
            if th
            else f"{wheel.thai_day_date:%Y-%m-%d}",
            size=16,
            fill=pal.muted,
        )
    )
    if wheel.yearly is not None:
        out.append(
            canvas.text(
                C, C + 62, f"{titles['age']} {wheel.yearly.age_years}", size=16, fill=pal.primary
            )
        )
    out.append(canvas.text(18, 32, heading, size=26, fill=pal.foreground, anchor="start"))
    canvas.extend(out)
    return canvas.svg(size_px)
