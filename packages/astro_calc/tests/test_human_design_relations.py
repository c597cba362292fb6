"""Composite, transits and readings of Human Design charts.

The connection kinds are Ra Uru Hu's (The Definitive Book of Human Design, "Relationships"):
electromagnetic (each has one gate), compromise (one has the channel, the other one gate),
dominance (one has the channel, the other neither gate), companionship (both have it). The
checks below count the gates of each person directly, independently of the module's loop.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from astro_calc import glossary
from astro_calc.errors import CalcInputError
from astro_calc.human_design import (
    CHANNELS,
    chart_at,
    chart_interpretation,
    composite,
    human_design_chart,
    names,
    transits,
)
from astro_calc.western import BirthSubject

DATA = Path(__file__).resolve().parents[1] / "src" / "astro_calc" / "data" / "human_design"


def test_every_composite_connection_has_the_kind_its_gates_give() -> None:
    rng = random.Random(11)
    kinds: set[str] = set()
    for _ in range(150):
        a = chart_at(2415020.5 + rng.uniform(0, 73_000))
        b = chart_at(2415020.5 + rng.uniform(0, 73_000))
        both = composite(a, b)
        ga, gb = set(a.gates), set(b.gates)
        expected = [f"{x}-{y}" for x, y in CHANNELS if {x, y} <= ga | gb]
        assert list(both.channels) == expected
        for c in both.connections:
            x, y = (int(v) for v in c.channel.split("-"))
            full_a, full_b = {x, y} <= ga, {x, y} <= gb
            part_a, part_b = bool({x, y} & ga), bool({x, y} & gb)
            if full_a and full_b:
                assert (c.kind, c.holder) == ("companionship", None)
            elif full_a or full_b:
                holder = "a" if full_a else "b"
                other = part_b if full_a else part_a
                assert (c.kind, c.holder) == ("compromise" if other else "dominance", holder)
            else:
                assert (c.kind, c.holder) == ("electromagnetic", None)
                assert c.channel in both.electromagnetic
            kinds.add(c.kind)
        for centre in both.centers:
            if centre.defined_a or centre.defined_b:
                assert centre.defined
    assert kinds == {"electromagnetic", "compromise", "dominance", "companionship"}


def test_composite_refuses_charts_with_different_nodes() -> None:
    with pytest.raises(CalcInputError) as err:
        composite(chart_at(2451545.0), chart_at(2451545.0, node="mean"))
    assert err.value.field == "node"


def test_a_transit_against_its_own_moment_adds_nothing_new() -> None:
    chart = chart_at(2451545.0)
    moment = chart.birth_utc
    sky = transits(chart, moment)
    assert set(sky.gates) == {a.gate for a in chart.activations.personality}
    assert all(c.kind in ("natal", "transit") for c in sky.channels)


def test_transit_channels_are_marked_by_who_holds_their_gates() -> None:
    rng = random.Random(5)
    for _ in range(100):
        chart = chart_at(2415020.5 + rng.uniform(0, 73_000))
        moment = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=rng.uniform(0, 8760))
        sky = transits(chart, moment)
        natal, gates = set(chart.gates), set(sky.gates)
        for c in sky.channels:
            x, y = (int(v) for v in c.channel.split("-"))
            if {x, y} <= natal:
                assert c.kind == "natal"
            elif {x, y} <= gates:
                assert c.kind == "transit"
            else:
                assert c.kind == "completed"
                assert len({x, y} & natal) == 1
        natal_open = {c.name for c in chart.centers if not c.defined}
        assert set(sky.centers_defined_by_transit) <= natal_open


def test_transits_need_an_aware_moment() -> None:
    with pytest.raises(CalcInputError) as err:
        transits(chart_at(2451545.0), datetime(2026, 1, 1))
    assert err.value.field == "moment"


@pytest.mark.parametrize("language", ["en", "th"])
@pytest.mark.parametrize("level", ["summary", "full"])
def test_readings_cover_type_strategy_authority_profile_and_nine_centres(
    language: str, level: str
) -> None:
    chart = human_design_chart(
        BirthSubject(
            date=date(1948, 4, 9),
            time="00:14",
            latitude=45.5,
            longitude=-73.57,
            timezone="America/Montreal",
        )
    )
    got = chart_interpretation(chart, language=language, level=level)  # type: ignore[arg-type]
    keys = [i.key for i in got.items]
    assert keys[:4] == [
        "type.manifestor",
        "strategy.to_inform",
        "authority.splenic",
        "profile.5/1",
    ]
    assert len(keys) == 13
    assert all(i.text and "{" not in i.text and "{" not in i.title for i in got.items)
    if language == "th":
        assert "แมนิเฟสเตอร์" in got.items[0].text
        assert not glossary.find_forbidden(" ".join(i.text for i in got.items))


def test_every_type_authority_profile_and_centre_state_has_a_text_in_both_languages() -> None:
    from astro_calc.human_design import PROFILES
    from astro_calc.human_design._mechanics import CENTERS, STRATEGY

    for language in ("en", "th"):
        data = json.loads((DATA / f"{language}.json").read_text("utf-8"))
        assert set(data["type"]) == set(STRATEGY)
        assert set(data["strategy"]) == set(STRATEGY.values())
        assert set(data["authority"]) == {
            "emotional",
            "sacral",
            "splenic",
            "ego",
            "self_projected",
            "mental",
            "lunar",
        }
        assert set(data["profile"]) == set(PROFILES)
        assert set(data["center"]) == set(CENTERS)
        for entry in data["center"].values():
            assert set(entry) == {"defined", "open"}


def test_thai_names_are_the_glossary_terms() -> None:
    th = names("th")
    for key, value in th["types"].items():
        assert value == glossary.name("human_design", key, "th")
    for key, value in th["centers"].items():
        assert value == glossary.name("human_design", key, "th")
    for key, value in th["strategies"].items():
        assert value == glossary.name("human_design", key, "th")
    lines = ("investigator", "hermit", "martyr", "opportunist", "heretic", "role_model")
    for number, key in enumerate(lines, start=1):
        assert th["profile_lines"][str(number)] == glossary.name("human_design", key, "th")
    en = names("en")
    for key, value in en["types"].items():
        assert value == glossary.name("human_design", key, "en")
