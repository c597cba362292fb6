"""``client.uranian``: the spec's Uranian chart (dial positions, midpoints, planetary pictures
interpreted in English and Thai), and its midpoints and planetary-pictures parts. Billable."""

from __future__ import annotations

import datetime as dt
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.uranian import (
    UranianChart,
    UranianChartRequest,
    UranianMidpoints,
    UranianPictures,
)

__all__ = ["AsyncUranian", "Uranian"]


def _post(name: str, path: str, response: type[Any]) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=UranianChartRequest,
        billable=True,
    )


CHART: Operation[UranianChart] = _post("uranianChart", "/api/v3/uranian/chart", UranianChart)
MIDPOINTS: Operation[UranianMidpoints] = _post(
    "uranianMidpoints", "/api/v3/uranian/midpoints", UranianMidpoints
)
PLANETARY_PICTURES: Operation[UranianPictures] = _post(
    "uranianPlanetaryPictures", "/api/v3/uranian/planetary-pictures", UranianPictures
)
OPERATIONS = (CHART, MIDPOINTS, PLANETARY_PICTURES)


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
        idempotency_key: str | None = None,
    ) -> UranianChart:
        """``POST /api/v3/uranian/chart`` (spec 12): positions, midpoints, planetary pictures."""
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
        idempotency_key: str | None = None,
    ) -> UranianChart:
        """``POST /api/v3/uranian/chart`` (spec 12): positions, midpoints, planetary pictures."""
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
