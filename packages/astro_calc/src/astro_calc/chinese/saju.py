"""Korean Saju (사주, 四柱): the BaZi engine with Korean names and the Korean almanac's hours.

* Civil time: a birth in Korea is read through the IANA zone ``Asia/Seoul`` by default, which
  carries Korea's historical standard meridians (UTC+8:30 on 127.5 deg E in 1908-1911 and
  1954-1961, UTC+9 on 135 deg E otherwise) and its daylight-saving periods (1948-1951,
  1955-1960, 1987-1988). An explicit ``offset_minutes`` or another zone overrides it.
* Hours (``hour_basis``, default ``korean_almanac``): Korean almanacs (만세력) count the twelve
  double hours on the 127.5 deg E meridian, UTC+8:30, whatever the clock says; so under today's
  KST the 자시 runs 23:30-01:30, under the UTC+8:30 years 23:00-01:00, and under daylight saving
  00:30-02:30 on the clock. ``clock``, ``mean`` (the birthplace's local mean time) and ``true``
  (its apparent solar time) are also offered.
* Day boundary (default ``midnight``): the 야자시 separation usual in Korea: from 23:00 to 24:00
  of the hour basis the day pillar stays and the hour is the next day's 자시; ``zi`` changes the
  day at 23:00.
* Year and month pillars from Lichun and the jie to the second, as in BaZi.

Checked against the KASI (Korea Astronomy and Space Science Institute) almanac's day pillars
(일진) 1900-2050, a published 만세력 exercise with its answers, and the korean-saju package
(tests cite the addresses).
"""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Final, Literal

import msgspec

from astro_calc.chinese.bazi import BaziChart, Gender, bazi_from_instant
from astro_calc.chinese.pillars import DayBoundary
from astro_calc.errors import CalcInputError
from astro_calc.time import resolve

HourBasis = Literal["korean_almanac", "clock", "mean", "true"]
HOUR_BASES: Final = ("korean_almanac", "clock", "mean", "true")
#: Minutes east of UTC of the 127.5 deg E meridian used by Korean almanacs for the hours.
ALMANAC_MERIDIAN_OFFSET_MINUTES: Final = 510


class SajuChart(msgspec.Struct, frozen=True):
    hour_basis: HourBasis
    standard_meridian_deg: float  # of the civil time in force at birth (DST removed)
    daylight_saving: bool
    pillars_hangul: str  # e.g. "기사년 병자월 병인일 계사시"
    pillars_hanja: str  # e.g. "己巳年 丙子月 丙寅日 癸巳時"
    bazi: BaziChart  # the full chart; every symbol carries hangul and hanja


def korean_saju(
    local_date: date,
    local_time: time,
    *,
    latitude: float = 37.5665,
    longitude: float = 126.978,
    offset_minutes: int | None = None,
    timezone_name: str | None = "Asia/Seoul",
    gender: Gender | None = None,
    hour_basis: HourBasis = "korean_almanac",
    day_boundary: DayBoundary = "midnight",
    luck_pillar_count: int = 8,
    annual_years: tuple[int, int] | None = None,
    reference_date: date | None = None,
) -> SajuChart:
    """The Saju of a birth given in Korean civil time (Seoul by default).

    Defaults: ``hour_basis="korean_almanac"`` (hours on 127.5 deg E), ``day_boundary="midnight"``
    (야자시 separation), zone ``Asia/Seoul``. Checked against KASI day pillars, a published 만세력
    exercise and korean-saju."""
    if hour_basis not in HOUR_BASES:
        raise CalcInputError("hour_basis", f"must be one of {', '.join(HOUR_BASES)}")
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name if offset_minutes is None else None,
    )
    dst = False
    if offset_minutes is None and resolved.timezone is not None:
        delta = resolved.local.dst()
        dst = bool(delta)
        standard = resolved.offset_minutes - (round(delta.total_seconds() / 60) if delta else 0)
    else:
        standard = resolved.offset_minutes
    override = None
    if hour_basis == "korean_almanac":
        reading = resolved.utc + timedelta(minutes=ALMANAC_MERIDIAN_OFFSET_MINUTES)
        override = ("korean_almanac", reading.replace(tzinfo=None))
    chart = bazi_from_instant(
        resolved,
        latitude=latitude,
        longitude=longitude,
        gender=gender,
        day_boundary=day_boundary,
        solar_time="clock" if hour_basis == "korean_almanac" else hour_basis,
        luck_pillar_count=luck_pillar_count,
        annual_years=annual_years,
        reference_date=reference_date,
        pillar_local_override=override,
    )
    p = chart.pillars
    parts = ((p.year, "년", "年"), (p.month, "월", "月"), (p.day, "일", "日"), (p.hour, "시", "時"))
    return SajuChart(
        hour_basis=hour_basis,
        standard_meridian_deg=standard / 4.0,
        daylight_saving=dst,
        pillars_hangul=" ".join(x.stem.hangul + x.branch.hangul + k for x, k, _ in parts),
        pillars_hanja=" ".join(x.stem.hanja + x.branch.hanja + h for x, _, h in parts),
        bazi=chart,
    )
