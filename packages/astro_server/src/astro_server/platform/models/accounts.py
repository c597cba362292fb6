"""Accounts and their credentials.

An account is the paying tenant: every API key, customer, job and ledger row belongs to one.
API keys are machine credentials; customers log in with e-mail and password and get session
tokens. Keys and tokens are stored only as SHA-256 digests (they are high-entropy random strings,
so a fast hash is right); passwords only as argon2id hashes.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Account(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    name = fields.CharField(max_length=200)
    tier = fields.CharField(max_length=20, default="free")
    credits = fields.BigIntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "accounts"


class ApiKey(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account: fields.ForeignKeyRelation[Account] = fields.ForeignKeyField(
        "astro.Account", related_name="api_keys", on_delete=fields.CASCADE
    )
    # First 12 characters of the key ("ak_live_AbCd"): shown to operators, used by revoke-key.
    prefix = fields.CharField(max_length=16, db_index=True)
    key_hash = fields.CharField(max_length=64, unique=True)
    environment = fields.CharField(max_length=8, default="live")
    name = fields.CharField(max_length=100, default="")
    # Space-separated scopes (platform/auth/scopes.py); "*" is every scope (keys made before
    # scopes).
    scopes = fields.CharField(max_length=300, default="*")
    created_at = fields.DatetimeField(auto_now_add=True)
    revoked_at = fields.DatetimeField(null=True)
    # A rotated key keeps working until then (the rotation's grace period); null: no end.
    expires_at = fields.DatetimeField(null=True)
    # Written at most once a minute per key and process (platform/auth/guards.py), not per request.
    last_used_at = fields.DatetimeField(null=True)
    # Who minted it (a login's cus_..., a key's key_..., or "operator") and that maker's role
    # then (for a key: its own effective role). A key never acts above it
    # (platform/auth/roles.py); NULL (keys made before migration 0018): owner.
    created_by = fields.CharField(max_length=40, null=True)
    creator_role = fields.CharField(max_length=16, null=True)
    # The key a rotation replaced this one with: revoking that key ends this one's grace too.
    replaced_by = fields.CharField(max_length=40, null=True)

    class Meta:
        table = "api_keys"


class Customer(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account: fields.ForeignKeyRelation[Account] = fields.ForeignKeyField(
        "astro.Account", related_name="customers", on_delete=fields.CASCADE
    )
    email = fields.CharField(max_length=254, unique=True)
    password_hash = fields.CharField(max_length=200)
    # owner | admin | member | viewer (platform/auth/roles.py); customers made before roles: owner.
    role = fields.CharField(max_length=16, default="owner")
    created_at = fields.DatetimeField(auto_now_add=True)
    disabled_at = fields.DatetimeField(null=True)
    # The interface language the login chose last (en | th; PATCH /auth/me), NULL until chosen.
    language = fields.CharField(max_length=8, null=True)

    class Meta:
        table = "customers"


class TeamInvitation(Model):
    """An invitation to become a login of an account: its token is stored only as a digest,
    used once (``accepted_at``) and valid until ``expires_at`` (72 h)."""

    id = fields.CharField(max_length=40, primary_key=True)  # inv_ + 24 hex
    account_id = fields.CharField(max_length=40, db_index=True)
    email = fields.CharField(max_length=254)
    role = fields.CharField(max_length=16)
    token_hash = fields.CharField(max_length=64, unique=True)
    invited_by = fields.CharField(max_length=40)  # key_... or cus_...
    created_at = fields.DatetimeField()
    expires_at = fields.DatetimeField()
    accepted_at = fields.DatetimeField(null=True)
    customer_id = fields.CharField(max_length=40, null=True)

    class Meta:
        table = "team_invitations"


class CustomerSession(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    customer: fields.ForeignKeyRelation[Customer] = fields.ForeignKeyField(
        "astro.Customer", related_name="sessions", on_delete=fields.CASCADE
    )
    token_hash = fields.CharField(max_length=64, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    revoked_at = fields.DatetimeField(null=True)

    class Meta:
        table = "customer_sessions"
