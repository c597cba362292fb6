"""Tarot & Numerology tag group, numerology part: ``POST /api/v3/numerology/profile``.

Pythagorean or Chaldean core numbers and personal cycles from a full name and birth date; Thai
letter-value reading when the name is in Thai script; optional Thai phone-number reading.
Calculation and references: :mod:`astro_calc.numerology`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, Field
from quart import Blueprint

from astro_calc.numerology import (
    NumerologyProfile,
    ThaiNumerology,
    numerology_profile,
    phone_numerology,
)
from astro_server.features.common.calculation import calculations
from astro_server.platform.msgspec_docs import response_model

blueprint = Blueprint("numerology", __name__)
TAG = ["Tarot & Numerology"]
route = calculations(blueprint, tags=TAG, errors=(400,))


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


@route(
    "POST /api/v3/numerology/profile",
    "numerologyProfile",
    price="numerology.profile",
    body=ProfileRequest,
    result=NumerologyResult,
)
def profile(data: ProfileRequest) -> dict[str, Any]:
    """Life path, expression, soul urge, personality, birthday, maturity, personal cycles."""
    result = numerology_profile(
        data.name,
        data.birth_date,
        system=data.system,
        on_date=data.on_date,
        language=data.language,
    )
    phone = phone_numerology(data.phone, data.language) if data.phone is not None else None
    return {"profile": result, "phone": phone}
