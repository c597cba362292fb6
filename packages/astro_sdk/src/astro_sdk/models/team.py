"""Models of teams: an account's logins, their roles, and invitations."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "AcceptInvitationRequest",
    "AcceptedInvitation",
    "ChangeRoleRequest",
    "CreatedInvitation",
    "InviteRequest",
    "MemberEnvelope",
    "RemovedMember",
    "Role",
    "TeamInvitation",
    "TeamMember",
    "TeamMembers",
]

Role = Literal["viewer", "member", "admin", "owner"]


class InviteRequest(RequestModel):
    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    role: Role


class ChangeRoleRequest(RequestModel):
    role: Role


class AcceptInvitationRequest(RequestModel):
    token: str = Field(min_length=10, max_length=200)
    #: The server checks the policy (at least 12 characters, not a common password, not the
    #: e-mail address) and answers 400 naming ``password``.
    password: str = Field(min_length=1, max_length=1024)


class TeamMember(ResponseModel):
    id: str
    email: str
    role: Role
    created_at: dt.datetime


class TeamInvitation(ResponseModel):
    id: str
    email: str
    role: Role
    created_at: dt.datetime
    expires_at: dt.datetime


class TeamMembers(ResponseModel):
    members: list[TeamMember]
    invitations: list[TeamInvitation]


class CreatedInvitation(ResponseModel):
    invitation: TeamInvitation
    token: str
    """The one-time invitation token: shown this once, valid 72 hours."""
    link: str


class MemberEnvelope(ResponseModel):
    member: TeamMember


class AcceptedInvitation(ResponseModel):
    member: TeamMember
    account_id: str


class RemovedMember(ResponseModel):
    """``DELETE`` answers 204 with no body: the login is disabled, its sessions ended."""
