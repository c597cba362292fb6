"""Remedies: every key the rules can produce has English and Thai text; rules fire on reasons."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from astro_calc import CalcInputError
from astro_calc.vedic import BirthSubject, remedies, sidereal_chart
from astro_calc.vedic.remedies import REASONS, REMEDY_FIELDS, remedy_reasons, remedy_texts
from astro_calc.vedic.zodiac import GRAHAS

_DETAILS_FROM_RULES = (
    "debilitated",
    "combust",
    "with_rahu",
    "with_ketu",
    "rising",
    "peak",
    "setting",
    "mahadasha",
    "antardasha",
    "rahu_to_ketu",
    "ketu_to_rahu",
)


def test_every_remedy_key_has_english_and_thai_text() -> None:
    texts = remedy_texts()
    for graha in GRAHAS:
        assert set(texts["planet_names"][graha]) == {"en", "th"}
        for field in REMEDY_FIELDS:
            entry = texts["planets"][graha][field]
            assert set(entry) == {"en", "th"}, (graha, field)
            assert all(v.strip() for v in entry.values())
    for reason in REASONS:
        assert set(texts["reasons"][reason]) == {"en", "th"}
    for detail in _DETAILS_FROM_RULES:
        assert set(texts["details"][detail]) == {"en", "th"}


SUBJECT = BirthSubject(date(1990, 5, 17), "10:30", 28.61, 77.21, 330)


def test_rules_tie_each_remedy_to_its_reason() -> None:
    chart = sidereal_chart(SUBJECT)
    found = remedy_reasons(
        chart, sade_sati_phase="peak", mahadasha_lord="rahu", antardasha_lord="jupiter"
    )
    assert ("sade_sati", "saturn", "peak") in found
    assert ("dasha_lord", "rahu", "mahadasha") in found
    # Jupiter is a benefic: a remedy only if it is weak in this chart.
    jupiter = chart.graha("jupiter")
    jupiter_weak = jupiter.dignity == "debilitated" or jupiter.combust
    assert (("dasha_lord", "jupiter", "antardasha") in found) == jupiter_weak
    for name in ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn"):
        g = chart.graha(name)
        weak = g.dignity == "debilitated" or g.combust
        assert any(r == "weak_planet" and p == name for r, p, _d in found) == weak
        with_node = g.sign in (chart.graha("rahu").sign, chart.graha("ketu").sign)
        assert any(r == "afflicted_planet" and p == name for r, p, _d in found) == with_node


def test_thai_report_uses_thai_text() -> None:
    report = remedies(SUBJECT, datetime(2024, 1, 1, tzinfo=UTC), language="th")
    assert report.remedies
    texts = remedy_texts()
    for r in report.remedies:
        assert r.gemstone == texts["planets"][r.planet]["gemstone"]["th"]
        assert texts["planet_names"][r.planet]["th"] in r.explanation


def test_language_must_be_en_or_th() -> None:
    with pytest.raises(CalcInputError) as err:
        remedies(SUBJECT, datetime(2024, 1, 1, tzinfo=UTC), language="fr")  # type: ignore[arg-type]
    assert err.value.field == "language"
