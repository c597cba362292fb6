"""Kundli matching: Ashtakoota (36 points), Nadi and Bhakoot doshas, Manglik dosha, verdict.

Every koota is read from the two natal Moons (sidereal sign, nakshatra, pada, longitude). The
tables and their sources:

* **Varna** (max 1), by Moon sign: watery signs Brahmin, fiery Kshatriya, earthy Vaishya, airy
  Shudra (the common North Indian assignment, e.g. Muhurta Chintamani as taught in B.V. Raman,
  *Muhurtha*). 1 point when the boy's varna is the same as or higher than the girl's.
* **Vashya** (max 2): Aries, Taurus, second half of Sagittarius, first half of Capricorn
  chatushpada (quadruped); Gemini, Virgo, Libra, Aquarius, first half of Sagittarius manava
  (human); Cancer, Pisces, second half of Capricorn jalachara (water); Leo vanachara (wild);
  Scorpio keeta (insect). The half is decided by the Moon's degree in the sign (< 15 first
  half). Points from the saravali.de table indexed [girl][boy] (as also used by PyJHora).
* **Tara** (max 3): count the nakshatras from the girl's to the boy's and from the boy's to the
  girl's (inclusive); a count whose remainder by 9 is 3 (vipat), 5 (pratyari) or 7 (vadha)
  is inauspicious; each favourable direction gives 1.5 points.
* **Yoni** (max 4): each nakshatra's animal (Ashwini horse, Bharani elephant, ...) and the
  symmetric 14 x 14 yoni table of the North Indian tradition (4 same animal, 0 sworn enemies:
  horse-buffalo, elephant-lion, sheep-monkey, serpent-mongoose, dog-deer, cat-rat, cow-tiger).
* **Graha maitri** (max 5), from the natural friendship of the Moon-sign lords (BPHS ch. 3):
  same lord or mutual friends 5, friend and neutral 4, both neutral 3, friend and enemy 1,
  neutral and enemy 0.5, mutual enemies 0.
* **Gana** (max 6): deva, manushya, rakshasa by nakshatra; points [girl][boy]:
  deva/deva 6, deva girl/manushya boy 6, manushya girl/deva boy 5, manushya/manushya 6,
  rakshasa girl/deva boy 1, rakshasa/rakshasa 6, any other rakshasa pairing 0 (saravali.de).
* **Bhakoot** (max 7): the signs counted from each other; 2/12, 5/9 and 6/8 relations score 0,
  all others 7.
* **Nadi** (max 8): adi, madhya, antya by nakshatra in the zig-zag order (Ashwini adi,
  Bharani madhya, Krittika antya, Rohini antya, Mrigashira madhya, Ardra adi, ...); same nadi 0,
  different 8.

Doshas and their cancellations (commonly cited exceptions, reported separately; the raw score
is never changed):

* Nadi dosha (nadi score 0) is cancelled when the Moons share a sign but not a nakshatra, share
  a nakshatra but not a sign, or share a nakshatra but not a pada.
* Bhakoot dosha (bhakoot score 0) is cancelled when both Moon signs have the same lord or the
  lords are mutual natural friends.
* Manglik (Kuja) dosha: Mars in the 1st, 4th, 7th, 8th or 12th whole-sign house from the lagna
  or from the Moon (``school="north"``); the ``south`` school adds the 2nd house. Cancelled for
  a chart when Mars is in its own sign or exaltation (Aries, Scorpio, Capricorn); when Mars
  shares its sign with Jupiter or the Moon; or by the house-sign exceptions 2nd house in Gemini
  or Virgo, 4th in Aries or Scorpio, 7th in Cancer or Capricorn, 8th in Sagittarius or Pisces,
  12th in Taurus or Libra (counted from the lagna). Between two charts, Manglik in both cancels
  each other.
* ``school="south"`` also reports Rajju dosha (both nakshatras in the same rajju: foot, waist,
  navel, neck, head) and Vedha dosha (the classical 13 vedha pairs plus the Mrigashira-Chitra-
  Dhanishta triple).

Verdict bands (the thresholds printed by the common North Indian matching software and
almanacs): total < 18 ``not_recommended``, 18-24 ``average``, 25-32 ``good``, 33-36
``excellent``. ``recommended`` additionally requires no uncancelled Nadi or Bhakoot dosha and no
one-sided uncancelled Manglik dosha.

Checked against PyJHora's published 108 x 108 nakshatra-pada table (all 11,664 pairs) in
``test_vedic_matching.py``; every disagreement is explained there by a stated convention.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.vedic.subject import BirthSubject, birth_moment
from astro_calc.vedic.zodiac import (
    NAKSHATRA_SPAN_DEG,
    NAKSHATRAS,
    PADA_SPAN_DEG,
    SIGN_LORDS,
    SIGNS,
    Graha,
    natural_relation,
)

School = Literal["north", "south"]
SCHOOLS: Final = ("north", "south")

KOOTA_MAX: Final[dict[str, float]] = {
    "varna": 1.0,
    "vashya": 2.0,
    "tara": 3.0,
    "yoni": 4.0,
    "graha_maitri": 5.0,
    "gana": 6.0,
    "bhakoot": 7.0,
    "nadi": 8.0,
}
MAX_SCORE: Final = 36.0

VARNAS: Final = ("brahmin", "kshatriya", "vaishya", "shudra")
#: Varna by sign element (sign index % 4: fire, earth, air, water).
VARNA_BY_ELEMENT: Final = (1, 2, 3, 0)

VASHYAS: Final = ("chatushpada", "manava", "jalachara", "vanachara", "keeta")
#: Vashya by sign for the signs that are not split (Sagittarius, Capricorn are split by half).
_VASHYA_BY_SIGN: Final = (0, 0, 1, 2, 3, 1, 1, 4, -1, -1, 1, 2)
#: Vashya points [girl class][boy class] (saravali.de).
VASHYA_POINTS: Final = (
    (2.0, 0.5, 1.0, 0.0, 2.0),
    (0.5, 2.0, 0.0, 0.0, 0.0),
    (1.0, 0.0, 2.0, 2.0, 2.0),
    (0.0, 0.0, 2.0, 2.0, 0.0),
    (1.0, 0.0, 1.0, 0.0, 2.0),
)

YONIS: Final = (
    "horse",
    "elephant",
    "sheep",
    "serpent",
    "dog",
    "cat",
    "rat",
    "cow",
    "buffalo",
    "tiger",
    "deer",
    "monkey",
    "mongoose",
    "lion",
)
#: Yoni of each nakshatra, Ashwini..Revati.
YONI_OF_NAKSHATRA: Final = (
    0, 1, 2, 3, 3, 4, 5, 2, 5, 6, 6, 7, 8, 9, 8, 9, 10, 10, 4, 11, 12, 11, 13, 0, 13, 7, 1,
)  # fmt: skip
#: Yoni points (symmetric), order of :data:`YONIS`.
YONI_POINTS: Final = (
    (4, 2, 2, 3, 2, 2, 2, 1, 0, 1, 1, 3, 2, 1),
    (2, 4, 3, 3, 2, 2, 2, 2, 3, 1, 2, 3, 2, 0),
    (2, 3, 4, 2, 1, 2, 1, 3, 3, 1, 2, 0, 3, 1),
    (3, 3, 2, 4, 2, 1, 1, 1, 1, 2, 2, 2, 0, 2),
    (2, 2, 1, 2, 4, 2, 1, 2, 2, 1, 0, 2, 1, 1),
    (2, 2, 2, 1, 2, 4, 0, 2, 2, 1, 3, 3, 2, 1),
    (2, 2, 1, 1, 1, 0, 4, 2, 2, 2, 2, 2, 1, 2),
    (1, 2, 3, 1, 2, 2, 2, 4, 3, 0, 3, 2, 2, 1),
    (0, 3, 3, 1, 2, 2, 2, 3, 4, 1, 2, 2, 2, 1),
    (1, 1, 1, 2, 1, 1, 2, 0, 1, 4, 1, 1, 2, 1),
    (1, 2, 2, 2, 0, 3, 2, 3, 2, 1, 4, 2, 2, 1),
    (3, 3, 0, 2, 2, 3, 2, 2, 2, 1, 2, 4, 3, 2),
    (2, 2, 3, 0, 1, 2, 1, 2, 2, 2, 2, 3, 4, 2),
    (1, 0, 1, 2, 1, 1, 2, 1, 1, 1, 1, 2, 2, 4),
)

GANAS: Final = ("deva", "manushya", "rakshasa")
GANA_OF_NAKSHATRA: Final = (
    0, 1, 2, 1, 0, 1, 0, 0, 2, 2, 1, 1, 0, 2, 0, 2, 0, 2, 2, 1, 1, 0, 2, 2, 1, 1, 0,
)  # fmt: skip
#: Gana points [girl gana][boy gana] (saravali.de).
GANA_POINTS: Final = ((6, 6, 0), (5, 6, 0), (1, 0, 6))

NADIS: Final = ("adi", "madhya", "antya")
_NADI_ZIGZAG: Final = (0, 1, 2, 2, 1, 0)

#: Bhakoot: counts (from girl's sign to boy's, inclusive) that score 0.
_BHAKOOT_BAD_COUNTS: Final = frozenset({2, 12, 5, 9, 6, 8})

#: Rajju of each nakshatra: 0 foot (pada), 1 waist (kati), 2 navel (nabhi), 3 neck (kantha),
#: 4 head (shiro); the stars run foot-waist-navel-neck-head-neck-navel-waist-foot.
RAJJUS: Final = ("foot", "waist", "navel", "neck", "head")
_RAJJU_CYCLE: Final = (0, 1, 2, 3, 4, 3, 2, 1, 0)
#: Vedha pairs (0-based nakshatras), classical list.
VEDHA_PAIRS: Final = frozenset(
    frozenset(p)
    for p in (
        (0, 17), (1, 16), (2, 15), (3, 14), (5, 21), (6, 20), (7, 19), (8, 18),
        (9, 26), (10, 25), (11, 24), (12, 23), (4, 13), (13, 22), (4, 22),
    )
)  # fmt: skip

MANGLIK_HOUSES: Final[dict[str, frozenset[int]]] = {
    "north": frozenset({1, 4, 7, 8, 12}),
    "south": frozenset({1, 2, 4, 7, 8, 12}),
}
#: Manglik house-sign exceptions (house from lagna -> sign indices that cancel).
_MANGLIK_HOUSE_SIGN_EXCEPTIONS: Final[dict[int, frozenset[int]]] = {
    2: frozenset({2, 5}),
    4: frozenset({0, 7}),
    7: frozenset({3, 9}),
    8: frozenset({8, 11}),
    12: frozenset({1, 6}),
}
#: Verdict bands: (lowest total, band).
VERDICT_BANDS: Final = ((33.0, "excellent"), (25.0, "good"), (18.0, "average"))
MIN_RECOMMENDED_SCORE: Final = 18.0


class MoonPlacement(msgspec.Struct, frozen=True):
    moon_sign: str
    moon_sign_number: int
    nakshatra: int
    nakshatra_name: str
    pada: int
    moon_longitude_deg: float


class Koota(msgspec.Struct, frozen=True):
    name: str
    score: float
    max: float
    boy: str
    girl: str


class Dosha(msgspec.Struct, frozen=True):
    name: str  # nadi, bhakoot, manglik, rajju, vedha
    person: str  # "both", "boy" or "girl"
    present: bool
    cancelled: bool


class Cancellation(msgspec.Struct, frozen=True):
    dosha: str
    person: str
    rule: str


class Verdict(msgspec.Struct, frozen=True):
    band: str
    recommended: bool
    reasons: tuple[str, ...]


class KundliMatch(msgspec.Struct, frozen=True):
    school: str
    total: float
    max: float
    kootas: tuple[Koota, ...]
    boy: MoonPlacement
    girl: MoonPlacement
    doshas: tuple[Dosha, ...]
    cancellations: tuple[Cancellation, ...]
    verdict: Verdict


class ManglikStatus(msgspec.Struct, frozen=True):
    present: bool
    cancelled: bool
    houses_from_lagna: int
    houses_from_moon: int
    cancellations: tuple[str, ...]


# --- attributes of one Moon ------------------------------------------------------------------


class _Moon:
    __slots__ = ("deg_in_sign", "lon", "nak", "pada", "sign")

    def __init__(self, lon: float) -> None:
        lon %= 360.0
        self.lon = lon
        self.sign = int(lon // 30.0) % 12
        self.deg_in_sign = lon - 30.0 * self.sign
        self.nak = int(lon // NAKSHATRA_SPAN_DEG) % 27
        self.pada = int(lon // PADA_SPAN_DEG) % 4 + 1


def vashya_class(longitude_deg: float) -> int:
    """Vashya class index (see :data:`VASHYAS`) of a sidereal Moon longitude."""
    lon = longitude_deg % 360.0
    sign = int(lon // 30.0) % 12
    first_half = lon - 30.0 * sign < 15.0
    if sign == 8:
        return 1 if first_half else 0
    if sign == 9:
        return 0 if first_half else 2
    return _VASHYA_BY_SIGN[sign]


def nadi_of(nakshatra0: int) -> int:
    return _NADI_ZIGZAG[nakshatra0 % 6]


def rajju_of(nakshatra0: int) -> int:
    return _RAJJU_CYCLE[nakshatra0 % 9]


def maitri_points(lord_a: Graha, lord_b: Graha) -> float:
    """Graha maitri points of two sign lords (symmetric, module docstring)."""
    if lord_a == lord_b:
        return 5.0
    a, b = natural_relation(lord_a, lord_b), natural_relation(lord_b, lord_a)
    rel = {a, b}
    if a == b == "friend":
        return 5.0
    if rel == {"friend", "neutral"}:
        return 4.0
    if a == b == "neutral":
        return 3.0
    if rel == {"friend", "enemy"}:
        return 1.0
    if rel == {"neutral", "enemy"}:
        return 0.5
    return 0.0


_MAITRI: Final[dict[tuple[Graha, Graha], float]] = {
    (a, b): maitri_points(a, b) for a in set(SIGN_LORDS) for b in set(SIGN_LORDS)
}


def _placement(m: _Moon) -> MoonPlacement:
    return MoonPlacement(SIGNS[m.sign], m.sign + 1, m.nak + 1, NAKSHATRAS[m.nak], m.pada, m.lon)


def _tara_good(count: int) -> bool:
    return count % 9 not in (3, 5, 7)


def koota_scores(boy_moon_deg: float, girl_moon_deg: float) -> tuple[float, ...]:
    """The eight raw koota scores, in the order of :data:`KOOTA_MAX`."""
    return tuple(k.score for k in _kootas(_Moon(boy_moon_deg), _Moon(girl_moon_deg)))


def _kootas(b: _Moon, g: _Moon) -> tuple[Koota, ...]:
    bv, gv = VARNA_BY_ELEMENT[b.sign % 4], VARNA_BY_ELEMENT[g.sign % 4]
    bva, gva = vashya_class(b.lon), vashya_class(g.lon)
    to_boy = (b.nak - g.nak) % 27 + 1
    to_girl = (g.nak - b.nak) % 27 + 1
    tara = 1.5 * _tara_good(to_boy) + 1.5 * _tara_good(to_girl)
    by, gy = YONI_OF_NAKSHATRA[b.nak], YONI_OF_NAKSHATRA[g.nak]
    bl, gl = SIGN_LORDS[b.sign], SIGN_LORDS[g.sign]
    bg, gg = GANA_OF_NAKSHATRA[b.nak], GANA_OF_NAKSHATRA[g.nak]
    count = (b.sign - g.sign) % 12 + 1
    bn, gn = nadi_of(b.nak), nadi_of(g.nak)
    return (
        Koota("varna", 1.0 if bv <= gv else 0.0, 1.0, VARNAS[bv], VARNAS[gv]),
        Koota("vashya", VASHYA_POINTS[gva][bva], 2.0, VASHYAS[bva], VASHYAS[gva]),
        Koota("tara", tara, 3.0, str(to_boy), str(to_girl)),
        Koota("yoni", float(YONI_POINTS[gy][by]), 4.0, YONIS[by], YONIS[gy]),
        Koota("graha_maitri", _MAITRI[(bl, gl)], 5.0, bl, gl),
        Koota("gana", float(GANA_POINTS[gg][bg]), 6.0, GANAS[bg], GANAS[gg]),
        Koota(
            "bhakoot",
            0.0 if count in _BHAKOOT_BAD_COUNTS else 7.0,
            7.0,
            SIGNS[b.sign],
            SIGNS[g.sign],
        ),
        Koota("nadi", 0.0 if bn == gn else 8.0, 8.0, NADIS[bn], NADIS[gn]),
    )


def _moon_doshas(
    b: _Moon, g: _Moon, kootas: tuple[Koota, ...], school: str
) -> tuple[list[Dosha], list[Cancellation]]:
    doshas: list[Dosha] = []
    cancels: list[Cancellation] = []
    nadi_present = kootas[7].score == 0.0
    rules: list[str] = []
    if nadi_present:
        if b.sign == g.sign and b.nak != g.nak:
            rules.append("same_sign_different_nakshatra")
        if b.nak == g.nak and b.sign != g.sign:
            rules.append("same_nakshatra_different_sign")
        if b.nak == g.nak and b.pada != g.pada:
            rules.append("same_nakshatra_different_pada")
    doshas.append(Dosha("nadi", "both", nadi_present, bool(rules)))
    cancels.extend(Cancellation("nadi", "both", r) for r in rules)

    bhakoot_present = kootas[6].score == 0.0
    rules = []
    if bhakoot_present:
        bl, gl = SIGN_LORDS[b.sign], SIGN_LORDS[g.sign]
        if bl == gl:
            rules.append("same_sign_lord")
        elif natural_relation(bl, gl) == "friend" and natural_relation(gl, bl) == "friend":
            rules.append("sign_lords_mutual_friends")
    doshas.append(Dosha("bhakoot", "both", bhakoot_present, bool(rules)))
    cancels.extend(Cancellation("bhakoot", "both", r) for r in rules)

    if school == "south":
        doshas.append(Dosha("rajju", "both", rajju_of(b.nak) == rajju_of(g.nak), False))
        doshas.append(Dosha("vedha", "both", frozenset((b.nak, g.nak)) in VEDHA_PAIRS, False))
    return doshas, cancels


def _verdict(total: float, doshas: list[Dosha]) -> Verdict:
    band = "not_recommended"
    for lowest, name in VERDICT_BANDS:
        if total >= lowest:
            band = name
            break
    reasons: list[str] = []
    if total < MIN_RECOMMENDED_SCORE:
        reasons.append("score_below_18")
    for d in doshas:
        if d.present and not d.cancelled and d.name in ("nadi", "bhakoot", "manglik"):
            reasons.append(
                f"{d.name}_dosha" if d.person == "both" else f"{d.name}_dosha_{d.person}"
            )
    return Verdict(band, not reasons, tuple(reasons))


def _check_school(school: str) -> None:
    if school not in SCHOOLS:
        raise CalcInputError("school", "must be 'north' or 'south'")


def match_moons(boy_moon_deg: float, girl_moon_deg: float, *, school: str = "north") -> KundliMatch:
    """Ashtakoota match from the two sidereal Moon longitudes alone (the fast path): kootas,
    Nadi and Bhakoot doshas with cancellations, verdict. Manglik needs whole charts: see
    :func:`kundli_match`. Conventions and sources in the module docstring; checked against
    PyJHora's 108 x 108 pada table."""
    _check_school(school)
    b, g = _Moon(boy_moon_deg), _Moon(girl_moon_deg)
    kootas = _kootas(b, g)
    total = sum(k.score for k in kootas)
    doshas, cancels = _moon_doshas(b, g, kootas, school)
    return KundliMatch(
        school,
        total,
        MAX_SCORE,
        kootas,
        _placement(b),
        _placement(g),
        tuple(doshas),
        tuple(cancels),
        _verdict(total, doshas),
    )


