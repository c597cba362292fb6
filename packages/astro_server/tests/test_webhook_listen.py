"""``webhook-listen``'s certificate and who trusts it: the delivery client trusts it only with
``loopback_trust_file`` set (``ASTRO_LOCAL_WEBHOOKS``, embedded mode) and only for loopback
addresses; settings refuse the flag in production."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import pytest

from astro_server.platform.delivery.http import DeliveryClient
from astro_server.settings import Settings
from astro_server.webhook_listen import check_forward_url, make_certificate, server_context


async def _handshake(context: ssl.SSLContext, cert_pem: bytes, key_pem: bytes) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(
        answer, "127.0.0.1", 0, ssl=server_context(cert_pem, key_pem)
    )
    port = server.sockets[0].getsockname()[1]
    try:
        _reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=context, server_hostname="127.0.0.1"
        )
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_the_listener_certificate_is_trusted_for_loopback_only_when_configured(
    tmp_path: Path,
) -> None:
    cert_pem, key_pem = make_certificate()
    trust = tmp_path / "webhook-listen.pem"
    trust.write_bytes(cert_pem)
    local = DeliveryClient(allow_loopback=True, loopback_trust_file=trust)
    await _handshake(local._context_for("127.0.0.1"), cert_pem, key_pem)
    await _handshake(local._context_for("::1"), cert_pem, key_pem)
    # A public address gets the system's store alone, and so does a client without the file.
    assert local._context_for("93.184.215.14") is local.ssl_context
    plain = DeliveryClient(allow_loopback=True)
    assert plain._context_for("127.0.0.1") is plain.ssl_context
    with pytest.raises(ssl.SSLCertVerificationError):
        await _handshake(plain._context_for("127.0.0.1"), cert_pem, key_pem)
    missing = DeliveryClient(allow_loopback=True, loopback_trust_file=tmp_path / "none.pem")
    assert missing._context_for("127.0.0.1") is missing.ssl_context


def test_local_webhooks_are_refused_in_production_and_allow_loopback_when_embedded(
    tmp_path: Path,
) -> None:
    base = {"ASTRO_DATA_DIR": str(tmp_path), "ASTRO_SECRET_KEY": "k" * 32}
    embedded = Settings.from_env({**base, "ASTRO_LOCAL_WEBHOOKS": "1"})
    assert embedded.local_webhooks
    assert embedded.allow_loopback_destinations
    for production in (
        {"ASTRO_DATABASE_URL": "postgres://x@h/db"},
        {"ASTRO_REDIS_URL": "redis://h"},
    ):
        with pytest.raises(ValueError, match="embedded mode only"):
            Settings.from_env({**base, "ASTRO_LOCAL_WEBHOOKS": "1", **production})
    assert not Settings.from_env(base).local_webhooks


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:3000/hooks", "https://localhost/x", "http://[::1]:8080/"],
)
def test_forwarding_goes_to_loopback_urls(url: str) -> None:
    assert check_forward_url(url) == url


@pytest.mark.parametrize(
    "url", ["http://10.0.0.1/", "https://example.com/hooks", "ftp://127.0.0.1/", "127.0.0.1:3000"]
)
def test_forwarding_elsewhere_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="--forward-to must be"):
        check_forward_url(url)
