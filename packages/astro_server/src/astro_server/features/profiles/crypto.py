"""Envelope encryption of client profiles: per-account data keys wrapped by the master key.

The data keys themselves (wrap, unwrap, cache, the account's active key) are the platform's
(:mod:`astro_server.platform.datakeys`: job parameters and idempotency replay bodies are sealed
under the same keys); this module re-exports them and rotates the master key.

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
  Job parameters and idempotency replay bodies sealed under the same keys are unreadable too.

**Cache**: unwrapping means an HKDF and an AES-GCM decryption; each process keeps the unwrapped
key of a (data key id, wrapped ciphertext) pair for :data:`CACHE_TTL_S` seconds. The pair is read
from the database with the profile on every request (the profile query joins the key row), so a
shredded key (row null) or a re-wrapped one (new ciphertext) is never served from the cache: the
cache saves CPU only and cannot outlive a revocation. Entries expire so that key material does
not stay in memory after an account stops calling.
"""

from __future__ import annotations

from tortoise.transactions import in_transaction

from astro_server.features.profiles.models import AccountDataKey
from astro_server.platform.datakeys import (
    CACHE_TTL_S,
    FIELDS_INFO,
    INDEX_INFO,
    WRAP_INFO,
    DataKey,
    KeyUnavailable,
    active_key,
    forget_keys,
    unwrap,
    unwrap_material,
    wrap,
)
from astro_server.platform.delivery.secrets_box import SecretBox
from astro_server.platform.models.delivery import HoroscopeFeedSubscription, WebhookEndpoint

__all__ = [
    "CACHE_TTL_S",
    "FIELDS_INFO",
    "INDEX_INFO",
    "SIGNING_SECRET_MODELS",
    "WRAP_INFO",
    "DataKey",
    "KeyUnavailable",
    "active_key",
    "forget_keys",
    "rotate_master_key",
    "unwrap",
    "unwrap_material",
    "wrap",
]

#: Rows holding delivery signing secrets under the master key (``secret_ciphertext`` and
#: ``previous_secret_ciphertext``, bound to the row id): re-encrypted by a rotation.
SIGNING_SECRET_MODELS: tuple[type[HoroscopeFeedSubscription] | type[WebhookEndpoint], ...] = (
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)


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
