"""The hosted MCP server through the official MCP client, against the app served by hypercorn on
a loopback port (SQLite, embedded): tools from the OpenAPI document, the same answers, debits
and errors as REST."""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from _platform_support import new_account, settings_for
from hypercorn.asyncio import serve
from hypercorn.config import Config
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from PIL import Image

from astro_server.app import TAG_GROUPS, create_app
from astro_server.features.common.pictures import IMAGE_OPERATIONS
from astro_server.features.reports.render.renderer import missing_components
from astro_server.platform import db
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.platform.mcp import server as mcp_server
from astro_server.platform.mcp.tools import EXCLUDED, api_key_operations, snake

NATAL = {"subject": {"date": "1990-04-15", "time": "08:30", "latitude": 13.7563,
                     "longitude": 100.5018, "timezone": "Asia/Bangkok"}}  # fmt: skip


@dataclass
class Live:
    base: str
    edge: mcp_server.McpEdge


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Live]:
    settings = settings_for(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path)
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    asgi = mcp_server.with_mcp(app)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None
    stop = asyncio.Event()
    task = asyncio.create_task(serve(asgi, config, shutdown_trigger=stop.wait))  # type: ignore[arg-type]
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient() as client:
        for _ in range(200):
            try:
                if (await client.get(base + "/healthz")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    yield Live(base, asgi.edge)  # type: ignore[attr-defined]
    stop.set()
    await task


@asynccontextmanager
async def mcp_session(base: str, headers: dict[str, str]) -> AsyncIterator[ClientSession]:
    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(base + "/mcp", http_client=http) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def _credits(account_id: str) -> int:
    rows = await db.fetch("SELECT credits FROM accounts WHERE id = ?", [account_id])
    return int(rows[0]["credits"])


async def _ledger_rows(account_id: str) -> int:
    rows = await db.fetch(
        "SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = ?", [account_id]
    )
    return int(rows[0]["n"])


def test_image_operations_agree_with_the_picture_routes() -> None:
    assert mcp_server.IMAGE_OPERATIONS == IMAGE_OPERATIONS


async def test_tools_cover_every_public_operation_and_tag_group(live: Live) -> None:
    # The listing was built at startup (lifespan), before any tools/list.
    assert live.edge.warming is not None
    await asyncio.wait_for(asyncio.shield(live.edge.warming), 120)
    assert live.edge._listing is not None
    document = await live.edge.document()
    async with mcp_session(live.base, {}) as session:
        listed = (await session.list_tools()).tools
    names = {tool.name for tool in listed}
    for _method, _path, operation in api_key_operations(document):
        op_id = operation["operationId"]
        assert snake(op_id) in names or op_id in EXCLUDED, f"{op_id} has no tool"
    assert not set(EXCLUDED) - {op["operationId"] for *_, op in api_key_operations(document)}
    api_tags = {op["tags"][0] for *_, op in api_key_operations(document)}
    tool_tags = {t.tag for t in (await live.edge.tools()).values()}
    assert api_tags == tool_tags
    assert api_tags >= {g["name"] for g in TAG_GROUPS} - {
        "Customer reports", "Customer delivery", "Customer visual readings", "Customer team",
        "Authentication",
    }  # fmt: skip
    natal = next(t for t in listed if t.name == "western_natal")
    assert "Costs 1 credit; free tier" in (natal.description or "")
    assert natal.input_schema["required"] == ["subject"]
    assert "$defs" in natal.input_schema
    assert "WesternSubject" in natal.input_schema["$defs"]
    assert {"docs_search", "docs_operation"} <= names


async def test_natal_tool_equals_rest_and_debits_the_same(live: Live) -> None:
    account_id, key = await new_account("free", 10)
    async with httpx.AsyncClient(base_url=live.base) as client:
        rest = await client.post("/api/v3/western/natal", json=NATAL, headers={"X-API-Key": key})
    assert rest.status_code == 200
    assert await _credits(account_id) == 9
    rows_before = await _ledger_rows(account_id)
    async with mcp_session(live.base, {"Authorization": f"Bearer {key}"}) as session:
        result = await session.call_tool("western_natal", NATAL)
    assert not result.is_error
    expected = rest.json()
    got = result.structured_content
    assert got is not None
    # The chart is the same field for field; only the per-request metadata may differ.
    for field in expected:
        if field not in ("meta", "request_id"):
            assert got[field] == expected[field], field
    assert await _credits(account_id) == 8
    assert await _ledger_rows(account_id) == rows_before + 1
    assert "1 credits charged" in result.content[0].text  # type: ignore[union-attr]


async def test_example_input_of_the_natal_tool_is_accepted(live: Live) -> None:
    _account_id, key = await new_account("free", 10)
    example = (await live.edge.tools())["western_natal"].example
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        result = await session.call_tool("western_natal", example)
    assert not result.is_error, result.content


async def test_wheel_tool_returns_a_png_that_decodes_and_the_svg(live: Live) -> None:
    _account_id, key = await new_account("free", 10)
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        result = await session.call_tool("western_natal_wheel", {**NATAL, "size_px": 400})
    assert not result.is_error, result.content
    images = [c for c in result.content if c.type == "image"]
    assert len(images) == 1
    assert images[0].mime_type == "image/png"
    import io

    picture = Image.open(io.BytesIO(base64.b64decode(images[0].data)))
    assert picture.format == "PNG"
    assert picture.size == (400, 400)
    texts = [c.text for c in result.content if c.type == "text"]
    assert any(t.lstrip().startswith("<svg") or "<svg" in t[:200] for t in texts)


async def test_test_key_debits_nothing(live: Live) -> None:
    account_id, _live_key = await new_account("free", 5)
    test_key = await accounts.create_api_key(account_id, "test")
    async with mcp_session(live.base, {"X-API-Key": test_key}) as session:
        result = await session.call_tool("western_natal", NATAL)
    assert not result.is_error
    assert await _credits(account_id) == 5


async def test_errors_are_tool_errors_with_the_slug_and_message(live: Live) -> None:
    account_id, key = await new_account("free", 0)
    scoped = await accounts.create_api_key(account_id, scopes_wanted=frozenset({"vedic"}))
    async with mcp_session(live.base, {}) as session:
        no_key = await session.call_tool("western_natal", NATAL)
        docs = await session.call_tool("docs_search", {"query": "natal wheel"})
    assert no_key.is_error
    assert no_key.structured_content["status"] == 401
    assert "Traceback" not in json.dumps(no_key.model_dump(mode="json"))
    assert not docs.is_error
    assert any(h["tool"] == "western_natal_wheel"
               for h in docs.structured_content["operations"])  # type: ignore[index]  # fmt: skip
    async with mcp_session(live.base, {"X-API-Key": scoped}) as session:
        outside = await session.call_tool("western_natal", NATAL)
    assert outside.is_error
    assert outside.structured_content["status"] == 403
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        broke = await session.call_tool("western_natal", NATAL)
    assert broke.is_error
    payload: Any = broke.structured_content
    assert payload["status"] == 402
    assert payload["error"] == "payment_required"
    assert payload["message"] in broke.content[0].text  # type: ignore[union-attr]


async def test_llms_txt_and_resources(live: Live) -> None:
    async with httpx.AsyncClient(base_url=live.base) as client:
        llms = await client.get("/llms.txt")
    assert llms.status_code == 200
    assert "/mcp" in llms.text
    async with mcp_session(live.base, {}) as session:
        prices = await session.read_resource("astro://prices")
        prompts = (await session.list_prompts()).prompts
        signs = await session.read_resource("astro://signs")
        nakshatras = await session.read_resource("astro://glossary/nakshatra")
        uris = {str(r.uri) for r in (await session.list_resources()).resources}
    assert {"astro://tarot/cards", "astro://glossary/house"} <= uris
    sign_rows = json.loads(signs.contents[0].text)  # type: ignore[union-attr]
    assert [row["sign"] for row in sign_rows][:2] == ["aries", "taurus"]
    assert sign_rows[0]["th"] == "เมษ"
    assert len(json.loads(nakshatras.contents[0].text)) >= 27  # type: ignore[union-attr]
    table = json.loads(prices.contents[0].text)  # type: ignore[union-attr]
    assert table["western.natal"] == {"tier": "free", "credits": 1, "per_unit": None,
                                      "description": "Western natal chart"}  # fmt: skip
    assert len(prompts) == 3


async def test_stdio_entry_point_forwards_to_the_hosted_server(live: Live) -> None:
    import os
    import sys

    from mcp.client.stdio import StdioServerParameters, stdio_client

    _account_id, key = await new_account("free", 10)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "astro_sdk.mcp_stdio"],
        env={**os.environ, "ASTRO_API_KEY": key, "ASTRO_BASE_URL": live.base},
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        names = {tool.name for tool in (await session.list_tools()).tools}
        result = await session.call_tool("western_natal", NATAL)
    assert "western_natal_wheel" in names
    assert not result.is_error
    assert result.structured_content is not None
    assert "planets" in result.structured_content


