"""The one shape of every calculation's interpretation: items with a stable ``key``, a
``section``, a ``title``, the ``text`` and the chart fact (``basis``) it was read from.

The Western natal texts come from :mod:`astro_calc.western.interpretation` (the natal PDF's
source); relationship and event texts from :mod:`astro_calc.western.readings`; the Vedic ones
from :mod:`astro_calc.vedic.readings`. Every text lives in a data file per language (``en``,
``th``); ``summary`` gives one or two sentences per item, ``full`` adds the longer paragraph.
A template's slots (``{name}``) are filled from chart facts only; a text with a slot left
unfilled raises (:func:`fill`), so none reaches a response.
"""

from __future__ import annotations

import re
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
Level = Literal["summary", "full"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "th")
LEVELS: Final[tuple[Level, ...]] = ("summary", "full")
_SLOT: Final = re.compile(r"\{[a-z_]+\}")


class Basis(msgspec.Struct, frozen=True, omit_defaults=True):
    """The chart fact an item comes from; only the fields that apply are set.

    Western natal: ``body``, ``angle``, ``sign``, ``house``, ``aspect``, ``bodies``, ``orb``,
    ``pattern``, ``apex``, ``balance``, ``dominant``, ``lacking``. Relationship: ``owner``
    (``a`` or ``b``: whose body), ``bodies`` (``[a's point, b's point]``), ``house``.
    Events: ``kind`` (``aspect``, ``ingress``, ``station``, ``return``), ``body`` (the moving
    body), ``natal_point``, ``aspect``, ``utc`` (exact), ``orb_start``/``orb_end`` (the
    contiguous span in orb around it), ``orb_days`` or ``orb_years``. Vedic: ``graha``,
    ``sign`` (rashi), ``house`` (bhava), ``dignity``, ``yoga``, ``cancelled``, ``rules``,
    ``lord``, ``level`` (dasha level), ``start``/``end``, ``koota``, ``score``, ``max``,
    ``dosha``, ``person``. Human Design: ``hd_type``, ``strategy``, ``authority``, ``profile``,
    ``center`` with ``defined``.
    """

    body: str | None = None
    angle: str | None = None
    sign: str | None = None
    house: int | None = None
    aspect: str | None = None
    bodies: tuple[str, ...] | None = None
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
    rules: tuple[str, ...] | None = None
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


class Item(msgspec.Struct, frozen=True):
    """One interpretation: ``key`` is stable across languages and levels (e.g.
    ``planet_sign.venus``, ``inter_aspect.venus.mars``, ``yoga.gajakesari``)."""

    key: str
    section: str
    title: str
    text: str
    basis: Basis


class Interpretations(msgspec.Struct, frozen=True):
    """The items of one result, in reading order, in ``language`` at ``level``."""

    language: Language
    level: Level
    items: tuple[Item, ...]


def check(language: str, level: str) -> None:
    """``CalcInputError`` naming ``language`` or ``level`` when either is not offered."""
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
    if level not in LEVELS:
        raise CalcInputError("level", f"unknown level {level!r}; one of summary, full")


def fill(template: str, values: dict[str, str] | None = None) -> str:
    """A template with its slots filled; a slot without a value is an error, not a text."""
    if "{" not in template:
        return template
    text = template.format_map(values or {})
    if _SLOT.search(text):
        raise ValueError(f"unfilled slot in {text!r}")
    return text


def join_text(*parts: str) -> str:
    """Sentences joined by one space (Thai prose separates sentences with a space too)."""
    return " ".join(p for p in parts if p)
