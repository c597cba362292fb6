"""The delivery HTTP client: one POST per attempt to a checked, pinned address.

Each attempt checks the destination again (:func:`check_destination`) and connects only to the
addresses that check returned: the socket is opened to the checked IP address, never to the host
name, so a DNS answer that changes between the check and the connect (rebinding) cannot redirect
the request. TLS still uses the URL's host name for SNI and for certificate verification
(``server_hostname``).

The client never follows redirects (a 3xx is recorded as a failed attempt), gives the whole
attempt ``timeout_s`` (15 s by default: resolution, connect, TLS handshake, request and answer),
and reads at most ``max_response_bytes`` of the answer.

It speaks HTTP/1.1 itself, with :mod:`h11` over asyncio's own TLS streams: a general-purpose
client cost about 30 times more CPU per request here (httpcore's pool scans every connection
for every queued request, and asks for ``sniffio`` on every lock), which made the client, not
the network or the receiver, the limit of a worker.

``loopback_trust_file`` (local webhook development, embedded mode only) adds the certificate
``astro-server webhook-listen`` made to the trust store for loopback addresses only; every other
destination is verified against the system's store alone.

Throughput (many attempts to one receiver at once): attempts that start while a lookup of the
same host is in flight share its answer (single flight, no cache: an attempt that starts after
the answer arrived asks again), and each attempt still runs the full address check on the
addresses it uses. Warm TLS connections are kept per destination and checked address set (up
to ``max_connections``), so a burst does not pay a handshake per attempt. A connection idle for
:data:`KEEPALIVE_S` is not reused; one the receiver closed while idle is replaced, and a request
that finds its reused connection closed before any answer is sent once more on a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import ssl
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import h11
import httpx

from astro_server.platform.delivery.ssrf import (
    CheckedDestination,
    Resolver,
    UnsafeDestination,
    check_destination,
    system_resolver,
)

log = logging.getLogger(__name__)
USER_AGENT = "astro-webhooks/1.0"
DEFAULT_TIMEOUT_S = 15.0
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024
DEFAULT_MAX_CONNECTIONS = 64
LOGGED_BODY_CHARS = 2048
# Shorter than common server keep-alive timeouts (Node.js: 5 s), so the receiver rarely closes
# a connection just as we reuse it.
KEEPALIVE_S = 4.0
_READ_BYTES = 65_536


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """What one delivery attempt produced. ``status`` is None when no response arrived."""

    status: int | None
    duration_ms: int
    response_body: str
    error: str | None
    address: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and self.error is None

    @property
    def gone(self) -> bool:
        """HTTP 410: the receiver asks us to stop delivering."""
        return self.status == 410


class _StaleConnection(Exception):
    """A reused connection turned out closed before any byte of an answer arrived."""


class _Connection:
    """One HTTP/1.1 connection over TLS to a checked address."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str):
        self.reader = reader
        self.writer = writer
        self.address = address
        self.protocol = h11.Connection(our_role=h11.CLIENT)
        self.idle_since = time.monotonic()
        self.reused = False

    def reusable(self, now: float) -> bool:
        return (
            self.protocol.our_state is h11.IDLE
            and not self.reader.at_eof()
            and not self.writer.is_closing()
            and now - self.idle_since < KEEPALIVE_S
        )

    def close(self) -> None:
        # No TLS close_notify exchange: nothing is left pending on the event loop.
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    async def post(
        self,
        target: bytes,
        headers: list[tuple[str, str]],
        body: bytes,
        max_bytes: int,
        method: str = "POST",
        declared_max: int | None = None,
    ) -> tuple[int, bytes]:
        """Send the request; return the status and at most ``max_bytes`` of the body. With
        ``declared_max``, an answer whose ``Content-Length`` exceeds it raises
        :class:`ResponseTooLarge` before any of its body is read."""
        protocol = self.protocol
        wire = protocol.send(h11.Request(method=method, target=target, headers=headers))
        if body:
            wire += protocol.send(h11.Data(data=body))
        wire += protocol.send(h11.EndOfMessage())
        received = bytearray()
        status: int | None = None
        try:
            self.writer.write(wire)  # one TLS record run, one syscall for headers and body
            await self.writer.drain()
            while True:
                event = protocol.next_event()
                if event is h11.NEED_DATA:
                    data = await self.reader.read(_READ_BYTES)
                    if not data and status is None and self.reused:
                        raise _StaleConnection
                    protocol.receive_data(data)
                elif isinstance(event, h11.Response):
                    status = event.status_code
                    if declared_max is not None and _content_length(event) > declared_max:
                        raise ResponseTooLarge(status)
                elif isinstance(event, h11.Data):
                    received += event.data
                    if len(received) >= max_bytes:
                        break  # the rest is not read: the connection is not reused
                elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                    break
                # h11.InformationalResponse (1xx): wait for the final answer.
        except (ConnectionResetError, BrokenPipeError) as exc:
            if status is None and self.reused:
                raise _StaleConnection from exc
            raise
        if status is None:
            raise h11.RemoteProtocolError("the connection closed before an answer")
        return status, bytes(received[:max_bytes])

    def finish_cycle(self) -> bool:
        """Make the connection ready for another request; False when it cannot be."""
        protocol = self.protocol
        if protocol.our_state is h11.DONE and protocol.their_state is h11.DONE:
            protocol.start_next_cycle()
            self.idle_since = time.monotonic()
            self.reused = True
            return True
        return False


