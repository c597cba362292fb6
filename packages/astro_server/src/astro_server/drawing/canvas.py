"""The SVG document every picture is written into: a square viewBox of 1000 units, the label
fonts embedded, the background painted; text escaped once here."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from astro_server.drawing.glyphs import FONT_STACK, FONT_STACK_TH, font_faces
from astro_server.drawing.themes import Palette

VIEW: float = 1000.0
CENTRE: float = VIEW / 2


class Canvas:
    """Collects SVG elements; :meth:`svg` closes the document."""

    __slots__ = ("_parts", "palette", "thai", "title")

    def __init__(self, palette: Palette, *, title: str, thai: bool) -> None:
        self.palette = palette
        self.thai = thai
        self.title = title
        self._parts: list[str] = []

    def add(self, element: str) -> None:
        self._parts.append(element)

    def extend(self, elements: list[str]) -> None:
        self._parts.extend(elements)

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float,
        fill: str,
        anchor: str = "middle",
        extra: str = "",
    ) -> str:
        """A text element centred vertically on y (``dominant-baseline`` is not honoured
        everywhere, so the baseline is moved down by 0.35 of the size)."""
        stack = FONT_STACK_TH if self.thai and not content.isascii() else FONT_STACK
        return (
            f'<text x="{x:.2f}" y="{y + size * 0.35:.2f}" font-size="{size:.1f}" '
            f'font-family="{stack}" text-anchor="{anchor}" '
            f'fill="{fill}"{extra}>{escape(content)}</text>'
        )

    def svg(self, size_px: int) -> str:
        pal = self.palette
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_px}" height="{size_px}" '
            f'viewBox="0 0 {VIEW:.0f} {VIEW:.0f}" role="img" aria-label={quoteattr(self.title)}>'
            f"<title>{escape(self.title)}</title>{font_faces(self.thai)}"
            f'<rect width="{VIEW:.0f}" height="{VIEW:.0f}" fill="{pal.background}"/>'
        )
        return head + "".join(self._parts) + "</svg>"


def attr(value: str) -> str:
    """A quoted, escaped attribute value."""
    return quoteattr(value)
