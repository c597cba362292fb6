"""Daily horoscopes written from the real sky of each UTC day, in English and Thai.

``daily_sky(date)`` computes the day's placements and exact events once; ``daily_horoscope(sign,
date, language)`` reads them through the sign's solar houses and ruler. Method and rating rules:
:mod:`astro_calc.horoscope.reading`; sky conventions: :mod:`astro_calc.horoscope.sky`.
"""

from astro_calc.horoscope.reading import (
    RULERS,
    SECTIONS,
    DailyHoroscope,
    HoroscopeSection,
    SkyFact,
    daily_horoscope,
    daily_horoscopes,
    solar_house,
)
from astro_calc.horoscope.sky import SIGNS, DailySky, PlanetPlacement, SkyEvent, daily_sky
from astro_calc.horoscope.texts import (
    GENERATOR_VERSION,
    LANGUAGES,
    localize_times,
    localized_content,
)

__all__ = [
    "GENERATOR_VERSION",
    "LANGUAGES",
    "RULERS",
    "SECTIONS",
    "SIGNS",
    "DailyHoroscope",
    "DailySky",
    "HoroscopeSection",
    "PlanetPlacement",
    "SkyEvent",
    "SkyFact",
    "daily_horoscope",
    "daily_horoscopes",
    "daily_sky",
    "localize_times",
    "localized_content",
    "solar_house",
]
