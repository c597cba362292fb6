"""Destination checks for outbound deliveries (server-side request forgery guard).

A destination is safe when it is an ``https`` URL whose host is, or resolves ONLY to, public unicast
addresses. The check runs when a subscription is created and again before every attempt; the
delivery client then connects to the address checked here, never resolving the name a second time
(no DNS-rebinding window).

Refused, with the reason in :class:`UnsafeDestination`:

* any scheme but ``https``; credentials in the URL; a missing or malformed host;
* numeric host spellings a resolver would accept: decimal ``2130706433``, octal ``0177.0.0.1``,
  hex ``0x7f.1``, short forms ``127.1`` (all decoded the way ``inet_aton`` does, then checked);
* IPv6 literals with a zone id; IPv4-mapped (``::ffff:a.b.c.d``) and IPv4-compatible
  (``::a.b.c.d``) addresses always; Teredo (``2001::/32``, inside the reserved ``2001::/23``)
  always; NAT64 (``64:ff9b::/96``, ``64:ff9b:1::/48``) and 6to4 (``2002::/16``) forms whose
  embedded IPv4 address is not public;
* names that only exist inside a network: single labels, ``localhost``, ``*.localhost``,
  ``*.local``, ``*.internal``, ``*.home.arpa``, and the cloud metadata names;
* addresses that are loopback, private (RFC 1918, ULA), link-local, shared (RFC 6598),
  multicast, reserved, unspecified, documentation, benchmarking, or a cloud metadata endpoint
  (``169.254.169.254``, ``fd00:ec2::254``, ``100.100.100.200``, ``192.0.0.192``).

The address tables are written out from the IANA special-purpose registries rather than taken
from :mod:`ipaddress` flags, whose meaning changed between Python releases (``::127.0.0.1`` and
``64:ff9b::7f00:1`` are "global" on 3.11). IPv6 must lie in ``2000::/3``, the only block IANA
allocates for global unicast.

``allow_loopback`` (the ``allow_loopback_destinations`` setting, for tests) lets loopback addresses
and ``localhost`` through; nothing else is relaxed by it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]


class UnsafeDestination(Exception):
    """The destination may not receive deliveries; ``reason`` says why (safe to show clients);
    ``detail``, for operators only (logs), also says what the resolver answered."""

    code = "unsafe_destination"

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail or reason


@dataclass(frozen=True, slots=True)
class CheckedDestination:
    """A destination that passed the check: connect to ``addresses`` (in order), not to ``host``."""

    url: str
    host: str
    port: int
    addresses: tuple[str, ...]


# (network, reason) pairs, most specific first where they overlap.
_IPV4_BLOCKED: tuple[tuple[ipaddress.IPv4Network, str], ...] = tuple(
    (ipaddress.IPv4Network(net), reason)
    for net, reason in (
        ("169.254.169.254/32", "a cloud metadata address"),
        ("100.100.100.200/32", "a cloud metadata address"),
        ("192.0.0.192/32", "a cloud metadata address"),
        ("0.0.0.0/32", "the unspecified address"),
        ("0.0.0.0/8", "a reserved address ('this network')"),
        ("10.0.0.0/8", "a private address"),
        ("100.64.0.0/10", "a shared address (RFC 6598 carrier-grade NAT)"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "a reserved address (IETF protocol assignments)"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.31.196.0/24", "a reserved address (AS112)"),
        ("192.52.193.0/24", "a reserved address (AMT)"),
        ("192.88.99.0/24", "a reserved address (6to4 relay anycast)"),
        ("192.168.0.0/16", "a private address"),
        ("192.175.48.0/24", "a reserved address (AS112)"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("255.255.255.255/32", "the broadcast address"),
        ("240.0.0.0/4", "a reserved address"),
    )
)

_IPV6_BLOCKED: tuple[tuple[ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.IPv6Network(net), reason)
    for net, reason in (
        ("fd00:ec2::254/128", "a cloud metadata address"),
        ("::/128", "the unspecified address"),
        ("::1/128", "a loopback address"),
        ("::ffff:0:0/96", "an IPv4-mapped IPv6 address"),
        ("::/96", "an IPv4-compatible IPv6 address"),
        ("100::/64", "a reserved address (discard-only)"),
        ("2001:2::/48", "a benchmarking address"),
        ("2001:db8::/32", "a documentation address"),
        ("3fff::/20", "a documentation address"),
        ("2001::/23", "a reserved address (IETF protocol assignments)"),
        ("5f00::/16", "a reserved address (SRv6 SIDs)"),
        ("fc00::/7", "a private address (unique local)"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a reserved address (site-local)"),
        ("ff00::/8", "a multicast address"),
    )
)
_IPV6_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))

_METADATA_NAMES = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.azure.internal",
    }
)
_LOCAL_SUFFIXES = (".local", ".internal", ".home.arpa", ".localdomain", ".intranet", ".lan")
_LOOPBACK_V4 = ipaddress.IPv4Network("127.0.0.0/8")
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def address_refusal(address: IPAddress, *, allow_loopback: bool = False) -> str | None:
    """Why ``address`` may not be connected to, or None when it is public unicast."""
    if isinstance(address, ipaddress.IPv4Address):
        if allow_loopback and address in _LOOPBACK_V4:
            return None
        for net, reason in _IPV4_BLOCKED:
            if address in net:
                return reason
        return None
    if address.scope_id:
        return "an IPv6 address with a zone id"
    if allow_loopback and address == ipaddress.IPv6Address("::1"):
        return None
    for net6, reason in _IPV6_BLOCKED:
        if address in net6:
            return reason
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        inner = address_refusal(embedded, allow_loopback=False)
        if inner is not None:
            return f"an IPv6 address embedding {embedded}, {inner}"
        return None
    if address not in _IPV6_GLOBAL_UNICAST:
        return "a reserved address (outside IPv6 global unicast 2000::/3)"
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a translation form (NAT64, 6to4) would reach."""
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    return None