@dataclass(slots=True)
class _Pool:
    """Connections to one (host, port, checked addresses), for one event loop."""

    destination: CheckedDestination
    loop: asyncio.AbstractEventLoop
    slots: asyncio.Semaphore
    idle: list[_Connection] = field(default_factory=list)
    in_use: int = 0

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()


def default_ssl_context() -> ssl.SSLContext:
    """The system trust store (honours ``SSL_CERT_FILE``), or certifi's when the system has none."""
    context = ssl.create_default_context()
    if context.cert_store_stats().get("x509_ca", 0) == 0:
        import certifi

        context.load_verify_locations(certifi.where())
    return context


def _host_header(destination: CheckedDestination) -> str:
    host = f"[{destination.host}]" if ":" in destination.host else destination.host
    return host if destination.port == 443 else f"{host}:{destination.port}"


class DeliveryClient:
    """Sends delivery attempts. One instance per worker process; call :meth:`aclose` at exit.

    Connection pools are kept per (host, port, checked addresses): a later attempt reuses a warm
    TLS connection only when its own fresh check returned the same addresses. At most
    ``max_pools`` pools are kept (least recently used closed first; a pool an attempt is using
    is never closed under it).
    """

    def __init__(
        self,
        *,
        allow_loopback: bool = False,
        loopback_trust_file: Path | None = None,
        ssl_context: ssl.SSLContext | None = None,
        resolver: Resolver | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        max_pools: int = 256,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self.allow_loopback = allow_loopback
        self.loopback_trust_file = loopback_trust_file
        self.ssl_context = ssl_context or default_ssl_context()
        self.resolver = resolver
        self.timeout_s = timeout_s
        self.max_response_bytes = max_response_bytes
        self.max_connections = max_connections
        self._max_pools = max_pools
        self._pools: OrderedDict[tuple[str, int, tuple[str, ...]], _Pool] = OrderedDict()
        self._resolving: dict[tuple[str, int], asyncio.Task[Sequence[str]]] = {}

    async def aclose(self) -> None:
        pools = list(self._pools.values())
        self._pools.clear()
        for pool in pools:
            pool.close()

    async def _resolve(self, host: str, port: int) -> Sequence[str]:
        """The host's addresses: attempts starting while a lookup is in flight share it."""
        key = (host, port)
        lookup = self._resolving.get(key)
        if lookup is None or lookup.get_loop() is not asyncio.get_running_loop():
            lookup = asyncio.ensure_future((self.resolver or system_resolver)(host, port))
            self._resolving[key] = lookup
            lookup.add_done_callback(lambda done: self._lookup_done(key, done))
        return await asyncio.shield(lookup)

    def _lookup_done(self, key: tuple[str, int], lookup: asyncio.Task[Sequence[str]]) -> None:
        if self._resolving.get(key) is lookup:
            del self._resolving[key]
        if not lookup.cancelled():
            lookup.exception()  # retrieved here too, in case every waiter was cancelled

    def _pool_for(self, destination: CheckedDestination) -> _Pool:
        key = (destination.host, destination.port, destination.addresses)
        loop = asyncio.get_running_loop()
        found = self._pools.get(key)
        if found is not None and found.loop is loop:
            self._pools.move_to_end(key)
            return found
        pool = self._pools[key] = _Pool(destination, loop, asyncio.Semaphore(self.max_connections))
        self._pools.move_to_end(key)
        if len(self._pools) > self._max_pools:
            idle = [k for k, p in self._pools.items() if p.in_use == 0 and k != key]
            for old_key in idle[: len(self._pools) - self._max_pools]:
                self._pools.pop(old_key).close()
        return pool

    def _context_for(self, address: str) -> ssl.SSLContext:
        """The TLS context for one checked address: the system's trust store, and for a
        loopback address also the ``webhook-listen`` certificate when one is configured
        (``ASTRO_LOCAL_WEBHOOKS``, embedded mode only). Read afresh for each connection: the
        listener makes a new certificate each time it starts."""
        trust = self.loopback_trust_file
        if trust is None or not ipaddress.ip_address(address).is_loopback or not trust.is_file():
            return self.ssl_context
        context = default_ssl_context()
        context.load_verify_locations(cafile=str(trust))
        return context

    async def _connect(self, destination: CheckedDestination) -> _Connection:
        """A new TLS connection to the first checked address that answers."""
        last_error: OSError | None = None
        for address in destination.addresses:
            try:
                reader, writer = await asyncio.open_connection(
                    address,
                    destination.port,
                    ssl=self._context_for(address),
                    server_hostname=destination.host,
                    ssl_handshake_timeout=self.timeout_s,
                )
            except ssl.SSLError:
                raise  # the address answered: a certificate problem is not an address problem
            except OSError as exc:
                last_error = exc
                continue
            return _Connection(reader, writer, address)
        raise last_error or OSError("no address to connect to")

    async def _send(
        self,
        pool: _Pool,
        target: bytes,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        method: str = "POST",
        max_bytes: int | None = None,
        declared_max: int | None = None,
    ) -> tuple[int, bytes, str]:
        limit = self.max_response_bytes if max_bytes is None else max_bytes
        connection = self._idle_connection(pool) or await self._connect(pool.destination)
        try:
            status, received = await connection.post(
                target, headers, body, limit, method, declared_max
            )
        except _StaleConnection:
            connection.close()
            connection = await self._connect(pool.destination)
            try:
                status, received = await connection.post(
                    target, headers, body, limit, method, declared_max
                )
            except BaseException:
                connection.close()
                raise
        except BaseException:
            connection.close()  # cut off mid-request (an error, the timeout): never reused
            raise
        if connection.finish_cycle():
            pool.idle.append(connection)
        else:
            connection.close()
        return status, received, connection.address

    @staticmethod
    def _idle_connection(pool: _Pool) -> _Connection | None:
        now = time.monotonic()
        while pool.idle:
            connection = pool.idle.pop()  # the most recently used: the least likely closed
            if connection.reusable(now):
                return connection
            connection.close()
        return None

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> AttemptResult:
        """POST ``body`` to ``url``; never raises for network or HTTP failures."""
        started = time.perf_counter()

        def elapsed_ms() -> int:
            return round((time.perf_counter() - started) * 1000)

        try:
            async with asyncio.timeout(self.timeout_s):
                destination = await check_destination(
                    url, allow_loopback=self.allow_loopback, resolver=self._resolve
                )
                pool = self._pool_for(destination)
                request_headers = [
                    ("Host", _host_header(destination)),
                    ("User-Agent", USER_AGENT),
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(body))),
                    *headers.items(),
                ]
                target = httpx.URL(url).raw_path  # percent-encoded path and query
                pool.in_use += 1
                try:
                    async with pool.slots:
                        status, received, address = await self._send(
                            pool, target, request_headers, body
                        )
                finally:
                    pool.in_use -= 1
        except UnsafeDestination as exc:
            # The attempt record is shown to the customer: the resolver's answer is logged only.
            log.warning("delivery destination refused: %s", exc.detail)
            return AttemptResult(None, elapsed_ms(), "", f"unsafe_destination: {exc.reason}")
        except TimeoutError:
            return AttemptResult(None, elapsed_ms(), "", f"timeout after {self.timeout_s:g} s")
        except (h11.ProtocolError, ssl.SSLError, OSError, EOFError) as exc:
            kind = type(exc).__name__
            return AttemptResult(None, elapsed_ms(), "", f"{kind}: {exc}"[:500])
        text = received.decode("utf-8", "replace")[:LOGGED_BODY_CHARS]
        error = None
        if 300 <= status < 400:
            error = "redirect not followed"
        elif not 200 <= status < 300:
            error = f"HTTP {status}"
        return AttemptResult(status, elapsed_ms(), text, error, address)


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What :meth:`DeliveryClient.fetch` got: the body (complete unless ``too_large``), or an
    error (``unsafe_destination: ...``, a timeout, a network error, a redirect, an HTTP status)."""

    status: int | None
    body: bytes
    error: str | None
    too_large: bool = False


class ResponseTooLarge(Exception):
    """The answer's ``Content-Length`` is over the caller's limit (its body is not read)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _content_length(response: h11.Response) -> int:
    for name, value in response.headers:
        if name == b"content-length":
            return int(value)  # h11 has checked it is a valid length
    return 0


