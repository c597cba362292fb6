"""Uranian tag group: the spec's chart (endpoint 12), midpoints and planetary pictures.

The request is the spec's Uranian chart request (``birth_date``, ``birth_time`` ``^\\d{2}:\\d{2}$``,
``birth_lat`` -90..90, ``birth_lon`` -180..180, ``birth_place`` 1..200 characters, ``dial_mode``
one of 90, 45, 22.5, ``orb_max`` 0.25..3) plus an optional ``timezoneOffsetMinutes`` or IANA
``timezone``; with neither the zone is found from the coordinates. The response is the spec's
table: ``birth_place``, ``meta`` (``orb_max``, ``computed_at``, and the echo of the resolved UTC
instant and offset), ``positions[]``, ``midpoints[]``, ``planetary_pictures[]``.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field, field_validator
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_request

from astro_calc.uranian import (
    UranianChart,
    UranianMidpoints,
    UranianPictures,
    uranian_chart,
    uranian_midpoints,
    uranian_planetary_pictures,
)
from astro_server.api._msgspec_docs import response_model
from astro_server.api._subject import check_zone, offset_minutes_field, timezone_field
from astro_server.responses import json_response
from astro_server.schemas import ErrorBody
from astro_server.services.auth import require_api_key
from astro_server.services.billing import billable

blueprint = Blueprint("uranian", __name__)
TAG = ["Uranian"]


class UranianChartRequest(BaseModel):
    """The spec's Uranian chart request."""

    birth_date: dt.date = Field(description="Local calendar date of birth (YYYY-MM-DD)")
    birth_time: str = Field(pattern=r"^\d{2}:\d{2}$", description="Local time HH:MM (24-hour)")
    birth_lat: float = Field(ge=-90, le=90, description="Degrees, north positive")
    birth_lon: float = Field(ge=-180, le=180, description="Degrees, east positive")
    birth_place: str = Field(min_length=1, max_length=200, description="Place name, echoed")
    dial_mode: Literal[90, 45, 22.5] = Field(  # type: ignore[valid-type]
        default=90, description="Dial: 90, 45 or 22.5"
    )
    orb_max: float = Field(default=1.0, ge=0.25, le=3, description="Largest orb on the dial")
    timezoneOffsetMinutes: int | None = offset_minutes_field(  # the spec's field name
        "Offset from UTC in minutes"
    )
    timezone: str | None = timezone_field()

    _known_zone = field_validator("timezone")(check_zone)

    def calc_kwargs(self) -> dict[str, object]:
        return {
            "birth_date": self.birth_date,
            "birth_time": self.birth_time,
            "birth_lat": self.birth_lat,
            "birth_lon": self.birth_lon,
            "birth_place": self.birth_place,
            "dial_mode": float(self.dial_mode),
            "orb_max": self.orb_max,
            "timezone": self.timezone,
            "timezone_offset_minutes": self.timezoneOffsetMinutes,
        }


@blueprint.post("/api/v3/uranian/chart")
@require_api_key
@billable("uranian.chart")
@validate_request(UranianChartRequest)
@document_response(response_model(UranianChart), 200)
@document_response(ErrorBody, 500)
@tag(TAG)
@operation_id("uranianChart")
async def uranian_chart_route(data: UranianChartRequest) -> Response:
    """Uranian chart: positions with dial positions (Hamburg bodies flagged), all midpoints, and
    planetary pictures within ``orb_max`` on the chosen dial, interpreted in English and Thai."""
    return json_response(uranian_chart(**data.calc_kwargs()))  # type: ignore[arg-type]


@blueprint.post("/api/v3/uranian/midpoints")
@require_api_key
@billable("uranian.midpoints")
@validate_request(UranianChartRequest)
@document_response(response_model(UranianMidpoints), 200)
@tag(TAG)
@operation_id("uranianMidpoints")
async def uranian_midpoints_route(data: UranianChartRequest) -> Response:
    """Positions and every midpoint on the shorter arc, with dial positions and texts."""
    return json_response(uranian_midpoints(**data.calc_kwargs()))  # type: ignore[arg-type]


@blueprint.post("/api/v3/uranian/planetary-pictures")
@require_api_key
@billable("uranian.planetary_pictures")
@validate_request(UranianChartRequest)
@document_response(response_model(UranianPictures), 200)
@tag(TAG)
@operation_id("uranianPlanetaryPictures")
async def uranian_planetary_pictures_route(data: UranianChartRequest) -> Response:
    """Positions and planetary pictures (C = A/B and A + B - C = D) within ``orb_max``."""
    return json_response(uranian_planetary_pictures(**data.calc_kwargs()))  # type: ignore[arg-type]
