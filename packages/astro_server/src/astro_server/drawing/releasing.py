"""The zodiacal releasing timeline: one band per level over the answer's window, time running
left to right, each period a box with its sign's glyph where there is room.

Peaks (signs angular to Fortune) are filled in the primary colour, the strongest (the 10th sign
from Fortune) darker; a period that opens with the loosing of the bond carries a mark in the
warning colour at its start. Under the bands, the level-1 periods are listed with their dates.
Each period is a ``<rect data-level data-sign data-start data-end data-peak data-loosing>``;
the year ticks carry ``data-year``. Names come from the glossary (en/th).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Final

from astro_calc import glossary
from astro_calc.western.traditional import ZodiacalReleasing
from astro_calc.zodiac import SIGNS
from astro_server.drawing.canvas import VIEW, Canvas, attr
from astro_server.drawing.glyphs import Language, glyph
from astro_server.drawing.themes import ThemeName, palette, sign_colour

LEFT: Final = 70.0
RIGHT: Final = VIEW - 40.0
_BANDS: Final = {1: (150.0, 80.0), 2: (250.0, 60.0), 3: (330.0, 44.0), 4: (394.0, 32.0)}
_MIN_GLYPH_WIDTH: Final = 16.0


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _date(moment: datetime, language: Language) -> str:
    return glossary.date_text(moment.astimezone(UTC).date(), language, short=True)


def releasing_timeline_svg(
    releasing: ZodiacalReleasing,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
) -> str:
    """The releasing periods of :func:`astro_calc.western.traditional.zodiacal_releasing` as an
    SVG timeline (see the module docstring)."""
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    technique = glossary.name("traditional", "zodiacal_releasing", language, short=True)
    lot = glossary.name("traditional", f"lot_{releasing.lot}", language)
    title = f"{technique[:1].upper()}{technique[1:]}: {lot}"
    canvas = Canvas(pal, title=title, thai=language == "th")
    t0 = releasing.start.timestamp()
    t1 = releasing.end.timestamp()
    scale = (RIGHT - LEFT) / max(t1 - t0, 1.0)

    def x_of(moment: datetime) -> float:
        return LEFT + (moment.timestamp() - t0) * scale

    out: list[str] = [canvas.text(VIEW / 2, 50.0, title, size=30.0, fill=pal.foreground)]
    fortune = glossary.name("sign", releasing.fortune_sign, language)
    sub = f"{glossary.name('traditional', 'lot_fortune', language)}: {fortune}"
    out.append(canvas.text(VIEW / 2, 90.0, sub, size=20.0, fill=pal.muted))
    # Year ticks: about eight across the window.
    first, last = releasing.start.year, releasing.end.year
    step = max(1, round((last - first) / 8))
    for year in range(first + 1, last + 1):
        if (year - first) % step:
            continue
        x = x_of(datetime(year, 1, 1, tzinfo=UTC))
        if not LEFT <= x <= RIGHT:
            continue
        out.append(
            f'<line data-year="{year}" x1="{x:.2f}" y1="135" x2="{x:.2f}" y2="440" '
            f'stroke="{pal.muted}" stroke-width="1" stroke-dasharray="3 4"/>'
        )
        out.append(canvas.text(x, 122.0, str(year), size=14.0, fill=pal.muted))
    for level, (top, height) in _BANDS.items():
        if level > releasing.levels:
            break
        out.append(
            canvas.text(LEFT - 30.0, top + height / 2, f"L{level}", size=18.0, fill=pal.foreground)
        )
    for period in releasing.periods:
        top, height = _BANDS[period.level]
        x0, x1 = x_of(period.start), x_of(period.end)
        width = max(x1 - x0, 0.3)
        index = glossary_sign_index(period.sign)
        if period.peak:
            fill = pal.primary
            opacity = "0.85" if period.house_from_fortune == 10 else "0.45"
        else:
            fill = pal.band
            opacity = "1"
        out.append(
            f'<rect data-level="{period.level}" data-sign="{period.sign}" '
            f'data-start="{_iso(period.start)}" data-end="{_iso(period.end)}" '
            f'data-peak="{str(period.peak).lower()}" '
            f'data-loosing="{str(period.loosing_of_the_bond).lower()}" '
            f'x="{x0:.2f}" y="{top:.2f}" width="{width:.2f}" height="{height:.2f}" '
            f'fill="{fill}" fill-opacity="{opacity}" stroke="{pal.foreground}" '
            f'stroke-width="{1.2 if period.level <= 2 else 0.4}"/>'
        )
        if width >= _MIN_GLYPH_WIDTH and period.level <= 3:
            size = min(height * 0.55, width * 0.7)
            ink = pal.background if period.peak and period.house_from_fortune == 10 else None
            out.append(
                glyph(
                    period.sign,
                    (x0 + x1) / 2,
                    top + height / 2,
                    size,
                    ink or sign_colour(pal, index),
                )
            )
        if period.loosing_of_the_bond:
            out.append(
                f'<path data-loosing-mark="{period.level}" d="M{x0:.2f} {top - 2:.2f}l-7 -12h14z" '
                f'fill="{pal.warn}"/>'
            )
    # The level-1 periods as a list.
    y = 480.0
    heading = f"L1 · {technique}"
    out.append(canvas.text(LEFT, y, heading, size=20.0, fill=pal.foreground, anchor="start"))
    rows = [p for p in releasing.periods if p.level == 1][:16]
    for k, period in enumerate(rows):
        col = k // 8
        row_y = y + 40.0 + (k % 8) * 48.0
        x = LEFT + col * 450.0
        out.append(
            glyph(
                period.sign,
                x + 14.0,
                row_y,
                24.0,
                sign_colour(pal, glossary_sign_index(period.sign)),
            )
        )
        name = glossary.name("sign", period.sign, language)
        when = f"{_date(period.start, language)} – {_date(period.end, language)}"
        colour = pal.primary if period.peak else pal.foreground
        out.append(canvas.text(x + 40.0, row_y - 9.0, name, size=17.0, fill=colour, anchor="start"))
        out.append(
            canvas.text(x + 40.0, row_y + 12.0, when, size=14.0, fill=pal.muted, anchor="start")
        )
    peak = glossary.name("traditional", "peak_period", language)
    loosing = glossary.name("traditional", "loosing_of_the_bond", language)
    legend_y = 950.0
    out.append(
        f'<rect x="{LEFT:.0f}" y="{legend_y - 10:.0f}" width="20" height="20" '
        f'fill="{pal.primary}" fill-opacity="0.6" stroke="{pal.foreground}"/>'
    )
    out.append(
        canvas.text(LEFT + 30.0, legend_y, peak, size=16.0, fill=pal.foreground, anchor="start")
    )
    out.append(f'<path d="M{LEFT + 330:.0f} {legend_y + 8:.0f}l-8 -16h16z" fill="{pal.warn}"/>')
    out.append(
        canvas.text(LEFT + 350.0, legend_y, loosing, size=16.0, fill=pal.foreground, anchor="start")
    )
    canvas.add(f"<g aria-label={attr(title)}>")
    canvas.extend(out)
    canvas.add("</g>")
    return canvas.svg(size_px)


def glossary_sign_index(sign: str) -> int:
    return SIGNS.index(sign)
