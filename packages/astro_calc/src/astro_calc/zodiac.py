"""The twelve signs of the zodiac, in order from 0° of ecliptic longitude: the one list every
tradition, picture and route uses (tropical in Western charts, sidereal in Vedic ones: the
names and order are the same, the starting point differs)."""

from __future__ import annotations

from typing import Final

SIGNS: Final[tuple[str, ...]] = (
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
)
