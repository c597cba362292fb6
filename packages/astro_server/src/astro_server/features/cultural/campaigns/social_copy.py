"""Social-media copy of a campaign day in three lengths, built from the published horoscope and
the markets' cultural highlights of that day.

Length is counted as people see text: in **extended grapheme clusters** (Unicode UAX #29, the
``regex`` module's ``\\X``), so a Thai tone mark or above/below vowel (่ ้ ิ ี ุ ู ั ็ ์) and
sara am (ำ, a UAX #29 SpacingMark) belong to the letter before them and do not count: "ดวงชะตา"
is 7 code points and 6 characters. :data:`LIMITS`: long <= 280, medium <= 140, short <= 70.

Composition (deterministic: the same published content gives the same copy):

1. the headline (sign and date, ``data/campaigns/copy.json``);
2. the horoscope's overall text: English by whole sentences; Thai by clauses
   (:func:`thai_clauses`): the text is cut into words by PyThaiNLP's dictionary segmenter
   (``newmm``; its dictionary ships in the package), and a clause may end only after a verb
   (PyThaiNLP's ORCHID part-of-speech tagger), where a space or a clause-opening word (แต่,
   เพราะ ...) follows, outside parentheses, not before a number and not after a word that needs
   its complement (ที่, ของ, กับ ...). When not even the first unit fits, an English sentence is
   cut after a whole word; a Thai text is left out. A text cut short ends with "…";
3. the markets' highlights of the day (their first festival, else their public holiday), then
   the lucky colour and number, each whole and only if it fits after the first unit of 2;
4. more of the overall text, in order, while it fits.

Pieces are joined by one space; the output order is headline, text, highlights, lucky line.
"""

from __future__ import annotations

import json
import os
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


#: Words that open a Thai clause: a clause may end before them even without a space.
CLAUSE_OPENERS: Final = frozenset({"แต่", "เพราะ", "หาก", "ถ้า", "ขณะที่"})
#: Words that continue what precedes them, even after a space: never the first word after a cut
#: ("เรือนที่ 8 ของคุณ", "11:04 น. ตามเวลาสากล", "ดี ๆ ได้เลย").
CONTINUING_WORDS: Final = frozenset({"ของ", "ตาม", "ได้", "ให้", "และ", "หรือ", "น.", "ๆ", "แล้ว"})
#: Words that need what follows them (a complement, a number, a noun): never the last word.
DANGLING_WORDS: Final = frozenset(
    {"ที่", "ของ", "กับ", "ใน", "และ", "หรือ", "แห่ง", "เป็น", "คือ", "ซึ่ง", "จาก", "ให้", "ต่อ",
     "เรื่อง", "การ", "ความ", "แต่", "เพราะ", "จึง", "ว่า", "โดย", "เพื่อ", "ทั้ง", "อย่าง", "ช่วง",
     "วันที่", "เวลา", "ราว", "ประมาณ"}
)  # fmt: skip
_NUMBER_START = regex.compile(r"^[\s(]*[0-9๐-๙]")


def _pythainlp_offline() -> None:
    """Everything we use ships inside the package: PyThaiNLP may neither download (offline mode)
    nor create its data directory in the home directory (read-only mode; the container's root
    file system is read-only). Set before its first import; an operator's own setting wins."""
    os.environ.setdefault("PYTHAINLP_OFFLINE", "1")
    if "PYTHAINLP_READ_MODE" not in os.environ:  # the deprecated name; both at once is an error
        os.environ.setdefault("PYTHAINLP_READ_ONLY", "1")


def thai_words(text: str) -> list[str]:
    """The words and spaces of a Thai text, in order (joined they give the text back): PyThaiNLP's
    ``newmm`` engine (dictionary-based maximal matching over Thai character clusters; its
    dictionary ships in the package, nothing is downloaded)."""
    _pythainlp_offline()
    from pythainlp.tokenize import word_tokenize  # imported on first use: it loads a dictionary

    words: list[str] = word_tokenize(text, engine="newmm", keep_whitespace=True)
    return words


#: ORCHID part-of-speech tags of verbs (active, stative, attributive).
VERB_TAGS: Final = frozenset({"VACT", "VSTA", "VATT"})


def thai_tags(words: Sequence[str]) -> list[str]:
    """The ORCHID part-of-speech tag of each word: PyThaiNLP's averaged perceptron tagger trained
    on the ORCHID corpus (the model ships in the package)."""
    _pythainlp_offline()
    from pythainlp.tag import pos_tag

    return [tag for _, tag in pos_tag(list(words), engine="perceptron", corpus="orchid")]


def clause_ends(words: Sequence[str]) -> list[int]:
    """The indices ``i`` (1..len) after which a Thai text may end: the text ``words[:i]`` closes
    every parenthesis it opens, its last word is neither a :data:`DANGLING_WORDS` word nor a
    number (nor น. after one), and what follows is a space or a :data:`CLAUSE_OPENERS` word,
    then no number, closing parenthesis or :data:`CONTINUING_WORDS` word. The whole text always
    may end."""
    ends: list[int] = []
    depth = 0
    tags = thai_tags(words)
    verb = False  # a verb since the last end: a clause has one ("ดาวอาทิตย์…" alone is not)
    for i, word in enumerate(words):
        depth += word.count("(") - word.count(")")
        verb = verb or tags[i] in VERB_TAGS
        if i + 1 == len(words):
            ends.append(i + 1)
            break
        last = word.strip()
        if not verb:
            continue
        if depth != 0 or not last or last in DANGLING_WORDS or last == "น.":
            continue
        if _NUMBER_START.match(last):
            continue
        following = words[i + 1]
        if not (following.isspace() or following in CLAUSE_OPENERS):
            continue
        after = next((w.strip() for w in words[i + 1 :] if w.strip()), "")
        if _NUMBER_START.match(after) or after.startswith(")") or after in CONTINUING_WORDS:
            continue
        ends.append(i + 1)
        verb = False
    return ends


def thai_clauses(text: str) -> list[str]:
    """The text cut at :func:`clause_ends`; joined, the pieces give the text back (each piece
    after the first starts with the space, if any, that preceded it)."""
    words = thai_words(text)
    pieces: list[str] = []
    start = 0
    for end in clause_ends(words):
        pieces.append("".join(words[start:end]))
        start = end
    return pieces


def _units(text: str, language: str) -> list[str]:
    """English sentences, or Thai clauses (:func:`thai_clauses`)."""
    text = " ".join(text.split())
    if not text:
        return []
    if language == "th":
        return thai_clauses(text)
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
        # Thai clauses carry their own spaces; English sentences are joined by one.
        text = "".join(units[:taken]).strip() if language == "th" else sep.join(units[:taken])
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
