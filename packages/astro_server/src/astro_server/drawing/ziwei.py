"""The Zi Wei Dou Shu chart as the classic 4x4 square: the twelve palaces around a centre block.

Layout (south at the top, as the charts are printed): 巳 午 未 申 across the top, 申 酉 戌 亥 down
the right, 亥 子 丑 寅 back along the bottom and 寅 卯 辰 巳 up the left; the four middle cells
are the centre block with the birth data, the lunar date, the hour, the five-elements class,
the soul and body stars and, with a horoscope, its date, nominal age and the decadal, yearly and
monthly palaces. Each palace lists its major stars (large, with brightness and the
transformation in a coloured box: 祿 green, 權 the primary colour, 科 blue, 忌 red), its minor
stars, then its adjective stars (small, wrapped), and along its foot the palace name, the stem
and branch and the decadal ages; the body palace carries 身 (or Body), the life palace a heavier
frame, the horoscope palaces small tags.

Every palace is a ``<g data-palace data-branch data-stem>``, every star a ``<text data-star
data-kind data-brightness data-transformation>`` (empty attributes when a star has none).
Labels are the chart's own (its ``language``): Latin and Thai in the bundled Noto Sans and Noto
Looped Thai, Chinese in the bundled subset of Noto Sans CJK (``data/fonts/
NotoSansCJK-ZiweiSubset.otf``, OFL, made by ``scripts/build_ziwei_font.py``), embedded in the SVG
and given to resvg for the PNG (:func:`ziwei_chart_png`, which is
:func:`astro_server.drawing.png.svg_to_png`: it adds the CJK subset to the fonts of any SVG
naming its family), so the picture reads the same everywhere.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final
from xml.sax.saxutils import escape

from astro_calc.chinese.ziwei import ZiweiChart, ZiweiPalace, ZiweiStar, label
from astro_server.drawing.canvas import VIEW, attr, xml_text
from astro_server.drawing.glyphs import (
    CJK_FAMILY,
    CJK_FILE,
    LATIN_FAMILY,
    THAI_FAMILY,
    cjk_font_file,
    font_faces,
)
from astro_server.drawing.png import svg_to_png
from astro_server.drawing.themes import Palette, ThemeName, palette

__all__ = ["CJK_FAMILY", "cjk_font_file", "ziwei_chart_png", "ziwei_chart_svg"]

MARGIN: Final = 8.0
CELL: Final = (VIEW - 2 * MARGIN) / 4
PAD: Final = 9.0
#: Grid cell (column, row) of each branch (子 0 .. 亥 11), south at the top.
CELL_OF_BRANCH: Final = (
    (2, 3),
    (1, 3),
    (0, 3),
    (0, 2),
    (0, 1),
    (0, 0),
    (1, 0),
    (2, 0),
    (3, 0),
    (3, 1),
    (3, 2),
    (3, 3),
)
_BRANCHES: Final = (
    "zi",
    "chou",
    "yin",
    "mao",
    "chen",
    "si",
    "wu",
    "wei",
    "shen",
    "you",
    "xu",
    "hai",
)
LU_GREEN: Final = {"light": "#2E7D32", "dark": "#7CCB79"}
KE_BLUE: Final = {"light": "#2D63C4", "dark": "#6FA8FF"}


def _lang(chart: ZiweiChart) -> str:
    return "zh-Hans" if chart.language == "zh" else chart.language


def _stack(language: str) -> str:
    if language.startswith("zh"):
        return f"'{CJK_FAMILY}','{LATIN_FAMILY}',sans-serif"
    if language == "th":
        return f"'{THAI_FAMILY}','{LATIN_FAMILY}',sans-serif"
    return f"'{LATIN_FAMILY}',sans-serif"


def _short(name: str) -> str:
    """A star's label without its gloss in brackets (``Zi Wei (Emperor)`` -> ``Zi Wei``)."""
    return name.split(" (", 1)[0]


