"""The one door to pyswisseph: Julian days, body positions, houses, ayanamsa, rise and set.

Conventions
-----------
* Longitudes are apparent geocentric ecliptic longitudes of date (Swiss Ephemeris defaults),
  tropical unless ``ayanamsa`` names a sidereal mode; degrees in [0, 360).
* Time arguments are Julian days in Universal Time (``jd_ut``); Delta T is applied by pyswisseph.
* Ephemeris: the built-in Moshier ephemeris unless ``ASTRO_EPHE_PATH`` names a directory of Swiss
  Ephemeris files (then ``FLG_SWIEPH``). Every result says which one produced it. Asking for
  ``FLG_SWIEPH`` with no files silently falls back to Moshier at twice the cost, so Moshier is
  asked for explicitly.
* pyswisseph keeps process-wide state (ephemeris path, sidereal mode, topocentric position). Every
  call that depends on such state takes :data:`_LOCK` and sets the state it needs first, so results
  do not depend on call order and are safe under threads.

Checked against: published Sun longitude for J2000 (Meeus, *Astronomical Algorithms*, ex. 25.a)
and against independent libraries in the test suite.
"""

from __future__ import annotations

import enum
import math
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

import msgspec
import swisseph as swe

from astro_calc.errors import CalcInputError, EphemerisUnavailableError

_LOCK: Final = threading.RLock()

#: The dates a request may carry: the Moshier ephemeris covers about 3000 BCE to 3000 CE (Julian
#: days 625000.5 to 2818000.5) and Python dates run from year 1. The room left serves the
#: calculations that look before a date (a Vimshottari dasha starts up to 20 years before birth,
#: a panchanga's previous sunrise, a UTC offset) or past it (returns, transits: a year at most).
#: Servers check inputs against these.
FIRST_YEAR: Final = 100
#: The last Julian day the Moshier ephemeris computes (3000 CE): long searches stop before it.
LAST_JD: Final = 2818000.5
LAST_YEAR: Final = 2999


def _out_of_span(exc: swe.Error) -> CalcInputError | None:
    """Swiss Ephemeris's "jd ... outside ... range" as a refused ``date`` (a 400, not a 500)."""
    if "outside" not in str(exc):
        return None
    return CalcInputError(
        "date", f"outside the ephemeris's span; use dates in the years {FIRST_YEAR}-{LAST_YEAR}"
    )


#: Bodies by our name -> Swiss Ephemeris id.
BODY_IDS: Final[dict[str, int]] = {
    "sun": swe.SUN,
    "moon": swe.MOON,
    "mercury": swe.MERCURY,
    "venus": swe.VENUS,
    "mars": swe.MARS,
    "jupiter": swe.JUPITER,
    "saturn": swe.SATURN,
    "uranus": swe.URANUS,
    "neptune": swe.NEPTUNE,
    "pluto": swe.PLUTO,
    "mean_node": swe.MEAN_NODE,
    "true_node": swe.TRUE_NODE,
    "mean_lilith": swe.MEAN_APOG,
    "chiron": swe.CHIRON,
    # Hamburg school hypothetical bodies (Uranian astrology), computed by Swiss Ephemeris formulae.
    "cupido": 40,
    "hades": 41,
    "zeus": 42,
    "kronos": 43,
    "apollon": 44,
    "admetos": 45,
    "vulkanus": 46,
    "poseidon": 47,
}

#: Bodies that need Swiss Ephemeris asteroid files.
FILE_BODIES: Final = frozenset({"chiron"})

#: Sidereal modes by our name.
AYANAMSAS: Final[dict[str, int]] = {
    "lahiri": swe.SIDM_LAHIRI,
    "raman": swe.SIDM_RAMAN,
    "krishnamurti": swe.SIDM_KRISHNAMURTI,
    "fagan_bradley": swe.SIDM_FAGAN_BRADLEY,
    "true_chitra": swe.SIDM_TRUE_CITRA,
    "yukteshwar": swe.SIDM_YUKTESHWAR,
}

