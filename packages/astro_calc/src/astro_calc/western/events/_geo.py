"""Sidereal time, equatorial coordinates and altitudes: the small spherical astronomy the
eclipses' local circumstances and the planetary hours share.

Greenwich mean sidereal time by the IAU 1982 formula (Meeus, *Astronomical Algorithms*,
eq. 12.4); the equation of the equinoxes (at most 1.2 s) is left out. Ecliptic to equatorial
with the true obliquity of date (Meeus eq. 13.3, 13.4).
"""

from __future__ import annotations

import math

from astro_calc import ephemeris


def gmst_deg(jd_ut: float) -> float:
    """Greenwich mean sidereal time in degrees."""
    t = (jd_ut - 2451545.0) / 36525.0
    theta = (
        280.46061837
        + 360.98564736629 * (jd_ut - 2451545.0)
        + 0.000387933 * t * t
        - t * t * t / 38710000.0
    )
    return theta % 360.0


def equatorial(lon_deg: float, lat_deg: float, obliquity_deg: float) -> tuple[float, float]:
    """(right ascension, declination) in radians of an ecliptic position."""
    eps = math.radians(obliquity_deg)
    lam, beta = math.radians(lon_deg), math.radians(lat_deg)
    ra = math.atan2(math.sin(lam) * math.cos(eps) - math.tan(beta) * math.sin(eps), math.cos(lam))
    dec = math.asin(math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam))
    return ra, dec


def altitude(
    jd_ut: float, lon_deg: float, lat_deg: float, latitude: float, longitude: float
) -> float:
    """Geometric altitude (degrees, seen from the Earth's centre) of an ecliptic position."""
    ra, dec = equatorial(lon_deg, lat_deg, ephemeris.obliquity(jd_ut))
    hour_angle = math.radians(gmst_deg(jd_ut) + longitude) - ra
    phi = math.radians(latitude)
    sin_h = math.sin(phi) * math.sin(dec) + math.cos(phi) * math.cos(dec) * math.cos(hour_angle)
    return math.degrees(math.asin(max(-1.0, min(1.0, sin_h))))


def observer_vector(jd_ut: float, latitude: float, longitude: float) -> tuple[float, float, float]:
    """The observer's geocentric position in Earth equatorial radii, in ecliptic coordinates of
    date (WGS84 flattening, sea level)."""
    f = 1.0 / 298.257223563
    phi = math.radians(latitude)
    u = math.atan((1.0 - f) * math.tan(phi))
    rho_cos = math.cos(u)
    rho_sin = (1.0 - f) * math.sin(u)
    theta = math.radians(gmst_deg(jd_ut) + longitude)
    xq, yq, zq = rho_cos * math.cos(theta), rho_cos * math.sin(theta), rho_sin
    eps = math.radians(ephemeris.obliquity(jd_ut))
    return (
        xq,
        yq * math.cos(eps) + zq * math.sin(eps),
        -yq * math.sin(eps) + zq * math.cos(eps),
    )
