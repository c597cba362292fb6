"""Helpers for the SDK's unit tests: a scripted ``httpx.MockTransport`` and a fake clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx

from astro_sdk import AstroClient, AsyncAstroClient

BASE_URL = "http://astro.test"
API_KEY = "ak_test_0123456789abcdef"
SESSION_TOKEN = "service_sess_0123456789abcdef"

Step = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def reply(
    status: int = 200, body: Any = None, headers: dict[str, str] | None = None
) -> httpx.Response:
    content = b"" if body is None else json.dumps(body).encode()
    merged = {"Content-Type": "application/json", **(headers or {})}
    return httpx.Response(status, content=content, headers=merged)


def error(status: int, slug: str, message: str = "failed", **extra: Any) -> httpx.Response:
    headers = extra.pop("headers", None)
    return reply(status, {"error": slug, "message": message, **extra}, headers)


class Script:
    """Answers requests with the given steps in order and records every request."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.steps:
            raise AssertionError(f"unexpected request {request.method} {request.url}")
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if isinstance(step, httpx.Response):
            return step
        return step(request)

    async def handle_async(self, request: httpx.Request) -> httpx.Response:
        return self(request)


def sync_client(script: Script, **options: Any) -> AstroClient:
    options.setdefault("api_key", API_KEY)
    options.setdefault("base_url", BASE_URL)
    return AstroClient(http_client=httpx.Client(transport=httpx.MockTransport(script)), **options)


def async_client(script: Script, **options: Any) -> AsyncAstroClient:
    options.setdefault("api_key", API_KEY)
    options.setdefault("base_url", BASE_URL)
    transport = httpx.MockTransport(script.handle_async)
    return AsyncAstroClient(http_client=httpx.AsyncClient(transport=transport), **options)


class FakeClock:
    """Replaces the SDK's sleep and monotonic clock: sleeping advances time, nothing waits."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)

    def monotonic(self) -> float:
        return self.now


def job_body(status: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "job_id": "job_" + "a" * 24,
        "status": status,
        "kind": "vedic.kundli_matching_batch",
        "created_at": "2025-01-01T00:00:00Z",
        "started_at": None,
        "finished_at": None,
        "progress": 0.0,
        "result": None,
        "error": None,
        "credits_charged": 4,
        "credits_refunded": 0,
        "attempts": 0,
        "livemode": True,
    }
    body.update(fields)
    return body
