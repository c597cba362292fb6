"""Vedic (Jyotisha) astrology: sidereal charts and vargas, panchanga, Vimshottari dasha,
Sade Sati, Ashtakoota kundli matching with doshas, and rule-based remedies.

Each module states its conventions and sources; the defaults are the Lahiri ayanamsa,
whole-sign houses, the mean lunar node, a 365.25-day dasha year and the North Indian matching
school.
"""

from astro_calc.vedic.chart import (
    GrahaPosition,
    Lagna,
    SiderealChart,
    sidereal_chart,
    sidereal_chart_at,
)
from astro_calc.vedic.dasha import (
    CurrentDasha,
    DashaPeriod,
    VimshottariDasha,
    vimshottari_dasha,
    vimshottari_from_moon,
)
from astro_calc.vedic.matching import (
    KundliMatch,
    ManglikStatus,
    kundli_match,
    manglik_status,
    match_moons,
)
from astro_calc.vedic.panchanga import Panchanga, panchanga_at
from astro_calc.vedic.remedies import RemedyReport, remedies
from astro_calc.vedic.sade_sati import SadeSati, sade_sati
from astro_calc.vedic.subject import BirthMoment, BirthSubject, birth_moment
from astro_calc.vedic.varga import VARGAS, varga_sign

__all__ = [
    "VARGAS",
    "BirthMoment",
    "BirthSubject",
    "CurrentDasha",
    "DashaPeriod",
    "GrahaPosition",
    "KundliMatch",
    "Lagna",
    "ManglikStatus",
    "Panchanga",
    "RemedyReport",
    "SadeSati",
    "SiderealChart",
    "VimshottariDasha",
    "birth_moment",
    "kundli_match",
    "manglik_status",
    "match_moons",
    "panchanga_at",
    "remedies",
    "sade_sati",
    "sidereal_chart",
    "sidereal_chart_at",
    "varga_sign",
    "vimshottari_dasha",
    "vimshottari_from_moon",
]
