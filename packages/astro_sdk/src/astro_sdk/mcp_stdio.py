"""``astro-mcp``: the Astro MCP server on stdio, for desktop agents (``pip install
"astro-sdk[mcp]"``).

It serves over stdio exactly what the server's hosted MCP endpoint (``<base>/mcp``) serves: the
tools, resources and prompts are listed by, and every call is sent to, that endpoint over HTTP
with the key from the environment, so the tools (generated there from the OpenAPI document),
prices, checks and debits are the server's own and never drift. Environment:

* ``ASTRO_API_KEY``: the API key, sent as ``X-API-Key`` (without one only the docs tools work);
* ``ASTRO_BASE_URL``: the server, as for the SDK's client (default the local development
  server, :data:`astro_sdk._base.DEFAULT_BASE_URL`).

Desktop config (``claude_desktop_config.json`` style)::

    {"mcpServers": {"astro": {"command": "astro-mcp",
                              "env": {"ASTRO_API_KEY": "ak_live_...",
                                      "ASTRO_BASE_URL": "<your server>"}}}}
"""

from __future__ import annotations

import os
import sys
from typing import Any

from astro_sdk._base import DEFAULT_BASE_URL


def _headers() -> dict[str, str]:
    key = os.environ.get("ASTRO_API_KEY", "")
    return {"X-API-Key": key} if key else {}


async def serve() -> None:
    """Run the stdio server until stdin closes (module docstring)."""
    import mcp_types as types
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared._httpx_utils import create_mcp_http_client

    base = (os.environ.get("ASTRO_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    async with (
        create_mcp_http_client(headers=_headers()) as http,
        streamable_http_client(base + "/mcp", http_client=http) as (read, write, *_),
        ClientSession(read, write) as upstream,
    ):
        await upstream.initialize()

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return await upstream.list_tools()

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            return await upstream.call_tool(params.name, params.arguments)

        async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
            return await upstream.list_resources()

        async def read_resource(
            ctx: Any, params: types.ReadResourceRequestParams
        ) -> types.ReadResourceResult:
            return await upstream.read_resource(params.uri)

        async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
            return await upstream.list_prompts()

        async def get_prompt(
            ctx: Any, params: types.GetPromptRequestParams
        ) -> types.GetPromptResult:
            return await upstream.get_prompt(params.name, params.arguments)

        server: Server[Any] = Server(
            "astro",
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_read_resource=read_resource,
            on_list_prompts=list_prompts,
            on_get_prompt=get_prompt,
        )
        async with stdio_server() as (stdin, stdout):
            await server.run(stdin, stdout, server.create_initialization_options())


def main() -> None:
    """The ``astro-mcp`` console script."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        sys.stderr.write('astro-mcp needs the mcp extra: pip install "astro-sdk[mcp]"\n')
        raise SystemExit(2) from None
    import anyio

    try:
        anyio.run(serve)
    except Exception as exc:  # one line for the agent's log, not a traceback
        base = os.environ.get("ASTRO_BASE_URL") or DEFAULT_BASE_URL
        sys.stderr.write(f"astro-mcp: the MCP endpoint {base}/mcp failed: {exc!r}\n")
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
