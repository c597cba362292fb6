"""A personal forecast: every transit of the Sun through Pluto to the natal points in a window.

Conventions
-----------
* Tropical, geocentric apparent longitudes. Natal points: the natal Sun through Pluto, the
  ascendant and the midheaven (Placidus angles of :func:`astro_calc.western.natal.chart_at`).
* Aspects: the five Ptolemaic ones (conjunction, sextile, square, trine, opposition). A transit
  runs from when the separation first comes within ``orb_deg`` of the exact aspect (``enters``)
  to when it last goes out of orb (``leaves``), and is ``exact`` at every pass: one, or three
  across a retrograde loop. The passes of one loop are one transit even when the planet goes
  out of orb between them (it turns at a station in between), as astrologers count "the three
  passes of Saturn over the Sun".
* Default orbs (degrees): 2 for the Sun through Mars, 1.5 for Jupiter and Saturn, 1 for Uranus,
  Neptune and Pluto (a slow planet stays longer in a wider orb; these keep a month's list short).
* A contact already in orb at the window's start has ``enters`` null, one still in orb at its
  end ``leaves`` null (the window is at most 366 days); ``exact`` lists the passes inside the
  window. Contacts are sorted by their first instant in the window.
* Every instant is found by our own root finding (samples, Hermite guess, Newton on the
  ephemeris; see :mod:`._track`), UTC to the second.

Checked against: a one-minute brute-force scan of pyswisseph longitudes in
``tests/test_western_events_forecast.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.ephemeris import angle_diff
from astro_calc.errors import CalcInputError
from astro_calc.western.events._track import Position, Track, utc_second
from astro_calc.western.events.sky import _STEP, _crossings, _pieces, window
from astro_calc.western.natal import PLANETS, chart_at
from astro_calc.western.subject import BirthSubject, SubjectTime, resolve_subject

TRANSITING: Final = (
    "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
)  # fmt: skip
ASPECT_ANGLES: Final = (
    ("conjunction", 0.0), ("sextile", 60.0), ("square", 90.0), ("trine", 120.0),
    ("opposition", 180.0),
)  # fmt: skip
DEFAULT_ORB_DEG: Final[Mapping[str, float]] = {
    "sun": 2.0, "mercury": 2.0, "venus": 2.0, "mars": 2.0, "jupiter": 1.5, "saturn": 1.5,
    "uranus": 1.0, "neptune": 1.0, "pluto": 1.0,
}  # fmt: skip


class Transit(msgspec.Struct, frozen=True):
    transiting: str
    natal: str
    aspect: str
    natal_longitude: float
    enters: datetime | None
    exact: tuple[datetime, ...]
    leaves: datetime | None


class Forecast(msgspec.Struct, frozen=True):
    birth: SubjectTime
    start: datetime
    end: datetime
    orb_deg: dict[str, float]
    transits: tuple[Transit, ...]


def natal_points(subject: BirthSubject) -> tuple[SubjectTime, dict[str, float]]:
    """The resolved birth time and the natal longitudes the forecast aims at."""
    birth = resolve_subject(subject)
    natal = chart_at(birth, subject.latitude, subject.longitude, bodies=PLANETS, aspects=())
    lons = {p.name: p.longitude for p in natal.planets if p.name in TRANSITING or p.name == "moon"}
    lons["ascendant"] = natal.angles.ascendant.longitude
    lons["midheaven"] = natal.angles.midheaven.longitude
    return birth, lons


def forecast(
    subject: BirthSubject,
    start: date | datetime,
    end: date | datetime,
    *,
    timezone: str | None = None,
    orb_deg: Mapping[str, float] | None = None,
) -> Forecast:
    """Transits of the Sun through Pluto to the natal points between ``start`` and ``end``
    (see the module docstring)."""
    t0, t1 = window(start, end, timezone)
    orbs = dict(DEFAULT_ORB_DEG)
    if orb_deg is not None:
        for body, value in orb_deg.items():
            if body not in orbs:
                raise CalcInputError("orb_deg", f"unknown transiting body {body!r}")
            if not 0.0 < value <= 10.0:
                raise CalcInputError("orb_deg", "each orb is above 0 and at most 10")
            orbs[body] = float(value)
    birth, natal = natal_points(subject)
    jd0, jd1 = ephemeris.julian_day(t0), ephemeris.julian_day(t1)
    out: list[tuple[float, Transit]] = []
    with ephemeris.held_tropical() as position:
        for body in TRANSITING:
            step = _STEP[body]
            track = Track(body, jd0 - step, jd1 + step, step, position)
            pieces = [
                (max(a, jd0), min(b, jd1), direct)
                for a, b, direct in _pieces(track, position)
                if b > jd0 and a < jd1
            ]
            orb = orbs[body]
            for point, natal_lon in natal.items():
                for aspect, angle in ASPECT_ANGLES:
                    targets = {(natal_lon + angle) % 360.0, (natal_lon - angle) % 360.0}
                    for target in sorted(targets):
                        found = _contacts(track, position, pieces, target, orb, jd0, jd1)
                        for first, enters, exact, leaves in found:
                            out.append(
                                (
                                    first,
                                    Transit(body, point, aspect, natal_lon, enters, exact, leaves),
                                )
                            )
    out.sort(key=lambda item: (item[0], item[1].transiting, item[1].natal))
    return Forecast(
        birth=birth,
        start=t0.replace(microsecond=0),
        end=t1.replace(microsecond=0),
        orb_deg=orbs,
        transits=tuple(t for _, t in out),
    )


def _contacts(
    track: Track,
    position: Position,
    pieces: list[tuple[float, float, bool]],
    target: float,
    orb: float,
    jd0: float,
    jd1: float,
) -> list[tuple[float, datetime | None, tuple[datetime, ...], datetime | None]]:
    """The contacts with one target longitude: crossings of target - orb, target and
    target + orb, walked in time order."""
    # Quick reject: the body never comes near the target in the window.
    near = False
    for a, b, _direct in pieces:
        la, lb = track.longitude(a), track.longitude(b)
        half = abs(angle_diff(lb, la)) / 2.0
        mid = (la + angle_diff(lb, la) / 2.0) % 360.0
        if abs(angle_diff(target, mid)) <= half + orb + 1e-6:
            near = True
            break
    if not near:
        return []
    marks: list[tuple[float, str]] = []
    for a, b, direct in pieces:
        for label, value in (("low", target - orb), ("exact", target), ("high", target + orb)):
            for jd in _crossings(track, position, value % 360.0, a, b, direct):
                marks.append((jd, label))
    marks.sort()
    inside = abs(angle_diff(ephemeris_longitude(track, jd0), target)) <= orb
    contacts: list[tuple[float, float | None, list[float], float | None]] = []
    enters: float | None = None
    exact: list[float] = []
    first = jd0
    for jd, label in marks:
        if label == "exact":
            if not inside:  # grazing the exact point from the orb's edge cannot happen
                inside = True
                enters = jd
            exact.append(jd)
            continue
        # An orb edge: crossing it toggles in/out.
        if inside:
            contacts.append((first, enters, exact, jd))
            inside, enters, exact = False, None, []
        else:
            inside, enters, first = True, jd, jd
    if inside:
        contacts.append((first, enters, exact, None))
    # One transit across a retrograde loop: a contact left and entered again with a station
    # in between continues the same transit (the three passes of a loop are one transit).
    stations = [piece[1] for piece in pieces[:-1]]
    merged: list[tuple[float, float | None, list[float], float | None]] = []
    for contact in contacts:
        if merged:
            prev = merged[-1]
            left, entered = prev[3], contact[1]
            if (
                left is not None
                and entered is not None
                and any(left <= st <= entered for st in stations)
            ):
                merged[-1] = (prev[0], prev[1], prev[2] + contact[2], contact[3])
                continue
        merged.append(contact)
    return [
        (
            f,
            utc_second(e) if e is not None else None,
            tuple(utc_second(x) for x in xs),
            utc_second(leave) if leave is not None else None,
        )
        for f, e, xs, leave in merged
    ]


def ephemeris_longitude(track: Track, jd: float) -> float:
    """The body's longitude at ``jd`` from the ephemeris (the track's own function)."""
    return track.position(jd, track.body).longitude
