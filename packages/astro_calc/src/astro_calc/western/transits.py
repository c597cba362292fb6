"""Transits over a date range: exact transit-to-natal aspects, sign ingresses and retrograde
stations, in time order.

Method: each transiting body is sampled on a grid fine enough that it moves less than 180
degrees between samples and cannot turn twice between them (step per body below). Stations are
the roots of the longitude speed between samples; inserting them splits the range into pieces
over which the longitude moves one way only, so every target longitude (natal point plus or
minus an aspect angle, or a sign boundary) is crossed at most once per piece. Each crossing is
refined by false position to ``tolerance_s`` (default 0.5 s).

Conventions: tropical, geocentric apparent longitudes; natal points are the natal bodies plus the
ascendant and midheaven; aspects are the five major ones unless given; a station's ``station``
is the direction the body takes after it (``retrograde`` or ``direct``). The range is at most
366 days.

Checked against: an independent brute-force one-minute scan with pyswisseph in
``tests/test_western_transits.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from datetime import date, datetime
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root
from astro_calc.western.aspects import ASPECTS, MAJOR_ASPECTS
from astro_calc.western.natal import PLANETS, chart_at, check_bodies
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, aware, resolve_subject

MAX_RANGE_DAYS: Final = 366.0
DEFAULT_TRANSITING: Final = (
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)
#: Sampling step in days: far below the shortest retrograde loop and 180 degrees of motion.
_STEP_DAYS: Final[dict[str, float]] = {
    "moon": 0.25,
    "sun": 2.0,
    "mercury": 1.0,
    "venus": 1.0,
    "mars": 2.0,
    "jupiter": 4.0,
    "saturn": 4.0,
    "uranus": 4.0,
    "neptune": 4.0,
    "pluto": 4.0,
    "mean_node": 4.0,
    # Its direct loops can last only about five hours; near a station its speed also flickers
    # around zero for minutes (Moshier), and flickers shorter than the step are not reported.
    "true_node": 1.0 / 24.0,
    "mean_lilith": 2.0,
    "chiron": 4.0,
}


class TransitEvent(msgspec.Struct, frozen=True):
    """One event. ``kind`` is ``aspect`` (with ``natal_point``, ``aspect``), ``ingress`` (with
    ``sign`` entered) or ``station`` (with ``station``). ``longitude`` is the transiting body's,
    ``retrograde`` its motion at the instant (for a station: the motion that follows)."""

    utc: datetime
    julian_day: float
    kind: str
    transiting: str
    longitude: float
    sign: str
    retrograde: bool
    natal_point: str | None = None
    natal_longitude: float | None = None
    aspect: str | None = None
    station: str | None = None


class TransitMeta(msgspec.Struct, frozen=True):
    birth: SubjectTime
    start_utc: datetime
    end_utc: datetime
    aspects: tuple[str, ...]
    ephemeris: str
    warnings: tuple[str, ...]


class TransitReport(msgspec.Struct, frozen=True):
    events: tuple[TransitEvent, ...]
    meta: TransitMeta


def transits(
    subject: BirthSubject,
    start: datetime | date,
    end: datetime | date,
    *,
    transiting_bodies: Iterable[str] = DEFAULT_TRANSITING,
    natal_points: Iterable[str] | None = None,
    aspects: Iterable[str] = MAJOR_ASPECTS,
    include_ingresses: bool = True,
    include_stations: bool = True,
    tolerance_s: float = 0.5,
) -> TransitReport:
    """Every exact transit-to-natal aspect, ingress and station between ``start`` and ``end``
    (aware date-times, or dates meaning 00:00 UTC; at most 366 days apart), in time order.

    ``natal_points`` defaults to ``sun``..``pluto`` plus ``ascendant`` and ``midheaven``."""
    t_start = aware(start, "start")
    t_end = aware(end, "end")
    jd0, jd1 = ephemeris.julian_day(t_start), ephemeris.julian_day(t_end)
    if jd1 <= jd0:
        raise CalcInputError("end", "must be after start")
    if jd1 - jd0 > MAX_RANGE_DAYS:
        raise CalcInputError("end", f"the range may span at most {MAX_RANGE_DAYS:g} days")
    movers = check_bodies(transiting_bodies)
    if "chiron" in movers:
        raise CalcInputError("transiting_bodies", "chiron is not available as a transiting body")
    aspect_names = tuple(aspects)
    for name in aspect_names:
        if name not in ASPECTS:
            raise CalcInputError("aspects", f"unknown aspect {name!r}")
    birth = resolve_subject(subject)
    natal = chart_at(birth, subject.latitude, subject.longitude, bodies=PLANETS, aspects=())
    natal_lons = {p.name: p.longitude for p in natal.planets}
    natal_lons["ascendant"] = natal.angles.ascendant.longitude
    natal_lons["midheaven"] = natal.angles.midheaven.longitude
    wanted = tuple(natal_points) if natal_points is not None else tuple(natal_lons)
    for name in wanted:
        if name not in natal_lons:
            raise CalcInputError("natal_points", f"unknown natal point {name!r}")

    # Target longitudes: (longitude, natal point, aspect) and sign boundaries.
    targets: list[tuple[float, str | None, str | None]] = []
    for point in wanted:
        seen: set[float] = set()
        for name in aspect_names:
            angle = ASPECTS[name].angle
            for t in {(natal_lons[point] + angle) % 360.0, (natal_lons[point] - angle) % 360.0}:
                key = round(t, 9)
                if key not in seen:
                    seen.add(key)
                    targets.append((t, point, name))
    if include_ingresses:
        targets.extend((30.0 * i, None, None) for i in range(12))

    events: list[TransitEvent] = []
    for body in movers:
        events.extend(
            _body_events(body, jd0, jd1, targets, natal_lons, include_stations, tolerance_s)
        )
    events.sort(key=lambda e: (e.julian_day, e.transiting))
    return TransitReport(
        events=tuple(events),
        meta=TransitMeta(
            birth=birth,
            start_utc=t_start,
            end_utc=t_end,
            aspects=aspect_names,
            ephemeris=natal.meta.ephemeris,
            warnings=natal.meta.warnings,
        ),
    )


def _body_events(
    body: str,
    jd0: float,
    jd1: float,
    targets: list[tuple[float, str | None, str | None]],
    natal_lons: dict[str, float],
    include_stations: bool,
    tolerance_s: float,
) -> list[TransitEvent]:
    def position(jd: float) -> ephemeris.BodyPosition:
        return ephemeris.body_position(jd, body)

    step = _STEP_DAYS[body]
    n = max(1, int((jd1 - jd0) / step + 0.999999))
    grid = [jd0 + (jd1 - jd0) * i / n for i in range(n + 1)]
    samples = [(jd, position(jd)) for jd in grid]
    events: list[TransitEvent] = []
    # Stations split the grid into monotonic pieces.
    knots: list[tuple[float, ephemeris.BodyPosition]] = [samples[0]]
    for (ja, pa), (jb, pb) in itertools.pairwise(samples):
        if (pa.speed < 0) != (pb.speed < 0):
            jd_s = refine_root(lambda jd: position(jd).speed, ja, jb, tolerance_s=tolerance_s)
            ps = position(jd_s)
            knots.append((jd_s, ps))
            if include_stations:
                turning_retro = pb.speed < 0
                events.append(
                    TransitEvent(
                        utc=ephemeris.datetime_from_jd(jd_s),
                        julian_day=jd_s,
                        kind="station",
                        transiting=body,
                        longitude=ps.longitude,
                        sign=SIGNS[int(ps.longitude // 30.0) % 12],
                        retrograde=turning_retro,
                        station="retrograde" if turning_retro else "direct",
                    )
                )
        knots.append((jb, pb))

    for (ja, pa), (jb, pb) in itertools.pairwise(knots):
        if jb <= ja:
            continue
        la, lb = pa.longitude, pb.longitude
        for target, point, aspect in targets:
            va = (la - target) % 360.0
            va = va - 360.0 if va > 180.0 else va
            vb = (lb - target) % 360.0
            vb = vb - 360.0 if vb > 180.0 else vb
            # A crossing of zero (not the +-180 wrap); a knot exactly on target is counted in
            # one piece only, as the inequalities are half-open.
            if not ((va < 0.0 <= vb) or (vb < 0.0 <= va)) or abs(va - vb) >= 180.0:
                continue

            def f(jd: float, target: float = target) -> float:
                return ephemeris.angle_diff(position(jd).longitude, target)

            jd_x = refine_root(f, ja, jb, tolerance_s=tolerance_s)
            px = position(jd_x)
            if point is None:
                # Moving backward over a boundary enters the sign behind it.
                boundary = round(target / 30.0) % 12
                sign = SIGNS[boundary if px.speed >= 0 else (boundary - 1) % 12]
            else:
                sign = SIGNS[int(px.longitude // 30.0) % 12]
            events.append(
                TransitEvent(
                    utc=ephemeris.datetime_from_jd(jd_x),
                    julian_day=jd_x,
                    kind="ingress" if point is None else "aspect",
                    transiting=body,
                    longitude=px.longitude,
                    sign=sign,
                    retrograde=px.speed < 0,
                    natal_point=point,
                    natal_longitude=None if point is None else natal_lons[point],
                    aspect=aspect,
                )
            )
    return events
