"""What the picture methods of every tag group share: the operation shape (a billable POST
whose success body is an image) and the picture options as keyword arguments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from astro_sdk._operation import Credential, Operation
from astro_sdk.models.pictures import ImageBody, PictureColors, PictureFormat

Colors = PictureColors | Mapping[str, str]
Theme = Literal["light", "dark"]
Language = Literal["en", "th"]


def picture_operation(name: str, path: str, request: type[Any]) -> Operation[ImageBody]:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=ImageBody,
        request_model=request,
        billable=True,
    )


def picture_fields(
    format: PictureFormat | None,
    size_px: int | None,
    theme: Theme | None,
    colors: Colors | None,
    language: Language | None,
) -> dict[str, Any]:
    return {
        "format": format,
        "size_px": size_px,
        "theme": theme,
        "colors": colors,
        "language": language,
    }
