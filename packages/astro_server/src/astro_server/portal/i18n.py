"""Portal strings: one JSON file per language in ``messages/`` (English is the reference; a key
missing in another language falls back to English). The chosen language is kept in a cookie."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

LANGUAGES: Final = ("en", "th")
DEFAULT: Final = "en"


@cache
def messages(language: str) -> dict[str, str]:
    """The strings of ``language`` (``en`` or ``th``), English filling any gap."""
    text = resources.files("astro_server.portal").joinpath(f"messages/{language}.json")
    loaded: dict[str, str] = json.loads(text.read_text(encoding="utf-8"))
    if language == DEFAULT:
        return loaded
    return {**messages(DEFAULT), **loaded}


def translate(language: str, key: str, **values: object) -> str:
    """The string ``key`` in ``language`` with ``{name}`` placeholders filled; the key itself
    when no file has it (a visible gap rather than an error page)."""
    text = messages(language if language in LANGUAGES else DEFAULT).get(key, key)
    return text.format(**values) if values else text
