"""The delivery client against a real local HTTPS receiver (pytest-httpserver + a trustme CA).

Loopback is allowed here exactly as the ``allow_loopback_destinations`` setting allows it in tests.
Host names are resolved by a fake resolver: that the request arrives at all proves the client
connected to the checked address instead of asking DNS again (the names below do not exist).
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime

import pytest
import trustme
from pytest_httpserver import HTTPServer
from standardwebhooks.webhooks import Webhook
from werkzeug import Request, Response

from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.delivery.signing import new_message_id, new_signing_secret, sign_headers

HOOK_HOST = "hooks.receiver.test"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[HTTPServer]:
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert(HOOK_HOST, "localhost", "127.0.0.1").configure_cert(server_context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=server_context)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


def client_context(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


def resolver_to(address: str, calls: list[str] | None = None):
    async def resolve(host: str, port: int) -> Sequence[str]:
        if calls is not None:
            calls.append(host)
        if host != HOOK_HOST:
            raise OSError(-2, "Name or service not known")
        return [address]

    return resolve


def hook_url(server: HTTPServer, path: str) -> str:
    return f"https://{HOOK_HOST}:{server.port}{path}"


@pytest.fixture
async def client(ca: trustme.CA) -> DeliveryClient:
    delivery_client = DeliveryClient(
        allow_loopback=True, ssl_context=client_context(ca), resolver=resolver_to("127.0.0.1")
    )
    yield delivery_client
    await delivery_client.aclose()


async def test_signed_delivery_verifies_with_standardwebhooks(
    receiver: HTTPServer, client: DeliveryClient
) -> None:
    secret = new_signing_secret()
    body = b'{"id":"evt_1","type":"horoscope.daily","data":{"sign":"leo"}}'
    received: list[tuple[bytes, dict[str, str]]] = []

    def handler(request: Request) -> Response:
        received.append((request.get_data(), dict(request.headers)))
        return Response("thanks", status=200)

    receiver.expect_oneshot_request("/hooks/in", method="POST").respond_with_handler(handler)
    headers = sign_headers([secret], new_message_id(), int(time.time()), body)
    result = await client.post(hook_url(receiver, "/hooks/in"), body, headers)

    assert result.succeeded, result
    assert result.status == 200
    assert result.response_body == "thanks"
    assert result.address == "127.0.0.1"
    assert result.duration_ms >= 0
    ((raw, got_headers),) = received
    assert raw == body
    assert got_headers["Host"] == f"{HOOK_HOST}:{receiver.port}"
    assert got_headers["Content-Type"] == "application/json"
    assert Webhook(secret).verify(raw, got_headers) == {
        "id": "evt_1",
        "type": "horoscope.daily",
        "data": {"sign": "leo"},
    }


async def test_rotation_signs_with_both_secrets(
    receiver: HTTPServer, client: DeliveryClient
) -> None:
    old, new = new_signing_secret(), new_signing_secret()
    received: list[tuple[bytes, dict[str, str]]] = []

    def handler(request: Request) -> Response:
        received.append((request.get_data(), dict(request.headers)))
        return Response(status=204)

    receiver.expect_oneshot_request("/rot").respond_with_handler(handler)
    body = b'{"ok":true}'
    result = await client.post(
        hook_url(receiver, "/rot"),
        body,
        sign_headers([new, old], new_message_id(), int(time.time()), body),
    )
    assert result.status == 204
    assert result.succeeded
    ((raw, got_headers),) = received
    assert len(got_headers["Webhook-Signature"].split(" ")) == 2
    Webhook(old).verify(raw, got_headers)
    Webhook(new).verify(raw, got_headers)


async def test_redirect_to_a_private_address_is_not_followed(
    receiver: HTTPServer, client: DeliveryClient
) -> None:
    receiver.expect_oneshot_request("/moved").respond_with_response(
        Response(status=302, headers={"Location": "https://10.0.0.1/steal"})
    )
    result = await client.post(hook_url(receiver, "/moved"), b"{}", {})
    assert result.status == 302
    assert not result.succeeded
    assert result.error == "redirect not followed"
    assert len(receiver.log) == 1


async def test_redirect_to_the_same_receiver_is_not_followed_either(
    receiver: HTTPServer, client: DeliveryClient
) -> None:
    receiver.expect_request("/moved").respond_with_response(
        Response(status=307, headers={"Location": hook_url(receiver, "/target")})
    )
    receiver.expect_request("/target").respond_with_data("reached")
    result = await client.post(hook_url(receiver, "/moved"), b"{}", {})
    assert (result.status, result.succeeded) == (307, False)
    assert [entry[0].path for entry in receiver.log] == ["/moved"]


async def test_non_2xx_is_a_failure_with_the_response_logged(
    receiver: HTTPServer, client: DeliveryClient
) -> None:
    receiver.expect_oneshot_request("/fail").respond_with_data("upstream broke", status=503)
    result = await client.post(hook_url(receiver, "/fail"), b"{}", {})
    assert (result.status, result.succeeded, result.gone) == (503, False, False)
    assert result.error == "HTTP 503"
    assert result.response_body == "upstream broke"


async def test_410_is_reported_as_gone(receiver: HTTPServer, client: DeliveryClient) -> None:
    receiver.expect_oneshot_request("/gone").respond_with_data("", status=410)
    result = await client.post(hook_url(receiver, "/gone"), b"{}", {})
    assert result.gone
    assert not result.succeeded


async def test_large_response_is_read_only_up_to_the_bound(
    receiver: HTTPServer, ca: trustme.CA
) -> None:
    receiver.expect_oneshot_request("/big").respond_with_data("x" * 2_000_000)
    small = DeliveryClient(
        allow_loopback=True,
        ssl_context=client_context(ca),
        resolver=resolver_to("127.0.0.1"),
        max_response_bytes=1024,
    )
    try:
        result = await small.post(hook_url(receiver, "/big"), b"{}", {})
    finally:
        await small.aclose()
    assert result.succeeded
    assert result.response_body == "x" * 1024


async def test_slow_receiver_times_out(receiver: HTTPServer, ca: trustme.CA) -> None:
    def slow(request: Request) -> Response:
        time.sleep(1.5)
        return Response("late")

    receiver.expect_oneshot_request("/slow").respond_with_handler(slow)
    quick = DeliveryClient(
        allow_loopback=True,
        ssl_context=client_context(ca),
        resolver=resolver_to("127.0.0.1"),
        timeout_s=0.3,
    )
    try:
        result = await quick.post(hook_url(receiver, "/slow"), b"{}", {})
    finally:
        await quick.aclose()
    assert result.status is None
    assert not result.succeeded
    assert result.error is not None
    assert "timeout" in result.error
    assert result.duration_ms < 1400


async def test_certificate_is_verified_for_the_host_name(
    receiver: HTTPServer, ca: trustme.CA
) -> None:
    """Connecting to the pinned IP must still check the certificate against the URL's host."""
    receiver.expect_request("/x").respond_with_data("never")
    other_name = "other.receiver.test"

    async def resolve(host: str, port: int) -> Sequence[str]:
        return ["127.0.0.1"]

    wrong = DeliveryClient(allow_loopback=True, ssl_context=client_context(ca), resolver=resolve)
    untrusted = DeliveryClient(
        allow_loopback=True, ssl_context=ssl.create_default_context(), resolver=resolve
    )
    try:
        mismatch = await wrong.post(f"https://{other_name}:{receiver.port}/x", b"{}", {})
        unknown_ca = await untrusted.post(hook_url(receiver, "/x"), b"{}", {})
    finally:
        await wrong.aclose()
        await untrusted.aclose()
    assert mismatch.status is None
    assert "certificate" in (mismatch.error or "").lower()
    assert unknown_ca.status is None
    assert "certificate" in (unknown_ca.error or "").lower()
    assert receiver.log == []


