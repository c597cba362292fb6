"""Moon phases against USNO "Phases of the Moon" (aa.usno.navy.mil, 2024 table),
2-minute tolerance: new moon 2024-11-01 12:47 UT, full moon 2024-11-15 21:28 UT,
new moon 2024-12-01 06:21 UT.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.thai.lunar import lunar_info

TOL = timedelta(minutes=2)


def test_phases_match_usno() -> None:
    info = lunar_info(datetime(2024, 11, 10, tzinfo=UTC), 13.7563, 100.5018)
    assert abs(info.previous_new_moon_utc - datetime(2024, 11, 1, 12, 47, tzinfo=UTC)) < TOL
    assert abs(info.next_full_moon_utc - datetime(2024, 11, 15, 21, 28, tzinfo=UTC)) < TOL
    assert abs(info.next_new_moon_utc - datetime(2024, 12, 1, 6, 21, tzinfo=UTC)) < TOL
    assert info.phase == "first_quarter"
    assert info.timezone == "Asia/Bangkok"


def test_full_moon_is_fully_lit_and_local_day_is_used() -> None:
    info = lunar_info(datetime(2024, 11, 15, 21, 28, tzinfo=UTC), 13.7563, 100.5018)
    assert info.phase == "full_moon"
    assert info.illumination > 0.998
    assert info.local_date == "2024-11-16"  # 04:28 in Bangkok
    assert (info.thai_lunar_date.lunar_month, info.thai_lunar_date.phase) == (12, "waning")
    assert info.age_days == pytest.approx(14.36, abs=0.01)


def test_naive_moment_is_refused() -> None:
    with pytest.raises(CalcInputError):
        lunar_info(datetime(2024, 1, 1), 13.75, 100.5)
