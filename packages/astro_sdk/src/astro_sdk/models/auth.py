"""Models of the customer session routes (``/auth/...``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["Customer", "LoginRequest", "LogoutResult", "PreferencesRequest", "Session"]


class LoginRequest(RequestModel):
    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    password: str = Field(min_length=1, max_length=1024)


class Customer(ResponseModel):
    id: str
    email: str
    account_id: str
    #: The interface language the login chose last (``en`` or ``th``); None until it chose.
    language: str | None = None


class PreferencesRequest(RequestModel):
    """``PATCH /auth/me``: the login's own preferences."""

    language: Literal["en", "th"]


class Session(ResponseModel):
    """``POST /auth/login``: the bearer token for session routes and when it expires."""

    token: str
    expires_at: datetime
    customer: Customer


class LogoutResult(ResponseModel):
    """``POST /auth/logout`` answers 204 with no body: the session is ended."""
