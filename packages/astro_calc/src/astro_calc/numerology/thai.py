"""Thai numerology (เลขศาสตร์): name and phone-number sums read through the planets.

Each Thai consonant, vowel sign and tone mark has a value 1-9 (table and source in
``data/numerology/letters.json``: the system attributed to โหราจารย์พูลหลวง, as published at
sinsae.com and do-doung.com). A name's total is the sum of its characters' values; a phone
number's total is the sum of its digits, read from the national form (``+66 81 ...`` is read as
``081 ...``). The total's root (repeated digit sum, 1-9, no master numbers) names the planet of
the Thai number-planet correspondence: 1 Sun, 2 Moon, 3 Mars, 4 Mercury, 5 Jupiter, 6 Venus,
7 Saturn, 8 Rahu, 9 Ketu; the meaning is the planet's. Characters without a value in the table
(ๆ, ฯ, ๅ, spaces, Latin letters) are listed in ``ignored``.
"""

from __future__ import annotations

import re
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.numerology._data import letter_tables, texts
from astro_calc.numerology.core import reduce_number

_PHONE_ALLOWED: Final = re.compile(r"^\+?[0-9 ()\-.]+$")
MAX_PHONE_DIGITS: Final = 15


class ThaiCharacterValue(msgspec.Struct, frozen=True):
    character: str
    value: int


class ThaiNumerology(msgspec.Struct, frozen=True):
    kind: Literal["name", "phone"]
    text: str  # the input as read (the phone number in national form)
    total: int
    root: int  # 1-9
    planet: str
    meaning: str
    part_totals: tuple[int, ...]  # per word of a name; one entry for a phone number
    values: tuple[ThaiCharacterValue, ...]
    ignored: tuple[str, ...] = ()


def _read_root(total: int, language: str) -> tuple[int, str, str]:
    root = reduce_number(total, keep_masters=False)
    entry = texts(language)["thai_roots"][str(root)]
    return root, entry["planet"], entry["meaning"]


def thai_name_numerology(name: str, language: str = "en") -> ThaiNumerology:
    """Thai letter-value sum of a name in Thai script and its planetary root.

    Example checked in tests from the published table: สมชาย = ส7 + ม5 + ช2 + า1 + ย8 = 23,
    root 5 (Jupiter). A name with no valued Thai character is a ``CalcInputError("name", ...)``.
    """
    table = letter_tables()["thai"]
    values: list[ThaiCharacterValue] = []
    ignored: list[str] = []
    part_totals: list[int] = []
    for word in name.split():
        word_total = 0
        for ch in word:
            if ch in table:
                values.append(ThaiCharacterValue(ch, table[ch]))
                word_total += table[ch]
            elif ch not in ignored:
                ignored.append(ch)
        if word_total:
            part_totals.append(word_total)
    if not values:
        raise CalcInputError("name", "contains no Thai letters to count")
    total = sum(v.value for v in values)
    root, planet, meaning = _read_root(total, language)
    return ThaiNumerology(
        kind="name",
        text=" ".join(name.split()),
        total=total,
        root=root,
        planet=planet,
        meaning=meaning,
        part_totals=tuple(part_totals),
        values=tuple(values),
        ignored=tuple(ignored),
    )


def national_phone_digits(phone: str) -> str:
    """Digits of a phone number in Thai national form; ``+66`` becomes a leading 0."""
    stripped = phone.strip()
    if not stripped or not _PHONE_ALLOWED.match(stripped):
        raise CalcInputError("phone", "use digits, spaces, hyphens, brackets and a leading +")
    digits = re.sub(r"\D", "", stripped)
    if stripped.startswith("+66"):
        digits = "0" + digits[2:]
    if not 3 <= len(digits) <= MAX_PHONE_DIGITS:
        raise CalcInputError("phone", f"must have 3 to {MAX_PHONE_DIGITS} digits")
    return digits


def phone_numerology(phone: str, language: str = "en") -> ThaiNumerology:
    """Digit sum of a phone number (Thai เลขศาสตร์ reading) and its planetary root.

    Example: 081-234-5678 -> 0+8+1+2+3+4+5+6+7+8 = 44, root 8 (Rahu)."""
    digits = national_phone_digits(phone)
    total = sum(int(d) for d in digits)
    if total == 0:
        raise CalcInputError("phone", "a number of zeros only has no reading")
    root, planet, meaning = _read_root(total, language)
    return ThaiNumerology(
        kind="phone",
        text=digits,
        total=total,
        root=root,
        planet=planet,
        meaning=meaning,
        part_totals=(total,),
        values=tuple(ThaiCharacterValue(d, int(d)) for d in digits),
    )
