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
from typing import Final, Literal

import msgspec
from pydantic import BaseModel, Field, field_validator
from quart import Blueprint

from astro_calc.sensitivity import Sensitivity, uranian_sensitivity
from astro_calc.uranian import (
    PICTURE_COUNT,
    Midpoint,
    PictureHits,
    UranianChart,
    UranianFactors,
    UranianMeta,
    UranianMidpoints,
    UranianPictures,
    UranianPosition,
    midpoints,
    picture_factors,
    picture_hits,
    picture_texts,
    uranian_factors,
    uranian_positions,
)
from astro_server.drawing.dial import uranian_dial_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import in_ephemeris_span
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
)
from astro_server.features.common.subject import check_zone, offset_minutes_field, timezone_field

blueprint = Blueprint("uranian", __name__)
TAG = ["Uranian"]
route = calculations(blueprint, tags=TAG)


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
    _in_span = field_validator("birth_date")(in_ephemeris_span)

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


class UranianSensitiveChartRequest(UranianChartRequest, SensitivityOptions):
    """The chart request plus the birth-time sensitivity option (the chart route only)."""


# --- response bodies -----------------------------------------------------------------------------
# A dial 22.5, orb 3 chart has some 7,000 pictures and 6.5 MB of text; encoding a struct per
# picture was most of the request. Each picture's constant part (factors, key, English and Thai
# text) is encoded once per process and kept, and a response is those fragments joined around the
# picture's two numbers (encoded by msgspec in one call, so they read exactly as msgspec writes
# them). The bodies are byte for byte msgspec's encoding of astro_calc's result structs (tested);
# the structs stay the documented response models. The fragment tables hold at most one entry
# per possible picture (26,565), some 35 MB once every picture has been met.
_encoder: Final = msgspec.json.Encoder()
# Per picture number: the JSON before its dial position, ``,{"factors":[...],"dial_position":``
# (the leading comma is dropped for the first picture), and after its orb,
# ``,"interpretation_key":...,"interpretation_th":...}``; empty until the picture is first met.
_HEADS: list[bytes] = [b""] * PICTURE_COUNT
_TAILS: list[bytes] = [b""] * PICTURE_COUNT
_ORB_FIELD: Final = b',"orb_total":'


def _fill_fragments(rank: int) -> None:
    key, en, th = picture_texts(rank)
    _TAILS[rank] = (
        b',"interpretation_key":' + _encoder.encode(key)
        + b',"interpretation_en":' + _encoder.encode(en)
        + b',"interpretation_th":' + _encoder.encode(th) + b"}"
    )  # fmt: skip
    _HEADS[rank] = b',{"factors":' + _encoder.encode(picture_factors(rank)) + b',"dial_position":'


def pictures_json(hits: PictureHits) -> msgspec.Raw:
    """The ``planetary_pictures`` array, as msgspec would encode the PlanetaryPicture structs."""
    ranks = hits.ranks
    count = len(ranks)
    if not count:
        return msgspec.Raw(b"[]")
    for rank in ranks:
        if not _HEADS[rank]:
            _fill_fragments(rank)
    numbers = _encoder.encode(hits.dial_positions + hits.orbs)[1:-1].split(b",")
    # Five pieces a picture, laid out by slice assignment rather than a loop of appends.
    parts: list[bytes] = [_ORB_FIELD] * (5 * count)
    parts[0::5] = [_HEADS[rank] for rank in ranks]
    parts[1::5] = numbers[:count]
    parts[3::5] = numbers[count:]
    parts[4::5] = [_TAILS[rank] for rank in ranks]
    parts[0] = b"[" + parts[0][1:]
    parts.append(b"]")
    return msgspec.Raw(b"".join(parts))


class _Body(msgspec.Struct):
    """The three routes' response bodies, pictures already encoded: a part a route does not
    answer with is left unset and so not written (the fields keep UranianChart's order)."""

    birth_place: str
    meta: UranianMeta
    positions: tuple[UranianPosition, ...]
    midpoints: tuple[Midpoint, ...] | msgspec.UnsetType = msgspec.UNSET
    planetary_pictures: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


def _body(factors: UranianFactors, *, with_midpoints: bool, with_pictures: bool) -> bytes:
    lons, meta = factors.longitudes, factors.meta
    dial = meta.dial_mode
    return _encoder.encode(
        _Body(
            factors.birth_place,
            meta,
            uranian_positions(lons, dial),
            midpoints(lons, dial) if with_midpoints else msgspec.UNSET,
            pictures_json(picture_hits(lons, dial, meta.orb_max))
            if with_pictures
            else msgspec.UNSET,
        )
    )