async def test_destination_is_checked_again_at_every_attempt(
    receiver: HTTPServer, ca: trustme.CA
) -> None:
    """A name that later resolves to a private address is refused before any connection."""
    answers = iter(["127.0.0.1", "10.0.0.7"])
    calls: list[str] = []

    async def rebinding(host: str, port: int) -> Sequence[str]:
        calls.append(host)
        return [next(answers)]

    receiver.expect_request("/hook").respond_with_data("ok")
    rebind = DeliveryClient(allow_loopback=True, ssl_context=client_context(ca), resolver=rebinding)
    try:
        first = await rebind.post(hook_url(receiver, "/hook"), b"{}", {})
        second = await rebind.post(hook_url(receiver, "/hook"), b"{}", {})
    finally:
        await rebind.aclose()
    assert first.succeeded
    assert second.status is None
    assert second.error is not None
    assert second.error.startswith("unsafe_destination:")
    assert "does not resolve to public addresses only" in second.error
    assert "10.0.0.7" not in second.error  # the resolver's answer is not shown to the customer
    assert calls == [HOOK_HOST, HOOK_HOST]
    assert len(receiver.log) == 1


async def test_loopback_needs_the_flag(receiver: HTTPServer, ca: trustme.CA) -> None:
    strict = DeliveryClient(ssl_context=client_context(ca), resolver=resolver_to("127.0.0.1"))
    try:
        result = await strict.post(hook_url(receiver, "/hook"), b"{}", {})
    finally:
        await strict.aclose()
    assert result.status is None
    assert result.error is not None
    assert "does not resolve to public addresses only" in result.error
    assert receiver.log == []


