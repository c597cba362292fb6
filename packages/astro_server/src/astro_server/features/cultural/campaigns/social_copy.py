"""Social-media copy of a campaign day in three lengths, built from the published horoscope and
the markets' cultural highlights of that day.

Length is counted as people see text: in **extended grapheme clusters** (Unicode UAX #29, the
``regex`` module's ``\\X``), so a Thai tone mark or above/below vowel (่ ้ ิ ี ุ ู ั ็ ์) and
sara am (ำ, a UAX #29 SpacingMark) belong to the letter before them and do not count: "ดวงชะตา"
is 7 code points and 6 characters. :data:`LIMITS`: long <= 280, medium <= 140, short <= 70.

Composition (deterministic: the same published content gives the same copy):

1. the headline (sign and date, ``data/campaigns/copy.json``);
2. the horoscope's overall text: English by whole sentences; Thai by the space-separated
   phrases Thai writing uses between clauses and sentences. When not even the first unit fits,
   an English sentence is cut after a whole word; a Thai phrase is never cut (Thai has no spaces
   between words, and a space is the only break that cannot fall inside a word), so it is left
   out. A text cut short ends with "…";
3. the markets' highlights of the day (their first festival, else their public holiday), then
   the lucky colour and number, each whole and only if it fits after the first unit of 2;
4. more of the overall text, in order, while it fits.

Pieces are joined by one space; the output order is headline, text, highlights, lucky line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date
from functools import cache
from importlib import resources
from typing import Any, Final

import regex  # type: ignore[import-untyped]  # no stubs shipped

LIMITS: Final[dict[str, int]] = {"long": 280, "medium": 140, "short": 70}
_GRAPHEME = regex.compile(r"\X")
_SENTENCE_END = regex.compile(r"(?<=[.!?])\s+")


def grapheme_count(text: str) -> int:
    """Characters as people see them: extended grapheme clusters (UAX #29)."""
    return len(_GRAPHEME.findall(text))


@cache
def _texts() -> dict[str, Any]:
    raw = resources.files("astro_server").joinpath("data/campaigns/copy.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


def headline(sign_name: str, day: date, language: str) -> str:
    texts = _texts()[language]
    return str(texts["headline"]).format(
        sign_name=sign_name,
        day=day.day,
        month=texts["months"][day.month - 1],
        year=day.year + int(texts["era_offset"]),
    )


def lucky_line(colour: str, number: int, language: str) -> str:
    return str(_texts()[language]["lucky"]).format(colour=colour, number=number)


def highlight_line(market_name: str, text: str, language: str) -> str:
    return str(_texts()[language]["highlight"]).format(market=market_name, text=text.rstrip("."))


def _units(text: str, language: str) -> list[str]:
    """English sentences, or Thai space-separated phrases."""
    text = " ".join(text.split())
    if not text:
        return []
    if language == "th":
        return text.split(" ")
    return [s for s in _SENTENCE_END.split(text) if s]


def _cut_words(sentence: str, room: int, ellipsis: str) -> str:
    """The longest whole-word prefix of ``sentence`` that fits ``room`` with the ellipsis."""
    words = sentence.split(" ")
    best = ""
    for end in range(1, len(words) + 1):
        candidate = " ".join(words[:end]).rstrip(",;:") + ellipsis
        if grapheme_count(candidate) > room:
            break
        best = candidate
    return best


def compose(
    budget: int,
    head: str,
    body: str,
    extras: Sequence[str],
    language: str,
) -> str:
    """One copy of at most ``budget`` graphemes (see the module docstring for the rules)."""
    ellipsis = str(_texts()[language]["ellipsis"])
    units = _units(body, language)
    sep = " "

    def size(parts: Sequence[str]) -> int:
        return grapheme_count(sep.join(p for p in parts if p))

    taken = 0  # body units taken whole
    cut = ""  # a first English sentence cut at a word

    # Thai phrases are parts of sentences: the body is complete only with every phrase.
    def body_text() -> str:
        if cut:
            return cut
        text = sep.join(units[:taken])
        if (
            taken
            and taken < len(units)
            and (language == "th" or not text.endswith((".", "!", "?")))
        ):
            text += ellipsis
        return text

    chosen: list[str] = []
    if units:
        taken = 1
        if size([head, body_text()]) > budget:
            taken = 0
            if language != "th":
                room = budget - grapheme_count(head) - len(sep)
                cut = _cut_words(units[0], room, ellipsis)
    for extra in extras:
        if size([head, body_text(), *chosen, extra]) <= budget:
            chosen.append(extra)
    if taken:
        while taken < len(units):
            taken += 1
            if size([head, body_text(), *chosen]) > budget:
                taken -= 1
                break
    return sep.join(p for p in (head, body_text(), *chosen) if p)


def campaign_copy(
    horoscope: Mapping[str, Any],
    highlights: Sequence[str],
    language: str,
) -> dict[str, str]:
    """The three copies (``long``, ``medium``, ``short``) of one sign and language for a day.

    ``horoscope`` is the published horoscope (``services.horoscopes.get_or_publish``);
    ``highlights`` are ready lines (:func:`highlight_line`) in priority order.
    """
    day = date.fromisoformat(str(horoscope["date"]))
    head = headline(str(horoscope["sign_name"]), day, language)
    lucky = lucky_line(str(horoscope["lucky_colour"]), int(horoscope["lucky_number"]), language)
    extras = [*highlights, lucky]
    body = str(horoscope["overall"]["text"])
    return {name: compose(limit, head, body, extras, language) for name, limit in LIMITS.items()}
