"""Campaigns (enterprise): a content calendar for signs, languages and markets over up to 92
days, delivered each day at the campaign's local time to the account's webhook endpoints.

* ``Campaign``: ``next_due_at`` (indexed, NULL when paused or finished) is the instant of its
  next delivery, as for horoscope feed subscriptions; ``livemode`` is false for campaigns made
  with an ``ak_test_`` key (their events go to test endpoints only).
* ``CampaignDay``: one row per (campaign, local date) whose content was handed to the delivery
  engine. Its unique constraint is what makes delivery exactly-once: the row and the event's
  delivery rows are written in one transaction, and a second scheduler's insert is a no-op.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Campaign(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    name = fields.CharField(max_length=120)
    start = fields.DateField()
    end = fields.DateField()
    signs: fields.Field[Any] = fields.JSONField(default=list)
    languages: fields.Field[Any] = fields.JSONField(default=list)
    markets: fields.Field[Any] = fields.JSONField(default=list)
    delivery_time = fields.CharField(max_length=5, default="08:00")
    timezone = fields.CharField(max_length=64, default="UTC")
    active = fields.BooleanField(default=True)
    next_due_at = fields.DatetimeField(null=True, db_index=True)
    credits_charged = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "campaigns"
        indexes = (("account_id", "created_at"),)


class CampaignDay(Model):
    id = fields.BigIntField(primary_key=True)
    campaign: fields.ForeignKeyRelation[Campaign] = fields.ForeignKeyField(
        "astro.Campaign", related_name="days", on_delete=fields.CASCADE
    )
    local_date = fields.DateField()
    event_id = fields.CharField(max_length=40)
    endpoints = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "campaign_days"
        unique_together = (("campaign_id", "local_date"),)
