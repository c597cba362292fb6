"""Errors raised by astro_calc.

CalcInputError              an input is outside what a technique accepts; ``field`` names it
├── NonexistentLocalTimeError   a local time skipped by a daylight-saving change
EphemerisUnavailableError   a body needs Swiss Ephemeris files that are not installed
"""

from __future__ import annotations


class CalcInputError(ValueError):
    """Bad input to a calculation. ``field`` names the input so a server can answer 400."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NonexistentLocalTimeError(CalcInputError):
    """The local time falls in a daylight-saving gap of its zone."""


class EphemerisUnavailableError(RuntimeError):
    """The body asked for needs ephemeris files (e.g. seas_18.se1 for Chiron) that are absent."""
