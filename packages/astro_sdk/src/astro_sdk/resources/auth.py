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
OPERATIONS = (LOGIN, LOGOUT)


class Auth(SyncResource):
    """``client.auth``: customer login and logout (session routes)."""

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


class AsyncAuth(AsyncResource):
    """``client.auth``: customer login and logout (session routes)."""

    operations = OPERATIONS
    _session: Session | None = None

    async def create_session(self, *, email: str, password: str) -> Session:
        """``POST /auth/login``: the session token itself, for storing elsewhere."""
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
        """The session opened by ``login`` on this client, if it was made by ``login``."""
        return self._session

    async def logout(self) -> LogoutResult:
        """``POST /auth/logout``: end this client's session; its token stops working."""
        return await self._client.request(LOGOUT)