#: House systems accepted, by Swiss Ephemeris letter.
HOUSE_SYSTEMS: Final[dict[str, str]] = {
    "P": "placidus",
    "K": "koch",
    "W": "whole_sign",
    "E": "equal",
    "O": "porphyry",
    "R": "regiomontanus",
    "C": "campanus",
    "B": "alcabitius",
    "A": "equal_asc",
    "M": "morinus",
    "T": "topocentric",
    "X": "meridian",
}

#: Systems that are undefined inside the polar circles.
_POLAR_FRAGILE: Final = frozenset({"P", "K", "G"})

EphemerisName = Literal["moshier", "swiss"]


# Result structs hold only numbers, strings and tuples of them (no cycles can form), so they are
# kept out of the garbage collector's tracking (gc=False): a chart makes dozens of them.
class BodyPosition(msgspec.Struct, frozen=True, gc=False):
    name: str
    longitude: float
    latitude: float
    distance_au: float
    speed: float  # degrees per day in longitude
    speed_latitude: float
    speed_distance: float

    @property
    def retrograde(self) -> bool:
        return self.speed < 0


class Houses(msgspec.Struct, frozen=True, gc=False):
    system: str  # the letter actually used
    requested_system: str
    cusps: tuple[float, ...]  # 12 cusps, cusps[0] is house 1
    ascendant: float
    midheaven: float
    armc: float
    vertex: float
    #: How fast the ascendant and the midheaven move, degrees of longitude per day (about 360 or
    #: more: the Earth's rotation). Zero for houses built from a given ARMC.
    ascendant_speed: float
    midheaven_speed: float
    #: Whether the cusps follow each other in zodiac order from cusp 1 (every system does except
    #: Regiomontanus, Campanus and Topocentric near and inside the polar circles).
    in_order: bool
    #: What :meth:`house_of` needs when the cusps are out of order: the geographic latitude, the
    #: true obliquity and the ayanamsa subtracted from the cusps (0 for tropical). Only filled in
    #: then (NaN otherwise): an in-order lookup needs nothing but the cusps.
    latitude: float
    obliquity: float
    ayanamsa_deg: float
    warnings: tuple[str, ...] = ()
    #: How fast each cusp moves, degrees per day (empty for houses built from a given ARMC).
    cusp_speeds: tuple[float, ...] = ()

    def house_of(self, longitude: float) -> int:
        """House number (1-12) of an ecliptic longitude (in the cusps' zodiac) on these houses.

        When the cusps run in zodiac order the house is the one between its cusp and the next.
        Inside the polar circles (and for Topocentric from about 65 degrees) some systems put
        cusps out of order; "between two cusps" is then ambiguous along the ecliptic, so the
        house is the one Swiss Ephemeris's ``house_pos`` finds from the house circles themselves
        (ARMC, latitude, obliquity; the body taken on the ecliptic), checked against it in the
        tests."""
        if self.in_order:
            return house_of(longitude, self.cusps)
        tropical = (longitude + self.ayanamsa_deg) % 360.0
        with _LOCK:
            position = swe.house_pos(
                self.armc, self.latitude, self.obliquity, (tropical, 0.0), self.system.encode()
            )
        return min(12, max(1, int(position)))


def ephemeris_path() -> str | None:
    """``ASTRO_EPHE_PATH``, read live (tests and the benchmark change it in a running process).
    Reading an unset variable costs about a microsecond (``os.environ`` raises and catches a
    KeyError), so a chart reads it once and hands it on as ``path=`` (see :class:`FromEnv`)."""
    path = os.environ.get("ASTRO_EPHE_PATH")
    return path or None


class FromEnv(enum.Enum):
    """The default of a ``path=`` argument: read :func:`ephemeris_path` in the call itself. A
    caller that makes several calls for one result reads the path once and passes it."""

    READ = 0


FROM_ENV: Final = FromEnv.READ


def _path(path: str | FromEnv | None) -> str | None:
    return ephemeris_path() if isinstance(path, FromEnv) else path


