"""``client.profiles``: encrypted client profiles (API key, ``profiles`` scope). Pass
``{"profile_id": profile.id}`` wherever a method takes a subject."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeVar

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.profiles import (
    CreateProfileRequest,
    DeletedProfile,
    Profile,
    ProfileBirth,
    ProfileEnvelope,
    ProfileExport,
    ProfilePage,
    ProfileQuery,
    UpdateProfileRequest,
)

__all__ = ["AsyncProfiles", "Profiles"]

BASE = "/api/v3/profiles"
ITEM = BASE + "/{id}"


R = TypeVar("R", bound=ResponseModel)


def _op(
    name: str,
    method: Literal["GET", "POST", "PATCH", "DELETE"],
    path: str,
    response: type[R],
    **extra: Any,
) -> Operation[R]:
    return Operation(
        operation_id=name,
        method=method,
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        **extra,
    )


CREATE = _op(
    "createProfile",
    "POST",
    BASE,
    ProfileEnvelope,
    request_model=CreateProfileRequest,
    success_status=201,
)
LIST = _op("listProfiles", "GET", BASE, ProfilePage, query_model=ProfileQuery)
GET = _op("getProfile", "GET", ITEM, ProfileEnvelope)
UPDATE = _op("updateProfile", "PATCH", ITEM, ProfileEnvelope, request_model=UpdateProfileRequest)
DELETE = _op("deleteProfile", "DELETE", ITEM, DeletedProfile, success_status=204)
EXPORT = _op("exportProfile", "GET", ITEM + "/export", ProfileExport)
OPERATIONS = (CREATE, LIST, GET, UPDATE, DELETE, EXPORT)

Birth = ProfileBirth | Mapping[str, Any]
_UNSET: Any = object()


def _create_body(
    name: str,
    birth: Birth,
    gender: str | None,
    tags: Sequence[str] | None,
    external_id: str | None,
    notes: str | None,
) -> CreateProfileRequest:
    return validate_request(
        CreateProfileRequest,
        {
            "name": name,
            "birth": birth,
            "gender": gender,
            "tags": list(tags) if tags is not None else None,
            "external_id": external_id,
            "notes": notes,
        },
    )


def _update_body(fields: dict[str, Any]) -> UpdateProfileRequest:
    """Only the arguments given are sent (``None`` clears a field)."""
    given = {k: v for k, v in fields.items() if v is not _UNSET}
    if "tags" in given and given["tags"] is not None:
        given["tags"] = list(given["tags"])
    return UpdateProfileRequest.model_validate(given)


def _query(limit: int | None, tag: str | None, external_id: str | None) -> ProfileQuery:
    return validate_request(ProfileQuery, {"limit": limit, "tag": tag, "external_id": external_id})


class Profiles(SyncResource):
    operations = OPERATIONS

    def create(
        self,
        *,
        name: str,
        birth: Birth,
        gender: str | None = None,
        tags: Sequence[str] | None = None,
        external_id: str | None = None,
        notes: str | None = None,
    ) -> Profile:
        """``POST /api/v3/profiles``: a profile, encrypted at rest."""
        body = _create_body(name, birth, gender, tags, external_id, notes)
        envelope = self._client.request(CREATE, body=body)
        return _unwrap(envelope)

    def list(
        self,
        *,
        tag: str | None = None,
        external_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> CursorPage[Profile]:
        """``GET /api/v3/profiles``: newest first, filtered by an exact tag or external id."""
        query = _query(limit, tag, external_id)

        def fetch(page_cursor: str | None) -> CursorPage[Profile]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST, query=page_query)
            return CursorPage(page.profiles, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, profile_id: str) -> Profile:
        """``GET /api/v3/profiles/{id}``."""
        return _unwrap(self._client.request(GET, path_params={"id": profile_id}))

    def update(
        self,
        profile_id: str,
        *,
        name: str = _UNSET,
        birth: Birth = _UNSET,
        gender: str | None = _UNSET,
        tags: Sequence[str] | None = _UNSET,
        external_id: str | None = _UNSET,
        notes: str | None = _UNSET,
    ) -> Profile:
        """``PATCH /api/v3/profiles/{id}``: the arguments given change (None clears)."""
        body = _update_body(
            {
                "name": name,
                "birth": birth,
                "gender": gender,
                "tags": tags,
                "external_id": external_id,
                "notes": notes,
            }
        )
        envelope = self._client.request(UPDATE, body=body, path_params={"id": profile_id})
        return _unwrap(envelope)

    def delete(self, profile_id: str) -> DeletedProfile:
        """``DELETE /api/v3/profiles/{id}``: the profile is erased."""
        return self._client.request(DELETE, path_params={"id": profile_id})

    def export(self, profile_id: str) -> ProfileExport:
        """``GET /api/v3/profiles/{id}/export``: everything held about the person."""
        return self._client.request(EXPORT, path_params={"id": profile_id})


class AsyncProfiles(AsyncResource):
    operations = OPERATIONS

    async def create(
        self,
        *,
        name: str,
        birth: Birth,
        gender: str | None = None,
        tags: Sequence[str] | None = None,
        external_id: str | None = None,
        notes: str | None = None,
    ) -> Profile:
        """``POST /api/v3/profiles``; see :meth:`Profiles.create`."""
        body = _create_body(name, birth, gender, tags, external_id, notes)
        return _unwrap(await self._client.request(CREATE, body=body))

    def list(
        self,
        *,
        tag: str | None = None,
        external_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> AsyncCursorPager[Profile]:
        """``GET /api/v3/profiles``; see :meth:`Profiles.list`."""
        query = _query(limit, tag, external_id)

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Profile]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST, query=page_query)
            return AsyncCursorPage(page.profiles, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, profile_id: str) -> Profile:
        """``GET /api/v3/profiles/{id}``."""
        return _unwrap(await self._client.request(GET, path_params={"id": profile_id}))

    async def update(
        self,
        profile_id: str,
        *,
        name: str = _UNSET,
        birth: Birth = _UNSET,
        gender: str | None = _UNSET,
        tags: Sequence[str] | None = _UNSET,
        external_id: str | None = _UNSET,
        notes: str | None = _UNSET,
    ) -> Profile:
        """``PATCH /api/v3/profiles/{id}``; see :meth:`Profiles.update`."""
        body = _update_body(
            {
                "name": name,
                "birth": birth,
                "gender": gender,
                "tags": tags,
                "external_id": external_id,
                "notes": notes,
            }
        )
        return _unwrap(
            await self._client.request(UPDATE, body=body, path_params={"id": profile_id})
        )

    async def delete(self, profile_id: str) -> DeletedProfile:
        """``DELETE /api/v3/profiles/{id}``."""
        return await self._client.request(DELETE, path_params={"id": profile_id})

    async def export(self, profile_id: str) -> ProfileExport:
        """``GET /api/v3/profiles/{id}/export``."""
        return await self._client.request(EXPORT, path_params={"id": profile_id})


def _unwrap(envelope: ProfileEnvelope) -> Profile:
    """The profile, carrying the envelope's HTTP response."""
    profile = envelope.profile
    profile._api_response = envelope._api_response
    return profile
