"""ASGI entry point for hypercorn: ``astro_server.asgi:app``: the Quart application with the
hosted MCP server at ``/mcp`` and ``/llms.txt`` beside it (platform/mcp/server.py)."""

from astro_server.app import create_app
from astro_server.platform.mcp.server import with_mcp

app = with_mcp(create_app())
