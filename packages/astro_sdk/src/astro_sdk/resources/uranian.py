"""``client.uranian``: the spec's Uranian chart (dial positions, midpoints, planetary pictures
interpreted in English and Thai), and its midpoints and planetary-pictures parts. Billable."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.pictures import ChartImage, ImageBody, PictureFormat, UranianDialRequest
from astro_sdk.models.sensitivity import SensitivityOption
from astro_sdk.models.uranian import (
    UranianChart,
    UranianChartRequest,
    UranianMidpoints,
    UranianPictures,
    UranianSensitiveChartRequest,
)
from astro_sdk.resources._pictures import (
    Colors,
    Language,
    Theme,
    picture_fields,
    picture_operation,
)

__all__ = ["AsyncUranian", "Uranian"]


def _post(
    name: str, path: str, response: type[Any], request: type[Any] = UranianChartRequest
) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=request,
        billable=True,
    )


CHART: Operation[UranianChart] = _post(
    "uranianChart", "/api/v3/uranian/chart", UranianChart, UranianSensitiveChartRequest
)
MIDPOINTS: Operation[UranianMidpoints] = _post(
    "uranianMidpoints", "/api/v3/uranian/midpoints", UranianMidpoints
)
PLANETARY_PICTURES: Operation[UranianPictures] = _post(
    "uranianPlanetaryPictures", "/api/v3/uranian/planetary-pictures", UranianPictures
)
DIAL: Operation[ImageBody] = picture_operation(
    "uranianDial", "/api/v3/uranian/dial", UranianDialRequest
)
OPERATIONS = (CHART, MIDPOINTS, PLANETARY_PICTURES, DIAL)


class AsyncUranian(AsyncResource):
    """``client.uranian``: the spec's Uranian chart (dial positions, midpoints, planetary
    pictures interpreted in English and Thai), and its midpoints and planetary-pictures
    parts."""

    operations = OPERATIONS

    async def chart(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> UranianChart:
        """``POST /api/v3/uranian/chart`` (spec 12): positions, midpoints, planetary pictures;
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the pictures at the personal
        points are to changing (+1 credit)."""
        body = validate_request(
            UranianSensitiveChartRequest,
            {
                "sensitivity": sensitivity,
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return await self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    async def midpoints(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        idempotency_key: str | None = None,
    ) -> UranianMidpoints:
        """``POST /api/v3/uranian/midpoints``: positions and all midpoints."""
        body = validate_request(
            UranianChartRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return await self._client.request(MIDPOINTS, body=body, idempotency_key=idempotency_key)

    async def planetary_pictures(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        idempotency_key: str | None = None,
    ) -> UranianPictures:
        """``POST /api/v3/uranian/planetary-pictures``: pictures within ``orb_max``."""
        body = validate_request(
            UranianChartRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return await self._client.request(
            PLANETARY_PICTURES, body=body, idempotency_key=idempotency_key
        )

    async def dial(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        pointer_deg: float | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/uranian/dial``: the dial picture, with an optional pointer."""
        body = validate_request(
            UranianDialRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
                "pointer_deg": pointer_deg,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(DIAL, body=body, idempotency_key=idempotency_key)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Uranian(SyncResource):
    """``client.uranian``: the spec's Uranian chart (dial positions, midpoints, planetary
    pictures interpreted in English and Thai), and its midpoints and planetary-pictures
    parts."""

    operations = OPERATIONS

    def chart(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> UranianChart:
        """``POST /api/v3/uranian/chart`` (spec 12): positions, midpoints, planetary pictures;
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the pictures at the personal
        points are to changing (+1 credit)."""
        body = validate_request(
            UranianSensitiveChartRequest,
            {
                "sensitivity": sensitivity,
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    def midpoints(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        idempotency_key: str | None = None,
    ) -> UranianMidpoints:
        """``POST /api/v3/uranian/midpoints``: positions and all midpoints."""
        body = validate_request(
            UranianChartRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return self._client.request(MIDPOINTS, body=body, idempotency_key=idempotency_key)

    def planetary_pictures(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        idempotency_key: str | None = None,
    ) -> UranianPictures:
        """``POST /api/v3/uranian/planetary-pictures``: pictures within ``orb_max``."""
        body = validate_request(
            UranianChartRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
            },
        )
        return self._client.request(PLANETARY_PICTURES, body=body, idempotency_key=idempotency_key)

    def dial(
        self,
        *,
        birth_date: dt.date | str,
        birth_time: str,
        birth_lat: float,
        birth_lon: float,
        birth_place: str,
        dial_mode: float | None = None,
        orb_max: float | None = None,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        pointer_deg: float | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/uranian/dial``: the dial picture, with an optional pointer."""
        body = validate_request(
            UranianDialRequest,
            {
                "birth_date": birth_date,
                "birth_time": birth_time,
                "birth_lat": birth_lat,
                "birth_lon": birth_lon,
                "birth_place": birth_place,
                "dial_mode": dial_mode,
                "orb_max": orb_max,
                "timezone": timezone,
                "timezone_offset_minutes": timezone_offset_minutes,
                "pointer_deg": pointer_deg,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(DIAL, body=body, idempotency_key=idempotency_key)
