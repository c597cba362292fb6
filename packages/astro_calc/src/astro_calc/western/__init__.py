"""Western astrology: natal charts, synastry and composites, returns, progressions, transits.

Every function takes a :class:`BirthSubject` (local date and time, coordinates, and an offset,
an IANA zone, or neither) and returns a frozen msgspec struct whose ``meta`` echoes the resolved
UTC instant and offset. Conventions are in each module's docstring.
"""

from astro_calc.western.aspects import ALL_ASPECTS, ASPECTS, MAJOR_ASPECTS, Aspect
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    HOUSE_SYSTEM_CODES,
    PLANETS,
    NatalChart,
    chart_for_instant,
    natal_chart,
)
from astro_calc.western.progressions import (
    SecondaryProgressions,
    SolarArcDirections,
    secondary_progressions,
    solar_arc_directions,
)
from astro_calc.western.relationship import CompositeChart, Synastry, composite_chart, synastry
from astro_calc.western.returns import ReturnChart, lunar_return, solar_return
from astro_calc.western.subject import BirthSubject, SubjectTime
from astro_calc.western.transits import TransitEvent, TransitReport, transits

__all__ = [
    "ALL_ASPECTS",
    "ASPECTS",
    "DEFAULT_BODIES",
    "HOUSE_SYSTEM_CODES",
    "MAJOR_ASPECTS",
    "PLANETS",
    "Aspect",
    "BirthSubject",
    "CompositeChart",
    "NatalChart",
    "ReturnChart",
    "SecondaryProgressions",
    "SolarArcDirections",
    "SubjectTime",
    "Synastry",
    "TransitEvent",
    "TransitReport",
    "chart_for_instant",
    "composite_chart",
    "lunar_return",
    "natal_chart",
    "secondary_progressions",
    "solar_arc_directions",
    "solar_return",
    "synastry",
    "transits",
]
