"""The HTTPS receiver of the end-to-end tests: a local pytest-httpserver with a certificate for
``localhost`` from a throwaway trustme CA, which the server processes trust through
``SSL_CERT_FILE`` (:func:`ca_file`). Loopback destinations are allowed by the settings flag meant
for tests (``ASTRO_ALLOW_LOOPBACK_DESTINATIONS=1``).

Registered for every test directory by the root ``conftest.py`` (``pytest_plugins``), so the
fixtures ``ca``, ``ca_file`` and ``https_server`` need no import; :class:`Inbox` and
:func:`receive` are imported from ``tests._support.receiver``.
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from astro_sdk.webhooks import verify

Received = tuple[bytes, dict[str, str]]


class Inbox:
    """The requests one route of the receiver got (body, headers), in arrival order.

    It answers ``reply`` with ``status`` (200 unless a test sets it; any status of 300 or more
    answers "no"), so a test can make the destination fail and recover.
    """

    def __init__(self, reply: str = "received") -> None:
        self.lock = threading.Lock()
        self.items: list[Received] = []
        self.reply = reply
        self.status = 200

    def handle(self, request: Request) -> Response:
        with self.lock:
            self.items.append((request.get_data(), dict(request.headers)))
            status = self.status
        return Response(self.reply if status < 300 else "no", status=status)

    def wait_for(self, count: int, timeout_s: float) -> list[Received]:
        """The requests so far, as soon as there are ``count`` of them or ``timeout_s`` passed
        (the caller asserts on what it got)."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self.lock:
                if len(self.items) >= count or time.monotonic() >= deadline:
                    return list(self.items)
            time.sleep(0.05)

    def events(self, secret: str, count: int, timeout_s: float = 60) -> list[dict[str, Any]]:
        """The first ``count`` (or all, on timeout) requests, each verified with ``secret``."""
        return [verify(body, headers, secret) for body, headers in self.wait_for(count, timeout_s)]


def receive(server: HTTPServer, path: str, reply: str = "received") -> Inbox:
    """An :class:`Inbox` for the POSTs to ``path`` on ``server``."""
    inbox = Inbox(reply)
    server.expect_request(path, method="POST").respond_with_handler(inbox.handle)
    return inbox


@pytest.fixture
def ca() -> trustme.CA:
    """A throwaway certificate authority for one test."""
    return trustme.CA()


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> Path:
    """:func:`ca`'s certificate as a PEM file, for a server process's ``SSL_CERT_FILE``."""
    path = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


@pytest.fixture
def https_server(ca: trustme.CA) -> Iterator[HTTPServer]:
    """A started HTTPS server on 127.0.0.1 (certificate for ``localhost`` from :func:`ca`);
    register routes on it with :func:`receive` or pytest-httpserver's ``expect_request``."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("localhost").configure_cert(context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context, threaded=True)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()
