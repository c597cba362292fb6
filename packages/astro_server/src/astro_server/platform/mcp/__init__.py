"""The hosted MCP server (``/mcp``, Streamable HTTP) and the tools it derives from the OpenAPI
document.

:mod:`.tools` turns the public API-key operations of the OpenAPI document into MCP tools (name,
description with price and tier, input schema, example input) with an explicit exclusion list;
:mod:`.server` serves them with the official ``mcp`` SDK and runs each call through the REST
route itself, in-process, with the caller's own headers, so authentication, scopes, test mode,
rate limits, idempotency, tier checks and debits are those of REST.
"""
