"""Secrets we hand out and how we keep them: API keys, session tokens, passwords, ids.

API keys (``ak_live_`` / ``ak_test_`` + 32 url-safe characters) and session tokens
(``service_sess_`` + 43 url-safe characters) are random with 190+ bits of entropy, so a fast
SHA-256 digest is the right storage form: nobody can brute-force the pre-image, and lookup by
digest needs no per-row salt. Passwords are low-entropy: they get argon2id (memory-hard).
Digests are compared with :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

API_KEY_PREFIXES = ("ak_live_", "ak_test_")
SESSION_PREFIX = "service_sess_"
KEY_DISPLAY_CHARS = 12

_password_hasher = PasswordHasher()  # argon2id, library defaults (RFC 9106 low-memory profile)
# Verified against when the e-mail is unknown, so both paths cost one argon2 verification.
_DUMMY_HASH = _password_hasher.hash(secrets.token_urlsafe(16))


def new_id(prefix: str) -> str:
    """``prefix`` + 24 lowercase hex characters (``job_3f9a...``)."""
    return prefix + secrets.token_hex(12)


def new_api_key(environment: str = "live") -> str:
    if environment not in ("live", "test"):
        raise ValueError("environment is 'live' or 'test'")
    return f"ak_{environment}_" + secrets.token_urlsafe(24)  # 32 characters


def new_session_token() -> str:
    return SESSION_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def digests_equal(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def display_prefix(api_key: str) -> str:
    return api_key[:KEY_DISPLAY_CHARS]


def looks_like_api_key(secret: str) -> bool:
    return secret.startswith(API_KEY_PREFIXES)


def looks_like_session_token(secret: str) -> bool:
    return secret.startswith(SESSION_PREFIX)


def hash_password(password: str) -> str:
    return _password_hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Constant work whether or not the account exists (``password_hash=None``)."""
    try:
        return _password_hasher.verify(password_hash or _DUMMY_HASH, password) and bool(
            password_hash
        )
    except (VerificationError, InvalidHashError):
        return False
