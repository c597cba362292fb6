"""Chart pictures: the picture options every picture request adds to its calculation request,
and :class:`ChartImage`, what a picture method returns (the image bytes, not JSON).

Options: ``format`` ``svg`` (default) or ``png``; ``size_px`` 200..2000; ``theme`` ``light`` or
``dark``; ``colors`` ``{primary, background, foreground}`` as ``#RRGGBB``; ``language`` ``en`` or
``th``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Literal

from pydantic import Field

from astro_sdk._response import APIResponse
from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.profiles import ProfileReference
from astro_sdk.models.thai import ThaiWheelRequest
from astro_sdk.models.uranian import UranianChartRequest
from astro_sdk.models.vedic import BirthSubject as VedicBirthSubject
from astro_sdk.models.western import (
    AspectName,
    Body,
    HouseSystem,
    NatalRequest,
    PairRequest,
    WesternSubject,
)

__all__ = [
    "ChartImage",
    "ImageBody",
    "NatalWheelRequest",
    "PictureColors",
    "PictureFormat",
    "PictureOptions",
    "SynastryWheelRequest",
    "TaksaWheelDiagramRequest",
    "TransitsWheelRequest",
    "UranianDialRequest",
    "VedicChartDiagramRequest",
]

_COLOUR = r"^#[0-9A-Fa-f]{6}$"
PictureFormat = Literal["svg", "png"]


class PictureColors(RequestModel):
    primary: str | None = Field(default=None, pattern=_COLOUR)
    background: str | None = Field(default=None, pattern=_COLOUR)
    foreground: str | None = Field(default=None, pattern=_COLOUR)


class PictureOptions(RequestModel):
    format: PictureFormat = "svg"
    size_px: int = Field(default=800, ge=200, le=2000)
    theme: Literal["light", "dark"] = "light"
    colors: PictureColors | None = None
    language: Literal["en", "th"] = "en"


class NatalWheelRequest(NatalRequest, PictureOptions):
    pass


class SynastryWheelRequest(PairRequest, PictureOptions):
    pass


class TransitsWheelRequest(PictureOptions):
    subject: WesternSubject | ProfileReference
    at: dt.datetime
    house_system: HouseSystem = "P"
    transiting_bodies: list[Body] | None = Field(default=None, min_length=1, max_length=14)
    aspects: list[AspectName] | None = Field(default=None, min_length=1, max_length=11)


class UranianDialRequest(UranianChartRequest, PictureOptions):
    pointer_deg: float | None = Field(default=None, ge=0, lt=360)


class VedicChartDiagramRequest(PictureOptions):
    subject: VedicBirthSubject | ProfileReference
    node: Literal["mean", "true"] = "mean"
    style: Literal["north", "south"] = "north"
    varga: str = "D1"
    """``D1`` (the rasi chart) to ``D60``: any divisional chart the Vedic chart computes."""


class TaksaWheelDiagramRequest(ThaiWheelRequest, PictureOptions):
    pass


class ImageBody(ResponseModel):
    """The registry's placeholder for an image response: the body is the image, not JSON."""


@dataclass(frozen=True)
class ChartImage:
    """A picture: ``data`` (SVG text as UTF-8 bytes, or PNG bytes), its ``content_type``
    (``image/svg+xml`` or ``image/png``) and the response's headers (credits, request id)."""

    data: bytes
    content_type: str
    api_response: APIResponse

    @property
    def is_png(self) -> bool:
        return self.content_type == "image/png"

    def text(self) -> str:
        """The SVG document as text (only for ``image/svg+xml``)."""
        if self.is_png:
            raise ValueError("a PNG image has no text; use .data")
        return self.data.decode("utf-8")

    def save(self, path: str | PathLike[str]) -> Path:
        """Write the image to ``path`` and return the path."""
        target = Path(path)
        target.write_bytes(self.data)
        return target
