"""Horoscope feed subscriptions: create, list, pause/resume, rotate, delete; the delivery log.

Subscriptions belong to a customer; every lookup is scoped to the caller, so another customer's
id is "not found". The signing secret is generated here, stored encrypted (bound to the row id)
and handed back once. How deliveries are scheduled and sent: the delivery engine,
:mod:`astro_server.platform.delivery.engine`.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_calc.zodiac import SIGNS as SIGNS
from astro_server.platform import clock
from astro_server.platform.delivery import common
from astro_server.platform.delivery.common import (
    bad_request,
    delivery_view,
    secret_box,
    unsafe_destination_message,
)
from astro_server.platform.delivery.schedule import InvalidTimezone, delivery_zone, next_due
from astro_server.platform.delivery.signing import ROTATION_OVERLAP, new_signing_secret
from astro_server.platform.delivery.ssrf import UnsafeDestination, canonical_url, check_destination
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.models.delivery import (
    FeedDelivery,
)
from astro_server.platform.models.delivery import (
    HoroscopeFeedSubscription as HoroscopeFeedSubscription,  # re-exported for the routes
)
from astro_server.platform.paging import newest_first
from astro_server.settings import Settings

LANGUAGES = ("en", "th")
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
        "disabled_at": clock.iso(sub.disabled_at),
        "created_at": clock.iso(sub.created_at),
        "updated_at": clock.iso(sub.updated_at),
    }


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
        raise bad_request(*problems[0], *problems[1:])
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
                secret_ciphertext=secret_box(settings).encrypt(secret, bound_to=sub_id),
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
    return bad_request(
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
        secret_ciphertext=secret_box(settings).encrypt(secret, bound_to=sub.id),
        previous_secret_ciphertext=sub.secret_ciphertext,
        previous_secret_expires_at=until,
        updated_at=now,
    )
    await sub.refresh_from_db()
    return sub, secret, until


# --- deliveries: views and the attempt log ---------------------------------------------------


async def list_deliveries(
    sub: HoroscopeFeedSubscription, *, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    return await common.delivery_log(
        {"subscription_id": sub.id}, delivery_view, limit=limit, cursor=cursor
    )


async def delivery_with_log(delivery: FeedDelivery) -> dict[str, Any]:
    return await common.with_attempt_log(delivery, delivery_view)


async def owned_delivery(sub: HoroscopeFeedSubscription, delivery_id: str) -> FeedDelivery:
    return await common.owned_delivery({"subscription_id": sub.id}, delivery_id)
