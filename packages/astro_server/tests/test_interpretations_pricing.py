"""The interpretation rows of the price table and how a request is mapped to them.

Each interpreted operation keeps its bare row unchanged and gains ``<op>.interpretations_summary``
and ``_full``, both at a higher tier and price than the bare calculation, full dearer than
summary (docs/decisions.md, "Premium interpretations").
"""

from __future__ import annotations

import pytest

from astro_server.platform.billing.pricing import (
    INTERPRETATION_LEVELS,
    OPERATIONS,
    TIERS,
    variant_of,
)
from astro_server.platform.errors import APIError

INTERPRETED = (
    "western.natal", "western.synastry", "western.composite", "western.returns",
    "western.progressions", "western.transits", "vedic.chart", "vedic.dasha",
    "vedic.kundli_matching", "western.astrocartography", "western.relocation",
    "western.profections", "western.zodiacal_releasing", "human_design.chart",
)  # fmt: skip
# The bare rows as they were before interpretations existed: they must not move.
BARE = {
    "western.natal": ("free", 1), "western.synastry": ("free", 2),
    "western.composite": ("free", 2), "western.returns": ("free", 1),
    "western.progressions": ("free", 1), "western.transits": ("free", 2),
    "vedic.chart": ("free", 1), "vedic.dasha": ("free", 1), "vedic.kundli_matching": ("free", 1),
    "western.astrocartography": ("starter", 2), "western.relocation": ("starter", 2),
    "western.profections": ("free", 1), "western.zodiacal_releasing": ("free", 2),
    "human_design.chart": ("free", 1),
}  # fmt: skip


@pytest.mark.parametrize("name", INTERPRETED)
def test_each_interpreted_operation_has_dearer_rows_at_a_higher_tier(name: str) -> None:
    bare = OPERATIONS[name]
    assert (bare.tier, bare.credits) == BARE[name]
    summary = OPERATIONS[f"{name}.interpretations_summary"]
    full = OPERATIONS[f"{name}.interpretations_full"]
    for row in (summary, full):
        assert TIERS.index(row.tier) > TIERS.index(bare.tier)
        assert row.tier == "pro"
        assert row.credits > bare.credits
        assert row.per_unit is None
    assert full.credits > summary.credits


def test_only_the_interpreted_operations_have_rows() -> None:
    # ``<op>.interpretations_<level>.sensitivity`` rows (both options) are test_api_sensitivity's.
    named = [n for n in OPERATIONS if ".interpretations_" in n and not n.endswith(".sensitivity")]
    rows = {n.rsplit(".", 1)[0] for n in named}
    assert rows == set(INTERPRETED)
    assert len(named) == 2 * len(INTERPRETED)


@pytest.mark.parametrize("level", INTERPRETATION_LEVELS)
def test_a_level_maps_to_its_row(level: str) -> None:
    assert variant_of("vedic.dasha", {"interpretations": level}) == (
        f"vedic.dasha.interpretations_{level}"
    )


def test_none_or_no_option_is_the_bare_row_and_others_are_untouched() -> None:
    assert variant_of("western.natal", {}) == "western.natal"
    assert variant_of("western.natal", {"interpretations": "none"}) == "western.natal"
    # An operation without interpretations is priced as itself whatever the option says.
    assert variant_of("tarot.draw", {"interpretations": "full"}) == "tarot.draw"


@pytest.mark.parametrize("value", ["all", "", "FULL", 1, None, ["full"]])
def test_an_unknown_level_names_the_field(value: object) -> None:
    with pytest.raises(APIError) as err:
        variant_of("western.natal", {"interpretations": value})
    assert err.value.status == 400
    assert err.value.details == [
        {"field": "params.interpretations", "message": "must be none, summary or full"}
    ]
