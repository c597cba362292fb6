"""The premium ``interpretations`` option and its typed answer (Western and Vedic endpoints).

Every interpreted request takes ``interpretations`` (``none`` default, ``summary``, ``full``) and
``language`` (``en``, ``th``); ``summary`` and ``full`` are priced as their own operations
(``<operation>.interpretations_summary`` / ``_full``) at a higher tier. The answer's
``interpretations`` is ``None`` when none were asked for.
"""

from __future__ import annotations

from typing import Literal

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "InterpretationBasis",
    "InterpretationItem",
    "InterpretationLanguage",
    "InterpretationLevel",
    "InterpretationOptions",
    "Interpretations",
]

InterpretationLevel = Literal["none", "summary", "full"]
InterpretationLanguage = Literal["en", "th"]


class InterpretationOptions(RequestModel):
    """Mixed into the request models of the interpreted endpoints."""

    interpretations: InterpretationLevel = "none"
    language: InterpretationLanguage = "en"


class InterpretationBasis(ResponseModel):
    """The chart fact an item comes from; only the fields that apply are set (e.g.
    ``body="venus", sign="libra", house=7``)."""

    body: str | None = None
    angle: str | None = None
    sign: str | None = None
    house: int | None = None
    aspect: str | None = None
    bodies: list[str] | None = None
    orb: float | None = None
    pattern: str | None = None
    apex: str | None = None
    balance: str | None = None
    dominant: str | None = None
    lacking: str | None = None
    owner: str | None = None
    kind: str | None = None
    natal_point: str | None = None
    utc: str | None = None
    orb_start: str | None = None
    orb_end: str | None = None
    orb_days: float | None = None
    orb_years: float | None = None
    graha: str | None = None
    dignity: str | None = None
    yoga: str | None = None
    cancelled: bool | None = None
    rules: list[str] | None = None
    lord: str | None = None
    level: int | None = None
    start: str | None = None
    end: str | None = None
    koota: str | None = None
    score: float | None = None
    max: float | None = None
    dosha: str | None = None
    person: str | None = None
    # Human Design
    hd_type: str | None = None
    strategy: str | None = None
    authority: str | None = None
    profile: str | None = None
    center: str | None = None
    defined: bool | None = None


class InterpretationItem(ResponseModel):
    """One text: a stable ``key``, its ``section``, ``title``, ``text`` and ``basis``."""

    key: str
    section: str
    title: str
    text: str
    basis: InterpretationBasis


class Interpretations(ResponseModel):
    language: Literal["en", "th"]
    level: Literal["summary", "full"]
    items: list[InterpretationItem]
