"""The public names of astro_calc.sensitivity, the ones the server wires."""

from __future__ import annotations

import inspect

import astro_calc.sensitivity as sensitivity


def test_the_exported_names() -> None:
    assert sensitivity.__all__ == [
        "DEFAULT_HORIZON_MINUTES",
        "MAX_UNCERTAINTY_MINUTES",
        "PRECISION_SECONDS",
        "RectificationEvent",
        "RectificationWindow",
        "Sensitivity",
        "SensitivityItem",
        "TimeChange",
        "bazi_sensitivity",
        "combined",
        "dasha_sensitivity",
        "hr_sensitivity",
        "human_design_sensitivity",
        "matching_sensitivity",
        "natal_sensitivity",
        "natal_sensitivity_at",
        "pillar_sensitivity_at",
        "qimen_sensitivity",
        "rectification_window",
        "saju_sensitivity",
        "thai_sensitivity",
        "traditional_sensitivity",
        "traditional_sensitivity_at",
        "uranian_sensitivity",
        "vedic_sensitivity",
        "ziwei_sensitivity",
    ]


def test_every_function_takes_the_uncertainty_and_says_its_precision() -> None:
    for name in sensitivity.__all__:
        obj = getattr(sensitivity, name)
        if inspect.isfunction(obj) and name not in ("rectification_window", "combined"):
            params = inspect.signature(obj).parameters
            assert params["uncertainty_minutes"].default == 0.0, name
            assert params["horizon_minutes"].default is None, name
            assert obj.__doc__, name
            assert "1 second" in " ".join(obj.__doc__.split()), name


def test_combined_names_each_part_and_joins_the_lists() -> None:
    from datetime import UTC, date, datetime

    from astro_calc.sensitivity import TimeChange, combined
    from astro_calc.sensitivity._search import ANGLES_LEFT_OUT, item
    from astro_calc.sensitivity._search import sensitivity as answer
    from astro_calc.western import BirthSubject

    birth = datetime(2000, 1, 1, tzinfo=UTC)
    near = (60.0, "leo")
    a = answer([item("moon.sign", "cancer", birth, None, near, 5.0)], 5.0, 780.0)
    b = answer([item("moon.sign", "aries", birth, None, None, 5.0)], 5.0, 780.0, (ANGLES_LEFT_OUT,))
    both = combined([("subject_a", a), ("subject_b", b), ("subject_c", b)])
    assert [i.result for i in both.items] == [
        "subject_a.moon.sign",
        "subject_b.moon.sign",
        "subject_c.moon.sign",
    ]
    assert both.items[0].changes_after == TimeChange(
        1.0, "leo", datetime(2000, 1, 1, 0, 1, tzinfo=UTC)
    )
    assert both.uncertain == ("subject_a.moon.sign",)
    assert both.warnings == (ANGLES_LEFT_OUT,)
    assert (both.uncertainty_minutes, both.horizon_minutes) == (5.0, 780.0)
    # An empty prefix keeps the names: one part is the part itself.
    natal = sensitivity.natal_sensitivity(
        BirthSubject(date(1961, 7, 1), "19:45", 52.83, 0.5, None, "Europe/London")
    )
    assert combined([("", natal)]) == natal
