"""Turn pydantic validation failures into field-level 400 bodies."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from astro_server.platform.errors import APIError, validation_error


def _field_path(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "body"


def _field_of(error: Any) -> str:
    """The field an error names: its location, or the ``field`` a model-level check put in the
    error's context (a rule across fields, such as unique record ids, has no location of its
    own: ``PydanticCustomError("...", "...", {"field": "records[1].id"})``), or its location
    followed by the ``member`` a nested model's own check named (``{"member": "place"}`` in a
    subject: ``subject.place``, ``subject_a.place``)."""
    context = error.get("ctx") or {}
    named = context.get("field")
    if isinstance(named, str):
        return named
    member = context.get("member")
    loc = tuple(error["loc"])
    return _field_path((*loc, member) if isinstance(member, str) else loc)


def details_from_exception(exc: Exception) -> APIError:
    if isinstance(exc, ValidationError):
        details = [{"field": _field_of(e), "message": e["msg"]} for e in exc.errors()]
        return validation_error(details)
    return APIError(400, "Request body is not valid JSON of the expected shape.")
