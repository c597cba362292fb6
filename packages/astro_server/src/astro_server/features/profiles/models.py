"""Encrypted client profiles and the per-account data keys that seal them.

Nothing personal is stored in clear: a profile's fields (name, birth, gender, tags, external id,
notes) are one AES-256-GCM ciphertext (``sealed``) under a key derived from its account's data
key, bound to the profile id; exact-match lookups go through blind indexes (HMAC-SHA256 under
another key derived from the data key): ``external_id_index`` and one
:class:`ClientProfileTag` row per tag. A data key is stored only wrapped by the server's master
key (``wrapped_key``); crypto-shredding sets it to null, after which the account's profiles sealed
under it can never be read again. See ``features/profiles/crypto.py``.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class AccountDataKey(Model):
    id = fields.CharField(max_length=40, primary_key=True)  # dk_ + 24 hex
    account_id = fields.CharField(max_length=40, db_index=True)
    # SecretBox ciphertext (master key, info "astro account data keys v1", bound to the id);
    # null once destroyed (crypto-shred).
    wrapped_key = fields.CharField(max_length=200, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    destroyed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "account_data_keys"


class ClientProfile(Model):
    id = fields.CharField(max_length=40, primary_key=True)  # prof_ + 24 hex
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    data_key_id = fields.CharField(max_length=40)
    sealed = fields.TextField()  # v1.<base64url(nonce || ciphertext || tag)>
    external_id_index = fields.CharField(max_length=64, null=True)  # hex HMAC, or null
    created_at = fields.DatetimeField()
    updated_at = fields.DatetimeField()

    class Meta:
        table = "client_profiles"
        indexes = (("account_id", "livemode", "id"), ("account_id", "external_id_index"))


class ClientProfileTag(Model):
    id = fields.BigIntField(primary_key=True, generated=True)
    profile: fields.ForeignKeyRelation[ClientProfile] = fields.ForeignKeyField(
        "astro.ClientProfile", related_name="tag_rows", on_delete=fields.CASCADE
    )
    account_id = fields.CharField(max_length=40)
    tag_index = fields.CharField(max_length=64)  # hex HMAC of the tag

    class Meta:
        table = "client_profile_tags"
        indexes = (("account_id", "tag_index"),)