@cache
def _cjk_face() -> str:
    raw = resources.files("astro_server.drawing").joinpath("data", "fonts", CJK_FILE).read_bytes()
    encoded = base64.b64encode(raw).decode()
    return (
        f"<style>@font-face{{font-family:'{CJK_FAMILY}';src:url(data:font/otf;base64,{encoded}) "
        "format('opentype');}</style>"
    )


class _Writer:
    def __init__(self, pal: Palette, language: str, theme: ThemeName) -> None:
        self.pal = pal
        self.language = language
        self.stack = _stack(language)
        self.theme = theme
        self.parts: list[str] = []

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float,
        fill: str,
        anchor: str = "start",
        weight: str = "normal",
        extra: str = "",
    ) -> str:
        """Text whose baseline sits at ``y``."""
        bold = ' font-weight="bold"' if weight == "bold" else ""
        return (
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-family="{self.stack}" '
            f'text-anchor="{anchor}" fill="{fill}"{bold}{extra}>{escape(xml_text(content))}</text>'
        )

    def width(self, content: str, size: float) -> float:
        """A generous estimate of the text's advance in the bundled fonts (CJK full width, Thai
        marks none, Latin by letter class)."""
        total = 0.0
        for ch in content:
            if "\u4e00" <= ch <= "\u9fff":
                total += 1.0
            elif "\u0e00" <= ch <= "\u0e7f":
                total += 0.0 if ch in _THAI_MARKS else 0.62
            elif ch in _NARROW:
                total += 0.32
            elif ch in _WIDE:
                total += 0.9
            elif ch.isupper() or ch.isdigit():
                total += 0.68
            else:
                total += 0.58
        return total * size * 1.08


_THAI_MARKS: Final = frozenset(
    "\u0e31\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0e4d"
)
_NARROW: Final = frozenset("iljtfrI.,:;!|' ()-·")
_WIDE: Final = frozenset("mwMW")


def _mark_colour(w: _Writer, transformation: str) -> str:
    if transformation == "lu":
        return LU_GREEN[w.theme]
    if transformation == "ke":
        return KE_BLUE[w.theme]
    if transformation == "ji":
        return w.pal.warn
    return w.pal.primary


def _star_line(w: _Writer, x: float, y: float, star: ZiweiStar, kind: str, size: float) -> float:
    """One star: name, brightness, transformation box; returns the x after it."""
    lang = w.language
    name = _short(star.label)
    colour = (
        w.pal.foreground if kind == "major" else w.pal.primary if kind == "minor" else w.pal.muted
    )
    data = (
        f" data-star={attr(star.name)} data-kind={attr(kind)} "
        f"data-brightness={attr(star.brightness or '')} "
        f"data-transformation={attr(star.transformation or '')}"
    )
    weight = "bold" if kind == "major" else "normal"
    w.parts.append(w.text(x, y, name, size=size, fill=colour, weight=weight, extra=data))
    x += w.width(name, size) + 4
    if star.brightness:
        bright = label("brightness_short", star.brightness, lang)
        w.parts.append(w.text(x, y, bright, size=size * 0.72, fill=w.pal.muted))
        x += w.width(bright, size * 0.72) + 4
    if star.transformation:
        mark = label("transformation_short", star.transformation, lang)
        fill = _mark_colour(w, star.transformation)
        box = w.width(mark, size * 0.72) + 8
        w.parts.append(
            f'<rect x="{x:.1f}" y="{y - size * 0.8:.1f}" width="{box:.1f}" '
            f'height="{size * 0.98:.1f}" rx="3" fill="{fill}"/>'
        )
        w.parts.append(
            w.text(x + 4, y - size * 0.05, mark, size=size * 0.72, fill=w.pal.background)
        )
        x += box + 4
    return x


