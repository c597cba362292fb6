"""``client.webhook_endpoints``: account events (reports, visual readings, campaigns) delivered
to your HTTPS endpoints (API key).

Each delivery is a Standard Webhooks POST of ``{id, type, created_at, livemode, data}``: check
it with :func:`astro_sdk.webhooks.verify` and the ``signing_secret`` returned by
:meth:`WebhookEndpoints.create` (shown once). :meth:`WebhookEndpoints.retry_delivery` sends a
failed delivery again now (a ``ConflictError`` when it already succeeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.webhook_endpoints import (
    CreatedWebhookEndpoint,
    CreateWebhookEndpointRequest,
    DeletedWebhookEndpoint,
    EventDelivery,
    EventDeliveryEnvelope,
    EventDeliveryPage,
    EventType,
    RotatedWebhookEndpointSecret,
    UpdateWebhookEndpointRequest,
    WebhookEndpoint,
    WebhookEndpointEnvelope,
    WebhookEndpointListQuery,
    WebhookEndpointPage,
)

__all__ = ["AsyncWebhookEndpoints", "WebhookEndpoints"]

BASE = "/api/v3/webhook-endpoints"
ITEM = BASE + "/{id}"


_op = partial(route, credential=Credential.API_KEY)


CREATE: Operation[CreatedWebhookEndpoint] = _op(
    "createWebhookEndpoint",
    "POST",
    BASE,
    CreatedWebhookEndpoint,
    request=CreateWebhookEndpointRequest,
    status=201,
)
LIST: Operation[WebhookEndpointPage] = _op(
    "listWebhookEndpoints", "GET", BASE, WebhookEndpointPage, query=WebhookEndpointListQuery
)
GET: Operation[WebhookEndpointEnvelope] = _op(
    "getWebhookEndpoint", "GET", ITEM, WebhookEndpointEnvelope
)
UPDATE: Operation[WebhookEndpointEnvelope] = _op(
    "updateWebhookEndpoint",
    "PATCH",
    ITEM,
    WebhookEndpointEnvelope,
    request=UpdateWebhookEndpointRequest,
)
DELETE: Operation[DeletedWebhookEndpoint] = _op(
    "deleteWebhookEndpoint", "DELETE", ITEM, DeletedWebhookEndpoint, status=204
)
ROTATE_SECRET: Operation[RotatedWebhookEndpointSecret] = _op(
    "rotateWebhookEndpointSecret", "POST", ITEM + "/rotate-secret", RotatedWebhookEndpointSecret
)
LIST_DELIVERIES: Operation[EventDeliveryPage] = _op(
    "listWebhookEndpointDeliveries",
    "GET",
    ITEM + "/deliveries",
    EventDeliveryPage,
    query=WebhookEndpointListQuery,
)
RETRY_DELIVERY: Operation[EventDeliveryEnvelope] = _op(
    "retryWebhookEndpointDelivery",
    "POST",
    ITEM + "/deliveries/{delivery_id}/retry",
    EventDeliveryEnvelope,
    status=202,
)
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE, ROTATE_SECRET, LIST_DELIVERIES, RETRY_DELIVERY)


def _unwrap(envelope: ResponseModel, inner: Any) -> Any:
    inner._api_response = envelope._api_response
    return inner


class AsyncWebhookEndpoints(AsyncResource):
    """``client.webhook_endpoints``: register, list, read, pause, delete and re-key your HTTPS
    endpoints for account events, and read or retry their deliveries. Another account's
    endpoint or delivery is a ``NotFoundError``."""

    operations = OPERATIONS

    async def create(self, *, url: str, event_types: Sequence[EventType]) -> CreatedWebhookEndpoint:
        """``POST /api/v3/webhook-endpoints``: a new endpoint. Keep ``signing_secret``: it is
        shown only here. A 400 ``BadRequestError`` carries code ``unsafe_destination`` (field
        ``url``: not https, or resolving to a non-public address) or ``unknown_event_type``; a
        ``ConflictError`` with code ``endpoint_limit`` when the account has 20 endpoints."""
        body = validate_request(
            CreateWebhookEndpointRequest, {"url": url, "event_types": list(event_types)}
        )
        return await self._client.request(CREATE, body=body)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[WebhookEndpoint]:
        """``GET /api/v3/webhook-endpoints``: the account's endpoints, newest first; iterate for
        every one across pages (``async for`` on the async client, where awaiting it gives the
        first page)."""
        query = validate_request(WebhookEndpointListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[WebhookEndpoint]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.endpoints, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, endpoint_id: str) -> WebhookEndpoint:
        """``GET /api/v3/webhook-endpoints/{id}``: one endpoint of the account."""
        envelope = await self._client.request(GET, path_params={"id": endpoint_id})
        return _unwrap(envelope, envelope.endpoint)  # type: ignore[no-any-return]

    async def update(
        self,
        endpoint_id: str,
        *,
        active: bool | None = None,
        event_types: Sequence[EventType] | None = None,
    ) -> WebhookEndpoint:
        """``PATCH /api/v3/webhook-endpoints/{id}``: pause or resume (``active``; resuming
        clears ``disabled_at`` and the failure count) and/or replace ``event_types``."""
        body = validate_request(
            UpdateWebhookEndpointRequest,
            {"active": active, "event_types": None if event_types is None else list(event_types)},
        )
        envelope = await self._client.request(UPDATE, body=body, path_params={"id": endpoint_id})
        return _unwrap(envelope, envelope.endpoint)  # type: ignore[no-any-return]

    async def delete(self, endpoint_id: str) -> DeletedWebhookEndpoint:
        """``DELETE /api/v3/webhook-endpoints/{id}``: the endpoint and its delivery log are gone
        and nothing more is sent to it (the API answers 204 with no body)."""
        return await self._client.request(DELETE, path_params={"id": endpoint_id})

    async def rotate_secret(self, endpoint_id: str) -> RotatedWebhookEndpointSecret:
        """``POST /api/v3/webhook-endpoints/{id}/rotate-secret``: a new signing secret (shown
        only here); the old one keeps signing beside it for 24 hours
        (``previous_secret_expires_at``)."""
        return await self._client.request(ROTATE_SECRET, path_params={"id": endpoint_id})

    def deliveries(
        self, endpoint_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[EventDelivery]:
        """``GET /api/v3/webhook-endpoints/{id}/deliveries``: the attempt log, newest first,
        each event message with every attempt; iterate for every one across pages (``async
        for`` on the async client, where awaiting it gives the first page)."""
        query = validate_request(WebhookEndpointListQuery, {"limit": limit})
        path_params = {"id": endpoint_id}

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[EventDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(
                LIST_DELIVERIES, query=page_query, path_params=path_params
            )
            return AsyncCursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def retry_delivery(self, endpoint_id: str, delivery_id: str) -> EventDelivery:
        """``POST /api/v3/webhook-endpoints/{id}/deliveries/{delivery_id}/retry``: send a failed
        delivery again now (same ``webhook-id`` and body, a fresh retry round). A
        ``ConflictError`` with code ``delivery_succeeded`` when it already succeeded, without a
        code while it is still being attempted."""
        envelope = await self._client.request(
            RETRY_DELIVERY, path_params={"id": endpoint_id, "delivery_id": delivery_id}
        )
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class WebhookEndpoints(SyncResource):
    """``client.webhook_endpoints``: register, list, read, pause, delete and re-key your HTTPS
    endpoints for account events, and read or retry their deliveries. Another account's
    endpoint or delivery is a ``NotFoundError``."""

    operations = OPERATIONS

    def create(self, *, url: str, event_types: Sequence[EventType]) -> CreatedWebhookEndpoint:
        """``POST /api/v3/webhook-endpoints``: a new endpoint. Keep ``signing_secret``: it is
        shown only here. A 400 ``BadRequestError`` carries code ``unsafe_destination`` (field
        ``url``: not https, or resolving to a non-public address) or ``unknown_event_type``; a
        ``ConflictError`` with code ``endpoint_limit`` when the account has 20 endpoints."""
        body = validate_request(
            CreateWebhookEndpointRequest, {"url": url, "event_types": list(event_types)}
        )
        return self._client.request(CREATE, body=body)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[WebhookEndpoint]:
        """``GET /api/v3/webhook-endpoints``: the account's endpoints, newest first; iterate for
        every one across pages (``async for`` on the async client, where awaiting it gives the
        first page)."""
        query = validate_request(WebhookEndpointListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[WebhookEndpoint]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.endpoints, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        """``GET /api/v3/webhook-endpoints/{id}``: one endpoint of the account."""
        envelope = self._client.request(GET, path_params={"id": endpoint_id})
        return _unwrap(envelope, envelope.endpoint)  # type: ignore[no-any-return]

    def update(
        self,
        endpoint_id: str,
        *,
        active: bool | None = None,
        event_types: Sequence[EventType] | None = None,
    ) -> WebhookEndpoint:
        """``PATCH /api/v3/webhook-endpoints/{id}``: pause or resume (``active``; resuming
        clears ``disabled_at`` and the failure count) and/or replace ``event_types``."""
        body = validate_request(
            UpdateWebhookEndpointRequest,
            {"active": active, "event_types": None if event_types is None else list(event_types)},
        )
        envelope = self._client.request(UPDATE, body=body, path_params={"id": endpoint_id})
        return _unwrap(envelope, envelope.endpoint)  # type: ignore[no-any-return]

    def delete(self, endpoint_id: str) -> DeletedWebhookEndpoint:
        """``DELETE /api/v3/webhook-endpoints/{id}``: the endpoint and its delivery log are gone
        and nothing more is sent to it (the API answers 204 with no body)."""
        return self._client.request(DELETE, path_params={"id": endpoint_id})

    def rotate_secret(self, endpoint_id: str) -> RotatedWebhookEndpointSecret:
        """``POST /api/v3/webhook-endpoints/{id}/rotate-secret``: a new signing secret (shown
        only here); the old one keeps signing beside it for 24 hours
        (``previous_secret_expires_at``)."""
        return self._client.request(ROTATE_SECRET, path_params={"id": endpoint_id})

    def deliveries(
        self, endpoint_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[EventDelivery]:
        """``GET /api/v3/webhook-endpoints/{id}/deliveries``: the attempt log, newest first,
        each event message with every attempt; iterate for every one across pages (``async
        for`` on the async client, where awaiting it gives the first page)."""
        query = validate_request(WebhookEndpointListQuery, {"limit": limit})
        path_params = {"id": endpoint_id}

        def fetch(page_cursor: str | None) -> CursorPage[EventDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_DELIVERIES, query=page_query, path_params=path_params)
            return CursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def retry_delivery(self, endpoint_id: str, delivery_id: str) -> EventDelivery:
        """``POST /api/v3/webhook-endpoints/{id}/deliveries/{delivery_id}/retry``: send a failed
        delivery again now (same ``webhook-id`` and body, a fresh retry round). A
        ``ConflictError`` with code ``delivery_succeeded`` when it already succeeded, without a
        code while it is still being attempted."""
        envelope = self._client.request(
            RETRY_DELIVERY, path_params={"id": endpoint_id, "delivery_id": delivery_id}
        )
        return _unwrap(envelope, envelope.delivery)  # type: ignore[no-any-return]
