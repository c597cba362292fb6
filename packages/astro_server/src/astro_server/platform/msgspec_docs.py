"""Pydantic mirrors of astro_calc's msgspec result structs, for the OpenAPI document only.

quart-schema 0.25 documents a msgspec Struct with ``$ref``s to nested structs but leaves their
definitions out of ``components``, so the document would not resolve. Responses are still encoded
from the structs themselves (msgspec, once); these mirrors only describe them:
``document_response(response_model(NatalChart), 200)``.

Mapping: nested Struct -> mirrored model (same name); ``tuple[X, ...]`` -> ``list[X]``; a
fixed-length tuple stays a tuple; ``X | None`` stays optional; a tagged struct (a member of a
tagged union) gains its tag field as a required constant; ``datetime`` and ``date`` keep their
formats (so does ``time``; a naive ``Annotated[datetime, Meta(tz=False)]`` is a plain string, and
``Annotated[str, Meta(extra_json_schema={"format": "date-time"})]`` a date-time); fields with a
default are not required.

Component names are the struct names, and quart-schema keeps one schema per name across the whole
document, so a tag group whose structs reuse another group's names (``ElementBalance`` is both
Western and Chinese) passes ``prefix="Chinese"``: every mirrored name in that tree gets it.

A struct that contains itself (a dasha period's ``sub_periods``) is referred to by name while
its mirror is being built, and the reference is resolved once the model exists.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
from functools import cache
from typing import Any

import msgspec
from pydantic import BaseModel, ConfigDict, create_model

# Mirrors under construction, (struct, prefix) -> model name: a nested occurrence of the same
# struct becomes a forward reference instead of an endless recursion.
_BUILDING: dict[tuple[type[msgspec.Struct], str], str] = {}


def _mirror_type(tp: Any, prefix: str) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(tp)
        naive = any(isinstance(m, msgspec.Meta) and m.tz is False for m in metadata)
        if inner is dt.datetime and naive:
            return str  # a wall-clock reading without an offset is not an RFC 3339 date-time
        if inner is str and any(
            isinstance(m, msgspec.Meta) and (m.extra_json_schema or {}).get("format") == "date-time"
            for m in metadata
        ):
            return dt.datetime  # text the struct already holds as RFC 3339 (``...Z``)
        return _mirror_type(inner, prefix)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        building = _BUILDING.get((tp, prefix))
        if building is not None:
            return typing.ForwardRef(building)
        return response_model(tp, prefix=prefix)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return list[_mirror_type(args[0], prefix)]  # type: ignore[misc]
        return tuple[tuple(_mirror_type(a, prefix) for a in args)]  # type: ignore[misc]
    if origin in (typing.Union, types.UnionType):
        args = tuple(_mirror_type(a, prefix) for a in typing.get_args(tp))
        return typing.Union[args]  # noqa: UP007 (built from a runtime tuple)
    if origin is dict:
        key, value = typing.get_args(tp)
        return dict[key, _mirror_type(value, prefix)]  # type: ignore[misc,valid-type]
    if tp in (str, int, float, bool, dt.datetime, dt.date, dt.time) or tp is type(None):
        return tp
    if origin is typing.Literal:
        return tp
    raise TypeError(f"no OpenAPI mirror for {tp!r}")


@cache
def response_model(struct: type[msgspec.Struct], *, prefix: str = "") -> type[BaseModel]:
    """A pydantic model with the struct's name (``prefix`` added unless it already starts
    with it), fields, types and docstring."""
    hints = typing.get_type_hints(struct, include_extras=True)
    name = struct.__name__ if struct.__name__.startswith(prefix) else prefix + struct.__name__
    fields: dict[str, Any] = {}
    _BUILDING[(struct, prefix)] = name
    config = struct.__struct_config__
    if config.tag_field is not None:
        # A tagged union member (``tag_field="kind"``): msgspec writes the tag first.
        fields[config.tag_field] = (typing.Literal[config.tag], ...)
    try:
        for info in msgspec.structs.fields(struct):
            default = ... if info.required else info.default
            if default is msgspec.NODEFAULT:
                default = None
            fields[info.encode_name] = (_mirror_type(hints[info.name], prefix), default)
    finally:
        del _BUILDING[(struct, prefix)]
    model = create_model(
        name,
        __config__=ConfigDict(title=name),
        __doc__=struct.__doc__,
        **fields,
    )
    model.model_rebuild(_types_namespace={name: model})
    return typing.cast(type[BaseModel], model)
