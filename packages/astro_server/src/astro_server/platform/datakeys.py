"""Per-account data keys: the envelope that makes an account's personal data crypto-shreddable.

The scheme (AES-256-GCM through :class:`~astro_server.platform.delivery.secrets_box.SecretBox`,
HKDF-SHA256-derived keys, every ciphertext bound to its row id):

* **Master key**: ``settings.secret_key`` (``ASTRO_SECRET_KEY``). Wraps data keys through a
  SecretBox with its own label (``astro account data keys v1``), each wrapped key bound to its
  data key id. It never touches personal data directly.
* **Data key**: 32 random bytes per account (table ``account_data_keys``, ``dk_`` + 24 hex),
  stored only wrapped. Three keys are derived from it with HKDF-SHA256: the **field key**
  (``astro profile fields v1``: client profiles, ``features/profiles``), the **index key**
  (``astro profile blind index v1``: the profiles' blind indexes) and the **record key**
  (``astro sealed records v1``): the other rows that hold personal data for a while, job
  parameters (:mod:`astro_server.platform.jobs`) and idempotency replay bodies
  (:mod:`astro_server.platform.billing.idempotency`), each bound to its row id.
* **Crypto-shred** (``features/profiles/service.crypto_shred``, CLI ``crypto-shred``) sets the
  account's wrapped keys to null: everything sealed under them, profiles, job parameters and
  replay bodies alike, can never be opened again (:class:`KeyUnavailable`), in the database and
  in its backups.

**Cache**: unwrapping means an HKDF and an AES-GCM decryption; each process keeps the unwrapped
key of a (data key id, wrapped ciphertext) pair for :data:`CACHE_TTL_S` seconds. The pair is read
from the database on every use (a profile query joins the key row; :func:`key_by_id` reads it),
so a shredded key (row null) or a re-wrapped one (new ciphertext) is never served from the
cache: the cache saves CPU only and cannot outlive a revocation. Entries expire so that key
material does not stay in memory after an account stops calling.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from astro_server.platform import clock, db
from astro_server.platform.secrets_box import SecretBox, SecretDecryptionError, derive_key

WRAP_INFO = b"astro account data keys v1"
FIELDS_INFO = b"astro profile fields v1"
INDEX_INFO = b"astro profile blind index v1"
RECORDS_INFO = b"astro sealed records v1"
CACHE_TTL_S = 60.0
_CACHE_MAX = 10_000


class KeyUnavailable(Exception):
    """The data key was destroyed (crypto-shred) or does not unwrap with this master key."""


@dataclass(frozen=True)
class DataKey:
    """An unwrapped data key, ready to seal, open and index."""

    id: str
    fields: SecretBox
    index_key: bytes
    records: SecretBox

    def seal(self, profile_id: str, data: dict[str, Any]) -> str:
        """A client profile's fields (the field key)."""
        return self.fields.encrypt(json.dumps(data, separators=(",", ":")), bound_to=profile_id)

    def open(self, profile_id: str, sealed: str) -> dict[str, Any]:
        try:
            value: dict[str, Any] = json.loads(self.fields.decrypt(sealed, bound_to=profile_id))
        except SecretDecryptionError:
            raise KeyUnavailable(profile_id) from None
        return value

    def seal_record(self, row_id: str, text: str) -> str:
        """Any other row's personal payload (the record key), bound to ``row_id``."""
        return self.records.encrypt(text, bound_to=row_id)

    def open_record(self, row_id: str, sealed: str) -> str:
        try:
            return self.records.decrypt(sealed, bound_to=row_id)
        except SecretDecryptionError:
            raise KeyUnavailable(row_id) from None

    def blind_index(self, field: str, value: str) -> str:
        message = field.encode() + b"\x00" + value.encode()
        return hmac.new(self.index_key, message, hashlib.sha256).hexdigest()


_wrappers: dict[str, SecretBox] = {}
# (data key id, wrapped ciphertext) -> (monotonic expiry, key)
_unwrapped: dict[tuple[str, str], tuple[float, DataKey]] = {}


def _wrapper(master_key: str) -> SecretBox:
    box = _wrappers.get(master_key)
    if box is None:
        if len(_wrappers) >= 8:  # tests make a key per app; a server has one
            _wrappers.clear()
        box = _wrappers[master_key] = SecretBox(master_key, info=WRAP_INFO)
    return box


def _from_material(key_id: str, material: bytes) -> DataKey:
    return DataKey(
        key_id,
        SecretBox.from_raw_key(material, info=FIELDS_INFO),
        derive_key(material, INDEX_INFO),
        SecretBox.from_raw_key(material, info=RECORDS_INFO),
    )


def wrap(master_key: str, key_id: str, material: bytes) -> str:
    return _wrapper(master_key).encrypt(
        base64.urlsafe_b64encode(material).decode("ascii"), bound_to=key_id
    )


def unwrap_material(master_key: str, key_id: str, wrapped: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(_wrapper(master_key).decrypt(wrapped, bound_to=key_id))
    except SecretDecryptionError:
        raise KeyUnavailable(key_id) from None


def unwrap(master_key: str, key_id: str, wrapped: str | None) -> DataKey:
    """The data key of a row read from the database (cached, see module docstring)."""
    if wrapped is None:
        raise KeyUnavailable(key_id)
    now = time.monotonic()
    cached = _unwrapped.get((key_id, wrapped))
    if cached is not None and cached[0] > now:
        return cached[1]
    key = _from_material(key_id, unwrap_material(master_key, key_id, wrapped))
    if len(_unwrapped) >= _CACHE_MAX:
        _unwrapped.clear()
    _unwrapped[(key_id, wrapped)] = (now + CACHE_TTL_S, key)
    return key


def forget_keys() -> None:
    """Drop this process's unwrapped keys."""
    _unwrapped.clear()


async def active_key(
    master_key: str, account_id: str, *, create: bool, conn: BaseDBAsyncClient | None = None
) -> DataKey | None:
    """The account's current data key (the newest not destroyed); made on first use when
    ``create`` (a shredded account gets a new one for new data), else None."""
    for _ in range(3):
        rows = await db.fetch(
            "SELECT id, wrapped_key FROM account_data_keys "
            "WHERE account_id = ? AND wrapped_key IS NOT NULL ORDER BY created_at DESC LIMIT 1",
            [account_id],
            conn,
        )
        if rows:
            return unwrap(master_key, str(rows[0]["id"]), str(rows[0]["wrapped_key"]))
        if not create:
            return None
        key_id = "dk_" + secrets.token_hex(12)  # as auth.credentials.new_id (no import cycle)
        material = os.urandom(32)
        try:
            await db.fetch(
                "INSERT INTO account_data_keys (id, account_id, wrapped_key, created_at) "
                "VALUES (?, ?, ?, ?)",
                [key_id, account_id, wrap(master_key, key_id, material), clock.now()],
                conn,
            )
        except IntegrityError:  # pragma: no cover - ids are random
            continue
        return _from_material(key_id, material)
    raise RuntimeError("could not make a data key")


async def key_by_id(master_key: str, key_id: str) -> DataKey:
    """The data key ``key_id`` (read from the database now); :class:`KeyUnavailable` once it
    was destroyed or when it does not exist."""
    rows = await db.fetch("SELECT wrapped_key FROM account_data_keys WHERE id = ?", [key_id])
    if not rows:
        raise KeyUnavailable(key_id)
    wrapped = rows[0]["wrapped_key"]
    return unwrap(master_key, key_id, None if wrapped is None else str(wrapped))
