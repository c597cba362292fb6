"""Disclaimers shown with each kind of reading (``data/disclaimers.json``), English and Thai.

Every kind says the same three things in a few words, after the natal PDF's "about" page: the
reading describes tendencies, it is for entertainment and reflection, and it is not medical,
legal, financial or hiring advice. Vedic remedies add "consult a professional; never replace
medical care" for gemstones and fasting; kundli matching adds that a score judges no one's worth
as a partner.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
DisclaimerKind = Literal[
    "horoscope", "face_reading", "palm_reading", "vedic_remedies", "kundli_matching"
]
KINDS: Final[tuple[DisclaimerKind, ...]] = (
    "horoscope",
    "face_reading",
    "palm_reading",
    "vedic_remedies",
    "kundli_matching",
)


class Disclaimer(msgspec.Struct, frozen=True):
    en: str
    th: str


class _File(msgspec.Struct, frozen=True):
    disclaimers: dict[str, Disclaimer]


@cache
def _disclaimers() -> dict[str, Disclaimer]:
    raw = resources.files("astro_calc").joinpath("data/disclaimers.json").read_bytes()
    return msgspec.json.decode(raw, type=_File).disclaimers


def disclaimer(kind: str, language: str) -> str:
    """The disclaimer of ``kind`` (one of :data:`KINDS`) in ``language`` (``en`` or ``th``);
    an unknown kind or language raises :class:`CalcInputError` naming the field."""
    found = _disclaimers().get(kind)
    if found is None:
        raise CalcInputError("kind", f"unknown disclaimer kind {kind!r}; one of {', '.join(KINDS)}")
    if language == "en":
        return found.en
    if language == "th":
        return found.th
    raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
