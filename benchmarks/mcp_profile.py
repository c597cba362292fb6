"""Where a hosted MCP tool call's extra time goes: the same ``western_natal`` request as REST,
as an MCP ``tools/call`` and as a bare MCP ``ping``, in-process (the ASGI app through httpx's
ASGI transport, SQLite, embedded), each ``--requests`` times under cProfile; the functions' own
time grouped by package, in ms per request, sorted by what the tool call adds over REST.

cProfile inflates Python-heavy code more than C code, so read the groups against each other,
not as wall times (``mcp_server.py`` has those).

Then, without the profiler, the CPU time per request (``time.process_time``: client and server,
one process) of ``ping`` and the tool call on the stateless transport the server runs and on a
stateful one (an ``initialize`` first, then ``Mcp-Session-Id`` on every request): what a session
would save. The server stays stateless: a session lives in one process's memory, and the API
runs several processes behind one port (``serve --workers``) and several instances behind a load
balancer, none of which routes a session back to its process.

    uv run python benchmarks/mcp_profile.py [--requests 300]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import logging
import pstats
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from _services import add_smoke, apply_smoke
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from astro_server.app import create_app
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.platform.mcp import server as mcp_server
from astro_server.settings import Settings

NATAL = {"subject": {"date": "1990-04-15", "time": "08:30", "latitude": 13.7563,
                     "longitude": 100.5018, "timezone": "Asia/Bangkok"}}  # fmt: skip
#: Path fragments naming a group, first match wins.
GROUPS = ("mcp_types", "/mcp/", "opentelemetry", "pydantic", "quart", "werkzeug", "starlette",
          "anyio", "astro_calc", "astro_server", "tortoise", "aiosqlite", "httpx", "asyncio",
          "logging", "json", "swisseph")  # fmt: skip


def group(where: tuple[str, int, str]) -> str:
    path, _line, name = where
    for key in GROUPS:
        if key in path:
            return key.strip("/")
    return name if path == "~" else Path(path).name


async def profile(requests: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="mcp-profile-"))
    settings = Settings(
        data_dir=tmp / "var",
        database_url=f"sqlite://{tmp / 'astro.sqlite3'}",
        secret_key="p" * 48,
        rate_limits=dict.fromkeys(("free", "starter", "pro", "enterprise"), 10**9),
    )
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    asgi = mcp_server.with_mcp(app)
    logging.getLogger("astro_server.access").setLevel(logging.WARNING)
    async with app.test_app(), asgi.edge.manager.run():  # type: ignore[attr-defined]
        _account, key = await accounts.create_account("profile", "enterprise", 10**9)
        mcp_headers = {"X-API-Key": key, "Accept": "application/json, text/event-stream",
                       "MCP-Protocol-Version": "2025-06-18"}  # fmt: skip
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "western_natal", "arguments": NATAL}}  # fmt: skip
        transport = httpx.ASGITransport(asgi)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:

            async def rest() -> None:
                response = await http.post(
                    "/api/v3/western/natal", json=NATAL, headers={"X-API-Key": key}
                )
                response.raise_for_status()

            async def tool() -> None:
                (await http.post("/mcp", json=call, headers=mcp_headers)).raise_for_status()

            async def ping() -> None:
                body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
                (await http.post("/mcp", json=body, headers=mcp_headers)).raise_for_status()

            kinds: dict[str, Callable[[], Awaitable[None]]] = {
                "rest": rest, "tool": tool, "ping": ping
            }  # fmt: skip
            for run in kinds.values():
                for _ in range(20):
                    await run()
            spent: dict[str, collections.Counter[str]] = {}
            for name, run in kinds.items():
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(requests):
                    await run()
                profiler.disable()
                counts: collections.Counter[str] = collections.Counter()
                for where, row in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
                    counts[group(where)] += row[2]
                spent[name] = counts
        cpu = await transport_cpu(asgi, app, key, requests, mcp_headers)
    per = 1000 / requests
    names = sorted(set().union(*spent.values()),
                   key=lambda g: -(spent["tool"][g] - spent["rest"][g]))  # fmt: skip
    print(f"{'group':44} {'rest':>7} {'tool':>7} {'added':>7} {'ping':>7}  ms/request (cProfile)")
    for name in names[:16]:
        r, t, p = (spent[k][name] * per for k in ("rest", "tool", "ping"))
        print(f"{name[:44]:44} {r:7.3f} {t:7.3f} {t - r:7.3f} {p:7.3f}")
    totals = [sum(spent[k].values()) * per for k in ("rest", "tool", "ping")]
    print(f"{'total':44} {totals[0]:7.3f} {totals[1]:7.3f} {totals[1] - totals[0]:7.3f} "
          f"{totals[2]:7.3f}")  # fmt: skip
    print("\nCPU ms per request (client and server, no profiler):")
    for name, value in cpu.items():
        print(f"  {name:16} {value:6.2f}")
    for label in ("stateless", "stateful"):
        print(f"  {label} tool overhead over REST: {cpu[label + ' tool'] - cpu['rest']:.2f}")


async def transport_cpu(
    asgi: Any, app: Any, key: str, requests: int, headers: dict[str, str]
) -> dict[str, float]:
    """CPU ms per request of REST, and of ping and the tool call stateless and stateful."""
    stateful = StreamableHTTPSessionManager(app=asgi.edge.server, json_response=True)

    async def stateful_asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(mcp_server.MCP_PATH):
            await stateful.handle_request(scope, receive, send)
        else:
            await app(scope, receive, send)

    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "western_natal", "arguments": NATAL}}  # fmt: skip
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "profile", "version": "1"}}}  # fmt: skip
    out: dict[str, float] = {}

    async def timed(http: httpx.AsyncClient, path: str, body: Any, h: dict[str, str]) -> float:
        for _ in range(20):
            (await http.post(path, json=body, headers=h)).raise_for_status()
        start = time.process_time()
        for _ in range(requests):
            (await http.post(path, json=body, headers=h)).raise_for_status()
        return (time.process_time() - start) / requests * 1000

    async with stateful.run():
        for label, target in (("stateless", asgi), ("stateful", stateful_asgi)):
            transport = httpx.ASGITransport(target)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
                h = dict(headers)
                if label == "stateful":
                    opened = await http.post("/mcp", json=init, headers=h)
                    h["Mcp-Session-Id"] = opened.headers["mcp-session-id"]
                    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                    await http.post("/mcp", json=done, headers=h)
                else:
                    rest_headers = {"X-API-Key": key}
                    out["rest"] = await timed(http, "/api/v3/western/natal", NATAL, rest_headers)
                out[f"{label} ping"] = await timed(http, "/mcp", ping, h)
                out[f"{label} tool"] = await timed(http, "/mcp", call, h)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    add_smoke(parser)
    asyncio.run(profile(apply_smoke(parser.parse_args(), requests=5).requests))


if __name__ == "__main__":
    main()
