"""Solar and lunar eclipses from our own shadow geometry on the ephemeris's positions.

Solar (Besselian geometry): the shadow axis joins the Sun and the Moon (apparent geocentric
positions, Earth radii). ``gamma`` is the axis's least distance from the Earth's centre
(positive north of it); the global greatest eclipse is the instant of that least distance
(NASA's definition). On the fundamental plane (through the Earth's centre, perpendicular to the
axis) the penumbra has radius ``l1`` and the umbra ``l2`` (negative when the umbra reaches the
plane); the Earth's flattening (e^2 = 0.00669438) scales the axis's northern coordinate. Central
eclipses (the axis meets the Earth) are ``total`` when the umbra reaches the ground at the point
of greatest eclipse, ``annular`` when it does not, ``hybrid`` when it does there but not at the
fundamental plane (the path's ends); non-central umbral contacts keep the umbra's type; otherwise
``partial``. Radii: the Sun 696,000 km, the Moon k = 0.2725076 (penumbra) and 0.272281 (umbra),
as NASA/Espenak's canons.

Lunar: the Moon's centre against the shadow axis (the antisolar point). Shadow radii by Danjon's
rule (the Earth's radius enlarged by 1/85): umbra 1.01176 * parallax(Moon) + parallax(Sun) -
semidiameter(Sun), penumbra the same with + semidiameter(Sun). ``magnitude`` is the umbral
magnitude, ``penumbral_magnitude`` the penumbral; ``total`` at umbral magnitude >= 1,
``partial`` above 0, else ``penumbral`` when the penumbral magnitude is above 0.

Local circumstances (optional, for a place at sea level): for the Sun, the Moon and the Sun
seen from the place (topocentric: the observer's position on the WGS84 ellipsoid subtracted from
the geocentric vectors): ``maximum`` when their centres are closest, the contacts ``first`` and
``fourth`` (the discs touch outside) and, for a total or annular eclipse there, ``second`` and
``third`` (inside), the local ``magnitude`` (fraction of the Sun's diameter covered) and type.
For the Moon the contacts are the global ones (``penumbral_begin``, ``partial_begin``,
``total_begin``, ``total_end``, ``partial_end``, ``penumbral_end``, as far as the eclipse has
them). ``altitude_at_maximum`` is the eclipsed body's altitude (the Moon's corrected for its
parallax); ``visible`` is whether its upper limb is above the refracted horizon (-34') at some
moment between the first and the last contact. A solar eclipse whose discs meet only through the
Earth (the Sun down throughout) is ``eclipse_type`` "none" there, with no contacts.

Checked against: pyswisseph's ``sol_eclipse_when_glob`` and ``lun_eclipse_when`` (the same
types; greatest eclipse within a minute) and NASA/Espenak's Five Millennium Canon dates and types
in ``tests/test_western_events.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Final, Literal

import msgspec

from astro_calc.search import refine_root
from astro_calc.western.events._geo import altitude, observer_vector
from astro_calc.western.events._track import Position, utc_second

EARTH_RADIUS_KM: Final = 6378.137
AU_KM: Final = 149_597_870.7
SUN_RADIUS_ER: Final = 696_000.0 / EARTH_RADIUS_KM
MOON_K_PENUMBRA: Final = 0.2725076
MOON_K_UMBRA: Final = 0.272281
EARTH_E2: Final = 0.00669438
DANJON: Final = 1.0 + 1.0 / 85.0
#: The Moon's geocentric latitude beyond which no eclipse happens at a syzygy (degrees; the
#: solar limit is about 1.58, the penumbral lunar about 1.6): a cheap first screen.
_SOLAR_SCREEN_DEG: Final = 1.75
_LUNAR_SCREEN_DEG: Final = 1.75
_OBLIQUITY_J2000: Final = math.radians(23.4392911)


class LocalCircumstances(msgspec.Struct, frozen=True):
    latitude: float
    longitude: float
    eclipse_type: str  # total, annular, partial, penumbral, or "none" (not seen from there)
    magnitude: float
    maximum: datetime
    contacts: dict[str, datetime]
    altitude_at_maximum: float
    visible: bool


class FoundEclipse(msgspec.Struct, frozen=True):
    jd_ut: float
    body: Literal["sun", "moon"]
    eclipse_type: str
    magnitude: float
    gamma: float
    penumbral_magnitude: float | None = None
    local: LocalCircumstances | None = None


def _vector(lon: float, lat: float, dist_er: float) -> tuple[float, float, float]:
    lo, la = math.radians(lon), math.radians(lat)
    c = math.cos(la)
    return dist_er * c * math.cos(lo), dist_er * c * math.sin(lo), dist_er * math.sin(la)


class _Solar(msgspec.Struct, frozen=True):
    x: float
    y: float
    l1: float
    l2: float
    tan_f1: float
    tan_f2: float
    rho1: float


def _solar_geometry(jd: float, at: Position) -> _Solar:
    m, s = at(jd, "moon"), at(jd, "sun")
    mv = _vector(m.longitude, m.latitude, m.distance_au * AU_KM / EARTH_RADIUS_KM)
    sv = _vector(s.longitude, s.latitude, s.distance_au * AU_KM / EARTH_RADIUS_KM)
    u = (sv[0] - mv[0], sv[1] - mv[1], sv[2] - mv[2])
    g = math.sqrt(u[0] ** 2 + u[1] ** 2 + u[2] ** 2)
    d = (u[0] / g, u[1] / g, u[2] / g)
    # The celestial north pole in ecliptic coordinates (the obliquity's drift over centuries
    # moves it by arcseconds: negligible for the flattening factor and the sign of gamma).
    pole = (0.0, math.sin(_OBLIQUITY_J2000), math.cos(_OBLIQUITY_J2000))
    nd = pole[0] * d[0] + pole[1] * d[1] + pole[2] * d[2]
    yv = (pole[0] - nd * d[0], pole[1] - nd * d[1], pole[2] - nd * d[2])
    yn = math.sqrt(yv[0] ** 2 + yv[1] ** 2 + yv[2] ** 2)
    yh = (yv[0] / yn, yv[1] / yn, yv[2] / yn)
    xh = (yh[1] * d[2] - yh[2] * d[1], yh[2] * d[0] - yh[0] * d[2], yh[0] * d[1] - yh[1] * d[0])
    z = mv[0] * d[0] + mv[1] * d[1] + mv[2] * d[2]
    x = mv[0] * xh[0] + mv[1] * xh[1] + mv[2] * xh[2]
    y = mv[0] * yh[0] + mv[1] * yh[1] + mv[2] * yh[2]
    sin_f1 = (SUN_RADIUS_ER + MOON_K_PENUMBRA) / g
    sin_f2 = (SUN_RADIUS_ER - MOON_K_UMBRA) / g
    cos_f1 = math.sqrt(1 - sin_f1 * sin_f1)
    cos_f2 = math.sqrt(1 - sin_f2 * sin_f2)
    tan_f1, tan_f2 = sin_f1 / cos_f1, sin_f2 / cos_f2
    l1 = z * tan_f1 + MOON_K_PENUMBRA / cos_f1
    l2 = z * tan_f2 - MOON_K_UMBRA / cos_f2
    rho1 = math.sqrt(1.0 - EARTH_E2 * (1.0 - nd * nd))
    return _Solar(x, y, l1, l2, tan_f1, tan_f2, rho1)


def _lunar_geometry(jd: float, at: Position) -> tuple[float, float, float, float]:
    """(distance of the Moon's centre from the shadow axis, umbra radius, penumbra radius, the
    Moon's semidiameter), all in degrees."""
    m, s = at(jd, "moon"), at(jd, "sun")
    lam = math.radians(m.longitude - s.longitude - 180.0)
    b1, b2 = math.radians(m.latitude), math.radians(-s.latitude)
    cos_d = math.sin(b1) * math.sin(b2) + math.cos(b1) * math.cos(b2) * math.cos(lam)
    delta = math.degrees(math.acos(max(-1.0, min(1.0, cos_d))))
    moon_km = m.distance_au * AU_KM
    sun_km = s.distance_au * AU_KM
    par_m = math.degrees(math.asin(EARTH_RADIUS_KM / moon_km))
    par_s = math.degrees(math.asin(EARTH_RADIUS_KM / sun_km))
    sd_s = math.degrees(math.asin(696_000.0 / sun_km))
    sd_m = math.degrees(math.asin(MOON_K_PENUMBRA * EARTH_RADIUS_KM / moon_km))
    umbra = DANJON * par_m + par_s - sd_s
    penumbra = DANJON * par_m + par_s + sd_s
    return delta, umbra, penumbra, sd_m


def _least(measure: Callable[[float], float], jd: float) -> float:
    """The instant near ``jd`` (within 0.3 day) where ``measure`` is least: the root of its
    central-difference derivative (h = 20 s), refined to 0.05 s."""
    h = 20.0 / 86400.0

    def slope(t: float) -> float:
        return (measure(t + h) - measure(t - h)) / (2 * h)

    lo, hi = jd - 0.3, jd + 0.3
    return refine_root(slope, lo, hi, tolerance_s=0.05)


def eclipse_near(
    jd_syzygy: float,
    solar: bool,
    at: Position,
    place: tuple[float, float] | None = None,
) -> FoundEclipse | None:
    """The eclipse at a new (``solar``) or full Moon, or None; with its local circumstances at
    ``place`` (latitude, longitude) when given."""
    moon = at(jd_syzygy, "moon")
    if abs(moon.latitude) > (_SOLAR_SCREEN_DEG if solar else _LUNAR_SCREEN_DEG):
        return None
    found = _solar(jd_syzygy, at) if solar else _lunar(jd_syzygy, at)
    if found is None or place is None:
        return found
    local = (_solar_local if solar else _lunar_local)(found.jd_ut, at, *place)
    return msgspec.structs.replace(found, local=local)


def _root_or_none(f: Callable[[float], float], lo: float, hi: float) -> float | None:
    a, b = f(lo), f(hi)
    if (a > 0) == (b > 0):
        return None
    return refine_root(f, lo, hi, tolerance_s=0.2, known=(a, b))


def _topocentric(jd: float, at: Position, lat: float, lon: float) -> tuple[float, float, float]:
    """(separation of the centres, the Moon's and the Sun's semidiameters), degrees, seen from
    the place."""
    m, s = at(jd, "moon"), at(jd, "sun")
    o = observer_vector(jd, lat, lon)
    mv = _vector(m.longitude, m.latitude, m.distance_au * AU_KM / EARTH_RADIUS_KM)
    sv = _vector(s.longitude, s.latitude, s.distance_au * AU_KM / EARTH_RADIUS_KM)
    a = (mv[0] - o[0], mv[1] - o[1], mv[2] - o[2])
    b = (sv[0] - o[0], sv[1] - o[1], sv[2] - o[2])
    cross = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    sep = math.degrees(math.atan2(math.sqrt(sum(c * c for c in cross)), dot))
    da = math.sqrt(sum(c * c for c in a))
    db = math.sqrt(sum(c * c for c in b))
    return (
        sep,
        math.degrees(math.asin(MOON_K_PENUMBRA / da)),
        math.degrees(math.asin(SUN_RADIUS_ER / db)),
    )


def _visible(first: float, last: float, above: Callable[[float], float], maximum: float) -> bool:
    """Whether ``above`` (the upper limb's height over the refracted horizon) is positive at
    some moment of [first, last] (checked at the ends, the maximum and every five minutes)."""
    t = first
    while t < last:
        if above(t) > 0.0:
            return True
        t += 5.0 / 1440.0
    return above(last) > 0.0 or above(maximum) > 0.0


def _solar_local(jd_global: float, at: Position, lat: float, lon: float) -> LocalCircumstances:
    def sep(t: float) -> float:
        return _topocentric(t, at, lat, lon)[0]

    jd = _least(sep, jd_global)
    distance, sd_m, sd_s = _topocentric(jd, at, lat, lon)
    sun = at(jd, "sun")
    alt_max = altitude(jd, sun.longitude, sun.latitude, lat, lon)
    if distance >= sd_m + sd_s:
        return LocalCircumstances(lat, lon, "none", 0.0, utc_second(jd), {}, alt_max, False)

    def outer(t: float) -> float:
        d, m, s = _topocentric(t, at, lat, lon)
        return d - (m + s)

    def inner(t: float) -> float:
        d, m, s = _topocentric(t, at, lat, lon)
        return d - abs(s - m)

    contacts: dict[str, float] = {}
    for name, f, lo, hi in (
        ("first", outer, jd - 0.3, jd),
        ("second", inner, jd - 0.1, jd),
        ("third", inner, jd, jd + 0.1),
        ("fourth", outer, jd, jd + 0.3),
    ):
        root = _root_or_none(f, lo, hi)
        if root is not None:
            contacts[name] = root
    central = distance < abs(sd_s - sd_m)
    kind = ("total" if sd_m > sd_s else "annular") if central else "partial"
    magnitude = (sd_s + sd_m - distance) / (2.0 * sd_s)

    def above(t: float) -> float:
        p = at(t, "sun")
        return altitude(t, p.longitude, p.latitude, lat, lon) + 34.0 / 60.0 + sd_s

    first = contacts.get("first", jd - 0.3)
    last = contacts.get("fourth", jd + 0.3)
    if not _visible(first, last, above, jd):
        # The discs overlap only through the Earth: the Sun is down for the whole eclipse.
        return LocalCircumstances(lat, lon, "none", 0.0, utc_second(jd), {}, alt_max, False)
    return LocalCircumstances(
        lat,
        lon,
        kind,
        round(magnitude, 4),
        utc_second(jd),
        {k: utc_second(v) for k, v in contacts.items()},
        round(alt_max, 3),
        True,
    )


def _moon_topocentric_altitude(t: float, at: Position, lat: float, lon: float) -> float:
    m = at(t, "moon")
    h = altitude(t, m.longitude, m.latitude, lat, lon)
    parallax = math.degrees(math.asin(EARTH_RADIUS_KM / (m.distance_au * AU_KM)))
    return h - parallax * math.cos(math.radians(h))


def _lunar_local(jd: float, at: Position, lat: float, lon: float) -> LocalCircumstances:
    delta, umbra, _penumbra, sd_m = _lunar_geometry(jd, at)
    umbral = (umbra + sd_m - delta) / (2 * sd_m)
    kind = "total" if umbral >= 1.0 else "partial" if umbral > 0.0 else "penumbral"

    def level(which: str) -> Callable[[float], float]:
        def f(t: float) -> float:
            d, u, p, s = _lunar_geometry(t, at)
            edge = {"penumbral": p + s, "partial": u + s, "total": u - s}[which]
            return d - edge

        return f

    contacts: dict[str, float] = {}
    for which in ("penumbral", "partial", "total"):
        f = level(which)
        begin = _root_or_none(f, jd - 0.3, jd)
        end = _root_or_none(f, jd, jd + 0.3)
        if begin is not None and end is not None:
            contacts[f"{which}_begin"] = begin
            contacts[f"{which}_end"] = end

    def above(t: float) -> float:
        return _moon_topocentric_altitude(t, at, lat, lon) + 34.0 / 60.0 + sd_m

    first = contacts.get("penumbral_begin", jd)
    last = contacts.get("penumbral_end", jd)
    ordered = sorted(contacts.items(), key=lambda kv: kv[1])
    return LocalCircumstances(
        lat,
        lon,
        kind,
        round(umbral, 4),
        utc_second(jd),
        {k: utc_second(v) for k, v in ordered},
        round(_moon_topocentric_altitude(jd, at, lat, lon), 3),
        _visible(first, last, above, jd),
    )


def _solar(jd_syzygy: float, at: Position) -> FoundEclipse | None:
    def axis_distance(t: float) -> float:
        g = _solar_geometry(t, at)
        return g.x * g.x + g.y * g.y

    jd = _least(axis_distance, jd_syzygy)
    g = _solar_geometry(jd, at)
    y1 = g.y / g.rho1
    m = math.sqrt(g.x * g.x + y1 * y1)
    gamma = math.copysign(math.sqrt(g.x * g.x + g.y * g.y), g.y)
    if m >= 1.0 + g.l1:
        return None
    if m < 1.0:
        zeta = math.sqrt(1.0 - m * m)
        l1s = g.l1 - zeta * g.tan_f1
        l2s = g.l2 - zeta * g.tan_f2
        kind = ("hybrid" if g.l2 > 0.0 else "total") if l2s < 0.0 else "annular"
        magnitude = (l1s - l2s) / (l1s + l2s)
    else:
        kind = ("total" if g.l2 < 0.0 else "annular") if m < 1.0 + abs(g.l2) else "partial"
        magnitude = (g.l1 - (m - 1.0)) / (g.l1 + g.l2)
    return FoundEclipse(jd, "sun", kind, round(magnitude, 4), round(gamma, 4))


def _lunar(jd_syzygy: float, at: Position) -> FoundEclipse | None:
    def axis_distance(t: float) -> float:
        return _lunar_geometry(t, at)[0]

    jd = _least(axis_distance, jd_syzygy)
    delta, umbra, penumbra, sd_m = _lunar_geometry(jd, at)
    umbral = (umbra + sd_m - delta) / (2 * sd_m)
    penumbral = (penumbra + sd_m - delta) / (2 * sd_m)
    if penumbral <= 0.0:
        return None
    kind = "total" if umbral >= 1.0 else "partial" if umbral > 0.0 else "penumbral"
    m = at(jd, "moon")
    gamma_er = math.radians(delta) * m.distance_au * AU_KM / EARTH_RADIUS_KM
    return FoundEclipse(
        jd,
        "moon",
        kind,
        round(umbral, 4),
        round(math.copysign(gamma_er, m.latitude), 4),
        penumbral_magnitude=round(penumbral, 4),
    )
