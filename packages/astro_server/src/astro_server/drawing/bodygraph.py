"""The Human Design bodygraph: nine centres (filled when defined), the 36 channels drawn from
gate to gate, every gate's number, and the design (red, left) and personality (dark, right)
columns of the thirteen activations with their gate and line.

Layout (1000-unit square): the centres in their usual places, Head at the top and Root at the
bottom, Spleen left and Solar Plexus right, each gate where the published bodygraph puts it.
A channel is two halves, each from a gate to the channel's middle, coloured by that gate's
activation: personality, design, both (design under a dashed personality stroke) or none (a
thin muted line). Each centre is a ``<g class="center" data-center data-defined>``, each channel
a ``<g class="channel" data-channel data-defined>``, each gate ``data-gate`` with
``data-activation`` (``personality``, ``design``, ``both``, ``none``), each column row
``data-side data-body data-gate data-line``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from astro_calc.human_design import CHANNELS, HumanDesignChart, names
from astro_server.drawing.canvas import Canvas, attr
from astro_server.drawing.glyphs import Language, glyph
from astro_server.drawing.themes import ThemeName, palette

#: Each centre's outline (polygon corners in the 1000-unit square).
OUTLINE: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    "head": ((500, 56), (566, 162), (434, 162)),
    "ajna": ((434, 206), (566, 206), (500, 316)),
    "throat": ((442, 340), (558, 340), (558, 456), (442, 456)),
    "g": ((500, 476), (572, 548), (500, 620), (428, 548)),
    "heart": ((625, 582), (664, 662), (568, 662)),
    "sacral": ((442, 680), (558, 680), (558, 796), (442, 796)),
    "spleen": ((270, 650), (388, 716), (270, 782)),
    "solar_plexus": ((730, 650), (612, 716), (730, 782)),
    "root": ((442, 830), (558, 830), (558, 946), (442, 946)),
}
#: Where each gate sits, as on the published bodygraph (Head's base 64 61 63; Ajna 47 24 4
#: on top, 17 43 11 below; Throat 62 23 56 on top, 16 20 left, 35 12 45 right, 31 8 33 below;
#: G 7 1 13 above, 10 left, 25 right, 15 2 46 below; Heart 21 51 26 40; Sacral 5 14 29 on top,
#: 34 27 left, 59 right, 42 3 9 below; Spleen 48 57 44 50 then 32 28 18; Solar Plexus 36 22 37
#: 6 then 49 55 30; Root 53 60 52 on top, 54 38 58 left, 19 39 41 right).
GATE_XY: Final[dict[int, tuple[float, float]]] = {
    64: (468, 148), 61: (500, 148), 63: (532, 148),
    47: (464, 220), 24: (500, 220), 4: (536, 220),
    17: (470, 264), 43: (500, 296), 11: (530, 264),
    62: (470, 354), 23: (500, 354), 56: (530, 354),
    16: (456, 382), 20: (456, 422), 35: (544, 372), 12: (544, 402), 45: (544, 432),
    31: (470, 442), 8: (500, 442), 33: (530, 442),
    7: (478, 504), 1: (500, 494), 13: (522, 504), 10: (446, 548), 25: (554, 548),
    15: (478, 592), 2: (500, 602), 46: (522, 592),
    21: (624, 604), 51: (600, 628), 26: (588, 650), 40: (646, 650),
    5: (470, 694), 14: (500, 694), 29: (530, 694), 34: (456, 712), 27: (456, 770),
    59: (544, 745), 42: (470, 782), 3: (500, 782), 9: (530, 782),
    48: (290, 674), 57: (314, 687), 44: (338, 700), 50: (362, 712),
    32: (356, 742), 28: (328, 756), 18: (298, 770),
    36: (710, 674), 22: (686, 687), 37: (662, 700), 6: (638, 712),
    49: (644, 742), 55: (672, 756), 30: (702, 770),
    53: (470, 844), 60: (500, 844), 52: (530, 844),
    54: (456, 864), 38: (456, 894), 58: (456, 924),
    19: (544, 864), 39: (544, 894), 41: (544, 924),
}  # fmt: skip
#: Fill of a defined centre (the system's customary colours), by theme.
_FILL: Final[dict[str, dict[str, str]]] = {
    "light": {
        "head": "#F2D15C",
        "ajna": "#7DB86A",
        "throat": "#B88A5A",
        "g": "#F2D15C",
        "heart": "#D9534F",
        "sacral": "#D9534F",
        "spleen": "#B88A5A",
        "solar_plexus": "#B88A5A",
        "root": "#B88A5A",
    },
    "dark": {
        "head": "#C9A83A",
        "ajna": "#5E9A4E",
        "throat": "#9A6F44",
        "g": "#C9A83A",
        "heart": "#B8413D",
        "sacral": "#B8413D",
        "spleen": "#9A6F44",
        "solar_plexus": "#9A6F44",
        "root": "#9A6F44",
    },
}
#: Channels drawn with a bend (their straight line would cross another centre).
_BEND: Final[dict[str, tuple[float, float]]] = {"20-34": (408.0, 566.0)}
_DESIGN_RED: Final = {"light": "#C8302C", "dark": "#FF6B5C"}


def _shape(centre: str) -> str:
    """The centre's outline as SVG path data."""
    corners = OUTLINE[centre]
    return "M" + "L".join(f"{x:.0f} {y:.0f}" for x, y in corners) + "Z"


