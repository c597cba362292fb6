"""``client.chinese``: BaZi charts, Qi Men Dun Jia charts, Zi Wei Dou Shu charts and their
picture, and the Chinese calendar (Korean Saju is ``client.korean``). Every route is billable
(an ``Idempotency-Key`` per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.chinese import (
    BaziRequest,
    BaziResult,
    CalendarResult,
    ChineseBirthSubject,
    ChineseCalendarRequest,
    DayBoundary,
    Gender,
    QimenMethod,
    QimenRequest,
    QimenResult,
    SolarTime,
)
from astro_sdk.models.pictures import ChartImage, ImageBody, PictureFormat
from astro_sdk.models.sensitivity import SensitivityOption
from astro_sdk.models.ziwei import (
    LateZi,
    LeapMonth,
    ZiweiBirthSubject,
    ZiweiChartRequest,
    ZiweiGender,
    ZiweiLanguage,
    ZiweiRequest,
    ZiweiResult,
)
from astro_sdk.resources._pictures import Colors, Theme, picture_operation

__all__ = ["AsyncChinese", "Chinese"]

Subject = ChineseBirthSubject | Mapping[str, Any]
ZiweiSubject = ZiweiBirthSubject | Mapping[str, Any]


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


BAZI: Operation[BaziResult] = _post("chineseBazi", "/api/v3/chinese/bazi", BaziResult, BaziRequest)
QIMEN: Operation[QimenResult] = _post(
    "chineseQimen", "/api/v3/chinese/qimen", QimenResult, QimenRequest
)
CALENDAR: Operation[CalendarResult] = _post(
    "chineseCalendar", "/api/v3/chinese/calendar", CalendarResult, ChineseCalendarRequest
)
ZIWEI: Operation[ZiweiResult] = _post(
    "chineseZiwei", "/api/v3/chinese/ziwei", ZiweiResult, ZiweiRequest
)
ZIWEI_CHART: Operation[ImageBody] = picture_operation(
    "chineseZiweiChart", "/api/v3/chinese/ziwei/chart", ZiweiChartRequest
)
OPERATIONS = (BAZI, QIMEN, CALENDAR, ZIWEI, ZIWEI_CHART)


def _bazi_body(
    subject: Subject,
    gender: Gender | None,
    day_boundary: DayBoundary | None,
    solar_time: SolarTime | None,
    luck_pillar_count: int | None,
    annual_from_year: int | None,
    annual_to_year: int | None,
    reference_date: dt.date | str | None,
    sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
) -> BaziRequest:
    return validate_request(
        BaziRequest,
        {
            "subject": subject,
            "gender": gender,
            "day_boundary": day_boundary,
            "solar_time": solar_time,
            "luck_pillar_count": luck_pillar_count,
            "annual_from_year": annual_from_year,
            "annual_to_year": annual_to_year,
            "reference_date": reference_date,
            "sensitivity": sensitivity,
        },
    )


def _ziwei_fields(
    subject: ZiweiSubject,
    gender: ZiweiGender,
    on_date: dt.date | str | None,
    language: ZiweiLanguage | None,
    late_zi: LateZi | None,
    leap_month: LeapMonth | None,
) -> dict[str, Any]:
    return {
        "subject": subject,
        "gender": gender,
        "on_date": on_date,
        "language": language,
        "late_zi": late_zi,
        "leap_month": leap_month,
    }


class AsyncChinese(AsyncResource):
    """``client.chinese``: BaZi charts, Qi Men Dun Jia charts, Zi Wei Dou Shu charts and their
    picture, and the Chinese calendar (Korean Saju is ``client.korean``)."""

    operations = OPERATIONS

    async def bazi(
        self,
        *,
        subject: Subject,
        gender: Gender | None = None,
        day_boundary: DayBoundary | None = None,
        solar_time: SolarTime | None = None,
        luck_pillar_count: int | None = None,
        annual_from_year: int | None = None,
        annual_to_year: int | None = None,
        reference_date: dt.date | str | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> BaziResult:
        """``POST /api/v3/chinese/bazi``: the four pillars and their symbols, element balance,
        day-master strength, luck pillars (with ``gender``), annual pillars, en/th readings."""
        body = _bazi_body(
            subject,
            gender,
            day_boundary,
            solar_time,
            luck_pillar_count,
            annual_from_year,
            annual_to_year,
            reference_date,
            sensitivity,
        )
        return await self._client.request(BAZI, body=body, idempotency_key=idempotency_key)

    async def qimen(
        self,
        *,
        subject: Subject,
        method: QimenMethod | None = None,
        day_boundary: DayBoundary | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> QimenResult:
        """``POST /api/v3/chinese/qimen``: the hourly rotating-plate chart of a moment;
        ``sensitivity={"uncertainty_minutes": N}`` adds how close its ju is to changing."""
        body = validate_request(
            QimenRequest,
            {
                "subject": subject,
                "method": method,
                "day_boundary": day_boundary,
                "sensitivity": sensitivity,
            },
        )
        return await self._client.request(QIMEN, body=body, idempotency_key=idempotency_key)

    async def calendar(
        self,
        *,
        date: dt.date | str | None = None,
        year: int | None = None,
        idempotency_key: str | None = None,
    ) -> CalendarResult:
        """``POST /api/v3/chinese/calendar``: a ``date``'s Chinese date, or a ``year``'s solar
        terms and lunar months (give exactly one)."""
        body = validate_request(ChineseCalendarRequest, {"date": date, "year": year})
        return await self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    async def ziwei(
        self,
        *,
        subject: ZiweiSubject,
        gender: ZiweiGender,
        on_date: dt.date | str | None = None,
        language: ZiweiLanguage | None = None,
        late_zi: LateZi | None = None,
        leap_month: LeapMonth | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ZiweiResult:
        """``POST /api/v3/chinese/ziwei``: the Zi Wei Dou Shu chart (twelve palaces, their
        stars with brightness and transformations, decadal ranges), the horoscopes of
        ``on_date``, readings; names in ``language`` (en, th, zh/zh-Hans, zh-Hant);
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the hour and the life and
        body palaces are to changing (+1 credit)."""
        body = validate_request(
            ZiweiRequest,
            {
                **_ziwei_fields(subject, gender, on_date, language, late_zi, leap_month),
                "sensitivity": sensitivity,
            },
        )
        return await self._client.request(ZIWEI, body=body, idempotency_key=idempotency_key)

    async def ziwei_chart(
        self,
        *,
        subject: ZiweiSubject,
        gender: ZiweiGender,
        on_date: dt.date | str | None = None,
        language: ZiweiLanguage | None = None,
        late_zi: LateZi | None = None,
        leap_month: LeapMonth | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/chinese/ziwei/chart``: the chart as the 4x4 square picture (SVG, or
        PNG with ``format="png"``), labels in ``language`` (Chinese characters for zh)."""
        body = validate_request(
            ZiweiChartRequest,
            {
                **_ziwei_fields(subject, gender, on_date, language, late_zi, leap_month),
                "format": format,
                "size_px": size_px,
                "theme": theme,
                "colors": colors,
            },
        )
        return await self._client.request_image(
            ZIWEI_CHART, body=body, idempotency_key=idempotency_key
        )


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Chinese(SyncResource):
    """``client.chinese``: BaZi charts, Qi Men Dun Jia charts, Zi Wei Dou Shu charts and their
    picture, and the Chinese calendar (Korean Saju is ``client.korean``)."""

    operations = OPERATIONS

    def bazi(
        self,
        *,
        subject: Subject,
        gender: Gender | None = None,
        day_boundary: DayBoundary | None = None,
        solar_time: SolarTime | None = None,
        luck_pillar_count: int | None = None,
        annual_from_year: int | None = None,
        annual_to_year: int | None = None,
        reference_date: dt.date | str | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> BaziResult:
        """``POST /api/v3/chinese/bazi``: the four pillars and their symbols, element balance,
        day-master strength, luck pillars (with ``gender``), annual pillars, en/th readings."""
        body = _bazi_body(
            subject,
            gender,
            day_boundary,
            solar_time,
            luck_pillar_count,
            annual_from_year,
            annual_to_year,
            reference_date,
            sensitivity,
        )
        return self._client.request(BAZI, body=body, idempotency_key=idempotency_key)

    def qimen(
        self,
        *,
        subject: Subject,
        method: QimenMethod | None = None,
        day_boundary: DayBoundary | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> QimenResult:
        """``POST /api/v3/chinese/qimen``: the hourly rotating-plate chart of a moment;
        ``sensitivity={"uncertainty_minutes": N}`` adds how close its ju is to changing."""
        body = validate_request(
            QimenRequest,
            {
                "subject": subject,
                "method": method,
                "day_boundary": day_boundary,
                "sensitivity": sensitivity,
            },
        )
        return self._client.request(QIMEN, body=body, idempotency_key=idempotency_key)

    def calendar(
        self,
        *,
        date: dt.date | str | None = None,
        year: int | None = None,
        idempotency_key: str | None = None,
    ) -> CalendarResult:
        """``POST /api/v3/chinese/calendar``: a ``date``'s Chinese date, or a ``year``'s solar
        terms and lunar months (give exactly one)."""
        body = validate_request(ChineseCalendarRequest, {"date": date, "year": year})
        return self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    def ziwei(
        self,
        *,
        subject: ZiweiSubject,
        gender: ZiweiGender,
        on_date: dt.date | str | None = None,
        language: ZiweiLanguage | None = None,
        late_zi: LateZi | None = None,
        leap_month: LeapMonth | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> ZiweiResult:
        """``POST /api/v3/chinese/ziwei``: the Zi Wei Dou Shu chart (twelve palaces, their
        stars with brightness and transformations, decadal ranges), the horoscopes of
        ``on_date``, readings; names in ``language`` (en, th, zh/zh-Hans, zh-Hant);
        ``sensitivity={"uncertainty_minutes": N}`` adds how close the hour and the life and
        body palaces are to changing (+1 credit)."""
        body = validate_request(
            ZiweiRequest,
            {
                **_ziwei_fields(subject, gender, on_date, language, late_zi, leap_month),
                "sensitivity": sensitivity,
            },
        )
        return self._client.request(ZIWEI, body=body, idempotency_key=idempotency_key)

    def ziwei_chart(
        self,
        *,
        subject: ZiweiSubject,
        gender: ZiweiGender,
        on_date: dt.date | str | None = None,
        language: ZiweiLanguage | None = None,
        late_zi: LateZi | None = None,
        leap_month: LeapMonth | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/chinese/ziwei/chart``: the chart as the 4x4 square picture (SVG, or
        PNG with ``format="png"``), labels in ``language`` (Chinese characters for zh)."""
        body = validate_request(
            ZiweiChartRequest,
            {
                **_ziwei_fields(subject, gender, on_date, language, late_zi, leap_month),
                "format": format,
                "size_px": size_px,
                "theme": theme,
                "colors": colors,
            },
        )
        return self._client.request_image(ZIWEI_CHART, body=body, idempotency_key=idempotency_key)