async def test_a_session_token_is_refused(live: Live) -> None:
    account_id, _key = await new_account("free", 10)
    await accounts.create_customer(account_id, "agent@example.com", "a long password 123")
    async with httpx.AsyncClient(base_url=live.base) as client:
        signed_in = await client.post(
            "/auth/login", json={"email": "agent@example.com", "password": "a long password 123"}
        )
    token = signed_in.json()["token"]
    async with mcp_session(live.base, {"Authorization": f"Bearer {token}"}) as session:
        result = await session.call_tool("western_natal", NATAL)
    assert result.is_error
    assert result.structured_content is not None
    assert result.structured_content["status"] == 401
    assert await _credits(account_id) == 10


async def test_a_long_running_tool_answers_a_job_that_get_job_follows(live: Live) -> None:
    _account_id, key = await new_account("starter", 100)
    tool = (await live.edge.tools())["vedic_kundli_matching_batch"]
    assert "get_job" in tool.description
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        queued = await session.call_tool("vedic_kundli_matching_batch", tool.example)
        assert not queued.is_error, queued.content
        handle: Any = queued.structured_content
        job_id = handle.get("job_id") or handle.get("id")
        assert str(job_id).startswith("job_")
        for _ in range(200):
            followed = await session.call_tool("get_job", {"job_id": job_id})
            assert not followed.is_error, followed.content
            job: Any = followed.structured_content
            if job["status"] not in ("queued", "running"):
                break
            await asyncio.sleep(0.1)
    assert job["status"] == "succeeded", job