def parse_ipv4_numeric(host: str) -> ipaddress.IPv4Address | None:
    """Decode the legacy ``inet_aton`` spellings of an IPv4 address, or None if not numeric.

    One to four parts, each decimal, octal (leading 0) or hex (``0x``); the last part fills the
    remaining bytes: ``2130706433``, ``0177.0.0.1``, ``0x7f.1`` and ``127.1`` all mean 127.0.0.1.
    Raises :class:`UnsafeDestination` for numeric-looking hosts that decode to nothing valid.
    """
    parts = host.split(".")
    if parts and parts[-1] == "":
        parts.pop()
    if not parts or not all(_NUMERIC_LABEL.match(p) for p in parts):
        return None
    if len(parts) > 4:
        raise UnsafeDestination("the host is a malformed numeric address")
    values: list[int] = []
    for part in parts:
        try:
            if part.startswith("0x"):
                values.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                values.append(int(part, 8))
            else:
                values.append(int(part, 10))
        except ValueError:
            raise UnsafeDestination("the host is a malformed numeric address") from None
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (4 - len(head)):
        raise UnsafeDestination("the host is a numeric address out of range")
    number = 0
    for v in head:
        number = number * 256 + v
    number = (number << (8 * (4 - len(head)))) | last
    return ipaddress.IPv4Address(number)


def _split_https(url: str) -> tuple[SplitResult, str, int]:
    if not isinstance(url, str) or len(url) > 2048:
        raise UnsafeDestination("the destination must be a URL of at most 2048 characters")
    if any(ch.isspace() or ord(ch) < 0x20 or ch == "\\" for ch in url):
        raise UnsafeDestination("the destination contains whitespace, control characters or '\\'")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeDestination(f"the destination is not a valid URL ({exc})") from None
    if parts.scheme.lower() != "https":
        raise UnsafeDestination("the destination must use https")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise UnsafeDestination("the destination must not contain credentials")
    host = (parts.hostname or "").lower()
    if not host:
        raise UnsafeDestination("the destination has no host")
    if port == 0:
        raise UnsafeDestination("the destination port 0 is not valid")
    return parts, host, port or 443


def _literal_address(parts: SplitResult, host: str) -> IPAddress | None:
    netloc_host = parts.netloc.rsplit("@", 1)[-1]
    if netloc_host.startswith("["):
        if "%" in host:
            raise UnsafeDestination("the destination is an IPv6 address with a zone id")
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise UnsafeDestination("the destination host is a malformed IPv6 address") from None
    return parse_ipv4_numeric(host)


def _ascii_host(host: str) -> str:
    if host.isascii():
        ascii_host = host
    else:
        try:
            import idna

            ascii_host = idna.encode(host, uts46=True).decode("ascii")
        except Exception:
            raise UnsafeDestination("the destination host is not a valid domain name") from None
    ascii_host = ascii_host.rstrip(".")
    labels = ascii_host.split(".")
    if len(ascii_host) > 253 or not all(_HOST_LABEL.match(label) for label in labels):
        raise UnsafeDestination("the destination host is not a valid domain name")
    return ascii_host


