"""The one bilingual glossary (``data/glossary.json``): every term's preferred English and Thai.

Every module, the PDF, the pictures and the portal take their astrological terms from here, so a
planet, an aspect or a ten god is spelled one way in every text a customer reads. Each term also
lists the Thai spellings no text may use (``forbidden_th``, e.g. ดวงอาทิตย์ and พระอาทิตย์ for
ดาวอาทิตย์) and, where a forbidden spelling is part of a correct longer word, those words
(``allow_th``: มิถุนายน contains มิถุน). ``tests/test_glossary.py`` reads every text file of the
packages and fails on a forbidden variant.

Registers: ``คุณ`` addresses the reader of a horoscope (daily and range texts, tarot, campaign
posts); ``เจ้าชะตา`` is the person of a chart reading (natal, BaZi, Vedic, the PDF report), one
of the two throughout one document.

Spellings follow the Royal Society's dictionary (ราชบัณฑิตยสภา) where it has the word; the Thai
forms of Sanskrit and Chinese names are those of Thai astrology books (see docs/content-review.md
for the open doubts).
"""

from __future__ import annotations

from datetime import date
from functools import cache
from importlib import resources
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "th")


class Term(msgspec.Struct, frozen=True):
    """One glossary entry: the preferred ``en`` and ``th``, ``short_th`` for a repeat mention in a
    sentence (defaults to ``th``), the Thai/English spellings texts must not use and the longer
    words that contain a forbidden spelling and are correct."""

    en: str
    th: str
    short_th: str | None = None
    zh: str | None = None
    year_th: str | None = None
    forbidden_th: tuple[str, ...] = ()
    allow_th: tuple[str, ...] = ()
    forbidden_en: tuple[str, ...] = ()
    note: str | None = None

    def name(self, language: Language, *, short: bool = False) -> str:
        """The preferred name in ``language``; ``short`` gives the in-sentence Thai form."""
        if language == "en":
            return self.en
        return self.short_th if short and self.short_th else self.th


class Registers(msgspec.Struct, frozen=True):
    horoscope: str
    chart_reading: str


class Glossary(msgspec.Struct, frozen=True):
    registers: Registers
    terms: dict[str, dict[str, Term]]


class ForbiddenVariant(msgspec.Struct, frozen=True):
    """A spelling no text may use: the term it belongs to, the variant, the preferred form and
    the correct words in which the variant may appear (the preferred forms included)."""

    category: str
    key: str
    language: Language
    variant: str
    preferred: str
    allowed_in: tuple[str, ...]


@cache
def glossary() -> Glossary:
    """The parsed glossary, read once."""
    raw = resources.files("astro_calc").joinpath("data/glossary.json").read_bytes()
    return msgspec.json.decode(raw, type=Glossary)


def categories() -> tuple[str, ...]:
    """The term categories (``planet``, ``sign``, ``aspect``, ``ten_god``, ...)."""
    return tuple(glossary().terms)


def terms(category: str) -> dict[str, Term]:
    """Every term of ``category`` by key; an unknown category raises :class:`CalcInputError`."""
    found = glossary().terms.get(category)
    if found is None:
        raise CalcInputError("category", f"unknown glossary category {category!r}")
    return dict(found)


def term(category: str, key: str) -> Term:
    """One term; an unknown category or key raises :class:`CalcInputError`."""
    found = terms(category).get(key)
    if found is None:
        raise CalcInputError("key", f"unknown glossary term {category}.{key}")
    return found


def name(category: str, key: str, language: Language, *, short: bool = False) -> str:
    """The preferred name of ``category.key`` in ``language`` (see :meth:`Term.name`)."""
    return term(category, key).name(language, short=short)


def forbidden_variants() -> tuple[ForbiddenVariant, ...]:
    """Every forbidden spelling of the glossary, Thai and English."""
    out: list[ForbiddenVariant] = []
    for category, entries in glossary().terms.items():
        for key, entry in entries.items():
            allowed_th = (entry.th, *((entry.short_th,) if entry.short_th else ()), *entry.allow_th)
            for variant in entry.forbidden_th:
                out.append(
                    ForbiddenVariant(category, key, "th", variant, entry.th, tuple(allowed_th))
                )
            for variant in entry.forbidden_en:
                out.append(ForbiddenVariant(category, key, "en", variant, entry.en, (entry.en,)))
    return tuple(out)


def find_forbidden(text: str) -> list[ForbiddenVariant]:
    """The forbidden variants that occur in ``text`` outside the words allowed to contain them.

    Every allowed word is blanked out first (longest first), then each variant is searched as a
    plain substring: Thai is written without spaces, so no word boundary can be relied on.
    """
    found: list[ForbiddenVariant] = []
    for forbidden in forbidden_variants():
        if forbidden.variant not in text:
            continue
        cleaned = text
        for allowed in sorted(forbidden.allowed_in, key=len, reverse=True):
            if forbidden.variant in allowed:
                cleaned = cleaned.replace(allowed, "\x00")
        if forbidden.variant in cleaned:
            found.append(forbidden)
    return found


def date_text(day: date, language: Language, *, short: bool = False) -> str:
    """A civil date as a reader of ``language`` expects it.

    Thai: day, Thai month name and Buddhist Era year (``13 เมษายน 2568``; ``short`` gives the
    month's abbreviation, ``13 เม.ย. 2568``), the year by
    :func:`astro_calc.thai.calendar.buddhist_era_year` (the pre-1941 New Year on 1 April).
    English: ``13 April 2025`` (``short``: ``13 Apr 2025``).
    """
    from astro_calc.thai.calendar import buddhist_era_year

    month = term("month", str(day.month))
    if language == "th":
        return f"{day.day} {month.name('th', short=short)} {buddhist_era_year(day)}"
    return f"{day.day} {month.en[:3] if short else month.en} {day.year}"
