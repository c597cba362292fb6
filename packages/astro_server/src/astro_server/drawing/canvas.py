"""The SVG document every picture is written into: a square viewBox of 1000 units, the label
fonts embedded, the background painted; text escaped once here."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from astro_server.drawing.glyphs import FONT_STACK, FONT_STACK_TH, font_faces
from astro_server.drawing.themes import Palette

# Characters XML 1.0 does not allow (C0 controls but tab and newlines, lone surrogates, U+FFFE and
# U+FFFF): a caller's text (a birth place) holding one would make the document unreadable.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

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
            f'fill="{fill}"{extra}>{escape(xml_text(content))}</text>'
        )

    def svg(self, size_px: int) -> str:
        pal = self.palette
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_px}" height="{size_px}" '
            f'viewBox="0 0 {VIEW:.0f} {VIEW:.0f}" role="img" aria-label={attr(self.title)}>'
            f"<title>{escape(xml_text(self.title))}</title>{font_faces(self.thai)}"
            f'<rect width="{VIEW:.0f}" height="{VIEW:.0f}" fill="{pal.background}"/>'
        )
        return head + "".join(self._parts) + "</svg>"


def xml_text(value: str) -> str:
    """``value`` without the characters XML cannot carry."""
    return _NOT_XML.sub("", value)


def attr(value: str) -> str:
    """A quoted, escaped attribute value."""
    return quoteattr(xml_text(value))
