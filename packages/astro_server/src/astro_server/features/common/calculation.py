"""One declaration per calculation route: :func:`calculation` (:func:`calculations` binds a tag
group's shared options). How to add one.

A calculation route is "validate the request -> compute (in a worker thread) -> interpretations
-> sensitivity -> respond". Write the computation as a plain function of the validated request,
returning an astro_calc struct, and declare the route on it. The function's name is the
endpoint's and its docstring the operation's summary (first line) and description in OpenAPI.
A tag group binds what its routes share once, at the top of its routes.py, with
:func:`calculations` (any :func:`calculation` option; a route's own wins)::

    blueprint = Blueprint("ziwei", __name__)
    TAG = ["Zi Wei Dou Shu"]
    route = calculations(blueprint, tags=TAG, docs_prefix="Ziwei", errors=(400,))
    #   docs_prefix prefixes the group's schema names (generic struct names);
    #   errors documents the error body of these statuses too

A POST route with the interpretations and birth-time sensitivity options::

    @route(
        "POST /api/v3/ziwei/chart",
        "ziweiChart",                     # the operation id
        price="ziwei.chart",              # its row in platform/billing/pricing.py (OPERATIONS)
        body=ZiweiRequest,                # pydantic; inherits InterpretationOptions and
                                          # SensitivityOptions since it offers both
        result=ZiweiChart,                # the struct returned: the documented 200
        interpret=lambda chart, data: ziwei_interpretation(
            chart, language=data.language, level=data.interpretations
        ),
        sensitivity=lambda data, minutes: ziwei_sensitivity(
            data.subject.to_calc(), uncertainty_minutes=minutes
        ),
        names_subject=True,               # a refused "time" is named "subject.time"
    )
    def ziwei_chart(data: ZiweiRequest) -> ZiweiChart:
        \"\"\"Zi Wei Dou Shu chart: twelve palaces with their major and minor stars.\"\"\"
        return ziwei(data.subject.to_calc(), school=data.school)

A GET route reads a query-string model instead of a body (``query=``); a coroutine function
(a service reading the database) is awaited on the event loop instead of run in a thread::

    @route(
        "GET /api/v3/sky/events",
        "skyEvents",
        price="sky.events",
        query=SkyEventsQuery,
        result=SkyEvents,
        calendar=sky_events_ics,          # (result, query) -> str: answered instead of JSON,
    )                                     # as text/calendar, to ``Accept: text/calendar``
    def sky_events(query: SkyEventsQuery) -> SkyEvents:
        \"\"\"Eclipses, stations and ingresses between two dates.\"\"\"
        return sky_events_between(query.start, query.end)

A picture route returns the SVG text; its body model inherits ``PictureOptions`` (format
svg/png, size, theme, colours, language), the answer is the image in the format asked for, and
its operation id is listed in ``IMAGE_OPERATIONS`` (pictures.py and its copy in
platform/mcp/server.py, checked by test_mcp) so that OpenAPI and the MCP tools describe an
image::

    @route(
        "POST /api/v3/ziwei/chart/diagram",
        "ziweiChartDiagram",
        picture=True,
        price="ziwei.chart_diagram",
        body=ZiweiDiagramRequest,
    )
    def ziwei_chart_diagram(data: ZiweiDiagramRequest) -> str:
        \"\"\"The chart as the square of twelve palaces.\"\"\"
        return ziwei_chart_svg(ziwei(data.subject.to_calc()), **data.drawing_options())

What the helper does with the options:

* ``price`` is charged by ``@billable`` (``None``: a free route); a request asking for
  interpretations or sensitivity is charged the row ``<price>.interpretations_<level>``,
  ``<price>.sensitivity`` or both (add those rows to the table with the operation's;
  estimates choose them the same way, ``pricing.variant_of``). ``quantity=`` gives the unit
  count of a per-unit row (``lambda data: len(data.records)``).
* The answer is the result encoded once by msgspec (a struct, a dict, or ``msgspec.Raw`` bytes
  already encoded; a pydantic model as ``result=`` then documents it). ``interpret`` is called
  only for ``interpretations`` summary or full and its texts appended as ``interpretations``;
  ``sensitivity`` only when the request has the option, after the result, and appended as
  ``sensitivity``. Without them the body is the bare result's, byte for byte.
* Bad input raises astro_calc's ``CalcInputError(field, ...)`` in compute: a 400 naming the
  field, refunded like any failure.
* The route is the stack a hand-written one has (``@blueprint.route @require_api_key
  @billable @validate_querystring @document_response @tag @operation_id``): OpenAPI, the MCP
  tools, billing and estimates cannot tell the difference. Routes that start jobs, take path
  arguments or answer several shapes stay hand-written in that same order.
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
    _check(operation_id, rule, body, interpret, sensitivity, picture)

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


def calculations(
    blueprint: Blueprint, *, tags: list[str], **shared: Any
) -> Callable[..., Callable[[Compute], Compute]]:
    """A tag group's ``route``: :func:`calculation` with the group's blueprint, tags and shared
    options (``docs_prefix``, ``errors``) bound; the rule and operation id come first and a
    route's own options win over the shared ones."""

    def route(rule: str, operation_id: str, **options: Any) -> Callable[[Compute], Compute]:
        return calculation(
            blueprint, rule, operation_id=operation_id, tags=tags, **{**shared, **options}
        )

    return route


def _check(
    operation_id: str,
    rule: str,
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
    if "<" in rule:
        raise TypeError(f"{operation_id}: a route with path arguments is written by hand")
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
