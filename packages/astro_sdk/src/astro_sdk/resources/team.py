"""``client.team``: the account's logins and roles (enterprise). With an API key (``team``
scope) the calls go to ``/api/v3/team/members``; on a client carrying a customer session
(``client.auth.login(...)``) the same methods go to ``/v1/team/members``, where any role reads
and only owners change the team."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import ResponseModel
from astro_sdk.models.team import (
    ChangeRoleRequest,
    CreatedInvitation,
    InviteRequest,
    MemberEnvelope,
    RemovedMember,
    Role,
    TeamMember,
    TeamMembers,
)

__all__ = ["AsyncTeam", "Team"]

R = TypeVar("R", bound=ResponseModel)
Pair = tuple[Operation[R], Operation[R]]


def _pair(
    name: str,
    session_name: str,
    method: Literal["GET", "POST", "PATCH", "DELETE"],
    path: str,
    response: type[R],
    **extra: Any,
) -> Pair[R]:
    key = Operation(
        operation_id=name,
        method=method,
        path="/api/v3/team/members" + path,
        credential=Credential.API_KEY,
        response_model=response,
        **extra,
    )
    session = Operation(
        operation_id=session_name,
        method=method,
        path="/v1/team/members" + path,
        credential=Credential.SESSION,
        response_model=response,
        **extra,
    )
    return key, session


LIST = _pair("listTeamMembers", "listMyTeamMembers", "GET", "", TeamMembers)
INVITE = _pair(
    "inviteTeamMember",
    "inviteMyTeamMember",
    "POST",
    "",
    CreatedInvitation,
    request_model=InviteRequest,
    success_status=201,
)
CHANGE = _pair(
    "changeTeamMemberRole",
    "changeMyTeamMemberRole",
    "PATCH",
    "/{id}",
    MemberEnvelope,
    request_model=ChangeRoleRequest,
)
REMOVE = _pair(
    "removeTeamMember",
    "removeMyTeamMember",
    "DELETE",
    "/{id}",
    RemovedMember,
    success_status=204,
)
OPERATIONS = tuple(op for pair in (LIST, INVITE, CHANGE, REMOVE) for op in pair)


def _member(envelope: MemberEnvelope) -> TeamMember:
    member = envelope.member
    member._api_response = envelope._api_response
    return member


class Team(SyncResource):
    operations = OPERATIONS

    def _op(self, pair: Pair[R]) -> Operation[R]:
        return pair[1] if self._client.session_token else pair[0]

    def list(self) -> TeamMembers:
        """The account's logins and pending invitations."""
        return self._client.request(self._op(LIST))

    def invite(self, *, email: str, role: Role) -> CreatedInvitation:
        """An invitation: ``.token`` (shown once) is valid for 72 hours."""
        body = validate_request(InviteRequest, {"email": email, "role": role})
        return self._client.request(self._op(INVITE), body=body)

    def change_role(self, member_id: str, *, role: Role) -> TeamMember:
        """A login's new role (the last owner cannot be demoted: ``ConflictError``)."""
        body = validate_request(ChangeRoleRequest, {"role": role})
        envelope = self._client.request(self._op(CHANGE), body=body, path_params={"id": member_id})
        return _member(envelope)

    def remove(self, member_id: str) -> RemovedMember:
        """Remove a login: its sessions end at once."""
        return self._client.request(self._op(REMOVE), path_params={"id": member_id})


class AsyncTeam(AsyncResource):
    operations = OPERATIONS

    def _op(self, pair: Pair[R]) -> Operation[R]:
        return pair[1] if self._client.session_token else pair[0]

    async def list(self) -> TeamMembers:
        """See :meth:`Team.list`."""
        return await self._client.request(self._op(LIST))

    async def invite(self, *, email: str, role: Role) -> CreatedInvitation:
        """See :meth:`Team.invite`."""
        body = validate_request(InviteRequest, {"email": email, "role": role})
        return await self._client.request(self._op(INVITE), body=body)

    async def change_role(self, member_id: str, *, role: Role) -> TeamMember:
        """See :meth:`Team.change_role`."""
        body = validate_request(ChangeRoleRequest, {"role": role})
        envelope = await self._client.request(
            self._op(CHANGE), body=body, path_params={"id": member_id}
        )
        return _member(envelope)

    async def remove(self, member_id: str) -> RemovedMember:
        """See :meth:`Team.remove`."""
        return await self._client.request(self._op(REMOVE), path_params={"id": member_id})
