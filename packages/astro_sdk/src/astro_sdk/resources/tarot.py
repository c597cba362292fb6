"""``client.tarot``: spreads dealt from the 78-card deck, and the deck itself. A draw is billable
(an ``Idempotency-Key`` per call, reused on retries); the card catalogue is free."""

from __future__ import annotations

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.tarot import (
    DrawRequest,
    Language,
    Spread,
    TarotCard,
    TarotCardList,
    TarotCardsQuery,
    TarotReading,
)

__all__ = ["AsyncTarot", "Tarot"]

DRAW: Operation[TarotReading] = Operation(
    operation_id="tarotDraw",
    method="POST",
    path="/api/v3/tarot/draw",
    credential=Credential.API_KEY,
    response_model=TarotReading,
    request_model=DrawRequest,
    billable=True,
)
LIST_CARDS: Operation[TarotCardList] = Operation(
    operation_id="listTarotCards",
    method="GET",
    path="/api/v3/tarot/cards",
    credential=Credential.API_KEY,
    response_model=TarotCardList,
    query_model=TarotCardsQuery,
)
GET_CARD: Operation[TarotCard] = Operation(
    operation_id="getTarotCard",
    method="GET",
    path="/api/v3/tarot/cards/{card_id}",
    credential=Credential.API_KEY,
    response_model=TarotCard,
    query_model=TarotCardsQuery,
)
OPERATIONS = (DRAW, LIST_CARDS, GET_CARD)


def _draw_body(
    spread: Spread | None, seed: str | None, reversals: bool | None, language: Language | None
) -> DrawRequest:
    return validate_request(
        DrawRequest,
        {"spread": spread, "seed": seed, "reversals": reversals, "language": language},
    )


class Tarot(SyncResource):
    """``client.tarot``: spreads dealt from the 78-card deck, and the deck itself."""

    operations = OPERATIONS

    def draw(
        self,
        *,
        spread: Spread | None = None,
        seed: str | None = None,
        reversals: bool | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> TarotReading:
        """``POST /api/v3/tarot/draw``: deal ``spread`` (default ``single``). The same ``seed``
        gives the same reading; without one the shuffle is cryptographically random."""
        body = _draw_body(spread, seed, reversals, language)
        return self._client.request(DRAW, body=body, idempotency_key=idempotency_key)

    def list_cards(self, *, language: Language | None = None) -> TarotCardList:
        """``GET /api/v3/tarot/cards``: all 78 cards in deck order, with meanings."""
        query = validate_request(TarotCardsQuery, {"language": language})
        return self._client.request(LIST_CARDS, query=query)

    def get_card(self, card_id: str | int, *, language: Language | None = None) -> TarotCard:
        """``GET /api/v3/tarot/cards/{card_id}``: one card by id (``the_fool``) or deck index
        (0-77); an unknown card raises ``NotFoundError``."""
        query = validate_request(TarotCardsQuery, {"language": language})
        return self._client.request(GET_CARD, query=query, path_params={"card_id": str(card_id)})


class AsyncTarot(AsyncResource):
    """``client.tarot``: spreads dealt from the 78-card deck, and the deck itself."""

    operations = OPERATIONS

    async def draw(
        self,
        *,
        spread: Spread | None = None,
        seed: str | None = None,
        reversals: bool | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> TarotReading:
        """``POST /api/v3/tarot/draw``: deal ``spread`` (default ``single``). The same ``seed``
        gives the same reading; without one the shuffle is cryptographically random."""
        body = _draw_body(spread, seed, reversals, language)
        return await self._client.request(DRAW, body=body, idempotency_key=idempotency_key)

    async def list_cards(self, *, language: Language | None = None) -> TarotCardList:
        """``GET /api/v3/tarot/cards``: all 78 cards in deck order, with meanings."""
        query = validate_request(TarotCardsQuery, {"language": language})
        return await self._client.request(LIST_CARDS, query=query)

    async def get_card(self, card_id: str | int, *, language: Language | None = None) -> TarotCard:
        """``GET /api/v3/tarot/cards/{card_id}``: one card by id (``the_fool``) or deck index
        (0-77); an unknown card raises ``NotFoundError``."""
        query = validate_request(TarotCardsQuery, {"language": language})
        return await self._client.request(
            GET_CARD, query=query, path_params={"card_id": str(card_id)}
        )
