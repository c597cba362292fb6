"""Numerology: Pythagorean and Chaldean name and date numbers, Thai name and phone readings.

``numerology_profile(name, birth_date, system=..., on_date=..., language=...)`` gives the core
numbers and personal cycles; ``thai_name_numerology`` and ``phone_numerology`` the Thai
เลขศาสตร์ readings. Reduction rule and letter conventions: :mod:`astro_calc.numerology.core`.
"""

from astro_calc.numerology._data import LANGUAGES
from astro_calc.numerology.core import MASTER_NUMBERS, SYSTEMS, reduce_number
from astro_calc.numerology.profile import (
    REDUCTION_RULE,
    NumerologyNumber,
    NumerologyProfile,
    life_path_number,
    numerology_profile,
    personal_cycle_numbers,
)
from astro_calc.numerology.thai import (
    ThaiCharacterValue,
    ThaiNumerology,
    phone_numerology,
    thai_name_numerology,
)

__all__ = [
    "LANGUAGES",
    "MASTER_NUMBERS",
    "REDUCTION_RULE",
    "SYSTEMS",
    "NumerologyNumber",
    "NumerologyProfile",
    "ThaiCharacterValue",
    "ThaiNumerology",
    "life_path_number",
    "numerology_profile",
    "personal_cycle_numbers",
    "phone_numerology",
    "reduce_number",
    "thai_name_numerology",
]
