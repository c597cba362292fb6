"""``client.thai``: the Thai lunar calendar, festivals, the Moon, the Taksa wheel and auspicious
times. Every route is billable (an ``Idempotency-Key`` per call, reused on retries).

``year_type_source`` (calendar, festivals, lunar, auspicious times): ``"almanac"`` (the server's
default when omitted) or ``"rule"``; see :data:`astro_sdk.models.thai.YearTypeSource`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.pictures import ChartImage, ImageBody, PictureFormat, TaksaWheelDiagramRequest
from astro_sdk.models.sensitivity import SensitivityOption
from astro_sdk.models.thai import (
    Ayanamsa,
    Purpose,
    ThaiAuspiciousRequest,
    ThaiAuspiciousTimes,
    ThaiBirthSubject,
    ThaiCalendar,
    ThaiCalendarRequest,
    ThaiFestivals,
    ThaiFestivalsRequest,
    ThaiLunar,
    ThaiLunarRequest,
    ThaiWheel,
    ThaiWheelRequest,
    YearTypeSource,
)
from astro_sdk.resources._pictures import (
    Colors,
    Language,
    Theme,
    picture_fields,
    picture_operation,
)

__all__ = ["AsyncThai", "Thai"]

Subject = ThaiBirthSubject | Mapping[str, Any]
Day = dt.date | str


def _post(name: str, path: str, response: type[Any], request: type[Any]) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=request,
        billable=True,
    )


CALENDAR: Operation[ThaiCalendar] = _post(
    "thaiCalendar", "/api/v3/thai/calendar", ThaiCalendar, ThaiCalendarRequest
)
FESTIVALS: Operation[ThaiFestivals] = _post(
    "thaiFestivals", "/api/v3/thai/festivals", ThaiFestivals, ThaiFestivalsRequest
)
LUNAR: Operation[ThaiLunar] = _post("thaiLunar", "/api/v3/thai/lunar", ThaiLunar, ThaiLunarRequest)
WHEEL: Operation[ThaiWheel] = _post("thaiWheel", "/api/v3/thai/wheel", ThaiWheel, ThaiWheelRequest)
AUSPICIOUS_TIMES: Operation[ThaiAuspiciousTimes] = _post(
    "thaiAuspiciousTimes",
    "/api/v3/thai/auspicious-times",
    ThaiAuspiciousTimes,
    ThaiAuspiciousRequest,
)
WHEEL_DIAGRAM: Operation[ImageBody] = picture_operation(
    "thaiWheelDiagram", "/api/v3/thai/wheel/diagram", TaksaWheelDiagramRequest
)
OPERATIONS = (CALENDAR, FESTIVALS, LUNAR, WHEEL, AUSPICIOUS_TIMES, WHEEL_DIAGRAM)


def _auspicious_fields(
    purpose: Purpose,
    start_date: Day,
    end_date: Day,
    birth_date: Day | None,
    birth_time: str | None,
    year_type_source: YearTypeSource | None,
    sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "purpose": purpose,
        "start_date": start_date,
        "end_date": end_date,
        "birth_date": birth_date,
        "birth_time": birth_time,
        "year_type_source": year_type_source,
        "sensitivity": sensitivity,
    }


def _lunar_fields(
    moment: dt.datetime | str,
    latitude: float,
    longitude: float,
    timezone: str | None,
    year_type_source: YearTypeSource | None,
) -> dict[str, Any]:
    return {
        "moment": moment,
        "latitude": latitude,
        "longitude": longitude,
        "timezone": timezone,
        "year_type_source": year_type_source,
    }


class AsyncThai(AsyncResource):
    """``client.thai``: the Thai lunar calendar, festivals, the Moon, the Taksa wheel and
    auspicious times."""

    operations = OPERATIONS

    async def calendar(
        self,
        *,
        date: Day | None = None,
        year: int | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiCalendar:
        """``POST /api/v3/thai/calendar``: the Thai lunar date of ``date``, or the months, year
        type and holy days of ``year`` (give exactly one)."""
        body = validate_request(
            ThaiCalendarRequest,
            {"date": date, "year": year, "year_type_source": year_type_source},
        )
        return await self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    async def festivals(
        self,
        *,
        year: int,
        ayanamsa: Ayanamsa | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiFestivals:
        """``POST /api/v3/thai/festivals``: Buddhist holidays, Loy Krathong and Songkran."""
        body = validate_request(
            ThaiFestivalsRequest,
            {"year": year, "ayanamsa": ayanamsa, "year_type_source": year_type_source},
        )
        return await self._client.request(FESTIVALS, body=body, idempotency_key=idempotency_key)

    async def lunar(
        self,
        *,
        moment: dt.datetime | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiLunar:
        """``POST /api/v3/thai/lunar``: the Moon and the Thai lunar date at a moment and place."""
        body = validate_request(
            ThaiLunarRequest,
            _lunar_fields(moment, latitude, longitude, timezone, year_type_source),
        )
        return await self._client.request(LUNAR, body=body, idempotency_key=idempotency_key)

    async def wheel(
        self,
        *,
        subject: Subject,
        on_date: Day | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiWheel:
        """``POST /api/v3/thai/wheel``: the Taksa wheel of a birth (and the yearly Taksa);
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the birth weekday is to
        changing (+1 credit)."""
        body = validate_request(
            ThaiWheelRequest,
            {"subject": subject, "on_date": on_date, "sensitivity": sensitivity},
        )
        return await self._client.request(WHEEL, body=body, idempotency_key=idempotency_key)

    async def auspicious_times(
        self,
        *,
        purpose: Purpose,
        start_date: Day,
        end_date: Day,
        birth_date: Day | None = None,
        birth_time: str | None = None,
        year_type_source: YearTypeSource | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiAuspiciousTimes:
        """``POST /api/v3/thai/auspicious-times``: auspicious days and hours over at most 366
        days, each with its reasons. ``sensitivity={"uncertainty_minutes": N}`` (0 to 720, with
        ``birth_date`` and ``birth_time``) adds how close the person's Thai birth day is to
        changing (+1 credit)."""
        body = validate_request(
            ThaiAuspiciousRequest,
            _auspicious_fields(
                purpose,
                start_date,
                end_date,
                birth_date,
                birth_time,
                year_type_source,
                sensitivity,
            ),
        )
        return await self._client.request(
            AUSPICIOUS_TIMES, body=body, idempotency_key=idempotency_key
        )

    async def wheel_diagram(
        self,
        *,
        subject: Subject,
        on_date: Day | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/thai/wheel/diagram``: the Taksa wheel picture."""
        body = validate_request(
            TaksaWheelDiagramRequest,
            {
                "subject": subject,
                "on_date": on_date,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            WHEEL_DIAGRAM, body=body, idempotency_key=idempotency_key
        )


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Thai(SyncResource):
    """``client.thai``: the Thai lunar calendar, festivals, the Moon, the Taksa wheel and
    auspicious times."""

    operations = OPERATIONS

    def calendar(
        self,
        *,
        date: Day | None = None,
        year: int | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiCalendar:
        """``POST /api/v3/thai/calendar``: the Thai lunar date of ``date``, or the months, year
        type and holy days of ``year`` (give exactly one)."""
        body = validate_request(
            ThaiCalendarRequest,
            {"date": date, "year": year, "year_type_source": year_type_source},
        )
        return self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    def festivals(
        self,
        *,
        year: int,
        ayanamsa: Ayanamsa | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiFestivals:
        """``POST /api/v3/thai/festivals``: Buddhist holidays, Loy Krathong and Songkran."""
        body = validate_request(
            ThaiFestivalsRequest,
            {"year": year, "ayanamsa": ayanamsa, "year_type_source": year_type_source},
        )
        return self._client.request(FESTIVALS, body=body, idempotency_key=idempotency_key)

    def lunar(
        self,
        *,
        moment: dt.datetime | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        year_type_source: YearTypeSource | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiLunar:
        """``POST /api/v3/thai/lunar``: the Moon and the Thai lunar date at a moment and place."""
        body = validate_request(
            ThaiLunarRequest,
            _lunar_fields(moment, latitude, longitude, timezone, year_type_source),
        )
        return self._client.request(LUNAR, body=body, idempotency_key=idempotency_key)

    def wheel(
        self,
        *,
        subject: Subject,
        on_date: Day | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiWheel:
        """``POST /api/v3/thai/wheel``: the Taksa wheel of a birth (and the yearly Taksa);
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the birth weekday is to
        changing (+1 credit)."""
        body = validate_request(
            ThaiWheelRequest,
            {"subject": subject, "on_date": on_date, "sensitivity": sensitivity},
        )
        return self._client.request(WHEEL, body=body, idempotency_key=idempotency_key)

    def auspicious_times(
        self,
        *,
        purpose: Purpose,
        start_date: Day,
        end_date: Day,
        birth_date: Day | None = None,
        birth_time: str | None = None,
        year_type_source: YearTypeSource | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ThaiAuspiciousTimes:
        """``POST /api/v3/thai/auspicious-times``: auspicious days and hours over at most 366
        days, each with its reasons. ``sensitivity={"uncertainty_minutes": N}`` (0 to 720, with
        ``birth_date`` and ``birth_time``) adds how close the person's Thai birth day is to
        changing (+1 credit)."""
        body = validate_request(
            ThaiAuspiciousRequest,
            _auspicious_fields(
                purpose,
                start_date,
                end_date,
                birth_date,
                birth_time,
                year_type_source,
                sensitivity,
            ),
        )
        return self._client.request(AUSPICIOUS_TIMES, body=body, idempotency_key=idempotency_key)

    def wheel_diagram(
        self,
        *,
        subject: Subject,
        on_date: Day | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/thai/wheel/diagram``: the Taksa wheel picture."""
        body = validate_request(
            TaksaWheelDiagramRequest,
            {
                "subject": subject,
                "on_date": on_date,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(WHEEL_DIAGRAM, body=body, idempotency_key=idempotency_key)
