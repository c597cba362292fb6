"""Models of the customer session routes (``/auth/...``)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["Customer", "LoginRequest", "LogoutResult", "Session"]


class LoginRequest(RequestModel):
    email: str = Field(min_length=3, max_length=320)
    password: str = Field(min_length=1, max_length=1024)


class Customer(ResponseModel):
    id: str
    email: str


class Session(ResponseModel):
    """``POST /auth/login``: the bearer token for session routes and when it expires."""

    token: str
    expires_at: datetime
    customer: Customer


class LogoutResult(ResponseModel):
    """``POST /auth/logout``: the session is ended."""
