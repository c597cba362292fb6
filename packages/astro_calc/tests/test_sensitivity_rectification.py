"""The rectification window, checked by brute force.

For 20 random windows (seeded; six hours each, latitudes within +-55 degrees), every listed
change is checked at ``at`` -+ 1 s with the natal chart's angles and Moon, the Vedic Moon's pada
and the BaZi hour pillar, and the window is sampled every 5 minutes (20 s for nothing: the
listed results last at least half an hour) to find any change that is not listed.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta, timezone

from astro_calc import ephemeris
from astro_calc.chinese import bazi_chart
from astro_calc.sensitivity import rectification_window
from astro_calc.vedic.zodiac import NAKSHATRAS, nakshatra_index, pada_of
from astro_calc.western import chart_for_instant

RESULTS = ("ascendant.sign", "midheaven.sign", "moon.sign", "moon.pada", "pillar.hour")


def _values(moment: datetime, lat: float, lon: float, offset: int) -> dict[str, str]:
    chart = chart_for_instant(
        moment, lat, lon, timezone="UTC", bodies=("moon",), aspects=(), include_minor=False
    )
    moon = ephemeris.body_position(ephemeris.julian_day(moment), "moon", ayanamsa="lahiri")
    local = moment.astimezone(timezone(timedelta(minutes=offset)))
    bazi = bazi_chart(
        local.date(),
        local.time().replace(tzinfo=None),
        latitude=lat,
        longitude=lon,
        offset_minutes=offset,
    )
    return {
        "ascendant.sign": chart.angles.ascendant.sign,
        "midheaven.sign": chart.angles.midheaven.sign,
        "moon.sign": chart.planet("moon").sign,
        "moon.pada": f"{NAKSHATRAS[nakshatra_index(moon.longitude)]} {pada_of(moon.longitude)}",
        "pillar.hour": bazi.pillars.hour.ganzhi,
    }


def test_every_change_in_20_random_windows_is_listed_at_its_second() -> None:
    rng = random.Random(34)
    for _ in range(20):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        start = time(rng.randrange(0, 24), rng.randrange(0, 60))
        lat, lon = rng.uniform(-55.0, 55.0), rng.uniform(-180.0, 180.0)
        offset = round(lon / 15) * 60
        end = (datetime.combine(day, start) + timedelta(hours=6)).time()
        window = rectification_window(
            day, start, end, latitude=lat, longitude=lon, offset_minutes=offset
        )
        assert window.end_utc - window.start_utc == timedelta(hours=6)
        one_s = timedelta(seconds=1)
        for e in window.events:
            before = _values(e.at - one_s, lat, lon, offset)[e.result]
            after = _values(e.at + one_s, lat, lon, offset)[e.result]
            assert (before, after) == (e.from_, e.to), (day, start, e)
            assert e.local.utcoffset() == timedelta(minutes=offset)
        assert [e.at for e in window.events] == sorted(e.at for e in window.events)
        # Nothing unlisted: between samples 5 minutes apart a result changes only if an event
        # of it is listed between them.
        t = window.start_utc
        previous = _values(t, lat, lon, offset)
        while t < window.end_utc:
            t2 = min(t + timedelta(minutes=5), window.end_utc)
            now = _values(t2, lat, lon, offset)
            for r in RESULTS:
                listed = [e for e in window.events if e.result == r and t < e.at <= t2 + one_s]
                assert (previous[r] != now[r]) == bool(listed), (day, start, r, t, t2)
            t, previous = t2, now


def test_a_window_across_midnight_runs_into_the_next_day() -> None:
    window = rectification_window(
        date(1990, 5, 17),
        time(22, 0),
        time(2, 0),
        latitude=39.9,
        longitude=116.4,
        offset_minutes=480,
    )
    assert window.end_utc - window.start_utc == timedelta(hours=4)
    hours = [e for e in window.events if e.result == "pillar.hour"]
    # 23:00 and 01:00 local: the Zi and Chou hours begin.
    assert [e.local.strftime("%H:%M:%S") for e in hours] == ["23:00:00", "01:00:00"]
    assert [e.to for e in hours] == ["壬子", "癸丑"]  # the 癸未 day begins at 23:00 (zi)
