"""Tarot & Numerology tag group, tarot part: draws and the card catalogue.

``POST /api/v3/tarot/draw`` deals a spread (reproducible with ``seed``, otherwise a
cryptographically secure shuffle); ``GET /api/v3/tarot/cards`` and ``/cards/{id}`` return the
78-card deck with meanings in ``en`` or ``th``. Calculation: :mod:`astro_calc.tarot`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_querystring

from astro_calc.tarot import TarotCard, TarotReading, draw_tarot, tarot_card, tarot_deck
from astro_server.features.common.calculation import calculations
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.errors import APIError
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("tarot", __name__)
TAG = ["Tarot & Numerology"]
route = calculations(blueprint, tags=TAG, errors=(400,))


class DrawRequest(BaseModel):
    spread: Literal["single", "three_card", "celtic_cross", "relationship", "yes_no"] = Field(
        default="single",
        description="Spread: single, three_card, celtic_cross (10), relationship (5), yes_no",
    )
    seed: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Same seed, same cards (reproducible readings); omit for a secure shuffle",
    )
    reversals: bool = Field(default=True, description="Allow reversed cards")
    language: Literal["en", "th"] = "en"


class CardsQuery(BaseModel):
    language: Literal["en", "th"] = "en"


_TarotCardDoc = response_model(TarotCard)


class TarotCardList(BaseModel):
    """The 78-card deck in deck order (majors 0-21, then wands, cups, swords, pentacles)."""

    cards: list[_TarotCardDoc]  # type: ignore[valid-type]


@route(
    "POST /api/v3/tarot/draw",
    "tarotDraw",
    price="tarot.draw",
    body=DrawRequest,
    result=TarotReading,
)
def draw(data: DrawRequest) -> TarotReading:
    """Shuffle the deck and deal a spread; the reading echoes the seed and shuffle used."""
    return draw_tarot(data.spread, seed=data.seed, reversals=data.reversals, language=data.language)


@route(
    "GET /api/v3/tarot/cards",
    "listTarotCards",
    price=None,
    query=CardsQuery,
    result=TarotCardList,
)
def list_cards(query: CardsQuery) -> dict[str, tuple[TarotCard, ...]]:
    """All 78 cards in deck order with keywords and upright/reversed meanings."""
    return {"cards": tarot_deck(query.language)}


@blueprint.get("/api/v3/tarot/cards/<card_id>")
@require_api_key
@validate_querystring(CardsQuery)
@document_response(_TarotCardDoc, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getTarotCard")
async def get_card(card_id: str, query_args: CardsQuery) -> Response:
    """One card by id (``the_fool``, ``ace_of_cups``) or deck index (0-77)."""
    from astro_calc.errors import CalcInputError

    try:
        card = tarot_card(card_id, query_args.language)
    except CalcInputError:
        raise APIError(404, f"No tarot card {card_id!r}.", error="not_found") from None
    return json_response(card)
