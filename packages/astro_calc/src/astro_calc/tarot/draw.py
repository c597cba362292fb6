"""Tarot draws: spreads, reproducible (seeded) or cryptographically random shuffles, reversals.

Spreads and their positions:

* ``single``: 1 card.
* ``three_card``: past, present, future.
* ``celtic_cross``: the ten positions in the order of A. E. Waite's *Pictorial Key to the Tarot*
  (1910), Part III section 7: the card that covers (present), crosses, crowns (the best that can
  be achieved), is beneath (foundation), behind (recent past), before (near future), then self,
  environment, hopes and fears, outcome. (Many modern books deal the crown after the past.)
* ``relationship``: you, partner, the bond, the challenge, the potential (5 cards).
* ``yes_no``: 1 card read with :func:`yes_no_answer`.

A draw shuffles the whole deck and deals from the top. With ``seed`` the shuffle is
:func:`astro_calc.tarot._shuffle.seeded_order` (HMAC-SHA256 Fisher-Yates): the same seed gives the
same cards and orientations in every process and Python version, whatever the spread or
language. Without a seed the shuffle uses ``secrets``.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.tarot._shuffle import SECURE_ALGORITHM, SEEDED_ALGORITHM, secure_order, seeded_order
from astro_calc.tarot.deck import TarotCard, YesNo, language_texts, tarot_deck

SpreadName = Literal["single", "three_card", "celtic_cross", "relationship", "yes_no"]
SPREAD_SIZES: Final[dict[str, int]] = {
    "single": 1,
    "three_card": 3,
    "celtic_cross": 10,
    "relationship": 5,
    "yes_no": 1,
}
MAX_SEED_LENGTH: Final = 200
Orientation = Literal["upright", "reversed"]


class DrawnCard(msgspec.Struct, frozen=True):
    position: int  # 1-based place in the spread
    position_name: str
    position_meaning: str
    orientation: Orientation
    orientation_name: str
    meaning: str  # the card's upright or reversed meaning, as drawn
    card: TarotCard


class TarotReading(msgspec.Struct, frozen=True):
    spread: str
    spread_name: str
    language: str
    reversals: bool
    seed: str | None
    shuffle: str  # algorithm used: "hmac-sha256-fisher-yates/v1" or "secrets"
    cards: tuple[DrawnCard, ...]
    answer: YesNo | None = None  # yes_no spread only
    answer_text: str | None = None


_REVERSED_ANSWER: Final[dict[str, YesNo]] = {"yes": "maybe", "maybe": "no", "no": "no"}


def yes_no_answer(card: TarotCard, orientation: Orientation) -> YesNo:
    """Yes/no reading of one card: upright gives the card's leaning (``deck.json``); reversed
    weakens it one step (yes -> maybe, maybe -> no, no -> no)."""
    if orientation == "upright":
        return card.yes_no
    return _REVERSED_ANSWER[card.yes_no]


def _canonical_seed(seed: str | int | None) -> str | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, str | int):
        raise CalcInputError("seed", "must be a string or an integer")
    text = str(seed)
    if not text or len(text) > MAX_SEED_LENGTH:
        raise CalcInputError("seed", f"must be 1 to {MAX_SEED_LENGTH} characters")
    return text


def draw_tarot(
    spread: str = "single",
    *,
    seed: str | int | None = None,
    reversals: bool = True,
    language: str = "en",
) -> TarotReading:
    """Shuffle the 78-card deck and deal ``spread``.

    ``seed`` (a string, or an integer read as its decimal string, so 42 and "42" agree) makes the
    reading reproducible; without it the shuffle is cryptographically random. ``reversals=False``
    deals every card upright without changing which cards come up. Checked by tests: the same seed
    gives the same reading in a separate interpreter; unseeded draws spread evenly over the deck.
    """
    if spread not in SPREAD_SIZES:
        known = ", ".join(SPREAD_SIZES)
        raise CalcInputError("spread", f"unknown spread {spread!r}; one of {known}")
    texts = language_texts(language)
    deck = tarot_deck(language)
    canonical = _canonical_seed(seed)
    if canonical is None:
        order, flags = secure_order(len(deck))
        algorithm = SECURE_ALGORITHM
    else:
        order, flags = seeded_order(len(deck), canonical)
        algorithm = SEEDED_ALGORITHM
    positions = texts["spreads"][spread]["positions"]
    drawn: list[DrawnCard] = []
    for place in range(SPREAD_SIZES[spread]):
        card = deck[order[place]]
        orientation: Orientation = "reversed" if reversals and flags[place] else "upright"
        drawn.append(
            DrawnCard(
                position=place + 1,
                position_name=positions[place]["name"],
                position_meaning=positions[place]["meaning"],
                orientation=orientation,
                orientation_name=texts["orientation"][orientation],
                meaning=card.reversed if orientation == "reversed" else card.upright,
                card=card,
            )
        )
    answer: YesNo | None = None
    answer_text: str | None = None
    if spread == "yes_no":
        answer = yes_no_answer(drawn[0].card, drawn[0].orientation)
        answer_text = texts["answers"][answer]
    return TarotReading(
        spread=spread,
        spread_name=texts["spreads"][spread]["name"],
        language=language,
        reversals=reversals,
        seed=canonical,
        shuffle=algorithm,
        cards=tuple(drawn),
        answer=answer,
        answer_text=answer_text,
    )
