"""The rectification window: every change of the time-sensitive key results inside a window of
local times, as a starting point for an astrologer rectifying a birth time.

Listed: ``ascendant.sign`` and ``midheaven.sign`` (tropical, as the natal chart),
``moon.sign`` (tropical), ``moon.pada`` (sidereal nakshatra pada with the chosen ayanamsa, as the
Vedic chart) and ``pillar.hour`` (the Chinese hour pillar with the chosen solar time, as BaZi;
the same under either day boundary). Each is found with the root finders of
:mod:`astro_calc.sensitivity` to 1 second, searching on from each change to the window's end.
The window's local clock keeps the UTC offset in force at its start. Beyond 60 degrees of latitude
the angles' signs are left out with a warning (see :mod:`astro_calc.sensitivity.western`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone

import msgspec

from astro_calc import ephemeris
from astro_calc.chinese.pillars import SolarTimeMode, four_pillars, pillar_time
from astro_calc.chinese.symbols import ganzhi
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
    BRACKET_S,
    PhaseSample,
    Shift,
    State,
    angles_reliable,
    change_at,
    discrete_changes,
    phase_crossing,
)
from astro_calc.sensitivity.western import sign_value
from astro_calc.time import resolve
from astro_calc.vedic.zodiac import NAKSHATRAS, PADA_SPAN_DEG, nakshatra_index, pada_of

MAX_WINDOW_MINUTES: float = 1440.0
_DAY_S: float = 86400.0


class RectificationEvent(msgspec.Struct, frozen=True):
    """One change inside the window: which result, when (UTC to the second, and the local clock
    with the window's offset), from which value to which."""

    result: str
    at: datetime
    local: datetime
    from_: str = msgspec.field(name="from")
    to: str = ""


class RectificationWindow(msgspec.Struct, frozen=True):
    start_utc: datetime
    end_utc: datetime
    offset_minutes: int
    timezone: str | None
    precision_seconds: float
    events: tuple[RectificationEvent, ...]  # in time order
    warnings: tuple[str, ...] = ()


def _phase_events(
    sample: Callable[[float], PhaseSample],
    period: float,
    rate: float,
    end_s: float,
) -> list[tuple[float, str, str]]:
    out: list[tuple[float, str, str]] = []
    base = 0.0
    while base < end_s:
        first = sample(base)

        def shifted(s: float, base: float = base) -> PhaseSample:
            return sample(base + s)

        found = phase_crossing(shifted, 1, end_s - base, period, rate, first=first)
        if found is None:
            break
        out.append((base + found[0], first[1], found[1]))
        base += found[0] + BRACKET_S
    return out


def rectification_window(
    local_date: date,
    start_time: time,
    end_time: time,
    *,
    latitude: float,
    longitude: float,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    ayanamsa: str = "lahiri",
    solar_time: SolarTimeMode = "clock",
) -> RectificationWindow:
    """Every change of ascendant sign, midheaven sign, Moon sign, nakshatra pada and Chinese
    hour pillar between ``start_time`` on ``local_date`` and ``end_time`` (the next day when it
    is not after ``start_time``; at most 24 hours), each to 1 second, in time order."""
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    if not -180.0 <= longitude <= 180.0:
        raise CalcInputError("longitude", "must be between -180 and 180")
    if ayanamsa not in ephemeris.AYANAMSAS:
        raise CalcInputError("ayanamsa", f"one of {', '.join(ephemeris.AYANAMSAS)}")
    if solar_time not in ("clock", "mean", "true"):
        raise CalcInputError("solar_time", "must be 'clock', 'mean' or 'true'")
    resolved = resolve(
        local_date,
        start_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
        time_field="start_time",
    )
    start = datetime.combine(local_date, start_time)
    end = datetime.combine(local_date, end_time)
    if end <= start:
        end += timedelta(days=1)
    end_s = (end - start).total_seconds()
    shift = Shift(resolved.utc, resolved.local, ephemeris.julian_day(resolved.utc))

    def houses(s: float) -> ephemeris.Houses:
        return ephemeris.houses(shift.jd(s), latitude, longitude, "P")

    def ascendant(s: float) -> PhaseSample:
        h = houses(s)
        return h.ascendant / 30.0, sign_value(h.ascendant), h.ascendant_speed / 30.0 / _DAY_S

    def midheaven(s: float) -> PhaseSample:
        h = houses(s)
        return h.midheaven / 30.0, sign_value(h.midheaven), h.midheaven_speed / 30.0 / _DAY_S

    def moon_sign(s: float) -> PhaseSample:
        p = ephemeris.body_position(shift.jd(s), "moon")
        return p.longitude / 30.0, sign_value(p.longitude), p.speed / 30.0 / _DAY_S

    def pada(s: float) -> PhaseSample:
        p = ephemeris.body_position(shift.jd(s), "moon", ayanamsa=ayanamsa)
        value = f"{NAKSHATRAS[nakshatra_index(p.longitude)]} {pada_of(p.longitude)}"
        return p.longitude / PADA_SPAN_DEG, value, p.speed / PADA_SPAN_DEG / _DAY_S

    angle_rate = 1.0 / 30.0 / 240.0  # a sign in two hours, in signs per second
    found: list[tuple[str, float, str, str]] = []
    searches: tuple[tuple[str, Callable[[float], PhaseSample], float, float], ...] = (
        ("ascendant.sign", ascendant, 12.0, angle_rate),
        ("midheaven.sign", midheaven, 12.0, angle_rate),
        ("moon.sign", moon_sign, 12.0, 13.2 / 30.0 / _DAY_S),
        ("moon.pada", pada, 108.0, 13.2 / PADA_SPAN_DEG / _DAY_S),
    )
    warnings: tuple[str, ...] = ()
    if not angles_reliable(latitude):
        searches, warnings = searches[2:], (ANGLES_LEFT_OUT,)
    for result, sample, period, rate in searches:
        found.extend(
            (result, s, old, new) for s, old, new in _phase_events(sample, period, rate, end_s)
        )

    def hour_pillar(s: float) -> State:
        utc = shift.utc(s)
        reading, _eot = pillar_time(utc, shift.local(s), longitude, solar_time)
        name = ganzhi(four_pillars(utc, reading, "zi").hour)
        return ((name, name),)

    base = 0.0
    while base < end_s:
        first = hour_pillar(base)

        def from_base(s: float, base: float = base) -> State:
            return hour_pillar(base + s)

        change = discrete_changes(from_base, 1, end_s - base, 3600.0, first=first)[0]
        if change is None:
            break
        found.append(("pillar.hour", base + change[0], first[0][1], change[1]))
        base += change[0] + BRACKET_S

    clock = timezone(timedelta(minutes=resolved.offset_minutes))
    events = []
    for result, s, old, new in sorted(found, key=lambda e: (e[1], e[0])):
        c = change_at(shift.utc0, (s, new))
        assert c is not None
        events.append(RectificationEvent(result, c.at, c.at.astimezone(clock), old, new))
    return RectificationWindow(
        start_utc=shift.utc0,
        end_utc=shift.utc(end_s),
        offset_minutes=resolved.offset_minutes,
        timezone=resolved.timezone,
        precision_seconds=1.0,
        events=tuple(events),
        warnings=warnings,
    )
