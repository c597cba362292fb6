"""Traditional (Hellenistic, Persian and medieval) techniques: sect, the lots, whole-sign houses,
the full table of essential dignities with the almuten, profections, zodiacal releasing and
firdaria.

Each module's docstring names its sources (Valens, Paulus, Dorotheus, Ptolemy, Abu Ma'shar, each
as transmitted by a named modern translation) and its conventions; every convention that
authors disagree on is an option with a stated default.
"""

from astro_calc.western.traditional.chart import (
    LOT_FORMULAS,
    LOT_NAMES,
    Lot,
    NatalLots,
    TraditionalChart,
    TraditionalPlanet,
    WholeSignHouse,
    in_sect,
    lot_longitudes,
    lots_of,
    natal_dignities,
    natal_lots,
    sect_of,
    traditional_chart,
    whole_sign_house,
    whole_sign_houses,
)
from astro_calc.western.traditional.dignities import (
    Almuten,
    DignityRow,
    Triplicity,
    almuten,
    dignities_at,
    dignity_row,
    dignity_score_of,
    minor_dignities_at,
)
from astro_calc.western.traditional.timing import (
    Firdaria,
    FirdarPeriod,
    FirdarSubPeriod,
    ProfectionMonth,
    Profections,
    ReleasingPeriod,
    ZodiacalReleasing,
    firdaria,
    profections,
    zodiacal_releasing,
)

__all__ = [
    "LOT_FORMULAS",
    "LOT_NAMES",
    "Almuten",
    "DignityRow",
    "FirdarPeriod",
    "FirdarSubPeriod",
    "Firdaria",
    "Lot",
    "NatalLots",
    "ProfectionMonth",
    "Profections",
    "ReleasingPeriod",
    "TraditionalChart",
    "TraditionalPlanet",
    "Triplicity",
    "WholeSignHouse",
    "ZodiacalReleasing",
    "almuten",
    "dignities_at",
    "dignity_row",
    "dignity_score_of",
    "firdaria",
    "in_sect",
    "lot_longitudes",
    "lots_of",
    "minor_dignities_at",
    "natal_dignities",
    "natal_lots",
    "profections",
    "sect_of",
    "traditional_chart",
    "whole_sign_house",
    "whole_sign_houses",
    "zodiacal_releasing",
]
