"""Maha Songkran and Thaloeng Sok instants by the Suriyayatra, as the official Thai Songkran
announcements (ประกาศสงกรานต์ of the Bureau of the Royal Household) compute them.

The method
----------
All quantities are the integers of the Suriyayatra; a day holds 800 kammaja of 108 seconds, the
zodiac 12 signs of 30 degrees of 60 arc-minutes (libda), 21600 arc-minutes in all.

* **Thaloeng Sok** of Chulasakarat year ``y`` (the mean solar new year): ``292207 y + 373``
  kammaja after the epoch, i.e. on civil day ``horakhun`` at ``(800 - kammacapon) * 108`` seconds
  after midnight, Thai clock time (see :mod:`astro_calc.thai.suriyayatra` for the elements).
* **The Sun's mean longitude** at the midnight ending day ``s`` after the previous Thaloeng Sok day
  (``s`` is the sotin, the Thaloeng Sok day being 0): with ``r = 800 s + kammacapon`` of the
  previous year, signs ``r // 24350``, then degrees ``// 811`` and arc-minutes ``// 14`` of the
  remainders, less 3 arc-minutes.
* **Equation of centre** (mandaphala, ผลอาทิตย์): the anomaly is the mean longitude less the Sun's
  apogee at 80 degrees, folded into a quadrant; the correction grows by 35, 32, 27, 22, 13 and 5
  arc-minutes over the six 15-degree steps of the quadrant (134 arc-minutes at most), linearly
  within a step (integer division by 900), and is subtracted in the first half of the anomaly
  circle and added in the second. The result is the true longitude (สมผุส).
* **Maha Songkran** falls on the first day whose true longitude at its closing midnight lies in
  the first degree of Aries (``0 <= lambda < 60`` arc-minutes). With ``L`` that longitude and
  ``d`` the true motion over the day (``L`` less the longitude at the midnight before, in
  arc-minutes), the Sun entered Aries ``L / d`` of a day before the closing midnight; the
  announcements give that interval in whole seconds, dropping the fraction, so the instant is
  ``86400 - (86400 L) // d`` seconds after the day's midnight.

The days run midnight to midnight in Thai clock time: zone ``Asia/Bangkok`` (UTC+7 since April
1920, Bangkok mean time UTC+6:42:04 before).

References
----------
The rules are those of the Suriyayatra as described by J.C. Eade, *The Calendrical Systems of
Mainland South-East Asia* (1995); the Sun's daily computation is the one of the Khmer and Thai
almanacs (the same Suriyayatra tables). ``tests/test_thai_songkran.py`` checks the instants against
the announced times of eight years (2009, 2012, 2018, 2020-2024) to the second, and lists the one
announcement (2023) that does not follow the rule.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from astro_calc.thai.suriyayatra import CS_EPOCH_JDN, CS_TO_CE

THAI_CLOCK: Final = ZoneInfo("Asia/Bangkok")

KAMMAJA_PER_DAY: Final = 800
SECONDS_PER_KAMMAJA: Final = 108
ARCMIN_PER_SIGN: Final = 1800
ARCMIN_PER_CIRCLE: Final = 21600
SUN_APOGEE_ARCMIN: Final = 80 * 60
#: Growth of the Sun's equation of centre over each 15-degree step of a quadrant (arc-minutes).
_EQUATION_STEPS: Final = (35, 32, 27, 22, 13, 5)
_EQUATION_MAX: Final = sum(_EQUATION_STEPS)  # 134 arc-minutes
_JDN_OF_ORDINAL_0: Final = 1721425
SECONDS_PER_DAY: Final = 86400


def _year_start_kammaja(cs_year: int) -> int:
    """Kammaja from the epoch to the Thaloeng Sok instant of ``cs_year``."""
    return 292207 * cs_year + 373


def _kammacapon(cs_year: int) -> int:
    return KAMMAJA_PER_DAY - _year_start_kammaja(cs_year) % KAMMAJA_PER_DAY


def _thaloeng_sok_jdn(cs_year: int) -> int:
    return _year_start_kammaja(cs_year) // KAMMAJA_PER_DAY + 1 + CS_EPOCH_JDN


def _civil_midnight(jdn: int) -> datetime:
    """Midnight starting civil day ``jdn`` on the Thai clock."""
    day = datetime.fromordinal(jdn - _JDN_OF_ORDINAL_0)
    return day.replace(tzinfo=THAI_CLOCK)


def sun_mean_longitude_arcmin(sotin: int, kammacapon: int) -> int:
    """The Sun's mean longitude (arc-minutes, may fall below 0 by the 3-minute correction) at the
    midnight closing day ``sotin`` after a Thaloeng Sok whose kammacapon is ``kammacapon``."""
    elapsed = KAMMAJA_PER_DAY * sotin + kammacapon
    signs, rest = divmod(elapsed, 24350)
    degrees, rest = divmod(rest, 811)
    return ARCMIN_PER_SIGN * signs + 60 * degrees + rest // 14 - 3


def sun_equation_of_centre_arcmin(mean_arcmin: int) -> int:
    """The Suriyayatra equation of centre (arc-minutes, signed: true = mean + result)."""
    anomaly = (mean_arcmin - SUN_APOGEE_ARCMIN) % ARCMIN_PER_CIRCLE
    half_circle = ARCMIN_PER_CIRCLE // 2
    quarter = ARCMIN_PER_CIRCLE // 4
    folded = anomaly if anomaly < half_circle else ARCMIN_PER_CIRCLE - anomaly
    if folded > quarter:
        folded = half_circle - folded
    step, within = divmod(folded, 900)
    if step >= len(_EQUATION_STEPS):
        magnitude = _EQUATION_MAX
    else:
        magnitude = sum(_EQUATION_STEPS[:step]) + within * _EQUATION_STEPS[step] // 900
    return -magnitude if anomaly < half_circle else magnitude


def sun_true_longitude_arcmin(sotin: int, kammacapon: int) -> int:
    """The Sun's true longitude (arc-minutes, 0-21599) at the midnight closing day ``sotin``."""
    mean = sun_mean_longitude_arcmin(sotin, kammacapon)
    return (mean + sun_equation_of_centre_arcmin(mean)) % ARCMIN_PER_CIRCLE


