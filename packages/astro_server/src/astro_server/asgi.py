"""ASGI entry point for hypercorn: ``astro_server.asgi:app``: the Quart application with the
hosted MCP server at ``/mcp`` and ``/llms.txt`` beside it (platform/mcp/server.py).

Settings come from the environment; what the API server refuses to start with
(:meth:`~astro_server.settings.Settings.serving_problems`, e.g. production without
``ASTRO_PUBLIC_URL`` or ``ASTRO_ALLOWED_HOSTS``) stops the import, whoever runs it."""

from astro_server.app import create_app
from astro_server.platform.mcp.server import with_mcp
from astro_server.settings import Settings

_settings = Settings.from_env()
_refused = _settings.serving_problems()
if _refused:
    raise SystemExit("astro-server: bad setting: " + "; ".join(_refused))

app = with_mcp(create_app(_settings))
