"""Helpers for the delivery tests: a local HTTPS receiver with a test CA, a client trusting it."""

from __future__ import annotations

import json
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import trustme
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from astro_server.platform.delivery.http import DeliveryClient


@dataclass
class Received:
    body: bytes
    headers: dict[str, str]
    target: str = ""  # path and query string

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """An HTTPS endpoint on 127.0.0.1 answering each POST with ``status`` (changeable)."""

    server: HTTPServer
    ca: trustme.CA
    status: int = 200
    received: list[Received] = field(default_factory=list)
    answer: Callable[[Request], Response] | None = None

    def url(self, path: str = "/hooks/astro") -> str:
        return f"https://localhost:{self.server.port}{path}"

    def handle(self, request: Request) -> Response:
        query = request.query_string.decode()
        target = f"{request.path}?{query}" if query else request.path
        self.received.append(Received(request.get_data(), dict(request.headers), target))
        if self.answer is not None:
            return self.answer(request)
        return Response("ok" if self.status < 300 else "no", status=self.status)

    def client(self, **kwargs: Any) -> DeliveryClient:
        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return DeliveryClient(allow_loopback=True, ssl_context=context, **kwargs)


def start_receiver(ca: trustme.CA) -> Receiver:
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("localhost", "127.0.0.1").configure_cert(server_context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=server_context, threaded=True)
    receiver = Receiver(server, ca)
    server.expect_request("/hooks/astro", method="POST").respond_with_handler(receiver.handle)
    server.start()
    return receiver


def stop_receiver(receiver: Receiver) -> None:
    receiver.server.clear()
    if receiver.server.is_running():
        receiver.server.stop()


class Clock:
    """A controllable clock: ``clock()`` reads it, ``advance`` and ``set`` move it."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def set(self, when: datetime) -> None:
        self.now = when

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def whole_second_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def fake_horoscope(sign: str, local_date: Any, language: str) -> dict[str, Any]:
    return {
        "sign": sign,
        "date": str(local_date),
        "language": language,
        "text": f"A published horoscope for {sign} on {local_date} ({language}).",
    }