def _name_refusal(name: str, *, allow_loopback: bool) -> str | None:
    if name in _METADATA_NAMES:
        return "a cloud metadata host name"
    if name == "localhost" or name.endswith(".localhost"):
        return None if allow_loopback else "a loopback host name"
    if "." not in name:
        return "a single-label host name, resolved only inside a network"
    if name.endswith(_LOCAL_SUFFIXES):
        return "a host name reserved for local networks"
    # A last label made of digits would be read as an IPv4 part by browsers and resolvers.
    if _NUMERIC_LABEL.match(name.rsplit(".", 1)[-1]):
        return "a host name whose last label is numeric"
    return None


def check_url_syntax(
    url: str, *, allow_loopback: bool = False
) -> tuple[str, int, IPAddress | None]:
    """Check everything that needs no DNS: returns ``(host, port, literal address or None)``;
    the host is the address's standard text or the IDNA ASCII name."""
    _parts, host, port, literal = _checked_syntax(url, allow_loopback=allow_loopback)
    return host, port, literal


def _checked_syntax(
    url: str, *, allow_loopback: bool
) -> tuple[SplitResult, str, int, IPAddress | None]:
    parts, host, port = _split_https(url)
    literal = _literal_address(parts, host)
    if literal is not None:
        reason = address_refusal(literal, allow_loopback=allow_loopback)
        if reason is not None:
            raise UnsafeDestination(f"the destination host {host} is {reason}")
        if literal.version == 4 and host.rstrip(".") != str(literal):
            # 1572395042, 0x5d.0xb8.0xd8.0x22, 93.184.55338: legal to inet_aton, unreadable to
            # people and to other tools; refused even when the address is public.
            raise UnsafeDestination(
                f"the destination host {host} is a numeric encoding of an IPv4 address; "
                f"write it as {literal}"
            )
        return parts, str(literal), port, literal
    name = _ascii_host(host)
    reason = _name_refusal(name, allow_loopback=allow_loopback)
    if reason is not None:
        raise UnsafeDestination(f"the destination host {name} is {reason}")
    return parts, name, port, None


async def system_resolver(host: str, port: int) -> Sequence[str]:
    """Resolve with the system resolver (``getaddrinfo`` in the loop's thread pool)."""
    infos = await asyncio.get_running_loop().getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )
    return [str(info[4][0]) for info in infos]


async def check_destination(
    url: str, *, allow_loopback: bool = False, resolver: Resolver | None = None
) -> CheckedDestination:
    """Check ``url`` and resolve its host; refuse if ANY resolved address is not public.

    Raises :class:`UnsafeDestination`. Resolution failures are refusals too (a destination that
    does not resolve cannot be checked). Every refusal after resolution says the same thing and
    names no address: the client must not learn what this server's resolver answers (an
    internal name resolving to 10.x would otherwise be told apart from one that does not exist).
    """
    host, port, literal = check_url_syntax(url, allow_loopback=allow_loopback)
    if literal is not None:
        return CheckedDestination(url, host, port, (str(literal),))
    resolve = resolver or system_resolver
    try:
        raw = await resolve(host, port)
    except (OSError, UnicodeError) as exc:
        raise UnsafeDestination(_unresolvable(host), f"{host} does not resolve ({exc})") from None
    addresses: list[str] = []
    for text in raw:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise UnsafeDestination(_unresolvable(host), f"{host} resolved to {text!r}") from None
        reason = address_refusal(address, allow_loopback=allow_loopback)
        if reason is not None:
            raise UnsafeDestination(_unresolvable(host), f"{host} resolves to {address}, {reason}")
        if str(address) not in addresses:
            addresses.append(str(address))
    if not addresses:
        raise UnsafeDestination(_unresolvable(host))
    return CheckedDestination(url, host, port, tuple(addresses))


def _unresolvable(host: str) -> str:
    return f"the destination host {host} does not resolve to public addresses only"


def canonical_url(url: str) -> str:
    """The one spelling of a destination that passed :func:`check_url_syntax`, stored and
    compared for duplicates: lower-case scheme and host (IDNA ASCII form), no default port
    443, ``/`` for an empty path, no empty query and no fragment (never sent to a server), so
    ``HTTPS://Hooks.Example.com:443/in#x`` and ``https://hooks.example.com/in`` are one."""
    parts, host, port, literal = _checked_syntax(url, allow_loopback=True)
    shown = f"[{host}]" if literal is not None and literal.version == 6 else host
    netloc = shown if port == 443 else f"{shown}:{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"https://{netloc}{parts.path or '/'}{query}"
