"""Visual-reading deliveries (spec 5): a customer's webhook or e-mail destination for the four
visual events. Stored as account webhook endpoints with ``purpose = "visual_delivery"`` (an
e-mail address as ``mailto:<address>``), so :func:`emit_account_event` and the one delivery
pipeline carry them: Standard Webhooks signing, SSRF rules at creation and at every attempt,
retries, attempt log, failure counting and disabling; e-mail goes out by SMTP
(:mod:`astro_server.platform.delivery.mail`) with the same bookkeeping."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from astro_server.platform import clock
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import events
from astro_server.platform.delivery.common import secret_box
from astro_server.platform.delivery.signing import new_signing_secret
from astro_server.platform.errors import APIError, validation_error
from astro_server.platform.models.delivery import WebhookEndpoint
from astro_server.platform.owned import owned, owned_query
from astro_server.platform.paging import newest_first
from astro_server.settings import Settings

EVENT_TYPES = (
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
)
PURPOSE = "visual_delivery"
# Practical address check (RFC 5321 lengths; one @; a dotted domain; no spaces or angle brackets).
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_EMAIL = re.compile(rf"^[^@\s<>\"]{{1,64}}@{_LABEL}(?:\.{_LABEL})+$")


def is_email(destination: str) -> bool:
    return "://" not in destination and "@" in destination


def subscription_view(endpoint: WebhookEndpoint) -> dict[str, Any]:
    destination = endpoint.destination_url
    return {
        "id": endpoint.id,
        "destination": destination[7:] if destination.startswith("mailto:") else destination,
        "channel": "email" if destination.startswith("mailto:") else "webhook",
        "event_types": list(endpoint.event_types),
        "active": endpoint.active,
        "consecutive_failures": endpoint.consecutive_failures,
        "disabled_at": clock.iso(endpoint.disabled_at),
        "created_at": clock.iso(endpoint.created_at),
    }


def _checked_types(event_types: Sequence[str]) -> list[str]:
    unknown = [t for t in event_types if t not in EVENT_TYPES]
    if not event_types or unknown:
        raise validation_error(
            [{"field": "event_types", "message": f"1 to 4 of {', '.join(EVENT_TYPES)}"}]
        )
    return list(dict.fromkeys(event_types))


async def create_subscription(
    caller: Caller, destination: str, event_types: Sequence[str], settings: Settings
) -> tuple[WebhookEndpoint, str | None]:
    """Returns the subscription and, for a webhook, its signing secret (shown once). It
    belongs to the caller's account and mode (a session's: live)."""
    account_id = caller.account_id
    types = _checked_types(event_types)
    if is_email(destination):
        if len(destination) > 254 or not _EMAIL.match(destination):
            raise validation_error([{"field": "destination", "message": "not an e-mail address"}])
        endpoint_id = "whe_" + secrets.token_hex(12)
        endpoint = await WebhookEndpoint.create(
            id=endpoint_id,
            account_id=account_id,
            livemode=caller.livemode,
            destination_url="mailto:" + destination.lower(),
            event_types=types,
            purpose=PURPOSE,
            # Never used to sign (e-mail is not signed); kept so every row has a secret.
            secret_ciphertext=secret_box(settings).encrypt(
                new_signing_secret(), bound_to=endpoint_id
            ),
        )
        return endpoint, None
    if not destination.startswith("https://"):
        raise validation_error(
            [{"field": "destination", "message": "an https URL or an e-mail address"}]
        )
    try:
        endpoint, secret = await events.create_endpoint(
            account_id=account_id, url=destination, event_types=types, livemode=caller.livemode,
            settings=settings,
        )  # fmt: skip
    except APIError as exc:
        if exc.details:  # the account-webhook field is named url: ours is destination
            exc.details = [
                {**d, "field": "destination" if d["field"] == "url" else d["field"]}
                for d in exc.details
            ]
        raise
    await WebhookEndpoint.filter(id=endpoint.id).update(purpose=PURPOSE)
    return endpoint, secret


async def owned_subscription(caller: Caller, subscription_id: str) -> WebhookEndpoint:
    """The caller's subscription (same account and mode; any other: 404)."""
    return await owned(
        caller, WebhookEndpoint, subscription_id, "Visual-reading delivery", purpose=PURPOSE
    )


async def list_subscriptions(
    caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[WebhookEndpoint], str | None]:
    """The account's subscriptions, newest first; ``cursor`` is the last id of the previous
    page (another account's or an unknown id: 400 naming ``cursor``)."""
    query = owned_query(caller, WebhookEndpoint, purpose=PURPOSE)
    return await newest_first(query, limit=limit, cursor=cursor)
