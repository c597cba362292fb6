"""Teams (enterprise tier): the account's logins and their roles (``features/team/service.py``).

Two doors onto one service: ``/api/v3/team/members`` with an API key holding the ``team`` scope,
and ``/v1/team/members`` with a customer session. Both follow one rule: any role reads, only
owners change the team; a key acts with the role of the login that minted it (the operator's
keys as owner; platform/auth/roles.py), so an admin's key changes nothing here.
``POST /auth/accept-invitation`` turns an invitation's one-time token into a login.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_request

from astro_server.features.team import service as team
from astro_server.platform.auth.guards import (
    require_api_key,
    require_session,
)
from astro_server.platform.auth.roles import Role, require_role
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError
from astro_server.platform.hosts import public_base
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("team", __name__)
TAG = ["Enterprise workflows"]
SESSION_TAG = ["Customer team"]
MEMBER_ID = r"^cus_[a-f0-9]{24}$"


class TeamMember(BaseModel):
    id: str = Field(pattern=MEMBER_ID)
    email: str
    role: Role
    created_at: dt.datetime


class TeamInvitation(BaseModel):
    id: str
    email: str
    role: Role
    created_at: dt.datetime
    expires_at: dt.datetime = Field(description="72 hours after created_at")


class TeamMembers(BaseModel):
    members: list[TeamMember]
    invitations: list[TeamInvitation] = Field(description="Pending (not used, not expired)")


class InviteRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    role: Role


class CreatedInvitation(BaseModel):
    invitation: TeamInvitation
    token: str = Field(description="The one-time invitation token: shown this once")
    link: str = Field(description="This server's accept-invitation address with the token")


class ChangeRoleRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    role: Role


class MemberEnvelope(BaseModel):
    member: TeamMember


class AcceptInvitationRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    token: str = Field(min_length=10, max_length=200)
    password: str = Field(
        min_length=1,
        max_length=1024,
        description="At least 12 characters, not a common password nor the e-mail address",
    )


class AcceptedInvitation(BaseModel):
    member: TeamMember
    account_id: str


def _live_only(caller: Caller) -> None:
    """Test keys read the team but do not change it: logins are real, not test objects."""
    if not caller.livemode:
        raise APIError(403, "Team changes need a live key, not a test key.", error="forbidden")


async def _list(caller: Caller) -> Response:
    team.require_enterprise(caller.tier)
    members, pending = await team.list_members(caller.account_id)
    return json_response(
        {
            "members": [team.member_view(m) for m in members],
            "invitations": [team.invitation_view(i) for i in pending],
        }
    )


async def _invite(caller: Caller, data: InviteRequest) -> Response:
    team.require_enterprise(caller.tier)
    _live_only(caller)
    base = public_base()

    def page_for(token: str) -> str:
        # The e-mail to a login's owner links the portal's accept page (a form for a person).
        return f"{base}/portal/accept-invitation?{urlencode({'token': token})}"

    invitation, token = await team.invite(caller, data.email, data.role, page_for)
    link = f"{base}/auth/accept-invitation?token={token}"
    body: dict[str, Any] = {
        "invitation": team.invitation_view(invitation),
        "token": token,
        "link": link,
    }
    return json_response(body, 201)


async def _change(caller: Caller, member_id: str, data: ChangeRoleRequest) -> Response:
    team.require_enterprise(caller.tier)
    _live_only(caller)
    member = await team.change_role(caller, member_id, data.role)
    return json_response({"member": team.member_view(member)})


async def _remove(caller: Caller, member_id: str) -> Response:
    team.require_enterprise(caller.tier)
    _live_only(caller)
    await team.remove(caller, member_id)
    return Response(status=204)


# --- API key -----------------------------------------------------------------------------------


@blueprint.get("/api/v3/team/members")
@require_api_key
@document_response(TeamMembers, 200)
@tag(TAG)
@operation_id("listTeamMembers")
async def list_members(caller: Caller) -> Response:
    """List the team.

    The account's logins (with roles) and pending invitations. Enterprise tier; ``team``
    scope.
    """
    return await _list(caller)


@blueprint.post("/api/v3/team/members")
@require_api_key
@require_role("owner")
@validate_request(InviteRequest)
@document_response(CreatedInvitation, 201)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("inviteTeamMember")
async def invite_member(data: InviteRequest, caller: Caller) -> Response:
    """Invite a login.

    Returns a one-time invitation token and link, valid for 72 hours; an e-mail that is already
    a login of this team is 409. An e-mail with a login in another account is invited the same
    way (same answer); its owner is told by e-mail and accepts with that login's password.
    Enterprise tier; ``team`` scope; live keys minted by an owner (or the operator) only.
    """
    return await _invite(caller, data)


@blueprint.patch("/api/v3/team/members/<member_id>")
@require_api_key
@require_role("owner")
@validate_request(ChangeRoleRequest)
@document_response(MemberEnvelope, 200)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("changeTeamMemberRole")
async def change_member(member_id: str, data: ChangeRoleRequest, caller: Caller) -> Response:
    """Change a login's role.

    Roles: owner, admin, member, viewer. The last owner cannot be demoted (409 ``last_owner``).
    Enterprise tier; ``team`` scope; live keys minted by an owner (or the operator) only.
    """
    return await _change(caller, member_id, data)


@blueprint.delete("/api/v3/team/members/<member_id>")
@require_api_key
@require_role("owner")
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("removeTeamMember")
async def remove_member(member_id: str, caller: Caller) -> Response:
    """Remove a login.

    The login is disabled and its sessions end at once; the last owner cannot be removed (409).
    Enterprise tier; ``team`` scope; live keys minted by an owner (or the operator) only.
    """
    return await _remove(caller, member_id)


# --- session -----------------------------------------------------------------------------------


@blueprint.get("/v1/team/members")
@require_session
@document_response(TeamMembers, 200)
@tag(SESSION_TAG)
@operation_id("listMyTeamMembers")
async def session_list_members(caller: Caller) -> Response:
    """List the team (session).

    The account's logins and pending invitations; any role. Enterprise tier.
    """
    return await _list(caller)


@blueprint.post("/v1/team/members")
@require_session
@require_role("owner")
@validate_request(InviteRequest)
@document_response(CreatedInvitation, 201)
@document_response(ErrorBody, 409)
@tag(SESSION_TAG)
@operation_id("inviteMyTeamMember")
async def session_invite_member(data: InviteRequest, caller: Caller) -> Response:
    """Invite a login (session, owners).

    Returns a one-time invitation token and link, valid for 72 hours. Owners only.
    """
    return await _invite(caller, data)


@blueprint.patch("/v1/team/members/<member_id>")
@require_session
@require_role("owner")
@validate_request(ChangeRoleRequest)
@document_response(MemberEnvelope, 200)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(SESSION_TAG)
@operation_id("changeMyTeamMemberRole")
async def session_change_member(
    member_id: str, data: ChangeRoleRequest, caller: Caller
) -> Response:
    """Change a login's role (session, owners).

    The last owner cannot be demoted (409 ``last_owner``). Owners only.
    """
    return await _change(caller, member_id, data)


@blueprint.delete("/v1/team/members/<member_id>")
@require_session
@require_role("owner")
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(SESSION_TAG)
@operation_id("removeMyTeamMember")
async def session_remove_member(member_id: str, caller: Caller) -> Response:
    """Remove a login (session, owners).

    Its sessions end at once; the last owner cannot be removed (409). Owners only.
    """
    return await _remove(caller, member_id)


# --- invitation ---------------------------------------------------------------------------------


@blueprint.post("/auth/accept-invitation")
@validate_request(AcceptInvitationRequest)
@document_response(AcceptedInvitation, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 409)
@tag(["Authentication"])
@operation_id("acceptInvitation")
async def accept_invitation(data: AcceptInvitationRequest) -> Response:
    """Accept a team invitation.

    The invitation's one-time token and a chosen password make the login (then log in with
    ``POST /auth/login``). An unknown, used or expired token is 401; a password of fewer than
    12 characters, a common one or the e-mail address is 400 naming ``password`` (the
    invitation stays usable). When the e-mail already has a login in another account, the
    password is that login's current one: the login moves to this account with the invited
    role (its sessions end; 401 for another password; 409 ``last_owner`` for the last owner of
    its account).
    """
    customer = await team.accept(data.token, data.password)
    return json_response(
        {"member": team.member_view(customer), "account_id": customer.account_id},  # type: ignore[attr-defined]
        201,
    )
