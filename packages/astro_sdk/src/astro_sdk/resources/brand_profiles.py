"""``client.brand_profiles``: report brand profiles of your account (session routes; log in
first with ``client.auth.login``). ``update`` is spec endpoint 4."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.brand_profiles import (
    Branding,
    BrandProfile,
    BrandProfileEnvelope,
    BrandProfileListQuery,
    BrandProfilePage,
    CreateBrandProfileRequest,
    DeletedBrandProfile,
    UpdateBrandProfileRequest,
)

__all__ = ["AsyncBrandProfiles", "BrandProfiles"]

BASE = "/v1/report-brand-profiles"
ITEM = BASE + "/{id}"
BrandingInput = Branding | Mapping[str, Any]


_op = partial(route, credential=Credential.SESSION)


CREATE: Operation[BrandProfileEnvelope] = _op(
    "createReportBrandProfile",
    "POST",
    BASE,
    BrandProfileEnvelope,
    request=CreateBrandProfileRequest,
    status=201,
)
LIST: Operation[BrandProfilePage] = _op(
    "listReportBrandProfiles", "GET", BASE, BrandProfilePage, query=BrandProfileListQuery
)
GET: Operation[BrandProfileEnvelope] = _op(
    "getReportBrandProfile", "GET", ITEM, BrandProfileEnvelope
)
UPDATE: Operation[BrandProfileEnvelope] = _op(
    "updateReportBrandProfile",
    "PATCH",
    ITEM,
    BrandProfileEnvelope,
    request=UpdateBrandProfileRequest,
)
DELETE: Operation[DeletedBrandProfile] = _op(
    "deleteReportBrandProfile", "DELETE", ITEM, DeletedBrandProfile, status=204
)
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE)


def _branding(branding: BrandingInput | None) -> Any:
    if branding is None or isinstance(branding, Branding):
        return branding
    return dict(branding)


def _unwrap(envelope: ResponseModel, inner: Any) -> Any:
    inner._api_response = envelope._api_response
    return inner


class AsyncBrandProfiles(AsyncResource):
    """``client.brand_profiles``: create, list, read, update and delete the report brand
    profiles of the logged-in account (session routes). Another account's profile is a
    ``NotFoundError``."""

    operations = OPERATIONS

    async def create(self, *, name: str, branding: BrandingInput) -> BrandProfile:
        """``POST /v1/report-brand-profiles``: a new profile; a ``logo_url`` is fetched now and
        stored. A 400 ``BadRequestError`` names each field (code ``logo_refused``, field
        ``branding.logo_url``, when the logo cannot be fetched: a private address, a timeout,
        over 2 MB, a redirect, or not a PNG, JPEG or SVG)."""
        body = validate_request(
            CreateBrandProfileRequest, {"name": name, "branding": _branding(branding)}
        )
        envelope = await self._client.request(CREATE, body=body)
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[BrandProfile]:
        """``GET /v1/report-brand-profiles``: the account's profiles, newest first; iterate for
        every one across pages (``async for`` on the async client, where awaiting it gives the
        first page)."""
        query = validate_request(BrandProfileListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[BrandProfile]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.profiles, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, profile_id: str) -> BrandProfile:
        """``GET /v1/report-brand-profiles/{id}``: one profile of the account."""
        envelope = await self._client.request(GET, path_params={"id": profile_id})
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    async def update(
        self,
        profile_id: str,
        *,
        name: str | None = None,
        branding: BrandingInput | None = None,
    ) -> BrandProfile:
        """``PATCH /v1/report-brand-profiles/{id}`` (spec endpoint 4): the fields given replace
        those stored (inside ``branding`` too; a branding field given as None is removed). A
        ``logo_url`` given is fetched again (400 ``logo_refused`` as in :meth:`create`) and the
        old stored logo deleted."""
        body = validate_request(
            UpdateBrandProfileRequest, {"name": name, "branding": _branding(branding)}
        )
        envelope = await self._client.request(UPDATE, body=body, path_params={"id": profile_id})
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    async def delete(self, profile_id: str) -> DeletedBrandProfile:
        """``DELETE /v1/report-brand-profiles/{id}``: the profile and its stored logo are gone
        (the API answers 204 with no body)."""
        return await self._client.request(DELETE, path_params={"id": profile_id})


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class BrandProfiles(SyncResource):
    """``client.brand_profiles``: create, list, read, update and delete the report brand
    profiles of the logged-in account (session routes). Another account's profile is a
    ``NotFoundError``."""

    operations = OPERATIONS

    def create(self, *, name: str, branding: BrandingInput) -> BrandProfile:
        """``POST /v1/report-brand-profiles``: a new profile; a ``logo_url`` is fetched now and
        stored. A 400 ``BadRequestError`` names each field (code ``logo_refused``, field
        ``branding.logo_url``, when the logo cannot be fetched: a private address, a timeout,
        over 2 MB, a redirect, or not a PNG, JPEG or SVG)."""
        body = validate_request(
            CreateBrandProfileRequest, {"name": name, "branding": _branding(branding)}
        )
        envelope = self._client.request(CREATE, body=body)
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[BrandProfile]:
        """``GET /v1/report-brand-profiles``: the account's profiles, newest first; iterate for
        every one across pages (``async for`` on the async client, where awaiting it gives the
        first page)."""
        query = validate_request(BrandProfileListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[BrandProfile]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.profiles, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, profile_id: str) -> BrandProfile:
        """``GET /v1/report-brand-profiles/{id}``: one profile of the account."""
        envelope = self._client.request(GET, path_params={"id": profile_id})
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    def update(
        self,
        profile_id: str,
        *,
        name: str | None = None,
        branding: BrandingInput | None = None,
    ) -> BrandProfile:
        """``PATCH /v1/report-brand-profiles/{id}`` (spec endpoint 4): the fields given replace
        those stored (inside ``branding`` too; a branding field given as None is removed). A
        ``logo_url`` given is fetched again (400 ``logo_refused`` as in :meth:`create`) and the
        old stored logo deleted."""
        body = validate_request(
            UpdateBrandProfileRequest, {"name": name, "branding": _branding(branding)}
        )
        envelope = self._client.request(UPDATE, body=body, path_params={"id": profile_id})
        return _unwrap(envelope, envelope.profile)  # type: ignore[no-any-return]

    def delete(self, profile_id: str) -> DeletedBrandProfile:
        """``DELETE /v1/report-brand-profiles/{id}``: the profile and its stored logo are gone
        (the API answers 204 with no body)."""
        return self._client.request(DELETE, path_params={"id": profile_id})
