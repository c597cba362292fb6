"""Models of report brand profiles (``/v1/report-brand-profiles``, session routes)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field
from pydantic.config import JsonDict

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "BrandProfile",
    "BrandProfileEnvelope",
    "BrandProfileListQuery",
    "BrandProfilePage",
    "Branding",
    "CreateBrandProfileRequest",
    "DeletedBrandProfile",
    "UpdateBrandProfileRequest",
]

_HTTPS: JsonDict = {"pattern": "^https://", "format": "uri"}


class Branding(RequestModel):
    """The spec's Branding object. ``logo_url`` is fetched once when the profile is saved (a
    public https address, 10 s, 2 MB; PNG, JPEG or SVG, which is sanitised)."""

    brand_name: str | None = Field(default=None, min_length=1, max_length=120)
    logo_url: str | None = Field(default=None, max_length=2048, json_schema_extra=_HTTPS)
    primary_color: str | None = Field(default=None, pattern=r"^#[0-9A-Fa-f]{6}$")
    contact_email: str | None = Field(
        default=None, max_length=254, json_schema_extra={"format": "email"}
    )
    contact_phone: str | None = Field(default=None, pattern=r"^\+[0-9]{7,15}$")
    """E.164: ``+`` and 7 to 15 digits."""
    contact_url: str | None = Field(default=None, max_length=2048, json_schema_extra=_HTTPS)


class CreateBrandProfileRequest(RequestModel):
    name: str = Field(min_length=1, max_length=120)
    branding: Branding
    """``brand_name`` is required."""


class UpdateBrandProfileRequest(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=120)
    branding: Branding | None = None
    """Fields given replace those stored; a field set to None is removed."""


class BrandProfileListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class StoredBranding(ResponseModel):
    brand_name: str | None
    logo_url: str | None
    primary_color: str | None
    contact_email: str | None
    contact_phone: str | None
    contact_url: str | None


class BrandProfile(ResponseModel):
    id: str
    name: str
    branding: StoredBranding
    created_at: datetime | None
    updated_at: datetime | None


class BrandProfileEnvelope(ResponseModel):
    profile: BrandProfile


class BrandProfilePage(ResponseModel):
    profiles: list[BrandProfile]
    next_cursor: str | None


class DeletedBrandProfile(ResponseModel):
    """``DELETE`` answers 204 with no body: the profile and its stored logo are gone."""
