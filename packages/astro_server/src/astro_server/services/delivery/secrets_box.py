"""Signing secrets encrypted at rest with the server key.

AES-256-GCM under a key derived from ``settings.secret_key`` with HKDF-SHA256 (its own ``info``
label, so no other use of the server key shares this key). Each ciphertext is bound to the row it
belongs to through the associated data (a subscription id): a ciphertext copied onto another row
does not decrypt. Stored form: ``v1.<base64url(nonce || ciphertext || tag)>``.

A box made with ``cache_size`` keeps that many decrypted secrets in memory, keyed by (row id,
stored ciphertext): decryption is a pure function of the key, the row and the ciphertext, and a
rotation stores a new ciphertext (a fresh nonce), so a cached entry can never be stale. The
delivery workers use one such box per process instead of decrypting at every attempt.
"""

from __future__ import annotations

import base64
import os
from collections import OrderedDict

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

_VERSION = "v1"
_NONCE_BYTES = 12
_INFO = b"astro delivery signing secrets v1"


class SecretDecryptionError(Exception):
    """The stored secret is corrupt, belongs to another row, or the server key changed."""


class SecretBox:
    """Encrypts and decrypts short secrets with a key derived from the server key."""

    def __init__(self, server_key: str, *, cache_size: int = 0) -> None:
        if not server_key:
            raise ValueError("the server secret key is empty")
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(
            server_key.encode()
        )
        self._aead = AESGCM(key)
        self._cache_size = cache_size
        self._decrypted: OrderedDict[tuple[str, str], str] = OrderedDict()

    def encrypt(self, plaintext: str, *, bound_to: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, plaintext.encode(), bound_to.encode())
        return f"{_VERSION}.{base64.urlsafe_b64encode(nonce + sealed).decode('ascii')}"

    def decrypt(self, stored: str, *, bound_to: str) -> str:
        if not self._cache_size:
            return self._decrypt(stored, bound_to)
        key = (bound_to, stored)
        plain = self._decrypted.get(key)
        if plain is None:
            plain = self._decrypt(stored, bound_to)
            self._decrypted[key] = plain
            if len(self._decrypted) > self._cache_size:
                self._decrypted.popitem(last=False)
        else:
            self._decrypted.move_to_end(key)
        return plain

    def _decrypt(self, stored: str, bound_to: str) -> str:
        version, _, encoded = stored.partition(".")
        if version != _VERSION or not encoded:
            raise SecretDecryptionError("unknown secret format")
        try:
            raw = base64.urlsafe_b64decode(encoded)
            plain = self._aead.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], bound_to.encode())
        except (InvalidTag, ValueError):
            raise SecretDecryptionError("the secret does not decrypt") from None
        return plain.decode()
