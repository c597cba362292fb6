"""Western and Uranian through the SDK against the live stack (hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back; values are compared with astro_calc
computed in this process for the same input, and the billing headers with the price table.
"""

from __future__ import annotations

import datetime as dt

import pytest

import astro_sdk
from astro_calc.uranian import uranian_chart
from astro_calc.western import BirthSubject, natal_chart
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUBJECT = {
    "date": "1879-03-14",
    "time": "11:30",
    "latitude": 48.4,
    "longitude": 10.0,
    "timezoneOffsetMinutes": 40,
}
OTHER = {"date": "1961-07-01", "time": "19:45", "latitude": 52.83, "longitude": 0.5,
         "timezone": "Europe/London"}  # fmt: skip


def test_natal_and_relationship_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="western")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        chart = client.western.natal(subject=SUBJECT, house_system="K")
        synastry = client.western.synastry(subject_a=SUBJECT, subject_b=OTHER)
        composite = client.western.composite(subject_a=SUBJECT, subject_b=OTHER, method="davison")
    expected = natal_chart(
        BirthSubject(dt.date(1879, 3, 14), "11:30", 48.4, 10.0, timezone_offset_minutes=40),
        house_system="K",
    )
    assert chart.meta.utc == dt.datetime(1879, 3, 14, 10, 50, tzinfo=dt.UTC)
    assert chart.meta.house_system == "K"
    assert chart.planets[0].name == "sun"
    assert chart.planets[0].longitude == pytest.approx(expected.planet("sun").longitude, abs=1e-9)
    assert chart.houses[3].cusp == pytest.approx(expected.houses[3].cusp, abs=1e-9)
    assert chart.api_response.credits_charged == 1
    assert 0 <= synastry.compatibility.score <= 100
    assert synastry.api_response.credits_charged == 2
    assert composite.meta.davison is not None


def test_returns_progressions_transits_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="western")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        solar = client.western.returns(subject=SUBJECT, kind="solar", year=1905)
        progressed = client.western.progressions(
            subject=SUBJECT, target_date="1905-06-30T00:00:00Z"
        )
        report = client.western.transits(
            subject=SUBJECT, start="1905-01-01T00:00:00Z", end="1905-12-31T00:00:00Z",
            transiting_bodies=["jupiter", "saturn"],
        )  # fmt: skip
    assert solar.kind == "solar"
    assert solar.return_utc.year == 1905
    assert progressed.secondary is not None
    assert 25 < progressed.secondary.solar_arc < 27
    assert report.events
    assert [e.julian_day for e in report.events] == sorted(e.julian_day for e in report.events)


async def test_uranian_chart_through_the_async_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="western")
    async with AsyncAstroClient(
        api_key=account["api_key"], base_url=shared_server.base_url
    ) as client:
        chart = await client.uranian.chart(
            birth_date="1962-09-24", birth_time="16:05", birth_lat=53.55, birth_lon=9.99,
            birth_place="Hamburg", dial_mode=45, orb_max=0.5, timezone="Europe/Berlin",
        )  # fmt: skip
        with pytest.raises(astro_sdk.RequestValidationError):
            await client.uranian.chart(
                birth_date="1962-09-24", birth_time="16:05", birth_lat=91, birth_lon=9.99,
                birth_place="Hamburg",
            )  # fmt: skip
    expected = uranian_chart(
        dt.date(1962, 9, 24), "16:05", 53.55, 9.99, "Hamburg", dial_mode=45, orb_max=0.5,
        timezone="Europe/Berlin",
    )  # fmt: skip
    assert chart.birth_place == "Hamburg"
    assert chart.meta.orb_max == 0.5
    assert sum(p.is_hamburg for p in chart.positions) == 8
    assert len(chart.midpoints) == 231
    assert [p.interpretation_key for p in chart.planetary_pictures] == [
        p.interpretation_key for p in expected.planetary_pictures
    ]
    assert chart.planetary_pictures[0].interpretation_th
    assert chart.api_response.credits_charged == 2
    # The SDK's HTTP client asks for gzip (and zstd when zstandard is installed, as here) and
    # the server sends this large body compressed.
    assert chart.api_response.headers["Content-Encoding"] in {"gzip", "zstd"}


def test_server_refusal_reaches_the_sdk_as_a_field_error(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="western")
    with (
        AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client,
        pytest.raises(astro_sdk.APIStatusError) as info,
    ):
        # 25:61 matches the spec's pattern but is not a time: the server's calculation says so.
        client.uranian.chart(
            birth_date="1962-09-24", birth_time="25:61", birth_lat=53.55, birth_lon=9.99,
            birth_place="Hamburg",
        )  # fmt: skip
    assert info.value.status_code == 400
