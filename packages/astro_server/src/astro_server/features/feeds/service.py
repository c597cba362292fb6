"""Horoscope feed subscriptions: create, list, pause/resume, rotate, delete; the delivery log.

Subscriptions belong to a customer; every lookup is scoped to the caller, so another customer's
id is "not found". The signing secret is generated here, stored encrypted (bound to the row id)
and handed back once. How deliveries are scheduled and sent: :mod:`.feed_pipeline`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.delivery.schedule import InvalidTimezone, delivery_zone, next_due
from astro_server.platform.delivery.secrets_box import SecretBox
from astro_server.platform.delivery.signing import ROTATION_OVERLAP, new_signing_secret
from astro_server.platform.delivery.ssrf import UnsafeDestination, canonical_url, check_destination
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.platform.paging import newest_first
from astro_server.settings import Settings

SIGNS = (
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
)
LANGUAGES = ("en", "th")
PENDING = ("pending", "retrying", "delivering")
FINISHED = ("succeeded", "failed", "abandoned")


_settings: Settings | None = None
_client: DeliveryClient | None = None
# One box per server key (the HKDF derivation runs once), each keeping decrypted secrets.
_boxes: dict[str, SecretBox] = {}
DECRYPTED_SECRETS_CACHED = 50_000


# --- process configuration -------------------------------------------------------------------


def configure(settings: Settings) -> None:
    """Settings of this process (called when the blueprint is registered on an app)."""
    global _settings
    _settings = settings


def current_settings() -> Settings:
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


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


def _box(settings: Settings) -> SecretBox:
    box = _boxes.get(settings.secret_key)
    if box is None:
        if len(_boxes) >= 8:  # tests make a key per app; a server has one
            _boxes.clear()
        box = _boxes[settings.secret_key] = SecretBox(
            settings.secret_key, cache_size=DECRYPTED_SECRETS_CACHED
        )
    return box


def iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- subscriptions ---------------------------------------------------------------------------


def subscription_view(sub: HoroscopeFeedSubscription) -> dict[str, Any]:
    return {
        "id": sub.id,
        "destination_url": sub.destination_url,
        "sign": sub.sign,
        "language": sub.language,
        "timezone": sub.timezone,
        "delivery_time": sub.delivery_time,
        "active": sub.active,
        "consecutive_failures": sub.consecutive_failures,
        "disabled_at": iso(sub.disabled_at),
        "created_at": iso(sub.created_at),
        "updated_at": iso(sub.updated_at),
    }


def _bad_request(code: str, field: str, message: str, *more: tuple[str, str, str]) -> APIError:
    """A 400 naming ``field``, and the field of each further (code, field, message) problem;
    the code and message are the first problem's."""
    problems = ((code, field, message), *more)
    err = validation_error([{"field": f, "message": m} for _c, f, m in problems], message)
    err.code = code
    return err


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


async def create_subscription(
    *,
    account_id: str,
    customer_id: str,
    destination_url: str,
    sign: str,
    language: str,
    timezone: str,
    delivery_time: str,
    now: datetime,
    settings: Settings,
) -> tuple[HoroscopeFeedSubscription, str]:
    """Create a subscription; returns it with its signing secret (shown to the caller once)."""
    # Both checks run, so a request failing both is told about both fields at once; the error's
    # code is the first failure's.
    problems: list[tuple[str, str, str]] = []
    try:
        delivery_zone(timezone)
    except InvalidTimezone as exc:
        problems.append(("invalid_timezone", "timezone", str(exc)))
    try:
        await check_destination(
            destination_url, allow_loopback=settings.allow_loopback_destinations
        )
    except UnsafeDestination as exc:
        message = await unsafe_destination_message(destination_url, exc, settings)
        problems.append(("unsafe_destination", "destination_url", message))
    if problems:
        raise _bad_request(*problems[0], *problems[1:])
    destination_url = canonical_url(destination_url)
    destination_hash = hashlib.sha256(destination_url.encode()).hexdigest()
    duplicate = await HoroscopeFeedSubscription.filter(
        customer_id=customer_id, destination_hash=destination_hash, sign=sign, language=language
    ).exists()
    if duplicate:
        raise _duplicate()
    sub_id = "hfs_" + secrets.token_hex(12)
    secret = new_signing_secret()
    try:
        async with in_transaction() as conn:
            # Creations by one customer take turns (the customer's row is locked on PostgreSQL;
            # SQLite has one writer), so concurrent requests cannot pass the limit together.
            if conn.capabilities.dialect == "postgres":
                await conn.execute_query(
                    "SELECT id FROM customers WHERE id = $1 FOR UPDATE", [customer_id]
                )
            held = (
                await HoroscopeFeedSubscription.filter(customer_id=customer_id)
                .using_db(conn)
                .count()
            )
            if held >= settings.max_subscriptions_per_customer:
                raise _limit_reached(settings.max_subscriptions_per_customer)
            sub = await HoroscopeFeedSubscription.create(
                id=sub_id,
                account_id=account_id,
                customer_id=customer_id,
                destination_url=destination_url,
                destination_hash=destination_hash,
                sign=sign,
                language=language,
                timezone=timezone,
                delivery_time=delivery_time,
                secret_ciphertext=_box(settings).encrypt(secret, bound_to=sub_id),
                next_due_at=next_due(timezone, delivery_time, now).due_at,
                using_db=conn,
            )
    except IntegrityError:
        raise _duplicate() from None  # lost a race with an identical request
    return sub, secret


