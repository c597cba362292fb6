"""Standard Webhooks signing interoperates with the reference ``standardwebhooks`` package."""

from __future__ import annotations

import base64
import json
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from astro_server.platform.delivery.secrets_box import SecretBox, SecretDecryptionError
from astro_server.platform.delivery.signing import (
    InvalidSignature,
    new_message_id,
    new_signing_secret,
    sign_headers,
    signature,
    verify,
)


def test_secret_is_whsec_and_32_random_bytes() -> None:
    secret = new_signing_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32
    assert new_signing_secret() != secret


def test_message_ids_are_unique_and_prefixed() -> None:
    ids = {new_message_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(i.startswith("msg_") and len(i) == 36 for i in ids)


def test_our_signature_verifies_with_the_reference_library() -> None:
    secret = new_signing_secret()
    body = json.dumps({"type": "horoscope.daily", "data": {"text": "สวัสดี"}}).encode()
    headers = sign_headers([secret], "msg_abc", int(time.time()), body)
    assert Webhook(secret).verify(body, headers) == json.loads(body)


def test_reference_signature_verifies_with_ours() -> None:
    secret = new_signing_secret()
    body = '{"hello":"world"}'
    now = datetime.now(UTC).replace(microsecond=0)
    header = Webhook(secret).sign("msg_ref", now, body)
    headers = {
        "webhook-id": "msg_ref",
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": header,
    }
    verify(body.encode(), headers, secret, now=now)
    assert header == signature(secret, "msg_ref", int(now.timestamp()), body.encode())


def test_published_example_signature() -> None:
    """The example from the Standard Webhooks specification (spec/standard-webhooks.md)."""
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"test": 2432232314}'
    expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    assert signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body) == expected


def test_tampered_body_fails_both_verifiers() -> None:
    secret = new_signing_secret()
    now = int(time.time())
    headers = sign_headers([secret], "msg_x", now, b'{"a":1}')
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(b'{"a":2}', headers)
    with pytest.raises(InvalidSignature):
        verify(b'{"a":2}', headers, secret, now=datetime.fromtimestamp(now, UTC))


def test_stale_timestamp_fails() -> None:
    secret = new_signing_secret()
    headers = sign_headers([secret], "msg_x", 1_000_000, b"{}")
    with pytest.raises(InvalidSignature, match="tolerance"):
        verify(b"{}", headers, secret, now=datetime.fromtimestamp(1_000_301, UTC))
    verify(b"{}", headers, secret, now=datetime.fromtimestamp(1_000_299, UTC))


def test_rotation_header_carries_one_signature_per_secret() -> None:
    old, new = new_signing_secret(), new_signing_secret()
    body = b'{"x":1}'
    headers = sign_headers([new, old], "msg_r", int(time.time()), body)
    assert len(headers["webhook-signature"].split(" ")) == 2
    Webhook(old).verify(body, headers)
    Webhook(new).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_signing_secret()).verify(body, headers)


def test_signing_needs_a_secret() -> None:
    with pytest.raises(ValueError, match="at least one"):
        sign_headers([], "msg", 1, b"")


def test_secret_box_round_trip_and_binding() -> None:
    box = SecretBox("server-key-for-tests")
    secret = new_signing_secret()
    stored = box.encrypt(secret, bound_to="hfs_1")
    assert secret not in stored
    assert stored.startswith("v1.")
    assert box.decrypt(stored, bound_to="hfs_1") == secret
    assert box.encrypt(secret, bound_to="hfs_1") != stored  # fresh nonce each time
    with pytest.raises(SecretDecryptionError):
        box.decrypt(stored, bound_to="hfs_2")
    with pytest.raises(SecretDecryptionError):
        SecretBox("another-server-key").decrypt(stored, bound_to="hfs_1")
    with pytest.raises(SecretDecryptionError):
        box.decrypt(stored[:-4] + "AAAA", bound_to="hfs_1")
    with pytest.raises(SecretDecryptionError):
        box.decrypt("plain-secret", bound_to="hfs_1")


def test_secret_box_refuses_an_empty_server_key() -> None:
    with pytest.raises(ValueError, match="empty"):
        SecretBox("")


def test_a_caching_box_keys_plaintexts_by_row_and_ciphertext() -> None:
    box = SecretBox("server-key-for-tests", cache_size=2)
    first, rotated = new_signing_secret(), new_signing_secret()
    stored = box.encrypt(first, bound_to="hfs_1")
    assert box.decrypt(stored, bound_to="hfs_1") == first
    assert box.decrypt(stored, bound_to="hfs_1") == first  # from the cache
    # The binding still holds for a cached ciphertext copied onto another row.
    with pytest.raises(SecretDecryptionError):
        box.decrypt(stored, bound_to="hfs_2")
    # A rotation stores a new ciphertext: its own entry, never the old plaintext.
    assert box.decrypt(box.encrypt(rotated, bound_to="hfs_1"), bound_to="hfs_1") == rotated
    assert box.decrypt(stored, bound_to="hfs_1") == first
    # Bounded: the least recently used entry goes first.
    for n in range(3):
        box.decrypt(box.encrypt(first, bound_to=f"hfs_x{n}"), bound_to=f"hfs_x{n}")
    assert len(box._decrypted) == 2