def thaloeng_sok_instant(year: int) -> datetime:
    """Thaloeng Sok of the Chulasakarat year starting in April of Gregorian ``year`` (aware, UTC):
    the Suriyayatra mean new year, ``(800 - kammacapon) * 108`` s after midnight of its day.

    Checked against the Royal Household announcements of 2012, 2018 and 2024 to the second.
    """
    cs_year = year - CS_TO_CE
    seconds = (KAMMAJA_PER_DAY - _kammacapon(cs_year)) * SECONDS_PER_KAMMAJA
    local = _civil_midnight(_thaloeng_sok_jdn(cs_year)) + timedelta(seconds=seconds)
    return local.astimezone(UTC)


def maha_songkran_suriyayatra(year: int) -> datetime:
    """Maha Songkran of Gregorian ``year`` by the Suriyayatra (aware, UTC): the true Sun's entry
    into Aries, found day by day and interpolated within the day as the module docstring says.

    Checked against the announced times of 2009, 2012, 2018 and 2020-2024 (2023 excepted, see
    ``tests/test_thai_songkran.py``) to the second.
    """
    previous = year - CS_TO_CE - 1
    kammacapon = _kammacapon(previous)
    previous_day = sun_true_longitude_arcmin(359, kammacapon) - ARCMIN_PER_CIRCLE
    # A Suriyayatra year is 365 or 366 days: the entry lies in its last week.
    for sotin in range(360, 368):
        longitude = sun_true_longitude_arcmin(sotin, kammacapon)
        if longitude < 60:
            motion = longitude - previous_day
            seconds = SECONDS_PER_DAY - SECONDS_PER_DAY * longitude // motion
            midnight = _civil_midnight(_thaloeng_sok_jdn(previous) + sotin)
            return (midnight + timedelta(seconds=seconds)).astimezone(UTC)
        previous_day = longitude - ARCMIN_PER_CIRCLE
    raise AssertionError(f"no Aries ingress found for {year}")  # the solar year is 365-366 days