def ephemeris_name(path: str | FromEnv | None = FROM_ENV) -> EphemerisName:
    """Which ephemeris calculations ask for: Swiss files when a path is set, else Moshier."""
    return "swiss" if _path(path) else "moshier"


#: The ephemeris path last given to pyswisseph by this module; ``_UNSET`` when unknown: at start,
#: and whenever other code in the process set a path itself (kerykeion and PyJHora do, PyJHora on
#: import, to a directory holding its own ``seorbel.txt`` that moves Kronos by up to 0.05 degrees).
_UNSET: Final = object()
_configured_path: object = _UNSET
_swe_set_ephe_path = swe.set_ephe_path


def _foreign_set_ephe_path(*args: object, **kwargs: object) -> None:
    """pyswisseph's ``set_ephe_path`` as other code in the process sees it: it also makes this
    module set its own path again before its next calculation. Re-setting the path on every call
    would be safe too, but costs about 0.24 ms (it resets Swiss Ephemeris's caches)."""
    global _configured_path
    _configured_path = _UNSET
    _swe_set_ephe_path(*args, **kwargs)


swe.set_ephe_path = _foreign_set_ephe_path


def _prepare(ayanamsa: str | None, path: str | FromEnv | None = FROM_ENV) -> int:
    """Set pyswisseph's global state for one call and return the flags it needs (the ephemeris
    for ``path``, speeds, sidereal for an ayanamsa); the caller holds ``_LOCK``."""
    global _configured_path
    path = _path(path)
    if path != _configured_path:
        _swe_set_ephe_path(path)
        _configured_path = path
    flags: int = (swe.FLG_SWIEPH if path else swe.FLG_MOSEPH) | swe.FLG_SPEED
    if ayanamsa is not None:
        swe.set_sid_mode(_ayanamsa_id(ayanamsa), 0, 0)
        flags |= swe.FLG_SIDEREAL
    return flags


def _ayanamsa_id(name: str) -> int:
    try:
        return AYANAMSAS[name]
    except KeyError:
        raise CalcInputError(
            "ayanamsa", f"unknown ayanamsa {name!r}; one of {', '.join(AYANAMSAS)}"
        ) from None


# --- time ----------------------------------------------------------------------------------------


def julian_day(moment: datetime) -> float:
    """Julian day (UT) of an aware datetime; naive datetimes are refused."""
    if moment.tzinfo is None:
        raise CalcInputError("datetime", "a timezone-aware datetime is required")
    utc = moment.astimezone(UTC)
    hour = utc.hour + utc.minute / 60 + (utc.second + utc.microsecond / 1e6) / 3600
    return float(swe.julday(utc.year, utc.month, utc.day, hour, swe.GREG_CAL))


def datetime_from_jd(jd_ut: float) -> datetime:
    """Aware UTC datetime of a Julian day (UT), to the microsecond."""
    # J2000.0 = 2000-01-01T12:00Z = JD 2451545.0; plain arithmetic keeps microseconds exact enough.
    return datetime(2000, 1, 1, 12, tzinfo=UTC) + timedelta(days=jd_ut - 2451545.0)


def delta_t_seconds(jd_ut: float) -> float:
    return float(swe.deltat(jd_ut)) * 86400.0


# --- positions -----------------------------------------------------------------------------------


def body_id(name: str) -> int:
    try:
        return BODY_IDS[name]
    except KeyError:
        raise CalcInputError("body", f"unknown body {name!r}") from None


def body_position(jd_ut: float, name: str, *, ayanamsa: str | None = None) -> BodyPosition:
    """Geocentric apparent position of one body; sidereal when ``ayanamsa`` is given."""
    ipl = body_id(name)
    with _LOCK:
        flags = _prepare(ayanamsa)
        try:
            values, _ret = swe.calc_ut(jd_ut, ipl, flags)
        except swe.Error as exc:
            if name in FILE_BODIES:
                raise EphemerisUnavailableError(
                    f"{name} needs Swiss Ephemeris asteroid files; set ASTRO_EPHE_PATH"
                ) from exc
            raise _out_of_span(exc) or exc from None
    lon, lat, dist, slon, slat, sdist = values
    return BodyPosition(name, lon % 360.0, lat, dist, slon, slat, sdist)


