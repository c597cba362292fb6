"""PNG from a picture's SVG with resvg (resvg-py: no system libraries, Thai shaped).

Hermetic: system fonts are skipped and resvg gets only the bundled label fonts, so a PNG is the
same on every machine. Symbols are paths already; only label text uses the fonts.
"""

from __future__ import annotations

import resvg_py

from astro_server.drawing.glyphs import font_files

MIN_SIZE_PX = 200
MAX_SIZE_PX = 2000


def svg_to_png(svg: str, size_px: int) -> bytes:
    """Render ``svg`` (a square picture) to a ``size_px`` x ``size_px`` PNG."""
    if not MIN_SIZE_PX <= size_px <= MAX_SIZE_PX:
        raise ValueError(f"size_px must be between {MIN_SIZE_PX} and {MAX_SIZE_PX}")
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        width=size_px,
        height=size_px,
        font_files=font_files(),
        skip_system_fonts=True,
    )
    return bytes(png)
