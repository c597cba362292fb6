"""Astrology calculations over the Swiss Ephemeris: pure functions, plain inputs, msgspec results.

``ephemeris`` is the only module that touches pyswisseph; ``time`` turns local civil time into UT;
``search`` finds the instants at which the sky reaches a given configuration. Traditions live in
``western``, ``uranian``, ``vedic``, ``chinese``, ``thai``, ``tarot``, ``numerology`` and
``horoscope``.
"""

from astro_calc.errors import CalcInputError, EphemerisUnavailableError

__version__ = "0.1.0"
__all__ = ["CalcInputError", "EphemerisUnavailableError", "__version__"]