@contextmanager
def held_tropical() -> Iterator[Callable[[float, str], BodyPosition]]:
    """Hold the ephemeris for a burst of tropical positions of the major bodies (no asteroid
    files): yields a function equal to :func:`body_position` without an ayanamsa (the same
    flags, so the same values to the last bit), without its per-call set-up. Other threads wait
    for the ephemeris until the block ends; keep the block short."""
    with _LOCK:
        flags = _prepare(None)
        calc = swe.calc_ut

        def position(jd_ut: float, name: str) -> BodyPosition:
            try:
                values, _ret = calc(jd_ut, BODY_IDS[name], flags)
            except swe.Error as exc:
                raise _out_of_span(exc) or exc from None
            lon, lat, dist, slon, slat, sdist = values
            return BodyPosition(name, lon % 360.0, lat, dist, slon, slat, sdist)

        yield position


def body_positions(
    jd_ut: float,
    names: tuple[str, ...] | list[str],
    *,
    ayanamsa: str | None = None,
    path: str | FromEnv | None = FROM_ENV,
) -> tuple[dict[str, BodyPosition], EphemerisName, tuple[str, ...]]:
    """Positions of many bodies under one lock; bodies needing absent files are skipped with a
    warning. Returns (positions, ephemeris used, warnings): "moshier" when any body was computed
    from the Moshier ephemeris (no path set, or Swiss files missing for a body or a date), "swiss"
    only when every file-based body came from Swiss Ephemeris files (the mean node and mean
    Lilith are analytic and need no file either way). ``path``: see :class:`FromEnv`."""
    out: dict[str, BodyPosition] = {}
    warnings: list[str] = []
    path = _path(path)
    used: EphemerisName = "swiss" if path else "moshier"
    ids = BODY_IDS
    calc = swe.calc_ut
    moshier = swe.FLG_MOSEPH
    with _LOCK:
        flags = _prepare(ayanamsa, path)
        for name in names:
            ipl = ids.get(name)
            if ipl is None:
                ipl = body_id(name)  # raises the input error
            try:
                values, ret = calc(jd_ut, ipl, flags)
            except swe.Error as exc:
                if name in FILE_BODIES:
                    warnings.append(
                        f"{name} omitted: needs Swiss Ephemeris asteroid files (ASTRO_EPHE_PATH)"
                    )
                    continue
                raise _out_of_span(exc) or exc from None
            if ret & moshier:
                used = "moshier"
            lon, lat, dist, slon, slat, sdist = values
            out[name] = BodyPosition(name, lon % 360.0, lat, dist, slon, slat, sdist)
    return out, used, tuple(warnings)


def ayanamsa_value(jd_ut: float, name: str = "lahiri") -> float:
    """Ayanamsa in degrees for the named sidereal mode at a Julian day (UT)."""
    with _LOCK:
        flags = _prepare(None) & ~swe.FLG_SPEED
        swe.set_sid_mode(_ayanamsa_id(name), 0, 0)
        _ret, value = swe.get_ayanamsa_ex_ut(jd_ut, flags)
    return float(value)


def obliquity(jd_ut: float) -> float:
    """True obliquity of the ecliptic in degrees."""
    with _LOCK:
        flags = _prepare(None) & ~swe.FLG_SPEED
        values, _ret = swe.calc_ut(jd_ut, swe.ECL_NUT, flags)
    return float(values[0])


# --- houses --------------------------------------------------------------------------------------


