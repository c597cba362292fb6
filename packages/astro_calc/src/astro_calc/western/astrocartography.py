"""Astrocartography (A*C*G): where on Earth each body stood on an angle at the birth instant.

Conventions
-----------
* **In mundo** (the default, Jim Lewis's A*C*G): a body is on the MC where its hour angle is 0,
  on the IC where it is 180 degrees, on the ASC where its geocentric altitude is 0 in the east
  (rising) and on the DSC where it is 0 in the west (setting). The body's apparent geocentric
  right ascension and declination of date at the birth instant are used (true obliquity, with
  nutation; no parallax, no refraction, the centre of the disc). The Earth's rotation is the
  only thing that moves: the Greenwich apparent sidereal time ``gast`` fixes every line.
  With ``H0 = arccos(-tan(lat) tan(dec))``, the lines are at longitude (east positive)
  ``ra - gast`` (MC), ``ra - gast + 180`` (IC), ``ra - gast - H0`` (ASC), ``ra - gast + H0``
  (DSC), in -180..180.
* **Zodiacal** (``zodiacal=True``, "in zodiaco"): the body's ecliptic longitude is taken on the
  ecliptic (latitude 0): the MC line is where that degree culminates (the chart's MC equals the
  body's longitude), the ASC line where it is the ascendant.
* **Circumpolar latitudes** are left out: a body of declination ``dec`` neither rises nor sets
  beyond latitude ``90 - |dec|`` (always up on the side of its declination, never up on the
  other), so its ASC and DSC curves stop there, meeting at one point where the body grazes the
  horizon. Each body's limit is in ``circumpolar``, and a warning says so.
* Points run every ``step_deg`` of latitude (default 1, at most 2) from -:data:`MAX_LATITUDE` to
  +:data:`MAX_LATITUDE`. A curve crossing the antimeridian is split into several line objects,
  each ending exactly on +-180 (the crossing latitude is solved, not interpolated).
* **Parans** (``parans=True``): latitudes where two bodies are on angles at the same moment of
  the day (the sidereal time at which one is on its angle equals the one at which the other is on
  its). Meridian-meridian pairs are left out (they hold at no particular latitude). Each is given
  as a band of +-``paran_orb_deg`` of latitude (default 1).
* **Local space** (``local_space=True``): from the birth place, the great circle towards each
  body's azimuth (from north, through east), sampled every 2 degrees of arc all round the
  Earth; the body's azimuth and altitude (geocentric, no refraction) are given too.

Checked against: every point against pyswisseph's own ``azalt`` (altitude, ECL2HOR without
refraction) and ``sidtime`` + equatorial ``calc_ut`` (hour angle), to 1e-6 degrees; zodiacal
lines against ``houses_ex`` (the MC or ascendant equals the body's longitude); parans against
both bodies' altitudes and hour angles at the paran's sidereal time
(``tests/test_western_astrocartography.py``).
Reference: Jim Lewis, *The Psychology of Astro*Carto*Graphy* (1997), and the spherical
astronomy of Meeus, *Astronomical Algorithms* (2nd ed.), ch. 13 and 15.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Final, Literal

import msgspec
import numpy as np

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.natal import PLANETS, WESTERN_BODIES, cached_positions
from astro_calc.western.subject import BirthSubject, SubjectTime, resolve_subject

AngleName = Literal["mc", "ic", "asc", "dsc"]
ANGLES: Final[tuple[AngleName, ...]] = ("mc", "ic", "asc", "dsc")
#: The bodies drawn when none are named: the ten planets and the true node.
DEFAULT_ACG_BODIES: Final = (*PLANETS, "true_node")
#: Lines run from -MAX_LATITUDE to +MAX_LATITUDE (beyond, every meridian crowds together).
MAX_LATITUDE: Final = 85.0
DEFAULT_STEP_DEG: Final = 1.0
MAX_STEP_DEG: Final = 2.0
MIN_STEP_DEG: Final = 0.1
DEFAULT_PARAN_ORB_DEG: Final = 1.0
MAX_PARAN_ORB_DEG: Final = 5.0
#: Local space lines are sampled every LOCAL_SPACE_STEP_DEG of great-circle arc.
LOCAL_SPACE_STEP_DEG: Final = 2.0
_RAD: Final = math.pi / 180.0
_DEG: Final = 180.0 / math.pi


class GeoPoint(msgspec.Struct, frozen=True, gc=False):
    """A place on the Earth: ``latitude`` (north positive) and ``longitude`` (east positive)."""

    latitude: float
    longitude: float


class AcgLine(msgspec.Struct, frozen=True, gc=False):
    """One line (or one piece of it, split at the antimeridian): ``body`` on ``angle``."""

    body: str
    angle: AngleName
    points: tuple[GeoPoint, ...]


class BodyEquatorial(msgspec.Struct, frozen=True, gc=False):
    """The coordinates a body's lines come from: apparent ``right_ascension`` and
    ``declination`` of date (degrees; of its ecliptic degree with ``zodiacal``) and its ecliptic
    ``longitude``."""

    body: str
    right_ascension: float
    declination: float
    longitude: float


class Circumpolar(msgspec.Struct, frozen=True, gc=False):
    """Where a body's ASC and DSC curves stop: beyond ``latitude_limit`` (degrees, positive) on
    the ``always_above`` side ("north" or "south") the body never sets, on the other it never
    rises."""

    body: str
    latitude_limit: float
    always_above: Literal["north", "south"]


class Paran(msgspec.Struct, frozen=True, gc=False):
    """``body_a`` on ``angle_a`` while ``body_b`` is on ``angle_b``, at ``latitude`` (the band
    ``latitude_min``..``latitude_max``), when the local sidereal time is
    ``sidereal_time_deg``."""

    body_a: str
    angle_a: AngleName
    body_b: str
    angle_b: AngleName
    latitude: float
    latitude_min: float
    latitude_max: float
    sidereal_time_deg: float


class LocalSpaceLine(msgspec.Struct, frozen=True, gc=False):
    """The great circle from the birth place towards ``body`` (``azimuth`` from north through
    east, ``altitude``, degrees); split at the antimeridian like the A*C*G lines."""

    body: str
    azimuth: float
    altitude: float
    points: tuple[GeoPoint, ...]


class AcgMeta(msgspec.Struct, frozen=True, gc=False):
    utc: datetime
    julian_day: float
    #: Greenwich apparent sidereal time at birth, degrees.
    sidereal_time_deg: float
    latitude: float
    longitude: float
    method: Literal["in_mundo", "zodiacal"]
    step_deg: float
    ephemeris: str
    warnings: tuple[str, ...]


class Astrocartography(msgspec.Struct, frozen=True, gc=False):
    lines: tuple[AcgLine, ...]
    bodies: tuple[BodyEquatorial, ...]
    circumpolar: tuple[Circumpolar, ...]
    parans: tuple[Paran, ...]
    local_space: tuple[LocalSpaceLine, ...]
    meta: AcgMeta


# --- geometry -------------------------------------------------------------------------------------


def wrap180(value: float) -> float:
    """A longitude in [-180, 180)."""
    return (value + 180.0) % 360.0 - 180.0


def equatorial(longitude: float, latitude: float, obliquity_deg: float) -> tuple[float, float]:
    """Right ascension (0..360) and declination of an ecliptic position (Meeus eq. 13.3, 13.4)."""
    lam, beta, eps = longitude * _RAD, latitude * _RAD, obliquity_deg * _RAD
    ra = math.atan2(math.sin(lam) * math.cos(eps) - math.tan(beta) * math.sin(eps), math.cos(lam))
    dec = math.asin(math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam))
    return (ra * _DEG) % 360.0, dec * _DEG


def semi_arc(latitude: np.ndarray, declination: float) -> np.ndarray:
    """The diurnal semi-arc H0 (degrees, 0..180) at each latitude: the hour angle of setting,
    ``arccos(-tan(lat) tan(dec))``, clipped at the circumpolar limit."""
    cos_h0 = -np.tan(latitude * _RAD) * math.tan(declination * _RAD)
    result: np.ndarray = np.arccos(np.clip(cos_h0, -1.0, 1.0)) * _DEG
    return result


def circumpolar_limit(declination: float) -> float:
    """The latitude (positive) beyond which a body of this declination does not rise or set."""
    return 90.0 - abs(declination)


def _latitudes(limit: float, step: float) -> np.ndarray:
    """The sampled latitudes within +-limit, the limit itself included."""
    n = math.floor(limit / step + 1e-9)
    grid = np.arange(-n, n + 1, dtype=float) * step
    if limit - n * step > 1e-9:
        grid = np.concatenate(([-limit], grid, [limit]))
    return grid


def _pieces(
    lats: list[float], lons: list[float], crossing: Callable[[float], float]
) -> list[list[tuple[float, float]]]:
    """Split a curve given with continuous (unwrapped) longitudes where it crosses +-180;
    ``crossing(target_unwrapped_longitude)`` gives the exact latitude of a crossing."""
    pieces: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    previous_turn: int | None = None
    for lat, lon in zip(lats, lons, strict=True):
        turn = math.floor((lon + 180.0) / 360.0)
        if previous_turn is not None and turn != previous_turn:
            step = 1 if turn > previous_turn else -1
            for k in range(previous_turn, turn, step):
                boundary = 360.0 * (k + (1 if step > 0 else 0)) - 180.0
                at = crossing(boundary)
                end = 180.0 if step > 0 else -180.0
                current.append((float(at), end))
                pieces.append(current)
                current = [(float(at), -end)]
        current.append((lat, lon - 360.0 * turn))
        previous_turn = turn
    if current:
        pieces.append(current)
    return [p for p in pieces if len(p) >= 2]


def _points(piece: list[tuple[float, float]]) -> tuple[GeoPoint, ...]:
    return tuple([GeoPoint(lat, 180.0 if lon == 180.0 else wrap180(lon)) for lat, lon in piece])


def _meridian(body: str, angle: AngleName, longitude: float, step: float) -> AcgLine:
    lon = wrap180(longitude)
    grid = _latitudes(MAX_LATITUDE, step)
    return AcgLine(body, angle, tuple([GeoPoint(float(lat), lon) for lat in grid]))


def _horizon_lines(
    body: str, ra: float, dec: float, gast: float, step: float
) -> tuple[list[AcgLine], Circumpolar | None]:
    limit = circumpolar_limit(dec)
    grid = _latitudes(min(limit, MAX_LATITUDE), step)
    h0 = semi_arc(grid, dec)
    base = ra - gast
    # Unwrapped so the curve is continuous; the crossing solver inverts H0 exactly.
    offset = 360.0 * math.floor((base + 180.0) / 360.0)
    tan_dec = math.tan(dec * _RAD)
    lines: list[AcgLine] = []
    lats = [float(x) for x in grid]
    for angle, sign in (("asc", -1.0), ("dsc", 1.0)):
        lons = [float(x) for x in (base - offset + sign * h0)]

        def crossing(target: float, sign: float = sign) -> float:
            h = ((target - (base - offset)) * sign) % 360.0
            if tan_dec == 0.0:
                return 0.0
            return math.atan(-math.cos(h * _RAD) / tan_dec) * _DEG

        for piece in _pieces(lats, lons, crossing):
            lines.append(AcgLine(body, angle, _points(piece)))  # type: ignore[arg-type]
    polar = None
    if limit < MAX_LATITUDE:
        polar = Circumpolar(body, limit, "north" if dec > 0 else "south")
    return lines, polar


# --- parans ---------------------------------------------------------------------------------------

#: Each angle as (offset, sign): the sidereal time at which a body is on it is
#: ``ra + offset + sign * H0(latitude)``.
_ANGLE_TERMS: Final[dict[str, tuple[float, float]]] = {
    "mc": (0.0, 0.0),
    "ic": (180.0, 0.0),
    "asc": (0.0, -1.0),
    "dsc": (0.0, 1.0),
}
_PARAN_GRID_STEP: Final = 0.25


def _wrap(values: np.ndarray) -> np.ndarray:
    wrapped: np.ndarray = (values + 180.0) % 360.0 - 180.0
    return wrapped


def _parans(equ: list[BodyEquatorial], orb: float) -> list[Paran]:
    """Every paran latitude: on a 0.25-degree grid (plus each body's circumpolar limit) the
    sidereal times at which each body is on
    each angle are compared for every pair, and each sign change of their difference (not a
    wrap of +-180) is refined by bisection, all brackets at once, to 1e-12 degrees."""
    n = round(MAX_LATITUDE / _PARAN_GRID_STEP)
    # The circumpolar limits join the grid: near one, H0 changes fastest.
    limits = [circumpolar_limit(e.declination) for e in equ]
    extra = [x for lim in limits if lim < MAX_LATITUDE for x in (-lim, lim)]
    grid = np.unique(np.concatenate((np.arange(-n, n + 1, dtype=float) * _PARAN_GRID_STEP, extra)))
    combos: list[tuple[int, AngleName, int, AngleName]] = []
    diffs: list[np.ndarray] = []
    ramc: dict[tuple[int, str], np.ndarray] = {}
    for i, e in enumerate(equ):
        # Beyond the circumpolar limit H0 is held at 0 or 180 (clipped): a bracket across the
        # limit still holds a root below it, and roots beyond it are dropped below.
        h0 = semi_arc(grid, e.declination)
        for angle, (offset, sign) in _ANGLE_TERMS.items():
            ramc[(i, angle)] = e.right_ascension + offset + sign * h0
    for i in range(len(equ)):
        for j in range(i + 1, len(equ)):
            for angle_a in ANGLES:
                for angle_b in ANGLES:
                    if angle_a in ("mc", "ic") and angle_b in ("mc", "ic"):
                        continue
                    combos.append((i, angle_a, j, angle_b))
                    diffs.append(ramc[(i, angle_a)] - ramc[(j, angle_b)])
    if not combos:
        return []
    f = _wrap(np.array(diffs))
    left, right = f[:, :-1], f[:, 1:]
    bracket = (left * right <= 0.0) & (np.abs(left) < 90.0) & (np.abs(right) < 90.0)
    rows, cols = np.nonzero(bracket)
    if len(rows) == 0:
        return []
    ra_a = np.array([equ[combos[r][0]].right_ascension for r in rows])
    ra_b = np.array([equ[combos[r][2]].right_ascension for r in rows])
    tan_a = np.tan(np.array([equ[combos[r][0]].declination for r in rows]) * _RAD)
    tan_b = np.tan(np.array([equ[combos[r][2]].declination for r in rows]) * _RAD)
    off_a = np.array([_ANGLE_TERMS[combos[r][1]][0] for r in rows])
    off_b = np.array([_ANGLE_TERMS[combos[r][3]][0] for r in rows])
    sign_a = np.array([_ANGLE_TERMS[combos[r][1]][1] for r in rows])
    sign_b = np.array([_ANGLE_TERMS[combos[r][3]][1] for r in rows])

    def g(lat: np.ndarray) -> np.ndarray:
        t = np.tan(lat * _RAD)
        h_a = np.arccos(np.clip(-t * tan_a, -1.0, 1.0)) * _DEG
        h_b = np.arccos(np.clip(-t * tan_b, -1.0, 1.0)) * _DEG
        return _wrap((ra_a + off_a + sign_a * h_a) - (ra_b + off_b + sign_b * h_b))

    lo, hi = grid[cols].copy(), grid[cols + 1].copy()
    g_lo = g(lo)
    for _ in range(48):
        mid = 0.5 * (lo + hi)
        g_mid = g(mid)
        same = (g_mid > 0) == (g_lo > 0)
        lo = np.where(same, mid, lo)
        g_lo = np.where(same, g_mid, g_lo)
        hi = np.where(same, hi, mid)
    roots = 0.5 * (lo + hi)
    out: list[Paran] = []
    seen: set[tuple[int, float]] = set()
    for k, r in enumerate(rows):
        i, first_angle, j, second_angle = combos[r]
        lat = float(roots[k])
        key = (int(r), round(lat, 6))
        if key in seen:  # a root on a grid point is bracketed twice
            continue
        seen.add(key)
        a, b = equ[i], equ[j]
        if (first_angle in ("asc", "dsc") and abs(lat) > circumpolar_limit(a.declination)) or (
            second_angle in ("asc", "dsc") and abs(lat) > circumpolar_limit(b.declination)
        ):
            continue  # the body does not rise or set there
        offset, sign = _ANGLE_TERMS[first_angle]
        semi = float(semi_arc(np.array([lat]), a.declination)[0])
        st = (a.right_ascension + offset + sign * semi) % 360.0
        out.append(
            Paran(
                a.body,
                first_angle,
                b.body,
                second_angle,
                lat,
                max(-90.0, lat - orb),
                min(90.0, lat + orb),
                st,
            )
        )
    out.sort(key=lambda p: (-p.latitude, p.body_a, p.body_b))
    return out


# --- local space ----------------------------------------------------------------------------------


def horizontal(hour_angle: float, declination: float, latitude: float) -> tuple[float, float]:
    """Azimuth (from north through east, 0..360) and altitude of a body (Meeus eq. 13.5, 13.6,
    his azimuth from the south turned to the north)."""
    h, d, phi = hour_angle * _RAD, declination * _RAD, latitude * _RAD
    az = math.atan2(math.sin(h), math.cos(h) * math.sin(phi) - math.tan(d) * math.cos(phi))
    alt = math.asin(math.sin(phi) * math.sin(d) + math.cos(phi) * math.cos(d) * math.cos(h))
    return (az * _DEG + 180.0) % 360.0, alt * _DEG


def destination(
    latitude: float, longitude: float, azimuth: float, arc: float
) -> tuple[float, float]:
    """The point ``arc`` degrees along the great circle leaving (latitude, longitude) towards
    ``azimuth``; the longitude continuous (not wrapped)."""
    phi, lam, az, d = latitude * _RAD, longitude * _RAD, azimuth * _RAD, arc * _RAD
    sin_phi2 = math.sin(phi) * math.cos(d) + math.cos(phi) * math.sin(d) * math.cos(az)
    phi2 = math.asin(max(-1.0, min(1.0, sin_phi2)))
    lam2 = lam + math.atan2(
        math.sin(az) * math.sin(d) * math.cos(phi), math.cos(d) - math.sin(phi) * sin_phi2
    )
    return phi2 * _DEG, lam2 * _DEG


def _local_space(
    body: str, azimuth: float, altitude: float, latitude: float, longitude: float
) -> list[LocalSpaceLine]:
    n = round(360.0 / LOCAL_SPACE_STEP_DEG)
    raw = [
        destination(latitude, longitude, azimuth, k * LOCAL_SPACE_STEP_DEG) for k in range(n + 1)
    ]
    # Continuous longitudes: atan2 wraps at +-180 from the start meridian.
    lons: list[float] = []
    for _, lon in raw:
        if lons:
            lon = lons[-1] + wrap180(lon - lons[-1])
        lons.append(lon)
    lats = [lat for lat, _ in raw]
    arcs = [k * LOCAL_SPACE_STEP_DEG for k in range(n + 1)]

    def crossing_point(target: float) -> float:
        # Bisection in arc between the two samples around the crossing.
        for k in range(n):
            lo_lon, hi_lon = lons[k], lons[k + 1]
            if (lo_lon - target) * (hi_lon - target) <= 0 and lo_lon != hi_lon:
                lo, hi = arcs[k], arcs[k + 1]
                for _ in range(60):
                    mid = 0.5 * (lo + hi)
                    _, m_lon = destination(latitude, longitude, azimuth, mid)
                    m_lon = lo_lon + wrap180(m_lon - lo_lon)
                    if (m_lon - target) * (lo_lon - target) > 0:
                        lo = mid
                    else:
                        hi = mid
                return destination(latitude, longitude, azimuth, 0.5 * (lo + hi))[0]
        raise AssertionError("no crossing")  # pragma: no cover

    return [
        LocalSpaceLine(body, azimuth, altitude, _points(piece))
        for piece in _pieces(lats, lons, crossing_point)
    ]


# --- the chart ------------------------------------------------------------------------------------


def check_acg_bodies(bodies: Iterable[str] | None) -> tuple[str, ...]:
    if bodies is None:
        return DEFAULT_ACG_BODIES
    chosen = tuple(dict.fromkeys(bodies))
    if not chosen:
        raise CalcInputError("bodies", "name at least one body")
    for name in chosen:
        if name not in WESTERN_BODIES:
            raise CalcInputError("bodies", f"unknown body {name!r}")
    return chosen


def astrocartography_at(
    echo: SubjectTime,
    latitude: float,
    longitude: float,
    *,
    bodies: Iterable[str] | None = None,
    zodiacal: bool = False,
    parans: bool = False,
    local_space: bool = False,
    step_deg: float = DEFAULT_STEP_DEG,
    paran_orb_deg: float = DEFAULT_PARAN_ORB_DEG,
) -> Astrocartography:
    """The lines of an already resolved instant (see :func:`astrocartography`)."""
    names = check_acg_bodies(bodies)
    if not MIN_STEP_DEG <= step_deg <= MAX_STEP_DEG:
        raise CalcInputError("step_deg", f"must be between {MIN_STEP_DEG} and {MAX_STEP_DEG}")
    if not 0.0 <= paran_orb_deg <= MAX_PARAN_ORB_DEG:
        raise CalcInputError("paran_orb_deg", f"must be between 0 and {MAX_PARAN_ORB_DEG}")
    jd = echo.julian_day
    path = ephemeris.ephemeris_path()
    positions, used, warnings = cached_positions(jd, names, path=path)
    eps = ephemeris.obliquity(jd)
    # The ARMC at Greenwich is the Greenwich apparent sidereal time in degrees.
    gast = ephemeris.houses(jd, 0.0, 0.0, "E", path=path).armc
    equ: list[BodyEquatorial] = []
    for name in names:
        p = positions.get(name)
        if p is None:
            continue
        ra, dec = equatorial(p.longitude, 0.0 if zodiacal else p.latitude, eps)
        equ.append(BodyEquatorial(name, ra, dec, p.longitude))
    lines: list[AcgLine] = []
    polar: list[Circumpolar] = []
    for e in equ:
        lines.append(_meridian(e.body, "mc", e.right_ascension - gast, step_deg))
        lines.append(_meridian(e.body, "ic", e.right_ascension - gast + 180.0, step_deg))
        horizon, limit = _horizon_lines(e.body, e.right_ascension, e.declination, gast, step_deg)
        lines.extend(horizon)
        if limit is not None:
            polar.append(limit)
    notes = list(warnings)
    for c in polar:
        other = "south" if c.always_above == "north" else "north"
        notes.append(
            f"{c.body}: ASC and DSC lines stop at latitude {c.latitude_limit:.2f}; beyond it the "
            f"body is circumpolar to the {c.always_above} and never rises to the {other}"
        )
    found_parans = _parans(equ, paran_orb_deg) if parans else []
    space: list[LocalSpaceLine] = []
    if local_space:
        lst = gast + longitude
        for e in equ:
            az, alt = horizontal(lst - e.right_ascension, e.declination, latitude)
            space.extend(_local_space(e.body, az, alt, latitude, longitude))
    return Astrocartography(
        lines=tuple(lines),
        bodies=tuple(equ),
        circumpolar=tuple(polar),
        parans=tuple(found_parans),
        local_space=tuple(space),
        meta=AcgMeta(
            utc=echo.utc,
            julian_day=jd,
            sidereal_time_deg=gast,
            latitude=latitude,
            longitude=longitude,
            method="zodiacal" if zodiacal else "in_mundo",
            step_deg=step_deg,
            ephemeris=used,
            warnings=tuple(notes),
        ),
    )


def astrocartography(
    subject: BirthSubject,
    *,
    bodies: Iterable[str] | None = None,
    zodiacal: bool = False,
    parans: bool = False,
    local_space: bool = False,
    step_deg: float = DEFAULT_STEP_DEG,
    paran_orb_deg: float = DEFAULT_PARAN_ORB_DEG,
) -> Astrocartography:
    """The astrocartography lines of a birth: for each body its MC and IC meridians and its ASC
    and DSC curves (see the module docstring for the conventions), optionally parans and local
    space lines. ``bodies`` defaults to :data:`DEFAULT_ACG_BODIES` (any Western body; Chiron needs
    asteroid files and is otherwise left out with a warning); ``step_deg`` is the latitude step
    (0.1..2); ``paran_orb_deg`` the half-width of a paran's latitude band (0..5).

    Checked against pyswisseph's ``azalt`` and ``sidtime`` at every point (1e-6 degrees)."""
    echo = resolve_subject(subject)
    return astrocartography_at(
        echo,
        subject.latitude,
        subject.longitude,
        bodies=bodies,
        zodiacal=zodiacal,
        parans=parans,
        local_space=local_space,
        step_deg=step_deg,
        paran_orb_deg=paran_orb_deg,
    )
