"""``client.auth``: customer login and logout (session routes).

``login`` returns a new client carrying the session token (and still the API key, if any), so
session routes and API-key routes can be called from it, each with its own credential.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.auth import LoginRequest, LogoutResult, Session
from astro_sdk.models.team import AcceptedInvitation, AcceptInvitationRequest

if TYPE_CHECKING:
    from astro_sdk._client import AstroClient, AsyncAstroClient

__all__ = ["AsyncAuth", "Auth"]

LOGIN = Operation(
    operation_id="login",
    method="POST",
    path="/auth/login",
    credential=Credential.NONE,
    response_model=Session,
    request_model=LoginRequest,
)
LOGOUT = Operation(
    operation_id="logout",
    method="POST",
    path="/auth/logout",
    credential=Credential.SESSION,
    response_model=LogoutResult,
    success_status=204,
)
ACCEPT_INVITATION = Operation(
    operation_id="acceptInvitation",
    method="POST",
    path="/auth/accept-invitation",
    credential=Credential.NONE,
    response_model=AcceptedInvitation,
    request_model=AcceptInvitationRequest,
    success_status=201,
)
OPERATIONS = (LOGIN, LOGOUT, ACCEPT_INVITATION)


class Auth(SyncResource):
    operations = OPERATIONS
    _session: Session | None = None

    def create_session(self, *, email: str, password: str) -> Session:
        """``POST /auth/login``: the session token itself, for storing elsewhere."""
        body = validate_request(LoginRequest, {"email": email, "password": password})
        return self._client.request(LOGIN, body=body)

    def login(self, email: str, password: str) -> AstroClient:
        """Log a customer in; returns a client (sharing this one's pool) carrying the token.
        The session is at ``client.auth.session`` on the returned client."""
        session = self.create_session(email=email, password=password)
        client = self._client.with_options(session_token=session.token)
        client.auth._session = session
        return client

    @property
    def session(self) -> Session | None:
        """The session opened by ``login`` on this client, if it was made by ``login``."""
        return self._session

    def logout(self) -> LogoutResult:
        """``POST /auth/logout``: end this client's session; its token stops working."""
        return self._client.request(LOGOUT)

    def accept_invitation(self, *, token: str, password: str) -> AcceptedInvitation:
        """``POST /auth/accept-invitation``: a team invitation's one-time token and a password
        make the login (then ``login`` with its e-mail)."""
        body = validate_request(AcceptInvitationRequest, {"token": token, "password": password})
        return self._client.request(ACCEPT_INVITATION, body=body)


class AsyncAuth(AsyncResource):
    operations = OPERATIONS
    _session: Session | None = None

    async def create_session(self, *, email: str, password: str) -> Session:
        body = validate_request(LoginRequest, {"email": email, "password": password})
        return await self._client.request(LOGIN, body=body)

    async def login(self, email: str, password: str) -> AsyncAstroClient:
        """Log a customer in; returns a client carrying the session token."""
        session = await self.create_session(email=email, password=password)
        client = self._client.with_options(session_token=session.token)
        client.auth._session = session
        return client

    @property
    def session(self) -> Session | None:
        return self._session

    async def logout(self) -> LogoutResult:
        return await self._client.request(LOGOUT)

    async def accept_invitation(self, *, token: str, password: str) -> AcceptedInvitation:
        """See :meth:`Auth.accept_invitation`."""
        body = validate_request(AcceptInvitationRequest, {"token": token, "password": password})
        return await self._client.request(ACCEPT_INVITATION, body=body)
