"""Destination checks: every unsafe form is refused, public destinations pass.

No test here touches the network: names are resolved by a fake resolver passed in.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import pytest

from astro_server.platform.delivery.ssrf import (
    UnsafeDestination,
    address_refusal,
    canonical_url,
    check_destination,
    check_url_syntax,
    parse_ipv4_numeric,
)


def fake_resolver(table: dict[str, Sequence[str]]):
    calls: list[str] = []

    async def resolve(host: str, port: int) -> Sequence[str]:
        calls.append(host)
        if host not in table:
            raise OSError(-2, "Name or service not known")
        return table[host]

    resolve.calls = calls  # type: ignore[attr-defined]
    return resolve


PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("10.0.0.1", "10.0.0.1"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("169.254.43518", "169.254.169.254"),
        ("127.0.0.1.", "127.0.0.1"),
    ],
)
def test_numeric_ipv4_spellings_decode_like_inet_aton(text: str, expected: str) -> None:
    assert parse_ipv4_numeric(text) == ipaddress.IPv4Address(expected)


def test_a_name_is_not_a_numeric_address() -> None:
    assert parse_ipv4_numeric("example.com") is None


UNSAFE_URLS = [
    # scheme and shape
    ("http://example.com/hook", "https"),
    ("ftp://example.com/hook", "https"),
    ("https://user:pw@example.com/hook", "credentials"),
    ("https:///hook", "no host"),
    ("https://exa mple.com/", "whitespace"),
    # loopback in every spelling
    ("https://127.0.0.1/hook", "loopback"),
    ("https://127.1/hook", "loopback"),
    ("https://2130706433/hook", "loopback"),
    ("https://0177.0.0.1/hook", "loopback"),
    ("https://0x7f.1/hook", "loopback"),
    ("https://0x7f000001/hook", "loopback"),
    ("https://[::1]/hook", "loopback"),
    ("https://localhost/hook", "loopback"),
    ("https://api.localhost/hook", "loopback"),
    # private, shared, link-local, unspecified
    ("https://10.1.2.3/", "private"),
    ("https://172.16.0.1/", "private"),
    ("https://192.168.1.1/", "private"),
    ("https://100.64.0.1/", "shared"),
    ("https://169.254.1.1/", "link-local"),
    ("https://0.0.0.0/", "unspecified"),
    ("https://0/", "unspecified"),
    ("https://[::]/", "unspecified"),
    ("https://[fe80::1]/", "link-local"),
    ("https://[fc00::1]/", "private"),
    ("https://[fd12:3456::1]/", "private"),
    # multicast, reserved, documentation, benchmarking, broadcast
    ("https://224.0.0.1/", "multicast"),
    ("https://239.255.255.250/", "multicast"),
    ("https://[ff02::1]/", "multicast"),
    ("https://240.0.0.1/", "reserved"),
    ("https://255.255.255.255/", "broadcast"),
    ("https://192.0.2.10/", "documentation"),
    ("https://198.51.100.7/", "documentation"),
    ("https://203.0.113.9/", "documentation"),
    ("https://[2001:db8::1]/", "documentation"),
    ("https://198.18.0.1/", "benchmarking"),
    ("https://198.19.255.1/", "benchmarking"),
    ("https://[2001:2::1]/", "benchmarking"),
    ("https://[100::1]/", "reserved"),
    ("https://[fec0::1]/", "reserved"),
    ("https://[4000::1]/", "reserved"),
    # cloud metadata
    ("https://169.254.169.254/latest/meta-data/", "metadata"),
    ("https://0xa9fea9fe/", "metadata"),
    ("https://2852039166/", "metadata"),
    ("https://[fd00:ec2::254]/", "metadata"),
    ("https://100.100.100.200/", "metadata"),
    ("https://metadata.google.internal/computeMetadata/v1/", "metadata"),
    ("https://metadata/", "metadata"),
    # IPv6 forms carrying an IPv4 address
    ("https://[::ffff:127.0.0.1]/", "IPv4-mapped"),
    ("https://[::ffff:7f00:1]/", "IPv4-mapped"),
    ("https://[::ffff:8.8.8.8]/", "IPv4-mapped"),
    ("https://[::127.0.0.1]/", "IPv4-compatible"),
    ("https://[64:ff9b::127.0.0.1]/", "embedding 127.0.0.1"),
    ("https://[64:ff9b::a9fe:a9fe]/", "metadata"),
    ("https://[64:ff9b:1::a00:1]/", "embedding 10.0.0.1"),
    ("https://[2002:7f00:1::1]/", "embedding 127.0.0.1"),
    ("https://[2002:c0a8:101::1]/", "embedding 192.168.1.1"),
    ("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "reserved"),  # Teredo
    ("https://[fe80::1%25eth0]/", "zone id"),
    # names that only exist inside a network
    ("https://intranet/", "single-label"),
    ("https://printer.local/", "local networks"),
    ("https://db.internal/", "local networks"),
    ("https://nas.home.arpa/", "local networks"),
    ("https://foo.123/", "numeric"),
    ("https://1.2.3.4.5/", "malformed numeric"),
    ("https://256.1.1.1/", "out of range"),
]


@pytest.mark.parametrize(("url", "why"), UNSAFE_URLS)
async def test_unsafe_destination_is_refused(url: str, why: str) -> None:
    resolver = fake_resolver({})
    with pytest.raises(UnsafeDestination) as info:
        await check_destination(url, resolver=resolver)
    assert why.lower() in info.value.reason.lower()
    assert info.value.code == "unsafe_destination"
    assert resolver.calls == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("resolved", "why"),
    [
        (["10.0.0.5"], "private"),
        (["127.0.0.1"], "loopback"),
        (["169.254.169.254"], "metadata"),
        (["::1"], "loopback"),
        (["::ffff:10.0.0.1"], "IPv4-mapped"),
        (["fd00:ec2::254"], "metadata"),
        ([PUBLIC_V4, "192.168.0.10"], "private"),  # ONE private answer among public ones
        ([PUBLIC_V6, "fe80::1"], "link-local"),
    ],
)
async def test_name_resolving_to_a_non_public_address_is_refused(
    resolved: list[str], why: str
) -> None:
    resolver = fake_resolver({"hooks.example.com": resolved})
    with pytest.raises(UnsafeDestination) as info:
        await check_destination("https://hooks.example.com/in", resolver=resolver)
    # The client is told only that the name is not usable: what this server's resolver answers
    # (an internal name resolving to 10.x) is for the operator's log.
    assert info.value.reason == (
        "the destination host hooks.example.com does not resolve to public addresses only"
    )
    assert why.lower() in info.value.detail.lower()


async def test_name_that_does_not_resolve_is_refused() -> None:
    with pytest.raises(UnsafeDestination, match="does not resolve"):
        await check_destination("https://nowhere.example.com/", resolver=fake_resolver({}))


async def test_public_name_passes_with_every_resolved_address() -> None:
    resolver = fake_resolver({"hooks.example.com": [PUBLIC_V4, PUBLIC_V6, PUBLIC_V4]})
    checked = await check_destination("https://Hooks.Example.com:8443/in?x=1", resolver=resolver)
    assert checked.host == "hooks.example.com"
    assert checked.port == 8443
    assert checked.addresses == (PUBLIC_V4, PUBLIC_V6)


async def test_public_literal_addresses_pass_without_resolving() -> None:
    resolver = fake_resolver({})
    v4 = await check_destination(f"https://{PUBLIC_V4}/", resolver=resolver)
    v6 = await check_destination(f"https://[{PUBLIC_V6}]/", resolver=resolver)
    nat64 = await check_destination("https://[64:ff9b::808:808]/", resolver=resolver)
    assert v4.addresses == (PUBLIC_V4,)
    assert v6.addresses == (PUBLIC_V6,)
    assert nat64.addresses == ("64:ff9b::808:808",)
    assert resolver.calls == []  # type: ignore[attr-defined]


async def test_international_name_is_checked_in_its_ascii_form() -> None:
    resolver = fake_resolver({"xn--bcher-kva.example": [PUBLIC_V4]})
    checked = await check_destination("https://bücher.example/", resolver=resolver)
    assert checked.host == "xn--bcher-kva.example"


async def test_loopback_flag_allows_loopback_only() -> None:
    resolver = fake_resolver({"localhost": ["127.0.0.1", "::1"]})
    checked = await check_destination(
        "https://localhost:9443/", allow_loopback=True, resolver=resolver
    )
    assert checked.addresses == ("127.0.0.1", "::1")
    assert (await check_destination("https://127.0.0.1/", allow_loopback=True)).addresses == (
        "127.0.0.1",
    )
    for still_unsafe in (
        "https://10.0.0.1/",
        "https://169.254.169.254/",
        "https://[::ffff:127.0.0.1]/",
    ):
        with pytest.raises(UnsafeDestination):
            await check_destination(still_unsafe, allow_loopback=True, resolver=resolver)


def test_syntax_check_reports_host_port_and_literal() -> None:
    assert check_url_syntax("https://example.com/x") == ("example.com", 443, None)
    host, port, literal = check_url_syntax(f"https://{PUBLIC_V4}:444/")
    assert (host, port, literal) == (PUBLIC_V4, 444, ipaddress.IPv4Address(PUBLIC_V4))


@pytest.mark.parametrize(
    "address",
    ["8.8.8.8", "1.1.1.1", "9.9.9.9", "2001:4860:4860::8888", "64:ff9b::808:808"],
)
def test_public_addresses_are_not_refused(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    "url", ["https://1572395042/in", "https://0x5d.0xb8.0xd8.0x22/in", "https://93.184.55330/in"]
)
def test_numeric_encodings_of_a_public_ipv4_address_are_refused(url: str) -> None:
    with pytest.raises(UnsafeDestination, match=r"write it as 93\.184"):
        check_url_syntax(url)


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://Hooks.Example.COM:443/in#frag", "https://hooks.example.com/in"),
        ("https://hooks.example.com/in?", "https://hooks.example.com/in"),
        ("https://hooks.example.com", "https://hooks.example.com/"),
        ("https://hooks.example.com:8443/in?a=1", "https://hooks.example.com:8443/in?a=1"),
        ("https://93.184.216.34./in", "https://93.184.216.34/in"),
        ("https://[2606:2800:0220:0001::0001]/in", "https://[2606:2800:220:1::1]/in"),
        ("https://bücher.example/in", "https://xn--bcher-kva.example/in"),
    ],
)
def test_destinations_have_one_canonical_spelling(url: str, canonical: str) -> None:
    assert canonical_url(url) == canonical
    assert canonical_url(canonical) == canonical
