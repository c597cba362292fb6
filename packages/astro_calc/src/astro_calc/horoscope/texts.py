"""Horoscope templates: loading, deterministic choice of phrasing, and slot filling.

Templates live in ``data/horoscope/<language>.json`` as lists of phrasings per key, with named
``{slots}``. The phrasing for a key is chosen by SHA-256 of (generator version, sign, date,
language, key), so a (sign, date, language) always reads the same while neighbouring days and
signs vary. Rendering fails loudly on a missing slot (``KeyError``); the test suite renders every
template in both languages.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from functools import cache
from importlib import resources
from typing import Any, Final

from astro_calc.errors import CalcInputError

LANGUAGES: Final[tuple[str, ...]] = ("en", "th")
#: Bump when templates or composition change, so stored horoscopes are traceable to a generator.
GENERATOR_VERSION: Final = "horoscope/1"


@cache
def horoscope_texts(language: str) -> dict[str, Any]:
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
    path = resources.files("astro_calc").joinpath("data", "horoscope", f"{language}.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def choose_variant(count: int, *, sign: str, day: date, language: str, key: str) -> int:
    digest = hashlib.sha256(
        f"{GENERATOR_VERSION}|{sign}|{day.isoformat()}|{language}|{key}".encode()
    ).digest()
    return int.from_bytes(digest[:8], "big") % count


def render(template: str, slots: dict[str, object], language: str) -> str:
    text = template.format_map(slots)
    if language == "en" and text:
        text = text[0].upper() + text[1:]
    return text


def format_time(moment: datetime, language: str) -> str:
    fmt: str = horoscope_texts(language)["names"]["time_format"]
    return fmt.format(hh=moment.hour, mm=moment.minute)
