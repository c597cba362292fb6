"""The JSON body of a billable request: read once, profile references replaced, validated strictly.

:func:`load_body` answers, before anything is charged:

- 415 when the request does not say ``Content-Type: application/json``;
- 400 ``bad_request`` when the body is not JSON at all, or holds an escaped NUL (``\\u0000``,
  named by Quart's own reader);
- 400 naming each failing field (``RequestSchemaValidationError``, turned into the error body by
  the app's handler) when the body does not match the model.

For a pydantic model (and the app's casing left as is) validation is strict and from the JSON
text: a value must have the documented JSON type, so ``"13.7"`` is not a number, ``0`` is not a
date and ``false`` is not an integer (lax mode took them: found by schemathesis); dates and
instants are read from their ISO 8601 strings. Before validation each ``{"profile_id": ...}`` in
place of a birth subject becomes that profile's subject (``features/profiles/service.py``, the
one place every subject-taking route gets references); an unknown profile is a 400.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError
from quart import current_app, request
from quart_schema import RequestSchemaValidationError
from quart_schema.conversion import model_load

from astro_server.platform.errors import APIError
from astro_server.platform.handler_args import current_caller
from astro_server.platform.runtime import platform


async def load_body(model_class: Any) -> Any:
    """The request's JSON body as an instance of ``model_class`` (see the module docstring)."""
    if not request.is_json:
        raise APIError(415, "Send the body as JSON with Content-Type: application/json.")
    if _is_pydantic_model(model_class) and not current_app.config["QUART_SCHEMA_CONVERT_CASING"]:
        # The body is parsed once; Quart's own reading (request.get_json) runs only for the
        # bodies it answers itself: one holding an escaped NUL (named, 400) or one refused as a
        # whole (not JSON: 400 bad_request).
        raw = await request.get_data(as_text=False)
        assert isinstance(raw, bytes)
        if b"\\u0000" in raw:
            await request.get_json()
        caller = current_caller()
        state = platform()
        # Each {"profile_id": ...} becomes that profile's birth subject (the profiles
        # feature's resolver, wired by the registry: the platform does not import features).
        raw = await state.resolve_references(
            raw,
            account_id=caller.account_id,
            livemode=caller.livemode,
            # A reference reads a client profile: it needs the key's ``profiles`` scope.
            scopes=caller.scopes,
            key_generation=state.key_generation_seen,
        )
        try:
            return model_class.model_validate_json(raw, strict=True)
        except ValidationError as error:
            if any(not detail["loc"] for detail in error.errors()):
                await request.get_json()
            raise RequestSchemaValidationError(error) from None
        except TypeError as error:
            raise RequestSchemaValidationError(error) from None
    data = await request.get_json()  # a body that is not JSON is a 400 bad_request here
    return model_load(
        data,
        model_class,
        RequestSchemaValidationError,
        decamelize=current_app.config["QUART_SCHEMA_CONVERT_CASING"],
        preference=current_app.config["QUART_SCHEMA_CONVERSION_PREFERENCE"],
    )


def _is_pydantic_model(model_class: Any) -> bool:
    return isinstance(model_class, type) and issubclass(model_class, BaseModel)
