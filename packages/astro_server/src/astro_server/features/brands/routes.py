"""Report brand profiles (session routes; a profile belongs to the customer's account): update
(``PATCH``), create, list, get and delete.

Another account's profile is 404. Brand profiles are the account's objects: any role reads them,
admins and owners change them (``platform/auth/roles.py``). Field rules and the logo's handling:
``features/brands/service.py``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.brands import service as brands
from astro_server.platform.auth.guards import require_session
from astro_server.platform.auth.roles import require_role
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("brand_profiles", __name__)
TAGS = ["Customer reports"]
BASE = "/v1/report-brand-profiles"

_HTTPS: dict[str, Any] = {"pattern": "^https://", "format": "uri"}


class BrandingFields(BaseModel):
    """The spec's Branding object, with the rules the spec leaves open."""

    model_config = ConfigDict(strict=True, extra="forbid")

    brand_name: str | None = Field(default=None, min_length=1, max_length=brands.NAME_MAX)
    logo_url: str | None = Field(
        default=None,
        max_length=2048,
        description="https; fetched once when saved (public address, 10 s, 2 MB; PNG, JPEG or "
        "SVG, sanitised) and stored: reports use the stored copy",
        json_schema_extra=_HTTPS,
    )
    primary_color: str | None = Field(default=None, pattern=r"^#[0-9A-Fa-f]{6}$")
    contact_email: str | None = Field(
        default=None, max_length=254, json_schema_extra={"format": "email"}
    )
    contact_phone: str | None = Field(
        default=None, pattern=r"^\+[0-9]{7,15}$", description="E.164: + and 7 to 15 digits"
    )
    contact_url: str | None = Field(default=None, max_length=2048, json_schema_extra=_HTTPS)


class CreateProfileRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(min_length=1, max_length=brands.NAME_MAX, description="Profile name")
    branding: BrandingFields = Field(description="brand_name is required")


class UpdateProfileRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=brands.NAME_MAX)
    branding: BrandingFields | None = Field(
        default=None,
        description="Fields given replace those stored; a field set to null is removed",
    )


class BrandingView(BaseModel):
    brand_name: str | None
    logo_url: str | None
    primary_color: str | None
    contact_email: str | None
    contact_phone: str | None
    contact_url: str | None


class Profile(BaseModel):
    id: str = Field(pattern=brands.PROFILE_ID_PATTERN)
    name: str
    branding: BrandingView
    created_at: datetime | None
    updated_at: datetime | None


class ProfileEnvelope(BaseModel):
    profile: Profile


class ProfileList(BaseModel):
    profiles: list[Profile]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


def _given(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(exclude_unset=True)


@blueprint.post(BASE)
@require_session
@require_role("admin")
@validate_request(CreateProfileRequest)
@document_response(ProfileEnvelope, 201)
@document_response(ErrorBody, 400)
@tag(TAGS)
@operation_id("createReportBrandProfile")
async def create_profile(data: CreateProfileRequest, caller: Caller) -> Response:
    """Save a brand profile for the account's reports; a ``logo_url`` is fetched now and stored.

    400 ``validation_error`` naming each field; code ``logo_refused`` (field
    ``branding.logo_url``) when the logo cannot be fetched (private address, timeout, over 2 MB,
    a redirect) or is not a PNG, JPEG or SVG.
    """
    given = _given(data)
    profile = await brands.create_profile(caller.account_id, given["name"], given["branding"])
    return json_response({"profile": brands.profile_view(profile)}, 201)


@blueprint.get(BASE)
@require_session
@validate_querystring(ListQuery)
@document_response(ProfileList, 200)
@tag(TAGS)
@operation_id("listReportBrandProfiles")
async def list_profiles(query_args: ListQuery, caller: Caller) -> Response:
    """The account's brand profiles, newest first, paged with ``cursor``."""
    page, next_cursor = await brands.list_profiles(
        caller.account_id, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response(
        {"profiles": [brands.profile_view(p) for p in page], "next_cursor": next_cursor}
    )


@blueprint.get(f"{BASE}/<profile_id>")
@require_session
@document_response(ProfileEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("getReportBrandProfile")
async def get_profile(profile_id: str, caller: Caller) -> Response:
    """One brand profile of the account."""
    profile = await brands.owned_profile(caller.account_id, profile_id)
    return json_response({"profile": brands.profile_view(profile)})


@blueprint.patch(f"{BASE}/<profile_id>")
@require_session
@require_role("admin")
@validate_request(UpdateProfileRequest)
@document_response(ProfileEnvelope, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("updateReportBrandProfile")
async def update_profile(profile_id: str, data: UpdateProfileRequest, caller: Caller) -> Response:
    """Update a report brand profile: ``name`` and/or ``branding``; the fields
    given replace those stored (inside ``branding`` too; null removes a field). A ``logo_url``
    given is fetched again and the old stored logo deleted."""
    profile = await brands.owned_profile(caller.account_id, profile_id)
    profile = await brands.update_profile(profile, _given(data))
    return json_response({"profile": brands.profile_view(profile)})


@blueprint.delete(f"{BASE}/<profile_id>")
@require_session
@require_role("admin")
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("deleteReportBrandProfile")
async def delete_profile(profile_id: str, caller: Caller) -> Response:
    """Delete the profile and its stored logo."""
    profile = await brands.owned_profile(caller.account_id, profile_id)
    await brands.delete_profile(profile)
    return Response(status=204)
