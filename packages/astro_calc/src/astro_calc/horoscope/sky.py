"""The sky of one day, computed once and shared by the twelve signs' horoscopes.

Day boundary: the UTC calendar day, [00:00, 24:00) UTC. Positions are tropical, geocentric,
apparent (:mod:`astro_calc.ephemeris`). Snapshot values (each planet's sign, the Moon's sign and
phase) are taken at 12:00 UTC. Events inside the day are found by sampling every 3 hours and
refining each bracketed root with :func:`astro_calc.search.refine_root` to 1 second:

* exact aspects (0, 60, 90, 120, 180 degrees) between any two of Sun .. Pluto;
* ingresses: a body entering a new sign;
* stations: Mercury .. Pluto turning retrograde or direct (longitude speed crossing zero);
* lunations: new moon, first quarter, full moon, last quarter (Moon-Sun elongation 0/90/180/270).

Three hours is short enough that no event is missed: the fastest relative motion (Moon against
a retrograde Mercury) is under 17 degrees a day, 2 degrees per step, far from the 180 degree
ambiguity of an angle difference; two exact aspects of the same pair and angle cannot fall in
one step. Checked in tests against an independent fine (10-minute) scan and against kerykeion.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc.ephemeris import (
    angle_diff,
    body_position,
    body_positions,
    datetime_from_jd,
    julian_day,
)
from astro_calc.search import refine_root
from astro_calc.zodiac import SIGNS as SIGNS

PLANETS: Final[tuple[str, ...]] = (
    "sun",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)
#: Bodies that can station (the Sun and Moon never do).
STATIONING: Final = PLANETS[2:]
ASPECTS: Final[dict[str, float]] = {
    "conjunction": 0.0,
    "sextile": 60.0,
    "square": 90.0,
    "trine": 120.0,
    "opposition": 180.0,
}
HARMONIOUS: Final = frozenset({"sextile", "trine"})
CHALLENGING: Final = frozenset({"square", "opposition"})
LUNATIONS: Final[dict[str, float]] = {
    "new_moon": 0.0,
    "first_quarter": 90.0,
    "full_moon": 180.0,
    "last_quarter": 270.0,
}
PHASES: Final[tuple[str, ...]] = (
    "new_moon",
    "waxing_crescent",
    "first_quarter",
    "waxing_gibbous",
    "full_moon",
    "waning_gibbous",
    "last_quarter",
    "waning_crescent",
)
_LUNATION_ASPECTS: Final = frozenset({"conjunction", "square", "opposition"})
_STEPS: Final = 8  # 3-hour sampling
_TOLERANCE_S: Final = 1.0

FactKind = Literal["aspect", "ingress", "station", "lunation"]


class PlanetPlacement(msgspec.Struct, frozen=True):
    body: str
    longitude_deg: float
    sign: str
    degree_in_sign: float
    speed_deg_per_day: float
    retrograde: bool


class SkyEvent(msgspec.Struct, frozen=True):
    """One exact event inside the day. ``bodies`` has two names for an aspect (faster first),
    one otherwise (``moon`` for a lunation)."""

    kind: FactKind
    at: datetime  # UTC
    bodies: tuple[str, ...]
    aspect: str | None = None  # conjunction, sextile, square, trine, opposition
    sign: str | None = None  # sign entered (ingress) or occupied (station, lunation)
    previous_sign: str | None = None  # ingress only
    direction: Literal["retrograde", "direct"] | None = None  # station only
    lunation: str | None = None  # new_moon, first_quarter, full_moon, last_quarter


class DailySky(msgspec.Struct, frozen=True):
    date: date
    day_start_utc: datetime
    snapshot_utc: datetime  # 12:00 UTC, when placements and the Moon's phase are read
    moon_sign: str
    moon_longitude_deg: float
    moon_phase: str
    moon_elongation_deg: float
    moon_illumination: float  # 0..1, (1 - cos elongation) / 2
    placements: tuple[PlanetPlacement, ...]
    events: tuple[SkyEvent, ...]  # in time order

    def placement(self, body: str) -> PlanetPlacement:
        for p in self.placements:
            if p.body == body:
                return p
        raise KeyError(body)


def sign_of(longitude_deg: float) -> str:
    return SIGNS[int(longitude_deg % 360.0 // 30.0)]


def phase_name(elongation_deg: float) -> str:
    """Eight phases, each 45 degrees wide and centred on a multiple of 45 (new moon from
    337.5 to 22.5 degrees of elongation)."""
    return PHASES[int(((elongation_deg + 22.5) % 360.0) // 45.0)]


def _utc(jd: float) -> datetime:
    """UTC datetime of a Julian day, rounded to the second (the refinement tolerance)."""
    moment = datetime_from_jd(jd)
    return (moment + timedelta(microseconds=500_000)).replace(microsecond=0)


def _lon(jd: float, body: str) -> float:
    return body_position(jd, body).longitude


@lru_cache(maxsize=64)
def daily_sky(day: date) -> DailySky:
    """The day's placements (at 12:00 UTC) and every aspect, ingress, station and lunation that
    is exact within the UTC day. Cached per date: the twelve signs share one computation."""
    start = datetime.combine(day, time(0, 0), tzinfo=UTC)
    jd0 = julian_day(start)
    grid = [jd0 + i / _STEPS for i in range(_STEPS + 1)]
    samples = [body_positions(jd, PLANETS)[0] for jd in grid]
    events: list[SkyEvent] = []

    def bracketed(values: list[float]) -> list[int]:
        return [
            i
            for i in range(_STEPS)
            if (values[i] < 0.0 <= values[i + 1] or values[i + 1] < 0.0 <= values[i])
            and abs(values[i] - values[i + 1]) < 90.0
        ]

    # ingresses
    for body in PLANETS:
        lons = [s[body].longitude for s in samples]
        for i in range(_STEPS):
            before, after_index = int(lons[i] // 30), int(lons[i + 1] // 30)
            if before == after_index:
                continue
            # forward into b: its first degree; backward (retrograde) out of a: a's first degree
            boundary = (
                float(after_index * 30 % 360)
                if (before + 1) % 12 == after_index
                else float(before * 30)
            )

            def f(jd: float, body: str = body, boundary: float = boundary) -> float:
                return angle_diff(_lon(jd, body), boundary)

            jd = refine_root(f, grid[i], grid[i + 1], tolerance_s=_TOLERANCE_S)
            after = SIGNS[after_index % 12]
            events.append(
                SkyEvent("ingress", _utc(jd), (body,), sign=after, previous_sign=SIGNS[before % 12])
            )
    # stations
    for body in STATIONING:
        speeds = [s[body].speed for s in samples]
        for i in bracketed(speeds):

            def g(jd: float, body: str = body) -> float:
                return body_position(jd, body).speed

            jd = refine_root(g, grid[i], grid[i + 1], tolerance_s=_TOLERANCE_S)
            direction: Literal["retrograde", "direct"] = (
                "retrograde" if speeds[i] > speeds[i + 1] else "direct"
            )
            events.append(
                SkyEvent(
                    "station", _utc(jd), (body,), sign=sign_of(_lon(jd, body)), direction=direction
                )
            )
    # aspects: signed differences against +angle and -angle
    for ia, a in enumerate(PLANETS):
        for b in PLANETS[ia + 1 :]:
            seps = [(s[a].longitude - s[b].longitude) % 360.0 for s in samples]
            for aspect, angle in ASPECTS.items():
                if {a, b} == {"sun", "moon"} and aspect in _LUNATION_ASPECTS:
                    continue  # reported once, as the lunation
                targets = {angle % 360.0, (-angle) % 360.0}
                for target in targets:
                    values = [angle_diff(sep, target) for sep in seps]
                    for i in bracketed(values):

                        def h(jd: float, a: str = a, b: str = b, target: float = target) -> float:
                            return angle_diff((_lon(jd, a) - _lon(jd, b)) % 360.0, target)

                        jd = refine_root(h, grid[i], grid[i + 1], tolerance_s=_TOLERANCE_S)
                        fast_first = (
                            (a, b)
                            if abs(samples[i][a].speed) >= abs(samples[i][b].speed)
                            else (b, a)
                        )
                        events.append(SkyEvent("aspect", _utc(jd), fast_first, aspect=aspect))
    # lunations
    elongations = [(s["moon"].longitude - s["sun"].longitude) % 360.0 for s in samples]
    for lunation, angle in LUNATIONS.items():
        values = [angle_diff(e, angle) for e in elongations]
        for i in bracketed(values):

            def k(jd: float, angle: float = angle) -> float:
                return angle_diff((_lon(jd, "moon") - _lon(jd, "sun")) % 360.0, angle)

            jd = refine_root(k, grid[i], grid[i + 1], tolerance_s=_TOLERANCE_S)
            events.append(
                SkyEvent(
                    "lunation",
                    _utc(jd),
                    ("moon",),
                    sign=sign_of(_lon(jd, "moon")),
                    lunation=lunation,
                )
            )

    noon = jd0 + 0.5
    noon_positions, _eph, _warn = body_positions(noon, PLANETS)
    placements = tuple(
        PlanetPlacement(
            body=body,
            longitude_deg=p.longitude,
            sign=sign_of(p.longitude),
            degree_in_sign=p.longitude % 30.0,
            speed_deg_per_day=p.speed,
            retrograde=p.speed < 0,
        )
        for body, p in noon_positions.items()
    )
    moon = noon_positions["moon"].longitude
    elongation = (moon - noon_positions["sun"].longitude) % 360.0
    return DailySky(
        date=day,
        day_start_utc=start,
        snapshot_utc=_utc(noon),
        moon_sign=sign_of(moon),
        moon_longitude_deg=moon,
        moon_phase=phase_name(elongation),
        moon_elongation_deg=elongation,
        moon_illumination=(1.0 - math.cos(math.radians(elongation))) / 2.0,
        placements=placements,
        events=tuple(sorted(events, key=lambda e: (e.at, e.kind, e.bodies))),
    )
