"""iCalendar files of event lists, read back by the ``icalendar`` package (a test-only parser):
one VEVENT per event, stable UIDs, RFC 5545 escaping and folding."""

from __future__ import annotations

from datetime import UTC, date, datetime

import icalendar

from astro_calc.western.events.forecast import forecast
from astro_calc.western.events.hours import planetary_hours
from astro_calc.western.events.ical import (
    CalendarEntry,
    calendar,
    escape_text,
    fold,
    forecast_calendar,
    hours_calendar,
    sky_calendar,
)
from astro_calc.western.events.sky import VoidOfCourseEvent, sky_events
from astro_calc.western.subject import BirthSubject

STAMP = datetime(2026, 12, 1, tzinfo=UTC)


def _events():  # type: ignore[no-untyped-def]
    return sky_events(
        date(2024, 3, 20), date(2024, 4, 30), bodies=["moon", "sun", "mercury"]
    ).events


def test_one_vevent_per_event_with_start_summary_and_unique_uid() -> None:
    events = _events()
    text = sky_calendar(events, generated_at=STAMP)
    cal = icalendar.Calendar.from_ical(text)
    vevents = cal.walk("VEVENT")
    assert len(vevents) == len(events)
    assert len({str(v["UID"]) for v in vevents}) == len(events)
    for v, e in zip(vevents, events, strict=True):
        assert v["DTSTART"].dt == e.at
        assert v["DTSTAMP"].dt == STAMP
        if isinstance(e, VoidOfCourseEvent):
            assert v["DTEND"].dt == e.end
    assert str(cal["VERSION"]) == "2.0"


def test_uids_are_stable_between_downloads_and_windows() -> None:
    first = icalendar.Calendar.from_ical(sky_calendar(_events(), generated_at=STAMP))
    later = sky_events(
        date(2024, 4, 1), date(2024, 4, 30), bodies=["moon", "sun", "mercury"]
    ).events
    second = icalendar.Calendar.from_ical(sky_calendar(later, generated_at=datetime.now(UTC)))
    uids_first = {str(v["UID"]): str(v["SUMMARY"]) for v in first.walk("VEVENT")}
    uids_second = {str(v["UID"]): str(v["SUMMARY"]) for v in second.walk("VEVENT")}
    shared = set(uids_first) & set(uids_second)
    assert len(shared) == len(uids_second)  # every April event keeps its UID
    assert all(uids_first[u] == uids_second[u] for u in shared)


def test_lines_are_crlf_and_folded_at_75_octets_in_thai_too() -> None:
    text = sky_calendar(_events(), language="th", generated_at=STAMP)
    assert text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    for line in text.split("\r\n"):
        assert len(line.encode("utf-8")) <= 75
    cal = icalendar.Calendar.from_ical(text)
    summaries = [str(v["SUMMARY"]) for v in cal.walk("VEVENT")]
    assert "จันทร์เพ็ญในราศีตุลย์" in summaries


def test_text_values_are_escaped_and_come_back_unchanged() -> None:
    tricky = "Sun; Moon, and a back\\slash\nnew line"
    assert escape_text(tricky) == "Sun\\; Moon\\, and a back\\\\slash\\nnew line"
    text = calendar(
        [CalendarEntry("k", STAMP, tricky, description=tricky * 5, categories=("a,b",))],
        generated_at=STAMP,
    )
    (v,) = icalendar.Calendar.from_ical(text).walk("VEVENT")
    assert str(v["SUMMARY"]) == tricky
    assert str(v["DESCRIPTION"]) == tricky * 5


def test_fold_never_splits_a_utf8_character() -> None:
    line = "SUMMARY:" + "ดาวจันทร์" * 30
    for part in fold(line).split("\r\n"):
        part.encode("utf-8").decode("utf-8")
        assert len(part.encode("utf-8")) <= 75
    assert fold(line).replace("\r\n ", "") == line


def test_planetary_hours_and_forecast_calendars_parse() -> None:
    hours = planetary_hours(date(2026, 6, 1), 13.75, 100.5, "Asia/Bangkok")
    cal = icalendar.Calendar.from_ical(hours_calendar(hours, language="th", generated_at=STAMP))
    vevents = cal.walk("VEVENT")
    assert len(vevents) == 24
    assert vevents[0]["DTEND"].dt == hours.hours[0].end
    subject = BirthSubject(date=date(1990, 5, 1), time="07:30", latitude=13.75, longitude=100.5)
    report = forecast(subject, date(2026, 3, 1), date(2026, 3, 31))
    cal = icalendar.Calendar.from_ical(forecast_calendar(report, generated_at=STAMP))
    assert len(cal.walk("VEVENT")) == len(report.transits)
