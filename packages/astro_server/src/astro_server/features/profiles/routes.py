"""Encrypted client profiles (API key, scope ``profiles``): an astrologer's clients, their names
and birth data, sealed at rest (``features/profiles/crypto.py``) and usable in place of a birth
subject anywhere one is taken (``{"profile_id": "prof_..."}``, ``features/profiles/service.py``).

Free and rate limited. A test key sees test profiles only, a live key live ones; another
account's profile is a 404.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.common.subject import BirthSubject, timezone_field
from astro_server.features.profiles import service as profiles
from astro_server.platform.auth.guards import (
    announce_key_change,
    require_api_key,
)
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("profiles", __name__)
TAG = ["Enterprise workflows"]
PROFILE_ID = r"^prof_[a-f0-9]{24}$"
MAX_TAGS = 20


class ProfileBirth(BirthSubject):
    """A profile's birth subject: the shared birth subject plus Western's ``fold``; the
    coordinates are stored, so they are required (no ``place`` shorthand here)."""

    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")

    timezone: str | None = timezone_field("Asia/Bangkok")
    fold: Literal[0, 1] | None = Field(
        default=None, description="For a local time repeated at the end of DST: 0 earlier, 1 later"
    )


def _printable(value: str | None) -> str | None:
    if value is not None and any(not ch.isprintable() for ch in value):
        raise ValueError("must hold printable characters only")
    return value


Tag = str


class _ProfileFields(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gender: str | None = Field(default=None, max_length=40, description="As the client states it")
    tags: list[Tag] = Field(
        default_factory=list,
        max_length=MAX_TAGS,
        description=f"Up to {MAX_TAGS} labels of 1 to 50 characters; exact-match filter",
    )
    external_id: str | None = Field(
        default=None, min_length=1, max_length=200, description="Your id for the client"
    )
    notes: str | None = Field(default=None, max_length=10_000)

    @field_validator("tags")
    @classmethod
    def _tag_lengths(cls, value: list[str]) -> list[str]:
        for item in value:
            if not 1 <= len(item) <= 50:
                raise ValueError("each tag must hold 1 to 50 characters")
            _printable(item)
        return value

    _printable_text = field_validator("gender", "external_id")(_printable)


class CreateClientProfileRequest(_ProfileFields):
    name: str = Field(min_length=1, max_length=200, description="The client's name")
    birth: ProfileBirth = Field(description="The birth subject")

    _printable_name = field_validator("name")(_printable)


class UpdateClientProfileRequest(_ProfileFields):
    """Only the fields sent change; ``null`` clears an optional one; ``tags`` replaces the list."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    birth: ProfileBirth | None = None
    tags: list[Tag] | None = Field(default=None, max_length=MAX_TAGS)  # type: ignore[assignment]

    _printable_name = field_validator("name")(_printable)


class ClientProfile(BaseModel):
    id: str = Field(pattern=PROFILE_ID)
    name: str
    birth: ProfileBirth
    gender: str | None
    tags: list[str]
    external_id: str | None
    notes: str | None
    livemode: bool
    created_at: dt.datetime
    updated_at: dt.datetime


class ClientProfileEnvelope(BaseModel):
    profile: ClientProfile


class ClientProfilePage(BaseModel):
    profiles: list[ClientProfile]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ClientProfileQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)
    tag: str | None = Field(default=None, min_length=1, max_length=50, description="Exact tag")
    external_id: str | None = Field(
        default=None, min_length=1, max_length=200, description="Exact external id"
    )


class ClientProfileAuditActor(BaseModel):
    id: str
    kind: Literal["api_key", "customer", "operator"]


class ClientProfileAuditEvent(BaseModel):
    id: int
    action: str
    object_id: str | None
    actor: ClientProfileAuditActor
    livemode: bool
    request_id: str | None
    client_address: str | None
    created_at: dt.datetime


class ClientProfileExport(BaseModel):
    profile: ClientProfile
    audit_events: list[ClientProfileAuditEvent] = Field(
        description="Every audit row about this profile"
    )
    exported_at: dt.datetime


class ProfileReference(BaseModel):
    """A stored client profile in place of a birth subject: its birth data are used."""

    model_config = ConfigDict(extra="forbid")

    profile_id: str = Field(pattern=PROFILE_ID, description="A profile of the calling account")


def _fields(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude_unset=True)


@blueprint.post("/api/v3/profiles")
@require_api_key
@validate_request(CreateClientProfileRequest)
@document_response(ClientProfileEnvelope, 201)
@tag(TAG)
@operation_id("createProfile")
async def create_profile(data: CreateClientProfileRequest, caller: Caller) -> Response:
    """Create a client profile.

    Every personal field (name, birth, gender, tags, external id, notes) is encrypted at rest
    under the account's data key. Needs the ``profiles`` scope; free.
    """
    fields = data.model_dump(mode="json")
    fields["birth"] = data.birth.model_dump(mode="json", exclude_none=True)
    profile = await profiles.create_profile(caller, fields)
    return json_response({"profile": profile}, 201)


