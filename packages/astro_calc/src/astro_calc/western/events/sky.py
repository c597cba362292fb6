"""Sky events over a window: eclipses, lunations, ingresses, stations, void-of-course Moon.

Conventions
-----------
* Tropical, geocentric apparent longitudes (Swiss Ephemeris through :mod:`astro_calc.ephemeris`);
  every instant is found by our own root finding (:mod:`._track`: samples, a Hermite first
  guess, Newton polishing on the ephemeris) and reported in UTC rounded to the second.
* The window: ``start`` and ``end`` as dates (local dates in ``timezone``, else UTC; the end day
  included to its last second) or aware date-times; it spans at most 366 days.
* Lunations: the Moon-Sun elongation reaches 0 (``new``), 90 (``first_quarter``), 180
  (``full``), 270 (``last_quarter``); ``sign`` and ``longitude`` are the Moon's then.
* Ingresses: the body's longitude crosses a multiple of 30 degrees; ``sign`` is the sign entered
  (moving backwards the body enters the sign behind the boundary, ``retrograde`` true).
  Default bodies: the Sun and Mercury through Pluto; the Moon only when ``bodies`` names it.
* Stations: the longitude speed changes sign; ``direction`` is the motion that follows. The
  retrograde shadow of the loop (both stations of a loop carry it): ``shadow_start`` is when
  the planet, still direct, first reaches the longitude of the coming direct station (pre-shadow);
  ``shadow_end`` is when, direct again, it regains the longitude of the retrograde station
  (post-shadow). Default bodies: Mercury through Pluto.
* Void-of-course Moon, ``traditional`` rule (default): from the Moon's last exact Ptolemaic
  aspect (conjunction, sextile, square, trine, opposition) to the Sun, Mercury, Venus, Mars,
  Jupiter or Saturn until it enters the next sign; ``modern`` counts Uranus, Neptune and Pluto
  too (the rule of the published void-of-course tables, e.g. Llewellyn's and Maynard's). The
  event's ``at`` is the start of the period; periods starting in the window are listed.
* Eclipses: see :mod:`.eclipses`.

Checked against: pyswisseph's eclipse functions, NASA/Espenak's eclipse tables and almanac dates
of lunations, ingresses and stations, in ``tests/test_western_events.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc import time as ltime
from astro_calc.ephemeris import BodyPosition, angle_diff
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root
from astro_calc.western.events import eclipses as ecl
from astro_calc.western.events._track import Position, Track, first_guess, polish, utc_second
from astro_calc.western.subject import SIGNS

Kind = Literal["eclipse", "lunation", "ingress", "station", "void_of_course"]
KINDS: Final[tuple[Kind, ...]] = ("eclipse", "lunation", "ingress", "station", "void_of_course")
VoidRule = Literal["traditional", "modern"]
MAX_WINDOW_DAYS: Final = 366
INGRESS_BODIES: Final = (
    "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
)  # fmt: skip
STATION_BODIES: Final = INGRESS_BODIES[1:]
ALLOWED_BODIES: Final = ("moon", *INGRESS_BODIES)
TRADITIONAL_VOID_BODIES: Final = ("sun", "mercury", "venus", "mars", "jupiter", "saturn")
MODERN_VOID_BODIES: Final = (*TRADITIONAL_VOID_BODIES, "uranus", "neptune", "pluto")
#: Separations (Moon minus body) that are exact Ptolemaic aspects, with their names.
PTOLEMAIC: Final = (
    (0.0, "conjunction"), (60.0, "sextile"), (90.0, "square"), (120.0, "trine"),
    (180.0, "opposition"), (240.0, "trine"), (270.0, "square"), (300.0, "sextile"),
)  # fmt: skip
PHASES: Final = ((0.0, "new"), (90.0, "first_quarter"), (180.0, "full"), (270.0, "last_quarter"))

#: Sampling steps in days: the Moon moves under 8 degrees a step, no planet can station twice
#: within one step, and no body crosses two sign boundaries within one.
_STEP: Final[dict[str, float]] = {
    "moon": 0.5, "sun": 1.0, "mercury": 1.0, "venus": 1.0, "mars": 2.0,
    "jupiter": 4.0, "saturn": 4.0, "uranus": 4.0, "neptune": 4.0, "pluto": 4.0,
}  # fmt: skip
#: Days sampled beyond the window for a station's shadow: a loop's other station and the
#: shadow's far end (the longest: an outer planet's five-month loop and its equal shadow).
_SHADOW_MARGIN: Final[dict[str, float]] = {
    "mercury": 60.0, "venus": 120.0, "mars": 200.0,
    "jupiter": 400.0, "saturn": 400.0, "uranus": 400.0, "neptune": 400.0, "pluto": 400.0,
}  # fmt: skip
#: Days sampled before the window and after it for the void-of-course Moon (its last aspect
#: may precede the window's first ingress; a period starting at the end ends within 3 days).
_VOID_MARGIN: Final = 4.0


class LastAspect(msgspec.Struct, frozen=True, gc=False):
    body: str
    aspect: str


class EclipseEvent(msgspec.Struct, frozen=True, tag_field="kind", tag="eclipse"):
    """``at``: the global greatest eclipse. ``magnitude``: for the Sun the fraction of its
    diameter covered at greatest eclipse (ratio of the apparent diameters for a central
    eclipse), for the Moon the umbral magnitude (negative for a penumbral eclipse);
    ``penumbral_magnitude`` for the Moon only; ``gamma`` in Earth radii; ``local`` the
    circumstances at the place asked for (see :mod:`.eclipses`)."""

    at: datetime
    body: Literal["sun", "moon"]
    eclipse_type: str
    magnitude: float
    gamma: float
    penumbral_magnitude: float | None = None
    local: ecl.LocalCircumstances | None = None


class LunationEvent(msgspec.Struct, frozen=True, tag_field="kind", tag="lunation"):
    at: datetime
    phase: str
    sign: str
    longitude: float


class IngressEvent(msgspec.Struct, frozen=True, tag_field="kind", tag="ingress"):
    at: datetime
    body: str
    sign: str
    retrograde: bool


class StationEvent(msgspec.Struct, frozen=True, tag_field="kind", tag="station"):
    at: datetime
    body: str
    direction: Literal["retrograde", "direct"]
    longitude: float
    sign: str
    shadow_start: datetime | None
    shadow_end: datetime | None


class VoidOfCourseEvent(msgspec.Struct, frozen=True, tag_field="kind", tag="void_of_course"):
    at: datetime
    end: datetime
    last_aspect: LastAspect
    sign: str
    next_sign: str


SkyEvent = EclipseEvent | LunationEvent | IngressEvent | StationEvent | VoidOfCourseEvent


class SkyEvents(msgspec.Struct, frozen=True):
    start: datetime
    end: datetime
    kinds: tuple[str, ...]
    void_of_course_rule: str
    events: tuple[SkyEvent, ...]


def window(
    start: date | datetime, end: date | datetime, timezone: str | None = None
) -> tuple[datetime, datetime]:
    """The window as UTC instants [start, end]; dates are local dates in ``timezone`` (UTC when
    none), the end date included to its last second. At most 366 days."""
    tz = ltime.zone(timezone) if timezone is not None else UTC

    def instant(value: date | datetime, field: str, end_of_day: bool) -> datetime:
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise CalcInputError(field, "a date or a timezone-aware date-time is required")
            return value.astimezone(UTC)
        day = value + timedelta(days=1) if end_of_day else value
        local = datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)
        return local - timedelta(seconds=1) if end_of_day else local

    t0 = instant(start, "start", False)
    t1 = instant(end, "end", True)
    if t1 < t0:
        raise CalcInputError("end", "must not be before start")
    if t1 - t0 > timedelta(days=MAX_WINDOW_DAYS):
        raise CalcInputError("end", f"the window may span at most {MAX_WINDOW_DAYS} days")
    for field, moment in (("start", t0), ("end", t1)):
        if not ephemeris.FIRST_YEAR + 1 <= moment.year <= ephemeris.LAST_YEAR - 2:
            raise CalcInputError(field, "outside the ephemeris's span")
    return t0, t1


def _check_kinds(kinds: Iterable[str]) -> tuple[Kind, ...]:
    chosen: list[Kind] = []
    for k in kinds:
        if k not in KINDS:
            raise CalcInputError("kinds", f"unknown kind {k!r}; one of {', '.join(KINDS)}")
        if k not in chosen:
            chosen.append(k)
    if not chosen:
        raise CalcInputError("kinds", "name at least one kind")
    return tuple(chosen)


def _check_bodies(bodies: Iterable[str] | None) -> tuple[str, ...] | None:
    if bodies is None:
        return None
    chosen = tuple(dict.fromkeys(bodies))
    for b in chosen:
        if b not in ALLOWED_BODIES:
            raise CalcInputError(
                "bodies", f"unknown body {b!r}; one of {', '.join(ALLOWED_BODIES)}"
            )
    return chosen


def sky_events(
    start: date | datetime,
    end: date | datetime,
    *,
    kinds: Iterable[str] = KINDS,
    bodies: Iterable[str] | None = None,
    timezone: str | None = None,
    void_of_course_rule: str = "traditional",
    latitude: float | None = None,
    longitude: float | None = None,
) -> SkyEvents:
    """Every event of ``kinds`` in the window, sorted by ``at`` (see the module docstring).

    ``bodies`` limits ingresses and stations (default: the Sun and Mercury through Pluto; the
    Moon's ingresses only when named). ``latitude`` and ``longitude`` (degrees, east positive;
    both or neither) add each eclipse's local circumstances there."""
    t0, t1 = window(start, end, timezone)
    chosen = _check_kinds(kinds)
    named = _check_bodies(bodies)
    if void_of_course_rule not in ("traditional", "modern"):
        raise CalcInputError("void_of_course_rule", "one of traditional, modern")
    place: tuple[float, float] | None = None
    if (latitude is None) != (longitude is None):
        raise CalcInputError(
            "longitude" if longitude is None else "latitude",
            "give both latitude and longitude for local eclipse circumstances, or neither",
        )
    if latitude is not None and longitude is not None:
        ltime._check_coordinates(latitude, longitude)
        place = (latitude, longitude)
    jd0, jd1 = ephemeris.julian_day(t0), ephemeris.julian_day(t1)
    ingress_bodies = INGRESS_BODIES if named is None else named
    station_bodies = tuple(b for b in (named or STATION_BODIES) if b in STATION_BODIES)
    events: list[SkyEvent] = []
    with ephemeris.held_tropical() as position:
        memo: dict[tuple[float, str], BodyPosition] = {}

        def at(jd: float, body: str) -> BodyPosition:
            key = (jd, body)
            p = memo.get(key)
            if p is None:
                p = memo[key] = position(jd, body)
            return p

        tracks: dict[str, Track] = {}

        def track(body: str, before: float = 0.0, after: float = 0.0) -> Track:
            step = _STEP[body]
            lo = jd0 - max(before, step)
            hi = min(jd1 + max(after, step), ephemeris.LAST_JD - 1.0)
            t = tracks.get(body)
            if t is None or t.first > lo or t.times[-1] < hi:
                if t is not None:
                    lo, hi = min(lo, t.first), max(hi, t.times[-1])
                t = tracks[body] = Track(body, lo, hi, step, at)
            return t

        if "station" in chosen:
            for body in station_bodies:
                m = _SHADOW_MARGIN[body]
                events.extend(_stations(track(body, m, m), at, jd0, jd1))
        if "ingress" in chosen:
            for body in ingress_bodies:
                events.extend(_ingresses(track(body), at, jd0, jd1))
        if "lunation" in chosen or "eclipse" in chosen:
            lunations = _lunations(track("moon"), track("sun"), at, jd0, jd1)
            if "lunation" in chosen:
                events.extend(e for e in lunations if _inside(e.at, jd0, jd1))
            if "eclipse" in chosen:
                for lun, jd in _syzygies(lunations):
                    found = ecl.eclipse_near(jd, lun.phase == "new", at, place)
                    if found is not None and jd0 <= found.jd_ut <= jd1:
                        events.append(
                            EclipseEvent(
                                at=utc_second(found.jd_ut),
                                body=found.body,
                                eclipse_type=found.eclipse_type,
                                magnitude=found.magnitude,
                                gamma=found.gamma,
                                penumbral_magnitude=found.penumbral_magnitude,
                                local=found.local,
                            )
                        )
        if "void_of_course" in chosen:
            void_bodies = (
                MODERN_VOID_BODIES if void_of_course_rule == "modern" else TRADITIONAL_VOID_BODIES
            )
            moon = track("moon", _VOID_MARGIN, _VOID_MARGIN)
            others = [track(b, _VOID_MARGIN, _VOID_MARGIN) for b in void_bodies]
            events.extend(_voids(moon, others, at, jd0, jd1))
    events.sort(key=lambda e: (e.at, KINDS.index(_kind(e)), getattr(e, "body", "")))
    return SkyEvents(
        start=t0.replace(microsecond=0),
        end=t1.replace(microsecond=0),
        kinds=chosen,
        void_of_course_rule=void_of_course_rule,
        events=tuple(events),
    )