async def test_tool_schemas_follow_the_document_and_examples_fit_them(live: Live) -> None:
    import jsonschema

    document = await live.edge.document()
    components = document["components"]["schemas"]
    for tool in (await live.edge.tools()).values():
        operation = document["paths"][tool.path][tool.method.lower()]
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            schema = body["schema"]
            if "$ref" in schema:
                schema = components[schema["$ref"].rsplit("/", 1)[1]]
            # No drift: every body field and every required one is the tool's too.
            assert set(schema.get("properties", {})) <= set(tool.input_schema["properties"])
            assert set(schema.get("required", [])) <= set(tool.input_schema.get("required", []))
        for parameter in operation.get("parameters", ()):
            assert parameter["name"] in tool.input_schema["properties"], (tool.name, parameter)
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        # The example in the description is valid input for the tool's own schema.
        jsonschema.validate(tool.example, tool.input_schema)
        assert json.dumps(tool.example, ensure_ascii=False) in tool.description


async def test_summary_in_thai_when_asked(live: Live) -> None:
    _account_id, key = await new_account("free", 10)
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        result = await session.call_tool("western_natal", {**NATAL, "language": "th"})
    assert not result.is_error
    assert "หัก 1 เครดิต" in result.content[0].text  # type: ignore[union-attr]


