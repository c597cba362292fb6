"""The deck: 78 cards, their structure, and text for every card in English and Thai."""

from __future__ import annotations

import re

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.tarot import LANGUAGES, SPREAD_SIZES, tarot_card, tarot_deck
from astro_calc.tarot.deck import language_texts

_THAI = re.compile(r"[\u0E00-\u0E7F]")


def test_deck_has_22_major_and_56_minor_cards() -> None:
    deck = tarot_deck("en")
    assert len(deck) == 78
    assert sum(card.arcana == "major" for card in deck) == 22
    assert sum(card.arcana == "minor" for card in deck) == 56
    assert len({card.id for card in deck}) == 78
    assert [card.index for card in deck] == list(range(78))


def test_majors_are_numbered_fool_0_to_world_21() -> None:
    majors = [card for card in tarot_deck("en") if card.arcana == "major"]
    assert [card.number for card in majors] == list(range(22))
    assert majors[0].name == "The Fool"
    assert majors[21].name == "The World"


@pytest.mark.parametrize(
    ("suit", "element"),
    [("wands", "fire"), ("cups", "water"), ("swords", "air"), ("pentacles", "earth")],
)
def test_each_suit_has_ace_to_king_with_its_element(suit: str, element: str) -> None:
    cards = [card for card in tarot_deck("en") if card.suit == suit]
    assert [card.number for card in cards] == list(range(1, 15))
    assert [card.rank for card in cards][-4:] == ["page", "knight", "queen", "king"]
    assert {card.element for card in cards} == {element}


def test_golden_dawn_attributions_of_some_trumps() -> None:
    # Golden Dawn (Book T): Emperor = Aries, Death = Scorpio, Tower = Mars, World = Saturn.
    assert tarot_card("the_emperor").astrology == "aries"
    assert tarot_card("death").astrology == "scorpio"
    assert tarot_card("the_tower").astrology == "mars"
    assert tarot_card("the_world").astrology == "saturn"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_has_name_keywords_and_both_meanings(language: str) -> None:
    for card in tarot_deck(language):
        assert card.name.strip(), card.id
        assert len(card.keywords) >= 3, card.id
        assert all(k.strip() for k in card.keywords), card.id
        assert len(card.upright) > 40, card.id
        assert len(card.reversed) > 40, card.id
        assert card.upright != card.reversed, card.id
        assert card.element_name
        assert card.arcana_name


def test_thai_texts_are_thai_and_english_texts_are_not() -> None:
    for en, th in zip(tarot_deck("en"), tarot_deck("th"), strict=True):
        assert en.id == th.id
        for text in (th.upright, th.reversed, th.name, *th.keywords):
            assert _THAI.search(text), (th.id, text)
        for text in (en.upright, en.reversed, en.name, *en.keywords):
            assert not _THAI.search(text), (en.id, text)


def test_no_two_cards_share_a_meaning() -> None:
    for language in LANGUAGES:
        meanings = [c.upright for c in tarot_deck(language)] + [
            c.reversed for c in tarot_deck(language)
        ]
        assert len(set(meanings)) == 156, language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_spread_position_has_a_name_and_meaning(language: str) -> None:
    texts = language_texts(language)
    for spread, size in SPREAD_SIZES.items():
        positions = texts["spreads"][spread]["positions"]
        assert len(positions) == size, spread
        assert all(p["name"].strip() and p["meaning"].strip() for p in positions)
    assert set(texts["answers"]) == {"yes", "no", "maybe"}


def test_card_by_id_and_by_index() -> None:
    assert tarot_card("ace_of_cups").name == "Ace of Cups"
    assert tarot_card("ace_of_cups", "th").name == "เอซถ้วย"
    assert tarot_card("0").id == "the_fool"
    assert tarot_card("77").id == "king_of_pentacles"


def test_unknown_card_and_language_are_input_errors() -> None:
    with pytest.raises(CalcInputError) as card_error:
        tarot_card("the_joker")
    assert card_error.value.field == "card_id"
    with pytest.raises(CalcInputError) as language_error:
        tarot_deck("fr")
    assert language_error.value.field == "language"


def test_card_by_integer_index_matches_the_string_index() -> None:
    from astro_calc.tarot.deck import tarot_card

    assert tarot_card(0) == tarot_card("0")
    assert tarot_card(77) == tarot_card("77")


def test_integer_index_outside_the_deck_names_the_field() -> None:
    import pytest

    from astro_calc.errors import CalcInputError
    from astro_calc.tarot.deck import tarot_card

    with pytest.raises(CalcInputError) as info:
        tarot_card(78)
    assert info.value.field == "card_id"
