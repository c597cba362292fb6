"""Chart pictures: calculation results drawn as SVG, and PNG rendered from that SVG.

One concept per module: :mod:`geometry` (angles on the wheel and the dial, spreading crowded
glyphs), :mod:`glyphs` (vector symbols and the bundled label fonts), :mod:`themes` (palettes),
:mod:`canvas` (the SVG document), :mod:`marks` (body marks), :mod:`wheel` (natal and bi-wheels),
:mod:`dial` (the Uranian dial), :mod:`vedic` (North and South Indian charts), :mod:`taksa` (the
Thai Taksa wheel), :mod:`png` (resvg). The PDF reports embed the same SVG.
"""

from astro_server.drawing.png import MAX_SIZE_PX, MIN_SIZE_PX, svg_to_png
from astro_server.drawing.wheel import bi_wheel_svg, natal_wheel_svg

__all__ = ["MAX_SIZE_PX", "MIN_SIZE_PX", "bi_wheel_svg", "natal_wheel_svg", "svg_to_png"]
