"""Request bodies of the Hellenistic timing routes (profections, zodiacal releasing, firdaria and
the releasing timeline picture): what :mod:`astro_server.features.western.traditional_routes`
validates before anything is charged.

Limits, each a 400 naming the field: ``on_date``, ``start`` and ``end`` in the ephemeris span and
within 150 years of the birth (astro_calc checks the birth side); ``levels`` 1 to 4; at level 4
the releasing window is at most :data:`MAX_LEVEL4_WINDOW_DAYS` days (``end``), which keeps an
answer to about 1,200 periods, some 250 kB (a level-4 period lasts 40 to 150 hours).
"""

from __future__ import annotations

import datetime as dt
from typing import Final, Literal

from pydantic import BaseModel, Field, field_validator

from astro_server.features.common.interpretations import InterpretationOptions
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import SPAN_TEXT, in_ephemeris_span
from astro_server.features.common.sensitivity import SensitivityOptions
from astro_server.features.western.requests import WesternSubject

#: The longest releasing window at level 4, in days (ten years and a few days): about 1,200
#: periods of all levels. Levels 1-3 take any window within 150 years of the birth.
MAX_LEVEL4_WINDOW_DAYS: Final = 3660


class ProfectionsRequest(InterpretationOptions, SensitivityOptions):
    """Annual and monthly profections of a birth on a date."""

    subject: WesternSubject
    on_date: dt.date = Field(
        description=(
            "Local date (YYYY-MM-DD) whose profection year is answered: not before the birth "
            f"date, within 150 years of it ({SPAN_TEXT})"
        )
    )

    _in_span = field_validator("on_date")(in_ephemeris_span)


class ReleasingFields(BaseModel):
    """Zodiacal releasing's fields, shared by the calculation and its timeline picture."""

    subject: WesternSubject
    lot: Literal["spirit", "fortune"] = Field(
        default="spirit",
        description="Release from the Lot of Spirit (career, action; default) or of Fortune "
        "(body, circumstances)",
    )
    levels: int = Field(
        default=2,
        ge=1,
        le=4,
        description=(
            "Depth 1 to 4 (default 2): major periods, then sub-periods of 1/12, 1/144 and "
            f"1/1728 of a year; at level 4 the window is at most {MAX_LEVEL4_WINDOW_DAYS} days"
        ),
    )
    start: dt.date | None = Field(
        default=None,
        description="First day of the window (00:00 UTC; default and earliest: the birth)",
    )
    end: dt.date | None = Field(
        default=None,
        description=(
            "Last day of the window, inclusive (to 24:00 UTC), within 150 years of the birth; "
            "default: 90 years from the start, or the longest window "
            f"({MAX_LEVEL4_WINDOW_DAYS} days) at level 4"
        ),
    )
    year_length_days: Literal[360, 365.25] = Field(  # type: ignore[valid-type]
        default=360,
        description="Days of a releasing year: 360 (Valens, default) or 365.25 (calendar years)",
    )

    _in_span = field_validator("start", "end")(in_ephemeris_span)


class ZodiacalReleasingRequest(ReleasingFields, InterpretationOptions, SensitivityOptions):
    """Zodiacal releasing plus the interpretation (the periods running at the window's start)
    and birth-time sensitivity options."""


class ZodiacalReleasingChartRequest(ReleasingFields, PictureOptions):
    """The releasing request plus the picture options."""


class FirdariaRequest(SensitivityOptions):
    """The firdaria of a birth, and the periods running on a date."""

    subject: WesternSubject
    on_date: dt.date | None = Field(
        default=None,
        description=(
            "Adds ``current``: the firdar and sub-period at 12:00 UTC of this date (not before "
            "the birth, within 150 years of it); the periods then run to that date's cycle"
        ),
    )
    node_placement: Literal["after_mars", "after_mercury"] = Field(
        default="after_mars",
        description=(
            "Night charts: the nodes' periods after Mars (Abu Ma'shar, default) or after "
            "Mercury, at the end of the sequence (the variant Bonatti reports)"
        ),
    )
    year_length_days: Literal[365.25, 365.2422, 360] = Field(  # type: ignore[valid-type]
        default=365.25,
        description="Days of a firdaria year: 365.25 (Julian, default), 365.2422 or 360",
    )

    _in_span = field_validator("on_date")(in_ephemeris_span)
