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

Checked against: pyswisseph's ``sol_eclipse_when_glob`` and ``lun_eclipse_when`` (the same
types; greatest eclipse within a minute) and NASA/Espenak's Five Millennium Canon dates and types
in ``tests/test_western_events.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, Literal

import msgspec

from astro_calc.search import refine_root
from astro_calc.western.events._track import Position

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


class FoundEclipse(msgspec.Struct, frozen=True):
    jd_ut: float
    body: Literal["sun", "moon"]
    eclipse_type: str
    magnitude: float
    gamma: float
    penumbral_magnitude: float | None = None


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


def eclipse_near(jd_syzygy: float, solar: bool, at: Position) -> FoundEclipse | None:
    """The eclipse at a new (``solar``) or full Moon, or None."""
    moon = at(jd_syzygy, "moon")
    if abs(moon.latitude) > (_SOLAR_SCREEN_DEG if solar else _LUNAR_SCREEN_DEG):
        return None
    return _solar(jd_syzygy, at) if solar else _lunar(jd_syzygy, at)


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