async def test_the_served_entry_point_answers_mcp(tmp_path: Path) -> None:
    """``astro-server serve`` (hypercorn on ``astro_server.asgi:app``, embedded mode) has /mcp."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update({"ASTRO_DATA_DIR": str(tmp_path / "var"), "ASTRO_SECRET_KEY": "s" * 48})
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cli = [sys.executable, "-m", "astro_server.cli"]
    proc = await asyncio.create_subprocess_exec(
        *cli, "serve", "--host", "127.0.0.1", "--port", str(port),
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(600):
                try:
                    if (await client.get(base + "/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            assert (await client.get(base + "/llms.txt")).status_code == 200
        async with mcp_session(base, {}) as session:
            names = {tool.name for tool in (await session.list_tools()).tools}
            no_key = await session.call_tool("western_natal", NATAL)
        assert "western_natal" in names
        assert no_key.is_error
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 20)


async def test_every_tool_has_an_output_schema_and_real_answers_validate(live: Live) -> None:
    """Each tool's output schema is its REST twin's success answer (or the picture/docs schema);
    every tool whose example input succeeds answers structuredContent that validates. (The
    official client validates too, raising on a mismatch; this checks it on our side.)"""
    import jsonschema

    document = await live.edge.document()
    components = document["components"]["schemas"]
    account_id, _live_key = await new_account("enterprise", 0)
    test_key = await accounts.create_api_key(account_id, "test")  # every tier, never charged
    async with mcp_session(live.base, {"X-API-Key": test_key}) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        specs = await live.edge.tools()
        validated: list[str] = []
        for name, tool in listed.items():
            schema = tool.output_schema
            assert schema is not None, f"{name} has no output schema"
            assert schema["type"] == "object", name
            jsonschema.Draft202012Validator.check_schema(schema)
            spec = specs.get(name)
            if spec is not None and not spec.image:
                # The schema is the document's answer schema, not one of our own.
                operation = document["paths"][spec.path][spec.method.lower()]
                answers = [
                    operation["responses"][s]["content"]["application/json"]["schema"]
                    for s in ("200", "201", "202")
                    if s in operation["responses"]
                ]
                answers = [components[a["$ref"].rsplit("/", 1)[1]] if "$ref" in a else a
                           for a in answers]  # fmt: skip
                if len(answers) == 1:
                    assert set(schema["properties"]) == set(answers[0]["properties"]), name
                    assert schema.get("required") == answers[0].get("required"), name
                else:
                    assert len(schema["anyOf"]) == len(answers), name
            if spec is None or name in ("wait_job",):
                continue
            result = await session.call_tool(name, spec.example)
            if not result.is_error:
                jsonschema.validate(result.structured_content, schema)
                validated.append(name)

        # A broken answer is caught: the natal answer without a required field.
        natal = await session.call_tool("western_natal", NATAL)
        broken = dict(natal.structured_content or {})
        broken.pop("planets")
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, listed["western_natal"].output_schema)
    # Most example inputs run as they are; the rest name ids of things this account lacks (404)
    # or a webhook URL that does not resolve.
    assert {
        "western_natal",
        "western_natal_wheel",
        "vedic_chart",
        "thai_calendar",
        "chinese_calendar",
        "western_transits",
        "western_returns",
        "get_tarot_card",
        "create_estimate",
        "chinese_bazi",
        "uranian_chart",
        "get_account",
    } <= set(validated)
    assert len(validated) >= 50, sorted(set(specs) - set(validated))  # fmt: skip


@pytest.mark.skipif(
    shutil.which("pdftotext") is None or bool(missing_components()),
    reason="needs poppler-utils, playwright and Chromium",
)
async def test_a_pdf_report_tool_answers_a_job_that_wait_job_follows_to_the_pdf(
    live: Live, tmp_path: Path
) -> None:
    account_id, key = await new_account("pro", 100)
    subject = NATAL["subject"]
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert "get_job" in (listed["reports_natal_pdf"].description or "")
        queued = await session.call_tool(
            "reports_natal_pdf",
            {"birth_subject": subject, "name": "Somchai Jaidee", "async": True},
        )
        assert not queued.is_error, queued.content
        handle: Any = queued.structured_content
        assert handle["status"] == "queued"
        assert handle["job_id"].startswith("job_")
        assert handle["poll"] == f"/api/v3/jobs/{handle['job_id']}"
        done = await session.call_tool("wait_job", {"job_id": handle["job_id"], "timeout_s": 60})
        assert not done.is_error, done.content
        job: Any = done.structured_content
        assert job["status"] == "succeeded", job
        # get_job answers the same finished job.
        again: Any = await session.call_tool("get_job", {"job_id": handle["job_id"]})
        assert again.structured_content["result"] == job["result"]
    assert job["credits_charged"] == 10
    assert await _credits(account_id) == 90
    url = job["result"]["pdf_url"]
    # The signed URL points at the server the MCP request went to (its Host), not elsewhere.
    assert url.startswith(live.base + "/files/")
    async with httpx.AsyncClient() as client:
        fetched = await client.get(url)
    assert fetched.status_code == 200
    assert fetched.headers["content-type"] == "application/pdf"
    assert fetched.content.startswith(b"%PDF-")
    path = tmp_path / "report.pdf"
    path.write_bytes(fetched.content)
    pdftotext = ["pdftotext", "-enc", "UTF-8", str(path), "-"]
    ran = await asyncio.to_thread(subprocess.run, pdftotext, capture_output=True, text=True)
    text = ran.stdout
    assert "Somchai Jaidee" in text


async def test_wait_job_gives_up_at_its_timeout_and_refuses_a_bad_one(live: Live) -> None:
    _account_id, key = await new_account("free", 10)
    async with mcp_session(live.base, {"X-API-Key": key}) as session:
        missing = await session.call_tool("wait_job", {"job_id": "job_0123456789abcdef01234567"})
        bad = await session.call_tool(
            "wait_job", {"job_id": "job_0123456789abcdef01234567", "timeout_s": 0}
        )
    assert missing.is_error
    assert missing.structured_content is not None
    assert missing.structured_content["status"] == 404
    assert bad.is_error


async def test_tools_list_carries_a_public_cache_hint_on_the_2026_protocol(live: Live) -> None:
    version = "2026-07-28"
    meta = {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    }
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": version,
               "Mcp-Method": "tools/list"}  # fmt: skip
    async with httpx.AsyncClient(base_url=live.base) as client:
        listed = await client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}},
            headers=headers,
        )
    assert listed.status_code == 200, listed.text
    result = listed.json()["result"]
    assert (result["ttlMs"], result["cacheScope"]) == (mcp_server.TOOLS_LIST_TTL_MS, "public")
    assert len(result["tools"]) > 70
