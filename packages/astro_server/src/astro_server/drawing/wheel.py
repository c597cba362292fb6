"""The Western wheel: natal (one ring of bodies) and bi-wheels (synastry, transits: the natal
chart inside, the other chart's bodies in a ring outside it).

Layout (viewBox 1000, centre 500): the zodiac band (radius 380 to 440) with sign glyphs coloured
by element and 1°/5°/10° ticks; the bodies inside it; the house-number ring; the aspect circle.
Conventions of :mod:`astro_server.drawing.geometry`: the ascendant at 9 o'clock, the zodiac
counter-clockwise. Cusp lines carry ``data-cusp`` and ``data-longitude``; body groups
``data-body`` and ``data-longitude``, both exactly the numbers of the calculation's response.
Aspect lines join the true positions on the aspect circle, coloured by kind (hard red, soft
blue, quincunx and quintiles green, minor aspects grey, thinner and fainter; conjunctions draw
no line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from astro_calc.glossary import date_text
from astro_calc.western import Aspect, NatalChart
from astro_calc.zodiac import SIGNS as _SIGNS
from astro_server.drawing.canvas import CENTRE, Canvas
from astro_server.drawing.geometry import point, wheel_angle
from astro_server.drawing.glyphs import Language, glyph, labels
from astro_server.drawing.marks import Mark, Ring, degree_labels, draw_ring, number_text
from astro_server.drawing.themes import (
    MAJOR_ASPECTS,
    ThemeName,
    aspect_colour,
    palette,
    sign_colour,
)

C: Final = CENTRE
R_OUTER: Final = 412.0
R_BAND: Final = 356.0
_ANGLE_NAMES: Final = ("ascendant", "descendant", "midheaven", "imum_coeli")

SINGLE_RING: Final = Ring(
    tick_outer=R_BAND,
    tick_inner=R_BAND - 12,
    glyph_r=318,
    glyph_size=28,
    label_size=(15, 12),
    label_gap=2.5,
    min_gap=6.6,
)
OUTER_RING: Final = Ring(
    tick_outer=R_BAND,
    tick_inner=R_BAND - 10,
    glyph_r=333,
    glyph_size=23,
    label_size=(13, 11),
    label_gap=2.5,
    min_gap=6.2,
)
INNER_RING: Final = Ring(
    tick_outer=266,
    tick_inner=256,
    glyph_r=239,
    glyph_size=23,
    label_size=(13, 11),
    label_gap=2.5,
    min_gap=7.8,
)


@dataclass(frozen=True)
class _Layout:
    houses_inner: float  # the aspect circle
    houses_outer: float  # the house-number ring's outer edge
    number_r: float


_SINGLE: Final = _Layout(houses_inner=196, houses_outer=230, number_r=213)
_DOUBLE: Final = _Layout(houses_inner=146, houses_outer=176, number_r=161)


def _style(
    theme: ThemeName, colors: Mapping[str, str] | None, language: Language, title: str
) -> Canvas:
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    return Canvas(pal, title=title, thai=language == "th")


def _zodiac(canvas: Canvas, ascendant: float) -> None:
    pal = canvas.palette
    # The band is one wide stroke (an annulus), not a filled disc under a filled disc: resvg
    # then paints only the band's pixels.
    out = [
        f'<circle cx="{C}" cy="{C}" r="{(R_OUTER + R_BAND) / 2}" fill="none" '
        f'stroke="{pal.band}" stroke-width="{R_OUTER - R_BAND}"/>',
        f'<circle cx="{C}" cy="{C}" r="{R_OUTER}" fill="none" stroke="{pal.foreground}" '
        'stroke-width="2"/>',
        f'<circle cx="{C}" cy="{C}" r="{R_BAND}" fill="none" stroke="{pal.foreground}" '
        'stroke-width="1.6"/>',
    ]
    ticks = []
    for degree in range(360):
        length = 16.0 if degree % 10 == 0 else 10.0 if degree % 5 == 0 else 5.0
        a = wheel_angle(float(degree), ascendant)
        x1, y1 = point(C, C, R_BAND, a)
        x2, y2 = point(C, C, R_BAND + length, a)
        ticks.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    out.append(f'<path d="{"".join(ticks)}" stroke="{pal.foreground}" stroke-width="0.9"/>')
    for index, sign in enumerate(_SIGNS):
        a = wheel_angle(30.0 * index, ascendant)
        x1, y1 = point(C, C, R_BAND, a)
        x2, y2 = point(C, C, R_OUTER, a)
        out.append(
            f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" '
            f'stroke="{pal.foreground}" stroke-width="1.4"/>'
        )
        gx, gy = point(C, C, (R_BAND + 16 + R_OUTER) / 2, a + 15.0)
        out.append(
            f'<g class="sign" data-sign="{sign}">'
            + glyph(sign, gx, gy, 28, sign_colour(pal, index))
            + "</g>"
        )
    canvas.extend(out)


def _houses(
    canvas: Canvas, chart: NatalChart, layout: _Layout, outer: float, language: Language
) -> None:
    pal = canvas.palette
    asc = chart.angles.ascendant.longitude
    out = [
        f'<circle cx="{C}" cy="{C}" r="{layout.houses_outer}" fill="none" '
        f'stroke="{pal.foreground}" stroke-width="1"/>',
        f'<circle cx="{C}" cy="{C}" r="{layout.houses_inner}" fill="none" '
        f'stroke="{pal.foreground}" stroke-width="1.2"/>',
    ]
    cusps = [h.cusp for h in chart.houses]
    for index, house in enumerate(chart.houses):
        a = wheel_angle(house.cusp, asc)
        x1, y1 = point(C, C, layout.houses_inner, a)
        x2, y2 = point(C, C, outer, a)
        out.append(
            f'<line class="cusp" data-cusp="{house.number}" '
            f'data-longitude="{number_text(house.cusp)}" x1="{x1:.2f}" y1="{y1:.2f}" '
            f'x2="{x2:.2f}" y2="{y2:.2f}" stroke="{pal.muted}" stroke-width="1.1"/>'
        )
        following = cusps[(index + 1) % len(cusps)]
        middle = house.cusp + ((following - house.cusp) % 360.0) / 2
        nx, ny = point(C, C, layout.number_r, wheel_angle(middle, asc))
        out.append(canvas.text(nx, ny, str(house.number), size=15, fill=pal.foreground))
    # The angles: axes from the aspect circle out past the zodiac, labelled outside.
    names = labels()["angle"][language]
    for name in _ANGLE_NAMES:
        lon = getattr(chart.angles, name).longitude
        a = wheel_angle(lon, asc)
        x1, y1 = point(C, C, layout.houses_inner, a)
        x2, y2 = point(C, C, R_OUTER + 18, a)
        width = 2.6 if name in ("ascendant", "midheaven") else 1.6
        out.append(
            f'<line class="angle" data-angle="{name}" data-longitude="{number_text(lon)}" '
            f'x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{pal.primary}" '
            f'stroke-width="{width}"/>'
        )
        _, minutes = degree_labels(lon % 30.0)
        degrees = f"{int(lon % 30.0)}°{minutes}"
        horizontal = math.cos(math.radians(a))
        if abs(horizontal) > 0.5:  # name above the axis, degrees below it, outside the wheel
            anchor = "end" if horizontal < 0 else "start"
            lx, ly = point(C, C, R_OUTER + 10, a)
            out.append(
                canvas.text(lx, ly - 13, names[name], size=15, fill=pal.primary, anchor=anchor)
            )
            out.append(canvas.text(lx, ly + 13, degrees, size=13, fill=pal.primary, anchor=anchor))
        else:
            lx, ly = point(C, C, R_OUTER + 32, a)
            out.append(canvas.text(lx, ly, f"{names[name]} {degrees}", size=15, fill=pal.primary))
    canvas.extend(out)


def _marks(chart: NatalChart, ascendant: float) -> list[Mark]:
    marks = []
    for p in chart.planets:
        degrees, minutes = degree_labels(p.sign_degree)
        marks.append(
            Mark(
                p.name,
                p.longitude,
                wheel_angle(p.longitude, ascendant),
                p.retrograde,
                (degrees, minutes),
            )
        )
    return marks


def _positions(chart: NatalChart) -> dict[str, float]:
    found = {p.name: p.longitude for p in chart.planets}
    found["ascendant"] = chart.angles.ascendant.longitude
    found["midheaven"] = chart.angles.midheaven.longitude
    return found


def _aspects(
    canvas: Canvas,
    aspects: Sequence[Aspect],
    first: Mapping[str, float],
    second: Mapping[str, float],
    ascendant: float,
    radius: float,
) -> None:
    pal = canvas.palette
    out = []
    for aspect in aspects:
        if aspect.aspect == "conjunction":
            continue
        a = first.get(aspect.body1)
        b = second.get(aspect.body2)
        if a is None or b is None:
            continue
        x1, y1 = point(C, C, radius, wheel_angle(a, ascendant))
        x2, y2 = point(C, C, radius, wheel_angle(b, ascendant))
        major = aspect.aspect in MAJOR_ASPECTS
        # Minor aspects thinner and fainter, not dashed: dashes doubled resvg's time for them.
        width = 1.8 if major else 0.9
        opacity = max(0.35, 1.0 - aspect.orb / 10.0) * (1.0 if major else 0.7)
        out.append(
            f'<line class="aspect" data-aspect="{aspect.aspect}" data-body1="{aspect.body1}" '
            f'data-body2="{aspect.body2}" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" '
            f'y2="{y2:.2f}" stroke="{aspect_colour(pal, aspect.aspect)}" '
            f'stroke-width="{width}" stroke-opacity="{opacity:.2f}"/>'
        )
    canvas.extend(out)


def _caption(canvas: Canvas, lines: Sequence[str]) -> None:
    pal = canvas.palette
    for index, line in enumerate(lines):
        size = 22.0 if index == 0 else 15.0
        y = 28.0 + (0 if index == 0 else 8 + 20 * index)
        canvas.add(canvas.text(18, y, line, size=size, fill=pal.foreground, anchor="start"))


def _when(chart: NatalChart, language: Language = "en") -> str:
    """The birth's local date and time with its offset; Thai prints the Buddhist Era date with
    the Thai month's abbreviation (``1 พ.ค. 2533 07:30 น. (UTC+7)``)."""
    meta = chart.meta
    offset = f"(UTC{meta.offset_minutes / 60:+g})"
    if language == "th":
        return f"{date_text(meta.local.date(), 'th', short=True)} {meta.local:%H:%M} น. {offset}"
    return f"{meta.local:%Y-%m-%d %H:%M} {offset}"


