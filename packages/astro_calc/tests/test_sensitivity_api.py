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
        "matching_sensitivity",
        "natal_sensitivity",
        "natal_sensitivity_at",
        "pillar_sensitivity_at",
        "qimen_sensitivity",
        "rectification_window",
        "saju_sensitivity",
        "thai_sensitivity",
        "uranian_sensitivity",
        "vedic_sensitivity",
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
