"""``client.visual_reading_deliveries``: webhook or e-mail deliveries of the account's visual
events (session routes; spec endpoint 5). A webhook's ``signing_secret`` is returned once, by
``create``; verify its deliveries with ``astro_sdk.webhooks.verify``."""

from __future__ import annotations

from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.visual_reading_deliveries import (
    CreatedVisualReadingDelivery,
    CreateVisualReadingDeliveryRequest,
    DeletedVisualReadingDelivery,
    UpdateVisualReadingDeliveryRequest,
    VisualReadingDelivery,
    VisualReadingDeliveryEnvelope,
    VisualReadingDeliveryList,
)

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
    "listVisualReadingDeliveries", "GET", BASE, VisualReadingDeliveryList
)
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
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE)


def _create_body(destination: str, event_types: list[str]) -> Any:
    return validate_request(
        CreateVisualReadingDeliveryRequest,
        {"destination": destination, "event_types": event_types},
    )


class VisualReadingDeliveries(SyncResource):
    operations = OPERATIONS

    def create(self, *, destination: str, event_types: list[str]) -> CreatedVisualReadingDelivery:
        """An https webhook URL or an e-mail address, and 1 to 4 visual event types."""
        return self._client.request(CREATE, body=_create_body(destination, event_types))

    def list(self) -> list[VisualReadingDelivery]:
        return self._client.request(LIST).subscriptions

    def get(self, subscription_id: str) -> VisualReadingDelivery:
        path = {"subscription_id": subscription_id}
        return self._client.request(GET, path_params=path).subscription

    def update(self, subscription_id: str, *, active: bool) -> VisualReadingDelivery:
        body = validate_request(UpdateVisualReadingDeliveryRequest, {"active": active})
        path = {"subscription_id": subscription_id}
        return self._client.request(UPDATE, body=body, path_params=path).subscription

    def delete(self, subscription_id: str) -> DeletedVisualReadingDelivery:
        return self._client.request(DELETE, path_params={"subscription_id": subscription_id})


class AsyncVisualReadingDeliveries(AsyncResource):
    operations = OPERATIONS

    async def create(
        self, *, destination: str, event_types: list[str]
    ) -> CreatedVisualReadingDelivery:
        return await self._client.request(CREATE, body=_create_body(destination, event_types))

    async def list(self) -> list[VisualReadingDelivery]:
        return (await self._client.request(LIST)).subscriptions

    async def get(self, subscription_id: str) -> VisualReadingDelivery:
        path = {"subscription_id": subscription_id}
        return (await self._client.request(GET, path_params=path)).subscription

    async def update(self, subscription_id: str, *, active: bool) -> VisualReadingDelivery:
        body = validate_request(UpdateVisualReadingDeliveryRequest, {"active": active})
        path = {"subscription_id": subscription_id}
        return (await self._client.request(UPDATE, body=body, path_params=path)).subscription

    async def delete(self, subscription_id: str) -> DeletedVisualReadingDelivery:
        path = {"subscription_id": subscription_id}
        return await self._client.request(DELETE, path_params=path)
