"""Tarot: the 78-card deck in English and Thai, spreads, seeded or secure draws.

``tarot_deck(language)`` and ``tarot_card(id, language)`` give the cards; ``draw_tarot(spread,
seed=..., reversals=..., language=...)`` deals a reading. See :mod:`astro_calc.tarot.draw` for
the spreads and the shuffle.
"""

from astro_calc.tarot.deck import LANGUAGES, TarotCard, tarot_card, tarot_deck
from astro_calc.tarot.draw import (
    SPREAD_SIZES,
    DrawnCard,
    TarotReading,
    draw_tarot,
    yes_no_answer,
)

__all__ = [
    "LANGUAGES",
    "SPREAD_SIZES",
    "DrawnCard",
    "TarotCard",
    "TarotReading",
    "draw_tarot",
    "tarot_card",
    "tarot_deck",
    "yes_no_answer",
]