async def test_plain_http_is_refused_at_delivery(client: DeliveryClient) -> None:
    result = await client.post(f"http://{HOOK_HOST}/hook", b"{}", {})
    assert result.error == "unsafe_destination: the destination must use https"


def test_timestamp_header_is_seconds() -> None:
    headers = sign_headers([new_signing_secret()], "msg_1", 1_700_000_000, b"{}")
    assert headers["webhook-timestamp"] == "1700000000"
    assert datetime.fromtimestamp(int(headers["webhook-timestamp"]), UTC).year == 2023


async def test_concurrent_attempts_to_one_host_share_one_lookup(
    receiver: HTTPServer, ca: trustme.CA
) -> None:
    """Attempts starting while a lookup is in flight use its answer; a later attempt asks again."""
    calls: list[str] = []

    async def slow_dns(host: str, port: int) -> Sequence[str]:
        calls.append(host)
        await asyncio.sleep(0.2)
        return ["127.0.0.1"]

    receiver.expect_request("/hook").respond_with_data("ok")
    shared = DeliveryClient(allow_loopback=True, ssl_context=client_context(ca), resolver=slow_dns)
    try:
        burst = await asyncio.gather(
            *(shared.post(hook_url(receiver, "/hook"), b"{}", {}) for _ in range(5))
        )
        later = await shared.post(hook_url(receiver, "/hook"), b"{}", {})
    finally:
        await shared.aclose()
    assert [r.status for r in [*burst, later]] == [200] * 6
    assert calls == [HOOK_HOST, HOOK_HOST]


async def test_a_pool_in_use_is_not_closed_to_make_room(ca: trustme.CA) -> None:
    """With room for one idle pool, a second destination must not close the first under a
    request still running on it."""
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert(HOOK_HOST, "localhost").configure_cert(server_context)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=server_context, threaded=True)

    def slow(request: Request) -> Response:
        time.sleep(0.6)
        return Response("slow")

    server.expect_request("/slow").respond_with_handler(slow)
    server.expect_request("/fast").respond_with_data("fast")
    server.start()

    async def loopback(host: str, port: int) -> Sequence[str]:
        return ["127.0.0.1"]

    tight = DeliveryClient(
        allow_loopback=True, ssl_context=client_context(ca), resolver=loopback, max_pools=1
    )
    try:
        running = asyncio.create_task(
            tight.post(f"https://{HOOK_HOST}:{server.port}/slow", b"{}", {})
        )
        await asyncio.sleep(0.3)
        fast = await tight.post(f"https://localhost:{server.port}/fast", b"{}", {})
        slow_result = await running
    finally:
        await tight.aclose()
        server.clear()
        server.stop()
    assert (fast.status, fast.response_body) == (200, "fast")
    assert (slow_result.status, slow_result.response_body) == (200, "slow")


class KeepAliveReceiver:
    """An asyncio HTTPS/1.1 server; ``drop_second`` closes a connection on its second request
    without answering (as a server whose keep-alive timeout struck just then)."""

    def __init__(self, ca: trustme.CA, *, drop_second: bool = False) -> None:
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert(HOOK_HOST).configure_cert(self.context)
        self.drop_second = drop_second
        self.connections = 0
        self.requests = 0
        self.server: asyncio.Server | None = None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        served = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                self.requests += 1
                served += 1
                if self.drop_second and served == 2:
                    break
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def __aenter__(self) -> int:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0, ssl=self.context)
        return int(self.server.sockets[0].getsockname()[1])

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()


async def test_a_warm_connection_carries_the_next_attempts(ca: trustme.CA) -> None:
    receiver = KeepAliveReceiver(ca)
    async with receiver as port:
        client = DeliveryClient(
            allow_loopback=True, ssl_context=client_context(ca), resolver=resolver_to("127.0.0.1")
        )
        try:
            results = [
                await client.post(f"https://{HOOK_HOST}:{port}/hook", b"{}", {}) for _ in range(5)
            ]
        finally:
            await client.aclose()
    assert [(r.status, r.response_body) for r in results] == [(200, "ok")] * 5
    assert (receiver.connections, receiver.requests) == (1, 5)


async def test_a_reused_connection_closed_before_answering_is_retried_on_a_new_one(
    ca: trustme.CA,
) -> None:
    receiver = KeepAliveReceiver(ca, drop_second=True)
    async with receiver as port:
        client = DeliveryClient(
            allow_loopback=True, ssl_context=client_context(ca), resolver=resolver_to("127.0.0.1")
        )
        try:
            first = await client.post(f"https://{HOOK_HOST}:{port}/hook", b"{}", {})
            second = await client.post(f"https://{HOOK_HOST}:{port}/hook", b"{}", {})
        finally:
            await client.aclose()
    assert (first.status, second.status, second.error) == (200, 200, None)
    assert (receiver.connections, receiver.requests) == (2, 3)
