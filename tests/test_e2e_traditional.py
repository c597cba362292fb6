"""Hellenistic timing (issue 46) through the SDK against the live stack (hypercorn on PostgreSQL +
Redis): profections, zodiacal releasing and its timeline picture, firdaria, the natal chart's
lots.

Each call goes SDK -> live server -> astro_calc and back. Values are checked against astro_calc
computed in this process for the same input, and against a published releasing: Emperor
Akihito's from Spirit around 8 August 2016 ("Zodiacal Releasing - part 3",
windsoftheplanets.com, 2016; birth data Astrodatabank AA: level 2 Libra from 11 January 2016, a
peak; level 3 Aquarius 14 June - 27 August 2016). Credits against the price table.
"""

from __future__ import annotations

import datetime as dt

import pytest

import astro_sdk
from astro_calc.disclaimers import disclaimer_for
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.traditional import firdaria, natal_lots, profections, zodiacal_releasing
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# 1 May 1990, 07:30 UTC+7, Bangkok: Gemini rising, a day chart.
BANGKOK = {"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5,
           "timezoneOffsetMinutes": 420}  # fmt: skip
CALC_BANGKOK = BirthSubject(dt.date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
# Emperor Akihito, 23 December 1933, 06:39 JST, Tokyo: a night chart.
AKIHITO = {"date": "1933-12-23", "time": "06:39", "latitude": 35.6895, "longitude": 139.6917,
           "timezoneOffsetMinutes": 540}  # fmt: skip
CALC_AKIHITO = BirthSubject(
    dt.date(1933, 12, 23), "06:39", 35.6895, 139.6917, timezone_offset_minutes=540
)


def test_timing_techniques_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="traditional")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        year = client.western.profections(subject=BANGKOK, on_date="2026-12-07")
        releasing = client.western.zodiacal_releasing(
            subject=AKIHITO, levels=4, start="2016-01-01", end="2016-12-31"
        )
        periods = client.western.firdaria(subject=BANGKOK, on_date=dt.date(2026, 1, 1))
        night = client.western.firdaria(subject=AKIHITO, node_placement="after_mercury")
        picture = client.western.zodiacal_releasing_chart(
            subject=AKIHITO, levels=2, start="2012-01-01", end="2031-12-31", format="png"
        )

    expected_year = profections(CALC_BANGKOK, dt.date(2026, 12, 7))
    assert (year.age, year.sign, year.house, year.lord_of_year) == (36, "gemini", 1, "mercury")
    assert [m.sign for m in year.months] == [m.sign for m in expected_year.months]
    assert year.year_start == expected_year.year_start
    assert year.interpretations is None
    assert year.disclaimer.code == "traditional_timing"
    assert year.sensitivity is None
    assert year.api_response.credits_charged == 1

    expected = zodiacal_releasing(
        CALC_AKIHITO, levels=4, start=dt.date(2016, 1, 1), end=dt.date(2016, 12, 31)
    )
    assert (releasing.lot_sign, releasing.fortune_sign, releasing.sect) == (
        "pisces", "libra", "night",
    )  # fmt: skip
    assert [(p.level, p.sign, p.start, p.end, p.peak, p.loosing_of_the_bond)
            for p in releasing.periods] == [
        (p.level, p.sign, p.start, p.end, p.peak, p.loosing_of_the_bond)
        for p in expected.periods
    ]  # fmt: skip
    noon = dt.datetime(2016, 8, 8, 12, tzinfo=dt.UTC)
    running = {p.level: p for p in releasing.periods if p.start <= noon < p.end}
    assert running[2].sign == "libra"
    assert running[2].start.date() == dt.date(2016, 1, 11)
    assert running[2].peak
    assert running[3].sign == "aquarius"
    assert running[3].start.date() == dt.date(2016, 6, 14)
    assert running[3].end.date() == dt.date(2016, 8, 28)  # the last day is 27 August
    assert running[4].sign == "scorpio"
    assert releasing.api_response.credits_charged == 2

    assert periods.sect == "day"
    assert periods.current is not None
    assert periods.current.ruler == "moon"
    assert [p.ruler for p in periods.periods] == [
        p.ruler for p in firdaria(CALC_BANGKOK, on_date=dt.date(2026, 1, 1)).periods
    ]
    assert periods.api_response.credits_charged == 1
    assert night.sect == "night"
    assert [p.ruler for p in night.periods][-2:] == ["north_node", "south_node"]

    assert picture.is_png
    assert picture.data.startswith(b"\x89PNG")
    assert picture.api_response.credits_charged == 2
    assert picture.api_response.credits_remaining == 20 - (1 + 2 + 1 + 1 + 2)


def test_natal_lots_and_the_options_prices(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="pro", credits=30, name="traditional")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        bare = client.western.natal(subject=BANGKOK)
        chart = client.western.natal(subject=BANGKOK, lots=True)
        read = client.western.profections(
            subject=BANGKOK, on_date="2026-12-07", interpretations="summary", language="th"
        )
        sensitive = client.western.zodiacal_releasing(
            subject=BANGKOK, levels=1, sensitivity={"uncertainty_minutes": 30}
        )

    assert bare.sect is None
    assert bare.lots is None
    expected_chart = natal_chart(CALC_BANGKOK)
    layer = natal_lots(expected_chart)
    assert chart.sect == layer.sect == "day"
    assert chart.lots is not None
    assert {name: (lot.sign, lot.house) for name, lot in chart.lots.items()} == {
        name: (lot.sign, lot.house) for name, lot in layer.lots.items()
    }
    sun = next(p for p in chart.planets if p.name == "sun")
    bare_sun = next(p for p in bare.planets if p.name == "sun")
    assert set(bare_sun.dignities) <= set(sun.dignities)
    assert chart.api_response.credits_charged == 1

    assert read.interpretations is not None
    assert read.interpretations.language == "th"
    assert read.interpretations.items[0].key == "lord_of_year.mercury"
    assert read.disclaimer.text == disclaimer_for("traditional_timing", "th").text
    assert read.api_response.credits_charged == 2

    assert sensitive.sensitivity is not None
    assert [i.result for i in sensitive.sensitivity.items] == [
        "sect", "lot.fortune.sign", "lot.spirit.sign",
    ]  # fmt: skip
    assert sensitive.api_response.credits_charged == 3
    assert sensitive.api_response.credits_remaining == 30 - (1 + 1 + 2 + 3)


async def test_async_client_and_the_level_four_window(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="traditional")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            await c.western.zodiacal_releasing(
                subject=BANGKOK, levels=4, start="2000-01-01", end="2020-01-01"
            )
        found = await c.western.zodiacal_releasing(subject=BANGKOK, levels=4)
    assert caught.value.details[0]["field"] == "end"
    assert found.end - found.start <= dt.timedelta(days=3660)
    assert {p.level for p in found.periods} == {1, 2, 3, 4}
    # The refused call was not charged.
    assert found.api_response.credits_remaining == 3
