"""The delivery HTTP client: one POST per attempt to a checked, pinned address.

Each attempt checks the destination again (:func:`check_destination`) and connects to the
addresses that check returned: the network backend below ignores the host name httpcore hands it
and dials the pinned address, so a DNS answer that changes between the check and the connect
(rebinding) cannot redirect the request. TLS still uses the URL's host name for SNI and for
certificate verification, because httpcore passes the origin host as ``server_hostname``.

The client never follows redirects (httpcore has no redirect logic; a 3xx is recorded as a failed
attempt), gives the whole attempt ``timeout_s`` (15 s by default, resolution included), and reads
at most ``max_response_bytes`` of the answer.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import httpcore
import httpx

from astro_server.services.delivery.ssrf import (
    CheckedDestination,
    Resolver,
    UnsafeDestination,
    check_destination,
)

USER_AGENT = "astro-webhooks/1.0"
DEFAULT_TIMEOUT_S = 15.0
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024
LOGGED_BODY_CHARS = 2048


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


class _PinnedBackend(httpcore.AsyncNetworkBackend):
    """Dials the checked addresses whatever host name the connection asks for."""

    def __init__(self, destination: CheckedDestination) -> None:
        self._destination = destination
        self._inner = httpcore.AnyIOBackend()
        self.connected_address: str | None = None

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        if host != self._destination.host or port != self._destination.port:
            raise httpcore.ConnectError(f"refusing to connect to unchecked origin {host}:{port}")
        last_error: Exception | None = None
        for address in self._destination.addresses:
            try:
                stream = await self._inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last_error = exc
                continue
            self.connected_address = address
            return stream
        raise httpcore.ConnectError(str(last_error or "no address to connect to"))

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("unix sockets are not delivery destinations")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def default_ssl_context() -> ssl.SSLContext:
    """The system trust store (honours ``SSL_CERT_FILE``), or certifi's when the system has none."""
    context = ssl.create_default_context()
    if context.cert_store_stats().get("x509_ca", 0) == 0:
        import certifi

        context.load_verify_locations(certifi.where())
    return context


def _pinned_url(url: str, destination: CheckedDestination) -> httpcore.URL:
    """The request URL with the host spelled exactly as checked (normalised, IDNA-encoded)."""
    return httpcore.URL(
        scheme=b"https",
        host=destination.host.encode("ascii"),
        port=destination.port,
        target=httpx.URL(url).raw_path,  # percent-encoded path and query
    )


def _host_header(destination: CheckedDestination) -> str:
    host = f"[{destination.host}]" if ":" in destination.host else destination.host
    return host if destination.port == 443 else f"{host}:{destination.port}"


class DeliveryClient:
    """Sends delivery attempts. One instance per worker process; call :meth:`aclose` at exit.

    Connection pools are kept per (host, port, checked addresses): a later attempt reuses a warm
    TLS connection only when its own fresh check returned the same addresses.
    """

    def __init__(
        self,
        *,
        allow_loopback: bool = False,
        ssl_context: ssl.SSLContext | None = None,
        resolver: Resolver | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        max_pools: int = 256,
    ) -> None:
        self.allow_loopback = allow_loopback
        self.ssl_context = ssl_context or default_ssl_context()
        self.resolver = resolver
        self.timeout_s = timeout_s
        self.max_response_bytes = max_response_bytes
        self._max_pools = max_pools
        self._pools: OrderedDict[
            tuple[str, int, tuple[str, ...]], tuple[httpcore.AsyncConnectionPool, _PinnedBackend]
        ] = OrderedDict()

    async def aclose(self) -> None:
        pools = list(self._pools.values())
        self._pools.clear()
        for pool, _ in pools:
            await pool.aclose()

    async def _pool_for(
        self, destination: CheckedDestination
    ) -> tuple[httpcore.AsyncConnectionPool, _PinnedBackend]:
        key = (destination.host, destination.port, destination.addresses)
        found = self._pools.get(key)
        if found is not None:
            self._pools.move_to_end(key)
            return found
        backend = _PinnedBackend(destination)
        pool = httpcore.AsyncConnectionPool(
            ssl_context=self.ssl_context,
            network_backend=backend,
            max_connections=20,
            max_keepalive_connections=4,
            keepalive_expiry=30.0,
        )
        self._pools[key] = (pool, backend)
        while len(self._pools) > self._max_pools:
            _, (old_pool, _) = self._pools.popitem(last=False)
            await old_pool.aclose()
        return pool, backend

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> AttemptResult:
        """POST ``body`` to ``url``; never raises for network or HTTP failures."""
        started = time.perf_counter()

        def elapsed_ms() -> int:
            return round((time.perf_counter() - started) * 1000)

        address: str | None = None
        try:
            async with asyncio.timeout(self.timeout_s):
                destination = await check_destination(
                    url, allow_loopback=self.allow_loopback, resolver=self.resolver
                )
                pool, backend = await self._pool_for(destination)
                request_headers = [
                    ("Host", _host_header(destination)),
                    ("User-Agent", USER_AGENT),
                    ("Content-Type", "application/json"),
                    *headers.items(),
                ]
                timeouts = dict.fromkeys(("connect", "read", "write", "pool"), self.timeout_s)
                async with pool.stream(
                    "POST",
                    _pinned_url(url, destination),
                    headers=request_headers,
                    content=body,
                    extensions={"timeout": timeouts},
                ) as response:
                    address = backend.connected_address
                    received = bytearray()
                    async for chunk in response.aiter_stream():
                        received.extend(chunk)
                        if len(received) >= self.max_response_bytes:
                            break
                    status = response.status
        except UnsafeDestination as exc:
            return AttemptResult(None, elapsed_ms(), "", f"unsafe_destination: {exc.reason}")
        except TimeoutError:
            return AttemptResult(None, elapsed_ms(), "", f"timeout after {self.timeout_s:g} s")
        except httpcore.TimeoutException as exc:
            return AttemptResult(None, elapsed_ms(), "", f"timeout: {exc or type(exc).__name__}")
        except (httpcore.NetworkError, httpcore.ProtocolError, ssl.SSLError, OSError) as exc:
            kind = type(exc).__name__
            return AttemptResult(None, elapsed_ms(), "", f"{kind}: {exc}"[:500], address)
        text = bytes(received[: self.max_response_bytes]).decode("utf-8", "replace")
        text = text[:LOGGED_BODY_CHARS]
        error = None
        if 300 <= status < 400:
            error = "redirect not followed"
        elif not 200 <= status < 300:
            error = f"HTTP {status}"
        return AttemptResult(status, elapsed_ms(), text, error, address)
