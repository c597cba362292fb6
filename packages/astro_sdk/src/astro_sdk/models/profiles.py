"""Models of encrypted client profiles, and the reference that stands for a birth subject."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "CreateProfileRequest",
    "DeletedProfile",
    "Profile",
    "ProfileActor",
    "ProfileAuditEvent",
    "ProfileBirth",
    "ProfileBirthOut",
    "ProfileEnvelope",
    "ProfileExport",
    "ProfilePage",
    "ProfileQuery",
    "ProfileReference",
    "UpdateProfileRequest",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
_PROFILE_ID = r"^prof_[a-f0-9]{24}$"


class ProfileReference(RequestModel):
    """A stored client profile in place of a birth subject: ``{"profile_id": "prof_..."}``.
    Accepted wherever a request takes a subject (``subject``, ``subject_a``, ``boy``, ...)."""

    profile_id: str = Field(pattern=_PROFILE_ID)


class ProfileBirth(RequestModel):
    """A profile's birth subject: the shared birth subject plus Western's ``fold``."""

    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    timezone: str | None = Field(default=None, max_length=64)
    fold: Literal[0, 1] | None = None


class CreateProfileRequest(RequestModel):
    name: str = Field(min_length=1, max_length=200)
    birth: ProfileBirth
    gender: str | None = Field(default=None, max_length=40)
    tags: list[str] = Field(default_factory=list, max_length=20)
    external_id: str | None = Field(default=None, min_length=1, max_length=200)
    notes: str | None = Field(default=None, max_length=10_000)


class UpdateProfileRequest(RequestModel):
    """Only the fields set are sent; ``None`` clears gender, external_id or notes."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    birth: ProfileBirth | None = None
    gender: str | None = Field(default=None, max_length=40)
    tags: list[str] | None = Field(default=None, max_length=20)
    external_id: str | None = Field(default=None, min_length=1, max_length=200)
    notes: str | None = Field(default=None, max_length=10_000)


class ProfileQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)
    tag: str | None = Field(default=None, min_length=1, max_length=50)
    external_id: str | None = Field(default=None, min_length=1, max_length=200)


class ProfileBirthOut(ResponseModel):
    date: dt.date
    time: str
    latitude: float
    longitude: float
    timezoneOffsetMinutes: int | None = None
    timezone: str | None = None
    fold: Literal[0, 1] | None = None


class Profile(ResponseModel):
    id: str
    name: str
    birth: ProfileBirthOut
    gender: str | None
    tags: list[str]
    external_id: str | None
    notes: str | None
    livemode: bool
    created_at: dt.datetime
    updated_at: dt.datetime


class ProfileEnvelope(ResponseModel):
    profile: Profile


class ProfilePage(ResponseModel):
    profiles: list[Profile]
    next_cursor: str | None


class ProfileActor(ResponseModel):
    id: str
    kind: Literal["api_key", "customer", "operator"]


class ProfileAuditEvent(ResponseModel):
    id: int
    action: str
    object_id: str | None
    actor: ProfileActor
    livemode: bool
    request_id: str | None
    client_address: str | None
    created_at: dt.datetime


class ProfileExport(ResponseModel):
    """Everything held about the person: the profile and every audit row about it."""

    profile: Profile
    audit_events: list[ProfileAuditEvent]
    exported_at: dt.datetime


class DeletedProfile(ResponseModel):
    """``DELETE`` answers 204 with no body: the profile is erased."""
