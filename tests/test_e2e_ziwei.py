"""Zi Wei Dou Shu through the SDK against the live stack (hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back. The chart is checked against x-iztro's
published README sample (2000-08-16, Yin hour, female; also in astro_calc's
test_chinese_ziwei.py) and, field by field, against astro_calc computed in this process for the
same input; the sensitivity against astro_calc's; the picture against the drawing module's; the
credits against the price table (chart 1, with sensitivity 2, picture 2).
"""

from __future__ import annotations

import datetime as dt
import io
import struct

import msgspec
import pytest

import astro_sdk
from astro_calc.chinese import ziwei_chart
from astro_calc.sensitivity.ziwei import ziwei_sensitivity
from astro_sdk import AstroClient, AsyncAstroClient
from astro_server.drawing.ziwei import ziwei_chart_svg
from astro_server.features.chinese.ziwei_routes import ziwei_result
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# x-iztro's README sample ("Natal Chart 2000-8-16 Tiger hour female"), born in Beijing.
SAMPLE = {"date": "2000-08-16", "time": "04:00", "latitude": 39.9042, "longitude": 116.4074,
          "timezone": "Asia/Shanghai"}  # fmt: skip
ON_DATE = dt.date(2026, 12, 8)


def _plain(value: object) -> object:
    """A struct as the JSON it is sent as."""
    return msgspec.json.decode(msgspec.json.encode(value))


def test_the_chart_its_horoscopes_and_picture_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="ziwei")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        chart = client.chinese.ziwei(subject=SAMPLE, gender="female", on_date=ON_DATE)
        chinese = client.chinese.ziwei(subject=SAMPLE, gender="female", language="zh-Hant")
        sensitive = client.chinese.ziwei(
            subject={**SAMPLE, "time": "04:50"},
            gender="female",
            sensitivity={"uncertainty_minutes": 30},
        )
        svg = client.chinese.ziwei_chart(subject=SAMPLE, gender="female", language="zh")
        png = client.chinese.ziwei_chart(
            subject=SAMPLE, gender="female", language="th", format="png", size_px=600
        )

    # The published sample.
    assert (chart.life_palace_branch, chart.body_palace_branch) == ("wu", "xu")
    assert (chart.five_elements_class.element, chart.five_elements_class.number) == ("wood", 3)
    assert (chart.soul_star, chart.body_star) == ("pojun", "wenchang")
    life = chart.palaces[0]
    assert [(s.name, s.brightness) for s in life.major_stars] == [("ziwei", "miao")]
    marks = {
        s.transformation: (p.name, s.name)
        for p in chart.palaces
        for s in (*p.major_stars, *p.minor_stars)
        if s.transformation
    }
    assert marks == {
        "lu": ("children", "taiyang"),
        "quan": ("wealth", "wuqu"),
        "ke": ("friends", "taiyin"),
        "ji": ("health", "tiantong"),
    }

    # Every field is astro_calc's for the same input.
    expected = ziwei_result(
        ziwei_chart(dt.date(2000, 8, 16), dt.time(4, 0), "female", on_date=ON_DATE)
    )
    assert chart.model_dump(mode="json", exclude={"sensitivity"}) == _plain(expected)
    assert chart.horoscope is not None
    assert chart.horoscope.nominal_age == 27
    assert chart.readings[0].key == "life.ziwei"
    assert chart.api_response.credits_charged == 1

    assert chinese.palaces[0].label == "命宮"
    assert {r.language for r in chinese.readings} == {"en"}  # no Chinese texts: English

    local = ziwei_sensitivity(
        dt.date(2000, 8, 16), dt.time(4, 50), "female", timezone_name="Asia/Shanghai",
        latitude=39.9042, longitude=116.4074, uncertainty_minutes=30,
    )  # fmt: skip
    assert sensitive.sensitivity is not None
    assert sensitive.sensitivity.model_dump(mode="json") == _plain(local)
    assert sensitive.api_response.credits_charged == 2

    assert svg.content_type.startswith("image/svg+xml")
    assert svg.text() == ziwei_chart_svg(
        ziwei_chart(dt.date(2000, 8, 16), dt.time(4, 0), "female", language="zh")
    )
    assert png.is_png
    assert struct.unpack(">II", io.BytesIO(png.data).getbuffer()[16:24]) == (600, 600)
    assert (svg.api_response.credits_charged, png.api_response.credits_charged) == (2, 2)
    assert png.api_response.credits_remaining == 10 - 1 - 1 - 2 - 2 - 2


async def test_async_client_field_level_400s_cost_nothing(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=1, name="ziwei")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        # China began daylight saving at 02:00 on 1988-04-17: 02:30 never happened in Beijing.
        skipped = {**SAMPLE, "date": "1988-04-17", "time": "02:30"}
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            await c.chinese.ziwei(subject=skipped, gender="male")
        result = await c.chinese.ziwei(subject=SAMPLE, gender="male", language="th")
        with pytest.raises(astro_sdk.InsufficientCreditsError):
            await c.chinese.ziwei(subject=SAMPLE, gender="male")
    assert [d["field"] for d in caught.value.details] == ["subject.time"]
    assert {r.language for r in result.readings} == {"th"}
    assert result.disclaimer.code == "ziwei"
    assert result.disclaimer.text.startswith("ดวงจื่อเวย")
    assert result.api_response.credits_remaining == 0
