"""``GET /``: a small JSON index; ``GET /docs``: Swagger UI; ``GET /docs/reference``: the
rendered reference (Redoc); ``/docs/assets/...``: their files.

The Swagger UI page is ours (not quart-schema's fixed one) for its settings: the filter box on,
operations grouped under their tags in the document's order (the spec's tag groups), tags listed
open and operations closed, "Try it out" starting from the document's examples, the credential
kept across reloads, each request's duration shown. The reference page renders the same
document with Redoc, read-only, one long page with a search box.

Both pages work with no network: their scripts and style sheet come from packages, served by
this blueprint, never from a CDN: Swagger UI 5.x from ``swagger-ui-py``, Redoc 3.x from
``flask-openapi-redoc`` (found without importing either; only their files are used). Only the
files the pages need are served, by name (no path from the request reaches the file system).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
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
REFERENCE_PATH: Final = "/docs/reference"
ASSETS_PATH: Final = "/docs/assets"
#: The files the pages load: media type, and the package directory each comes from.
_ASSETS: Final = {
    "swagger-ui-bundle.js": ("text/javascript; charset=utf-8", "swagger"),
    "swagger-ui.css": ("text/css; charset=utf-8", "swagger"),
    "redoc.standalone.js": ("text/javascript; charset=utf-8", "redoc"),
}


def swagger_ui_static_dir() -> Path:
    """Where ``swagger-ui-py`` installed Swagger UI's distribution files (found without
    importing the package, whose handlers this server does not use)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is not installed")
    return Path(spec.submodule_search_locations[0]) / "static"


def redoc_static_dir() -> Path:
    """Where ``flask-openapi-redoc`` installed Redoc's standalone script."""
    spec = importlib.util.find_spec("flask_openapi_redoc")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the flask-openapi-redoc package is not installed")
    return Path(spec.submodule_search_locations[0]) / "templates" / "redoc" / "js"


def asset_urls() -> dict[str, str]:
    """quart-schema's settings for the docs page: the packaged files, served here."""
    return {
        "QUART_SCHEMA_SWAGGER_JS_URL": f"{ASSETS_PATH}/swagger-ui-bundle.js",
        "QUART_SCHEMA_SWAGGER_CSS_URL": f"{ASSETS_PATH}/swagger-ui.css",
    }


#: Swagger UI's settings (https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/).
SWAGGER_UI_CONFIG: Final = {
    "url": OPENAPI_PATH,
    "dom_id": "#swagger-ui",
    "deepLinking": True,
    "filter": True,  # the filter box: type a tag group's name
    "docExpansion": "list",  # every tag group open, its operations listed, each closed
    "defaultModelsExpandDepth": 0,  # the schemas section closed at the end of the page
    "defaultModelExpandDepth": 2,
    "displayRequestDuration": True,
    "persistAuthorization": True,
    "showExtensions": True,
    "showCommonExtensions": True,
    "tryItOutEnabled": False,
    "validatorUrl": None,  # no badge from validator.swagger.io on a non-local address
}

#: The pages may load only from this server: Redoc 3 shows a logo from its CDN (hidden when it
#: fails to load), which the browser is told not to even ask for.
PAGE_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
    "frame-ancestors 'self'"
)

_PAGE: Final = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="stylesheet" href="{css}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{js}"></script>
  <script>
    const config = {config};
    config.presets = [SwaggerUIBundle.presets.apis];
    config.layout = "BaseLayout";
    window.ui = SwaggerUIBundle(config);
  </script>
</body>
</html>
"""


_REFERENCE_PAGE: Final = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Astro API reference</title>
  <style>body {{ margin: 0; padding: 0; }}</style>
</head>
<body>
  <div id="redoc"></div>
  <script type="module">
    import {{ init }} from "{js}";
    init({url}, {options}, document.getElementById("redoc"));
  </script>
</body>
</html>
"""
#: Redoc's settings (Redoc 3 is an ES module exporting ``init``): its telemetry off (the page
#: asks nothing of any other host), the samples from the document's examples.
REDOC_OPTIONS: Final = {
    "disableTelemetry": True,
    "hideDownloadButton": False,
    "expandResponses": "200,201",
    "jsonSampleExpandLevel": 2,
    "sortTagsAlphabetically": False,
}


_INLINE_SCRIPT: Final = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
#: What the docs page may load: its own origin's files, its inline script by hash (no other
#: inline script runs), the style attributes Swagger UI sets, data: images; never framed.
_DOCS_CSP: Final = (
    "default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'; "
    "worker-src 'self' blob:"
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
    """Security headers on the documentation; the two pages' policy allows each inline script
    by its hash only (no other inline script runs)."""
    path = request.path
    if path in (DOCS_PATH, REFERENCE_PATH, OPENAPI_PATH) or path.startswith(ASSETS_PATH + "/"):
        response.headers.update(SECURITY_HEADERS)
        if path in (DOCS_PATH, REFERENCE_PATH) and response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = docs_csp(
                await response.get_data(as_text=False)
            )
        elif "Content-Security-Policy" not in response.headers:
            response.headers["Content-Security-Policy"] = (
                "default-src 'none'; frame-ancestors 'none'"
            )
        if path == OPENAPI_PATH and response.status_code == 200:
            # A large document that changes only with a deploy: a client revalidates it with
            # If-None-Match and gets a 304 without the body (issue 50).
            await response.add_etag()
            response.headers["Cache-Control"] = "public, max-age=300"
            await response.make_conditional(request)
    return response


@cache
def _read(name: str) -> bytes:
    _media_type, source = _ASSETS[name]
    directory = swagger_ui_static_dir() if source == "swagger" else redoc_static_dir()
    return (directory / name).read_bytes()


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
            "reference_url": REFERENCE_PATH,
            "openapi_url": OPENAPI_PATH,
            "health_url": "/healthz",
        }
    )


@blueprint.get(DOCS_PATH)
@hide
async def swagger_ui() -> Response:
    """The interactive documentation, with its script and style sheet from this server."""
    page = _PAGE.format(
        title="Astro API",
        css=f"{ASSETS_PATH}/swagger-ui.css",
        js=f"{ASSETS_PATH}/swagger-ui-bundle.js",
        config=json.dumps(SWAGGER_UI_CONFIG),
    )
    return Response(
        page,
        content_type="text/html; charset=utf-8",
        headers={"Content-Security-Policy": PAGE_POLICY},
    )


@blueprint.get(REFERENCE_PATH)
@hide
async def reference() -> Response:
    """The rendered reference (Redoc), with its script from this server."""
    page = _REFERENCE_PAGE.format(
        js=f"{ASSETS_PATH}/redoc.standalone.js",
        url=json.dumps(OPENAPI_PATH),
        options=json.dumps(REDOC_OPTIONS),
    )
    return Response(
        page,
        content_type="text/html; charset=utf-8",
        headers={"Content-Security-Policy": PAGE_POLICY},
    )


@blueprint.get(f"{ASSETS_PATH}/<name>")
@hide
async def asset(name: str) -> Response:
    """One of the Swagger UI files (cached for a day: they change only with the package)."""
    entry = _ASSETS.get(name)
    if entry is None:
        raise APIError(404, "No such route.")
    return Response(
        _read(name),
        content_type=entry[0],
        headers={"Cache-Control": "public, max-age=86400"},
    )
