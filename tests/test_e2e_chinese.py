"""Chinese & Korean through the SDK against the live stack (hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back. Pillars are checked against published
charts (sources cited in astro_calc's tests and below), the rest against astro_calc computed in
this process for the same input; credits against the price table (1 credit per call).
"""

from __future__ import annotations

import datetime as dt

import pytest

import astro_sdk
from astro_calc.chinese import bazi_chart, qimen_chart
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Bruce Lee, 1940-11-27 07:12 San Francisco: 庚辰 丁亥 甲戌 戊辰 (published BaZi chart).
BRUCE_LEE = {"date": "1940-11-27", "time": "07:12", "latitude": 37.79, "longitude": -122.41,
             "timezone": "America/Los_Angeles"}  # fmt: skip
# korean-saju's documented example: 1994-04-28 23:40 KST in Seoul, zone from the coordinates.
SEOUL = {"date": "1994-04-28", "time": "23:40", "latitude": 37.5665, "longitude": 126.978}
# qimen-rs README example: 2024-02-10 12:00 UTC+8.
QIMEN = {"date": "2024-02-10", "time": "12:00", "latitude": 39.9, "longitude": 116.4,
         "timezoneOffsetMinutes": 480}  # fmt: skip


def test_bazi_saju_qimen_and_calendar_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=6, name="chinese")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        bazi = client.chinese.bazi(
            subject=BRUCE_LEE,
            gender="male",
            annual_from_year=1970,
            annual_to_year=1973,
            reference_date=dt.date(1970, 1, 1),
        )
        saju = client.korean.saju(subject=SEOUL, gender="female")
        qimen = client.chinese.qimen(subject=QIMEN)
        zhi_run = client.chinese.qimen(subject=QIMEN, method="zhi_run")
        new_year = client.chinese.calendar(date="2024-02-10")
        year = client.chinese.calendar(year=2025)

    pillars = bazi.chart.pillars
    assert (pillars.year.ganzhi, pillars.month.ganzhi, pillars.day.ganzhi, pillars.hour.ganzhi) == (
        "庚辰", "丁亥", "甲戌", "戊辰",
    )  # fmt: skip
    assert bazi.chart.birth.utc == dt.datetime(1940, 11, 27, 15, 12, tzinfo=dt.UTC)
    assert bazi.chart.birth.offset_minutes == -480
    expected = bazi_chart(
        dt.date(1940, 11, 27),
        dt.time(7, 12),
        latitude=37.79,
        longitude=-122.41,
        timezone_name="America/Los_Angeles",
        gender="male",
        annual_years=(1970, 1973),
        reference_date=dt.date(1970, 1, 1),
    )
    assert bazi.chart.luck is not None
    assert expected.luck is not None
    assert [p.pillar.ganzhi for p in bazi.chart.luck.pillars] == [
        p.pillar.ganzhi for p in expected.luck.pillars
    ]
    assert bazi.chart.luck.start.start_date == expected.luck.start.start_date
    assert [a.pillar.ganzhi for a in bazi.chart.annual_pillars] == ["庚戌", "辛亥", "壬子", "癸丑"]
    assert bazi.chart.element_balance.total == expected.element_balance.total
    assert bazi.chart.strength.verdict == expected.strength.verdict
    assert bazi.readings[0].key == "day_master.jia"
    assert all(r.en and r.th for r in bazi.readings)

    assert saju.chart.pillars_hanja == "甲戌年 戊辰月 甲申日 丙子時"
    assert saju.chart.pillars_hangul == "갑술년 무진월 갑신일 병자시"
    assert saju.chart.bazi.birth.timezone == "Asia/Seoul"
    assert saju.chart.bazi.birth.offset_minutes == 540

    assert qimen.moment.utc == dt.datetime(2024, 2, 10, 4, 0, tzinfo=dt.UTC)
    assert (qimen.chart.dun, qimen.chart.yuan, qimen.chart.ju) == ("yang", "lower", 2)
    assert (qimen.chart.chief.star.character, qimen.chart.chief.star_palace) == ("天芮", 4)
    assert (qimen.chart.chief.door.character, qimen.chart.chief.door_palace) == ("死门", 8)
    assert [p.number for p in qimen.chart.palaces] == list(range(1, 10))
    local_zhi_run = qimen_chart(
        dt.date(2024, 2, 10), dt.time(12, 0), offset_minutes=480, method="zhi_run"
    )
    assert (zhi_run.chart.method, zhi_run.chart.ju) == ("zhi_run", local_zhi_run.ju)
    assert [p.door.key if p.door else None for p in zhi_run.chart.palaces] == [
        p.door.key if p.door else None for p in local_zhi_run.palaces
    ]

    assert new_year.chinese_date is not None
    assert new_year.chinese_date.label == "甲辰年正月初一"
    assert len(year.solar_terms) == 24
    assert [(m.month, m.first_day) for m in year.lunar_months if m.is_leap] == [
        (6, dt.date(2025, 7, 25))
    ]


def test_every_call_reports_its_credits_until_the_balance_runs_out(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=2, name="chinese")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        first = client.chinese.calendar(year=2024)
        second = client.korean.saju(subject=SEOUL)
        with pytest.raises(astro_sdk.InsufficientCreditsError) as caught:
            client.chinese.bazi(subject=BRUCE_LEE)
    assert (first.api_response.credits_charged, first.api_response.credits_remaining) == (1, 1)
    assert (second.api_response.credits_charged, second.api_response.credits_remaining) == (1, 0)
    assert caught.value.status_code == 402
    assert caught.value.error == "payment_required"


async def test_async_client_and_a_field_level_400(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="chinese")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        result = await c.chinese.bazi(subject=BRUCE_LEE, day_boundary="midnight")
        # Korea began daylight saving at 02:00 on 1988-05-08: 02:30 never happened in Seoul.
        skipped = {**SEOUL, "date": "1988-05-08", "time": "02:30", "timezone": "Asia/Seoul"}
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            await c.korean.saju(subject=skipped)
    assert result.chart.pillar_time.day_boundary == "midnight"
    assert result.api_response.credits_remaining == 4
    assert caught.value.details == [
        {"field": "subject.time", "message": caught.value.details[0]["message"]}
    ]
