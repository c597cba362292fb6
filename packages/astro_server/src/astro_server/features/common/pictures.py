"""What every picture route shares: the picture options of the request, the image response, and
its OpenAPI description.

Options (on top of the calculation endpoint's own fields): ``format`` ``svg`` (default) or
``png``; ``size_px`` 200..2000 (the PNG's width and height; the SVG's ``width``/``height``);
``theme`` ``light`` or ``dark``; ``colors`` ``{primary, background, foreground}`` as ``#RRGGBB``;
``language`` ``en`` or ``th``. The response body is the image itself (``image/svg+xml`` or
``image/png``) with ``Content-Length`` and the credit headers; an idempotent replay returns the
same bytes and content type (the replay store keeps bodies as bytes).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final, Literal

from pydantic import BaseModel, Field
from quart import Response

from astro_server.drawing import MAX_SIZE_PX, MIN_SIZE_PX, svg_to_png

SVG_TYPE: Final = "image/svg+xml"
PNG_TYPE: Final = "image/png"
_COLOUR: Final = r"^#[0-9A-Fa-f]{6}$"

#: Operation ids of the routes answering with an image (documented by :func:`document_images`).
IMAGE_OPERATIONS: Final = frozenset(
    {
        "westernNatalWheel",
        "westernSynastryWheel",
        "westernTransitsWheel",
        "uranianDial",
        "vedicChartDiagram",
        "thaiWheelDiagram",
        "humanDesignBodygraph",
        "westernAstrocartographyMap",
        "chineseZiweiChart",
        "westernZodiacalReleasingChart",
    }
)
#: Operation ids of the routes that also answer iCalendar (``Accept: text/calendar``), added by
#: :func:`astro_server.features.common.calculation.calculation` as it declares them.
CALENDAR_OPERATIONS: Final[set[str]] = set()
CALENDAR_TYPE: Final = "text/calendar"


class PictureColors(BaseModel):
    primary: str | None = Field(default=None, pattern=_COLOUR, description="Accent colour, #RRGGBB")
    background: str | None = Field(default=None, pattern=_COLOUR, description="#RRGGBB")
    foreground: str | None = Field(
        default=None, pattern=_COLOUR, description="Lines and text, #RRGGBB"
    )

    def given(self) -> dict[str, str]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class PictureOptions(BaseModel):
    format: Literal["svg", "png"] = Field(default="svg", description="svg (default) or png")
    size_px: int = Field(
        default=800,
        ge=MIN_SIZE_PX,
        le=MAX_SIZE_PX,
        description=f"Width and height in pixels, {MIN_SIZE_PX} to {MAX_SIZE_PX}",
    )
    theme: Literal["light", "dark"] = Field(default="light", description="Colour theme")
    colors: PictureColors | None = Field(
        default=None, description="Colours replacing the theme's (each optional)"
    )
    language: Literal["en", "th"] = Field(default="en", description="Label language")

    def drawing_options(self) -> dict[str, Any]:
        return {
            "theme": self.theme,
            "colors": self.colors.given() if self.colors else None,
            "language": self.language,
            "size_px": self.size_px,
        }


async def picture_response(svg: str, options: PictureOptions) -> Response:
    """The picture in the format asked for; PNG rendering (tens of milliseconds) runs off the
    event loop."""
    if options.format == "png":
        png = await asyncio.to_thread(svg_to_png, svg, options.size_px)
        return Response(png, content_type=PNG_TYPE)
    return Response(svg.encode(), content_type=SVG_TYPE)


def document_images(document: dict[str, Any]) -> None:
    """The 200 of every picture route: the image, SVG or PNG (quart-schema documents JSON
    bodies only); and the iCalendar alternative of the routes offering it."""
    for path_item in document["paths"].values():
        for operation in path_item.values():
            if operation.get("operationId") in CALENDAR_OPERATIONS:
                responses = operation.get("responses", {})
                ok = responses.get(200) or responses.get("200")
                if ok is None:  # an iCalendar file only (a calendar feed's URL)
                    ok = responses[200] = {"description": "The iCalendar file (RFC 5545)"}
                ok.setdefault("content", {})[CALENDAR_TYPE] = {"schema": {"type": "string"}}
            if operation.get("operationId") not in IMAGE_OPERATIONS:
                continue
            operation.setdefault("responses", {})[200] = {
                "description": (
                    "The picture: image/svg+xml (format svg) or image/png (format png), with "
                    "Content-Length and the X-Credits-Charged / X-Credits-Remaining headers"
                ),
                "content": {
                    SVG_TYPE: {"schema": {"type": "string"}},
                    PNG_TYPE: {"schema": {"type": "string", "format": "binary"}},
                },
            }
