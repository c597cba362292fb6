"""One declaration per calculation route: :func:`calculation`.

A calculation route is "validate the request -> compute in a worker thread -> interpretations
-> sensitivity -> respond". Write the computation as a plain function of the validated request
and declare the route on it; the function's name is the endpoint's, its docstring the
operation's summary and description in the OpenAPI document::

    @calculation(
        blueprint, "POST /api/v3/western/synastry",
        operation_id="westernSynastry", tags=TAG,
        price="western.synastry",            # the row of services/pricing.py (pricing.OPERATIONS)
        body=PairRequest,                    # the JSON body model (pydantic)
        result=Synastry,                     # the msgspec struct compute returns: the 200's schema
        interpret=lambda result, data: synastry_interpretation(
            result, language=data.language, level=data.interpretations
        ),
        sensitivity=lambda data, minutes: pair_sensitivity(data, minutes),
    )
    def western_synastry(data: PairRequest) -> Synastry:
        \"\"\"Inter-aspects, house overlays and a compatibility score (0 to 100).\"\"\"
        return synastry(data.subject_a.to_calc(), data.subject_b.to_calc())

The options, each optional but ``operation_id``, ``tags`` and ``price``:

* ``body=`` a JSON body model (POST), or ``query=`` a query-string model (GET, e.g.
  ``"GET /api/v3/horoscopes/daily"``); compute receives the validated instance.
* ``result=`` the struct compute returns (``docs_prefix=`` prefixes its schema names, as a tag
  group's generic struct names need), or a pydantic model documenting what it returns (a dict,
  ``msgspec.Raw`` bytes). The body is the result encoded once by msgspec.
* ``price=`` the operation charged (``None``: a free route); ``quantity=`` the unit count of a
  per-unit row (``lambda data: len(data.records)``). Requests asking for interpretations or
  sensitivity are charged their own rows (``<price>.interpretations_full.sensitivity``): the
  variant is chosen here, as estimates choose it (``pricing.variant_of``).
* ``interpret=`` ``(result, data) -> Interpretations``: the body model inherits
  ``InterpretationOptions``; with ``interpretations`` summary or full the texts are appended as
  ``interpretations``, in ``data.language``.
* ``sensitivity=`` ``(data, uncertainty_minutes) -> Sensitivity``: the body model inherits
  ``SensitivityOptions``; asked for, astro_calc.sensitivity's answer is appended as
  ``sensitivity``. Without either option the body is the bare result's, byte for byte.
* ``picture=True``: compute returns an SVG string, the body model inherits ``PictureOptions``
  and the answer is the picture in the ``format`` asked for (PNG rendered from the SVG). Add the
  operation id to ``IMAGE_OPERATIONS`` (pictures.py, and its copy in platform/mcp/server.py).
* ``calendar=`` ``(result, data) -> str``: an iCalendar text of the result, answered instead of
  JSON when the request's ``Accept`` prefers ``text/calendar`` (documented on the 200).
* ``errors=`` more statuses documented with the error body (``(400,)``); ``names_subject=True``
  names a subject field the calculation refuses by its place in the body (``subject.time``).

A coroutine function as compute (a service reading the database) is awaited on the event loop
instead of run in a thread. The route is exactly the stack a hand-written one has:
``@blueprint.route @require_api_key @billable @validate_querystring @document_response @tag
@operation_id``, so OpenAPI, the MCP tools, billing and estimates see no difference.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, Final, TypeVar, cast

import msgspec
from pydantic import BaseModel
from quart import Blueprint, Response, request
from quart_schema import document_response, tag, validate_querystring
from quart_schema import operation_id as operation_id_of

from astro_calc.interpretations import Interpretations
from astro_calc.sensitivity import Sensitivity
from astro_server.features.common.interpretations import (
    InterpretationOptions,
    interpretation_variant,
    interpreted_model,
    with_interpretations,
)
from astro_server.features.common.pictures import (
    CALENDAR_OPERATIONS,
    CALENDAR_TYPE,
    IMAGE_OPERATIONS,
    PictureOptions,
    picture_response,
)
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
    sensitive_model,
    sensitivity_variant,
    with_sensitivity,
)
from astro_server.features.common.subject import subject_errors
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.schemas import ErrorBody

Compute = TypeVar("Compute", bound=Callable[..., Any])
_encoder: Final = msgspec.json.Encoder()


def calculation(
    blueprint: Blueprint,
    rule: str,
    *,
    operation_id: str,
    tags: list[str],
    price: str | None,
    body: type[BaseModel] | None = None,
    query: type[BaseModel] | None = None,
    result: type[Any] | None = None,
    docs_prefix: str = "",
    quantity: Callable[[Any], int] | None = None,
    interpret: Callable[[Any, Any], Interpretations] | None = None,
    sensitivity: Callable[[Any, float], Sensitivity] | None = None,
    picture: bool = False,
    calendar: Callable[[Any, Any], str] | None = None,
    errors: tuple[int, ...] = (),
    names_subject: bool = False,
) -> Callable[[Compute], Compute]:
    """Register ``rule`` ("METHOD /path") on ``blueprint`` as the route computing with the
    decorated function (module docstring); the function itself is returned unchanged."""
    method, path = rule.split(" ", 1)
    _check(operation_id, body, interpret, sensitivity, picture)

    def declare(compute: Compute) -> Compute:
        def encoded(found: Any, data: Any) -> bytes:
            body = _encoder.encode(found)
            if interpret is not None and data.interpretations != "none":
                body = with_interpretations(body, interpret(found, data))
            if sensitivity is not None and data.sensitivity is not None:
                minutes = data.sensitivity.uncertainty_minutes
                body = with_sensitivity(body, sensitivity(data, minutes))
            return body

        def answer(data: Any, as_calendar: bool) -> bytes | str:
            with subject_errors() if names_subject else nullcontext():
                found = compute(data)
                if picture:
                    return str(found)
                if as_calendar and calendar is not None:
                    return calendar(found, data)
                return encoded(found, data)

        async def handler(**kwargs: Any) -> Response:
            data: Any = kwargs["data"] if "data" in kwargs else kwargs.get("query_args")
            if inspect.iscoroutinefunction(compute):
                with subject_errors() if names_subject else nullcontext():
                    found = await compute(data)
                return _json(encoded(found, data))
            as_calendar = calendar is not None and _wants_calendar()
            answered = await asyncio.to_thread(answer, data, as_calendar)
            if isinstance(answered, bytes):
                return _json(answered)
            if as_calendar:
                return Response(answered.encode(), content_type=CALENDAR_TYPE + "; charset=utf-8")
            return await picture_response(answered, data)

        for attribute in ("__name__", "__qualname__", "__doc__", "__module__"):
            setattr(handler, attribute, getattr(compute, attribute))
        view: Any = operation_id_of(operation_id)(handler)
        view = tag(tags)(view)
        for status in reversed(errors):
            view = document_response(ErrorBody, status)(view)
        documented = _documented(result, docs_prefix, interpret, sensitivity)
        if documented is not None:
            view = document_response(documented, 200)(view)
        if query is not None:
            view = validate_querystring(query)(view)
        if price is not None:
            variant = (
                interpretation_variant(price)
                if interpret is not None
                else sensitivity_variant(price)
                if sensitivity is not None
                else None
            )
            view = billable(price, body=body, quantity=quantity, variant=variant)(view)
        if calendar is not None:
            CALENDAR_OPERATIONS.add(operation_id)
        blueprint.route(path, methods=[method])(require_api_key(view))
        return compute

    return declare


def _check(
    operation_id: str,
    body: type[BaseModel] | None,
    interpret: object,
    sensitivity: object,
    picture: bool,
) -> None:
    """A declaration that cannot work fails at import, naming what is missing."""
    needs = [
        (interpret is not None, InterpretationOptions),
        (sensitivity is not None, SensitivityOptions),
        (picture, PictureOptions),
    ]
    for wanted, options in needs:
        if wanted and (body is None or not issubclass(body, options)):
            raise TypeError(f"{operation_id}: the body model must inherit {options.__name__}")
    if picture and operation_id not in IMAGE_OPERATIONS:
        raise TypeError(f"{operation_id}: add it to IMAGE_OPERATIONS (pictures.py, mcp/server.py)")


def _documented(
    result: type[Any] | None, prefix: str, interpret: object, sensitivity: object
) -> type[BaseModel] | None:
    """The 200's documented model: the result's schema, plus ``interpretations`` and
    ``sensitivity`` when the route offers them."""
    if result is None:
        return None
    documented: type[BaseModel]
    if issubclass(result, BaseModel):
        documented = result
    elif interpret is not None:
        documented = interpreted_model(cast(type[msgspec.Struct], result), prefix=prefix)
    else:
        documented = response_model(cast(type[msgspec.Struct], result), prefix=prefix)
    return sensitive_model(documented) if sensitivity is not None else documented


def _json(body: bytes) -> Response:
    return Response(body, status=200, content_type="application/json")


def _wants_calendar() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", CALENDAR_TYPE])
    return best == CALENDAR_TYPE