@blueprint.get("/api/v3/profiles")
@require_api_key
@validate_querystring(ClientProfileQuery)
@document_response(ClientProfilePage, 200)
@tag(TAG)
@operation_id("listProfiles")
async def list_profiles(query_args: ClientProfileQuery, caller: Caller) -> Response:
    """List client profiles.

    The account's profiles of the caller's mode (live or test), newest first, with cursor paging,
    filtered by an exact tag or external id (blind indexes: no plaintext is compared in the
    database).
    """
    rows, next_cursor = await profiles.list_profiles(
        caller,
        limit=query_args.limit,
        cursor=query_args.cursor,
        tag=query_args.tag,
        external_id=query_args.external_id,
    )
    return json_response({"profiles": rows, "next_cursor": next_cursor})


@blueprint.get("/api/v3/profiles/<client_profile_id>")
@require_api_key
@document_response(ClientProfileEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getProfile")
async def get_profile(client_profile_id: str, caller: Caller) -> Response:
    """Get a client profile.

    One profile of the caller's account and mode (another account's is a 404); an audit row
    records the read.
    """
    return json_response({"profile": await profiles.get_profile(caller, client_profile_id)})


@blueprint.patch("/api/v3/profiles/<client_profile_id>")
@require_api_key
@validate_request(UpdateClientProfileRequest)
@document_response(ClientProfileEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("updateProfile")
async def update_profile(
    client_profile_id: str, data: UpdateClientProfileRequest, caller: Caller
) -> Response:
    """Change a client profile.

    Only the fields sent change; ``null`` clears gender, external_id or notes; ``tags``
    replaces the list. An audit row records the change.
    """
    changes = _fields(data)
    for required in ("name", "birth"):
        if required in changes and changes[required] is None:
            from astro_server.platform.errors import validation_error

            raise validation_error([{"field": required, "message": "cannot be cleared"}])
    if data.birth is not None:
        changes["birth"] = data.birth.model_dump(mode="json", exclude_none=True)
    if "tags" in changes and changes["tags"] is None:
        changes["tags"] = []
    profile = await profiles.update_profile(caller, client_profile_id, changes, announce_key_change)
    return json_response({"profile": profile})


@blueprint.delete("/api/v3/profiles/<client_profile_id>")
@require_api_key
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("deleteProfile")
async def delete_profile(client_profile_id: str, caller: Caller) -> Response:
    """Delete a client profile.

    Erases the profile: its row and its index rows are deleted (204). An audit row records it.
    """
    await profiles.delete_profile(caller, client_profile_id, announce_key_change)
    return Response(status=204)


@blueprint.get("/api/v3/profiles/<client_profile_id>/export")
@require_api_key
@document_response(ClientProfileExport, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("exportProfile")
async def export_profile(client_profile_id: str, caller: Caller) -> Response:
    """Export everything held about a person.

    For a data-subject request: the profile and every audit row about it.
    """
    return json_response(await profiles.export_profile(caller, client_profile_id))


# --- OpenAPI: the alternative wherever a birth subject is taken ---------------------------------

_REF = "#/components/schemas/"


def _subject_components() -> set[str]:
    found: set[str] = set()
    stack: list[type[BirthSubject]] = [BirthSubject]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub is not ProfileBirth:
                found.add(sub.__name__)
    return found


def _offer_references(node: Any, names: set[str]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF) and ref[len(_REF) :] in names:
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**rest, "oneOf": [{"$ref": ref}, {"$ref": _REF + "ProfileReference"}]}
        return {key: _offer_references(value, names) for key, value in node.items()}
    if isinstance(node, list):
        return [_offer_references(item, names) for item in node]
    return node


def document_profile_references(document: dict[str, Any]) -> None:
    """Every request schema property that is a birth subject becomes ``oneOf`` [the subject,
    ``ProfileReference``] (what ``services/profiles.resolve_references`` accepts)."""
    names = _subject_components()
    schemas = document["components"]["schemas"]
    used = False
    for name, schema in list(schemas.items()):
        if name in names:
            continue
        changed = _offer_references(schema, names)
        used = used or changed != schema
        schemas[name] = changed
    for item in document["paths"].values():
        for operation in item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body:
                changed = _offer_references(body, names)
                used = used or changed != body
                operation["requestBody"] = changed
    if used:
        schemas["ProfileReference"] = ProfileReference.model_json_schema(
            ref_template=_REF + "{model}"
        )
