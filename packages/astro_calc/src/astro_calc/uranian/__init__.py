"""Uranian astrology (Hamburg school): dial positions, midpoints and planetary pictures."""

from astro_calc.uranian.chart import (
    DIALS,
    FACTORS,
    HAMBURG,
    Midpoint,
    PlanetaryPicture,
    UranianChart,
    UranianMidpoints,
    UranianPictures,
    UranianPosition,
    uranian_chart,
    uranian_midpoints,
    uranian_planetary_pictures,
)

__all__ = [
    "DIALS",
    "FACTORS",
    "HAMBURG",
    "Midpoint",
    "PlanetaryPicture",
    "UranianChart",
    "UranianMidpoints",
    "UranianPictures",
    "UranianPosition",
    "uranian_chart",
    "uranian_midpoints",
    "uranian_planetary_pictures",
]
