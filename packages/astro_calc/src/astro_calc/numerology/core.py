"""Western numerology: letter values, the reduction rule, and the name and date numbers.

Reduction rule (stated once, used everywhere): add the decimal digits of a number repeatedly
until it is a single digit, stopping early at the master numbers 11, 22 and 33 when masters are
kept. Life path follows Hans Decoz (worldnumerology.com, "Do your own reading"): month, day and
year are each reduced (keeping masters), then added and reduced again (keeping masters).
Name numbers (Pythagorean) are computed per name part: each part is reduced (keeping masters) and
the parts' numbers are added and reduced, as in Decoz's Expression method; the Chaldean system
(Cheiro) adds every letter of the whole name into one compound number, then reduces it.

Letters: names are NFKD-normalised and stripped of diacritics (é -> E, ñ -> N), ß -> SS,
Æ -> AE, Œ -> OE, Ø -> O, Ł -> L, Đ -> D, Þ -> TH. Spaces, hyphens, apostrophes and other marks
separate or are ignored. Vowels are A E I O U, and Y when neither neighbour inside its name part is
one of A E I O U (so Y is a vowel in "Mary" and "Lynn", a consonant in "Yolanda" and "Maya").
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

from astro_calc.numerology._data import letter_tables

System = Literal["pythagorean", "chaldean"]
SYSTEMS: Final[tuple[str, ...]] = ("pythagorean", "chaldean")
MASTER_NUMBERS: Final = frozenset({11, 22, 33})
_VOWELS: Final = frozenset("AEIOU")
_SPECIAL: Final[dict[str, str]] = {
    "ß": "SS",
    "Æ": "AE",
    "æ": "AE",
    "Œ": "OE",
    "œ": "OE",
    "Ø": "O",
    "ø": "O",
    "Ł": "L",
    "ł": "L",
    "Đ": "D",
    "đ": "D",
    "Þ": "TH",
    "þ": "TH",
    "ı": "I",
}


def reduce_number(value: int, *, keep_masters: bool = True) -> int:
    """Repeated digit sum down to 1-9, stopping at 11, 22 or 33 when ``keep_masters``.

    0 stays 0 (a name part with no vowels has no soul-urge contribution)."""
    if value < 0:
        raise ValueError("numerology reduces non-negative integers")
    while value > 9 and not (keep_masters and value in MASTER_NUMBERS):
        value = sum(int(d) for d in str(value))
    return value


def latin_name_parts(name: str) -> list[str]:
    """Upper-case Latin letters of each name part, diacritics removed; empty parts dropped."""
    mapped = "".join(_SPECIAL.get(ch, ch) for ch in name)
    decomposed = unicodedata.normalize("NFKD", mapped)
    parts: list[str] = []
    current: list[str] = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        up = ch.upper()
        if "A" <= up <= "Z":
            current.append(up)
        elif ch.isspace() or ch in "-‐‑–—_/.,":
            if current:
                parts.append("".join(current))
            current = []
        # apostrophes and anything else inside a part (O'Brien) are skipped without splitting
    if current:
        parts.append("".join(current))
    return parts


def has_thai_letters(name: str) -> bool:
    """Whether the name holds a Thai character the Thai table gives a value (a stray ๆ, ฯ or
    Thai digit beside a Latin name does not make it a Thai name)."""
    table = letter_tables()["thai"]
    return any(ch in table for ch in name)


def is_vowel(part: str, i: int) -> bool:
    """Vowel test inside one name part (upper-case), with the Y rule of the module docstring."""
    ch = part[i]
    if ch in _VOWELS:
        return True
    if ch != "Y":
        return False
    before = part[i - 1] if i > 0 else ""
    after = part[i + 1] if i + 1 < len(part) else ""
    return before not in _VOWELS and after not in _VOWELS


Selection = Literal["all", "vowels", "consonants"]


def part_sum(part: str, system: System, selection: Selection = "all") -> int:
    """Sum of letter values of one name part over all letters, vowels or consonants."""
    table = letter_tables()[system]
    total = 0
    for i, ch in enumerate(part):
        vowel = is_vowel(part, i)
        if selection == "all" or (selection == "vowels") == vowel:
            total += table[ch]
    return total


def name_number(parts: list[str], system: System, selection: Selection = "all") -> tuple[int, int]:
    """(reduced number, compound) of a name: Pythagorean reduces each part first and keeps the
    master numbers 11, 22 and 33 (Decoz); Chaldean adds the whole name and always reduces to 1-9,
    the compound carrying its own meaning (Cheiro's *Book of Numbers*: 11 and 22 are ordinary
    compounds there). The compound is the sum before the final reduction."""
    if system == "chaldean":
        compound = sum(part_sum(p, system, selection) for p in parts)
        return reduce_number(compound, keep_masters=False), compound
    compound = sum(reduce_number(part_sum(p, system, selection)) for p in parts)
    return reduce_number(compound), compound
