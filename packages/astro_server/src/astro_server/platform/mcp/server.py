"""The hosted MCP server: ``/mcp`` over Streamable HTTP (stateless, JSON answers), next to the
Quart application in one ASGI app (:func:`with_mcp`), plus ``/llms.txt``.

Each tool call is the REST request of its twin, sent in-process through the Quart application
with the MCP request's own ``X-API-Key`` / ``Authorization`` / ``Idempotency-Key`` headers and
client address (as the portal calls the API, see ``portal/client.py``): a missing key answers
401, a session token is refused, scopes, test mode, rate limits, idempotency, the tier check and
the debit are REST's own. A REST error becomes an MCP tool error carrying the JSON error body's
slug and message (never a traceback). Keyless: ``tools/list``, the docs tools and the static
resources.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, Final, cast
from urllib.parse import quote

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from quart import Quart
from quart_schema.openapi import QUART_SCHEMA_OPERATION_ID_ATTRIBUTE

from astro_calc import glossary
from astro_calc.zodiac import SIGNS
from astro_server.drawing import svg_to_png
from astro_server.platform.billing.billable import billed
from astro_server.platform.billing.pricing import OPERATIONS
from astro_server.platform.mcp.tools import (
    JOB_OPERATION,
    Price,
    ToolSpec,
    build_tools,
    search_operations,
    snake,
)

Scope = MutableMapping[str, Any]
log = logging.getLogger("astro_server.mcp")
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
MCP_PATH: Final = "/mcp"
LLMS_TXT: Final = Path(__file__).with_name("llms.txt")
#: Request headers carried from the MCP request to the REST call: the credential, the
#: idempotency key and request id, and where the client sent the request (``Host`` and a trusted
#: proxy's forwarding headers, read by the same middleware as REST's), so that the signed URLs
#: and links in an answer point where REST's would.
_FORWARDED: Final = (
    "x-api-key", "authorization", "idempotency-key", "x-request-id", "host", "x-forwarded-for",
    "x-forwarded-proto", "x-forwarded-host", "forwarded",
)  # fmt: skip
#: Operation ids answering a picture (kept in step with features/common/pictures.py, which the
#: platform may not import; a test checks they agree).
IMAGE_OPERATIONS: Final = frozenset(
    {"westernNatalWheel", "westernSynastryWheel", "westernTransitsWheel", "uranianDial",
     "vedicChartDiagram", "thaiWheelDiagram", "humanDesignBodygraph",
     "westernAstrocartographyMap", "chineseZiweiChart", "westernZodiacalReleasingChart"}
)  # fmt: skip
DOCS_TOOLS: Final = ("docs_search", "docs_operation")
TOOLS_LIST_TTL_MS: Final = 10 * 60 * 1000
#: The tool that polls a job (``getJob``'s tool) until it ends, in the server.
WAIT_JOB_TOOL: Final = "wait_job"
WAIT_DEFAULT_S: Final = 30.0
WAIT_MAX_S: Final = 60.0
#: Poll interval of wait_job: the first polls are quick (most jobs finish in well under a
#: second), then every second.
_WAIT_STEPS: Final = (0.05, 0.1, 0.2, 0.4, 0.8, 1.0)
_JOB_ENDED: Final = frozenset({"succeeded", "failed", "canceled"})
DOCS_SEARCH_OUTPUT: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "operation_id": {"type": ["string", "null"]},
                    "tool": {"type": ["string", "null"], "description": "null: not a tool"},
                    "method": {"type": "string"},
                    "path": {"type": "string"},
                    "summary": {"type": "string"},
                    "tag": {"type": "string"},
                },
                "required": ["operation_id", "tool", "method", "path", "summary", "tag"],
            },
        }
    },
    "required": ["operations"],
}
DOCS_OPERATION_OUTPUT: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "method": {"type": "string"},
        "path": {"type": "string"},
        "operation": {"type": "object", "description": "The OpenAPI operation object"},
        "tool": {"type": ["string", "null"]},
        "input_schema": {"type": ["object", "null"]},
        "output_schema": {"type": ["object", "null"]},
    },
    "required": ["method", "path", "operation", "tool", "input_schema", "output_schema"],
}


def prices_by_operation_id(app: Quart) -> dict[str, Price]:
    """Each billable route's price-table row, from its handler's ``@billable`` attribute
    (:func:`astro_server.platform.billing.billable.billed`)."""
    prices: dict[str, Price] = {}
    for func in app.view_functions.values():
        operation_id = getattr(func, QUART_SCHEMA_OPERATION_ID_ATTRIBUTE, None)
        found = billed(func)
        if operation_id and found is not None:
            row = found.row
            prices[str(operation_id)] = Price(found.operation, row.credits, row.tier, row.per_unit)
    return prices


#: The summary line's phrases per language (the request's ``language``, en by default).
_PHRASES: Final[dict[str, dict[str, str]]] = {
    "en": {"charged": "{n} credits charged, {left} left", "queued": "queued job {job}",
           "follow": "Follow it with {tool}.", "ok": "OK", "fields": "Fields"},
    "th": {"charged": "หัก {n} เครดิต คงเหลือ {left}", "queued": "เข้าคิวงาน {job}",
           "follow": "ติดตามด้วย {tool}", "ok": "สำเร็จ", "fields": "ข้อมูล"},
}  # fmt: skip


def _summary(
    tool: ToolSpec, status: int, body: Any, headers: dict[str, str], language: str = "en"
) -> str:
    """One line: what came back and what it cost, in the request's language (en or th)."""
    words = _PHRASES.get(language, _PHRASES["en"])
    charged = headers.get("x-credits-charged")
    cost = (
        "; " + words["charged"].format(n=charged, left=headers.get("x-credits-remaining"))
        if charged
        else ""
    )
    if status == 202 and isinstance(body, dict):
        job = body.get("job_id") or body.get("id")
        follow = words["follow"].format(tool=snake(JOB_OPERATION))
        return f"{tool.name}: {words['queued'].format(job=job)}{cost}. {follow}"
    keys = ", ".join(list(body)[:8]) if isinstance(body, dict) else type(body).__name__
    return f"{tool.name}: {words['ok']} (HTTP {status}{cost}). {words['fields']}: {keys}."


