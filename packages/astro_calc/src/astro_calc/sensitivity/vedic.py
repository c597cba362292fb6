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

import calendar
from collections.abc import Callable

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
    Crossing,
    PhaseSample,
    Sensitivity,
    SensitivityItem,
    Shift,
    angles_reliable,
    check_window,
    combined,
    item,
    phase_crossing,
    sensitivity,
)
from astro_calc.vedic.dasha import YEAR_LENGTHS_DAYS
from astro_calc.vedic.matching import match_moons
from astro_calc.vedic.subject import BirthSubject, birth_moment
from astro_calc.vedic.zodiac import (
    NAKSHATRA_SPAN_DEG,
    NAKSHATRAS,
    PADA_SPAN_DEG,
    SIGNS,
    VIMSHOTTARI_ORDER,
    VIMSHOTTARI_YEARS,
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
    results: tuple[str, ...] | None = None,
) -> Sensitivity:
    """:func:`vedic_sensitivity` of a birth already resolved (a :class:`Shift`); ``results``
    keeps only those results (default: all five)."""
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
    if results is not None:
        searches = tuple(x for x in searches if x[0] in results)
    if not angles_reliable(latitude) and searches and searches[0][0] == "lagna.sign":
        searches = searches[1:]
        warnings = (ANGLES_LEFT_OUT,)
    items: list[SensitivityItem] = []
    for result, sample, period, rate in searches:
        first = sample(0.0)
        before = phase_crossing(sample, -1, horizon_s, period, rate, first=first)
        after = phase_crossing(sample, 1, horizon_s, period, rate, first=first)
        items.append(item(result, first[1], shift.utc0, before, after, uncertainty_minutes))
    return sensitivity(items, uncertainty_minutes, horizon_minutes, warnings)


# --- the dasha: lord at birth and the first boundary ---------------------------------------------

DASHA_RESULTS: tuple[str, ...] = ("moon.nakshatra", "dasha.lord_at_birth")


def _month_phase(jd: float) -> tuple[float, str, float]:
    """The UTC calendar month of ``jd`` as a continuous phase (months since year 0, plus the
    fraction of the month gone), its ``"YYYY-MM"`` and the month's length in days."""
    moment = ephemeris.datetime_from_jd(jd)
    days = calendar.monthrange(moment.year, moment.month)[1]
    start = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    into = (moment - start).total_seconds() / 86400.0
    return (
        moment.year * 12 + moment.month - 1 + into / days,
        f"{moment.year:04d}-{moment.month:02d}",
        float(days),
    )


