"""The credit ledger and idempotency records.

Every change of an account's balance is one ``LedgerEntry`` (debit negative, refund and top-up
positive), written in the same transaction as the balance update, so the ledger sums to the balance
movements. An ``IdempotencyRecord`` remembers the first request made with an ``Idempotency-Key``
(scope: credential, method, path) and, once finished, its response for replay.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class LedgerEntry(Model):
    id = fields.BigIntField(primary_key=True, generated=True)
    account_id = fields.CharField(max_length=40)
    kind = fields.CharField(max_length=16)  # debit | refund | top_up
    amount = fields.BigIntField()  # signed: debits negative
    operation = fields.CharField(max_length=100, default="")
    credential_id = fields.CharField(max_length=40, null=True)
    job_id = fields.CharField(max_length=40, null=True, db_index=True)
    request_id = fields.CharField(max_length=64, null=True)
    # The debit a refund gives back; unique so one debit is refunded at most once.
    refund_of = fields.BigIntField(null=True, unique=True)
    # The account's balance right after this row's change (null on rows older than 0009).
    balance_after = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "ledger_entries"
        # (account_id, id): the ledger listing, newest first. The usage endpoint's covering
        # index (account_id, created_at) INCLUDE (kind, operation, amount) is made by migration
        # 0009 in SQL (Tortoise cannot declare INCLUDE columns).
        indexes = (("account_id", "id"),)


class IdempotencyRecord(Model):
    id = fields.BigIntField(primary_key=True, generated=True)
    credential_id = fields.CharField(max_length=40)
    method = fields.CharField(max_length=8)
    path = fields.CharField(max_length=500)
    key = fields.CharField(max_length=255)
    request_hash = fields.CharField(max_length=64)
    status = fields.CharField(max_length=16, default="in_progress")  # in_progress | completed
    response_status = fields.IntField(null=True)
    response_body = fields.TextField(null=True)
    response_headers: fields.Field[Any] = fields.JSONField(null=True)
    ledger_entry_id = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField(db_index=True)
    # In progress: renewed by the claiming process while its request runs (NULL: never renewed,
    # the lease counts from created_at); past it, the process died and the claim is refunded.
    lease_expires_at = fields.DatetimeField(null=True)

    class Meta:
        table = "idempotency_records"
        unique_together = (("credential_id", "method", "path", "key"),)
        indexes = (("status", "lease_expires_at"),)


class UsageDaily(Model):
    """Debits and refunds of one account, UTC day, operation and kind, summed once the day is
    closed (platform/billing/usage.py rolls closed days up on demand; the ledger stays the
    truth)."""

    id = fields.BigIntField(primary_key=True, generated=True)
    account_id = fields.CharField(max_length=40)
    day = fields.CharField(max_length=10)  # YYYY-MM-DD (UTC)
    operation = fields.CharField(max_length=100)
    kind = fields.CharField(max_length=16)  # debit | refund
    calls = fields.BigIntField()
    credits = fields.BigIntField()  # signed sum of the rows' amounts

    class Meta:
        table = "usage_daily"
        unique_together = (("account_id", "day", "operation", "kind"),)


class UsageRollup(Model):
    """How far an account's ledger is summed into ``usage_daily``: every UTC day before
    ``rolled_until`` (YYYY-MM-DD, exclusive)."""

    account_id = fields.CharField(max_length=40, primary_key=True)
    rolled_until = fields.CharField(max_length=10)

    class Meta:
        table = "usage_rollups"
