"""Thai and English texts for the Thai techniques, read once from ``data/thai/texts.json``."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import msgspec


class LocalizedText(msgspec.Struct, frozen=True):
    th: str
    en: str


@lru_cache(maxsize=1)
def texts() -> dict[str, dict[str, dict[str, str]]]:
    raw = resources.files("astro_calc").joinpath("data/thai/texts.json").read_text("utf-8")
    data: Any = json.loads(raw)
    return data  # type: ignore[no-any-return]


@lru_cache(maxsize=1024)
def text(group: str, key: str) -> LocalizedText:
    """The th/en pair for a key; a missing key is a programming error (KeyError)."""
    entry = texts()[group][key]
    return LocalizedText(th=entry["th"], en=entry["en"])
