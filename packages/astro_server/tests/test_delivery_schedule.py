"""Due-time logic for daily deliveries: DST gaps, repeated hours, catch-up after downtime.

Transition instants used as the reference are the published rules:
- United States (Energy Policy Act of 2005): 2024 DST from Sun 10 Mar 02:00 (clocks to 03:00)
  to Sun 3 Nov 02:00 (clocks back to 01:00).
- United Kingdom / EU (Directive 2000/84/EC): 2024 summer time from Sun 31 Mar 01:00 UTC to
  Sun 27 Oct 01:00 UTC.
- New South Wales (Standard Time Act 1987): 2024 DST ends Sun 7 Apr 03:00 AEDT (back to 02:00)
  and starts Sun 6 Oct 02:00 AEST (to 03:00).
- Lord Howe Island: a 30-minute shift, 02:00 to 02:30 on Sun 6 Oct 2024.
"""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astro_server.platform.delivery.schedule import (
    CATCH_UP,
    InvalidTimezone,
    delivery_zone,
    due_at,
    due_deliveries,
    next_due,
    parse_delivery_time,
)

NY = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")
SYDNEY = ZoneInfo("Australia/Sydney")
LORD_HOWE = ZoneInfo("Australia/Lord_Howe")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("tz", "day", "at", "expected"),
    [
        # ordinary days
        (NY, date(2024, 3, 9), time(8, 0), utc(2024, 3, 9, 13, 0)),
        (NY, date(2024, 3, 11), time(8, 0), utc(2024, 3, 11, 12, 0)),
        # spring-forward gaps: the next valid minute
        (NY, date(2024, 3, 10), time(2, 0), utc(2024, 3, 10, 7, 0)),
        (NY, date(2024, 3, 10), time(2, 30), utc(2024, 3, 10, 7, 0)),
        (NY, date(2024, 3, 10), time(2, 59), utc(2024, 3, 10, 7, 0)),
        (NY, date(2024, 3, 10), time(3, 0), utc(2024, 3, 10, 7, 0)),
        (NY, date(2024, 3, 10), time(1, 59), utc(2024, 3, 10, 6, 59)),
        (LONDON, date(2024, 3, 31), time(1, 30), utc(2024, 3, 31, 1, 0)),
        (SYDNEY, date(2024, 10, 6), time(2, 30), utc(2024, 10, 5, 16, 0)),
        (LORD_HOWE, date(2024, 10, 6), time(2, 15), utc(2024, 10, 5, 15, 30)),
        # fall-back repeated hours: the first occurrence
        (NY, date(2024, 11, 3), time(1, 30), utc(2024, 11, 3, 5, 30)),
        (LONDON, date(2024, 10, 27), time(1, 30), utc(2024, 10, 27, 0, 30)),
        (SYDNEY, date(2024, 4, 7), time(2, 30), utc(2024, 4, 6, 15, 30)),
    ],
)
def test_due_instant(tz: ZoneInfo, day: date, at: time, expected: datetime) -> None:
    assert due_at(day, at, tz) == expected


def simulate(tz: str, at: str, start: datetime, end: datetime, step: timedelta) -> list[tuple]:
    """A scheduler ticking every ``step``: what the database-backed scheduler does, in memory."""
    delivered: list[tuple] = []
    seen_dates: set[date] = set()
    next_at = next_due(tz, at, start).due_at
    now = start
    while now <= end:
        if next_at <= now:
            for due in due_deliveries(tz, at, now, not_before=next_at):
                # the unique (subscription, local_date) row: a date is delivered once
                if due.local_date not in seen_dates:
                    seen_dates.add(due.local_date)
                    delivered.append((due.local_date, due.due_at, now))
            next_at = next_due(tz, at, now).due_at
        now += step
    return delivered


@pytest.mark.parametrize(
    ("tz", "at", "start", "transition_day", "expected_due"),
    [
        ("America/New_York", "02:30", utc(2024, 3, 8), date(2024, 3, 10), utc(2024, 3, 10, 7)),
        ("America/New_York", "01:30", utc(2024, 11, 1), date(2024, 11, 3), utc(2024, 11, 3, 5, 30)),
        ("Europe/London", "01:30", utc(2024, 3, 29), date(2024, 3, 31), utc(2024, 3, 31, 1)),
        ("Europe/London", "01:30", utc(2024, 10, 25), date(2024, 10, 27), utc(2024, 10, 27, 0, 30)),
        ("Australia/Sydney", "02:30", utc(2024, 10, 4), date(2024, 10, 6), utc(2024, 10, 5, 16)),
        ("Australia/Sydney", "02:30", utc(2024, 4, 5), date(2024, 4, 7), utc(2024, 4, 6, 15, 30)),
    ],
)
def test_ticking_scheduler_delivers_every_local_date_once(
    tz: str, at: str, start: datetime, transition_day: date, expected_due: datetime
) -> None:
    delivered = simulate(tz, at, start, start + timedelta(days=4), timedelta(minutes=1))
    dates = [d for d, _, _ in delivered]
    first = start.astimezone(ZoneInfo(tz)).date()
    assert dates == sorted(set(dates))
    assert transition_day in dates
    assert len(dates) in (4, 5)
    assert all((b - a).days == 1 for a, b in itertools.pairwise(dates))
    assert dates[0] in (first, first + timedelta(days=1))
    by_date = {d: (due, fired) for d, due, fired in delivered}
    due, fired = by_date[transition_day]
    assert due == expected_due
    assert fired == expected_due  # a minute-ticking scheduler fires on the due minute


