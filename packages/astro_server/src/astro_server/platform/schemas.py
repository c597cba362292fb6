"""Pydantic models shared by every blueprint for the OpenAPI document (error body, job handle)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class FieldError(BaseModel):
    field: str = Field(description="Request field that failed, e.g. records[3].boy.date")
    message: str


class ErrorBody(BaseModel):
    """The one error shape: every 4xx and 5xx answer carries it."""

    # The spec's name: the OpenAPI document has it once, as components/schemas/JsonError, and
    # every error response refers to it.
    model_config = ConfigDict(title="JsonError")

    error: str = Field(description="Stable slug, e.g. unauthorized, payment_required")
    message: str = Field(description="Human-readable text, safe to show to clients")
    code: str | None = Field(default=None, description="Provider-specific code, e.g. '402'")
    request_id: str | None = Field(default=None, description="Matches the X-Request-Id header")
    details: list[FieldError] | None = Field(default=None, description="Field-level 400s only")


class JobHandle(BaseModel):
    job_id: str = Field(pattern=r"^job_[a-f0-9]{24}$")
    status: str = Field(description="'queued' at creation")
    poll: str = Field(description="Path to poll: /api/v3/jobs/{id}")
