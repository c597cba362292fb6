"""PNG from a picture's SVG with resvg (resvg-py: no system libraries, Thai shaped).

Hermetic: system fonts are skipped and resvg gets only the bundled label fonts, so a PNG is the
same on every machine. Symbols are paths already; only label text uses the fonts. A picture
whose labels name the Chinese family (:data:`astro_server.drawing.glyphs.CJK_FAMILY`, the Zi Wei
chart in Chinese) is given the bundled CJK subset as well, so every route and the MCP tools
render its characters from the SVG alone.
"""

from __future__ import annotations

import resvg_py

from astro_server.drawing.glyphs import CJK_FAMILY, font_files

MIN_SIZE_PX = 200
MAX_SIZE_PX = 2000
_FACES = "<style>@font-face"


def svg_to_png(svg: str, size_px: int) -> bytes:
    """Render ``svg`` (a square picture) to a ``size_px`` x ``size_px`` PNG.

    The ``@font-face`` styles the SVG carries for browsers are dropped first: resvg takes the
    same fonts as files, and parsing some 100 KB of base64 CSS was a fifth of the render time.
    """
    if not MIN_SIZE_PX <= size_px <= MAX_SIZE_PX:
        raise ValueError(f"size_px must be between {MIN_SIZE_PX} and {MAX_SIZE_PX}")
    while (start := svg.find(_FACES)) >= 0:
        end = svg.find("</style>", start)
        svg = svg[:start] + svg[end + len("</style>") :]
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        width=size_px,
        height=size_px,
        font_files=font_files(cjk=CJK_FAMILY in svg),
        skip_system_fonts=True,
    )
    return bytes(png)