def _palace(w: _Writer, palace: ZiweiPalace, tags: list[str]) -> None:
    pal = w.pal
    branch = _BRANCHES.index(palace.branch)
    col, row = CELL_OF_BRANCH[branch]
    x0, y0 = MARGIN + col * CELL, MARGIN + row * CELL
    life = palace.name == "life"
    w.parts.append(
        f"<g data-palace={attr(palace.name)} data-branch={attr(palace.branch)} "
        f"data-stem={attr(palace.stem)}>"
    )
    w.parts.append(
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{CELL:.1f}" height="{CELL:.1f}" '
        f'fill="{pal.band if life else pal.background}" stroke="{pal.foreground}" '
        f'stroke-width="{3.0 if life else 1.2}"/>'
    )
    x_left, x_right = x0 + PAD, x0 + CELL - PAD
    y = y0 + PAD + 22
    for star in palace.major_stars:
        _star_line(w, x_left, y, star, "major", 23)
        y += 29
    if not palace.major_stars:
        y += 2
    # Minor stars two to a line when they fit.
    x = x_left
    for star in palace.minor_stars:
        size = 18.0
        need = w.width(_short(star.label), size) + (
            36 if star.brightness or star.transformation else 8
        )
        if x > x_left and x + need > x_right:
            x, y = x_left, y + 23
        x = _star_line(w, x, y, star, "minor", size) + 6
    if palace.minor_stars:
        y += 22
    # Adjective stars: small, wrapped.
    x = x_left
    size = 14.0
    for star in palace.adjective_stars:
        name = _short(star.label)
        need = w.width(name, size) + 7
        if x > x_left and x + need > x_right:
            x, y = x_left, y + 18
        w.parts.append(
            w.text(
                x,
                y,
                name,
                size=size,
                fill=pal.muted,
                extra=f' data-star={attr(star.name)} data-kind="adjective"',
            )
        )
        x += need
    # Foot: palace name (and body mark) on the left, stem-branch and ages on the right.
    foot = y0 + CELL - PAD - 4
    w.parts.append(
        f'<line x1="{x0 + 4:.1f}" y1="{foot - 24:.1f}" x2="{x0 + CELL - 4:.1f}" '
        f'y2="{foot - 24:.1f}" stroke="{pal.muted}" stroke-width="0.8"/>'
    )
    name = palace.label
    if palace.is_body_palace:
        name += " · " + label("labels", "body", w.language)
    w.parts.append(w.text(x_left, foot, name, size=19, fill=pal.primary, weight="bold"))
    ganzhi = (
        palace.stem_label + palace.branch_label
        if w.language.startswith("zh")
        else f"{palace.stem_label} {palace.branch_label.split(' (')[0]}"
    )
    ages = f"{palace.decadal.start_age}-{palace.decadal.end_age}"
    w.parts.append(w.text(x_right, foot, ages, size=15, fill=pal.foreground, anchor="end"))
    w.parts.append(w.text(x_right, foot - 30, ganzhi, size=15, fill=pal.muted, anchor="end"))
    if tags:
        w.parts.append(
            w.text(x_right, y0 + PAD + 16, " ".join(tags), size=13, fill=pal.warn, anchor="end")
        )
    w.parts.append("</g>")