def dasha_sensitivity(
    subject: BirthSubject,
    *,
    year_days: float = 365.25,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the birth-time results of :func:`astro_calc.vedic.vimshottari_dasha` for
    ``subject`` (its ``ayanamsa``, the dasha's ``year_days``) are to changing, to 1 second:

    * ``moon.nakshatra`` and ``dasha.lord_at_birth`` (the lord of the Moon's nakshatra, whose
      mahadasha runs at birth), as in :func:`vedic_sensitivity`;
    * ``dasha.first_end``: the UTC calendar month (``"2003-07"``) in which the first mahadasha
      ends and the second begins. Every later mahadasha boundary sits a fixed number of years
      after it, so it moves with it. Within a nakshatra the end is ``birth + (1 - f) x years x
      year_days`` (``f`` the part of the nakshatra the Moon has crossed), continuous and
      falling as the birth moves later (the Moon moves about one nakshatra a day, so a minute of
      birth time moves it by a quarter-day per dasha year: 1.75 days for the Sun's 7 years, 5
      for Venus's 20); it jumps by years where the nakshatra changes. The month change is root
      found on that continuous end (in month units) within the nakshatra, and the nakshatra
      change ends the search: whichever comes first is the change."""
    if year_days not in YEAR_LENGTHS_DAYS:
        raise CalcInputError("year_days", "must be one of 365.25, 365.2422, 360")
    moment = birth_moment(subject)
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    shift = Shift(moment.resolved.utc, moment.resolved.local, moment.jd_ut)
    base = vedic_sensitivity_at(
        shift,
        subject.latitude,
        subject.longitude,
        ayanamsa=subject.ayanamsa,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon,
        results=DASHA_RESULTS,
    )
    horizon_s = horizon * 60.0

    def end_jd(s: float) -> tuple[float, float]:
        """The first mahadasha's end (JD, UT) and its rate, days per second of birth time."""
        p = ephemeris.body_position(shift.jd(s), "moon", ayanamsa=subject.ayanamsa)
        lon = p.longitude % 360.0
        nak = nakshatra_index(lon)
        years = VIMSHOTTARI_YEARS[VIMSHOTTARI_ORDER[nak % 9]] * year_days
        elapsed = (lon - nak * NAKSHATRA_SPAN_DEG) / NAKSHATRA_SPAN_DEG
        rate = (1.0 - years * p.speed / NAKSHATRA_SPAN_DEG) / _DAY_S
        return shift.jd(s) + (1.0 - elapsed) * years, rate

    def month(s: float) -> PhaseSample:
        jd, rate = end_jd(s)
        phase, value, days = _month_phase(jd)
        return phase, value, rate / days

    def nakshatra(s: float) -> PhaseSample:
        p = ephemeris.body_position(shift.jd(s), "moon", ayanamsa=subject.ayanamsa)
        return p.longitude / NAKSHATRA_SPAN_DEG, "", p.speed / NAKSHATRA_SPAN_DEG / _DAY_S

    first = month(0.0)
    sides: list[Crossing | None] = []
    rate = 13.2 / NAKSHATRA_SPAN_DEG / _DAY_S
    for direction in (-1, 1):
        # The search stays inside the birth's nakshatra (the end is continuous there); at the
        # nakshatra's edge (found to half a second) the end jumps, and the month it lands in is
        # read half a second beyond it.
        limit = horizon_s
        change = phase_crossing(nakshatra, direction, horizon_s, 27.0, rate)
        edge = None if change is None else change[0]
        if edge is not None:
            limit = abs(edge) - 0.5
        found = None
        if limit > 0.0:
            found = phase_crossing(month, direction, limit, 1e7, -1.0 / 240.0, first=first)
        if found is None and edge is not None:
            found = (edge, month(edge + direction * 0.5)[1])
        sides.append(found)
    end_item = item(
        "dasha.first_end", first[1], shift.utc0, sides[0], sides[1], uncertainty_minutes
    )
    return sensitivity((*base.items, end_item), uncertainty_minutes, horizon, base.warnings)


# --- kundli matching: the koota score ------------------------------------------------------------

#: Half a pada (1 deg 40'): every boundary the Ashtakoota reads off a Moon lies on this grid
#: (pada 3 deg 20', nakshatra 13 deg 20', sign 30 deg, and the half sign, 15 deg, where the
#: vashya of Sagittarius and Capricorn changes), so the score is constant within a band.
HALF_PADA_DEG: float = PADA_SPAN_DEG / 2.0
MATCH_RESULTS: tuple[str, ...] = ("moon.sign", "moon.nakshatra", "moon.pada")


def _score(total: float) -> str:
    return f"{total:g}"


def matching_sensitivity(
    boy: BirthSubject,
    girl: BirthSubject,
    *,
    school: str = "north",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the Moon-based results of :func:`astro_calc.vedic.kundli_match` are to
    changing when either birth time moves (the other kept), to 1 second. Per person (results
    prefixed ``boy.`` and ``girl.``): ``moon.sign``, ``moon.nakshatra``, ``moon.pada`` (as in
    :func:`vedic_sensitivity`) and ``koota_score``, the Ashtakoota total
    (:func:`astro_calc.vedic.match_moons`, ``"24.5"``) with that person's Moon moved. The score
    is constant within a half pada (:data:`HALF_PADA_DEG`), so its change is found by root
    finding the half-pada edges one after the other until the total differs. The Manglik
    dosha (Mars from the lagna, Moon and Venus) is not covered: it does not enter the score."""
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    horizon_s = horizon * 60.0
    moments = []
    for side, subject in (("boy", boy), ("girl", girl)):
        try:
            moments.append(birth_moment(subject))
        except CalcInputError as exc:
            raise CalcInputError(f"{side}.{exc.field}", exc.message) from None
    moons = [
        ephemeris.body_position(m.jd_ut, "moon", ayanamsa=s.ayanamsa).longitude
        for m, s in zip(moments, (boy, girl), strict=True)
    ]
    total0 = match_moons(moons[0], moons[1], school=school).total
    parts: list[tuple[str, Sensitivity]] = []
    for k, (side, subject, moment) in enumerate(
        zip(("boy", "girl"), (boy, girl), moments, strict=True)
    ):
        shift = Shift(moment.resolved.utc, moment.resolved.local, moment.jd_ut)
        moon = vedic_sensitivity_at(
            shift,
            subject.latitude,
            subject.longitude,
            ayanamsa=subject.ayanamsa,
            uncertainty_minutes=uncertainty_minutes,
            horizon_minutes=horizon,
            results=MATCH_RESULTS,
        )
        other = moons[1 - k]

        def score_of(band: int, other: float = other, k: int = k) -> str:
            lon = (band + 0.5) * HALF_PADA_DEG
            pair = (lon, other) if k == 0 else (other, lon)
            return _score(match_moons(*pair, school=school).total)

        def half_pada(
            s: float, shift: Shift = shift, subject: BirthSubject = subject
        ) -> PhaseSample:
            p = ephemeris.body_position(shift.jd(s), "moon", ayanamsa=subject.ayanamsa)
            band = int((p.longitude % 360.0) // HALF_PADA_DEG)
            return p.longitude / HALF_PADA_DEG, str(band), p.speed / HALF_PADA_DEG / _DAY_S

        sides = [
            _score_change(half_pada, direction, horizon_s, score_of, _score(total0))
            for direction in (-1, 1)
        ]
        score_item = item(
            "koota_score", _score(total0), shift.utc0, sides[0], sides[1], uncertainty_minutes
        )
        parts.append(
            (
                side,
                sensitivity((*moon.items, score_item), uncertainty_minutes, horizon, moon.warnings),
            )
        )
    return combined(parts)


def _score_change(
    sample: Callable[[float], PhaseSample],
    direction: int,
    horizon_s: float,
    score_of: Callable[[int], str],
    start: str,
) -> Crossing | None:
    """The first half-pada edge, from the birth in ``direction``, beyond which the score is no
    longer ``start``: each edge root found (:func:`phase_crossing`), then the search goes on
    from just past it (half a second: the bracket is at most 0.5 s wide)."""
    s0 = 0.0
    rate = 13.2 / HALF_PADA_DEG / _DAY_S
    while abs(s0) < horizon_s:

        def shifted(s: float, s0: float = s0) -> PhaseSample:
            return sample(s0 + s)

        found = phase_crossing(shifted, direction, horizon_s - abs(s0), 216.0, rate)
        if found is None:
            return None
        at = s0 + found[0]
        score = score_of(int(found[1]))
        if score != start:
            return (at, score)
        s0 = at + direction * 0.5
    return None
