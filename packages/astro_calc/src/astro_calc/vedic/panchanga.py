"""Panchanga (the five limbs of the Hindu day) for a moment and place.

Conventions
-----------
* Tithi: the Moon-Sun elongation in 30 parts of 12 degrees (1..15 shukla paksha ending with
  Purnima, 16..30 krishna paksha ending with Amavasya). Independent of the ayanamsa.
* Nakshatra: the Moon's sidereal longitude in 27 parts (ayanamsa parameter, ``lahiri``
  default). Yoga: the sum of the sidereal longitudes of Sun and Moon in 27 parts.
* Karana: half-tithis (6 degrees of elongation). The first half of shukla Pratipada is the fixed
  Kimstughna, then the seven movable karanas (Bava .. Vishti) repeat eight times, and the last
  three half-tithis of the month are the fixed Shakuni, Chatushpada and Naga.
* Vara and the Hindu day run from sunrise to the next sunrise: a moment before sunrise belongs to
  the previous vara. The weekday is that of the sunrise's local date.
* Sunrise convention (``sunrise`` parameter): ``"upper_limb"`` (default) is the almanac sunrise,
  the Sun's upper limb on the horizon with standard refraction, as used by Drik Panchang and most
  modern almanacs; ``"disc_center"`` puts the centre of the disc on the horizon (with refraction);
  ``"hindu"`` is the classical Hindu sunrise, the centre of the disc on the horizon with no
  refraction, seen from the Earth's centre (Swiss Ephemeris's Hindu rising; the definition in
  Drik Panchang's FAQ and PyJHora's default), about four minutes after the almanac sunrise at
  mid latitudes.
* Start and end times are the instants the angle crosses the element's boundaries, found by
  root refinement to 0.5 s; times are UTC.

Checked against Drik Panchang published tithi and nakshatra end times and against PyJHora in
``test_vedic_panchanga.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Final, Literal, get_args

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root
from astro_calc.vedic.zodiac import NAKSHATRA_SPAN_DEG, NAKSHATRAS

SunriseConvention = Literal["upper_limb", "disc_center", "hindu"]

TITHI_NAMES: Final = (
    "Pratipada",
    "Dwitiya",
    "Tritiya",
    "Chaturthi",
    "Panchami",
    "Shashthi",
    "Saptami",
    "Ashtami",
    "Navami",
    "Dashami",
    "Ekadashi",
    "Dwadashi",
    "Trayodashi",
    "Chaturdashi",
)
YOGA_NAMES: Final = (
    "Vishkambha",
    "Priti",
    "Ayushman",
    "Saubhagya",
    "Shobhana",
    "Atiganda",
    "Sukarma",
    "Dhriti",
    "Shula",
    "Ganda",
    "Vriddhi",
    "Dhruva",
    "Vyaghata",
    "Harshana",
    "Vajra",
    "Siddhi",
    "Vyatipata",
    "Variyana",
    "Parigha",
    "Shiva",
    "Siddha",
    "Sadhya",
    "Shubha",
    "Shukla",
    "Brahma",
    "Indra",
    "Vaidhriti",
)
MOVABLE_KARANAS: Final = ("Bava", "Balava", "Kaulava", "Taitila", "Garaja", "Vanija", "Vishti")
VARA_NAMES: Final = (
    "Ravivara",
    "Somavara",
    "Mangalavara",
    "Budhavara",
    "Guruvara",
    "Shukravara",
    "Shanivara",
)
WEEKDAYS_EN: Final = (
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
)

# Search windows (days) longer than the longest duration of each element, so the boundary
# before the moment is bracketed: tithi <= 1.12 d, nakshatra <= 1.14 d, yoga <= 1.05 d,
# karana <= 0.56 d.
_WINDOW_DAYS: Final = {"tithi": 1.3, "nakshatra": 1.3, "yoga": 1.3, "karana": 0.8}


class PanchangaElement(msgspec.Struct, frozen=True):
    number: int
    name: str
    start: datetime
    end: datetime


class Tithi(msgspec.Struct, frozen=True):
    number: int  # 1..30
    name: str
    paksha: Literal["shukla", "krishna"]
    start: datetime
    end: datetime


class Vara(msgspec.Struct, frozen=True):
    number: int  # 1 = Sunday
    name: str
    weekday: str
    start: datetime  # sunrise
    end: datetime  # next sunrise


class Panchanga(msgspec.Struct, frozen=True):
    moment: datetime
    latitude: float
    longitude: float
    ayanamsa: str
    sunrise_convention: SunriseConvention
    sunrise: datetime
    sunset: datetime
    next_sunrise: datetime
    vara: Vara
    tithi: Tithi
    nakshatra: PanchangaElement
    yoga: PanchangaElement
    karana: PanchangaElement


def tithi_name(number: int) -> str:
    """Name of tithi 1..30 (15 Purnima, 30 Amavasya)."""
    if number == 15:
        return "Purnima"
    if number == 30:
        return "Amavasya"
    return TITHI_NAMES[(number - 1) % 15]


def karana_name(half_tithi: int) -> str:
    """Name of karana for half-tithi 0..59 counted from new moon."""
    if half_tithi == 0:
        return "Kimstughna"
    if half_tithi >= 57:
        return ("Shakuni", "Chatushpada", "Naga")[half_tithi - 57]
    return MOVABLE_KARANAS[(half_tithi - 1) % 7]


def _elongation(jd: float) -> float:
    moon = ephemeris.body_position(jd, "moon").longitude
    sun = ephemeris.body_position(jd, "sun").longitude
    return (moon - sun) % 360.0


def _span(
    value: Callable[[float], float], jd: float, span_deg: float, window: float
) -> tuple[int, float, float]:
    """(index, start jd, end jd) of the equal division of ``value`` that contains ``jd``."""
    v = value(jd)
    index = math.floor(v / span_deg)
    start_deg = index * span_deg
    end_deg = ((index + 1) * span_deg) % 360.0

    def to_start(t: float) -> float:
        return ephemeris.angle_diff(value(t), start_deg)

    def to_end(t: float) -> float:
        return ephemeris.angle_diff(value(t), end_deg)

    start = refine_root(to_start, jd - window, jd)
    end = refine_root(to_end, jd, jd + window)
    return index, start, end


def _dt(jd: float) -> datetime:
    return ephemeris.datetime_from_jd(jd)


def _rise_set(
    jd: float, latitude: float, longitude: float, kind: ephemeris.RiseKind, c: SunriseConvention
) -> float | None:
    return ephemeris.rise_set(
        jd, "sun", latitude, longitude, kind, disc_center=c == "disc_center", hindu=c == "hindu"
    )


def _sunrise_on_or_before(
    jd: float, latitude: float, longitude: float, convention: SunriseConvention
) -> tuple[float, float]:
    """(last sunrise at or before jd, the following sunrise)."""

    def rise(t: float) -> float:
        r = _rise_set(t, latitude, longitude, "rise", convention)
        if r is None:
            raise CalcInputError(
                "latitude", "the Sun does not rise or set at this place and date (polar day)"
            )
        return r

    r = rise(jd - 1.2)
    nxt = rise(r + 1e-3)
    while nxt <= jd:
        r, nxt = nxt, rise(nxt + 1e-3)
    return r, nxt


def panchanga_at(
    jd_ut: float,
    latitude: float,
    longitude: float,
    *,
    ayanamsa: str = "lahiri",
    sunrise: SunriseConvention = "upper_limb",
) -> Panchanga:
    """Panchanga of the moment ``jd_ut`` at a place (conventions in the module docstring).

    Checked against Drik Panchang published tithi/nakshatra end times (New Delhi) to 2 minutes
    and PyJHora tithi, nakshatra, yoga and karana numbers and end times to 1 minute."""
    if sunrise not in get_args(SunriseConvention):
        raise CalcInputError("sunrise", "must be 'upper_limb', 'disc_center' or 'hindu'")
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    if not -180.0 <= longitude <= 180.0:
        raise CalcInputError("longitude", "must be between -180 and 180")
    ephemeris.ayanamsa_value(jd_ut, ayanamsa)  # validates the name, naming the field

    rise_jd, next_rise_jd = _sunrise_on_or_before(jd_ut, latitude, longitude, sunrise)
    set_jd = _rise_set(rise_jd, latitude, longitude, "set", sunrise)
    if set_jd is None:
        raise CalcInputError("latitude", "the Sun does not set at this place and date")

    # Weekday of the sunrise's local (mean solar) date: JD day numbers start at noon.
    weekday = math.floor(rise_jd + longitude / 360.0 + 1.5) % 7
    vara = Vara(
        weekday + 1, VARA_NAMES[weekday], WEEKDAYS_EN[weekday], _dt(rise_jd), _dt(next_rise_jd)
    )

    t_idx, t_start, t_end = _span(_elongation, jd_ut, 12.0, _WINDOW_DAYS["tithi"])
    number = t_idx + 1
    tithi = Tithi(
        number,
        tithi_name(number),
        "shukla" if number <= 15 else "krishna",
        _dt(t_start),
        _dt(t_end),
    )

    def moon_sid(t: float) -> float:
        return ephemeris.body_position(t, "moon", ayanamsa=ayanamsa).longitude

    def sum_sid(t: float) -> float:
        s = ephemeris.body_position(t, "sun", ayanamsa=ayanamsa).longitude
        return (s + moon_sid(t)) % 360.0

    n_idx, n_start, n_end = _span(moon_sid, jd_ut, NAKSHATRA_SPAN_DEG, _WINDOW_DAYS["nakshatra"])
    y_idx, y_start, y_end = _span(sum_sid, jd_ut, NAKSHATRA_SPAN_DEG, _WINDOW_DAYS["yoga"])
    k_idx, k_start, k_end = _span(_elongation, jd_ut, 6.0, _WINDOW_DAYS["karana"])
    return Panchanga(
        moment=_dt(jd_ut),
        latitude=latitude,
        longitude=longitude,
        ayanamsa=ayanamsa,
        sunrise_convention=sunrise,
        sunrise=_dt(rise_jd),
        sunset=_dt(set_jd),
        next_sunrise=_dt(next_rise_jd),
        vara=vara,
        tithi=tithi,
        nakshatra=PanchangaElement(n_idx + 1, NAKSHATRAS[n_idx], _dt(n_start), _dt(n_end)),
        yoga=PanchangaElement(y_idx + 1, YOGA_NAMES[y_idx], _dt(y_start), _dt(y_end)),
        karana=PanchangaElement(k_idx + 1, karana_name(k_idx), _dt(k_start), _dt(k_end)),
    )
