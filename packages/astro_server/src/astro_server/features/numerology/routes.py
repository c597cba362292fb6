"""Tarot & Numerology tag group, numerology part: ``POST /api/v3/numerology/profile``.

Pythagorean or Chaldean core numbers and personal cycles from a full name and birth date; Thai
letter-value reading when the name is in Thai script; optional Thai phone-number reading.
Calculation and references: :mod:`astro_calc.numerology`.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag

from astro_calc.numerology import (
    NumerologyProfile,
    ThaiNumerology,
    numerology_profile,
    phone_numerology,
)
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("numerology", __name__)
TAG = ["Tarot & Numerology"]


class ProfileRequest(BaseModel):
    name: str = Field(min_length=1, max_length=200, description="Full birth name (Latin or Thai)")
    birth_date: dt.date = Field(description="Date of birth (YYYY-MM-DD)")
    system: Literal["pythagorean", "chaldean"] = "pythagorean"
    on_date: dt.date | None = Field(
        default=None, description="Date for the personal year, month and day (default today, UTC)"
    )
    phone: str | None = Field(
        default=None, max_length=32, description="Optional phone number for the Thai reading"
    )
    language: Literal["en", "th"] = "en"


_ProfileDoc = response_model(NumerologyProfile)
_ThaiNumerologyDoc = response_model(ThaiNumerology)


class NumerologyResult(BaseModel):
    profile: _ProfileDoc  # type: ignore[valid-type]
    phone: _ThaiNumerologyDoc | None = Field(  # type: ignore[valid-type]
        description="Thai phone-number reading; null when no phone was given"
    )


@blueprint.post("/api/v3/numerology/profile")
@require_api_key
@billable("numerology.profile", body=ProfileRequest)
@document_response(NumerologyResult, 200)
@document_response(ErrorBody, 400)
@tag(TAG)
@operation_id("numerologyProfile")
async def profile(data: ProfileRequest) -> Response:
    """Life path, expression, soul urge, personality, birthday, maturity, personal cycles."""
    result = numerology_profile(
        data.name,
        data.birth_date,
        system=data.system,
        on_date=data.on_date,
        language=data.language,
    )
    phone = phone_numerology(data.phone, data.language) if data.phone is not None else None
    return json_response({"profile": result, "phone": phone})
