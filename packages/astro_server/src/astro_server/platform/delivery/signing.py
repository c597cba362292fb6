"""Standard Webhooks signing (https://www.standardwebhooks.com/, spec version 1).

Every delivery carries three headers:

    webhook-id:        msg_<hex>, the same on every retry of one message (receivers dedupe on it)
    webhook-timestamp: integer seconds since the epoch, set per attempt
    webhook-signature: space-separated "v1,<base64 HMAC-SHA256(key, f"{id}.{timestamp}.{body}")>"

The key is the base64-decoded part of a ``whsec_<base64>`` secret. While a secret is being
rotated the previous one keeps signing for 24 hours, so the header carries one signature per
secret and a receiver that still holds the old secret keeps verifying.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

SECRET_PREFIX = "whsec_"  # noqa: S105 - a format prefix, not a secret
SECRET_BYTES = 32
ROTATION_OVERLAP = timedelta(hours=24)


class InvalidSignature(Exception):
    """A webhook did not verify (missing header, stale timestamp, or no matching signature)."""


def new_signing_secret() -> str:
    """A fresh ``whsec_`` secret of 32 random bytes (the spec asks for 24 to 64)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def new_message_id() -> str:
    return "msg_" + secrets.token_hex(16)


def _key(secret: str) -> bytes:
    raw = secret.removeprefix(SECRET_PREFIX)
    return base64.b64decode(raw, validate=True)


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """``v1,<base64 HMAC-SHA256>`` of ``"{message_id}.{timestamp}.{body}"`` under ``secret``."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def sign_headers(
    secrets_in_use: Iterable[str], message_id: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The three Standard Webhooks headers, one signature per secret currently in use."""
    signatures = [signature(s, message_id, timestamp, body) for s in secrets_in_use]
    if not signatures:
        raise ValueError("at least one signing secret is required")
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(signatures),
    }


def verify(
    body: bytes,
    headers: Mapping[str, str],
    secret: str,
    *,
    now: datetime,
    tolerance_s: int = 300,
) -> None:
    """Raise :class:`InvalidSignature` unless one ``v1`` signature matches ``secret``.

    The server does not need this to send; it is here so the engine's own tests and the
    ``test`` endpoint can check a round trip without the SDK.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    try:
        message_id = lowered["webhook-id"]
        timestamp = int(lowered["webhook-timestamp"])
        header = lowered["webhook-signature"]
    except (KeyError, ValueError):
        raise InvalidSignature("missing or malformed webhook headers") from None
    if abs(now.timestamp() - timestamp) > tolerance_s:
        raise InvalidSignature("timestamp outside the tolerance")
    expected = signature(secret, message_id, timestamp, body).encode()
    for candidate in header.split():
        if candidate.startswith("v1,") and hmac.compare_digest(candidate.encode(), expected):
            return
    raise InvalidSignature("no matching signature")
