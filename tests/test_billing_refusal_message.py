"""The 402 message names the operation's price and the balance, with correct plurals."""

from __future__ import annotations

import pytest

from astro_server.platform.billing.ledger import insufficient_credits


@pytest.mark.parametrize(
    ("cost", "balance", "message"),
    [
        (1, 0, "Insufficient credits: 'vedic.dasha' costs 1 credit; the balance is 0."),
        (2, 1, "Insufficient credits: 'vedic.dasha' costs 2 credits; the balance is 1."),
        (50, 49, "Insufficient credits: 'vedic.dasha' costs 50 credits; the balance is 49."),
    ],
)
def test_the_refusal_names_price_and_balance(cost: int, balance: int, message: str) -> None:
    error = insufficient_credits("vedic.dasha", cost, balance)
    assert error.status == 402
    assert error.code == "402"
    assert error.message == message
