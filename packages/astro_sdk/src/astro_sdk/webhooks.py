"""Verify (and, for tests, sign) webhook deliveries: the Standard Webhooks scheme.

Every delivery carries three headers::

    webhook-id:        msg_...            unique per message (dedupe on it: retries reuse it)
    webhook-timestamp: 1735689600         seconds since the Unix epoch, when it was signed
    webhook-signature: v1,<base64> ...    space-separated; one entry per signing secret

Each ``v1`` signature is ``base64(HMAC-SHA256(key, f"{id}.{timestamp}.".encode() + body))``
where ``key`` is the base64 part of the subscription's secret ``whsec_<base64>``. While a secret
is being rotated the sender signs with both secrets; a receiver holding either one verifies.

Verify the raw body bytes exactly as received, before any JSON parsing or re-encoding::

    from astro_sdk.webhooks import WebhookVerificationError, verify

    try:
        payload = verify(request_body, request_headers, secret)
    except WebhookVerificationError:
        ...  # answer 400 and do not act on the body

A receiver's own tests make a secret with :func:`generate_secret` and sign sample bodies with
:func:`sign`, as the server does. The exceptions are importable from here as from
:mod:`astro_sdk` (as with the ``standardwebhooks`` and ``svix`` packages).

Interoperable with the reference ``standardwebhooks`` package in both directions.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from astro_sdk._exceptions import (
    WebhookHeaderError,
    WebhookSecretError,
    WebhookSignatureError,
    WebhookTimestampError,
    WebhookVerificationError,
)

__all__ = [
    "DEFAULT_TOLERANCE_S",
    "WebhookHeaderError",
    "WebhookSecretError",
    "WebhookSignatureError",
    "WebhookTimestampError",
    "WebhookVerificationError",
    "generate_secret",
    "sign",
    "verify",
    "verify_signature",
]

DEFAULT_TOLERANCE_S = 300.0
SECRET_PREFIX = "whsec_"  # noqa: S105 - the scheme's prefix, not a secret
_SIGNATURE_VERSION = "v1"


def _key_from_secret(secret: str) -> bytes:
    if not isinstance(secret, str):
        raise TypeError(f"webhook secret must be a str ('whsec_...'), not {type(secret).__name__}")
    encoded = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    encoded += "=" * (-len(encoded) % 4)  # secrets are sometimes shared without padding
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WebhookSecretError("webhook secret must be 'whsec_' followed by base64") from exc
    if not key:
        raise WebhookSecretError("webhook secret is empty")
    return key


def _as_bytes(payload: bytes | str) -> bytes:
    if isinstance(payload, str):
        return payload.encode()
    if isinstance(payload, bytes | bytearray | memoryview):
        return bytes(payload)
    raise TypeError(
        f"the webhook payload must be str | bytes (the raw body), not {type(payload).__name__}; "
        "serialise it first, e.g. json.dumps(payload)"
    )


def _secrets(secret: str | Sequence[str]) -> list[str]:
    found = [secret] if isinstance(secret, str) else list(secret)
    if not found:
        raise WebhookSecretError("at least one webhook secret is needed")
    return found


def _signature(key: bytes, msg_id: str, timestamp: int, payload: bytes) -> str:
    signed = f"{msg_id}.{timestamp}.".encode() + payload
    return base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def generate_secret() -> str:
    """A new secret: ``whsec_`` + base64 of 32 random bytes (Standard Webhooks asks for 24 to
    64; the server's subscriptions use the same form). For a receiver's tests, or a sender."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def sign(
    payload: bytes | str,
    secret: str | Sequence[str],
    *,
    msg_id: str | None = None,
    timestamp: int | None = None,
) -> dict[str, str]:
    """The three ``webhook-*`` headers for ``payload``; several secrets give several ``v1``
    signatures (rotation).

    ``payload`` is the exact body to send, ``str | bytes`` (a dict raises ``TypeError``: sign
    ``json.dumps(...)`` and send those same bytes). A malformed secret raises
    ``WebhookSecretError`` (also a ``ValueError``)."""
    message_id = msg_id or "msg_" + secrets.token_hex(12)
    signed_at = int(time.time()) if timestamp is None else int(timestamp)
    body = _as_bytes(payload)
    signatures = " ".join(
        f"{_SIGNATURE_VERSION},{_signature(_key_from_secret(s), message_id, signed_at, body)}"
        for s in _secrets(secret)
    )
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(signed_at),
        "webhook-signature": signatures,
    }


