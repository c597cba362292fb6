"""``create_app(settings)``: the Quart application factory. Blueprints are registered here."""

from __future__ import annotations

import logging
import secrets

from quart import Quart, Response, g, request
from quart_schema import QuartSchema, RequestSchemaValidationError
from werkzeug.exceptions import HTTPException

from astro_calc.errors import CalcInputError
from astro_server import __version__
from astro_server.errors import APIError, validation_error
from astro_server.responses import current_request_id, json_response
from astro_server.settings import Settings

log = logging.getLogger("astro_server")
_request_id = current_request_id


def error_response(err: APIError) -> Response:
    return json_response(err.body(_request_id()), err.status, err.headers)


def create_app(settings: Settings | None = None) -> Quart:
    settings = settings or Settings.from_env()
    app = Quart("astro_server")
    app.config["ASTRO_SETTINGS"] = settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    QuartSchema(
        app,
        info={"title": "Astro API", "version": "1.1.0"},
        openapi_path="/openapi.json",
        swagger_ui_path="/docs",
        redoc_ui_path=None,
        scalar_ui_path=None,
    )

    @app.before_request
    async def _assign_request_id() -> None:
        incoming = request.headers.get("X-Request-Id", "")
        ok = 0 < len(incoming) <= 64 and incoming.replace("-", "").replace("_", "").isalnum()
        g.request_id = incoming if ok else "req_" + secrets.token_hex(12)

    @app.after_request
    async def _stamp_request_id(response: Response) -> Response:
        response.headers["X-Request-Id"] = _request_id()
        return response

    @app.errorhandler(APIError)
    async def _api_error(err: APIError) -> Response:
        return error_response(err)

    @app.errorhandler(RequestSchemaValidationError)
    async def _schema_error(err: RequestSchemaValidationError) -> Response:
        from astro_server.validation import details_from_exception

        return error_response(details_from_exception(err.validation_error))

    @app.errorhandler(CalcInputError)
    async def _calc_input_error(err: CalcInputError) -> Response:
        # Calculations name the input they refuse; the client gets a field-level 400.
        return error_response(
            validation_error([{"field": err.field, "message": err.message}], err.message)
        )

    @app.errorhandler(HTTPException)
    async def _http_error(err: HTTPException) -> Response:
        status = err.code or 500
        message = {
            404: "No such route.",
            405: "Method not allowed on this route.",
            413: "Request body too large.",
        }.get(status, err.description or "Request failed.")
        return error_response(APIError(status, message))

    @app.errorhandler(Exception)
    async def _unhandled(err: Exception) -> Response:
        log.exception("unhandled error", extra={"request_id": _request_id()})
        return error_response(
            APIError(500, "The server could not complete the request.", code="internal")
        )

    @app.before_serving
    async def _startup() -> None:
        from astro_server.db import init_db

        await init_db(settings)

    @app.after_serving
    async def _shutdown() -> None:
        from astro_server.db import close_db

        await close_db()

    from astro_server.api.health import blueprint as health

    app.register_blueprint(health)
    app.config["ASTRO_VERSION"] = __version__
    return app
