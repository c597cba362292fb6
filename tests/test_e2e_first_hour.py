"""A new user's first hour, end to end on a live embedded server (issue 16): ``/docs`` renders
in a real browser with every request off this machine refused, logout's 204 over real HTTP,
and ``astro-server webhook-listen`` receiving, verifying and forwarding a feed's test delivery.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import httpx
import pytest

from tests._support.stack import ServerProcess, Stack, free_port, make_stack

CHROMIUM = Path("/usr/bin/chromium")
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="module")
def embedded(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Stack, ServerProcess]]:
    """One embedded server (SQLite, jobs in the API process) for the module's tests, each of
    which works in an account and customer of its own."""
    stack = make_stack(tmp_path_factory.mktemp("embedded"), None, None)
    stack.tmp.mkdir(parents=True, exist_ok=True)
    stack.run_cli("migrate")
    try:
        yield stack, stack.server(extra_env={"ASTRO_LOCAL_WEBHOOKS": "1"})
    finally:
        stack.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
async def test_docs_render_offline_in_a_real_browser(
    embedded: tuple[Stack, ServerProcess],
) -> None:
    from playwright.async_api import Route, async_playwright

    _stack, server = embedded
    refused: list[str] = []

    async def only_loopback(route: Route) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if host in LOOPBACK:
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort("internetdisconnected")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )  # fmt: skip
        try:
            page = await browser.new_page()
            await page.route("**/*", only_loopback)
            await page.goto(server.base_url + "/docs", wait_until="networkidle")
            await page.wait_for_selector(".opblock-summary", timeout=30_000)
            operations = await page.locator(".opblock-summary-path").all_inner_texts()
            title = await page.locator(".info .title").inner_text()
            sections = await page.locator(".opblock-tag").all_inner_texts()
        finally:
            await browser.close()
    assert refused == []  # nothing was even asked of another host
    assert "Astro API" in title
    paths = {text.replace("\u200b", "").strip() for text in operations}
    assert {"/api/v3/western/natal", "/auth/login", "/v1/horoscope-feed-subscriptions"} <= paths
    assert len(paths) >= 30
    assert any("Western" in section for section in sections)


def test_logout_answers_204_without_a_body_or_media_type(
    embedded: tuple[Stack, ServerProcess],
) -> None:
    stack, server = embedded
    account = json.loads(stack.run_cli("create-account", "--name", "a", "--json").stdout)
    stack.run_cli(
        "create-customer", "--account", account["account_id"], "--email", "a@example.com",
        "--password", "correct horse battery",
    )  # fmt: skip
    login = httpx.post(
        server.base_url + "/auth/login",
        json={"email": "a@example.com", "password": "correct horse battery"},
    )
    token = login.json()["token"]
    answer = httpx.post(
        server.base_url + "/auth/logout", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 204
    assert "content-type" not in answer.headers
    assert answer.content == b""
    assert answer.headers["RateLimit-Limit"]


class _Inbox(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[dict[str, str], bytes]]]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(202)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def local_app() -> Iterator[tuple[str, list[tuple[dict[str, str], bytes]]]]:
    """A plain HTTP application on loopback, where the listener forwards deliveries."""
    inbox: list[tuple[dict[str, str], bytes]] = []
    handler = type("Inbox", (_Inbox,), {"received": inbox})
    app = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=app.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{app.server_address[1]}/hooks", inbox
    app.shutdown()
    app.server_close()


def test_webhook_listen_verifies_prints_and_forwards_a_test_delivery(
    embedded: tuple[Stack, ServerProcess],
    local_app: tuple[str, list[tuple[dict[str, str], bytes]]],
) -> None:
    from astro_sdk import AstroClient, webhooks

    stack, server = embedded
    forward_to, inbox = local_app
    account = json.loads(stack.run_cli("create-account", "--name", "dev", "--json").stdout)
    stack.run_cli(
        "create-customer", "--account", account["account_id"], "--email", "dev@example.com",
        "--password", "correct horse battery",
    )  # fmt: skip
    port = free_port()
    with AstroClient(base_url=server.base_url) as anonymous:
        client = anonymous.auth.login("dev@example.com", "correct horse battery")
        created = client.horoscope_feeds.create(
            destination_url=f"https://127.0.0.1:{port}/webhooks", sign="virgo"
        )
        secret = created.signing_secret
        log = stack.tmp / "listen.log"
        with log.open("wb") as out:
            listener = subprocess.Popen(
                [sys.executable, "-m", "astro_server.cli", "webhook-listen", "--secret", secret,
                 "--port", str(port), "--forward-to", forward_to],
                env=stack.env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while "Listening" not in log.read_text():
                assert listener.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            assert (Path(stack.env["ASTRO_DATA_DIR"]) / "webhook-listen.pem").is_file()
            delivery = client.horoscope_feeds.test(created.subscription.id)
            deadline = time.monotonic() + 10
            while f"forwarded to {forward_to}: 202" not in log.read_text():
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        finally:
            listener.terminate()
            listener.wait(10)
    assert delivery.status == "succeeded"
    assert delivery.attempt_log[-1].status_code == 202  # the local application's answer
    printed = log.read_text()
    assert f"{delivery.message_id}  horoscope.daily  verified" in printed
    ((headers, body),) = inbox
    event = webhooks.verify(body, headers, secret)  # forwarded unchanged, still verifiable
    assert event["type"] == "horoscope.daily"
    assert event["test"] is True
    assert headers["webhook-id"] == delivery.message_id
