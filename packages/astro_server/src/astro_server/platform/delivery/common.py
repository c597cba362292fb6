"""What every owner of deliveries shares (horoscope feeds, account webhook endpoints, visual
reading deliveries, campaigns): the process's settings and delivery client, the box that keeps
signing secrets encrypted at rest, the secrets a message is signed with, delivery statuses, and
the views of a delivery and its attempt log."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from astro_server.platform import clock, runtime
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.delivery.secrets_box import SecretBox
from astro_server.platform.delivery.ssrf import UnsafeDestination, check_destination
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.platform.paging import newest_first
from astro_server.settings import Settings

PENDING = ("pending", "retrying", "delivering")
FINISHED = ("succeeded", "failed", "abandoned")


_client: DeliveryClient | None = None
# One box per server key (the HKDF derivation runs once), each keeping decrypted secrets.
_boxes: dict[str, SecretBox] = {}
DECRYPTED_SECRETS_CACHED = 50_000


# --- process configuration -------------------------------------------------------------------


def current_settings() -> Settings:
    """The settings of this process's platform (:func:`astro_server.platform.runtime.settings`)."""
    return runtime.settings()


def set_client(client: DeliveryClient | None) -> None:
    """Replace the process's delivery client (tests inject one trusting their CA)."""
    global _client
    _client = client


def client() -> DeliveryClient:
    global _client
    if _client is None:
        settings = current_settings()
        local_trust = None
        if settings.local_webhooks and settings.embedded:
            from astro_server.webhook_listen import CERT_FILE_NAME

            local_trust = settings.data_dir / CERT_FILE_NAME
        _client = DeliveryClient(
            allow_loopback=settings.allow_loopback_destinations, loopback_trust_file=local_trust
        )
    return _client


def secret_box(settings: Settings) -> SecretBox:
    box = _boxes.get(settings.secret_key)
    if box is None:
        if len(_boxes) >= 8:  # tests make a key per app; a server has one
            _boxes.clear()
        box = _boxes[settings.secret_key] = SecretBox(
            settings.secret_key, cache_size=DECRYPTED_SECRETS_CACHED
        )
    return box


def bad_request(code: str, field: str, message: str, *more: tuple[str, str, str]) -> APIError:
    """A 400 naming ``field``, and the field of each further (code, field, message) problem;
    the code and message are the first problem's."""
    problems = ((code, field, message), *more)
    err = validation_error([{"field": f, "message": m} for _c, f, m in problems], message)
    err.code = code
    return err


def secrets_in_use(
    sub: HoroscopeFeedSubscription | WebhookEndpoint, now: datetime, settings: Settings
) -> list[str]:
    """The secrets a message is signed with now: the current one, and the previous one during
    a rotation's overlap (a feed subscription or an account's webhook endpoint)."""
    box = secret_box(settings)
    in_use = [box.decrypt(sub.secret_ciphertext, bound_to=sub.id)]
    if (
        sub.previous_secret_ciphertext
        and sub.previous_secret_expires_at is not None
        and sub.previous_secret_expires_at > now
    ):
        in_use.append(box.decrypt(sub.previous_secret_ciphertext, bound_to=sub.id))
    return in_use


def attempt_view(attempt: FeedDeliveryAttempt) -> dict[str, Any]:
    return {
        "number": attempt.number,
        "started_at": clock.iso(attempt.started_at),
        "status_code": attempt.status_code,
        "duration_ms": attempt.duration_ms,
        "response_body": attempt.response_body,
        "error": attempt.error,
        "succeeded": attempt.succeeded,
    }


def delivery_state(
    delivery: FeedDelivery, attempts: Sequence[FeedDeliveryAttempt] = ()
) -> dict[str, Any]:
    """What every delivery shows whoever owns it: its status, attempts, last answer, times and
    the attempt log (an owner's view puts its own fields first)."""
    return {
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_attempt_at": clock.iso(delivery.next_attempt_at)
        if delivery.status in PENDING
        else None,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "created_at": clock.iso(delivery.created_at),
        "delivered_at": clock.iso(delivery.delivered_at),
        "attempt_log": [attempt_view(a) for a in attempts],
    }


def delivery_view(
    delivery: FeedDelivery, attempts: Sequence[FeedDeliveryAttempt] = ()
) -> dict[str, Any]:
    """A horoscope feed's delivery."""
    return {
        "id": delivery.id,
        "subscription_id": delivery.subscription_id,  # type: ignore[attr-defined]
        "message_id": delivery.message_id,
        "kind": delivery.kind,
        "local_date": delivery.local_date.isoformat() if delivery.local_date else None,
        **delivery_state(delivery, attempts),
    }


DeliveryView = Callable[[FeedDelivery, Sequence[FeedDeliveryAttempt]], dict[str, Any]]


async def delivery_log(
    owner: dict[str, str], view: DeliveryView, *, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of an owner's deliveries, newest first, each with its attempt log;
    ``owner`` is the filter naming it (``{"subscription_id": ...}``, ``{"endpoint_id": ...}``)."""
    query = FeedDelivery.filter(**owner)
    page, next_cursor = await newest_first(query, limit=limit, cursor=cursor)
    attempts: dict[str, list[FeedDeliveryAttempt]] = defaultdict(list)
    if page:
        for attempt in await FeedDeliveryAttempt.filter(
            delivery_id__in=[d.id for d in page]
        ).order_by("number"):
            attempts[attempt.delivery_id].append(attempt)  # type: ignore[attr-defined]
    return [view(d, attempts[d.id]) for d in page], next_cursor


async def with_attempt_log(delivery: FeedDelivery, view: DeliveryView) -> dict[str, Any]:
    attempts = await FeedDeliveryAttempt.filter(delivery_id=delivery.id).order_by("number")
    return view(delivery, attempts)


async def owned_delivery(owner: dict[str, str], delivery_id: str) -> FeedDelivery:
    """The owner's delivery (``owner`` as in :func:`delivery_log`); 404 for anyone else's."""
    delivery = await FeedDelivery.filter(id=delivery_id, **owner).first()
    if delivery is None:
        raise not_found("Delivery")
    return delivery


#: What a developer refused a loopback destination on the embedded server is told to do.
LOCAL_WEBHOOKS_HINT: Final = (
    "start the embedded server with ASTRO_LOCAL_WEBHOOKS=1 and use astro-server webhook-listen"
)


async def unsafe_destination_message(url: str, exc: UnsafeDestination, settings: Settings) -> str:
    """The 400's message for a refused destination. On the embedded server only (a developer's
    machine), a destination refused only for being loopback also names the setting that allows
    it; a production server never suggests trusting loopback."""
    message = f"Unsafe destination: {exc.reason}."
    if settings.embedded and not settings.allow_loopback_destinations:
        try:
            await check_destination(url, allow_loopback=True)
        except UnsafeDestination:
            return message  # refused for another reason as well: the hint would not help
        message += f" For local development, {LOCAL_WEBHOOKS_HINT}."
    return message
