"""Divisional charts (vargas) by the Parashari rules of BPHS ch. 6-7.

Each rule maps a sidereal longitude to the sign (0 = Aries) the point occupies in the varga. The
sign is divided into ``n`` equal parts (D30 excepted) and the part's sign is counted from a
starting sign that depends on the rule. Odd signs are Aries, Gemini, ... (index 0, 2, ...);
movable (chara) signs are Aries, Cancer, Libra, Capricorn; fixed (sthira) Taurus, Leo, Scorpio,
Aquarius; dual (dvisvabhava) the rest.

Checked against PyJHora's Parashara divisional charts (test_vedic_chart.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from astro_calc.errors import CalcInputError


def _split(longitude: float, parts: int) -> tuple[int, int]:
    """(sign, part 0..parts-1) of a longitude."""
    lon = longitude % 360.0
    sign = int(lon // 30.0) % 12
    part = min(math.floor((lon - 30.0 * sign) * parts / 30.0), parts - 1)
    return sign, part


def _odd(sign: int) -> bool:
    return sign % 2 == 0


def _modality(sign: int) -> int:
    """0 movable, 1 fixed, 2 dual."""
    return sign % 3


def _d1(lon: float) -> int:
    return _split(lon, 1)[0]


def _d2(lon: float) -> int:
    # Hora: odd signs -> first half Sun (Leo), second Moon (Cancer); even signs the reverse.
    sign, part = _split(lon, 2)
    first, second = (4, 3) if _odd(sign) else (3, 4)
    return first if part == 0 else second


def _d3(lon: float) -> int:
    # Drekkana: the sign itself, then the 5th and the 9th from it.
    sign, part = _split(lon, 3)
    return (sign + 4 * part) % 12


def _d4(lon: float) -> int:
    # Chaturthamsha: the sign, then the 4th, 7th and 10th from it.
    sign, part = _split(lon, 4)
    return (sign + 3 * part) % 12


def _d7(lon: float) -> int:
    # Saptamsha: odd signs count from the sign itself, even signs from the 7th.
    sign, part = _split(lon, 7)
    start = sign if _odd(sign) else sign + 6
    return (start + part) % 12


def _d9(lon: float) -> int:
    # Navamsha: movable from the sign itself, fixed from the 9th, dual from the 5th; this equals
    # counting parts of 3 deg 20 min continuously from Aries.
    sign, part = _split(lon, 9)
    start = (sign, sign + 8, sign + 4)[_modality(sign)]
    return (start + part) % 12


def _d10(lon: float) -> int:
    # Dashamsha: odd signs from the sign itself, even signs from the 9th.
    sign, part = _split(lon, 10)
    start = sign if _odd(sign) else sign + 8
    return (start + part) % 12


def _d12(lon: float) -> int:
    # Dwadashamsha: from the sign itself.
    sign, part = _split(lon, 12)
    return (sign + part) % 12


def _d16(lon: float) -> int:
    # Shodashamsha: movable from Aries, fixed from Leo, dual from Sagittarius.
    sign, part = _split(lon, 16)
    return ((0, 4, 8)[_modality(sign)] + part) % 12


def _d20(lon: float) -> int:
    # Vimshamsha: movable from Aries, fixed from Sagittarius, dual from Leo.
    sign, part = _split(lon, 20)
    return ((0, 8, 4)[_modality(sign)] + part) % 12


def _d24(lon: float) -> int:
    # Chaturvimshamsha (Siddhamsha): odd signs from Leo, even signs from Cancer.
    sign, part = _split(lon, 24)
    return ((4 if _odd(sign) else 3) + part) % 12


def _d27(lon: float) -> int:
    # Bhamsha (Nakshatramsha): fiery signs from Aries, earthy from Cancer, airy from Libra,
    # watery from Capricorn.
    sign, part = _split(lon, 27)
    return ((0, 3, 6, 9)[sign % 4] + part) % 12


#: D30 Trimshamsha: unequal parts ruled by Mars, Saturn, Jupiter, Mercury, Venus.
#: Odd signs: 0-5 Aries, 5-10 Aquarius, 10-18 Sagittarius, 18-25 Gemini, 25-30 Libra.
#: Even signs: 0-5 Taurus, 5-12 Virgo, 12-20 Pisces, 20-25 Capricorn, 25-30 Scorpio.
_D30_ODD: Final = ((5.0, 0), (10.0, 10), (18.0, 8), (25.0, 2), (30.0, 6))
_D30_EVEN: Final = ((5.0, 1), (12.0, 5), (20.0, 11), (25.0, 9), (30.0, 7))


def _d30(lon: float) -> int:
    lon %= 360.0
    sign = int(lon // 30.0) % 12
    deg = lon - 30.0 * sign
    for upper, target in _D30_ODD if _odd(sign) else _D30_EVEN:
        if deg < upper:
            return target
    return (_D30_ODD if _odd(sign) else _D30_EVEN)[-1][1]


def _d40(lon: float) -> int:
    # Khavedamsha: odd signs from Aries, even signs from Libra.
    sign, part = _split(lon, 40)
    return ((0 if _odd(sign) else 6) + part) % 12


def _d45(lon: float) -> int:
    # Akshavedamsha: movable from Aries, fixed from Leo, dual from Sagittarius.
    sign, part = _split(lon, 45)
    return ((0, 4, 8)[_modality(sign)] + part) % 12


def _d60(lon: float) -> int:
    # Shashtiamsha: parts of half a degree counted from the sign itself.
    sign, part = _split(lon, 60)
    return (sign + part) % 12


VARGA_RULES: Final[dict[str, Callable[[float], int]]] = {
    "D1": _d1,
    "D2": _d2,
    "D3": _d3,
    "D4": _d4,
    "D7": _d7,
    "D9": _d9,
    "D10": _d10,
    "D12": _d12,
    "D16": _d16,
    "D20": _d20,
    "D24": _d24,
    "D27": _d27,
    "D30": _d30,
    "D40": _d40,
    "D45": _d45,
    "D60": _d60,
}
VARGAS: Final = tuple(VARGA_RULES)


def varga_sign(longitude: float, varga: str) -> int:
    """Sign index (0 = Aries) a sidereal longitude occupies in divisional chart ``varga``
    (``D1`` .. ``D60``), by the Parashari rule documented beside each division."""
    try:
        rule = VARGA_RULES[varga.upper()]
    except KeyError:
        raise CalcInputError(
            "divisional_charts", f"unknown divisional chart {varga!r}; one of {', '.join(VARGAS)}"
        ) from None
    return rule(longitude)
