"""Envelope encryption of client profiles: per-account data keys wrapped by the master key.

The one scheme of the server (``services/delivery/secrets_box.py``'s :class:`SecretBox`,
AES-256-GCM with HKDF-SHA256-derived keys and ciphertexts bound to a row id):

* **Master key**: ``settings.secret_key`` (``ASTRO_SECRET_KEY``). Wraps data keys through a
  SecretBox with its own label (``astro account data keys v1``), each wrapped key bound to its
  data key id. It never touches a profile directly.
* **Data key**: 32 random bytes per account (``account_data_keys``, ``dk_`` + 24 hex), stored
  only wrapped. Two keys are derived from it with HKDF-SHA256: the **field key** (label
  ``astro profile fields v1``), which seals a profile's fields as one AES-256-GCM ciphertext bound
  to the profile id; and the **index key** (``astro profile blind index v1``), the HMAC-SHA256 key
  of the blind indexes: ``hex(HMAC(index key, "<field>\\x00<value>"))`` for ``external_id`` and
  for each tag (values as given, compared exactly). The indexes are deterministic per account, so
  equal values match, and reveal nothing across accounts or without the data key.
* **Rotation of the master key** (:func:`rotate_master_key`, CLI ``rotate-master-key``): every
  live data key is unwrapped with the old master key and wrapped with the new one in one
  transaction; profiles are not touched. The delivery signing secrets of feed subscriptions and
  account webhook endpoints (``SecretBox`` under the same master key) are re-encrypted in the same
  transaction. (Signed file URLs, keyed from the master key too, stop verifying after the
  restart: they are short-lived and re-issued on request.)
* **Crypto-shred** (``service.crypto_shred``, CLI ``crypto-shred``): the account's wrapped data
  keys are set to null. Its profiles stay as unreadable ciphertext; the API answers them 404.

**Cache**: unwrapping means an HKDF and an AES-GCM decryption; each process keeps the unwrapped
key of a (data key id, wrapped ciphertext) pair for :data:`CACHE_TTL_S` seconds. The pair is read
from the database with the profile on every request (the profile query joins the key row), so a
shredded key (row null) or a re-wrapped one (new ciphertext) is never served from the cache: the
cache saves CPU only and cannot outlive a revocation. Entries expire so that key material does
not stay in memory after an account stops calling.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from dataclasses import dataclass
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.features.profiles.models import AccountDataKey
from astro_server.platform import clock, db
from astro_server.platform.auth import credentials
from astro_server.platform.delivery.secrets_box import SecretBox, SecretDecryptionError
from astro_server.platform.models.delivery import HoroscopeFeedSubscription, WebhookEndpoint

WRAP_INFO = b"astro account data keys v1"
FIELDS_INFO = b"astro profile fields v1"
INDEX_INFO = b"astro profile blind index v1"
CACHE_TTL_S = 60.0
#: Rows holding delivery signing secrets under the master key (``secret_ciphertext`` and
#: ``previous_secret_ciphertext``, bound to the row id): re-encrypted by a rotation.
SIGNING_SECRET_MODELS: tuple[type[HoroscopeFeedSubscription] | type[WebhookEndpoint], ...] = (
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
_CACHE_MAX = 10_000


class KeyUnavailable(Exception):
    """The data key was destroyed (crypto-shred) or does not unwrap with this master key."""


@dataclass(frozen=True)
class DataKey:
    """An unwrapped data key, ready to seal, open and index."""

    id: str
    fields: SecretBox
    index_key: bytes

    def seal(self, profile_id: str, data: dict[str, Any]) -> str:
        return self.fields.encrypt(json.dumps(data, separators=(",", ":")), bound_to=profile_id)

    def open(self, profile_id: str, sealed: str) -> dict[str, Any]:
        try:
            value: dict[str, Any] = json.loads(self.fields.decrypt(sealed, bound_to=profile_id))
        except SecretDecryptionError:
            raise KeyUnavailable(profile_id) from None
        return value

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
    from astro_server.platform.delivery.secrets_box import derive_key

    return DataKey(
        key_id,
        SecretBox.from_raw_key(material, info=FIELDS_INFO),
        derive_key(material, INDEX_INFO),
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
    ``create`` (a shredded account gets a new one for new profiles), else None."""
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
        key_id = credentials.new_id("dk_")
        material = os.urandom(32)
        try:
            await AccountDataKey.create(
                id=key_id,
                account_id=account_id,
                wrapped_key=wrap(master_key, key_id, material),
                created_at=clock.now(),
                using_db=conn,
            )
        except IntegrityError:  # pragma: no cover - ids are random
            continue
        return _from_material(key_id, material)
    raise RuntimeError("could not make a data key")


async def rotate_master_key(old_key: str, new_key: str) -> tuple[int, int]:
    """Re-wrap every live data key and re-encrypt every delivery signing secret under
    ``new_key``, in one transaction; returns (data keys, signing secrets) re-encrypted. A row
    that does not open with ``old_key`` stops the whole rotation (nothing is changed)."""
    if not new_key or new_key == old_key:
        raise ValueError("the new master key must be set and differ from the current one")
    old_box, new_box = SecretBox(old_key), SecretBox(new_key)
    keys_done = secrets_done = 0
    async with in_transaction() as conn:
        for row in await AccountDataKey.filter(wrapped_key__not_isnull=True).using_db(conn):
            assert row.wrapped_key is not None
            material = unwrap_material(old_key, row.id, row.wrapped_key)
            await (
                AccountDataKey.filter(id=row.id)
                .using_db(conn)
                .update(wrapped_key=wrap(new_key, row.id, material))
            )
            keys_done += 1
        for model in SIGNING_SECRET_MODELS:
            for holder in await model.all().using_db(conn):
                bound = holder.id
                current = old_box.decrypt(holder.secret_ciphertext, bound_to=bound)
                changes = {"secret_ciphertext": new_box.encrypt(current, bound_to=bound)}
                if holder.previous_secret_ciphertext:
                    previous = old_box.decrypt(holder.previous_secret_ciphertext, bound_to=bound)
                    changes["previous_secret_ciphertext"] = new_box.encrypt(
                        previous, bound_to=bound
                    )
                await model.filter(id=bound).using_db(conn).update(**changes)
                secrets_done += 1
    forget_keys()
    return keys_done, secrets_done