def houses(
    jd_ut: float,
    latitude: float,
    longitude: float,
    system: str = "P",
    *,
    ayanamsa: str | None = None,
    path: str | FromEnv | None = FROM_ENV,
) -> Houses:
    """House cusps and angles. Inside the polar circles Placidus and Koch are undefined: they fall
    back to Porphyry with a warning, never an error. ``path``: see :class:`FromEnv`."""
    if system not in HOUSE_SYSTEMS:
        raise CalcInputError(
            "house_system", f"unknown house system {system!r}; one of {', '.join(HOUSE_SYSTEMS)}"
        )
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    used = system
    warnings: list[str] = []
    with _LOCK:
        flags = _prepare(ayanamsa, path) & ~swe.FLG_SPEED
        try:
            cusps, ascmc, speeds, ascmc_speed = swe.houses_ex2(
                jd_ut, latitude, longitude, used.encode(), flags
            )
        except swe.Error:
            if system not in _POLAR_FRAGILE:
                raise
            used = "O"
            warnings.append(
                f"{HOUSE_SYSTEMS[system]} houses are undefined at latitude {latitude:.2f}; "
                "Porphyry used instead"
            )
            cusps, ascmc, speeds, ascmc_speed = swe.houses_ex2(
                jd_ut, latitude, longitude, b"O", flags
            )
    ordered = tuple([c % 360.0 for c in cusps[:12]])
    if abs(latitude) == 90.0:
        warnings.append(
            "at a geographic pole the horizon is the equator and the ascendant is undefined: "
            "Swiss Ephemeris gives 0 Aries, and the houses follow it"
        )
    in_order = cusps_in_order(ordered)
    eps = ayan = math.nan
    if not in_order:
        eps = obliquity(jd_ut)
        ayan = ayanamsa_value(jd_ut, ayanamsa) if ayanamsa is not None else 0.0
    # Positional (fields in declaration order: a chart builds one per call); pyswisseph gives
    # floats already.
    return Houses(
        used,
        system,
        ordered,
        ascmc[0] % 360.0,
        ascmc[1] % 360.0,
        ascmc[2] % 360.0,
        ascmc[3] % 360.0,
        ascmc_speed[0],
        ascmc_speed[1],
        in_order,
        latitude,
        eps,
        ayan,
        tuple(warnings),
        tuple(speeds[:12]),
    )


def houses_from_armc(
    armc: float, latitude: float, obliquity_deg: float, system: str = "P"
) -> Houses:
    """House cusps and angles from a sidereal time (ARMC, degrees), latitude and obliquity: the
    form progressed and directed angles need. Same polar fallback as :func:`houses`."""
    if system not in HOUSE_SYSTEMS:
        raise CalcInputError(
            "house_system", f"unknown house system {system!r}; one of {', '.join(HOUSE_SYSTEMS)}"
        )
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    used = system
    warnings: list[str] = []
    with _LOCK:
        try:
            cusps, ascmc = swe.houses_armc(armc % 360.0, latitude, obliquity_deg, used.encode())
        except swe.Error:
            if system not in _POLAR_FRAGILE:
                raise
            used = "O"
            warnings.append(
                f"{HOUSE_SYSTEMS[system]} houses are undefined at latitude {latitude:.2f}; "
                "Porphyry used instead"
            )
            cusps, ascmc = swe.houses_armc(armc % 360.0, latitude, obliquity_deg, b"O")
    ordered = tuple(float(c) % 360.0 for c in cusps[:12])
    return Houses(
        system=used,
        requested_system=system,
        cusps=ordered,
        ascendant=float(ascmc[0]) % 360.0,
        midheaven=float(ascmc[1]) % 360.0,
        armc=float(ascmc[2]) % 360.0,
        vertex=float(ascmc[3]) % 360.0,
        ascendant_speed=0.0,
        midheaven_speed=0.0,
        in_order=cusps_in_order(ordered),
        latitude=latitude,
        obliquity=obliquity_deg,
        ayanamsa_deg=0.0,
        warnings=tuple(warnings),
    )