def _limit_reached(limit: int) -> APIError:
    return APIError(
        409,
        f"This customer already holds {limit} horoscope feed subscriptions, the most allowed; "
        "delete one to make room.",
        error="conflict",
        code="subscription_limit",
    )


def _duplicate() -> APIError:
    return _bad_request(
        "duplicate_subscription",
        "destination_url",
        "A subscription for this destination, sign and language already exists.",
    )


async def owned_subscription(customer_id: str, sub_id: str) -> HoroscopeFeedSubscription:
    sub = await HoroscopeFeedSubscription.get_or_none(id=sub_id, customer_id=customer_id)
    if sub is None:
        raise not_found("Horoscope feed subscription")
    return sub


async def list_subscriptions(
    customer_id: str, *, limit: int, cursor: str | None
) -> tuple[list[HoroscopeFeedSubscription], str | None]:
    """Newest first; ``cursor`` is the id of the last item of the previous page."""
    query = HoroscopeFeedSubscription.filter(customer_id=customer_id)
    return await newest_first(query, limit=limit, cursor=cursor)


async def set_active(
    sub: HoroscopeFeedSubscription, active: bool, *, now: datetime
) -> HoroscopeFeedSubscription:
    """Pause, or resume (which clears ``disabled_at`` and ``consecutive_failures``)."""
    if active:
        changes: dict[str, Any] = {
            "active": True,
            "disabled_at": None,
            "consecutive_failures": 0,
            "next_due_at": next_due(sub.timezone, sub.delivery_time, now).due_at,
        }
    else:
        changes = {"active": False, "next_due_at": None}
    await HoroscopeFeedSubscription.filter(id=sub.id).update(**changes, updated_at=now)
    await sub.refresh_from_db()
    return sub


async def delete_subscription(sub: HoroscopeFeedSubscription) -> None:
    await sub.delete()


async def rotate_secret(
    sub: HoroscopeFeedSubscription, *, now: datetime, settings: Settings
) -> tuple[HoroscopeFeedSubscription, str, datetime]:
    """A new secret; the current one keeps signing beside it for 24 h (returned: ``until``)."""
    secret = new_signing_secret()
    until = now + ROTATION_OVERLAP
    await HoroscopeFeedSubscription.filter(id=sub.id).update(
        secret_ciphertext=_box(settings).encrypt(secret, bound_to=sub.id),
        previous_secret_ciphertext=sub.secret_ciphertext,
        previous_secret_expires_at=until,
        updated_at=now,
    )
    await sub.refresh_from_db()
    return sub, secret, until


def secrets_in_use(
    sub: HoroscopeFeedSubscription | WebhookEndpoint, now: datetime, settings: Settings
) -> list[str]:
    """The secrets a message is signed with now: the current one, and the previous one during
    a rotation's overlap (a feed subscription or an account's webhook endpoint)."""
    box = _box(settings)
    in_use = [box.decrypt(sub.secret_ciphertext, bound_to=sub.id)]
    if (
        sub.previous_secret_ciphertext
        and sub.previous_secret_expires_at is not None
        and sub.previous_secret_expires_at > now
    ):
        in_use.append(box.decrypt(sub.previous_secret_ciphertext, bound_to=sub.id))
    return in_use


# --- deliveries: views and the attempt log ---------------------------------------------------


def attempt_view(attempt: FeedDeliveryAttempt) -> dict[str, Any]:
    return {
        "number": attempt.number,
        "started_at": iso(attempt.started_at),
        "status_code": attempt.status_code,
        "duration_ms": attempt.duration_ms,
        "response_body": attempt.response_body,
        "error": attempt.error,
        "succeeded": attempt.succeeded,
    }


def delivery_view(
    delivery: FeedDelivery, attempts: Sequence[FeedDeliveryAttempt] = ()
) -> dict[str, Any]:
    return {
        "id": delivery.id,
        "subscription_id": delivery.subscription_id,  # type: ignore[attr-defined]
        "message_id": delivery.message_id,
        "kind": delivery.kind,
        "local_date": delivery.local_date.isoformat() if delivery.local_date else None,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_attempt_at": iso(delivery.next_attempt_at) if delivery.status in PENDING else None,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "created_at": iso(delivery.created_at),
        "delivered_at": iso(delivery.delivered_at),
        "attempt_log": [attempt_view(a) for a in attempts],
    }


async def list_deliveries(
    sub: HoroscopeFeedSubscription, *, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    query = FeedDelivery.filter(subscription_id=sub.id)
    page, next_cursor = await newest_first(query, limit=limit, cursor=cursor)
    attempts: dict[str, list[FeedDeliveryAttempt]] = defaultdict(list)
    if page:
        for attempt in await FeedDeliveryAttempt.filter(
            delivery_id__in=[d.id for d in page]
        ).order_by("number"):
            attempts[attempt.delivery_id].append(attempt)  # type: ignore[attr-defined]
    return [delivery_view(d, attempts[d.id]) for d in page], next_cursor


async def delivery_with_log(delivery: FeedDelivery) -> dict[str, Any]:
    attempts = await FeedDeliveryAttempt.filter(delivery_id=delivery.id).order_by("number")
    return delivery_view(delivery, attempts)


async def owned_delivery(sub: HoroscopeFeedSubscription, delivery_id: str) -> FeedDelivery:
    delivery = await FeedDelivery.get_or_none(id=delivery_id, subscription_id=sub.id)
    if delivery is None:
        raise not_found("Delivery")
    return delivery
