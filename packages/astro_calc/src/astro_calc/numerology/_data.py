"""Loading the numerology tables and texts (``data/numerology``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from astro_calc.errors import CalcInputError

LANGUAGES: Final[tuple[str, ...]] = ("en", "th")


def _read(name: str) -> Any:
    path = resources.files("astro_calc").joinpath("data", "numerology", name)
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def letter_tables() -> dict[str, dict[str, int]]:
    raw = _read("letters.json")
    return {system: dict(raw[system]) for system in ("pythagorean", "chaldean", "thai")}


@cache
def texts(language: str) -> dict[str, Any]:
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
    data: dict[str, Any] = _read(f"{language}.json")
    return data