def _house_system(chart: NatalChart, language: Language) -> str:
    names: dict[str, str] = labels()["house_system"][language]
    code = chart.meta.house_system
    return names.get(code, code)


def natal_wheel_svg(
    chart: NatalChart,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
    title: str | None = None,
) -> str:
    """The natal wheel of a :class:`~astro_calc.western.NatalChart` as an SVG document
    (``size_px`` wide and high; any chart with ``planets``, ``houses``, ``angles`` and
    ``aspects`` of the natal shape, a composite or a return chart too)."""
    heading = title or labels()["title"][language]["natal"]
    canvas = _style(theme, colors, language, heading)
    asc = chart.angles.ascendant.longitude
    _zodiac(canvas, asc)
    _houses(canvas, chart, _SINGLE, R_BAND, language)
    positions = _positions(chart)
    _aspects(canvas, chart.aspects, positions, positions, asc, _SINGLE.houses_inner)
    draw_ring(canvas, _marks(chart, asc), SINGLE_RING, C, C, canvas.palette.foreground)
    _caption(canvas, (heading, _when(chart, language), _house_system(chart, language)))
    return canvas.svg(size_px)


def bi_wheel_svg(
    inner: NatalChart,
    outer: NatalChart,
    aspects: Sequence[Aspect],
    *,
    kind: Literal["synastry", "transits"] = "synastry",
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
) -> str:
    """Two charts on one wheel: ``inner``'s houses, angles and bodies inside, ``outer``'s bodies
    in the ring outside them, and ``aspects`` (``body1`` of inner, ``body2`` of outer) across
    the centre. The outer ring's groups carry ``data-ring="outer"``."""
    names = labels()["title"][language]
    heading = names[kind]
    canvas = _style(theme, colors, language, heading)
    pal = canvas.palette
    asc = inner.angles.ascendant.longitude
    _zodiac(canvas, asc)
    canvas.add(
        f'<circle cx="{C}" cy="{C}" r="{INNER_RING.tick_outer}" fill="none" '
        f'stroke="{pal.foreground}" stroke-width="1.2"/>'
    )
    _houses(canvas, inner, _DOUBLE, R_BAND, language)
    _aspects(canvas, aspects, _positions(inner), _positions(outer), asc, _DOUBLE.houses_inner)
    canvas.add('<g data-ring="inner">')
    draw_ring(canvas, _marks(inner, asc), INNER_RING, C, C, pal.foreground)
    canvas.add('</g><g data-ring="outer">')
    draw_ring(canvas, _marks(outer, asc), OUTER_RING, C, C, pal.primary)
    canvas.add("</g>")
    _caption(
        canvas,
        (
            heading,
            f"{names['inner']}: {_when(inner, language)}",
            f"{names['outer']}: {_when(outer, language)}",
        ),
    )
    return canvas.svg(size_px)
