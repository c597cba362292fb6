"""Sky events, planetary hours, the forecast and calendar feeds through the SDK against the live
stack (hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back. Values are checked against astro_calc
computed in this process for the same input (its own tests check it against pyswisseph's eclipse
and rise functions and published tables) and against published figures cited inline; credits
against the price table (sky events 2, planetary hours 1, forecast 2). A calendar feed's URL is
read over plain HTTP, with no key, as a calendar app would, and parsed by the ``icalendar``
package.
"""

from __future__ import annotations

import datetime as dt

import httpx
import icalendar
import pytest

import astro_sdk
from astro_calc.western import BirthSubject
from astro_calc.western.events import forecast, planetary_hours, sky_events
from astro_sdk import AstroClient
from astro_sdk.models.sky_events import EclipseEvent, LunationEvent
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

BANGKOK = {"date": "1990-05-15", "time": "08:30", "latitude": 13.7563, "longitude": 100.5018,
           "timezone": "Asia/Bangkok"}  # fmt: skip


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_sky_events_hours_and_forecast_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="sky")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        april = client.western.sky_events(start="2024-04-01", end="2024-04-30")
        hours = client.western.planetary_hours(
            date="2026-06-21", latitude=13.7563, longitude=100.5018, timezone="Asia/Bangkok"
        )
        month = client.western.forecast(subject=BANGKOK, start="2026-01-01", end="2026-01-31")

    # NASA/Espenak: the total solar eclipse of 2024-04-08, greatest eclipse 18:17 TD (18:18 UT).
    eclipses = [e for e in april.events if isinstance(e, EclipseEvent)]
    assert [(e.body, e.eclipse_type) for e in eclipses] == [("sun", "total")]
    assert eclipses[0].at.strftime("%Y-%m-%d %H:%M")[:15] == "2024-04-08 18:1"
    expected = sky_events(dt.date(2024, 4, 1), dt.date(2024, 4, 30))
    assert [_utc(e.at) for e in april.events] == [_utc(e.at) for e in expected.events]
    assert [e.kind for e in april.events] == [
        type(e).__struct_config__.tag for e in expected.events
    ]
    new_moons = [e for e in april.events if isinstance(e, LunationEvent) and e.phase == "new"]
    assert [m.at.date() for m in new_moons] == [dt.date(2024, 4, 8)]
    assert april.api_response.credits_charged == 2

    calc_hours = planetary_hours(dt.date(2026, 6, 21), 13.7563, 100.5018, "Asia/Bangkok")
    assert len(hours.hours) == 24
    assert [h.ruler for h in hours.hours] == [h.ruler for h in calc_hours.hours]
    assert _utc(hours.sunrise) == _utc(calc_hours.sunrise)
    assert hours.api_response.credits_charged == 1

    subject = BirthSubject(
        date=dt.date(1990, 5, 15), time="08:30", latitude=13.7563, longitude=100.5018,
        timezone="Asia/Bangkok",
    )  # fmt: skip
    calc = forecast(subject, dt.date(2026, 1, 1), dt.date(2026, 1, 31))
    assert [(t.transiting, t.aspect, t.natal) for t in month.transits] == [
        (t.transiting, t.aspect, t.natal) for t in calc.transits
    ]
    assert [[_utc(x) for x in t.exact] for t in month.transits] == [
        [_utc(x) for x in t.exact] for t in calc.transits
    ]
    assert month.api_response.credits_charged == 2
    assert month.api_response.credits_remaining == 20 - 2 - 1 - 2


def test_icalendar_answers_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="sky-ics")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        text = client.western.sky_events_ics(
            start="2026-01-01", end="2026-03-31", kinds=["lunation"], language="th"
        )
        hours_text = client.western.planetary_hours_ics(
            date="2026-01-05", latitude=51.5, longitude=-0.12, timezone="Europe/London"
        )
    calendar = icalendar.Calendar.from_ical(text)
    expected = sky_events(dt.date(2026, 1, 1), dt.date(2026, 3, 31), kinds=["lunation"]).events
    starts = [v.decoded("DTSTART") for v in calendar.walk("VEVENT")]
    assert starts == [e.at for e in expected]
    assert len({str(v["UID"]) for v in calendar.walk("VEVENT")}) == len(expected)
    assert len(icalendar.Calendar.from_ical(hours_text).walk("VEVENT")) == 24


def test_a_calendar_feed_is_read_by_a_calendar_parser_and_shows_in_usage(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="sky-feed")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        profile = client.profiles.create(name="Ploy", birth=BANGKOK)
        sky = client.calendar_feeds.create(name="Moon", kinds=["lunation", "eclipse"])
        personal = client.calendar_feeds.create(kind="forecast", profile_id=profile.id)
        listed = client.calendar_feeds.list()
        assert {f.id for f in listed} == {sky.feed.id, personal.feed.id}

        # A calendar app: plain HTTP, no key.
        answer = httpx.get(sky.url, timeout=60)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
        assert "max-age=86400" in answer.headers["cache-control"]
        calendar = icalendar.Calendar.from_ical(answer.content)
        assert str(calendar["X-WR-CALNAME"]) == "Moon"
        today = dt.datetime.now(dt.UTC)
        events = calendar.walk("VEVENT")
        assert {str(v["CATEGORIES"].cats[0]) for v in events} == {"lunation", "eclipse"}
        starts = [v.decoded("DTSTART") for v in events]
        assert min(starts) < today < max(starts)
        assert max(starts) - min(starts) > dt.timedelta(days=330)
        again = httpx.get(sky.url, headers={"If-None-Match": answer.headers["etag"]}, timeout=60)
        assert again.status_code == 304

        forecast_text = client.calendar_feeds.read(personal.url)
        transits = icalendar.Calendar.from_ical(forecast_text).walk("VEVENT")
        assert transits
        assert {str(v["CATEGORIES"].cats[0]) for v in transits} == {"transit"}

        usage = client.usage.get(start=today - dt.timedelta(hours=1))
        reads = [g for g in usage.groups if g.key == "western.calendar_feed_read"]
        assert [(g.calls, g.credits_charged) for g in reads] == [(3, 0)]
        assert client.account.get().account.credits_balance == 5  # reads are free

        client.calendar_feeds.delete(sky.feed.id)
        assert httpx.get(sky.url, timeout=60).status_code == 403
        with pytest.raises(astro_sdk.PermissionDeniedError):
            client.calendar_feeds.read(sky.url)
        assert [f.id for f in client.calendar_feeds.list()] == [personal.feed.id]
