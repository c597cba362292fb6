"""``create_app(settings)``: the Quart application factory. Blueprints are registered here."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import inspect
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from quart import Quart, Request, Response, current_app, g, request
from quart_schema import OpenAPIProvider, QuartSchema, RequestSchemaValidationError
from quart_schema.openapi import QUART_SCHEMA_OPERATION_ID_ATTRIBUTE
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Rule

from astro_calc.errors import CalcInputError
from astro_server import __version__, registry
from astro_server.features.common.pictures import document_images
from astro_server.platform import hosts
from astro_server.platform.compression import compress_if_accepted
from astro_server.platform.docs_examples import billable_operation, billing_note, document_examples
from astro_server.platform.errors import APIError, validation_error
from astro_server.platform.outages import DependencyUnavailable, dependency_of, outages
from astro_server.platform.responses import current_request_id, json_response
from astro_server.platform.runtime import Platform, die_with_supervisor, make_rate_limiter
from astro_server.platform.schemas import ErrorBody
from astro_server.platform.streaming import (
    StreamingBody,
    StreamingHTTPConnection,
    keep_or_close,
)
from astro_server.settings import Settings

#: The interface spec's version, which the OpenAPI document carries.
API_VERSION: Final = "1.1.0"
log = logging.getLogger("astro_server")
access_log = logging.getLogger("astro_server.access")
_request_id = current_request_id

# The spec's tag groups (Authentication added for /auth/login and /auth/logout).
TAG_GROUPS: list[dict[str, str]] = [
    {"name": "Western", "description": "Natal, relationship, return, progression, transit"},
    {"name": "Vedic", "description": "Sidereal charts, matching, timing, remedies"},
    {"name": "Thai Astrology", "description": "Calendar, auspicious timing, lunar, festivals"},
    {"name": "Chinese & Korean", "description": "BaZi, Qi Men Dun Jia, Zi Wei Dou Shu, Saju"},
    {"name": "Horoscopes", "description": "Published daily and range horoscope content"},
    {"name": "Reports", "description": "Branded reports; long work runs as a job"},
    {"name": "Tarot & Numerology", "description": "Tarot draws and numerology profiles"},
    {"name": "Uranian", "description": "Uranian charts, midpoints, planetary pictures"},
    {"name": "Human Design", "description": "Bodygraph charts, composites, transits, pictures"},
    {
        "name": "Developer workflow",
        "description": "Account, usage, ledger, API keys, audit log, estimates and job polling",
    },
    {"name": "Visual readings", "description": "Private palm and face readings"},
    {"name": "Customer reports", "description": "Customer-facing reports (session token)"},
    {"name": "Customer delivery", "description": "Webhooks and scheduled horoscope delivery"},
    {"name": "Customer visual readings", "description": "Customer visual readings (session)"},
    {"name": "Customer team", "description": "The account's logins and roles (session)"},
    {"name": "Cultural Intelligence", "description": "Enterprise workflows"},
    {"name": "Enterprise workflows", "description": "Encrypted client profiles and teams"},
    {"name": "Authentication", "description": "Customer login and logout"},
    {
        "name": "Places",
        "description": "City search: coordinates, time zone and a place id for a birth subject",
    },
]


#: Error statuses every operation can answer, documented on each one that does not already say
#: more: 400 where there is input to refuse (a body or parameters), 413 and 415 where there is a
#: body, 500 everywhere. All carry the one error body.
_COMMON_ERRORS: dict[str, tuple[str, str]] = {
    "400": ("input", "Invalid input: validation_error with details naming each field, or "
                     "bad_request for a body that is not JSON"),
    "413": ("body", "payload_too_large: the body exceeds the server's limit"),
    "415": ("body", "unsupported_media_type: send the body as application/json"),
    "500": ("any", "internal_server_error (code internal): the request could not be completed"),
    "503": ("any", "service_unavailable (code database_unavailable, job_queue_unavailable or "
                   "rate_limiter_unavailable, with Retry-After): a dependency is down"),
}  # fmt: skip


ERROR_SCHEMA_NAME: Final = "JsonError"
_ERROR_REF: Final = {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}


def _document_common_errors(document: dict[str, Any]) -> None:
    """The error body once, as ``components/schemas/JsonError``; every error response (4xx,
    5xx) refers to it, and the common statuses are added where an operation can answer them."""
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas = document["components"]["schemas"]
    for name, definition in error_schema.pop("$defs", {}).items():
        schemas.setdefault(name, definition)
    schemas[ERROR_SCHEMA_NAME] = error_schema
    schemas.pop("ErrorBody", None)
    for path_item in document["paths"].values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                content = response.get("content", {}).get("application/json")
                if int(status) >= 400 and content is not None:
                    content["schema"] = dict(_ERROR_REF)
            has_body = "requestBody" in operation
            has_input = has_body or bool(operation.get("parameters"))
            for status, (needs, description) in _COMMON_ERRORS.items():
                if status in responses or int(status) in responses:  # quart-schema keys are ints
                    continue
                if (needs == "body" and not has_body) or (needs == "input" and not has_input):
                    continue
                responses[int(status)] = {
                    "description": description,
                    "content": {"application/json": {"schema": dict(_ERROR_REF)}},
                }


_RST_LITERAL: Final = re.compile(r"``(.+?)``", re.DOTALL)
# A sentence ends at a full stop followed by a capital letter or an opening bracket ("e.g. x"
# and "0.5" do not end one).
_SENTENCE_END: Final = re.compile(r"(?<=\.)\s+(?=[A-Z(])")
_CREDENTIALS: Final = {
    "ApiKeyHeader": "Credential: an API key (`X-API-Key: ak_live_...`, or "
    "`Authorization: Bearer ak_live_...`).",
    "SessionBearer": "Credential: a customer session token "
    "(`Authorization: Bearer service_sess_...`) from `POST /auth/login`.",
}


def summary_and_description(
    docstring: str, security: list[dict[str, Any]] | None
) -> tuple[str, str]:
    """An operation's summary (the docstring's first sentence, as plain text: 'x' for the RST
    literal) and description (the whole docstring as Markdown, with single backticks, then the
    credential the operation takes)."""
    paragraphs = [
        " ".join(line.strip() for line in block.splitlines())
        for block in re.split(r"\n\s*\n", docstring.strip())
    ]
    first = _SENTENCE_END.split(paragraphs[0], maxsplit=1)[0]
    summary = _RST_LITERAL.sub(r"'\1'", first).rstrip(".")
    credential = "Credential: none."
    for requirement in security or ():
        for name in requirement:
            credential = _CREDENTIALS.get(name, credential)
    description = "\n\n".join([*(_RST_LITERAL.sub(r"`\1`", p) for p in paragraphs), credential])
    return summary, description


#: Path parameters as the spec names them, with the pattern every id of ours follows.
_PATH_PARAMETERS: Final[dict[str, tuple[str, str]]] = {
    "sub_id": ("id", r"^hfs_[a-f0-9]{24}$"),
    "job_id": ("job_id", r"^job_[a-f0-9]{24}$"),
    "delivery_id": ("delivery_id", r"^dlv_[a-f0-9]{24}$"),
    "key_id": ("key_id", r"^key_[a-f0-9]{24}$"),
    "endpoint_id": ("id", r"^whe_[a-f0-9]{24}$"),
    "profile_id": ("id", r"^brand_[a-f0-9]{24}$"),
    "file_id": ("file_id", r"^file_[a-f0-9]{24}$"),
    "report_id": ("report_id", r"^rep_[a-f0-9]{24}$"),
    "client_profile_id": ("id", r"^prof_[a-f0-9]{24}$"),
    "member_id": ("id", r"^cus_[a-f0-9]{24}$"),
    "campaign_id": ("id", r"^cmp_[a-f0-9]{24}$"),
}
#: Operations that answer a stored file's bytes (any media type), whole or one byte range.
_FILE_BYTES: Final = frozenset({"getFile"})


def _file_responses() -> dict[int, dict[str, Any]]:
    binary = {"*/*": {"schema": {"type": "string", "format": "binary"}}}
    return {
        200: {"description": "The file, with its Content-Type and Content-Disposition.",
              "content": binary},
        206: {"description": "One byte range (Content-Range).", "content": binary},
    }  # fmt: skip


#: Operations that answer 204 with no body.
_NO_CONTENT: Final = frozenset(
    {
        "logout",
        "deleteHoroscopeFeedSubscription",
        "deleteWebhookEndpoint",
        "deleteReportBrandProfile",
        "deleteProfile",
        "removeTeamMember",
        "removeMyTeamMember",
        "deleteCampaign",
    }
)


def _document_path_parameters(document: dict[str, Any]) -> None:
    paths: dict[str, Any] = {}
    for path, item in document["paths"].items():
        for old, (new, _pattern) in _PATH_PARAMETERS.items():
            path = path.replace("{" + old + "}", "{" + new + "}")
        paths[path] = item
        for operation in item.values():
            for parameter in operation.get("parameters", ()):
                if parameter.get("in") == "path" and parameter["name"] in _PATH_PARAMETERS:
                    new, pattern = _PATH_PARAMETERS[parameter["name"]]
                    parameter["name"] = new
                    parameter["schema"] = {"type": "string", "pattern": pattern}
            if operation.get("operationId") in _NO_CONTENT:
                operation.setdefault("responses", {})[204] = {"description": "Done; no body."}
            if operation.get("operationId") in _FILE_BYTES:
                operation.setdefault("responses", {}).update(_file_responses())
    document["paths"] = paths


class _OpenAPIProvider(OpenAPIProvider):
    """Operation ids exactly as declared (``createHoroscopeFeedSubscription``), no method prefix;
    path parameters named and patterned as the spec has them; the common error statuses
    documented on every operation, all referring to ``JsonError``; a summary and a description
    on every operation; a ``servers`` entry; picture routes' images."""

    _document: dict[str, Any] | None = None

    def schema(self) -> dict[str, Any]:
        """The document, built once per app (the routes do not change once it serves): building
        it takes about two seconds of the event loop, which every request would otherwise wait
        for. Each caller gets its own copy."""
        if self._document is None:
            self._document = self._build()
        return copy.deepcopy(self._document)

    def forget(self) -> None:
        """Build the document again at the next request (tests that change what it reads)."""
        self._document = None

    def _build(self) -> dict[str, Any]:
        from astro_server.features.profiles.routes import document_profile_references

        document = super().schema()
        document["servers"] = [
            {"url": "/", "description": "The server that serves this document (same origin)"}
        ]
        _document_path_parameters(document)
        document_profile_references(document)
        _document_common_errors(document)
        document_images(document)
        from astro_server.features.cultural.campaign_routes import document_csv

        document_csv(document)
        document_examples(document)
        return document

    def build_paths(self, rule: Rule) -> tuple[dict[str, Any], dict[str, Any]]:
        """quart-schema's, but the summary is the docstring's first sentence (not its first
        line, which may stop mid-sentence) and the description is never empty."""
        paths, components = super().build_paths(rule)
        view = self._app.view_functions[rule.endpoint]
        docstring = inspect.getdoc(view)
        if docstring:
            for path_item in paths.values():
                for operation in path_item.values():
                    summary, description = summary_and_description(
                        docstring, operation.get("security")
                    )
                    operation["summary"], operation["description"] = summary, description
        billed = billable_operation(view)
        if billed is not None:
            # A visible note with the price and tier, and the same as an extension.
            note, extension = billing_note(billed)
            for path_item in paths.values():
                for operation in path_item.values():
                    text = operation.get("description", "")
                    operation["description"] = f"{note}\n\n{text}" if text else note
                    operation["x-astro-billing"] = extension
        return paths, components

    def operation_id(self, method: str, path: str, func: Callable[..., Any]) -> str | None:
        explicit = getattr(func, QUART_SCHEMA_OPERATION_ID_ATTRIBUTE, None)
        if explicit:
            return str(explicit)
        return super().operation_id(method, path, func)

    def build_querystring_parameters(
        self, model: type[Any]
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """quart-schema 0.25 looks for ``required`` on each property, but JSON Schema keeps it in
        the model's ``required`` list, so a required query parameter came out optional."""
        parameters, definitions = super().build_querystring_parameters(model)
        fields = getattr(model, "model_fields", {})
        for parameter in parameters:
            field = fields.get(parameter["name"])
            if field is not None and field.is_required():
                parameter["required"] = True
        return parameters, definitions


_NUL = "\x00"
_NUL_MESSAGE = "must not contain the NUL character (\\u0000)"


#: How deep a request body's JSON may nest: none of our bodies nests more than a few levels.
#: Checked before parsing, so the answer never depends on the interpreter's recursion limit
#: (the json module's parser gives up near it, and a library in the process may raise it).
MAX_JSON_DEPTH = 64
_JSON_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def json_nests_deeper_than(raw: bytes, limit: int) -> bool:
    """Whether the JSON text ``raw`` opens more than ``limit`` arrays or objects inside one
    another (brackets inside strings do not count)."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # the common case: too few brackets to nest that deep
    depth = 0
    for match in _JSON_TOKENS.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def _nul_field(value: Any, path: str = "") -> str | None:
    """Where a NUL character sits in a parsed JSON value (``records[3].id``), if anywhere."""
    if isinstance(value, str):
        return (path or "body") if _NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _NUL in key:
                return f"{path}.{key!r}" if path else repr(key)
            found = _nul_field(item, f"{path}.{key}" if path else key)
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _nul_field(item, f"{path}[{index}]")
            if found:
                return found
    return None


class _Request(Request):
    """Quart's request, but a body that is not UTF-8 fails as malformed JSON (a 400 through
    ``on_json_loading_failed``) instead of escaping as a UnicodeDecodeError (a 500), and a text
    value holding a NUL character is a 400 naming its field: PostgreSQL cannot store or compare
    such text, so it would otherwise fail deep inside a query as a 500."""

    body_class = StreamingBody
    _raw_body: bytes | None = None

    async def get_data(  # type: ignore[override]
        self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False
    ) -> str | bytes:
        """Quart's, but the body's bytes are kept once read: each of Quart's reads wraps the body
        in a new task under ``wait_for``, and a billable request reads it four times (JSON,
        NUL check, strict validation, idempotency hash)."""
        raw = self._raw_body
        if raw is None or parse_form_data or not cache:
            read = await super().get_data(cache, False, parse_form_data)
            raw = read if isinstance(read, bytes) else read.encode()
            if cache and not parse_form_data:
                self._raw_body = raw
        return raw.decode() if as_text else raw

    async def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        raw = await self.get_data(as_text=False) if force or self.is_json else b""
        if isinstance(raw, bytes) and json_nests_deeper_than(raw, MAX_JSON_DEPTH):
            if silent:
                return None
            raise APIError(
                400, f"The JSON body nests arrays or objects deeper than {MAX_JSON_DEPTH} levels."
            )
        try:
            data = await super().get_json(force=force, silent=silent, cache=cache)
        except (UnicodeDecodeError, RecursionError) as error:
            # RecursionError: arrays or objects nested about a thousand deep, which the json
            # module cannot parse (no body of ours nests more than a few levels).
            return None if silent else self.on_json_loading_failed(error)
        # JSON carries a NUL only as the escape \u0000: look further only when it is there.
        if not silent and b"\\u0000" in await self.get_data(as_text=False):
            field = _nul_field(data)
            if field is not None:
                raise validation_error([{"field": field, "message": _NUL_MESSAGE}])
        return data


def error_response(err: APIError) -> Response:
    return json_response(err.body(_request_id()), err.status, err.headers)


def _register_error_handlers(app: Quart) -> None:
    @app.errorhandler(APIError)
    async def _api_error(err: APIError) -> Response:
        if isinstance(err, DependencyUnavailable):
            outages.note(err.dependency, err.__cause__)
        return error_response(err)

    @app.errorhandler(RequestSchemaValidationError)
    async def _schema_error(err: RequestSchemaValidationError) -> Response:
        from astro_server.platform.validation import details_from_exception

        if request.method in ("POST", "PUT", "PATCH") and not request.is_json:
            return error_response(
                APIError(415, "Send the body as JSON with Content-Type: application/json.")
            )
        return error_response(details_from_exception(err.validation_error))

    @app.errorhandler(CalcInputError)
    async def _calc_input_error(err: CalcInputError) -> Response:
        # Calculations name the input they refuse; the client gets a field-level 400.
        return error_response(
            validation_error([{"field": err.field, "message": err.message}], err.message)
        )

    @app.errorhandler(HTTPException)
    async def _http_error(err: HTTPException) -> Response:
        status = err.code or 500
        message = {
            400: "Malformed request: the body is not valid JSON."
            if request.is_json
            else "Malformed request.",
            404: "No such route.",
            405: "Method not allowed on this route.",
            413: "Request body too large.",
            415: "Unsupported content type.",
        }.get(status, "Request failed.")
        headers: dict[str, str] = {}
        if status in (404, 405) and "astro" in current_app.extensions:
            from astro_server.platform.auth.guards import limit_unrouted

            try:
                await limit_unrouted()  # sets the RateLimit-* headers
            except APIError as limited:
                return error_response(limited)
        valid_methods = getattr(err, "valid_methods", None)
        if status == 405 and valid_methods:
            headers["Allow"] = ", ".join(sorted(valid_methods))
        return error_response(APIError(status, message, headers=headers))

    @app.errorhandler(Exception)
    async def _unhandled(err: Exception) -> Response:
        dependency = dependency_of(err)
        if dependency is not None:
            # A lost database or Redis: 503 naming it, one log line per outage (not a traceback
            # per request).
            outages.note(dependency, err)
            return error_response(DependencyUnavailable(dependency))
        log.exception("unhandled error")
        return error_response(
            APIError(500, "The server could not complete the request.", code="internal")
        )


_METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _register_request_hooks(app: Quart) -> None:
    from astro_server.platform import metrics

    @app.before_request
    async def _assign_request_id() -> None:
        incoming = request.headers.get("X-Request-Id", "")
        ok = 0 < len(incoming) <= 64 and incoming.replace("-", "").replace("_", "").isalnum()
        g.request_id = incoming if ok else "req_" + secrets.token_hex(12)
        g.started = time.perf_counter()
        # A NUL in the path or the query (%00) would reach PostgreSQL in an id or a cursor.
        if _NUL in request.path:
            raise validation_error([{"field": "path", "message": _NUL_MESSAGE}])
        if b"%00" in request.query_string:
            for name, value in request.args.items(multi=True):
                if _NUL in name or _NUL in value:
                    raise validation_error([{"field": name, "message": _NUL_MESSAGE}])
        # Keyless traffic: one limit per client address (platform/auth/guards.py).
        from astro_server.platform.auth.guards import limit_keyless

        await limit_keyless()

    @app.after_request
    async def _finish(response: Response) -> Response:
        response.headers["X-Request-Id"] = _request_id()
        await keep_or_close(request, response.headers)
        if response.status_code in (204, 304):
            # No body, so no media type (Quart gives every Response text/html by default).
            response.headers.pop("Content-Type", None)
        for name, value in getattr(g, "credit_headers", {}).items():
            response.headers.setdefault(name, value)
        decision = getattr(g, "rate_limit", None)
        if decision is not None:
            for name, value in decision.headers().items():
                response.headers.setdefault(name, value)
        rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
        elapsed = time.perf_counter() - getattr(g, "started", time.perf_counter())
        # Any token is a valid HTTP method: one label value per client-chosen name would let
        # anyone grow /metrics without bound.
        method = request.method if request.method in _METHODS else "OTHER"
        metrics.HTTP_REQUESTS.labels(rule, method, str(response.status_code)).inc()
        metrics.HTTP_LATENCY.labels(rule).observe(elapsed)
        if rule not in ("/healthz", "/metrics"):
            account = getattr(g, "account", None)
            access_log.info(
                "request",
                extra={
                    "method": request.method,
                    "route": rule,
                    "status": response.status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                    "account_id": account.id if account is not None else None,
                    "credential_id": getattr(g, "credential_id", None),
                    # The client's, through a trusted proxy (platform/proxy.py).
                    "client_address": request.remote_addr,
                },
            )
        return await compress_if_accepted(response, request.headers.get("Accept-Encoding", ""))


_warming: list[threading.Thread] = []


def _warm_reference_data() -> None:
    from astro_calc import places
    from astro_server.drawing.world_map import base_paths

    places.warm()
    base_paths()


def _start_warming() -> None:
    """Read the reference data in a daemon thread, once per process (both are cached)."""
    if not _warming:
        thread = threading.Thread(target=_warm_reference_data, name="warm", daemon=True)
        _warming.append(thread)
        thread.start()


def _register_lifecycle(app: Quart, wired: Platform) -> None:
    settings = wired.settings

    @app.before_serving
    async def _startup() -> None:
        from astro_server.platform import broker as broker_module
        from astro_server.platform.db import init_db

        die_with_supervisor()
        await init_db(settings)
        # The web app's runtime objects join the process's platform (the one build_platform made).
        state = wired
        state.rate_limiter = make_rate_limiter(settings)
        state.key_generation_seen = 0
        state.background.clear()
        state.broker = broker_module.make_broker(settings)
        try:
            await state.broker.startup()
        except Exception as exc:
            # Serve anyway: /readyz reports the broker, queuing a job answers 503 meanwhile.
            log.warning("job broker unavailable at startup: %s", type(exc).__name__)
        broker_module.set_current(state.broker)
        app.extensions["astro"] = state
        # The place index (a subject's ``place``, GET /api/v3/places) and the map's coastlines
        # are read now, in the background (about a second), so that the first search and the
        # first map are fast without delaying readiness.
        _start_warming()
        # Everything loaded so far (modules, tables, the ORM) lives as long as the process:
        # keep it out of the cyclic collector's scans, which otherwise stall requests.
        gc.collect()
        gc.freeze()
        # A request allocates thousands of short-lived objects: with the default thresholds
        # (700, 10, 10) the collector runs several times per request. Fewer, larger young
        # collections cost 10-15% less CPU per billable request (measured in-process, 3,000
        # requests, PostgreSQL + Redis); memory grows by at most a few MB of young garbage.
        gc.set_threshold(20_000, 50, 50)
        # The heartbeat of this process's idempotency claims (platform/billing/claims.py).
        from astro_server.platform.billing.claims import renew_claim_leases

        beat_stop = asyncio.Event()
        beat = asyncio.create_task(renew_claim_leases(settings.claim_lease_s, beat_stop))
        state.background.extend([beat_stop, beat])
        if settings.embedded:
            # Embedded mode: the scheduler (job sweeper, publishing, deliveries) runs here.
            from astro_server.platform.periodic import Scheduler

            stop = asyncio.Event()
            task = asyncio.create_task(Scheduler(settings, wired.periodic_tasks).run(stop))
            state.background.extend([stop, task])

    @app.after_serving
    async def _shutdown() -> None:
        from astro_server.features.reports.render.renderer import close_renderer
        from astro_server.platform import broker as broker_module
        from astro_server.platform.db import close_db

        await close_renderer()
        state: Platform | None = app.extensions.pop("astro", None)
        if state is not None:
            for item in state.background:
                if isinstance(item, asyncio.Event):
                    item.set()
            for item in state.background:
                if isinstance(item, asyncio.Task):
                    with contextlib.suppress(Exception, asyncio.CancelledError):
                        await asyncio.wait_for(item, timeout=5)
            if state.broker is not None:
                await state.broker.shutdown()
                broker_module.set_current(None)
                state.broker = None
            await state.rate_limiter.close()
            state.rate_limiter = None
            state.background.clear()
        await close_db()


def create_app(settings: Settings | None = None) -> Quart:
    from astro_server.platform.auth.guards import SECURITY_SCHEMES
    from astro_server.platform.logs import configure_logging

    settings = settings or Settings.from_env()
    configure_logging(settings.log_level)
    app = Quart("astro_server")
    app.request_class = _Request
    app.asgi_http_class = StreamingHTTPConnection  # bodies stream with back-pressure
    app.config["ASTRO_SETTINGS"] = settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config["ASTRO_VERSION"] = __version__
    app.config["ASTRO_API_VERSION"] = API_VERSION
    from astro_server.platform.routes.docs import asset_urls

    app.config.update(asset_urls())  # /docs loads Swagger UI from this server, not a CDN
    QuartSchema(
        app,
        info={"title": "Astro API", "version": API_VERSION},
        openapi_path="/openapi.json",
        swagger_ui_path=None,  # /docs is platform/routes/docs.py's page (its settings)
        redoc_ui_path=None,
        scalar_ui_path=None,
        tags=list(TAG_GROUPS),
        security_schemes=dict(SECURITY_SCHEMES),
        openapi_provider_class=_OpenAPIProvider,
    )
    _register_request_hooks(app)
    hosts.install(app, settings)
    _register_error_handlers(app)
    # The platform's parts (job kinds, delivery and file settings, ...) are wired before the
    # blueprints, so a route never runs against an unconfigured service.
    _register_lifecycle(app, registry.build_platform(settings))

    for blueprint in registry.blueprints():
        app.register_blueprint(blueprint)
    if settings.trusted_proxies:
        from astro_server.platform.proxy import TrustedProxyMiddleware

        # Wrapping asgi_app (not the app) keeps ``app`` a Quart instance for the test client.
        app.asgi_app = TrustedProxyMiddleware(  # type: ignore[method-assign,assignment]
            app.asgi_app, settings.trusted_proxies
        )
    if settings.max_concurrent_requests > 0:
        from astro_server.platform.shedding import ConcurrencyLimit

        app.asgi_app = ConcurrencyLimit(  # type: ignore[method-assign,assignment]
            app.asgi_app, settings.max_concurrent_requests
        )
    return app
