"""Sky events and timing: eclipses, lunations, ingresses, stations and the void-of-course Moon
(:mod:`.sky`, :mod:`.eclipses`), planetary hours (:mod:`.hours`), a personal forecast
(:mod:`.forecast`), their texts in English and Thai (:mod:`.texts`) and their iCalendar files
(:mod:`.ical`). Conventions and references are in each module's docstring."""

from astro_calc.western.events.eclipses import LocalCircumstances
from astro_calc.western.events.forecast import DEFAULT_ORB_DEG, Forecast, Transit, forecast
from astro_calc.western.events.hours import PlanetaryHour, PlanetaryHours, planetary_hours
from astro_calc.western.events.ical import (
    forecast_calendar,
    hours_calendar,
    sky_calendar,
)
from astro_calc.western.events.sky import (
    ALLOWED_BODIES,
    KINDS,
    MAX_WINDOW_DAYS,
    EclipseEvent,
    IngressEvent,
    LastAspect,
    LunationEvent,
    SkyEvent,
    SkyEvents,
    StationEvent,
    VoidOfCourseEvent,
    sky_events,
)
from astro_calc.western.events.texts import EventText, describe, describe_hour, describe_transit

__all__ = [
    "ALLOWED_BODIES",
    "DEFAULT_ORB_DEG",
    "KINDS",
    "MAX_WINDOW_DAYS",
    "EclipseEvent",
    "EventText",
    "Forecast",
    "IngressEvent",
    "LastAspect",
    "LocalCircumstances",
    "LunationEvent",
    "PlanetaryHour",
    "PlanetaryHours",
    "SkyEvent",
    "SkyEvents",
    "StationEvent",
    "Transit",
    "VoidOfCourseEvent",
    "describe",
    "describe_hour",
    "describe_transit",
    "forecast",
    "forecast_calendar",
    "hours_calendar",
    "planetary_hours",
    "sky_calendar",
    "sky_events",
]