def _kind(event: SkyEvent) -> Kind:
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag  # type: ignore[return-value]


def _syzygies(lunations: Sequence[LunationEvent]) -> list[tuple[LunationEvent, float]]:
    out = []
    for lun in lunations:
        if lun.phase in ("new", "full"):
            out.append((lun, ephemeris.julian_day(lun.at)))
    return out


# --- lunations ---------------------------------------------------------------------------------


def _lunations(
    moon: Track, sun: Track, at: Position, jd0: float, jd1: float
) -> list[LunationEvent]:
    """Lunations within six hours of [jd0, jd1] (a little wider than the window, so that an
    eclipse whose syzygy falls just outside it but whose greatest eclipse falls inside is
    found; the caller keeps those inside for the list)."""
    out: list[LunationEvent] = []
    times = moon.times
    elong = [(moon.lons[i] - sun.longitude(t)) % 360.0 for i, t in enumerate(times)]
    for i in range(1, len(times)):
        a, b = elong[i - 1], elong[i]
        for phase_deg, phase in PHASES:
            va = angle_diff(a, phase_deg)
            vb = angle_diff(b, phase_deg)
            if not (va < 0.0 <= vb):
                continue

            def value(t: float, p: float = phase_deg) -> float:
                return angle_diff(moon.longitude(t) - sun.longitude(t), p)

            def slope(t: float) -> float:
                return moon.speed(t) - sun.speed(t)

            def exact(t: float, p: float = phase_deg) -> tuple[float, float]:
                m, s = at(t, "moon"), at(t, "sun")
                return angle_diff(m.longitude - s.longitude, p), m.speed - s.speed

            lo, hi = times[i - 1], times[i]
            guess = first_guess(value, slope, lo, hi)
            if not jd0 - 0.5 <= guess <= jd1 + 0.5:
                continue
            jd = polish(exact, guess, lo, hi, rising=True)
            if not jd0 - 0.25 <= jd <= jd1 + 0.25:
                continue
            lon = at(jd, "moon").longitude
            out.append(LunationEvent(utc_second(jd), phase, SIGNS[int(lon // 30.0) % 12], lon))
    return out


def _inside(moment: datetime, jd0: float, jd1: float) -> bool:
    jd = ephemeris.julian_day(moment)
    return jd0 - 0.5 / 86400.0 <= jd <= jd1 + 0.5 / 86400.0


# --- ingresses and stations --------------------------------------------------------------------


def _station_times(track: Track, at: Position) -> list[tuple[float, bool]]:
    """(Julian day, turns retrograde) of every station on the track."""
    out: list[tuple[float, bool]] = []
    speeds, times = track.speeds, track.times
    body = track.body
    for i in range(1, len(times)):
        if (speeds[i - 1] < 0) != (speeds[i] < 0):

            def speed(t: float) -> float:
                return at(t, body).speed

            jd = refine_root(
                speed, times[i - 1], times[i], tolerance_s=0.05, known=(speeds[i - 1], speeds[i])
            )
            out.append((jd, speeds[i] < 0))
    return out


def _pieces(track: Track, at: Position) -> list[tuple[float, float, bool]]:
    """The track split at its stations into pieces of one direction: (start, end, direct)."""
    knots = [track.times[0]]
    for jd, _retro in _station_times(track, at) if track.body not in ("sun", "moon") else ():
        knots.append(jd)
    knots.append(track.times[-1])
    out = []
    for a, b in itertools.pairwise(knots):
        mid = 0.5 * (a + b)
        out.append((a, b, track.speed(mid) >= 0))
    return out


def _crossings(
    track: Track, at: Position, target: float, lo: float, hi: float, direct: bool
) -> list[float]:
    """Instants in [lo, hi] (one direction of motion) when the body passes ``target``."""
    out: list[float] = []
    body = track.body
    t = lo
    prev = angle_diff(track.longitude(t), target)
    i = track.index(lo)
    while t < hi:
        i += 1
        nxt_t = min(track.times[i], hi) if i < track.n else hi
        if nxt_t <= t:
            break
        cur = angle_diff(track.longitude(nxt_t), target)
        crossed = prev < 0.0 <= cur if direct else cur <= 0.0 < prev
        if crossed and abs(cur - prev) < 90.0:

            def value(x: float) -> float:
                return angle_diff(track.longitude(x), target)

            def exact(x: float) -> tuple[float, float]:
                p = at(x, body)
                return angle_diff(p.longitude, target), p.speed

            guess = first_guess(value, track.speed, t, nxt_t)
            out.append(polish(exact, guess, t, nxt_t, rising=direct))
        t, prev = nxt_t, cur
    return out


def _ingresses(track: Track, at: Position, jd0: float, jd1: float) -> list[IngressEvent]:
    """Sign boundaries crossed in the window: each sample step of each one-direction piece
    is checked (no body crosses two boundaries within a step)."""
    out: list[IngressEvent] = []
    for a, b, direct in _pieces(track, at):
        lo, hi = max(a, jd0 - track.step), min(b, jd1 + track.step)
        t = lo
        sign_t = int(track.longitude(t) // 30.0)
        i = track.index(lo)
        while t < hi:
            i += 1
            nxt = min(track.times[i], hi) if i < track.n else hi
            if nxt <= t:
                break
            sign_n = int(track.longitude(nxt) // 30.0)
            if sign_n != sign_t:
                boundary = (sign_n if direct else sign_t) * 30.0 % 360.0
                for jd in _crossings(track, at, boundary, t, nxt, direct):
                    if jd0 <= jd <= jd1:
                        index = round(boundary / 30.0) % 12
                        entered = index if direct else (index - 1) % 12
                        out.append(
                            IngressEvent(utc_second(jd), track.body, SIGNS[entered], not direct)
                        )
            t, sign_t = nxt, sign_n
    return out


def _stations(track: Track, at: Position, jd0: float, jd1: float) -> list[StationEvent]:
    stations = _station_times(track, at)
    pieces = _pieces(track, at)
    out: list[StationEvent] = []
    for k, (jd, retro) in enumerate(stations):
        if not jd0 <= jd <= jd1:
            continue
        jd_r: float | None
        jd_d: float | None
        if retro:
            jd_r, jd_d = jd, stations[k + 1][0] if k + 1 < len(stations) else None
        else:
            jd_r, jd_d = stations[k - 1][0] if k > 0 else None, jd
        shadow_start = shadow_end = None
        if jd_r is not None and jd_d is not None:
            lon_r = at(jd_r, track.body).longitude
            lon_d = at(jd_d, track.body).longitude
            before = [p for p in pieces if p[1] <= jd_r + 1e-9 and p[2]]
            after = [p for p in pieces if p[0] >= jd_d - 1e-9 and p[2]]
            if before:
                hits = _crossings(track, at, lon_d, before[-1][0], before[-1][1], True)
                shadow_start = utc_second(hits[-1]) if hits else None
            if after:
                hits = _crossings(track, at, lon_r, after[0][0], after[0][1], True)
                shadow_end = utc_second(hits[0]) if hits else None
        lon = at(jd, track.body).longitude
        out.append(
            StationEvent(
                at=utc_second(jd),
                body=track.body,
                direction="retrograde" if retro else "direct",
                longitude=lon,
                sign=SIGNS[int(lon // 30.0) % 12],
                shadow_start=shadow_start,
                shadow_end=shadow_end,
            )
        )
    return out


# --- void-of-course Moon -----------------------------------------------------------------------


def _voids(
    moon: Track, others: list[Track], at: Position, jd0: float, jd1: float
) -> list[VoidOfCourseEvent]:
    out: list[VoidOfCourseEvent] = []
    times = moon.times
    ingresses: list[tuple[float, int]] = []
    for i in range(1, len(times)):
        sa, sb = int(moon.lons[i - 1] // 30.0), int(moon.lons[i] // 30.0)
        if sa != sb:
            jd = _crossings(moon, at, sb * 30.0 % 360.0, times[i - 1], times[i], True)[0]
            ingresses.append((jd, sb % 12))
    for k, (ingress, entered) in enumerate(ingresses):
        if k == 0:
            continue  # its last aspect may precede the samples
        last = _last_aspect(moon, others, at, ingress)
        if last is None or not jd0 <= last[0] <= jd1:
            continue
        jd, body, aspect = last
        out.append(
            VoidOfCourseEvent(
                at=utc_second(jd),
                end=utc_second(ingress),
                last_aspect=LastAspect(body, aspect),
                sign=SIGNS[(entered - 1) % 12],
                next_sign=SIGNS[entered],
            )
        )
    return out


def _last_aspect(
    moon: Track, others: list[Track], at: Position, ingress: float
) -> tuple[float, str, str] | None:
    """The Moon's latest exact Ptolemaic aspect to one of ``others`` before ``ingress``: walk
    the Moon's sample steps back from the ingress; in the first step that holds a crossing
    (on the interpolated separations), polish that step's crossings on the ephemeris and take
    the latest before the ingress (an earlier step is tried when none is)."""
    i = moon.index(ingress) + 1
    hi_t = ingress
    while i > 0 and moon.times[i - 1] >= moon.first:
        lo_t = moon.times[i - 1]
        best: tuple[float, str, str] | None = None
        for other in others:

            def sep(t: float, o: Track = other) -> float:
                return (moon.longitude(t) - o.longitude(t)) % 360.0

            x0, x1 = sep(lo_t), sep(hi_t)
            for asp_deg, name in PTOLEMAIC:
                a, b = angle_diff(x0, asp_deg), angle_diff(x1, asp_deg)
                if not (a < 0.0 <= b) or b - a > 90.0:
                    continue

                def value(t: float, o: Track = other, d: float = asp_deg) -> float:
                    return angle_diff(moon.longitude(t) - o.longitude(t), d)

                def slope(t: float, o: Track = other) -> float:
                    return moon.speed(t) - o.speed(t)

                def exact(t: float, o: Track = other, d: float = asp_deg) -> tuple[float, float]:
                    m, p = at(t, "moon"), at(t, o.body)
                    return angle_diff(m.longitude - p.longitude, d), m.speed - p.speed

                guess = first_guess(value, slope, lo_t, hi_t)
                if best is not None and guess < best[0] - 0.05:
                    continue
                jd = polish(exact, guess, lo_t, hi_t, rising=True)
                if jd < ingress and (best is None or jd > best[0]):
                    best = (jd, other.body, name)
        if best is not None:
            return best
        hi_t = lo_t
        i -= 1
    return None
