"""Disclaimers shown with each kind of reading (``data/disclaimers.json``), English and Thai.

Every code says the same three things in a few words, after the natal PDF's "about" page: the
reading describes tendencies, it is for entertainment and reflection, and it is not medical,
legal or financial advice (and not hiring advice where a reading could be mistaken for it).
Vedic remedies add "consult a professional; never replace medical care" for gemstones and
fasting; kundli matching adds that a score judges no one's worth as a partner; tarot that a yes
or no is a prompt, not an answer; numerology that a number decides nothing by itself;
astrocartography that a line is no reason on its own to move or travel.

An answer carries ``disclaimer: {code, text}`` in its own language (:func:`disclaimer_for`).
The code each route should carry (issue 47; the routes adopt it in astro_server):

==========================================================  ======================
route (astro_server)                                        code
==========================================================  ======================
horoscopes daily / range / feeds                            ``horoscope``
natal chart and interpretation, natal PDF, transits,        ``natal``
progressions, returns, relationship/synastry
vedic chart, dasha, panchanga                               ``vedic``
vedic/remedies                                              ``vedic_remedies``
vedic/kundli-matching                                       ``kundli_matching``
tarot draws and spreads                                     ``tarot``
auspicious dates (Thai, Chinese, wedding, moving)           ``auspicious_dates``
numerology (names, phone numbers, Thai numerology)          ``numerology``
campaign posts                                              ``campaign_post``
Zi Wei Dou Shu chart and readings                           ``ziwei``
Human Design chart, composite, transits                     ``human_design``
astrocartography, relocation                                ``astrocartography``
sky events, forecast, planetary hours, iCal feeds           ``sky_events``
traditional (Hellenistic) timing: profections, releasing    ``traditional_timing``
face reading / palm reading (visual e-mails)                ``face_reading`` /
                                                            ``palm_reading``
==========================================================  ======================
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
DisclaimerKind = Literal[
    "horoscope",
    "face_reading",
    "palm_reading",
    "vedic_remedies",
    "kundli_matching",
    "natal",
    "vedic",
    "tarot",
    "auspicious_dates",
    "numerology",
    "campaign_post",
    "ziwei",
    "human_design",
    "astrocartography",
    "sky_events",
    "traditional_timing",
]
KINDS: Final[tuple[DisclaimerKind, ...]] = (
    "horoscope",
    "face_reading",
    "palm_reading",
    "vedic_remedies",
    "kundli_matching",
    "natal",
    "vedic",
    "tarot",
    "auspicious_dates",
    "numerology",
    "campaign_post",
    "ziwei",
    "human_design",
    "astrocartography",
    "sky_events",
    "traditional_timing",
)
#: The codes an answer's ``disclaimer.code`` can take (the same names as :data:`KINDS`).
CODES: Final = KINDS


class Disclaimer(msgspec.Struct, frozen=True):
    en: str
    th: str


class DisclaimerNote(msgspec.Struct, frozen=True):
    """What an answer carries as ``disclaimer``: the code and the text in the answer's
    language."""

    code: str
    text: str


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


def disclaimer_for(code: str, language: str) -> DisclaimerNote:
    """``{code, text}`` for an answer's ``disclaimer`` field: the disclaimer of ``code`` (one
    of :data:`CODES`; the route table is in the module docstring) in ``language`` (``en`` or
    ``th``). An unknown code raises :class:`CalcInputError` naming ``code``, an unknown
    language naming ``language``."""
    if code not in _disclaimers():
        raise CalcInputError("code", f"unknown disclaimer code {code!r}; one of {', '.join(CODES)}")
    return DisclaimerNote(code=code, text=disclaimer(code, language))
