"""Secrets encrypted at rest with the server key (the one scheme: signing secrets, account data
keys).

AES-256-GCM under a key derived from ``settings.secret_key`` with HKDF-SHA256 (its own ``info``
label per use, so no two uses of the server key share a key: ``info=`` selects it; the default is
the delivery signing secrets' label). :meth:`SecretBox.from_raw_key` derives the same way from a
random 32-byte key instead (an account's data key: ``features/profiles/crypto.py``). Each
ciphertext is bound to the row it belongs to through the associated data (a subscription id, a
profile id): a ciphertext copied onto another row does not decrypt. Stored form:
``v1.<base64url(nonce || ciphertext || tag)>``.

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


def derive_key(material: bytes, info: bytes) -> bytes:
    """32 bytes for one use (``info``) of some key material (HKDF-SHA256, no salt)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(material)


class SecretDecryptionError(Exception):
    """The stored secret is corrupt, belongs to another row, or the server key changed."""


class SecretBox:
    """Encrypts and decrypts short secrets with a key derived from the server key."""

    def __init__(self, server_key: str, *, cache_size: int = 0, info: bytes = _INFO) -> None:
        if not server_key:
            raise ValueError("the server secret key is empty")
        self._init(derive_key(server_key.encode(), info), cache_size)

    @classmethod
    def from_raw_key(cls, key: bytes, *, info: bytes, cache_size: int = 0) -> SecretBox:
        """A box under HKDF-SHA256(``key``, ``info``): ``key`` is random key material."""
        box = cls.__new__(cls)
        box._init(derive_key(key, info), cache_size)
        return box

    def _init(self, key: bytes, cache_size: int) -> None:
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
