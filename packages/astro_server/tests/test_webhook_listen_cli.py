"""``astro-server webhook-listen`` as a developer runs it (a real process, real TLS): deliveries
forwarded to an application answering 204 keep the connection usable, and a second listener
never breaks a running one's certificate.

Deliveries are verified the way the embedded server verifies them: with
:class:`~astro_server.platform.delivery.http.DeliveryClient`'s TLS context for a loopback
address, which trusts ``<ASTRO_DATA_DIR>/webhook-listen.pem`` (read afresh per connection)."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from astro_sdk import webhooks
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.webhook_listen import CERT_FILE_NAME

SECRET = webhooks.generate_secret()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _listen_command(port: int, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "astro_server.cli", "webhook-listen",
        "--secret", SECRET, "--port", str(port), *extra,
    ]  # fmt: skip


class _Listeners:
    """Started listener processes, each with its log; all stopped at the end of the test."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.env = {**os.environ, "ASTRO_DATA_DIR": str(data_dir)}
        self.started: list[subprocess.Popen[bytes]] = []

    @property
    def certificate(self) -> Path:
        return self.data_dir / CERT_FILE_NAME

    def start(self, port: int, *extra: str) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.data_dir / f"listen-{len(self.started)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                _listen_command(port, *extra),
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.started.append(process)
        deadline = time.monotonic() + 60
        while "Listening" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        return process, log

    def stop(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@pytest.fixture
def listeners(tmp_path: Path) -> Iterator[_Listeners]:
    started = _Listeners(tmp_path)
    try:
        yield started
    finally:
        for process in started.started:
            started.stop(process)


def _trusting_client(certificate: Path) -> httpx.Client:
    """An HTTPS client trusting what the embedded server trusts for a loopback destination."""
    context = DeliveryClient(allow_loopback=True, loopback_trust_file=certificate)._context_for(
        "127.0.0.1"
    )
    return httpx.Client(verify=context, timeout=10)


def _deliver(client: httpx.Client, port: int, number: int) -> httpx.Response:
    body = f'{{"type": "horoscope.daily", "data": {{"n": {number}}}}}'.encode()
    return client.post(
        f"https://127.0.0.1:{port}/webhooks",
        content=body,
        headers={**webhooks.sign(body, SECRET), "content-type": "application/json"},
    )


@pytest.fixture
def app_answering_204() -> Iterator[tuple[str, list[bytes]]]:
    """A local application (plain HTTP/1.1, keep-alive) that answers every POST 204."""
    received: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            received.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(204)
            self.end_headers()

    app = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    app.daemon_threads = True
    thread = threading.Thread(target=app.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{app.server_address[1]}/hooks", received
    finally:
        app.shutdown()
        app.server_close()


def test_four_deliveries_in_a_row_forwarded_to_an_app_answering_204_all_succeed(
    listeners: _Listeners, app_answering_204: tuple[str, list[bytes]]
) -> None:
    forward_to, received = app_answering_204
    port = _free_port()
    _process, log = listeners.start(port, "--forward-to", forward_to)
    with _trusting_client(listeners.certificate) as client:  # one kept-alive connection
        answers = [_deliver(client, port, n) for n in range(4)]
    assert [a.status_code for a in answers] == [204] * 4, log.read_text()
    for answer in answers:  # a 204 has no body, and no Content-Length claiming one
        assert answer.content == b""
        assert answer.headers.get("content-length") in (None, "0")
    assert len(received) == 4
    assert log.read_text().count(f"forwarded to {forward_to}: 204") == 4


def test_a_second_listener_on_a_busy_port_fails_clearly_and_the_first_stays_trusted(
    listeners: _Listeners,
) -> None:
    port = _free_port()
    listeners.start(port)
    published = listeners.certificate.read_bytes()
    second = subprocess.run(
        _listen_command(port), env=listeners.env, capture_output=True, text=True, timeout=60
    )
    assert second.returncode == 2, second
    assert f"port {port} on 127.0.0.1 is already in use" in second.stderr, second.stderr
    assert "Traceback" not in second.stderr
    assert listeners.certificate.read_bytes() == published  # nothing written before the bind
    with _trusting_client(listeners.certificate) as client:
        assert _deliver(client, port, 1).status_code == 200


def test_listeners_on_two_ports_are_both_trusted_and_a_stopped_one_is_withdrawn(
    listeners: _Listeners,
) -> None:
    first_port, second_port = _free_port(), _free_port()
    listeners.start(first_port)
    second, _log = listeners.start(second_port)
    with _trusting_client(listeners.certificate) as client:
        assert _deliver(client, first_port, 1).status_code == 200
        assert _deliver(client, second_port, 2).status_code == 200
    # The second stops (SIGTERM, as a terminal closing would): its certificate leaves the file,
    # the first's stays.
    listeners.stop(second)
    assert listeners.certificate.read_text().count("BEGIN CERTIFICATE") == 1
    with _trusting_client(listeners.certificate) as client:
        assert _deliver(client, first_port, 3).status_code == 200


def test_the_certificate_file_drops_expired_certificates_and_keeps_a_bounded_number(
    tmp_path: Path,
) -> None:
    from astro_server.webhook_listen import (
        MAX_TRUSTED_CERTIFICATES,
        make_certificate,
        publish_certificate,
        withdraw_certificate,
    )

    path = tmp_path / CERT_FILE_NAME
    expired, _key = make_certificate(days=0)  # not_valid_after is now: expired a moment later
    time.sleep(1.1)
    path.write_bytes(expired)
    made = [make_certificate()[0] for _ in range(MAX_TRUSTED_CERTIFICATES + 2)]
    for cert_pem in made:
        publish_certificate(path, cert_pem)
    kept = path.read_bytes()
    assert expired not in kept
    assert kept.count(b"BEGIN CERTIFICATE") == MAX_TRUSTED_CERTIFICATES
    assert made[0] not in kept  # the oldest go first
    assert made[-1] in kept
    for cert_pem in made:
        withdraw_certificate(path, cert_pem)
    assert not path.exists()
    context = ssl.create_default_context()
    publish_certificate(path, made[0])
    context.load_verify_locations(cafile=str(path))  # still a valid PEM bundle
