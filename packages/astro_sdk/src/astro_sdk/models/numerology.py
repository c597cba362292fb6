"""Models of the numerology part of the Tarot & Numerology tag group
(``POST /api/v3/numerology/profile``).

Pythagorean or Chaldean letter values; master numbers 11, 22 and 33 are kept by the reduction
rule the profile states (``reduction_rule``). A name in Thai script also gets the Thai
letter-value reading (``profile.thai_name``), and a phone number the Thai phone reading.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "NumerologyNumber",
    "NumerologyProfile",
    "NumerologyRequest",
    "NumerologyResult",
    "NumerologySystem",
    "ThaiCharacterValue",
    "ThaiNumerology",
]

NumerologySystem = Literal["pythagorean", "chaldean"]


class NumerologyRequest(RequestModel):
    """Body of ``POST /api/v3/numerology/profile``. ``on_date`` sets the personal year, month and
    day (default: today, UTC)."""

    name: str = Field(min_length=1, max_length=200)
    birth_date: dt.date
    system: NumerologySystem = "pythagorean"
    on_date: dt.date | None = None
    phone: str | None = Field(default=None, max_length=32)
    language: Literal["en", "th"] = "en"


class NumerologyNumber(ResponseModel):
    aspect: str  # life_path, expression, soul_urge, personality, birthday, maturity, personal_*
    aspect_name: str
    describes: str
    value: int  # 1-9, or a kept master number 11, 22, 33
    compound: int  # the sum before the final reduction
    master: bool
    title: str
    keywords: list[str]
    meaning: str


class ThaiCharacterValue(ResponseModel):
    character: str
    value: int


class ThaiNumerology(ResponseModel):
    kind: str  # name, phone
    text: str  # the input as read (a phone number in national form)
    total: int
    root: int  # 1-9
    planet: str
    meaning: str
    part_totals: list[int]  # per word of a name; one entry for a phone number
    values: list[ThaiCharacterValue]
    ignored: list[str] = Field(default_factory=list)


class NumerologyProfile(ResponseModel):
    name: str
    birth_date: dt.date
    on_date: dt.date
    system: str
    language: str
    reduction_rule: str
    life_path: NumerologyNumber
    birthday: NumerologyNumber
    expression: NumerologyNumber | None  # None when the name has no letters of the system
    soul_urge: NumerologyNumber | None
    personality: NumerologyNumber | None
    maturity: NumerologyNumber | None
    personal_year: NumerologyNumber
    personal_month: NumerologyNumber
    personal_day: NumerologyNumber
    thai_name: ThaiNumerology | None = None


class NumerologyResult(ResponseModel):
    profile: NumerologyProfile
    phone: ThaiNumerology | None  # None when no phone number was given
