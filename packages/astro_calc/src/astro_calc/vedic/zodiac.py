"""Sidereal zodiac tables shared by the Vedic techniques: signs, nakshatras, lords, dignities.

Conventions and sources
-----------------------
* Signs (rashi) are 30-degree sidereal divisions counted from 0 degrees Aries of the chosen
  ayanamsa; nakshatras are 27 equal divisions of 13 deg 20 min from the same origin, each of four
  padas of 3 deg 20 min (Brihat Parashara Hora Shastra (BPHS) ch. 3; the usual modern convention,
  Abhijit excluded).
* Sign lordship, exaltation and debilitation signs, moolatrikona ranges and the natural
  (naisargika) friendships follow BPHS ch. 3 as tabulated in B.V. Raman, *Hindu Predictive
  Astrology*. Exact exaltation degrees: Sun 10 Aries, Moon 3 Taurus, Mars 28 Capricorn,
  Mercury 15 Virgo, Jupiter 5 Cancer, Venus 27 Pisces, Saturn 20 Libra.
* Rahu and Ketu have no sign lordship in BPHS; we use the widely used convention that Rahu is
  exalted in Taurus and Ketu in Scorpio (debilitated in the opposite signs) and give them no
  own sign or moolatrikona.
"""

from __future__ import annotations

import math
from typing import Final, Literal

from astro_calc.zodiac import SIGNS as SIGNS

#: Sanskrit names of the signs, same order as :data:`SIGNS`.
RASHI_NAMES: Final = (
    "Mesha",
    "Vrishabha",
    "Mithuna",
    "Karka",
    "Simha",
    "Kanya",
    "Tula",
    "Vrishchika",
    "Dhanu",
    "Makara",
    "Kumbha",
    "Meena",
)

NAKSHATRAS: Final = (
    "Ashwini",
    "Bharani",
    "Krittika",
    "Rohini",
    "Mrigashira",
    "Ardra",
    "Punarvasu",
    "Pushya",
    "Ashlesha",
    "Magha",
    "Purva Phalguni",
    "Uttara Phalguni",
    "Hasta",
    "Chitra",
    "Swati",
    "Vishakha",
    "Anuradha",
    "Jyeshtha",
    "Mula",
    "Purva Ashadha",
    "Uttara Ashadha",
    "Shravana",
    "Dhanishta",
    "Shatabhisha",
    "Purva Bhadrapada",
    "Uttara Bhadrapada",
    "Revati",
)

NAKSHATRA_SPAN_DEG: Final = 360.0 / 27.0
PADA_SPAN_DEG: Final = 360.0 / 108.0

Graha = Literal["sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu"]
GRAHAS: Final[tuple[Graha, ...]] = (
    "sun",
    "moon",
    "mars",
    "mercury",
    "jupiter",
    "venus",
    "saturn",
    "rahu",
    "ketu",
)
#: The seven visible planets (sign lords).
SAPTA_GRAHAS: Final[tuple[Graha, ...]] = GRAHAS[:7]

#: Lord of each sign, Aries..Pisces (BPHS ch. 3).
SIGN_LORDS: Final[tuple[Graha, ...]] = (
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "saturn",
    "jupiter",
)

#: Vimshottari lords in order from Ashwini (repeating every nine nakshatras) and their years.
VIMSHOTTARI_ORDER: Final[tuple[Graha, ...]] = (
    "ketu",
    "venus",
    "sun",
    "moon",
    "mars",
    "rahu",
    "jupiter",
    "saturn",
    "mercury",
)
VIMSHOTTARI_YEARS: Final[dict[Graha, int]] = {
    "ketu": 7,
    "venus": 20,
    "sun": 6,
    "moon": 10,
    "mars": 7,
    "rahu": 18,
    "jupiter": 16,
    "saturn": 19,
    "mercury": 17,
}

#: Exaltation sign index (0 = Aries) of each graha; debilitation is the opposite sign.
EXALTATION_SIGN: Final[dict[Graha, int]] = {
    "sun": 0,
    "moon": 1,
    "mars": 9,
    "mercury": 5,
    "jupiter": 3,
    "venus": 11,
    "saturn": 6,
    "rahu": 1,
    "ketu": 7,
}

