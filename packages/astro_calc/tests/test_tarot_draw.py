"""Draws: seeded draws reproduce across processes; secure draws are spread evenly."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
from collections import Counter

import msgspec
import pytest

from astro_calc.errors import CalcInputError
from astro_calc.tarot import SPREAD_SIZES, draw_tarot, tarot_card, yes_no_answer
from astro_calc.tarot.deck import language_texts

# Chi-square critical value for 77 degrees of freedom at p = 1e-6 is about 146 (Wilson-Hilferty);
# 160 keeps a fair shuffle failing this test less than once in ten million runs.
_CHI2_LIMIT_77_DF = 160.0


def _ids(reading: object) -> list[tuple[str, str]]:
    return [(c.card.id, c.orientation) for c in reading.cards]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spread", "size"), sorted(SPREAD_SIZES.items()))
def test_spread_deals_its_number_of_distinct_cards(spread: str, size: int) -> None:
    reading = draw_tarot(spread, seed="sizes")
    assert len(reading.cards) == size
    assert len({c.card.id for c in reading.cards}) == size
    assert [c.position for c in reading.cards] == list(range(1, size + 1))


def test_same_seed_gives_same_reading() -> None:
    assert _ids(draw_tarot("celtic_cross", seed="moonrise")) == _ids(
        draw_tarot("celtic_cross", seed="moonrise")
    )
    assert _ids(draw_tarot("three_card", seed=42)) == _ids(draw_tarot("three_card", seed="42"))


def test_different_seeds_give_different_readings() -> None:
    readings = {tuple(_ids(draw_tarot("celtic_cross", seed=f"s{i}"))) for i in range(50)}
    assert len(readings) == 50


def test_seeded_reading_is_the_same_in_another_process() -> None:
    code = (
        "import json, msgspec; from astro_calc.tarot import draw_tarot; "
        "print(msgspec.json.encode(draw_tarot('celtic_cross', seed='cross-process', "
        "language='th')).decode())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    here = msgspec.json.encode(draw_tarot("celtic_cross", seed="cross-process", language="th"))
    assert json.loads(out) == json.loads(here)


def test_seed_fixes_cards_across_spreads_and_languages() -> None:
    # The deck order depends on the seed only: the three-card spread is the top of the cross.
    cross = draw_tarot("celtic_cross", seed="same-top", language="en")
    three = draw_tarot("three_card", seed="same-top", language="th")
    assert _ids(three) == _ids(cross)[:3]


def test_seeded_shuffle_follows_the_documented_algorithm() -> None:
    # Independent re-statement of the spec: HMAC-SHA256(key = prefix + seed, msg = counter),
    # 64-bit big-endian words, rejection sampling, Fisher-Yates from the last position down.
    key = b"astro-calc/tarot/v1\x00" + b"spec"
    words: list[int] = []
    for counter in range(40):
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        words += [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
    stream = iter(words)

    def below(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while (w := next(stream)) >= limit:
            pass
        return w % n

    order = list(range(78))
    for i in range(77, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    flags = [bool(next(stream) & 1) for _ in range(78)]
    reading = draw_tarot("celtic_cross", seed="spec")
    assert [c.card.index for c in reading.cards] == order[:10]
    assert [c.orientation == "reversed" for c in reading.cards] == flags[:10]


def test_reversals_off_keeps_the_cards_and_turns_them_upright() -> None:
    with_reversals = draw_tarot("celtic_cross", seed="orient")
    without = draw_tarot("celtic_cross", seed="orient", reversals=False)
    assert [c.card.id for c in without.cards] == [c.card.id for c in with_reversals.cards]
    assert {c.orientation for c in without.cards} == {"upright"}
    assert any(c.orientation == "reversed" for c in with_reversals.cards)
    assert all(c.meaning == c.card.upright for c in without.cards)


def test_unseeded_draws_differ() -> None:
    readings = {tuple(_ids(draw_tarot("celtic_cross"))) for _ in range(200)}
    assert len(readings) == 200
    assert draw_tarot("single").shuffle == "secrets"
    assert draw_tarot("single", seed="x").shuffle == "hmac-sha256-fisher-yates/v1"


def test_secure_draws_cover_the_deck_evenly() -> None:
    counts: Counter[int] = Counter()
    reversed_count = 0
    draws = 3000
    for _ in range(draws):
        for card in draw_tarot("celtic_cross").cards:
            counts[card.card.index] += 1
            reversed_count += card.orientation == "reversed"
    total = draws * 10
    assert len(counts) == 78
    expected = total / 78
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(78))
    assert chi2 < _CHI2_LIMIT_77_DF
    # Each card within 6 standard deviations of its expected count.
    sd = (total * (1 / 78) * (77 / 78)) ** 0.5
    assert all(abs(counts[i] - expected) < 6 * sd for i in range(78))
    assert abs(reversed_count / total - 0.5) < 0.02


def test_seeded_draws_over_many_seeds_cover_the_deck_evenly() -> None:
    counts: Counter[int] = Counter()
    for seed in range(3000):
        counts[draw_tarot("single", seed=seed).cards[0].card.index] += 1
    expected = 3000 / 78
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(78))
    assert chi2 < _CHI2_LIMIT_77_DF


def test_yes_no_answer_rule() -> None:
    sun = tarot_card("the_sun")
    tower = tarot_card("the_tower")
    moon = tarot_card("the_high_priestess")
    assert (sun.yes_no, tower.yes_no, moon.yes_no) == ("yes", "no", "maybe")
    assert yes_no_answer(sun, "upright") == "yes"
    assert yes_no_answer(sun, "reversed") == "maybe"
    assert yes_no_answer(moon, "reversed") == "no"
    assert yes_no_answer(tower, "reversed") == "no"


def test_yes_no_spread_gives_an_answer_in_the_language() -> None:
    reading = draw_tarot("yes_no", seed="question", language="th")
    card = reading.cards[0]
    assert reading.answer == yes_no_answer(card.card, card.orientation)
    assert reading.answer is not None
    assert reading.answer_text == language_texts("th")["answers"][reading.answer]
    assert draw_tarot("three_card", seed="question").answer is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"spread": "pyramid"}, "spread"),
        ({"spread": "single", "language": "de"}, "language"),
        ({"spread": "single", "seed": ""}, "seed"),
        ({"spread": "single", "seed": "x" * 201}, "seed"),
        ({"spread": "single", "seed": True}, "seed"),
    ],
)
def test_bad_draw_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(CalcInputError) as error:
        draw_tarot(**kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_celtic_cross_positions_follow_waites_order() -> None:
    # The Pictorial Key to the Tarot (1910), Part III section 7: the first card covers, the second
    # crosses, the third crowns, the fourth is beneath, the fifth behind, the sixth before; then
    # himself, his house, hopes or fears, what will come.
    names = [c.position_name for c in draw_tarot("celtic_cross", seed="waite").cards]
    assert names[:6] == [
        "The present situation",
        "The challenge crossing you",
        "The best that can be achieved",
        "The foundation beneath",
        "The recent past",
        "The near future",
    ]
    assert names[6:] == ["Yourself", "Your surroundings", "Hopes and fears", "The outcome"]
