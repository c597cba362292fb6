"""``GET /``: a small JSON index; ``/docs/assets/...``: the Swagger UI files ``/docs`` loads.

The docs page works with no network: its script and style sheet come from the ``swagger-ui-py``
package (Swagger UI 5.x, which reads OpenAPI 3.1), served by this blueprint, never from a CDN.
Only the two files the page needs are served, by name (no path from the request reaches the
file system).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import re
from functools import cache
from pathlib import Path
from typing import Final

from quart import Blueprint, Response, current_app, request
from quart_schema import hide

from astro_server.platform.errors import APIError
from astro_server.platform.responses import json_response

blueprint = Blueprint("docs", __name__)

DOCS_PATH: Final = "/docs"
OPENAPI_PATH: Final = "/openapi.json"
ASSETS_PATH: Final = "/docs/assets"
#: The files Swagger UI's page loads, with their media types.
_ASSETS: Final = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}


def swagger_ui_static_dir() -> Path:
    """Where ``swagger-ui-py`` installed Swagger UI's distribution files (found without
    importing the package, whose handlers this server does not use)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is not installed")
    return Path(spec.submodule_search_locations[0]) / "static"


def asset_urls() -> dict[str, str]:
    """quart-schema's settings for the docs page: the packaged files, served here."""
    return {
        "QUART_SCHEMA_SWAGGER_JS_URL": f"{ASSETS_PATH}/swagger-ui-bundle.js",
        "QUART_SCHEMA_SWAGGER_CSS_URL": f"{ASSETS_PATH}/swagger-ui.css",
    }


_INLINE_SCRIPT: Final = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
#: What the docs page may load: its own origin's files, its inline script by hash (no other
#: inline script runs), the style attributes Swagger UI sets, data: images; never framed.
_DOCS_CSP: Final = (
    "default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'"
)
#: Sent with every answer under /docs and /openapi.json.
SECURITY_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def docs_csp(page: bytes) -> str:
    """The page's Content-Security-Policy: each inline script allowed by its SHA-256 only."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(page)
    )
    return _DOCS_CSP.format(hashes=hashes).replace("  ", " ")


@blueprint.after_app_request
async def _docs_headers(response: Response) -> Response:
    """Security headers on the documentation (the page is quart-schema's, so set here)."""
    path = request.path
    if path in (DOCS_PATH, OPENAPI_PATH) or path.startswith(ASSETS_PATH + "/"):
        response.headers.update(SECURITY_HEADERS)
        if path == DOCS_PATH and response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = docs_csp(
                await response.get_data(as_text=False)
            )
        elif "Content-Security-Policy" not in response.headers:
            response.headers["Content-Security-Policy"] = (
                "default-src 'none'; frame-ancestors 'none'"
            )
    return response


@cache
def _read(name: str) -> bytes:
    return (swagger_ui_static_dir() / name).read_bytes()


@blueprint.get("/")
@hide
async def index() -> Response:
    """Name, version and where the documentation is."""
    return json_response(
        {
            "name": "Astro API",
            "version": current_app.config["ASTRO_VERSION"],
            "api_version": current_app.config["ASTRO_API_VERSION"],
            "docs_url": DOCS_PATH,
            "openapi_url": OPENAPI_PATH,
            "health_url": "/healthz",
        }
    )


@blueprint.get(f"{ASSETS_PATH}/<name>")
@hide
async def asset(name: str) -> Response:
    """One of the Swagger UI files (cached for a day: they change only with the package)."""
    media_type = _ASSETS.get(name)
    if media_type is None:
        raise APIError(404, "No such route.")
    return Response(
        _read(name),
        content_type=media_type,
        headers={"Cache-Control": "public, max-age=86400"},
    )