async def fetch(
    client: DeliveryClient, url: str, *, max_bytes: int, timeout_s: float
) -> FetchResult:
    """GET ``url`` under the delivery client's rules: https only, the destination checked and
    pinned (public addresses only, unless the client allows loopback for tests), no redirects
    followed, the whole fetch within ``timeout_s``, at most ``max_bytes`` read (one more byte
    tells ``too_large``; so does a ``Content-Length`` over it, before any of the body is read).
    Used for brand logos, which are fetched once when saved."""
    try:
        async with asyncio.timeout(timeout_s):
            destination = await check_destination(
                url, allow_loopback=client.allow_loopback, resolver=client._resolve
            )
            pool = client._pool_for(destination)
            headers = [
                ("Host", _host_header(destination)),
                ("User-Agent", USER_AGENT),
                ("Accept", "image/png, image/jpeg, image/svg+xml"),
            ]
            pool.in_use += 1
            try:
                async with pool.slots:
                    status, received, _address = await client._send(
                        pool,
                        httpx.URL(url).raw_path,
                        headers,
                        b"",
                        method="GET",
                        max_bytes=max_bytes + 1,
                        declared_max=max_bytes,
                    )
            finally:
                pool.in_use -= 1
    except ResponseTooLarge as exc:
        return FetchResult(exc.status, b"", f"larger than {max_bytes} bytes", too_large=True)
    except UnsafeDestination as exc:
        log.warning("fetch destination refused: %s", exc.detail)
        return FetchResult(None, b"", f"unsafe_destination: {exc.reason}")
    except TimeoutError:
        return FetchResult(None, b"", f"timeout after {timeout_s:g} s")
    except (h11.ProtocolError, ssl.SSLError, OSError, EOFError) as exc:
        return FetchResult(None, b"", f"{type(exc).__name__}: {exc}"[:500])
    if 300 <= status < 400:
        return FetchResult(status, b"", "redirect not followed")
    if not 200 <= status < 300:
        return FetchResult(status, b"", f"HTTP {status}")
    if len(received) > max_bytes:
        return FetchResult(status, b"", f"larger than {max_bytes} bytes", too_large=True)
    return FetchResult(status, received, None)
