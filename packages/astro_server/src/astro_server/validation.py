"""Turn pydantic validation failures into field-level 400 bodies."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from astro_server.errors import APIError, validation_error


def _field_path(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "body"


def details_from_exception(exc: Exception) -> APIError:
    if isinstance(exc, ValidationError):
        details = [
            {"field": _field_path(tuple(e["loc"])), "message": e["msg"]} for e in exc.errors()
        ]
        return validation_error(details)
    return APIError(400, "Request body is not valid JSON of the expected shape.")
