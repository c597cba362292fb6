"""The hosted MCP server on the production stack: ``astro-server serve`` (hypercorn) on
PostgreSQL and Redis, with a separate ``astro-server worker`` process running the jobs, through
the official MCP client (Streamable HTTP): the tools are listed, a natal tool call answers what
REST answers and debits the same credits with one ledger row, and the long-running tools' jobs
(batch matching, a PDF report) are run by the worker and followed with ``wait_job`` to their
results, the report's signed URL serving the PDF.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

NATAL = {"subject": {"date": "1990-04-15", "time": "08:30", "latitude": 13.7563,
                     "longitude": 100.5018, "timezone": "Asia/Bangkok"}}  # fmt: skip


@pytest.fixture(scope="module")
def mcp_stack(module_stack: Stack) -> tuple[Stack, ServerProcess]:
    """API and one worker process on the module's PostgreSQL and Redis (stopped with it)."""
    api = module_stack.server()
    module_stack.worker()
    return module_stack, api


@asynccontextmanager
async def mcp_session(base: str, key: str) -> AsyncIterator[ClientSession]:
    async with (
        create_mcp_http_client(headers={"X-API-Key": key}) as http,
        streamable_http_client(base + "/mcp", http_client=http) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def _sql(stack: Stack, query: str, *args: object) -> list[dict[str, object]]:
    # Stack.sql runs its own event loop: off this test's loop.
    return await asyncio.to_thread(stack.sql, query, *args)


async def _ledger(stack: Stack, account_id: str) -> list[dict[str, Any]]:
    return await _sql(
        stack,
        "SELECT kind, operation, amount FROM ledger_entries WHERE account_id = $1 ORDER BY id",
        account_id,
    )


async def _account(stack: Stack, tier: str, credits: int) -> dict[str, Any]:
    return await asyncio.to_thread(create_account, stack, tier=tier, credits=credits, name="mcp")


async def test_natal_tool_on_postgres_answers_and_debits_as_rest(
    mcp_stack: tuple[Stack, ServerProcess],
) -> None:
    stack, api = mcp_stack
    account = await _account(stack, "free", 10)
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        rest = await client.post(
            "/api/v3/western/natal", json=NATAL, headers={"X-API-Key": account["api_key"]}
        )
    assert rest.status_code == 200, rest.text
    assert rest.headers["X-Credits-Charged"] == "1"
    before = await _ledger(stack, account["account_id"])
    async with mcp_session(api.base_url, account["api_key"]) as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        result = await session.call_tool("western_natal", NATAL)
    assert {"western_natal", "vedic_chart", "thai_calendar", "chinese_bazi", "uranian_chart",
            "reports_natal_pdf", "get_job", "wait_job"} <= names  # fmt: skip
    assert not result.is_error, result.content
    got: Any = result.structured_content
    expected = rest.json()
    for field in expected:
        if field not in ("meta", "request_id"):
            assert got[field] == expected[field], field
    after = await _ledger(stack, account["account_id"])
    assert len(after) == len(before) + 1
    assert (after[-1]["kind"], after[-1]["operation"]) == ("debit", "western.natal")
    assert after[-1]["amount"] == before[-1]["amount"]  # the same debit as REST's
    credits = await _sql(stack, "SELECT credits FROM accounts WHERE id = $1", account["account_id"])
    assert credits == [{"credits": 8}]


async def test_jobs_run_by_the_worker_are_followed_with_wait_job(
    mcp_stack: tuple[Stack, ServerProcess], tmp_path: Path
) -> None:
    stack, api = mcp_stack
    account = await _account(stack, "pro", 100)
    pdf = shutil.which("pdftotext") is not None and shutil.which("chromium") is not None
    async with mcp_session(api.base_url, account["api_key"]) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        batch_input = json_example(tools["vedic_kundli_matching_batch"].description or "")
        queued = await session.call_tool("vedic_kundli_matching_batch", batch_input)
        assert not queued.is_error, queued.content
        handle: Any = queued.structured_content
        done = await session.call_tool("wait_job", {"job_id": handle["job_id"], "timeout_s": 60})
        job: Any = done.structured_content
        assert job["status"] == "succeeded", job
        assert job["kind"] == "vedic.kundli_matching_batch"
        if pdf:
            report = await session.call_tool(
                "reports_natal_pdf",
                {"birth_subject": NATAL["subject"], "name": "Malee Srisuk", "async": True},
            )
            assert not report.is_error, report.content
            report_handle: Any = report.structured_content
            finished = await session.call_tool(
                "wait_job", {"job_id": report_handle["job_id"], "timeout_s": 60}
            )
            report_job: Any = finished.structured_content
            assert report_job["status"] == "succeeded", report_job
    if not pdf:
        return
    # The worker process rendered the report, not the API process.
    assert "Chromium launched" in stack.processes[1].log()
    assert "Chromium launched" not in api.log()
    url = report_job["result"]["pdf_url"]
    assert url.startswith(api.base_url + "/files/")
    async with httpx.AsyncClient(timeout=30) as client:
        fetched = await client.get(url)
    assert fetched.status_code == 200
    assert fetched.content.startswith(b"%PDF-")
    path = tmp_path / "report.pdf"
    path.write_bytes(fetched.content)
    pdftotext = ["pdftotext", "-enc", "UTF-8", str(path), "-"]
    ran = await asyncio.to_thread(subprocess.run, pdftotext, capture_output=True, text=True)
    text = ran.stdout
    assert "Malee Srisuk" in text


def json_example(description: str) -> dict[str, Any]:
    """The example input a tool's description ends with (what an agent would copy)."""
    import json

    return dict(json.loads(description.rsplit("Example input: ", 1)[1]))
