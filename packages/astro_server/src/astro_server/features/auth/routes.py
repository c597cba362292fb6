"""Customer login and logout (session tokens for the customer-facing routes), and the login's
own preferences (``PATCH /auth/me``: the interface language the portal signs it in with)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_request

from astro_server.features.auth import service
from astro_server.platform import clock
from astro_server.platform.auth import guards as auth
from astro_server.platform.auth.roles import require_role
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("auth", __name__)


class LoginRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # documented JSON types only (see decisions.md)

    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    password: str = Field(min_length=1, max_length=1024)


class CustomerView(BaseModel):
    id: str
    email: str
    account_id: str
    language: Literal["en", "th"] | None = Field(
        default=None,
        description="The interface language this login chose last (PATCH /auth/me); null "
        "until it chose one",
    )


class PreferencesRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    language: Literal["en", "th"] = Field(description="The interface language: en or th")


class LoginResponse(BaseModel):
    token: str = Field(description="Session bearer token, service_sess_...")
    expires_at: datetime = Field(description="UTC expiry; sessions last 24 hours by default")
    customer: CustomerView


@blueprint.post("/auth/login")
@auth.login_rate_limited
@validate_request(LoginRequest)
@document_response(LoginResponse, 200)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 429)
@tag(["Authentication"])
@operation_id("login")
async def login(data: LoginRequest) -> Response:
    """Exchange e-mail and password for a session token (rate limited per address and e-mail)."""
    token, session, customer = await auth.login(data.email, data.password)
    return json_response(
        {
            "token": token,
            "expires_at": clock.iso(session.expires_at),
            "customer": service.customer_view(customer),
        }
    )


@blueprint.patch("/auth/me")
@auth.require_session
@require_role("viewer")
@validate_request(PreferencesRequest)
@document_response(CustomerView, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@tag(["Authentication"])
@operation_id("updateMyPreferences")
async def update_preferences(data: PreferencesRequest, caller: Caller) -> Response:
    """Change the signed-in login's own preferences (every role may: they are its own)."""
    customer = await service.set_language(caller.login_id, data.language)
    return json_response(service.customer_view(customer))


@blueprint.post("/auth/logout")
@auth.require_session
@require_role("viewer")
@document_response(ErrorBody, 401)
@tag(["Authentication"])
@operation_id("logout")
async def logout(caller: Caller) -> Response:
    """End the session whose token authenticates this request."""
    await auth.logout(caller.credential_id)
    return Response(status=204)  # no body: the after-request hook drops the Content-Type
