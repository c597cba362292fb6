"""Western tag group, timing: sky events, planetary hours and the personal forecast.

Each route is one :func:`~astro_server.features.common.calculation.calculation` declaration on
the :mod:`astro_calc.western.events` computation it runs; each also answers an iCalendar file
(RFC 5545, one VEVENT per event with a stable UID) to ``Accept: text/calendar``. The request
models are in :mod:`astro_server.features.western.sky_requests`; the subscription feeds that
serve the same files to calendar apps are in :mod:`astro_server.features.western.feed_routes`.
"""

from __future__ import annotations

from quart import Blueprint

from astro_calc.western.events import (
    Forecast,
    PlanetaryHours,
    SkyEvents,
    forecast,
    forecast_calendar,
    hours_calendar,
    planetary_hours,
    sky_calendar,
    sky_events,
)
from astro_server.features.common.calculation import calculations
from astro_server.features.western.sky_requests import (
    ForecastRequest,
    PlanetaryHoursQuery,
    SkyEventsRequest,
)

blueprint = Blueprint("western_timing", __name__)
TAG = ["Western"]
route = calculations(blueprint, tags=TAG, errors=(400,))


@route(
    "POST /api/v3/western/sky-events",
    "westernSkyEvents",
    price="western.sky_events",
    body=SkyEventsRequest,
    result=SkyEvents,
    calendar=lambda found, data: sky_calendar(found.events, language=data.language),
)
def western_sky_events(data: SkyEventsRequest) -> SkyEvents:
    """Eclipses, lunations, ingresses, stations and void-of-course Moon periods in a window.

    ``events`` are sorted by ``at`` (UTC, to the second), each with its ``kind``. The window is
    at most 366 days, inclusive. Ingresses and stations default to the Sun and Mercury through
    Pluto (the Moon's ingresses when ``bodies`` names it). The void-of-course Moon runs from its
    last exact Ptolemaic aspect to the Sun through Saturn (``void_of_course_rule``
    ``traditional``; ``modern`` adds Uranus, Neptune and Pluto) until its next ingress.
    ``latitude`` and ``longitude`` add each eclipse's ``local`` circumstances there (contacts,
    magnitude, visibility). With ``Accept: text/calendar`` the answer is an iCalendar file.
    """
    return sky_events(
        data.start,
        data.end,
        kinds=data.kinds,
        bodies=data.bodies,
        timezone=data.timezone,
        void_of_course_rule=data.void_of_course_rule,
        latitude=data.latitude,
        longitude=data.longitude,
    )


@route(
    "GET /api/v3/western/planetary-hours",
    "westernPlanetaryHours",
    price="western.planetary_hours",
    query=PlanetaryHoursQuery,
    result=PlanetaryHours,
    calendar=lambda found, query: hours_calendar(found, language=query.language),
)
def western_planetary_hours(query: PlanetaryHoursQuery) -> PlanetaryHours:
    """The 24 planetary hours of a local date: 12 from sunrise to sunset, 12 to the next sunrise.

    Unequal hours in the Chaldean order, the first ruled by the day's planet. Sunrise and sunset
    are the Sun's upper limb on the horizon with 34 arcminutes of refraction. ``date`` is the
    local date in ``timezone`` (found from the coordinates when omitted). Latitudes beyond 66
    degrees are refused: the Sun may not rise or set there. With ``Accept: text/calendar`` the
    answer is an iCalendar file.
    """
    return planetary_hours(query.date, query.latitude, query.longitude, query.timezone)


@route(
    "POST /api/v3/western/forecast",
    "westernForecast",
    price="western.forecast",
    body=ForecastRequest,
    result=Forecast,
    names_subject=True,
    calendar=lambda found, data: forecast_calendar(found, language=data.language),
)
def western_forecast(data: ForecastRequest) -> Forecast:
    """A personal forecast: every transit of the Sun through Pluto to the natal points.

    The natal points are the Sun through Pluto, the ascendant and the midheaven; the aspects the
    five Ptolemaic ones. Each transit says when it ``enters`` the orb, every ``exact`` pass (three
    across a retrograde loop) and when it ``leaves``; null when it is already in orb at the
    window's start or still in orb at its end. The window is at most 366 days, inclusive.
    ``subject`` may be ``{"profile_id": ...}``. With ``Accept: text/calendar`` the answer is an
    iCalendar file.
    """
    return forecast(
        data.subject.to_calc(),
        data.start,
        data.end,
        timezone=data.timezone,
        orb_deg={str(body): orb for body, orb in (data.orb_deg or {}).items()} or None,
    )
