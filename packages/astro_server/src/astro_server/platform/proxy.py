"""Honour a trusted reverse proxy's forwarding headers (``ASTRO_TRUSTED_PROXIES``).

An ASGI middleware around the Quart app. When the connection's peer (``scope["client"]``) is in
one of the trusted networks, it rewrites the scope as the client saw the request:

* ``client``: from ``X-Forwarded-For`` (else the ``for=`` of ``Forwarded``, RFC 7239), read
  right to left, skipping addresses that are themselves trusted proxies; the first address that
  is not is the client (the entries left of it were written by the client and prove nothing).
  If every entry is a trusted proxy, the leftmost is taken. A value that is not an IP address
  (``unknown``, an obfuscated ``_node``, garbage) stops the walk at the hop that wrote it.
* ``scheme``: ``X-Forwarded-Proto`` (else ``proto=``), the rightmost value, i.e. the one the
  nearest proxy set; only ``http`` or ``https``.
* the ``Host`` header: ``X-Forwarded-Host`` (else ``host=``), the rightmost value, if it looks
  like a host name or address with an optional port.

Everything downstream reads these through Quart (``request.remote_addr``, ``request.scheme``,
``request.host_url``): rate limits, login throttling, the audit log's client address, logs,
``Secure`` cookies, signed URLs and links. Peers outside the trusted networks, and every peer
when none is configured, are left as they are: their headers are ignored. ``X-Forwarded-*``
take precedence over ``Forwarded`` when both are present; a proxy that sets only ``Forwarded``
must drop the client's ``X-Forwarded-*`` (the nginx and Caddy examples set ``X-Forwarded-*``).

hypercorn's ``ProxyFixMiddleware`` trusts a fixed number of hops from any peer, with no list of
trusted networks, and does not unquote ``Forwarded`` values, hence this one.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from astro_server.settings import IPNetwork

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_HOST: Final = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:[0-9]{1,5})?$")
_SCHEMES: Final = frozenset({"http", "https"})


def _address(value: str) -> Address | None:
    """An IP address from a forwarding header's entry: ``10.1.2.3``, ``10.1.2.3:4711``,
    ``[fd00::1]:4711`` or ``fd00::1``; None for anything else."""
    value = value.strip().strip('"')
    if value.startswith("["):
        value = value[1 : value.find("]")] if "]" in value else ""
    elif value.count(":") == 1:  # IPv4 with a port
        value = value.split(":", 1)[0]
    try:
        return ipaddress.ip_address(value.split("%", 1)[0])
    except ValueError:
        return None


def _split_list(values: Iterable[str]) -> list[str]:
    """Every comma-separated entry of every occurrence of a header, in order."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _forwarded_elements(values: Iterable[str]) -> list[dict[str, str]]:
    """RFC 7239 ``Forwarded``: elements (one per hop) of ``name=value`` pairs, values unquoted."""
    elements: list[dict[str, str]] = []
    for value in values:
        # Commas and semicolons inside quoted strings do not separate anything.
        for element in re.findall(r'(?:[^,"]|"(?:[^"\\]|\\.)*")+', value):
            pairs: dict[str, str] = {}
            for pair in re.findall(r'(?:[^;"]|"(?:[^"\\]|\\.)*")+', element):
                name, sep, raw = pair.partition("=")
                if sep:
                    raw = raw.strip()
                    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
                        raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
                    pairs[name.strip().lower()] = raw
            if pairs:
                elements.append(pairs)
    return elements


class TrustedProxyMiddleware:
    """Wraps an ASGI app; see the module's docstring for what it rewrites and when."""

    def __init__(self, app: Any, trusted: Sequence[IPNetwork]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    def is_trusted(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.trusted)

    def client_from(self, hops: Sequence[str]) -> str | None:
        """The client's address from a forwarding list (leftmost = furthest from us)."""
        chosen: str | None = None
        for entry in reversed(hops):
            address = _address(entry)
            if address is None:
                break
            chosen = str(address)
            if not self.is_trusted(address):
                break
        return chosen

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self.trusted:
            peer = scope.get("client")
            if peer and self.is_trusted(_address(str(peer[0]))):
                scope = self._rewritten(scope)
        await self.app(scope, receive, send)

    def _rewritten(self, scope: dict[str, Any]) -> dict[str, Any]:
        headers: list[tuple[bytes, bytes]] = list(scope.get("headers", ()))
        by_name: dict[bytes, list[str]] = {}
        for name, value in headers:
            by_name.setdefault(name.lower(), []).append(value.decode("latin-1"))
        hops = _split_list(by_name.get(b"x-forwarded-for", ()))
        protos = _split_list(by_name.get(b"x-forwarded-proto", ()))
        hosts = _split_list(by_name.get(b"x-forwarded-host", ()))
        if not (hops or protos or hosts) and b"forwarded" in by_name:
            elements = _forwarded_elements(by_name[b"forwarded"])
            hops = [e["for"] for e in elements if "for" in e]
            protos = [e["proto"] for e in elements if "proto" in e]
            hosts = [e["host"] for e in elements if "host" in e]
        scope = dict(scope)
        client = self.client_from(hops) if hops else None
        if client is not None:
            scope["client"] = (client, 0)
        if protos and protos[-1].lower() in _SCHEMES:
            scheme = protos[-1].lower()
            scope["scheme"] = (
                scheme if scope["type"] == "http" else {"http": "ws"}.get(scheme, "wss")
            )
        if hosts and _HOST.match(hosts[-1]):
            kept = [(n, v) for n, v in headers if n.lower() != b"host"]
            scope["headers"] = [*kept, (b"host", hosts[-1].encode("latin-1"))]
        return scope
