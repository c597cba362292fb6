"""Models of the tarot part of the Tarot & Numerology tag group (``/api/v3/tarot/...``).

The deck is the 78-card Rider-Waite-Smith order: trumps 0 (The Fool) to 21 (The World), then
wands, cups, swords and pentacles, ace (1) to ten, page 11, knight 12, queen 13, king 14. Texts
(names, keywords, meanings, position names) come in the requested ``language``, ``en`` or ``th``.
Enumerations in responses are read as plain strings (their values are listed on each field).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "DrawRequest",
    "DrawnCard",
    "Language",
    "Spread",
    "TarotCard",
    "TarotCardList",
    "TarotCardsQuery",
    "TarotReading",
]

Language = Literal["en", "th"]
Spread = Literal["single", "three_card", "celtic_cross", "relationship", "yes_no"]


class DrawRequest(RequestModel):
    """Body of ``POST /api/v3/tarot/draw``. The same ``seed`` gives the same cards and
    orientations (whatever the spread or language); without one the shuffle is secure random."""

    spread: Spread = "single"
    seed: str | None = Field(default=None, min_length=1, max_length=200)
    reversals: bool = True
    language: Language = "en"


class TarotCardsQuery(RequestModel):
    """Query of ``GET /api/v3/tarot/cards`` and ``GET /api/v3/tarot/cards/{card_id}``."""

    language: Language = "en"


class TarotCard(ResponseModel):
    id: str  # the_fool, ace_of_cups, ...
    index: int  # 0-77, deck order
    arcana: str  # major, minor
    number: int  # trumps 0-21; minor 1-14 (11 page, 12 knight, 13 queen, 14 king)
    rank: str | None
    suit: str | None  # wands, cups, swords, pentacles; None for the major arcana
    element: str  # fire, water, air, earth
    astrology: str | None  # Golden Dawn attribution
    yes_no: str  # yes, no, maybe: the card's leaning when drawn upright
    language: str
    name: str
    arcana_name: str
    suit_name: str | None
    element_name: str
    keywords: list[str]
    upright: str
    reversed: str


class TarotCardList(ResponseModel):
    cards: list[TarotCard]


class DrawnCard(ResponseModel):
    position: int  # 1-based place in the spread
    position_name: str
    position_meaning: str
    orientation: str  # upright, reversed
    orientation_name: str
    meaning: str  # the card's upright or reversed meaning, as drawn
    card: TarotCard


class TarotReading(ResponseModel):
    spread: str
    spread_name: str
    language: str
    reversals: bool
    seed: str | None  # echoed; None for a secure shuffle
    shuffle: str  # "hmac-sha256-fisher-yates/v1" (seeded) or "secrets"
    cards: list[DrawnCard]
    answer: str | None = None  # yes, no, maybe: the yes_no spread only
    answer_text: str | None = None