def test_repeated_hour_is_delivered_once_even_when_ticking_every_second() -> None:
    start, end = utc(2024, 11, 3, 4, 0), utc(2024, 11, 3, 8, 0)
    delivered = simulate("America/New_York", "01:30", start, end, timedelta(seconds=30))
    assert [(d, due) for d, due, _ in delivered] == [(date(2024, 11, 3), utc(2024, 11, 3, 5, 30))]


def test_catch_up_within_six_hours_and_skip_older() -> None:
    # Delivery 08:00 UTC; the scheduler was down and comes back at 13:59, then at 14:01.
    assert [d.local_date for d in due_deliveries("UTC", "08:00", utc(2025, 1, 2, 13, 59))] == [
        date(2025, 1, 2)
    ]
    assert due_deliveries("UTC", "08:00", utc(2025, 1, 2, 14, 0)) == []
    assert due_deliveries("UTC", "08:00", utc(2025, 1, 2, 14, 1)) == []
    assert timedelta(hours=6) == CATCH_UP


def test_catch_up_after_a_long_outage_delivers_only_the_recent_date() -> None:
    # Delivery at 08:00 Bangkok (01:00 UTC); the stored next_due_at still points at 1 Jan.
    # Back at 3 Jan 10:00 UTC: even 3 Jan fell due 9 h ago, so nothing is delivered late and the
    # next due date is 4 Jan.
    stale = utc(2025, 1, 1, 1, 0)
    now = utc(2025, 1, 3, 10, 0)
    assert due_deliveries("Asia/Bangkok", "08:00", now, not_before=stale) == []
    assert next_due("Asia/Bangkok", "08:00", now).local_date == date(2025, 1, 4)
    # Back at 05:00 UTC instead: 3 Jan (due 4 h ago) is caught up, 1 and 2 Jan are skipped.
    caught = due_deliveries("Asia/Bangkok", "08:00", utc(2025, 1, 3, 5, 0), not_before=stale)
    assert [(d.local_date, d.due_at) for d in caught] == [(date(2025, 1, 3), utc(2025, 1, 3, 1))]


def test_nothing_before_not_before() -> None:
    """A subscription created after today's time starts tomorrow, not with a late delivery."""
    created = utc(2025, 5, 1, 9, 0)
    first = next_due("UTC", "08:00", created)
    assert first.local_date == date(2025, 5, 2)
    assert due_deliveries("UTC", "08:00", utc(2025, 5, 1, 10), not_before=first.due_at) == []


def test_next_due_is_strictly_after() -> None:
    assert next_due("UTC", "08:00", utc(2025, 5, 1, 8, 0)).due_at == utc(2025, 5, 2, 8, 0)
    assert next_due("UTC", "08:00", utc(2025, 5, 1, 7, 59)).due_at == utc(2025, 5, 1, 8, 0)


def test_skipped_calendar_day_still_gets_its_delivery() -> None:
    # Samoa moved across the date line: 29 Dec 2011 23:59 was followed by 31 Dec 2011 00:00.
    apia = ZoneInfo("Pacific/Apia")
    assert due_at(date(2011, 12, 30), time(8, 0), apia) == datetime(
        2011, 12, 31, 0, 0, tzinfo=apia
    ).astimezone(UTC)


@pytest.mark.parametrize("name", ["EST", "Mars/Olympus", "../etc/passwd", "", "America/"])
def test_invalid_timezone_is_refused(name: str) -> None:
    with pytest.raises(InvalidTimezone):
        delivery_zone(name)
    with pytest.raises(InvalidTimezone):
        due_deliveries(name, "08:00", utc(2025, 1, 1))


@pytest.mark.parametrize("text", ["24:00", "8:00", "08:60", "0800", "08:00:00", " 08:00"])
def test_delivery_time_must_be_24h_hh_mm(text: str) -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        parse_delivery_time(text)


def test_delivery_time_parses() -> None:
    assert parse_delivery_time("23:59") == time(23, 59)
    assert parse_delivery_time("00:00") == time(0, 0)


ZONES = [
    "America/New_York",
    "Europe/London",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "America/Santiago",
    "Asia/Tehran",
    "America/Havana",
    "Pacific/Chatham",
]


@settings(max_examples=400, deadline=None)
@given(
    zone_name=st.sampled_from(ZONES),
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2035, 12, 31)),
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
)
def test_due_instant_is_the_first_minute_at_or_after_the_wall_time(
    zone_name: str, day: date, hour: int, minute: int
) -> None:
    tz = ZoneInfo(zone_name)
    wall = datetime.combine(day, time(hour, minute))
    due = due_at(day, time(hour, minute), tz)

    def wall_of(instant: datetime) -> datetime:
        return instant.astimezone(tz).replace(tzinfo=None)

    assert wall_of(due) >= wall
    assert wall_of(due - timedelta(minutes=1)) < wall
    assert wall_of(due).second == 0
    exists = wall_of(wall.replace(tzinfo=tz, fold=0).astimezone(UTC)) == wall
    if exists:
        assert wall_of(due) == wall
