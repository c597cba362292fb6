"""``client.visual_reading_deliveries``: webhook or e-mail deliveries of the account's visual
events (session routes; spec endpoint 5). A webhook's ``signing_secret`` is returned once, by
``create``; verify its deliveries with ``astro_sdk.webhooks.verify``. ``list`` and
``deliveries`` (a subscription's delivery log) page with ``limit``/``cursor``; iterate them
for every item across pages."""

from __future__ import annotations

from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.visual_reading_deliveries import (
    CreatedVisualReadingDelivery,
    CreateVisualReadingDeliveryRequest,
    DeletedVisualReadingDelivery,
    UpdateVisualReadingDeliveryRequest,
    VisualReadingDelivery,
    VisualReadingDeliveryEnvelope,
    VisualReadingDeliveryList,
    VisualReadingDeliveryListQuery,
)
from astro_sdk.models.webhook_endpoints import EventDelivery, EventDeliveryPage

__all__ = ["AsyncVisualReadingDeliveries", "VisualReadingDeliveries"]

BASE = "/v1/visual-reading-deliveries"
ITEM = BASE + "/{subscription_id}"


def _op(operation_id: str, method: Any, path: str, response: type[Any], **extra: Any) -> Any:
    return Operation(
        operation_id=operation_id, method=method, path=path, credential=Credential.SESSION,
        response_model=response, **extra,
    )  # fmt: skip


CREATE: Operation[CreatedVisualReadingDelivery] = _op(
    "createVisualReadingDelivery", "POST", BASE, CreatedVisualReadingDelivery,
    request_model=CreateVisualReadingDeliveryRequest, success_status=201,
)  # fmt: skip
LIST: Operation[VisualReadingDeliveryList] = _op(
    "listVisualReadingDeliveries", "GET", BASE, VisualReadingDeliveryList,
    query_model=VisualReadingDeliveryListQuery,
)  # fmt: skip
LIST_LOG: Operation[EventDeliveryPage] = _op(
    "listVisualReadingDeliveryLog", "GET", ITEM + "/deliveries", EventDeliveryPage,
    query_model=VisualReadingDeliveryListQuery,
)  # fmt: skip
GET: Operation[VisualReadingDeliveryEnvelope] = _op(
    "getVisualReadingDelivery", "GET", ITEM, VisualReadingDeliveryEnvelope
)
UPDATE: Operation[VisualReadingDeliveryEnvelope] = _op(
    "updateVisualReadingDelivery", "PATCH", ITEM, VisualReadingDeliveryEnvelope,
    request_model=UpdateVisualReadingDeliveryRequest,
)  # fmt: skip
DELETE: Operation[DeletedVisualReadingDelivery] = _op(
    "deleteVisualReadingDelivery", "DELETE", ITEM, DeletedVisualReadingDelivery,
    success_status=204,
)  # fmt: skip
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE, LIST_LOG)


def _create_body(destination: str, event_types: list[str]) -> Any:
    return validate_request(
        CreateVisualReadingDeliveryRequest,
        {"destination": destination, "event_types": event_types},
    )