def _centre(w: _Writer, chart: ZiweiChart) -> None:
    pal, lang = w.pal, w.language
    x0, y0 = MARGIN + CELL, MARGIN + CELL
    w.parts.append(
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{2 * CELL:.1f}" height="{2 * CELL:.1f}" '
        f'fill="{pal.background}" stroke="{pal.foreground}" stroke-width="1.2"/>'
    )
    cx = x0 + CELL
    y = y0 + 46
    w.parts.append(
        w.text(
            cx,
            y,
            label("labels", "title", lang),
            size=32,
            fill=pal.primary,
            anchor="middle",
            weight="bold",
        )
    )
    gender = label("labels", chart.gender, lang)
    rows = [
        (
            label("labels", "birth", lang),
            f"{chart.birth_date:%Y-%m-%d} {chart.birth_time:%H:%M} · {gender}",
        ),
        (label("labels", "lunar_date", lang), chart.lunar_date.label),
        (label("labels", "hour", lang), chart.hour_branch_label),
        (label("labels", "five_elements_class", lang), chart.five_elements_class.label),
        (label("labels", "soul_star", lang), _short(chart.soul_star_label)),
        (label("labels", "body_star", lang), _short(chart.body_star_label)),
    ]
    body = next(p for p in chart.palaces if p.is_body_palace)
    rows.append(
        (label("labels", "body_palace", lang), f"{body.label} ({body.branch_label.split(' (')[0]})")
    )
    y += 40
    for key, value in rows:
        w.parts.append(w.text(cx - 12, y, key, size=18, fill=pal.muted, anchor="end"))
        w.parts.append(w.text(cx + 12, y, value, size=18, fill=pal.foreground))
        y += 27
    h = chart.horoscope
    if h is not None:
        y += 4
        w.parts.append(
            f'<line x1="{x0 + 30:.1f}" y1="{y - 20:.1f}" x2="{x0 + 2 * CELL - 30:.1f}" '
            f'y2="{y - 20:.1f}" stroke="{pal.muted}" stroke-width="0.8"/>'
        )
        age = f"{label('labels', 'nominal_age', lang)} {h.nominal_age}"
        w.parts.append(
            w.text(
                cx - 12, y, label("labels", "on_date", lang), size=17, fill=pal.muted, anchor="end"
            )
        )
        w.parts.append(
            w.text(cx + 12, y, f"{h.on_date:%Y-%m-%d} · {age}", size=17, fill=pal.foreground)
        )
        y += 25
        for level in (h.decadal, h.yearly, h.monthly):
            if level is None:
                continue
            natal = next(p for p in chart.palaces if p.name == level.natal_palace)
            marks = " · ".join(
                f"{_short(t.star_label)} {label('transformation_short', t.transformation, lang)}"
                for t in level.transformations
            )
            head = f"{level.label}: {natal.label}"
            if level.start_age is not None:
                head += f" ({level.start_age}-{level.end_age})"
            w.parts.append(w.text(cx, y, head, size=16, fill=pal.warn, anchor="middle"))
            size = min(15.0, 450.0 / max(w.width(marks, 1.0), 1.0))
            w.parts.append(
                w.text(cx, y + 20, marks, size=size, fill=pal.foreground, anchor="middle")
            )
            y += 44


def ziwei_chart_svg(
    chart: ZiweiChart,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    size_px: int = 800,
) -> str:
    """The chart as an SVG document (see the module docstring), in the chart's language."""
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    lang = _lang(chart)
    w = _Writer(pal, lang, theme)
    tags_by_branch: dict[str, list[str]] = {}
    if chart.horoscope is not None:
        for level in (chart.horoscope.decadal, chart.horoscope.yearly, chart.horoscope.monthly):
            if level is not None:
                tags_by_branch.setdefault(level.palace_branch, []).append(level.label)
    for palace in chart.palaces:
        _palace(w, palace, tags_by_branch.get(palace.branch, []))
    _centre(w, chart)
    title = f"{label('labels', 'title', lang)} {chart.birth_date:%Y-%m-%d}"
    faces = font_faces(lang == "th") + (_cjk_face() if lang.startswith("zh") else "")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_px}" height="{size_px}" '
        f'viewBox="0 0 {VIEW:.0f} {VIEW:.0f}" role="img" aria-label={attr(title)} '
        f'data-chart="ziwei" data-language={attr(chart.language)} '
        f"data-life-palace={attr(chart.life_palace_branch)} "
        f"data-body-palace={attr(chart.body_palace_branch)}>"
        f"<title>{escape(xml_text(title))}</title>{faces}"
        f'<rect width="{VIEW:.0f}" height="{VIEW:.0f}" fill="{pal.background}"/>'
    )
    return head + "".join(w.parts) + "</svg>"


def ziwei_chart_png(
    chart: ZiweiChart,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    size_px: int = 800,
) -> bytes:
    """The same picture as a ``size_px`` square PNG, rendered by resvg with only the bundled
    fonts (Latin, Thai and the CJK subset): :func:`astro_server.drawing.png.svg_to_png`."""
    return svg_to_png(ziwei_chart_svg(chart, theme=theme, colors=colors, size_px=size_px), size_px)
