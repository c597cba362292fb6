"""``client.western.sky_events(...)``, ``.planetary_hours(...)``, ``.forecast(...)`` and their
iCalendar twins (``..._ics``, the same call answered as ``text/calendar``: RFC 5545 text, one
VEVENT per event with a stable UID). Written as mixins of the Western resource, so the tag group
keeps one home.

Windows (``start``, ``end``) are dates (local in ``timezone``, UTC when none; the end day counts
to its last second) or date-times, at most 366 days inclusive. Every call is billed (an
``Idempotency-Key`` per call, reused on retries): sky events 2 credits, planetary hours 1,
forecast 2.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk.models.profiles import ProfileReference
from astro_sdk.models.sky_events import (
    CalendarLanguage,
    EventBody,
    EventKind,
    Forecast,
    ForecastRequest,
    PlanetaryHours,
    PlanetaryHoursQuery,
    SkyEvents,
    SkyEventsRequest,
    TransitingBody,
    VoidOfCourseRule,
)
from astro_sdk.models.western import WesternSubject

if TYPE_CHECKING:
    from astro_sdk._client import AstroClient, AsyncAstroClient

__all__ = [
    "FORECAST",
    "PLANETARY_HOURS",
    "SKY_EVENTS",
    "AsyncSkyEventsMixin",
    "SkyEventsMixin",
]

Moment = dt.date | dt.datetime | str
Subject = WesternSubject | ProfileReference | Mapping[str, Any]

SKY_EVENTS: Operation[SkyEvents] = Operation(
    operation_id="westernSkyEvents",
    method="POST",
    path="/api/v3/western/sky-events",
    credential=Credential.API_KEY,
    response_model=SkyEvents,
    request_model=SkyEventsRequest,
    billable=True,
)
PLANETARY_HOURS: Operation[PlanetaryHours] = Operation(
    operation_id="westernPlanetaryHours",
    method="GET",
    path="/api/v3/western/planetary-hours",
    credential=Credential.API_KEY,
    response_model=PlanetaryHours,
    query_model=PlanetaryHoursQuery,
    billable=True,
)
FORECAST: Operation[Forecast] = Operation(
    operation_id="westernForecast",
    method="POST",
    path="/api/v3/western/forecast",
    credential=Credential.API_KEY,
    response_model=Forecast,
    request_model=ForecastRequest,
    billable=True,
)


def _sky_body(
    start: Moment,
    end: Moment,
    kinds: Sequence[EventKind] | None,
    bodies: Sequence[EventBody] | None,
    timezone: str | None,
    void_of_course_rule: VoidOfCourseRule | None,
    latitude: float | None,
    longitude: float | None,
    language: CalendarLanguage | None,
) -> SkyEventsRequest:
    return validate_request(
        SkyEventsRequest,
        {
            "start": start,
            "end": end,
            "kinds": None if kinds is None else list(kinds),
            "bodies": None if bodies is None else list(bodies),
            "timezone": timezone,
            "void_of_course_rule": void_of_course_rule,
            "latitude": latitude,
            "longitude": longitude,
            "language": language,
        },
    )


def _hours_query(
    date: dt.date | str,
    latitude: float,
    longitude: float,
    timezone: str | None,
    language: CalendarLanguage | None,
) -> PlanetaryHoursQuery:
    return validate_request(
        PlanetaryHoursQuery,
        {
            "date": date,
            "latitude": latitude,
            "longitude": longitude,
            "timezone": timezone,
            "language": language,
        },
    )


def _forecast_body(
    subject: Subject,
    start: Moment,
    end: Moment,
    timezone: str | None,
    orb_deg: Mapping[TransitingBody, float] | None,
    language: CalendarLanguage | None,
) -> ForecastRequest:
    return validate_request(
        ForecastRequest,
        {
            "subject": subject,
            "start": start,
            "end": end,
            "timezone": timezone,
            "orb_deg": None if orb_deg is None else dict(orb_deg),
            "language": language,
        },
    )


class AsyncSkyEventsMixin:
    """``client.western``'s timing calls, mixed into the Western resource."""

    _client: AsyncAstroClient

    async def sky_events(
        self,
        *,
        start: Moment,
        end: Moment,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        timezone: str | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        idempotency_key: str | None = None,
    ) -> SkyEvents:
        """``POST /api/v3/western/sky-events``: eclipses, lunations, ingresses, stations and
        void-of-course Moon periods in the window, sorted by ``at``; ``events`` items are told
        apart by ``kind``. ``latitude``/``longitude`` add local eclipse circumstances."""
        body = _sky_body(
            start, end, kinds, bodies, timezone, void_of_course_rule, latitude, longitude, None
        )
        return await self._client.request(SKY_EVENTS, body=body, idempotency_key=idempotency_key)

    async def sky_events_ics(
        self,
        *,
        start: Moment,
        end: Moment,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        timezone: str | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`sky_events` as an iCalendar file (its text), the texts in ``language``."""
        body = _sky_body(
            start, end, kinds, bodies, timezone, void_of_course_rule, None, None, language
        )
        return await self._client.request_calendar(
            SKY_EVENTS, body=body, idempotency_key=idempotency_key
        )

    async def planetary_hours(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        idempotency_key: str | None = None,
    ) -> PlanetaryHours:
        """``GET /api/v3/western/planetary-hours``: the 24 unequal hours of a local date from
        sunrise (Chaldean order). Beyond 66 degrees of latitude: a ``BadRequestError``."""
        query = _hours_query(date, latitude, longitude, timezone, None)
        return await self._client.request(
            PLANETARY_HOURS, query=query, idempotency_key=idempotency_key
        )

    async def planetary_hours_ics(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`planetary_hours` as an iCalendar file (its text)."""
        query = _hours_query(date, latitude, longitude, timezone, language)
        return await self._client.request_calendar(
            PLANETARY_HOURS, query=query, idempotency_key=idempotency_key
        )

    async def forecast(
        self,
        *,
        subject: Subject,
        start: Moment,
        end: Moment,
        timezone: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
        idempotency_key: str | None = None,
    ) -> Forecast:
        """``POST /api/v3/western/forecast``: every transit of the Sun through Pluto to the
        natal points, with when it enters orb, each exact pass and when it leaves."""
        body = _forecast_body(subject, start, end, timezone, orb_deg, None)
        return await self._client.request(FORECAST, body=body, idempotency_key=idempotency_key)

    async def forecast_ics(
        self,
        *,
        subject: Subject,
        start: Moment,
        end: Moment,
        timezone: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`forecast` as an iCalendar file (its text): one VEVENT per transit."""
        body = _forecast_body(subject, start, end, timezone, orb_deg, language)
        return await self._client.request_calendar(
            FORECAST, body=body, idempotency_key=idempotency_key
        )


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class SkyEventsMixin:
    """``client.western``'s timing calls, mixed into the Western resource."""

    _client: AstroClient

    def sky_events(
        self,
        *,
        start: Moment,
        end: Moment,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        timezone: str | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        idempotency_key: str | None = None,
    ) -> SkyEvents:
        """``POST /api/v3/western/sky-events``: eclipses, lunations, ingresses, stations and
        void-of-course Moon periods in the window, sorted by ``at``; ``events`` items are told
        apart by ``kind``. ``latitude``/``longitude`` add local eclipse circumstances."""
        body = _sky_body(
            start, end, kinds, bodies, timezone, void_of_course_rule, latitude, longitude, None
        )
        return self._client.request(SKY_EVENTS, body=body, idempotency_key=idempotency_key)

    def sky_events_ics(
        self,
        *,
        start: Moment,
        end: Moment,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        timezone: str | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`sky_events` as an iCalendar file (its text), the texts in ``language``."""
        body = _sky_body(
            start, end, kinds, bodies, timezone, void_of_course_rule, None, None, language
        )
        return self._client.request_calendar(SKY_EVENTS, body=body, idempotency_key=idempotency_key)

    def planetary_hours(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        idempotency_key: str | None = None,
    ) -> PlanetaryHours:
        """``GET /api/v3/western/planetary-hours``: the 24 unequal hours of a local date from
        sunrise (Chaldean order). Beyond 66 degrees of latitude: a ``BadRequestError``."""
        query = _hours_query(date, latitude, longitude, timezone, None)
        return self._client.request(PLANETARY_HOURS, query=query, idempotency_key=idempotency_key)

    def planetary_hours_ics(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        timezone: str | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`planetary_hours` as an iCalendar file (its text)."""
        query = _hours_query(date, latitude, longitude, timezone, language)
        return self._client.request_calendar(
            PLANETARY_HOURS, query=query, idempotency_key=idempotency_key
        )

    def forecast(
        self,
        *,
        subject: Subject,
        start: Moment,
        end: Moment,
        timezone: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
        idempotency_key: str | None = None,
    ) -> Forecast:
        """``POST /api/v3/western/forecast``: every transit of the Sun through Pluto to the
        natal points, with when it enters orb, each exact pass and when it leaves."""
        body = _forecast_body(subject, start, end, timezone, orb_deg, None)
        return self._client.request(FORECAST, body=body, idempotency_key=idempotency_key)

    def forecast_ics(
        self,
        *,
        subject: Subject,
        start: Moment,
        end: Moment,
        timezone: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
        language: CalendarLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`forecast` as an iCalendar file (its text): one VEVENT per transit."""
        body = _forecast_body(subject, start, end, timezone, orb_deg, language)
        return self._client.request_calendar(FORECAST, body=body, idempotency_key=idempotency_key)
