"""The portal's only way to the platform: the public API's own routes, called in-process.

Each portal handler sends an ordinary HTTP request (method, path, JSON body, ``Authorization:
Bearer <session token>``) through the application's ASGI entry, so it passes the same
authentication, validation, rate limits, tenant checks and error bodies as a request from any
other client. The portal therefore cannot do anything the public API does not offer (see
docs/decisions.md, "Customer portal"). The client's address and the portal request's id are
carried over, so the login limit per address and the access log see the real caller.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from quart import current_app, g, request

_NO_BODY: Any = object()


@dataclass
class ApiResult:
    """An API answer: status, parsed JSON body (``{}`` for none) and selected headers."""

    status: int
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def message(self) -> str:
        return str(self.body.get("message", ""))

    @property
    def code(self) -> str:
        return str(self.body.get("code") or self.body.get("error") or "")

    def field_errors(self) -> dict[str, str]:
        """``details`` as ``{field: message}`` (the first message of each field)."""
        out: dict[str, str] = {}
        for item in self.body.get("details") or []:
            name = str(item.get("field", "")).split(".")[-1]
            out.setdefault(name, str(item.get("message", "")))
        return out


async def call(
    method: str,
    path: str,
    *,
    json_body: Any = _NO_BODY,
    query: dict[str, Any] | None = None,
    token: str | None = None,
) -> ApiResult:
    """Send one request to this application's public API and return its answer."""
    headers: dict[str, str] = {"Accept": "application/json"}
    bearer = token if token is not None else getattr(g, "portal_token", None)
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    request_id = getattr(g, "request_id", None)
    if request_id:
        headers["X-Request-Id"] = request_id
    client = current_app.test_client(use_cookies=False)
    kwargs: dict[str, Any] = {}
    if json_body is not _NO_BODY:
        kwargs["json"] = json_body
    response = await client.open(
        path,
        method=method,
        headers=headers,
        query_string={k: v for k, v in (query or {}).items() if v is not None},
        scope_base={"client": (request.remote_addr or "127.0.0.1", 0)},
        **kwargs,
    )
    raw = await response.get_data()
    body: dict[str, Any] = {}
    if raw and (response.mimetype or "").endswith("json"):
        parsed = json.loads(raw)
        body = parsed if isinstance(parsed, dict) else {"data": parsed}
    return ApiResult(status=response.status_code, body=body)
