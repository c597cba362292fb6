"""Response helpers: bodies are encoded once, with msgspec (structs, dicts, datetimes)."""

from __future__ import annotations

from typing import Any

import msgspec
from quart import Response, g

_encoder = msgspec.json.Encoder()


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Encode ``body`` (msgspec Struct, dict, list, ...) once and wrap it in a Response."""
    return Response(
        _encoder.encode(body), status=status, headers=headers, content_type="application/json"
    )


def current_request_id() -> str:
    rid = getattr(g, "request_id", None)
    return rid if isinstance(rid, str) else ""


def job_accepted(handle: dict[str, str]) -> Response:
    """The 202 response carrying a job handle (``Location`` is the job to poll)."""
    return json_response(handle, 202, {"Location": handle["poll"]})