def _activation(gate: int, personality: set[int], design: set[int]) -> str:
    if gate in personality and gate in design:
        return "both"
    if gate in personality:
        return "personality"
    if gate in design:
        return "design"
    return "none"


def bodygraph_svg(
    chart: HumanDesignChart,
    *,
    theme: ThemeName = "light",
    colors: Mapping[str, str] | None = None,
    language: Language = "en",
    size_px: int = 800,
) -> str:
    """The bodygraph of a Human Design chart as an SVG document (module docstring)."""
    c = colors or {}
    pal = palette(
        theme,
        primary=c.get("primary"),
        background=c.get("background"),
        foreground=c.get("foreground"),
    )
    red = _DESIGN_RED[theme]
    label = names(language)
    th = language == "th"
    heading = (
        f"{label['types'][chart.type]} {chart.profile} · {label['authorities'][chart.authority]}"
    )
    canvas = Canvas(pal, title=heading, thai=th)
    personality = {a.gate for a in chart.activations.personality}
    design = {a.gate for a in chart.activations.design}
    defined_channels = set(chart.channels)
    out: list[str] = []
    # Channels first (under the centres).
    for a, b in CHANNELS:
        key = f"{a}-{b}"
        (xa, ya), (xb, yb) = GATE_XY[a], GATE_XY[b]
        # Where the two halves meet: the middle, or a bend that keeps 20-34 off the G.
        mx, my = _BEND.get(key, ((xa + xb) / 2.0, (ya + yb) / 2.0))
        parts = [
            f'<g class="channel" data-channel="{key}" '
            f'data-defined="{"true" if key in defined_channels else "false"}">'
        ]
        for gate, (x, y) in ((a, (xa, ya)), (b, (xb, yb))):
            kind = _activation(gate, personality, design)
            segment = f'x1="{x:.1f}" y1="{y:.1f}" x2="{mx:.1f}" y2="{my:.1f}"'
            if kind == "none":
                parts.append(f'<line {segment} stroke="{pal.muted}" stroke-width="3"/>')
                continue
            if kind in ("design", "both"):
                parts.append(f'<line {segment} stroke="{red}" stroke-width="9"/>')
            if kind in ("personality", "both"):
                dash = ' stroke-dasharray="7 7"' if kind == "both" else ""
                parts.append(f'<line {segment} stroke="{pal.foreground}" stroke-width="9"{dash}/>')
        parts.append("</g>")
        out.append("".join(parts))
    # Centres, then the gates on their rims.
    fills = _FILL[theme]
    for centre in chart.centers:
        fill = fills[centre.name] if centre.defined else pal.background
        out.append(
            f'<g class="center" data-center={attr(centre.name)} '
            f'data-defined="{"true" if centre.defined else "false"}">'
            f'<path d="{_shape(centre.name)}" fill="{fill}" stroke="{pal.foreground}" '
            'stroke-width="2.4" stroke-linejoin="round"/></g>'
        )
    faint = ' fill-opacity="0.6"'
    for gate, (x, y) in sorted(GATE_XY.items()):
        kind = _activation(gate, personality, design)
        colour = {"personality": pal.foreground, "design": red, "both": pal.foreground}.get(
            kind, pal.foreground
        )
        ring = ""
        if kind != "none":
            ring = (
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{pal.background}" '
                f'stroke="{red if kind == "design" else pal.foreground}" stroke-width="2"/>'
            )
        out.append(
            f'<g class="gate" data-gate="{gate}" data-activation="{kind}">{ring}'
            + canvas.text(x, y, str(gate), size=12, fill=colour, extra=faint * (kind == "none"))
            + "</g>"
        )
    # The two columns: design on the left in red, personality on the right.
    sides = label["sides"]
    for side, x0, colour in (
        ("design", 30.0, red),
        ("personality", 830.0, pal.foreground),
    ):
        acts = getattr(chart.activations, side)
        out.append(canvas.text(x0 + 70, 150, sides[side], size=24, fill=colour))
        for row, act in enumerate(acts):
            y = 200 + row * 52
            if act.body == "earth":
                mark = (
                    f'<circle cx="{x0 + 24}" cy="{y}" r="13" fill="none" stroke="{colour}" '
                    f'stroke-width="2.6"/><path d="M{x0 + 11} {y}H{x0 + 37}M{x0 + 24} '
                    f'{y - 13}V{y + 13}" stroke="{colour}" stroke-width="2.6"/>'
                )
            else:
                mark = glyph(act.body, x0 + 24, y, 28, colour)
            out.append(
                f'<g class="activation" data-side="{side}" data-body={attr(act.body)} '
                f'data-gate="{act.gate}" data-line="{act.line}">{mark}'
                + canvas.text(x0 + 100, y, f"{act.gate}.{act.line}", size=26, fill=colour)
                + "</g>"
            )
    cross = chart.incarnation_cross
    g = cross.gates
    out.append(canvas.text(500, 34, heading, size=28, fill=pal.foreground))
    out.append(
        canvas.text(
            500,
            972,
            f"{label['definitions'][chart.definition]} · {cross.name} "
            f"({g[0]}/{g[1]} | {g[2]}/{g[3]})",
            size=17,
            fill=pal.muted,
        )
    )
    canvas.extend(out)
    return canvas.svg(size_px)
