"""iCalendar (RFC 5545) files of event lists: sky events, planetary hours, forecast transits.

Rules followed (RFC 5545 section numbers):
* 3.1 content lines end in CRLF and are folded so that no line exceeds 75 octets: a longer line
  continues on the next after CRLF and one space; folding never splits a UTF-8 character.
* 3.3.11 TEXT values escape backslash, semicolon and comma with a backslash and write a newline
  as ``\\n``.
* 3.3.5 date-times are UTC (``YYYYMMDDTHHMMSSZ``).
* 3.6.1 one VEVENT per event, each with ``UID``, ``DTSTAMP`` and ``DTSTART`` (and ``DTEND`` for a
  period); the ``UID`` is a hash of what identifies the event (its kind, bodies and instant), so
  the same event keeps its UID from one download to the next and a calendar updates it in place
  instead of duplicating it.
* ``DTSTAMP`` is the instant the file was made (``generated_at``; pass it for a stable file).

Checked against: the ``icalendar`` package's parser in ``tests/test_western_events_ical.py``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Final

import msgspec

from astro_calc.western.events.forecast import Forecast
from astro_calc.western.events.hours import PlanetaryHours
from astro_calc.western.events.sky import (
    EclipseEvent,
    IngressEvent,
    LunationEvent,
    SkyEvent,
    StationEvent,
    VoidOfCourseEvent,
)
from astro_calc.western.events.texts import describe, describe_hour, describe_transit

PRODUCT_ID: Final = "-//Astro platform//astro_calc western events//EN"
UID_DOMAIN: Final = "events.astro-calc"
_MAX_OCTETS: Final = 75


class CalendarEntry(msgspec.Struct, frozen=True):
    """One VEVENT: ``key`` identifies the event (its UID is derived from it)."""

    key: str
    start: datetime
    summary: str
    description: str = ""
    end: datetime | None = None
    categories: tuple[str, ...] = ()


def escape_text(value: str) -> str:
    """A TEXT value escaped as RFC 5545 3.3.11 requires."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def fold(line: str) -> str:
    """A content line folded at 75 octets (continuation lines start with one space), never
    inside a UTF-8 character."""
    out: list[str] = []
    current: list[str] = []
    size = 0
    limit = _MAX_OCTETS
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append("".join(current))
            current, size = [" "], 1
            limit = _MAX_OCTETS
        current.append(ch)
        size += n
    out.append("".join(current))
    return "\r\n".join(out)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def uid(key: str) -> str:
    """The stable UID of an event key."""
    return f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}@{UID_DOMAIN}"


def calendar(
    entries: Iterable[CalendarEntry],
    *,
    name: str = "Astro events",
    generated_at: datetime | None = None,
) -> str:
    """The iCalendar file (a str of CRLF-terminated lines) of ``entries``."""
    stamp = _stamp(generated_at or datetime.now(UTC))
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODUCT_ID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for entry in entries:
        lines.append("BEGIN:VEVENT")
        lines.append(f"UID:{uid(entry.key)}")
        lines.append(f"DTSTAMP:{stamp}")
        lines.append(f"DTSTART:{_stamp(entry.start)}")
        if entry.end is not None and entry.end > entry.start:
            lines.append(f"DTEND:{_stamp(entry.end)}")
        lines.append(f"SUMMARY:{escape_text(entry.summary)}")
        if entry.description:
            lines.append(f"DESCRIPTION:{escape_text(entry.description)}")
        if entry.categories:
            lines.append("CATEGORIES:" + ",".join(escape_text(c) for c in entry.categories))
        lines.append("TRANSP:TRANSPARENT")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def _sky_key(event: SkyEvent) -> str:
    at = _stamp(event.at)
    if isinstance(event, EclipseEvent):
        return f"eclipse/{event.body}/{at}"
    if isinstance(event, LunationEvent):
        return f"lunation/{event.phase}/{at}"
    if isinstance(event, IngressEvent):
        return f"ingress/{event.body}/{event.sign}/{at}"
    if isinstance(event, StationEvent):
        return f"station/{event.body}/{event.direction}/{at}"
    return f"void_of_course/{at}"


def sky_calendar(
    events: Sequence[SkyEvent],
    *,
    language: str = "en",
    generated_at: datetime | None = None,
    name: str = "Sky events",
) -> str:
    """An iCalendar file of sky events: one VEVENT each; a void-of-course period runs from its
    start to the Moon's ingress, the others are instants."""
    entries = []
    for event in events:
        text = describe(event, language)
        kind = type(event).__struct_config__.tag
        end = event.end if isinstance(event, VoidOfCourseEvent) else None
        entries.append(
            CalendarEntry(
                key=_sky_key(event),
                start=event.at,
                end=end,
                summary=text.title,
                description=text.text,
                categories=(str(kind),),
            )
        )
    return calendar(entries, name=name, generated_at=generated_at)


def hours_calendar(
    hours: PlanetaryHours, *, language: str = "en", generated_at: datetime | None = None
) -> str:
    """An iCalendar file of one day's 24 planetary hours."""
    entries = []
    for hour in hours.hours:
        text = describe_hour(hour, language)
        key = f"planetary_hour/{hours.latitude:.4f}/{hours.longitude:.4f}/{_stamp(hour.start)}"
        entries.append(
            CalendarEntry(key, hour.start, text.title, text.text, hour.end, ("planetary_hour",))
        )
    return calendar(entries, name="Planetary hours", generated_at=generated_at)


def forecast_calendar(
    report: Forecast, *, language: str = "en", generated_at: datetime | None = None
) -> str:
    """An iCalendar file of a forecast: one VEVENT per contact, from entering the orb (or the
    window's start) to leaving it (or the window's end); the exact passes are in the text."""
    entries = []
    birth = _stamp(report.birth.utc)
    for transit in report.transits:
        text = describe_transit(transit, language)
        start = transit.enters or report.start
        end = transit.leaves or report.end
        exact = ", ".join(x.strftime("%Y-%m-%d %H:%M:%S UTC") for x in transit.exact)
        description = f"{text.text}\n{exact}" if exact else text.text
        first = transit.exact[0] if transit.exact else start
        key = (
            f"transit/{birth}/{transit.transiting}/{transit.aspect}/{transit.natal}/{_stamp(first)}"
        )
        entries.append(CalendarEntry(key, start, text.title, description, end, ("transit",)))
    return calendar(entries, name="Personal forecast", generated_at=generated_at)