def _lower_headers(headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> dict[str, str]:
    items = headers.items() if isinstance(headers, Mapping) else headers
    return {str(name).lower(): str(value) for name, value in items}


def _required(headers: dict[str, str], name: str) -> str:
    value = headers.get(name, "").strip()
    if not value:
        raise WebhookHeaderError(f"missing {name} header")
    return value


def _v1_signatures(header: str) -> list[bytes]:
    """The decoded ``v1`` signatures; other versions (``v1a``, future ones) are skipped."""
    found: list[bytes] = []
    well_formed = 0
    for entry in header.split():
        version, comma, encoded = entry.partition(",")
        if not comma or not version or not encoded:
            continue
        well_formed += 1
        if version != _SIGNATURE_VERSION:
            continue
        try:
            found.append(base64.b64decode(encoded, validate=True))
        except (binascii.Error, ValueError):
            continue
    if well_formed == 0:
        raise WebhookHeaderError(
            "webhook-signature has no '<version>,<base64>' entry; expected 'v1,<base64>'"
        )
    return found


def verify_signature(
    payload: bytes | str,
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    secret: str | Sequence[str],
    *,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> None:
    """Check a delivery's headers against its raw body; raise if it must not be trusted.

    Raises:
        WebhookHeaderError: a header is missing, the timestamp is not an integer, or the
            signature header has no well-formed entry.
        WebhookTimestampError: the timestamp is more than ``tolerance_s`` seconds in the past
            or in the future (replayed or mis-dated deliveries).
        WebhookSignatureError: no ``v1`` signature matches under any of the given secrets.
        WebhookSecretError: a secret is not ``whsec_`` followed by base64.
        TypeError: ``payload`` is not ``str | bytes``.
    """
    body = _as_bytes(payload)
    keys = [_key_from_secret(s) for s in _secrets(secret)]  # a bad secret fails every delivery
    lowered = _lower_headers(headers)
    msg_id = _required(lowered, "webhook-id")
    raw_timestamp = _required(lowered, "webhook-timestamp")
    signature_header = _required(lowered, "webhook-signature")
    if not raw_timestamp.isdigit():
        raise WebhookHeaderError("webhook-timestamp must be an integer count of seconds")
    timestamp = int(raw_timestamp)
    current = time.time() if now is None else now
    if timestamp < current - tolerance_s:
        raise WebhookTimestampError(
            f"webhook-timestamp is {current - timestamp:.0f} s old (tolerance {tolerance_s:g} s)"
        )
    if timestamp > current + tolerance_s:
        raise WebhookTimestampError(
            f"webhook-timestamp is {timestamp - current:.0f} s in the future "
            f"(tolerance {tolerance_s:g} s)"
        )
    candidates = _v1_signatures(signature_header)
    for key in keys:
        expected = base64.b64decode(_signature(key, msg_id, timestamp, body))
        # Compare against every candidate (no early exit on the first near miss).
        if any(hmac.compare_digest(expected, candidate) for candidate in candidates):
            return
    raise WebhookSignatureError("no webhook-signature matches the payload and secret")


def verify(
    payload: bytes | str,
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    secret: str | Sequence[str],
    *,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> Any:
    """Verify a delivery (see :func:`verify_signature`) and return its JSON body, parsed.

    ``secret`` may be a list while you rotate secrets: any one that matches is enough.
    """
    verify_signature(payload, headers, secret, tolerance_s=tolerance_s, now=now)
    return json.loads(_as_bytes(payload))
