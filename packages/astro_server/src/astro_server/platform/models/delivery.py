"""Horoscope feed subscriptions and their deliveries (one row per message, one per attempt).

* ``HoroscopeFeedSubscription``: what a customer asked for. ``next_due_at`` is the instant of
  its next scheduled delivery, NULL while paused or disabled, and indexed: the scheduler's due
  query is an index range scan on it. Signing secrets are stored encrypted (``secret_box``);
  during a rotation the previous one stays until ``previous_secret_expires_at``.
* ``FeedDelivery``: one message. Scheduled ones are unique per (subscription, local date): two
  schedulers, or one tick run twice, insert the same row once (the database refuses the second).
  ``next_attempt_at`` (indexed, NULL when nothing is pending) drives dispatch and retries.
* ``FeedDeliveryAttempt``: the log, one row per HTTP attempt.
* ``WebhookEndpoint``: an account's webhook endpoint for account events (reports, visual
  readings, campaigns). Its deliveries are ``FeedDelivery`` rows of kind ``event`` with
  ``endpoint`` set instead of ``subscription``: one table, one dispatch, one attempt path for
  every outbound webhook (the table keeps its first name).
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class HoroscopeFeedSubscription(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40, db_index=True)
    customer_id = fields.CharField(max_length=40)
    destination_url = fields.CharField(max_length=2048)
    # SHA-256 of the URL: the duplicate rule's unique index stays small whatever the URL length.
    destination_hash = fields.CharField(max_length=64)
    sign = fields.CharField(max_length=12)
    language = fields.CharField(max_length=2, default="en")
    timezone = fields.CharField(max_length=64, default="UTC")
    delivery_time = fields.CharField(max_length=5, default="08:00")
    active = fields.BooleanField(default=True)
    consecutive_failures = fields.IntField(default=0)
    disabled_at = fields.DatetimeField(null=True)
    secret_ciphertext = fields.TextField()
    previous_secret_ciphertext = fields.TextField(null=True)
    previous_secret_expires_at = fields.DatetimeField(null=True)
    next_due_at = fields.DatetimeField(null=True, db_index=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "horoscope_feed_subscriptions"
        unique_together = (("customer_id", "destination_hash", "sign", "language"),)
        indexes = (("customer_id", "created_at"),)


# Field names shared with HoroscopeFeedSubscription (destination_url, active,
# consecutive_failures, disabled_at, the secret columns) are what the delivery pipeline reads
# from either owner.
class WebhookEndpoint(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    destination_url = fields.CharField(max_length=2048)
    event_types: fields.Field[Any] = fields.JSONField(default=list)
    active = fields.BooleanField(default=True)
    consecutive_failures = fields.IntField(default=0)
    disabled_at = fields.DatetimeField(null=True)
    secret_ciphertext = fields.TextField()
    previous_secret_ciphertext = fields.TextField(null=True)
    previous_secret_expires_at = fields.DatetimeField(null=True)
    # "account": /api/v3/webhook-endpoints; "visual_delivery": /v1/visual-reading-deliveries
    # (a webhook, or an e-mail address stored as mailto:...).
    purpose = fields.CharField(max_length=20, default="account")
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "webhook_endpoints"
        indexes = (("account_id", "created_at"),)


class FeedDelivery(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    # Exactly one of subscription (horoscope feeds) and endpoint (account events) is set.
    subscription: fields.ForeignKeyNullableRelation[HoroscopeFeedSubscription] = (
        fields.ForeignKeyField(
            "astro.HoroscopeFeedSubscription",
            related_name="deliveries",
            on_delete=fields.CASCADE,
            null=True,
        )
    )
    endpoint: fields.ForeignKeyNullableRelation[WebhookEndpoint] = fields.ForeignKeyField(
        "astro.WebhookEndpoint", related_name="deliveries", on_delete=fields.CASCADE, null=True
    )
    event_type = fields.CharField(max_length=64, null=True)
    kind = fields.CharField(max_length=16, default="scheduled")  # scheduled | test | event
    # The subscriber's local date the horoscope is for; NULL for test deliveries.
    local_date = fields.DateField(null=True)
    message_id = fields.CharField(max_length=40, unique=True)
    # pending | delivering | retrying | succeeded | failed | abandoned
    status = fields.CharField(max_length=16, default="pending")
    attempts = fields.IntField(default=0)
    # Attempts in the current retry round (a manual retry starts a new round).
    round_attempts = fields.IntField(default=0)
    due_at = fields.DatetimeField(null=True)
    next_attempt_at = fields.DatetimeField(null=True, db_index=True)
    lease_expires_at = fields.DatetimeField(null=True)
    # Set by dispatch, replaced by the claiming worker: only one holder can write the outcome.
    lease_token = fields.CharField(max_length=32, null=True)
    # The exact bytes sent: every retry of one message carries the same body.
    body = fields.TextField(null=True)
    last_status_code = fields.IntField(null=True)
    last_error = fields.CharField(max_length=500, null=True)
    delivered_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "horoscope_feed_deliveries"
        unique_together = (("subscription_id", "local_date"),)
        indexes = (("subscription_id", "created_at"), ("endpoint_id", "created_at"))


class FeedDeliveryAttempt(Model):
    id = fields.BigIntField(primary_key=True)
    delivery: fields.ForeignKeyRelation[FeedDelivery] = fields.ForeignKeyField(
        "astro.FeedDelivery", related_name="attempt_log", on_delete=fields.CASCADE
    )
    number = fields.IntField()
    started_at = fields.DatetimeField()
    status_code = fields.IntField(null=True)
    duration_ms = fields.IntField()
    response_body = fields.TextField()
    error = fields.CharField(max_length=500, null=True)
    succeeded = fields.BooleanField()

    class Meta:
        table = "horoscope_feed_delivery_attempts"
        unique_together = (("delivery_id", "number"),)