def manglik_status(
    mars_deg: float,
    moon_deg: float,
    lagna_deg: float,
    jupiter_deg: float,
    *,
    school: str = "north",
) -> ManglikStatus:
    """Manglik (Kuja) dosha of one chart from sidereal longitudes (whole-sign houses; rules and
    cancellations in the module docstring)."""
    _check_school(school)
    mars_sign = int(mars_deg % 360.0 // 30.0)
    moon_sign = int(moon_deg % 360.0 // 30.0)
    lagna_sign = int(lagna_deg % 360.0 // 30.0)
    jup_sign = int(jupiter_deg % 360.0 // 30.0)
    from_lagna = (mars_sign - lagna_sign) % 12 + 1
    from_moon = (mars_sign - moon_sign) % 12 + 1
    houses = MANGLIK_HOUSES[school]
    present = from_lagna in houses or from_moon in houses
    rules: list[str] = []
    if present:
        if mars_sign in (0, 7, 9):
            rules.append("mars_own_or_exalted_sign")
        if mars_sign in (jup_sign, moon_sign):
            rules.append("mars_with_jupiter_or_moon")
        if mars_sign in _MANGLIK_HOUSE_SIGN_EXCEPTIONS.get(from_lagna, frozenset()):
            rules.append("house_sign_exception")
    return ManglikStatus(present, bool(rules), from_lagna, from_moon, tuple(rules))


class _ChartPoints(msgspec.Struct, frozen=True):
    moon: float
    mars: float
    jupiter: float
    lagna: float


def _chart_points(subject: BirthSubject) -> _ChartPoints:
    moment = birth_moment(subject)
    pos, _used, _w = ephemeris.body_positions(
        moment.jd_ut, ("moon", "mars", "jupiter"), ayanamsa=subject.ayanamsa
    )
    houses = ephemeris.houses(
        moment.jd_ut, subject.latitude, subject.longitude, "W", ayanamsa=subject.ayanamsa
    )
    return _ChartPoints(
        pos["moon"].longitude, pos["mars"].longitude, pos["jupiter"].longitude, houses.ascendant
    )


def _prefixed(exc: CalcInputError, prefix: str) -> CalcInputError:
    return CalcInputError(f"{prefix}.{exc.field}", exc.message)


def kundli_match(boy: BirthSubject, girl: BirthSubject, *, school: str = "north") -> KundliMatch:
    """Full kundli match of two birth subjects: Ashtakoota on their sidereal Moons plus
    Manglik dosha for both with cancellations (module docstring). Input errors name the field
    as ``boy.<field>`` or ``girl.<field>``."""
    _check_school(school)
    try:
        bp = _chart_points(boy)
    except CalcInputError as exc:
        raise _prefixed(exc, "boy") from None
    try:
        gp = _chart_points(girl)
    except CalcInputError as exc:
        raise _prefixed(exc, "girl") from None
    base = match_moons(bp.moon, gp.moon, school=school)
    bm = manglik_status(bp.mars, bp.moon, bp.lagna, bp.jupiter, school=school)
    gm = manglik_status(gp.mars, gp.moon, gp.lagna, gp.jupiter, school=school)
    doshas = list(base.doshas)
    cancels = list(base.cancellations)
    both = bm.present and not bm.cancelled and gm.present and not gm.cancelled
    for person, st in (("boy", bm), ("girl", gm)):
        rules = list(st.cancellations)
        if both:
            rules.append("both_manglik")
        doshas.append(Dosha("manglik", person, st.present, st.present and bool(rules)))
        cancels.extend(Cancellation("manglik", person, r) for r in rules)
    return KundliMatch(
        school,
        base.total,
        MAX_SCORE,
        base.kootas,
        base.boy,
        base.girl,
        tuple(doshas),
        tuple(cancels),
        _verdict(base.total, doshas),
    )
