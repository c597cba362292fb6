"""Asynchronous jobs: one row per queued unit of work, visible only to its account."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Job(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    kind = fields.CharField(max_length=100)
    status = fields.CharField(max_length=16, default="queued", db_index=True)
    params: fields.Field[Any] = fields.JSONField()
    result: fields.Field[Any] = fields.JSONField(null=True)
    error: fields.Field[Any] = fields.JSONField(null=True)
    progress = fields.FloatField(default=0.0)
    credits_charged = fields.BigIntField(default=0)
    credits_refunded = fields.BigIntField(default=0)
    # The debit that paid for the job: the refund points back at it (at most once).
    ledger_entry_id = fields.BigIntField(null=True)
    # False for a job made with a test key (ak_test_): seen only by test keys, and the other
    # way round.
    livemode = fields.BooleanField(default=True)
    # Who queued it: the API key (key_...), or the login of a customer session (cus_...); heavy
    # kinds are limited per creator (platform/jobs.py, Concurrency). NULL: made before 0017.
    created_by = fields.CharField(max_length=40, null=True)
    attempts = fields.IntField(default=0)
    lease_expires_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(db_index=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "jobs"
        indexes = (("account_id", "created_at"), ("created_by", "status"))