def armc_of_midheaven(midheaven: float, obliquity_deg: float) -> float:
    """The ARMC (right ascension of the midheaven, degrees) of an ecliptic longitude taken as
    the midheaven: what :func:`houses_from_armc` needs for a directed or composite MC."""
    lam = math.radians(midheaven)
    eps = math.radians(obliquity_deg)
    return math.degrees(math.atan2(math.sin(lam) * math.cos(eps), math.cos(lam))) % 360.0


def cusps_in_order(cusps: tuple[float, ...]) -> bool:
    """Whether twelve cusps follow each other in zodiac order, counted from cusp 1."""
    start = cusps[0]
    previous = 0.0
    for c in cusps[1:]:
        offset = (c - start) % 360.0
        if offset <= previous:
            return False
        previous = offset
    return True


def house_of(longitude: float, cusps: tuple[float, ...]) -> int:
    """House number (1-12) of an ecliptic longitude given twelve cusps in zodiac order (a house
    runs from its cusp up to the next); :meth:`Houses.house_of` also handles cusps out of order."""
    for i in range(12):
        start = cusps[i]
        end = cusps[(i + 1) % 12]
        span = (end - start) % 360.0
        if (longitude - start) % 360.0 < span or span == 0.0:
            return i + 1
    return 12


# --- rise and set --------------------------------------------------------------------------------

RiseKind = Literal["rise", "set", "upper_transit", "lower_transit"]
_RISE_FLAGS: Final[dict[str, int]] = {
    "rise": swe.CALC_RISE,
    "set": swe.CALC_SET,
    "upper_transit": swe.CALC_MTRANSIT,
    "lower_transit": swe.CALC_ITRANSIT,
}


def rise_set(
    jd_ut: float,
    name: str,
    latitude: float,
    longitude: float,
    kind: RiseKind = "rise",
    *,
    altitude_m: float = 0.0,
    disc_center: bool = False,
    hindu: bool = False,
) -> float | None:
    """The next rise, set or transit of a body after ``jd_ut`` (Julian day UT), or None when the
    body does not rise or set that day (polar day or night).

    Convention: upper limb of the disc with standard refraction (the almanac sunrise), unless
    ``disc_center`` asks for the centre of the disc; ``hindu`` for Swiss Ephemeris's Hindu rising
    (the centre of the disc on the horizon, no refraction, seen from the Earth's centre without
    the body's ecliptic latitude: the classical Hindu sunrise)."""
    rsmi = _RISE_FLAGS[kind]
    if disc_center and kind in ("rise", "set"):
        rsmi |= swe.BIT_DISC_CENTER
    if hindu and kind in ("rise", "set"):
        rsmi |= swe.BIT_HINDU_RISING
    with _LOCK:
        flags = _prepare(None) & ~swe.FLG_SPEED
        res, tret = swe.rise_trans(
            jd_ut, body_id(name), rsmi, (longitude, latitude, altitude_m), 1013.25, 15.0, flags
        )
    if res != 0:
        return None
    return float(tret[0])


def angle_diff(a: float, b: float) -> float:
    """Signed smallest difference a - b in degrees, in (-180, 180]."""
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


def normalize(deg: float) -> float:
    v = math.fmod(deg, 360.0)
    return v + 360.0 if v < 0 else v


# --- solar time ----------------------------------------------------------------------------------


def equation_of_time_minutes(jd_ut: float) -> float:
    """Equation of time in minutes at a Julian day (UT): local apparent (sundial) time minus local
    mean time, so about +16.4 in early November and -14.2 in mid February (swe.time_equ).

    Checked against the published extremes of the equation of time (Meeus, ch. 28)."""
    with _LOCK:
        _prepare(None)
        value = swe.time_equ(jd_ut)
    return float(value) * 1440.0


# --- phenomena -----------------------------------------------------------------------------------


def illuminated_fraction(jd_ut: float, name: str = "moon") -> float:
    """Illuminated fraction (0-1) of a body's disc seen from the Earth (swe.pheno_ut)."""
    with _LOCK:
        flags = _prepare(None) & ~swe.FLG_SPEED
        attr = swe.pheno_ut(jd_ut, body_id(name), flags)
    return float(attr[1])
