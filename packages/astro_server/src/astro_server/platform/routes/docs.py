"""``GET /``: a small JSON index; ``GET /docs``: Swagger UI; ``/docs/assets/...``: its files.

The page is ours (not quart-schema's fixed one) for its settings: the filter box on, operations
grouped under their tags in the document's order (the spec's tag groups), tags listed open and
operations closed, "Try it out" starting from the document's examples, the credential kept
across reloads, each request's duration shown.

The docs page works with no network: its script and style sheet come from the ``swagger-ui-py``
package (Swagger UI 5.x, which reads OpenAPI 3.1), served by this blueprint, never from a CDN.
Only the two files the page needs are served, by name (no path from the request reaches the
file system).
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Final

from quart import Blueprint, Response, current_app
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
}

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
    return Response(page, content_type="text/html; charset=utf-8")


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
