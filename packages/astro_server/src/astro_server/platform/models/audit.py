"""The audit log: append-only rows of who did what to which object, when and from where.

Rows are written by :func:`astro_server.platform.audit.record_audit` and never changed or
deleted by the application (PostgreSQL refuses UPDATE and DELETE on the table: migration 0009).
They hold ids and action names only: no secret, no personal field.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class AuditEvent(Model):
    id = fields.BigIntField(primary_key=True, generated=True)
    account_id = fields.CharField(max_length=40)
    actor_id = fields.CharField(max_length=40)  # key_... or cus_...
    actor_kind = fields.CharField(max_length=16)  # api_key | customer | operator
    action = fields.CharField(max_length=64)  # key.created, key.rotated, key.revoked, ...
    object_id = fields.CharField(max_length=64, null=True)
    livemode = fields.BooleanField(default=True)
    request_id = fields.CharField(max_length=64, null=True)
    client_address = fields.CharField(max_length=64, null=True)
    created_at = fields.DatetimeField()

    class Meta:
        table = "audit_log"
        indexes = (("account_id", "created_at"),)
