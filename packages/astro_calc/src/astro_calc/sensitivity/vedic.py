"""Birth-time sensitivity of the Vedic chart and dasha.

Results: ``lagna.sign`` (sidereal sign of the ascendant), ``moon.sign``, ``moon.nakshatra``,
``moon.pada`` (written ``"Rohini 3"``) and ``dasha.lord_at_birth`` (the Vimshottari lord of the
Moon's nakshatra, whose mahadasha runs at birth). Values come from the calls
:func:`astro_calc.vedic.sidereal_chart_at` and :func:`astro_calc.vedic.vimshottari_from_moon`
make (:func:`astro_calc.ephemeris.houses` and :func:`astro_calc.ephemeris.body_position` with the
ayanamsa, :func:`~astro_calc.vedic.zodiac.sign_index`, ``nakshatra_index``, ``pada_of``);
crossings by root finding on the sidereal longitudes (monotone: the lagna always moves forward
away from the polar circles, the Moon is never retrograde), to 1 second. Beyond 60 degrees of
latitude ``lagna.sign`` is left out with a warning (see :mod:`astro_calc.sensitivity.western`).
"""

from __future__ import annotations

from collections.abc import Callable

from astro_calc import ephemeris
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
    PhaseSample,
    Sensitivity,
    SensitivityItem,
    Shift,
    angles_reliable,
    check_window,
    item,
    phase_crossing,
    sensitivity,
)
from astro_calc.vedic.subject import BirthSubject, birth_moment
from astro_calc.vedic.zodiac import (
    NAKSHATRA_SPAN_DEG,
    NAKSHATRAS,
    PADA_SPAN_DEG,
    SIGNS,
    VIMSHOTTARI_ORDER,
    nakshatra_index,
    pada_of,
    sign_index,
)

_DAY_S: float = 86400.0


def vedic_sensitivity(
    subject: BirthSubject,
    *,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the time-dependent results of :func:`astro_calc.vedic.sidereal_chart` and
    :func:`astro_calc.vedic.vimshottari_dasha` for ``subject`` (its ``ayanamsa`` too) are to
    changing: value, nearest change before and after within ``horizon_minutes`` (default 780)
    and whether it is certain within ``uncertainty_minutes`` (0..720). Root finding on the
    chart's own functions, to 1 second (module docstring)."""
    moment = birth_moment(subject)
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    return vedic_sensitivity_at(
        Shift(moment.resolved.utc, moment.resolved.local, moment.jd_ut),
        subject.latitude,
        subject.longitude,
        ayanamsa=subject.ayanamsa,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon,
    )


def vedic_sensitivity_at(
    shift: Shift,
    latitude: float,
    longitude: float,
    *,
    ayanamsa: str = "lahiri",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float = 780.0,
) -> Sensitivity:
    """:func:`vedic_sensitivity` of a birth already resolved (a :class:`Shift`)."""
    horizon_s = horizon_minutes * 60.0

    def lagna(s: float) -> PhaseSample:
        h = ephemeris.houses(shift.jd(s), latitude, longitude, "W", ayanamsa=ayanamsa)
        return (
            h.ascendant / 30.0,
            SIGNS[sign_index(h.ascendant)],
            h.ascendant_speed / 30.0 / _DAY_S,
        )

    def moon(s: float) -> tuple[float, float]:
        p = ephemeris.body_position(shift.jd(s), "moon", ayanamsa=ayanamsa)
        return p.longitude, p.speed / _DAY_S

    def moon_sign(s: float) -> PhaseSample:
        lon, speed = moon(s)
        return lon / 30.0, SIGNS[sign_index(lon)], speed / 30.0

    def nakshatra(s: float) -> PhaseSample:
        lon, speed = moon(s)
        name = NAKSHATRAS[nakshatra_index(lon)]
        return lon / NAKSHATRA_SPAN_DEG, name, speed / NAKSHATRA_SPAN_DEG

    def pada(s: float) -> PhaseSample:
        lon, speed = moon(s)
        name = NAKSHATRAS[nakshatra_index(lon)]
        return lon / PADA_SPAN_DEG, f"{name} {pada_of(lon)}", speed / PADA_SPAN_DEG

    def dasha_lord(s: float) -> PhaseSample:
        # vimshottari_from_moon: the first lord is that of the Moon's nakshatra.
        lon, speed = moon(s)
        lord = VIMSHOTTARI_ORDER[nakshatra_index(lon) % 9]
        return lon / NAKSHATRA_SPAN_DEG, lord, speed / NAKSHATRA_SPAN_DEG

    searches: tuple[tuple[str, Callable[[float], PhaseSample], float, float], ...] = (
        ("lagna.sign", lagna, 12.0, 1.0 / 30.0 / 240.0),
        ("moon.sign", moon_sign, 12.0, 13.2 / 30.0 / _DAY_S),
        ("moon.nakshatra", nakshatra, 27.0, 13.2 / NAKSHATRA_SPAN_DEG / _DAY_S),
        ("moon.pada", pada, 108.0, 13.2 / PADA_SPAN_DEG / _DAY_S),
        ("dasha.lord_at_birth", dasha_lord, 27.0, 13.2 / NAKSHATRA_SPAN_DEG / _DAY_S),
    )
    warnings: tuple[str, ...] = ()
    if not angles_reliable(latitude):
        searches = searches[1:]
        warnings = (ANGLES_LEFT_OUT,)
    items: list[SensitivityItem] = []
    for result, sample, period, rate in searches:
        first = sample(0.0)
        before = phase_crossing(sample, -1, horizon_s, period, rate, first=first)
        after = phase_crossing(sample, 1, horizon_s, period, rate, first=first)
        items.append(item(result, first[1], shift.utc0, before, after, uncertainty_minutes))
    return sensitivity(items, uncertainty_minutes, horizon_minutes, warnings)