class AsyncVisualReadingDeliveries(AsyncResource):
    """``client.visual_reading_deliveries`` (session routes, spec 5): webhook or e-mail
    deliveries of the account's visual-reading events."""

    operations = OPERATIONS

    async def create(
        self, *, destination: str, event_types: list[str]
    ) -> CreatedVisualReadingDelivery:
        """An https webhook URL or an e-mail address, and 1 to 4 visual event types."""
        return await self._client.request(CREATE, body=_create_body(destination, event_types))

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[VisualReadingDelivery]:
        """``GET /v1/visual-reading-deliveries``: the account's delivery subscriptions, newest
        first, ``limit`` (1..100, default 20) a page; iterate for every one across pages
        (``async for`` on the async client, where awaiting it gives the first page)."""
        query = validate_request(VisualReadingDeliveryListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[VisualReadingDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.subscriptions, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    def deliveries(
        self, subscription_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[EventDelivery]:
        """``GET /v1/visual-reading-deliveries/{id}/deliveries``: the subscription's delivery
        log, newest first, each event message (webhook POST or e-mail) with every attempt;
        iterate for every one across pages (``NotFoundError`` for another account's)."""
        query = validate_request(VisualReadingDeliveryListQuery, {"limit": limit})
        path = {"subscription_id": subscription_id}

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[EventDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_LOG, query=page_query, path_params=path)
            return AsyncCursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, subscription_id: str) -> VisualReadingDelivery:
        """``GET /v1/visual-reading-deliveries/{id}``: one subscription (``NotFoundError`` for
        another account's)."""
        path = {"subscription_id": subscription_id}
        return (await self._client.request(GET, path_params=path)).subscription

    async def update(self, subscription_id: str, *, active: bool) -> VisualReadingDelivery:
        """``PATCH /v1/visual-reading-deliveries/{id}``: pause (``active=False``) or resume."""
        body = validate_request(UpdateVisualReadingDeliveryRequest, {"active": active})
        path = {"subscription_id": subscription_id}
        return (await self._client.request(UPDATE, body=body, path_params=path)).subscription

    async def delete(self, subscription_id: str) -> DeletedVisualReadingDelivery:
        """``DELETE /v1/visual-reading-deliveries/{id}``: stop and remove the subscription."""
        path = {"subscription_id": subscription_id}
        return await self._client.request(DELETE, path_params=path)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class VisualReadingDeliveries(SyncResource):
    """``client.visual_reading_deliveries`` (session routes, spec 5): webhook or e-mail
    deliveries of the account's visual-reading events."""

    operations = OPERATIONS

    def create(self, *, destination: str, event_types: list[str]) -> CreatedVisualReadingDelivery:
        """An https webhook URL or an e-mail address, and 1 to 4 visual event types."""
        return self._client.request(CREATE, body=_create_body(destination, event_types))

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[VisualReadingDelivery]:
        """``GET /v1/visual-reading-deliveries``: the account's delivery subscriptions, newest
        first, ``limit`` (1..100, default 20) a page; iterate for every one across pages
        (``async for`` on the async client, where awaiting it gives the first page)."""
        query = validate_request(VisualReadingDeliveryListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[VisualReadingDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.subscriptions, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def deliveries(
        self, subscription_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[EventDelivery]:
        """``GET /v1/visual-reading-deliveries/{id}/deliveries``: the subscription's delivery
        log, newest first, each event message (webhook POST or e-mail) with every attempt;
        iterate for every one across pages (``NotFoundError`` for another account's)."""
        query = validate_request(VisualReadingDeliveryListQuery, {"limit": limit})
        path = {"subscription_id": subscription_id}

        def fetch(page_cursor: str | None) -> CursorPage[EventDelivery]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_LOG, query=page_query, path_params=path)
            return CursorPage(page.deliveries, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, subscription_id: str) -> VisualReadingDelivery:
        """``GET /v1/visual-reading-deliveries/{id}``: one subscription (``NotFoundError`` for
        another account's)."""
        path = {"subscription_id": subscription_id}
        return (self._client.request(GET, path_params=path)).subscription

    def update(self, subscription_id: str, *, active: bool) -> VisualReadingDelivery:
        """``PATCH /v1/visual-reading-deliveries/{id}``: pause (``active=False``) or resume."""
        body = validate_request(UpdateVisualReadingDeliveryRequest, {"active": active})
        path = {"subscription_id": subscription_id}
        return (self._client.request(UPDATE, body=body, path_params=path)).subscription

    def delete(self, subscription_id: str) -> DeletedVisualReadingDelivery:
        """``DELETE /v1/visual-reading-deliveries/{id}``: stop and remove the subscription."""
        path = {"subscription_id": subscription_id}
        return self._client.request(DELETE, path_params=path)
