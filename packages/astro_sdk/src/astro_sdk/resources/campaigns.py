"""``client.campaigns``: campaign content calendars (API key, enterprise tier).

:meth:`Campaigns.create` is billable (2 credits per campaign day, charged once; an
``Idempotency-Key`` per call, reused on retries). :meth:`Campaigns.content` reads one day's
content (horoscopes, the markets' cultural facts, social copy); :meth:`Campaigns.content_csv`
the same day as CSV text. Each day is also delivered to your webhook endpoints subscribed to
``campaign.content_ready`` (see ``client.webhook_endpoints``), at the campaign's local time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import partial
from typing import Any

import httpx

from astro_sdk._base import build_call, validate_request
from astro_sdk._exceptions import status_error
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.campaigns import (
    Campaign,
    CampaignContent,
    CampaignContentQuery,
    CampaignEnvelope,
    CampaignLanguage,
    CampaignListQuery,
    CampaignPage,
    CreateCampaignRequest,
    DeletedCampaign,
    UpdateCampaignRequest,
)
from astro_sdk.models.cultural import Market
from astro_sdk.models.horoscopes import Sign

__all__ = ["AsyncCampaigns", "Campaigns"]

BASE = "/api/v3/campaigns"
ITEM = BASE + "/{id}"
Day = dt.date | str


_op = partial(route, credential=Credential.API_KEY)


CREATE: Operation[CampaignEnvelope] = _op(
    "createCampaign",
    "POST",
    BASE,
    CampaignEnvelope,
    request=CreateCampaignRequest,
    status=201,
    billable=True,
)
LIST: Operation[CampaignPage] = _op(
    "listCampaigns", "GET", BASE, CampaignPage, query=CampaignListQuery
)
GET: Operation[CampaignEnvelope] = _op("getCampaign", "GET", ITEM, CampaignEnvelope)
UPDATE: Operation[CampaignEnvelope] = _op(
    "updateCampaign", "PATCH", ITEM, CampaignEnvelope, request=UpdateCampaignRequest
)
DELETE: Operation[DeletedCampaign] = _op(
    "deleteCampaign", "DELETE", ITEM, DeletedCampaign, status=204
)
CONTENT: Operation[CampaignContent] = _op(
    "getCampaignContent", "GET", ITEM + "/content", CampaignContent, query=CampaignContentQuery
)
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE, CONTENT)


def _create_fields(
    name: str,
    start: Day,
    end: Day,
    signs: Sequence[Sign],
    languages: Sequence[CampaignLanguage],
    markets: Sequence[Market],
    delivery_time: str | None,
    timezone: str | None,
) -> dict[str, Any]:
    delivery = {k: v for k, v in (("time", delivery_time), ("timezone", timezone)) if v}
    return {
        "name": name,
        "start": start,
        "end": end,
        "signs": list(signs),
        "languages": list(languages),
        "markets": list(markets),
        "delivery": delivery or None,
    }


def _unwrap(envelope: ResponseModel, inner: Any) -> Any:
    inner._api_response = envelope._api_response
    return inner


def _csv_text(response: httpx.Response) -> str:
    if not response.is_success:
        raise status_error(response)
    return response.content.decode("utf-8-sig")


class AsyncCampaigns(AsyncResource):
    """``client.campaigns``: enterprise campaign content calendars (``/api/v3/campaigns``):
    create, list, get, rename or pause, delete, and each day's content as JSON or CSV."""

    operations = OPERATIONS

    async def create(
        self,
        *,
        name: str,
        start: Day,
        end: Day,
        signs: Sequence[Sign],
        languages: Sequence[CampaignLanguage],
        markets: Sequence[Market],
        delivery_time: str | None = None,
        timezone: str | None = None,
        idempotency_key: str | None = None,
    ) -> Campaign:
        """``POST /api/v3/campaigns`` (enterprise tier; 2 credits per campaign day). A 400
        ``BadRequestError`` names the field (``end`` for a campaign over 92 days,
        ``delivery.timezone`` for an unknown zone)."""
        body = validate_request(
            CreateCampaignRequest,
            _create_fields(name, start, end, signs, languages, markets, delivery_time, timezone),
        )
        envelope = await self._client.request(CREATE, body=body, idempotency_key=idempotency_key)
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[Campaign]:
        """``await`` for the first page, ``async for`` for every campaign."""
        query = validate_request(CampaignListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Campaign]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.campaigns, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, campaign_id: str) -> Campaign:
        """``GET /api/v3/campaigns/{id}``: one campaign (``NotFoundError`` for another
        account's or the other mode's)."""
        envelope = await self._client.request(GET, path_params={"id": campaign_id})
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    async def update(
        self, campaign_id: str, *, name: str | None = None, active: bool | None = None
    ) -> Campaign:
        """Rename and/or pause (``active=False``) or resume (``active=True``)."""
        body = validate_request(UpdateCampaignRequest, {"name": name, "active": active})
        envelope = await self._client.request(UPDATE, body=body, path_params={"id": campaign_id})
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    async def delete(self, campaign_id: str) -> DeletedCampaign:
        """``DELETE /api/v3/campaigns/{id}``: stop and remove the campaign (no refund)."""
        return await self._client.request(DELETE, path_params={"id": campaign_id})

    async def content(self, campaign_id: str, *, date: Day) -> CampaignContent:
        """One day of the campaign: per sign and language the published horoscope, the
        markets' highlights and the social copy; per market its cultural facts."""
        query = validate_request(CampaignContentQuery, {"date": date})
        return await self._client.request(CONTENT, query=query, path_params={"id": campaign_id})

    async def content_csv(self, campaign_id: str, *, date: Day) -> str:
        """The same day as CSV text (a header row, one row per sign and language; the server
        sends UTF-8 with a BOM for Excel, removed here)."""
        query = validate_request(CampaignContentQuery, {"date": date, "format": "csv"})
        call = build_call(
            self._client._config, CONTENT, query=query, path_params={"id": campaign_id}
        )
        response, _ = await self._client._send(call)
        return _csv_text(response)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Campaigns(SyncResource):
    """``client.campaigns``: enterprise campaign content calendars (``/api/v3/campaigns``):
    create, list, get, rename or pause, delete, and each day's content as JSON or CSV."""

    operations = OPERATIONS

    def create(
        self,
        *,
        name: str,
        start: Day,
        end: Day,
        signs: Sequence[Sign],
        languages: Sequence[CampaignLanguage],
        markets: Sequence[Market],
        delivery_time: str | None = None,
        timezone: str | None = None,
        idempotency_key: str | None = None,
    ) -> Campaign:
        """``POST /api/v3/campaigns`` (enterprise tier; 2 credits per campaign day). A 400
        ``BadRequestError`` names the field (``end`` for a campaign over 92 days,
        ``delivery.timezone`` for an unknown zone)."""
        body = validate_request(
            CreateCampaignRequest,
            _create_fields(name, start, end, signs, languages, markets, delivery_time, timezone),
        )
        envelope = self._client.request(CREATE, body=body, idempotency_key=idempotency_key)
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> CursorPage[Campaign]:
        """``await`` for the first page, ``async for`` for every campaign."""
        query = validate_request(CampaignListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[Campaign]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.campaigns, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, campaign_id: str) -> Campaign:
        """``GET /api/v3/campaigns/{id}``: one campaign (``NotFoundError`` for another
        account's or the other mode's)."""
        envelope = self._client.request(GET, path_params={"id": campaign_id})
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    def update(
        self, campaign_id: str, *, name: str | None = None, active: bool | None = None
    ) -> Campaign:
        """Rename and/or pause (``active=False``) or resume (``active=True``)."""
        body = validate_request(UpdateCampaignRequest, {"name": name, "active": active})
        envelope = self._client.request(UPDATE, body=body, path_params={"id": campaign_id})
        return _unwrap(envelope, envelope.campaign)  # type: ignore[no-any-return]

    def delete(self, campaign_id: str) -> DeletedCampaign:
        """``DELETE /api/v3/campaigns/{id}``: stop and remove the campaign (no refund)."""
        return self._client.request(DELETE, path_params={"id": campaign_id})

    def content(self, campaign_id: str, *, date: Day) -> CampaignContent:
        """One day of the campaign: per sign and language the published horoscope, the
        markets' highlights and the social copy; per market its cultural facts."""
        query = validate_request(CampaignContentQuery, {"date": date})
        return self._client.request(CONTENT, query=query, path_params={"id": campaign_id})

    def content_csv(self, campaign_id: str, *, date: Day) -> str:
        """The same day as CSV text (a header row, one row per sign and language; the server
        sends UTF-8 with a BOM for Excel, removed here)."""
        query = validate_request(CampaignContentQuery, {"date": date, "format": "csv"})
        call = build_call(
            self._client._config, CONTENT, query=query, path_params={"id": campaign_id}
        )
        response, _ = self._client._send(call)
        return _csv_text(response)
