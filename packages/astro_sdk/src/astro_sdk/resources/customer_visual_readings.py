"""``client.customer_visual_readings``: the visual-reading flow for a logged-in customer
(session routes under ``/v1/visual-readings``, billed to the customer's account; log in first
with ``client.auth.login``), and spec endpoint 6, ``analytics``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.visual_readings import (
    AnalyticsQuery,
    CreateVisualReadingRequest,
    CustomerVisualReadingAccepted,
    UploadEnvelope,
    UploadGrant,
    UploadGrantRequest,
    VisualReading,
    VisualReadingAnalytics,
    VisualReadingList,
    VisualReadingListQuery,
    VisualUpload,
)
from astro_sdk.resources.visual_readings import (
    Photo,
    _async_put,
    _finished,
    _grant_body,
    _photo_bytes,
    _put,
)

__all__ = ["AsyncCustomerVisualReadings", "CustomerVisualReadings"]

BASE = "/v1/visual-readings"


def _op(operation_id: str, method: Any, path: str, response: type[Any], **extra: Any) -> Any:
    return Operation(
        operation_id=operation_id, method=method, path=path, credential=Credential.SESSION,
        response_model=response, **extra,
    )  # fmt: skip


GRANT: Operation[UploadGrant] = _op(
    "createCustomerVisualUploadGrant", "POST", BASE + "/uploads", UploadGrant,
    request_model=UploadGrantRequest, success_status=201,
)  # fmt: skip
COMPLETE: Operation[UploadEnvelope] = _op(
    "completeCustomerVisualUpload", "POST", BASE + "/uploads/{upload_id}/complete", UploadEnvelope
)
CREATE: Operation[CustomerVisualReadingAccepted] = _op(
    "createCustomerVisualReading", "POST", BASE, CustomerVisualReadingAccepted,
    request_model=CreateVisualReadingRequest, success_status=202, billable=True,
)  # fmt: skip
LIST: Operation[VisualReadingList] = _op(
    "listCustomerVisualReadings", "GET", BASE, VisualReadingList,
    query_model=VisualReadingListQuery,
)  # fmt: skip
ANALYTICS: Operation[VisualReadingAnalytics] = _op(
    "getVisualReadingAnalytics", "GET", BASE + "/analytics", VisualReadingAnalytics,
    query_model=AnalyticsQuery,
)  # fmt: skip
GET: Operation[VisualReading] = _op(
    "getCustomerVisualReading", "GET", BASE + "/{reading_id}", VisualReading
)
DELETE: Operation[VisualReading] = _op(
    "deleteCustomerVisualReadingImages", "DELETE", BASE + "/{reading_id}", VisualReading
)
OPERATIONS = (GRANT, COMPLETE, CREATE, LIST, ANALYTICS, GET, DELETE)


def _analytics_query(
    start: datetime | str | None, end: datetime | str | None, group_by: str | None
) -> AnalyticsQuery:
    return validate_request(AnalyticsQuery, {"from": start, "to": end, "group_by": group_by})


class AsyncCustomerVisualReadings(AsyncResource):
    """``client.customer_visual_readings`` (session routes): the same flow for a logged-in
    customer, billed to the customer's account, plus the usage and cost ``analytics``."""

    operations = OPERATIONS

    async def upload(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> VisualUpload:
        """Digest, grant, PUT and complete, for the customer's account."""
        data = _photo_bytes(photo)
        grant = await self._client.request(GRANT, body=_grant_body(data, kind, content_type))
        await _async_put(self._client, grant, data)
        envelope = await self._client.request(COMPLETE, path_params={"upload_id": grant.upload_id})
        return envelope.upload

    async def create(
        self,
        upload_id: str,
        *,
        language: Literal["en", "th"] = "en",
        hand: Literal["left", "right"] | None = None,
    ) -> CustomerVisualReadingAccepted:
        """``POST /v1/visual-readings``: queue a reading of a validated upload, billed to the
        account."""
        body = validate_request(
            CreateVisualReadingRequest, {"upload_id": upload_id, "language": language, "hand": hand}
        )
        return await self._client.request(CREATE, body=body)

    async def list(self, *, limit: int = 20, cursor: str | None = None) -> VisualReadingList:
        """``GET /v1/visual-readings``: the account's readings, newest first (one page and its
        ``next_cursor``)."""
        query = validate_request(VisualReadingListQuery, {"limit": limit, "cursor": cursor})
        return await self._client.request(LIST, query=query)

    async def get(self, reading_id: str) -> VisualReading:
        """``GET /v1/visual-readings/{id}``: one reading (``NotFoundError`` for another
        account's)."""
        return await self._client.request(GET, path_params={"reading_id": reading_id})

    async def delete(self, reading_id: str) -> VisualReading:
        """``DELETE /v1/visual-readings/{id}``: delete the photo and overlay now; the text stays."""
        return await self._client.request(DELETE, path_params={"reading_id": reading_id})

    async def wait(self, reading_id: str, *, poll_interval_s: float = 0.5) -> VisualReading:
        """Poll until the reading has succeeded or failed."""
        while not _finished(reading := await self.get(reading_id)):
            await self._client.sleep(poll_interval_s)
        return reading

    async def analytics(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: Literal["day"] | None = None,
    ) -> VisualReadingAnalytics:
        """Spec 6: usage and cost per product for readings created in ``[start, end)``;
        ``group_by="day"`` adds ``by_day``, the same sums per UTC calendar day."""
        return await self._client.request(ANALYTICS, query=_analytics_query(start, end, group_by))


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class CustomerVisualReadings(SyncResource):
    """``client.customer_visual_readings`` (session routes): the same flow for a logged-in
    customer, billed to the customer's account, plus the usage and cost ``analytics``."""

    operations = OPERATIONS

    def upload(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> VisualUpload:
        """Digest, grant, PUT and complete, for the customer's account."""
        data = _photo_bytes(photo)
        grant = self._client.request(GRANT, body=_grant_body(data, kind, content_type))
        _put(self._client, grant, data)
        envelope = self._client.request(COMPLETE, path_params={"upload_id": grant.upload_id})
        return envelope.upload

    def create(
        self,
        upload_id: str,
        *,
        language: Literal["en", "th"] = "en",
        hand: Literal["left", "right"] | None = None,
    ) -> CustomerVisualReadingAccepted:
        """``POST /v1/visual-readings``: queue a reading of a validated upload, billed to the
        account."""
        body = validate_request(
            CreateVisualReadingRequest, {"upload_id": upload_id, "language": language, "hand": hand}
        )
        return self._client.request(CREATE, body=body)

    def list(self, *, limit: int = 20, cursor: str | None = None) -> VisualReadingList:
        """``GET /v1/visual-readings``: the account's readings, newest first (one page and its
        ``next_cursor``)."""
        query = validate_request(VisualReadingListQuery, {"limit": limit, "cursor": cursor})
        return self._client.request(LIST, query=query)

    def get(self, reading_id: str) -> VisualReading:
        """``GET /v1/visual-readings/{id}``: one reading (``NotFoundError`` for another
        account's)."""
        return self._client.request(GET, path_params={"reading_id": reading_id})

    def delete(self, reading_id: str) -> VisualReading:
        """``DELETE /v1/visual-readings/{id}``: delete the photo and overlay now; the text stays."""
        return self._client.request(DELETE, path_params={"reading_id": reading_id})

    def wait(self, reading_id: str, *, poll_interval_s: float = 0.5) -> VisualReading:
        """Poll until the reading has succeeded or failed."""
        while not _finished(reading := self.get(reading_id)):
            self._client.sleep(poll_interval_s)
        return reading

    def analytics(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: Literal["day"] | None = None,
    ) -> VisualReadingAnalytics:
        """Spec 6: usage and cost per product for readings created in ``[start, end)``;
        ``group_by="day"`` adds ``by_day``, the same sums per UTC calendar day."""
        return self._client.request(ANALYTICS, query=_analytics_query(start, end, group_by))