#: Moolatrikona: (sign index, from degree, to degree) within the sign (BPHS ch. 3 v. 10-13).
#: Where a moolatrikona range shares its sign with exaltation (Moon in Taurus, Mercury in
#: Virgo) the exaltation part comes first, as BPHS divides the sign.
MOOLATRIKONA: Final[dict[Graha, tuple[int, float, float]]] = {
    "sun": (4, 0.0, 20.0),
    "moon": (1, 3.0, 30.0),
    "mars": (0, 0.0, 12.0),
    "mercury": (5, 15.0, 20.0),
    "jupiter": (8, 0.0, 10.0),
    "venus": (6, 0.0, 15.0),
    "saturn": (10, 0.0, 20.0),
}

#: Exaltation range inside the exaltation sign for the two grahas whose moolatrikona shares it.
_EXALTATION_RANGE: Final[dict[Graha, tuple[float, float]]] = {
    "moon": (0.0, 3.0),
    "mercury": (0.0, 15.0),
}

#: Natural friendships (BPHS ch. 3 v. 55): friends and enemies; the rest are neutral.
NATURAL_FRIENDS: Final[dict[Graha, frozenset[Graha]]] = {
    "sun": frozenset({"moon", "mars", "jupiter"}),
    "moon": frozenset({"sun", "mercury"}),
    "mars": frozenset({"sun", "moon", "jupiter"}),
    "mercury": frozenset({"sun", "venus"}),
    "jupiter": frozenset({"sun", "moon", "mars"}),
    "venus": frozenset({"mercury", "saturn"}),
    "saturn": frozenset({"mercury", "venus"}),
}
NATURAL_ENEMIES: Final[dict[Graha, frozenset[Graha]]] = {
    "sun": frozenset({"venus", "saturn"}),
    "moon": frozenset(),
    "mars": frozenset({"mercury"}),
    "mercury": frozenset({"moon"}),
    "jupiter": frozenset({"mercury", "venus"}),
    "venus": frozenset({"sun", "moon"}),
    "saturn": frozenset({"sun", "moon", "mars"}),
}

Relation = Literal["friend", "neutral", "enemy"]
Dignity = Literal["exalted", "moolatrikona", "own", "debilitated", "none"]


def natural_relation(of: Graha, towards: Graha) -> Relation:
    """How ``of`` regards ``towards`` by natural friendship (BPHS ch. 3)."""
    if towards in NATURAL_FRIENDS[of]:
        return "friend"
    if towards in NATURAL_ENEMIES[of]:
        return "enemy"
    return "neutral"


def sign_index(longitude: float) -> int:
    """Sign 0..11 (0 = Aries) of a sidereal longitude."""
    return math.floor((longitude % 360.0) / 30.0) % 12


def nakshatra_index(longitude: float) -> int:
    """Nakshatra 0..26 (0 = Ashwini) of a sidereal longitude."""
    return math.floor((longitude % 360.0) / NAKSHATRA_SPAN_DEG) % 27


def pada_of(longitude: float) -> int:
    """Pada 1..4 of a sidereal longitude within its nakshatra."""
    return math.floor((longitude % 360.0) / PADA_SPAN_DEG) % 4 + 1


def dignity(graha: Graha, longitude: float) -> Dignity:
    """Dignity of a graha at a sidereal longitude, strongest first: exalted (anywhere in the
    exaltation sign, except the moolatrikona part for Moon and Mercury), moolatrikona, own sign,
    debilitated (anywhere in the sign opposite exaltation), else ``none``."""
    sign = sign_index(longitude)
    deg = (longitude % 360.0) - 30.0 * sign
    if sign == EXALTATION_SIGN[graha]:
        rng = _EXALTATION_RANGE.get(graha)
        if rng is None or rng[0] <= deg < rng[1]:
            return "exalted"
    mt = MOOLATRIKONA.get(graha)
    if mt is not None and sign == mt[0] and mt[1] <= deg < mt[2]:
        return "moolatrikona"
    if graha not in ("rahu", "ketu") and SIGN_LORDS[sign] == graha:
        return "own"
    if sign == (EXALTATION_SIGN[graha] + 6) % 12:
        return "debilitated"
    return "none"