#: A result as it goes on the wire (camelCase keys, no None): the SDK's runner takes a handler's
#: dict as is where it would first dump a model (mcp/server/runner.py ``_dump_result``), so the
#: big answers (tools/list, a chart's structuredContent) skip a pydantic validation and a dump.
Wire = dict[str, Any]


def _wire(result: types.CallToolResult | types.ListToolsResult) -> Wire:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


def _error_result(status: int, body: Any) -> types.CallToolResult:
    error = body if isinstance(body, dict) else {}
    slug = str(error.get("error") or f"http_{status}")
    message = str(error.get("message") or "the request failed")
    structured = {"status": status, "error": slug, "message": message}
    if error.get("details"):
        structured["details"] = error["details"]
    return types.CallToolResult(
        content=[types.TextContent(text=f"{slug} ({status}): {message}")],
        structured_content=structured,
        is_error=True,
    )


class McpEdge:
    """The MCP server of one Quart application (module docstring)."""

    def __init__(self, app: Quart) -> None:
        self.app = app
        self._tools: dict[str, ToolSpec] | None = None
        self._listing: Wire | None = None
        self._client: Any = None
        self.warming: asyncio.Task[None] | None = None
        self._document: dict[str, Any] | None = None
        self._openapi_text: str | None = None
        self._lock = asyncio.Lock()
        self.server: Server[Any] = Server(
            "astro",
            instructions=(
                "Astrology calculations (Western, Vedic, Thai, Chinese, Korean, Uranian), "
                "pictures, horoscopes and reports. Send your API key as X-API-Key. Every tool's "
                "description states its credit price and tier; docs_search works without a key."
            ),
            # Both answer the wire form (:data:`Wire`), which the runner accepts as well.
            on_list_tools=cast(Any, self._list_tools),
            on_call_tool=cast(Any, self._call_tool),
            on_list_resources=self._list_resources,
            on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
        )
        # In stateless mode the transport logs "Terminating session: None" at INFO after every
        # request: a log line per call that says nothing (and cost CPU in the benchmark).
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
        self.manager = StreamableHTTPSessionManager(
            app=self.server, json_response=True, stateless=True
        )

    # --- the REST twin -----------------------------------------------------------------

    async def rest(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        *,
        json_body: Any = None,
        query: dict[str, Any] | None = None,
        client: tuple[str, int] = ("127.0.0.1", 0),
        scheme: str = "http",
    ) -> tuple[int, Any, dict[str, str], str, bytes]:
        """One in-process request: status, parsed JSON (or None), headers, type, raw bytes."""
        kwargs: dict[str, Any] = {}
        if json_body is not None:
            kwargs["json"] = json_body
        if self._client is None:
            # One client for every call (it keeps no state without cookies): building one per
            # call showed in the profile.
            self._client = self.app.test_client(use_cookies=False)
        test_client = self._client
        response = await test_client.open(
            path,
            method=method,
            headers={"Accept": "application/json", **headers},
            query_string={k: v for k, v in (query or {}).items() if v is not None},
            scope_base={"client": client},
            scheme=scheme,
            **kwargs,
        )
        raw = await response.get_data(as_text=False)
        mimetype = response.mimetype or ""
        parsed = json.loads(raw) if raw and mimetype.endswith("json") else None
        # Header names lower-cased: the credit headers are read by name below.
        headers_out = {k.lower(): v for k, v in response.headers.items()}
        return response.status_code, parsed, headers_out, mimetype, raw

    async def document(self) -> dict[str, Any]:
        if self._document is None:
            from astro_server.platform.auth.guards import INTERNAL_CLIENT

            # The server's own read: not counted against any client's keyless limit.
            _status, body, *_ = await self.rest(
                "GET", "/openapi.json", {}, client=(INTERNAL_CLIENT, 0)
            )
            self._document = body if isinstance(body, dict) else {}
        return self._document

    async def tools(self) -> dict[str, ToolSpec]:
        async with self._lock:
            if self._tools is None:
                specs = build_tools(
                    await self.document(), prices_by_operation_id(self.app), IMAGE_OPERATIONS
                )
                self._tools = {spec.name: spec for spec in specs}
        return self._tools

    # --- handlers ----------------------------------------------------------------------

    async def warm(self) -> None:
        """Build the tools list now (at startup); a failure is logged and the first tools/list
        tries again."""
        try:
            await self._list_tools(None, None)
        except Exception:
            log.exception("building the MCP tools at startup failed")

    async def _list_tools(self, ctx: Any, params: Any) -> Wire:
        # Built and dumped once: the tools depend only on the OpenAPI document and the price
        # table. (The runner copies the dict before it shapes the answer.)
        if self._listing is None:
            self._listing = _wire(await self._build_listing())
        return self._listing

    async def _build_listing(self) -> types.ListToolsResult:
        tools = [
            types.Tool(
                name=s.name,
                description=s.description,
                input_schema=s.input_schema,
                output_schema=s.output_schema,
            )
            for s in (await self.tools()).values()
        ]
        job = (await self.tools()).get(snake(JOB_OPERATION))
        if job is not None:
            tools.append(
                types.Tool(
                    name=WAIT_JOB_TOOL,
                    description=(
                        f"Wait for a job to finish: {job.name} again and again (in the server, "
                        "no extra calls from you) until the job succeeds, fails or is canceled, "
                        f"or timeout_s passes (default {WAIT_DEFAULT_S:g} s, at most "
                        f"{WAIT_MAX_S:g} s; then the job as it stands, still queued or running: "
                        "call again). A finished report's PDF is the signed URL in "
                        "result.pdf_url. Free: no credits. Example input: "
                        '{"job_id": "job_0123456789abcdef01234567"}'
                    ),
                    input_schema={
                        "type": "object",
                        "properties": {
                            "job_id": job.input_schema["properties"]["job_id"],
                            "timeout_s": {
                                "type": "number",
                                "exclusiveMinimum": 0,
                                "maximum": WAIT_MAX_S,
                                "default": WAIT_DEFAULT_S,
                            },
                        },
                        "required": ["job_id"],
                    },
                    output_schema=job.output_schema,
                )
            )
        tools.append(
            types.Tool(
                name="docs_search",
                description="Search the API documentation (operations by words in their id, "
                "path, summary or description). No key needed. Example input: "
                '{"query": "natal wheel"}',
                input_schema={
                    "type": "object",
                    "properties": {"query": {"type": "string", "description": "Words"}},
                    "required": ["query"],
                },
                output_schema=DOCS_SEARCH_OUTPUT,
            )
        )
        tools.append(
            types.Tool(
                name="docs_operation",
                description="Read one operation of the OpenAPI document (parameters, body and "
                "answer schemas) by operation id or tool name. No key needed. Example input: "
                '{"operation": "western_natal"}',
                input_schema={
                    "type": "object",
                    "properties": {"operation": {"type": "string"}},
                    "required": ["operation"],
                },
                output_schema=DOCS_OPERATION_OUTPUT,
            )
        )
        # The tools are the same for every caller (keyless) and change only with a deploy: a
        # client speaking the 2026-07-28 protocol may reuse the list for ten minutes instead of
        # fetching the 360 kB again (older protocols do not carry the hint).
        return types.ListToolsResult(tools=tools, ttl_ms=TOOLS_LIST_TTL_MS, cache_scope="public")

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> Wire:
        try:
            return await self._call_tool_inner(ctx, params)
        except Exception:
            # The REST call answers its own errors; this is a fault of the MCP edge itself.
            log.exception("MCP tool call %s failed", params.name)
            return _wire(
                _error_result(
                    500, {"error": "internal_server_error", "message": "the tool call failed"}
                )
            )

    async def _call_tool_inner(self, ctx: Any, params: types.CallToolRequestParams) -> Wire:
        arguments = dict(params.arguments or {})
        if params.name in DOCS_TOOLS:
            return _wire(await self._docs_tool(params.name, arguments))
        if params.name == WAIT_JOB_TOOL:
            return await self._wait_job(ctx, arguments)
        tool = (await self.tools()).get(params.name)
        if tool is None:
            return _wire(
                _error_result(404, {"error": "not_found", "message": f"no tool {params.name}"})
            )
        headers, client, scheme = _caller(ctx)
        path = tool.path
        for name in tool.path_params:
            value = str(arguments.pop(name, ""))
            problem = _path_argument_problem(tool, name, value)
            if problem is not None:
                return _wire(_error_result(400, problem))
            # Percent-encoded: a '?', '/' or '#' in an id stays part of the id (and is then
            # refused by the route's own lookup), never a query or another path.
            path = path.replace("{" + name + "}", quote(value, safe=""))
        query = {name: arguments.pop(name) for name in tool.query_params if name in arguments}
        svg_too = tool.image and arguments.get("format", "svg") != "png"
        if tool.image and svg_too:
            arguments["format"] = "svg"
        language = str(arguments.get("language") or query.get("language") or "en")
        status, body, resp_headers, mimetype, raw = await self.rest(
            tool.method,
            path,
            headers,
            json_body=arguments if tool.has_body else None,
            query=query,
            client=client,
            scheme=scheme,
        )
        if status >= 400:
            return _wire(_error_result(status, body))
        credits = {
            k.replace("-", "_"): int(resp_headers[k])
            for k in ("x-credits-charged", "x-credits-remaining", "x-credits-price")
            if k in resp_headers
        }
        if tool.image:
            if mimetype == "image/png":
                png = raw
                content: list[Any] = []
            else:
                svg = raw.decode("utf-8")
                # The route's own PNG rendering (features/common/pictures.py), off the loop.
                png = await asyncio.to_thread(svg_to_png, svg, int(arguments.get("size_px", 800)))
                content = [types.TextContent(text=svg)]
            summary = f"{tool.name}: picture ({len(png)} bytes PNG)" + (
                f"; {credits.get('x_credits_charged')} credits charged" if credits else ""
            )
            return _wire(
                types.CallToolResult(
                    content=[
                        types.TextContent(text=summary),
                        types.ImageContent(
                            data=base64.b64encode(png).decode(), mime_type="image/png"
                        ),
                        *content,
                    ],
                    structured_content={"media_type": "image/png", "bytes": len(png), **credits},
                )
            )
        # The answer as REST sends it (the tool's output schema is the answer's schema), built in
        # its wire form: the JSON just parsed needs no validation.
        structured = body if isinstance(body, dict) else {"status": status}
        summary = _summary(tool, status, body, resp_headers, language)
        return {
            "content": [{"type": "text", "text": summary}],
            "structuredContent": structured,
            "isError": False,
        }

    async def _wait_job(self, ctx: Any, arguments: dict[str, Any]) -> Wire:
        """``wait_job``: the job tool's call, repeated until the job ends or the time is up."""
        try:
            timeout = min(float(arguments.get("timeout_s", WAIT_DEFAULT_S)), WAIT_MAX_S)
        except (TypeError, ValueError):
            timeout = -1.0
        if not timeout > 0:
            message = f"timeout_s: 0 < timeout_s <= {WAIT_MAX_S:g}"
            return _wire(_error_result(400, {"error": "validation_error", "message": message}))
        job_id = str(arguments.get("job_id", ""))
        deadline = asyncio.get_running_loop().time() + timeout
        call = types.CallToolRequestParams(name=snake(JOB_OPERATION), arguments={"job_id": job_id})
        step = 0
        while True:
            result = await self._call_tool_inner(ctx, call)
            job = result.get("structuredContent") or {}
            left = deadline - asyncio.get_running_loop().time()
            if result.get("isError") or job.get("status") in _JOB_ENDED or left <= 0:
                return result
            await asyncio.sleep(min(_WAIT_STEPS[min(step, len(_WAIT_STEPS) - 1)], left))
            step += 1

    async def _docs_tool(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        document = await self.document()
        if name == "docs_search":
            hits = search_operations(document, str(arguments.get("query", "")))
            lines = [f"{h['method']} {h['path']} ({h['tool'] or 'no tool'}): {h['summary']}"
                     for h in hits]  # fmt: skip
            return types.CallToolResult(
                content=[types.TextContent(text="\n".join(lines) or "no operation matches")],
                structured_content={"operations": hits},
            )
        wanted = str(arguments.get("operation", ""))
        for path, item in document.get("paths", {}).items():
            for method, operation in item.items():
                op_id = str(operation.get("operationId", ""))
                if wanted in (op_id, snake(op_id)):
                    tool = (await self.tools()).get(snake(op_id))
                    found = {
                        "method": method.upper(),
                        "path": path,
                        "operation": operation,
                        "tool": tool.name if tool else None,
                        "input_schema": tool.input_schema if tool else None,
                        "output_schema": tool.output_schema if tool else None,
                    }
                    return types.CallToolResult(
                        content=[types.TextContent(text=tool.description if tool else op_id)],
                        structured_content=found,
                    )
        return _error_result(404, {"error": "not_found", "message": f"no operation {wanted}"})

    _STATIC_RESOURCES: Final = {
        "astro://prices": ("Price table", "Every billable operation: tier, credits"),
        "astro://openapi": ("OpenAPI document", "The API's OpenAPI 3 document"),
        "astro://llms.txt": ("llms.txt", "How an agent uses this API"),
        "astro://signs": ("Signs", "The twelve signs in order from 0 degrees, English and Thai"),
    }
    _API_RESOURCES: Final = {
        "astro://tarot/cards": ("/api/v3/tarot/cards", "The tarot deck (needs a key)"),
        "astro://cultural/markets": ("/api/v3/cultural/markets", "Markets (needs a key)"),
    }

    async def _list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        resources = [
            types.Resource(uri=uri, name=name, description=text, mime_type="application/json")
            for uri, (name, text) in self._STATIC_RESOURCES.items()
        ] + [
            types.Resource(uri=uri, name=uri.removeprefix("astro://"), description=text,
                           mime_type="application/json")
            for uri, (_path, text) in self._API_RESOURCES.items()
        ] + [
            types.Resource(uri=f"astro://glossary/{category}", name=f"glossary: {category}",
                           description=f"The {category} terms in English and Thai (the glossary)",
                           mime_type="application/json")
            for category in glossary.categories()
        ]  # fmt: skip
        return types.ListResourcesResult(resources=resources)

    async def _read_resource(
        self, ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "astro://prices":
            text = json.dumps(
                {name: {"tier": op.tier, "credits": op.credits, "per_unit": op.per_unit,
                        "description": op.description} for name, op in OPERATIONS.items()}
            )  # fmt: skip
        elif uri == "astro://openapi":
            if self._openapi_text is None:  # the same for every reader until a deploy
                self._openapi_text = json.dumps(await self.document())
            text = str(self._openapi_text)
        elif uri == "astro://llms.txt":
            text = LLMS_TXT.read_text(encoding="utf-8")
        elif uri == "astro://signs":
            names = glossary.terms("sign")
            text = json.dumps(
                [{"sign": sign, "en": names[sign].en, "th": names[sign].th} for sign in SIGNS],
                ensure_ascii=False,
            )
        elif (
            uri.startswith("astro://glossary/")
            and (category := uri.removeprefix("astro://glossary/")) in glossary.categories()
        ):
            text = json.dumps(
                {key: {"en": t.en, "th": t.th} for key, t in glossary.terms(category).items()},
                ensure_ascii=False,
            )
        elif uri in self._API_RESOURCES:
            headers, client, scheme = _caller(ctx)
            status, body, *_ = await self.rest(
                "GET", self._API_RESOURCES[uri][0], headers, client=client, scheme=scheme
            )
            text = json.dumps(body)
            if status >= 400:
                raise ValueError(f"{status}: {text}")
        else:
            raise ValueError(f"unknown resource {uri}")
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, text=text, mime_type="application/json")]
        )

    _PROMPTS: Final = {
        "read_my_natal_chart": (
            "Read a natal chart: compute it, draw the wheel, then explain it.",
            ["date", "time", "latitude", "longitude"],
            "Call western_natal with subject {{date: {date}, time: {time}, latitude: {latitude}, "
            "longitude: {longitude}}} and interpretations 'summary' if my tier allows it (check "
            "the price in the tool description first), then western_natal_wheel with the same "
            "subject, and explain the Sun, Moon and Ascendant in plain words.",
        ),
        "auspicious_launch_thailand": (
            "Pick an auspicious date for a launch in Thailand.",
            ["start", "end"],
            "Call thai_auspicious_times for the range {start} to {end}, then thai_calendar for "
            "the best two days, and recommend one date and hour with the reasons.",
        ),
        "compare_two_people": (
            "Compare two people: synastry and Vedic matching.",
            ["person_a", "person_b"],
            "Person A: {person_a}. Person B: {person_b} (date, time, latitude, longitude each). "
            "Call western_synastry and vedic_kundli_matching for the pair and summarise the "
            "strongest harmonies and tensions.",
        ),
    }

    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=name,
                    description=description,
                    arguments=[types.PromptArgument(name=a, required=True) for a in args],
                )
                for name, (description, args, _template) in self._PROMPTS.items()
            ]
        )

    async def _get_prompt(
        self, ctx: Any, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        description, args, template = self._PROMPTS[params.name]
        values = {a: (params.arguments or {}).get(a, f"<{a}>") for a in args}
        return types.GetPromptResult(
            description=description,
            messages=[
                types.PromptMessage(
                    role="user", content=types.TextContent(text=template.format(**values))
                )
            ],
        )


def _path_argument_problem(tool: ToolSpec, name: str, value: str) -> dict[str, Any] | None:
    """REST's validation error for a path argument that is empty or does not match the
    operation's pattern (checked before the call, as the route would)."""
    schema = tool.input_schema.get("properties", {}).get(name, {})
    pattern = schema.get("pattern") if isinstance(schema, dict) else None
    if value and (not pattern or re.search(str(pattern), value) is not None):
        return None
    message = f"must match {pattern}" if value and pattern else "is required"
    return {
        "error": "validation_error",
        "message": f"{name} {message}",
        "details": [{"field": name, "message": message}],
    }


def _caller(ctx: Any) -> tuple[dict[str, str], tuple[str, int], str]:
    """The MCP HTTP request's forwarded headers (:data:`_FORWARDED`), client address and scheme."""
    request = getattr(ctx, "request", None)
    headers: dict[str, str] = {}
    client = ("127.0.0.1", 0)
    scheme = "http"
    if request is not None:
        for name in _FORWARDED:
            value = request.headers.get(name)
            if value is not None:
                headers[name] = value
        if request.client is not None:
            client = (request.client.host, 0)
        scheme = request.url.scheme
    return headers, client, scheme


async def _send_json(
    send: Any, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *((k.lower().encode(), v.encode()) for k, v in (headers or {}).items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def _client_address(app: Quart, scope: Scope) -> str:
    """The client's address as REST sees it: through a trusted proxy's forwarding headers when
    the app has ``ASTRO_TRUSTED_PROXIES`` (the same middleware, platform/proxy.py)."""
    from astro_server.platform.proxy import TrustedProxyMiddleware

    middleware = app.asgi_app
    if isinstance(middleware, TrustedProxyMiddleware):
        peer = scope.get("client")
        if peer and middleware.is_trusted(_peer_address(str(peer[0]))):
            scope = middleware._rewritten(dict(scope))
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _peer_address(value: str) -> Any:
    from astro_server.platform.proxy import _address

    return _address(value)


def _credential(scope: Scope) -> str:
    """The API key an MCP request carries (X-API-Key, else a bearer token), or ''."""
    headers: dict[bytes, bytes] = {bytes(k).lower(): bytes(v) for k, v in scope.get("headers", ())}
    key = headers.get(b"x-api-key", b"").decode("latin-1").strip()
    if key:
        return key
    scheme, _, value = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


async def _bounded_body(receive: Any, limit: int) -> bytes | None:
    """The request body, or None once it passes ``limit`` bytes (REST's body limit)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Any) -> Any:
    sent = False

    async def replayed() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _guard_mcp(app: Quart, scope: Scope, receive: Any, send: Any) -> Any | None:
    """The edge's own limits, before the MCP server sees the request: REST's body limit (413),
    and the keyless limit per client address (429 with ``Retry-After``; issue 50) for a request
    without a valid API key (tools/list, resources/read, the docs tools ... are keyless). A
    keyed request is limited by its key's REST calls. Returns the ``receive`` to hand on, or
    None when it has answered."""
    from astro_server.platform.auth import guards
    from astro_server.platform.runtime import platform

    limit = platform().settings.max_body_bytes
    declared = dict(scope.get("headers", ())).get(b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        await _send_json(send, 413, _too_large(limit))
        return None
    if not await guards.holds_valid_api_key(_credential(scope)):
        decision = await guards.limit_keyless_address(_client_address(app, scope))
        if not decision.allowed:
            error = decision.error()
            await _send_json(send, 429, error.body(None), error.headers)
            return None
    if scope.get("method") != "POST":
        return receive
    body = await _bounded_body(receive, limit)
    if body is None:
        await _send_json(send, 413, _too_large(limit))
        return None
    return _replay(body, receive)


def _too_large(limit: int) -> dict[str, Any]:
    from astro_server.platform.errors import APIError

    return APIError(413, f"Request body too large (the limit is {limit} bytes).").body(None)


def with_mcp(app: Quart) -> ASGIApp:
    """One ASGI application: ``/mcp`` to the MCP server, ``/llms.txt``, the rest to ``app``.
    The lifespan runs the MCP session manager around the Quart application's own."""
    edge = McpEdge(app)
    llms = LLMS_TXT.read_bytes()

    async def asgi(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":

            async def started(message: Any) -> None:
                await send(message)
                if message.get("type") == "lifespan.startup.complete":
                    # Build the tools once the app is up, not on the first agent's tools/list
                    # (the OpenAPI document and 73 tools: seconds on a busy machine).
                    edge.warming = asyncio.create_task(edge.warm())

            async with edge.manager.run():
                await app(scope, receive, started)  # type: ignore[arg-type]
            if edge.warming is not None and not edge.warming.done():
                edge.warming.cancel()
            return
        path = scope.get("path", "")
        if scope["type"] == "http" and (path == MCP_PATH or path.startswith(MCP_PATH + "/")):
            async with app.app_context():  # the platform (settings, limiter, key lookups)
                guarded = await _guard_mcp(app, scope, receive, send)
            if guarded is not None:
                await edge.manager.handle_request(scope, guarded, send)
            return
        if (
            scope["type"] == "http"
            and path == "/llms.txt"
            and scope.get("method") in ("GET", "HEAD")
        ):
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(llms)).encode()),
                    ],
                }
            )
            await send(
                {"type": "http.response.body", "body": llms if scope["method"] == "GET" else b""}
            )
            return
        await app(scope, receive, send)  # type: ignore[arg-type]

    asgi.edge = edge  # type: ignore[attr-defined]
    return asgi
