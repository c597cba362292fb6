"""Accounts: the paying tenant. Every API key, job and ledger row belongs to one."""

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
