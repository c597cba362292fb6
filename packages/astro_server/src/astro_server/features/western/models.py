"""Calendar feeds (issue 45): a revocable iCalendar subscription URL of an account's sky events,
or of a client profile's personal forecast, that a calendar app polls.

The URL's token is shown once, at creation; only its SHA-256 digest is stored (``token_digest``),
so the table cannot give a feed's URL back. Revoking a feed sets ``revoked_at``: its URL stops
answering at once. ``read_count`` and ``last_read_at`` count the public reads.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class CalendarFeed(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    # "sky_events" (the account's choice of kinds and bodies) or "forecast" (a client profile).
    feed_kind = fields.CharField(max_length=16)
    name = fields.CharField(max_length=120, default="")
    token_digest = fields.CharField(max_length=64, unique=True)
    kinds: fields.Field[Any] = fields.JSONField(default=list)
    bodies: fields.Field[Any] = fields.JSONField(null=True)
    void_of_course_rule = fields.CharField(max_length=16, default="traditional")
    timezone = fields.CharField(max_length=64, default="UTC")
    language = fields.CharField(max_length=8, default="en")
    profile_id = fields.CharField(max_length=40, null=True)
    orb_deg: fields.Field[Any] = fields.JSONField(null=True)
    created_by = fields.CharField(max_length=40, null=True)
    read_count = fields.BigIntField(default=0)
    last_read_at = fields.DatetimeField(null=True)
    revoked_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "calendar_feeds"
        indexes = (("account_id", "created_at"),)
