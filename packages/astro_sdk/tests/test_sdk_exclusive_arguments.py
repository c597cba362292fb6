"""Arguments a docstring says are exclusive ("give exactly one") are refused before sending,
naming both; the same rule as the server's request models."""

from __future__ import annotations

import datetime as dt

import pytest
from sdk_testkit import Script, sync_client

import astro_sdk


def test_thai_calendar_refuses_both_date_and_year_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).thai.calendar(date=dt.date(2024, 1, 1), year=2024)
    assert str(caught.value) == "Invalid request: year: give either date or year, not both"
    assert isinstance(caught.value, ValueError)
    assert script.requests == []


def test_thai_calendar_refuses_neither_date_nor_year_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError, match="give date or year"):
        sync_client(script).thai.calendar()
    assert script.requests == []


def test_chinese_calendar_refuses_both_date_and_year_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).chinese.calendar(date=dt.date(2024, 1, 1), year=2024)
    assert str(caught.value) == "Invalid request: year: give exactly one of date and year"
    assert script.requests == []


def test_chinese_bazi_refuses_half_an_annual_range_before_sending() -> None:
    script = Script()
    subject = {"date": "1990-05-14", "time": "06:30", "latitude": 39.9, "longitude": 116.4}
    with pytest.raises(astro_sdk.RequestValidationError, match="together"):
        sync_client(script).chinese.bazi(subject=subject, annual_from_year=2024)
    assert script.requests == []