def chart_body(factors: UranianFactors) -> bytes:
    """The Uranian chart response body for a resolved birth."""
    return _body(factors, with_midpoints=True, with_pictures=True)


def pictures_body(factors: UranianFactors) -> bytes:
    """The planetary-pictures response body for a resolved birth."""
    return _body(factors, with_midpoints=False, with_pictures=True)


def midpoints_body(factors: UranianFactors) -> bytes:
    """The midpoints response body for a resolved birth."""
    return _body(factors, with_midpoints=True, with_pictures=False)


def _factors(data: UranianChartRequest) -> UranianFactors:
    return uranian_factors(**data.calc_kwargs())  # type: ignore[arg-type]


def _chart_sensitivity(data: UranianSensitiveChartRequest, minutes: float) -> Sensitivity:
    return uranian_sensitivity(
        data.birth_date,
        data.birth_time,
        data.birth_lat,
        data.birth_lon,
        dial_mode=float(data.dial_mode),
        orb_max=data.orb_max,
        timezone=data.timezone,
        timezone_offset_minutes=data.timezoneOffsetMinutes,
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/uranian/chart",
    "uranianChart",
    price="uranian.chart",
    body=UranianSensitiveChartRequest,
    result=UranianChart,
    sensitivity=_chart_sensitivity,
    errors=(500,),
)
def uranian_chart_route(data: UranianSensitiveChartRequest) -> msgspec.Raw:
    """Uranian chart: positions with dial positions (Hamburg bodies flagged), all midpoints, and
    planetary pictures within ``orb_max`` on the chosen dial, interpreted in English and Thai.
    ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close the pictures at the
    personal points are to changing, charged as ``uranian.chart.sensitivity`` (+1 credit)."""
    return msgspec.Raw(chart_body(_factors(data)))


@route(
    "POST /api/v3/uranian/midpoints",
    "uranianMidpoints",
    price="uranian.midpoints",
    body=UranianChartRequest,
    result=UranianMidpoints,
)
def uranian_midpoints_route(data: UranianChartRequest) -> msgspec.Raw:
    """Positions and every midpoint on the shorter arc, with dial positions and texts."""
    return msgspec.Raw(midpoints_body(_factors(data)))


@route(
    "POST /api/v3/uranian/planetary-pictures",
    "uranianPlanetaryPictures",
    price="uranian.planetary_pictures",
    body=UranianChartRequest,
    result=UranianPictures,
)
def uranian_planetary_pictures_route(data: UranianChartRequest) -> msgspec.Raw:
    """Positions and planetary pictures (C = A/B and A + B - C = D) within ``orb_max``."""
    return msgspec.Raw(pictures_body(_factors(data)))


class UranianDialRequest(UranianChartRequest, PictureOptions):
    """The Uranian chart request plus the picture options and an optional pointer."""

    pointer_deg: float | None = Field(
        default=None,
        ge=0,
        lt=360,
        description=(
            "Pointer position in degrees (read modulo the dial); the factors and midpoints "
            "within orb_max of it are highlighted"
        ),
    )


@route(
    "POST /api/v3/uranian/dial",
    "uranianDial",
    picture=True,
    price="uranian.dial",
    body=UranianDialRequest,
)
def uranian_dial_route(data: UranianDialRequest) -> str:
    """The Uranian dial picture (90, 45 or 22.5 degrees of ``dial_mode``, 0 at the top,
    counter-clockwise): every factor at its dial position (each a group with ``data-body`` and
    ``data-longitude``), and with ``pointer_deg`` the factors and midpoints within ``orb_max``
    of the pointer highlighted."""
    factors = _factors(data)
    lons, meta = factors.longitudes, factors.meta
    dial = meta.dial_mode
    local = f"{meta.local:%Y-%m-%d %H:%M}"
    caption = [factors.birth_place, local]
    if data.pointer_deg is not None:
        caption.append(f"\u2192 {data.pointer_deg % dial:.2f}\u00b0  \u00b1{meta.orb_max:g}\u00b0")
    return uranian_dial_svg(
        uranian_positions(lons, dial),
        midpoints(lons, dial),
        dial=dial,
        orb_max=meta.orb_max,
        pointer_deg=data.pointer_deg,
        caption=caption,
        **data.drawing_options(),
    )
