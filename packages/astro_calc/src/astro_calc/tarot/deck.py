"""The 78-card tarot deck (Rider-Waite-Smith order) with meanings in English and Thai.

Structure (arcana, number, suit, element, Golden Dawn attribution of the trumps, yes/no leaning)
is in ``data/tarot/deck.json``; names, keywords and upright/reversed meanings per language in
``data/tarot/<language>.json``. Numbering: the trumps 0 (The Fool) to 21 (The World); minor
cards 1 (ace) to 10, then 11 page, 12 knight, 13 queen, 14 king. Suits carry the usual elements:
wands fire, cups water, swords air, pentacles earth.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

import msgspec

from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
LANGUAGES: Final[tuple[str, ...]] = ("en", "th")
Arcana = Literal["major", "minor"]
YesNo = Literal["yes", "no", "maybe"]


class TarotCard(msgspec.Struct, frozen=True):
    id: str
    index: int  # 0-77, deck order
    arcana: Arcana
    number: int
    rank: str | None
    suit: str | None
    element: str
    astrology: str | None
    yes_no: YesNo  # leaning when drawn upright in a yes/no spread
    language: str
    name: str
    arcana_name: str
    suit_name: str | None
    element_name: str
    keywords: tuple[str, ...]
    upright: str
    reversed: str


def _read_json(*parts: str) -> Any:
    path = resources.files("astro_calc").joinpath("data", *parts)
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _structure() -> tuple[dict[str, Any], ...]:
    cards: list[dict[str, Any]] = _read_json("tarot", "deck.json")["cards"]
    return tuple(cards)


@cache
def language_texts(language: str) -> dict[str, Any]:
    """The text file for one language (card texts, spreads, answers); unknown language -> 400."""
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
    texts: dict[str, Any] = _read_json("tarot", f"{language}.json")
    return texts


@cache
def tarot_deck(language: str = "en") -> tuple[TarotCard, ...]:
    """All 78 cards in deck order (majors 0-21, then wands, cups, swords, pentacles ace..king)."""
    texts = language_texts(language)
    out: list[TarotCard] = []
    for meta in _structure():
        text = texts["cards"][meta["id"]]
        suit = meta["suit"]
        out.append(
            TarotCard(
                id=meta["id"],
                index=meta["index"],
                arcana=meta["arcana"],
                number=meta["number"],
                rank=meta["rank"],
                suit=suit,
                element=meta["element"],
                astrology=meta["astrology"],
                yes_no=meta["yes_no"],
                language=language,
                name=text["name"],
                arcana_name=texts["arcana"][meta["arcana"]],
                suit_name=texts["suits"][suit] if suit else None,
                element_name=texts["elements"][meta["element"]],
                keywords=tuple(text["keywords"]),
                upright=text["upright"],
                reversed=text["reversed"],
            )
        )
    return tuple(out)


@cache
def _by_id(language: str) -> dict[str, TarotCard]:
    return {card.id: card for card in tarot_deck(language)}


def tarot_card(card_id: str | int, language: str = "en") -> TarotCard:
    """One card by id (``the_fool``, ``ace_of_cups``, ``king_of_swords``) or by deck index
    (0-77, as an int or a string). An unknown id is a :class:`CalcInputError` on ``card_id``."""
    cards = _by_id(language)
    if isinstance(card_id, int):
        if 0 <= card_id < 78:
            return tarot_deck(language)[card_id]
        raise CalcInputError("card_id", f"deck index {card_id} is outside 0-77")
    if card_id in cards:
        return cards[card_id]
    if card_id.isdigit() and int(card_id) < 78:
        return tarot_deck(language)[int(card_id)]
    raise CalcInputError("card_id", f"unknown tarot card {card_id!r}")
