"""``client.horoscope_feeds``: daily horoscope delivery to your HTTPS endpoint (session routes).

Log in first (``client.auth.login(email, password)``); an API key is refused on these routes.
Each delivery is a Standard Webhooks POST: check it with :func:`astro_sdk.webhooks.verify` and the
``signing_secret`` returned by :meth:`HoroscopeFeeds.create` (shown once).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.horoscope_feeds import (
    CreatedSubscription,
    CreateSubscriptionRequest,
    DeletedSubscription,
    DeliveryListQuery,
    DeliveryPage,
    FeedDelivery,
    FeedDeliveryEnvelope,
    RotatedSecret,
    Sign,
    Subscription,
    SubscriptionEnvelope,
    SubscriptionListQuery,
    SubscriptionPage,
    UpdateSubscriptionRequest,
)

__all__ = ["AsyncHoroscopeFeeds", "HoroscopeFeeds"]

BASE = "/v1/horoscope-feed-subscriptions"
ITEM = BASE + "/{id}"


_op = partial(route, credential=Credential.SESSION)


CREATE: Operation[CreatedSubscription] = _op(
    "createHoroscopeFeedSubscription",
    "POST",
    BASE,
    CreatedSubscription,
    request=CreateSubscriptionRequest,
    status=201,
)
LIST: Operation[SubscriptionPage] = _op(
    "listHoroscopeFeedSubscriptions", "GET", BASE, SubscriptionPage, query=SubscriptionListQuery
)
GET: Operation[SubscriptionEnvelope] = _op(
    "getHoroscopeFeedSubscription", "GET", ITEM, SubscriptionEnvelope
)
UPDATE: Operation[SubscriptionEnvelope] = _op(
    "updateHoroscopeFeedSubscription",
    "PATCH",
    ITEM,
    SubscriptionEnvelope,
    request=UpdateSubscriptionRequest,
)
DELETE: Operation[DeletedSubscription] = _op(
    "deleteHoroscopeFeedSubscription", "DELETE", ITEM, DeletedSubscription, status=204
)
ROTATE_SECRET: Operation[RotatedSecret] = _op(
    "rotateHoroscopeFeedSubscriptionSecret", "POST", ITEM + "/rotate-secret", RotatedSecret
)
TEST: Operation[FeedDeliveryEnvelope] = _op(
    "testHoroscopeFeedSubscription", "POST", ITEM + "/test", FeedDeliveryEnvelope
)
LIST_DELIVERIES: Operation[DeliveryPage] = _op(
    "listHoroscopeFeedDeliveries",
    "GET",
    ITEM + "/deliveries",
    DeliveryPage,
    query=DeliveryListQuery,
)
RETRY_DELIVERY: Operation[FeedDeliveryEnvelope] = _op(
    "retryHoroscopeFeedDelivery",
    "POST",
    ITEM + "/deliveries/{delivery_id}/retry",
    FeedDeliveryEnvelope,
    status=202,
)
OPERATIONS = (
    CREATE,
    LIST,
    GET,
    UPDATE,
    DELETE,
    ROTATE_SECRET,
    TEST,
    LIST_DELIVERIES,
    RETRY_DELIVERY,
)


def _create_fields(
    destination_url: str,
    sign: Sign,
    language: str | None,
    timezone: str | None,
    delivery_time: str | None,
) -> dict[str, Any]:
    return {
        "destination_url": destination_url,
        "sign": sign,
        "language": language,
        "timezone": timezone,
        "delivery_time": delivery_time,
    }


def _unwrap(envelope: ResponseModel, inner: Any) -> Any:
    # The envelope's HTTP response travels with the object the caller gets.
    inner._api_response = envelope._api_response
    return inner


class AsyncHoroscopeFeeds(AsyncResource):
    """``client.horoscope_feeds``: daily horoscope delivery to your HTTPS endpoint (session
    routes)."""

    operations = OPERATIONS

    async def create(
        self,
        *,
        destination_url: str,
        sign: Sign,
        language: str | None = None,
        timezone: str | None = None,
        delivery_time: str | None = None,
    ) -> CreatedSubscription:
        """``POST /v1/horoscope-feed-subscriptions``: subscribe an HTTPS endpoint to one sign's
        daily horoscope at ``delivery_time`` (default 08:00) in ``timezone`` (default UTC).

        A 400 ``BadRequestError`` carries ``code`` ``unsafe_destination``, ``invalid_timezone``
        or ``duplicate_subscription``. Keep ``signing_secret``: it is shown only here.
        """
        body = validate_request(
            CreateSubscriptionRequest,
            _create_fields(destination_url, sign, language, timezone, delivery_time),
        )
        return await self._client.request(CREATE, body=body)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[Subscription]:
        """Your subscriptions, newest first; iterate for every one across pages (``async for``
        on the async client, where awaiting it gives the first page)."""
        query = validate_request(SubscriptionListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Subscription]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.subscriptions, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, subscription_id: str) -> Subscription:
        """One of the customer's subscriptions (404 for anyone else's)."""
        envelope = await self._client.request(GET, path_params={"id": subscription_id})
        return _unwrap(envelope, envelope.subscription)  # type: ignore[no-any-return]

    async def pause(self, subscription_id: str) -> Subscription:
        """``PATCH {active: false}``: no deliveries until resumed."""
        return await self._set_active(subscription_id, False)

    async def resume(self, subscription_id: str) -> Subscription:
        """``PATCH {active: true}``: also clears ``disabled_at`` and ``consecutive_failures``."""
        return await self._set_active(subscription_id, True)

    async def _set_active(self, subscription_id: str, active: bool) -> Subscription:
        body = validate_request(UpdateSubscriptionRequest, {"active": active})
        envelope = await self._client.request(
            UPDATE, body=body, path_params={"id": subscription_id}
        )
        return _unwrap(envelope, envelope.subscription)  # type: ignore[no-any-return]

    async def delete(self, subscription_id: str) -> DeletedSubscription:
        """Delete the subscription and its delivery log; nothing more is sent."""
        return await self._client.request(DELETE, path_params={"id": subscription_id})

    async def rotate_secret(self, subscription_id: str) -> RotatedSecret:
        """A new signing secret; the old one keeps signing beside it for 24 hours."""
        return await self._client.request(ROTATE_SECRET, path_params={"id": subscription_id})

    async def test(self, subscription_id: str) -> FeedDelivery:
        """Send today's horoscope now (marked ``"test": true``) and return the attempt."""
        envelope = await self._client.request(TEST, path_params={"id": subscription_id})
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]

    def deliveries(
        self, subscription_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[FeedDelivery]:
        """The delivery log, newest first, each message with its attempts."""
        query = validate_request(DeliveryListQuery, {"limit": limit})
        path_params = {"id": subscription_id}

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[FeedDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(
                LIST_DELIVERIES, query=page_query, path_params=path_params
            )
            return AsyncCursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def retry_delivery(self, subscription_id: str, delivery_id: str) -> FeedDelivery:
        """Send a finished message again (same ``webhook-id`` and body)."""
        envelope = await self._client.request(
            RETRY_DELIVERY, path_params={"id": subscription_id, "delivery_id": delivery_id}
        )
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class HoroscopeFeeds(SyncResource):
    """``client.horoscope_feeds``: daily horoscope delivery to your HTTPS endpoint (session
    routes)."""

    operations = OPERATIONS

    def create(
        self,
        *,
        destination_url: str,
        sign: Sign,
        language: str | None = None,
        timezone: str | None = None,
        delivery_time: str | None = None,
    ) -> CreatedSubscription:
        """``POST /v1/horoscope-feed-subscriptions``: subscribe an HTTPS endpoint to one sign's
        daily horoscope at ``delivery_time`` (default 08:00) in ``timezone`` (default UTC).

        A 400 ``BadRequestError`` carries ``code`` ``unsafe_destination``, ``invalid_timezone``
        or ``duplicate_subscription``. Keep ``signing_secret``: it is shown only here.
        """
        body = validate_request(
            CreateSubscriptionRequest,
            _create_fields(destination_url, sign, language, timezone, delivery_time),
        )
        return self._client.request(CREATE, body=body)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[Subscription]:
        """Your subscriptions, newest first; iterate for every one across pages (``async for``
        on the async client, where awaiting it gives the first page)."""
        query = validate_request(SubscriptionListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[Subscription]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.subscriptions, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, subscription_id: str) -> Subscription:
        """One of the customer's subscriptions (404 for anyone else's)."""
        envelope = self._client.request(GET, path_params={"id": subscription_id})
        return _unwrap(envelope, envelope.subscription)  # type: ignore[no-any-return]

    def pause(self, subscription_id: str) -> Subscription:
        """``PATCH {active: false}``: no deliveries until resumed."""
        return self._set_active(subscription_id, False)

    def resume(self, subscription_id: str) -> Subscription:
        """``PATCH {active: true}``: also clears ``disabled_at`` and ``consecutive_failures``."""
        return self._set_active(subscription_id, True)

    def _set_active(self, subscription_id: str, active: bool) -> Subscription:
        body = validate_request(UpdateSubscriptionRequest, {"active": active})
        envelope = self._client.request(UPDATE, body=body, path_params={"id": subscription_id})
        return _unwrap(envelope, envelope.subscription)  # type: ignore[no-any-return]

    def delete(self, subscription_id: str) -> DeletedSubscription:
        """Delete the subscription and its delivery log; nothing more is sent."""
        return self._client.request(DELETE, path_params={"id": subscription_id})

    def rotate_secret(self, subscription_id: str) -> RotatedSecret:
        """A new signing secret; the old one keeps signing beside it for 24 hours."""
        return self._client.request(ROTATE_SECRET, path_params={"id": subscription_id})

    def test(self, subscription_id: str) -> FeedDelivery:
        """Send today's horoscope now (marked ``"test": true``) and return the attempt."""
        envelope = self._client.request(TEST, path_params={"id": subscription_id})
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]

    def deliveries(
        self, subscription_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[FeedDelivery]:
        """The delivery log, newest first, each message with its attempts."""
        query = validate_request(DeliveryListQuery, {"limit": limit})
        path_params = {"id": subscription_id}

        def fetch(page_cursor: str | None) -> CursorPage[FeedDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_DELIVERIES, query=page_query, path_params=path_params)
            return CursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def retry_delivery(self, subscription_id: str, delivery_id: str) -> FeedDelivery:
        """Send a finished message again (same ``webhook-id`` and body)."""
        envelope = self._client.request(
            RETRY_DELIVERY, path_params={"id": subscription_id, "delivery_id": delivery_id}
        )
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]
