"""Build the chart pictures' bundled glyph outlines and label fonts (run once; output committed).

Glyph outlines (signs, planets, nodes, Lilith, Chiron, the eight Uranian bodies, the retrograde
mark) are taken from OFL fonts with fontTools and written as SVG path data in a 1000-unit em,
centred on the glyph's bounding box, y down:
``packages/astro_server/src/astro_server/drawing/data/glyphs.json``. Label fonts are subsets of
Noto Sans (Latin) and Noto Sans Thai (Thai), written as TrueType files beside it.

Usage: ``uv run --frozen python scripts/build_chart_glyphs.py`` (reads Debian's fonts-noto-core).
"""

from __future__ import annotations

import json
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont

NOTO = Path("/usr/share/fonts/truetype/noto")
OUT = Path(__file__).resolve().parents[1] / "packages/astro_server/src/astro_server/drawing/data"

SOURCES = {
    "symbols": NOTO / "NotoSansSymbols-Regular.ttf",
    "symbols2": NOTO / "NotoSansSymbols2-Regular.ttf",
    "sans": NOTO / "NotoSans-Regular.ttf",
}
# name -> (code point, source font)
GLYPHS: dict[str, tuple[int, str]] = {
    **{
        sign: (0x2648 + i, "symbols")
        for i, sign in enumerate(
            (
                "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio",
                "sagittarius", "capricorn", "aquarius", "pisces",
            )
        )
    },  # fmt: skip
    "sun": (0x2609, "symbols2"),
    "moon": (0x263D, "symbols"),
    "mercury": (0x263F, "symbols"),
    "venus": (0x2640, "symbols"),
    "mars": (0x2642, "symbols"),
    "jupiter": (0x2643, "symbols"),
    "saturn": (0x2644, "symbols"),
    "uranus": (0x2645, "symbols"),
    "neptune": (0x2646, "symbols"),
    "pluto": (0x2647, "symbols"),
    "north_node": (0x260A, "symbols"),
    "south_node": (0x260B, "symbols"),
    "mean_lilith": (0x26B8, "symbols"),
    "chiron": (0x26B7, "symbols"),
    "cupido": (0x2BE0, "symbols2"),
    "hades": (0x2BE1, "symbols2"),
    "zeus": (0x2BE2, "symbols2"),
    "kronos": (0x2BE3, "symbols2"),
    "apollon": (0x2BE4, "symbols2"),
    "admetos": (0x2BE5, "symbols2"),
    "vulkanus": (0x2BE6, "symbols2"),
    "poseidon": (0x2BE7, "symbols2"),
}


def outline(font: TTFont, code_point: int) -> dict[str, object]:
    glyph_name = font.getBestCmap()[code_point]
    glyphs = font.getGlyphSet()
    em = font["head"].unitsPerEm
    bounds = BoundsPen(glyphs)
    glyphs[glyph_name].draw(bounds)
    assert bounds.bounds is not None, hex(code_point)
    x0, y0, x1, y1 = bounds.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = 1000 / em
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.0f}")
    glyphs[glyph_name].draw(TransformPen(pen, (scale, 0, 0, -scale, -cx * scale, cy * scale)))
    return {
        "d": pen.getCommands(),
        "width": round((x1 - x0) * scale),
        "height": round((y1 - y0) * scale),
    }


def retrograde_mark() -> dict[str, object]:
    """℞ is in none of the Noto fonts here: the capital R of Noto Sans with a stroke through its
    leg is drawn instead (the letter's outline plus a short bar)."""
    font = TTFont(SOURCES["sans"])
    r = outline(font, ord("R"))
    w, h = int(r["width"]), int(r["height"])  # type: ignore[call-overload]
    bar = f"M{w * 0.05:.0f} {h * 0.28:.0f}L{w * 0.75:.0f} {h * 0.28:.0f}L{w * 0.75:.0f} {h * 0.38:.0f}L{w * 0.05:.0f} {h * 0.38:.0f}Z"
    return {"d": f"{r['d']}{bar}", "width": w, "height": h}


def subset(source: Path, target: Path, text: str) -> None:
    options = Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = TTFont(source)
    subsetter = Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(target)


def main() -> None:
    fonts = {key: TTFont(path) for key, path in SOURCES.items()}
    data: dict[str, object] = {
        "source": (
            "Outlines from Noto Sans Symbols, Noto Sans Symbols 2 and Noto Sans (SIL Open Font "
            "License 1.1, Copyright 2022 The Noto Project Authors); 1000-unit em, centred on the "
            "glyph's bounding box, y down. Built by scripts/build_chart_glyphs.py."
        ),
        "glyphs": {name: outline(fonts[src], cp) for name, (cp, src) in GLYPHS.items()},
    }
    data["glyphs"]["retrograde"] = retrograde_mark()  # type: ignore[index]
    (OUT / "glyphs.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
    latin = "".join(chr(c) for c in range(0x20, 0x7F)) + "°′″·–—…"
    thai = "".join(chr(c) for c in range(0x0E01, 0x0E5C))
    subset(NOTO / "NotoSans-Regular.ttf", OUT / "fonts/NotoSans-ChartSubset.ttf", latin)
    subset(NOTO / "NotoSansThai-Regular.ttf", OUT / "fonts/NotoSansThai-ChartSubset.ttf", thai)


if __name__ == "__main__":
    main()
