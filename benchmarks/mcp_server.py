"""The hosted MCP server: a tool call's overhead over its REST call (p50) and ``tools/list``'s
time (targets: overhead <= 2 ms, tools/list <= 50 ms).

A server is started here (``astro-server serve``, hypercorn, one worker, SQLite in a temporary
data directory: the production entry point ``astro_server.asgi:app`` with ``/mcp``). Then, each
over ``--rounds`` calls after a warm-up, over loopback:

* REST: ``POST /api/v3/western/natal`` with httpx (one kept-alive connection), alternating
  with the MCP call;
* MCP: ``tools/call western_natal`` with the same body through the official MCP client (one
  session; each call is one POST to ``/mcp``);
* ``tools/list`` through the same session (after the first, which builds the tools).

The overhead is p50(MCP) - p50(REST). The account is on the enterprise tier with enough credits.

    uv run python benchmarks/mcp_server.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from _services import free_port
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

NATAL = {"subject": {"date": "1990-04-15", "time": "08:30", "latitude": 13.7563,
                     "longitude": 100.5018, "timezone": "Asia/Bangkok"}}  # fmt: skip


@contextmanager
def local_server() -> Iterator[tuple[str, str]]:
    """A hypercorn API process and an enterprise key; yields (base URL, key)."""
    data_dir = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update(
        {
            "ASTRO_DATA_DIR": str(data_dir),
            "ASTRO_SECRET_KEY": "m" * 48,
            "ASTRO_RATE_LIMIT_ENTERPRISE": str(10**9),
            "ASTRO_LOG_LEVEL": "WARNING",
        }
    )
    cli = [sys.executable, "-m", "astro_server.cli"]
    subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
    created = subprocess.run(
        [*cli, "create-account", "--name", "bench", "--tier", "enterprise",
         "--credits", "1000000", "--json"],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    key = json.loads(created.stdout.strip().splitlines()[-1])["api_key"]
    port = free_port()
    log = (data_dir / "server.log").open("wb")
    proc = subprocess.Popen(
        [*cli, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base_url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the benchmark server did not start")
            time.sleep(0.1)
        yield base_url, key
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def measure(base_url: str, key: str, rounds: int) -> dict[str, float]:
    rest: list[float] = []
    tool: list[float] = []
    listing: list[float] = []
    async with (
        httpx.AsyncClient(base_url=base_url, headers={"X-API-Key": key}) as http,
        create_mcp_http_client(headers={"X-API-Key": key}) as client,
        streamable_http_client(base_url + "/mcp", http_client=client) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        first = time.perf_counter()
        await session.list_tools()
        first_list = time.perf_counter() - first
        # REST and MCP calls alternate, so that load from elsewhere on the machine falls on both.
        for i in range(rounds + 10):
            start = time.perf_counter()
            response = await http.post("/api/v3/western/natal", json=NATAL)
            rest_elapsed = time.perf_counter() - start
            response.raise_for_status()
            start = time.perf_counter()
            result = await session.call_tool("western_natal", NATAL)
            tool_elapsed = time.perf_counter() - start
            if result.is_error:
                raise RuntimeError(str(result.content))
            if i >= 10:
                rest.append(rest_elapsed)
                tool.append(tool_elapsed)
        for _ in range(max(20, rounds // 5)):
            start = time.perf_counter()
            await session.list_tools()
            listing.append(time.perf_counter() - start)
    return {
        "rest_p50_ms": p50(rest),
        "mcp_tool_p50_ms": p50(tool),
        "overhead_p50_ms": p50(tool) - p50(rest),
        "tools_list_p50_ms": p50(listing),
        "tools_list_first_ms": first_list * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with local_server() as (base_url, key):
        figures = asyncio.run(measure(base_url, key, args.rounds))
    for name, value in figures.items():
        print(f"{name:22} {value:8.2f}")
    print("targets: overhead <= 2 ms, tools/list <= 50 ms")


if __name__ == "__main__":
    main()
