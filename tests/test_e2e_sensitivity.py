"""Birth-time sensitivity (issue 34) through the SDK against the live stack (PostgreSQL + Redis).

SDK -> live server -> astro_calc.sensitivity and back: the ``sensitivity`` answers of the Western
natal chart, BaZi, Saju and Qi Men, and ``client.western.rectification_window``, compared with
astro_calc computed in this process for the same input; the charge is the price table's row
(``<operation>.sensitivity`` is one credit more); the SDK refuses an uncertainty outside 0..720
before sending, and the server refuses it too (sent raw) naming the field.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import httpx
import msgspec
import pytest

from astro_calc import sensitivity
from astro_calc.western import BirthSubject
from astro_sdk import AstroClient, AsyncAstroClient, RequestValidationError
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUBJECT = {"date": "1961-07-01", "time": "19:45", "latitude": 52.83, "longitude": 0.5,
           "timezone": "Europe/London"}  # fmt: skip
BIRTH = {"date": "1990-05-15", "time": "10:47", "latitude": 39.9042, "longitude": 116.4074,
         "timezone": "Asia/Shanghai"}  # fmt: skip


def _account(stack: Stack, credits: int) -> dict[str, Any]:
    return create_account(stack, tier="free", credits=credits, name="sensitivity")


def _plain(value: msgspec.Struct) -> Any:
    return json.loads(msgspec.json.encode(value))


def test_natal_sensitivity_and_rectification_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = _account(shared_stack, credits=30)
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        bare = client.western.natal(subject=SUBJECT)
        edge = client.western.natal(subject=SUBJECT, sensitivity={"uncertainty_minutes": 720})
        window = client.western.rectification_window(
            date="1961-07-01", latitude=52.83, longitude=0.5, timezone="Europe/London",
            start_time="18:00", end_time="22:00",
        )  # fmt: skip
        with pytest.raises(RequestValidationError) as refused:  # refused before sending
            client.western.natal(subject=SUBJECT, sensitivity={"uncertainty_minutes": 721})
    assert [d["field"] for d in refused.value.details] == ["sensitivity.uncertainty_minutes"]
    assert bare.sensitivity is None
    assert "sensitivity" not in bare.api_response.http_response.json()
    assert bare.api_response.credits_charged == 1
    assert edge.sensitivity is not None
    expected = sensitivity.natal_sensitivity(
        BirthSubject(dt.date(1961, 7, 1), "19:45", 52.83, 0.5, None, "Europe/London"),
        uncertainty_minutes=720,
    )
    assert edge.api_response.http_response.json()["sensitivity"] == _plain(expected)
    assert "ascendant.sign" in edge.sensitivity.uncertain
    assert edge.api_response.credits_charged == 2
    calc_window = sensitivity.rectification_window(
        dt.date(1961, 7, 1), dt.time(18), dt.time(22), latitude=52.83, longitude=0.5,
        timezone_name="Europe/London",
    )  # fmt: skip
    assert [(e.result, e.at, e.from_, e.to) for e in window.events] == [
        (e.result, e.at, e.from_, e.to) for e in calc_window.events
    ]
    assert window.api_response.credits_charged == 2
    # The server refuses what the SDK would not send.
    raw = httpx.post(
        f"{shared_server.base_url}/api/v3/western/natal",
        json={"subject": SUBJECT, "sensitivity": {"uncertainty_minutes": -1}},
        headers={"Authorization": f"Bearer {account['api_key']}"},
    )
    assert raw.status_code == 400
    assert [d["field"] for d in raw.json()["details"]] == ["sensitivity.uncertainty_minutes"]


async def test_chinese_sensitivity_through_the_async_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = _account(shared_stack, credits=30)
    async with AsyncAstroClient(
        api_key=account["api_key"], base_url=shared_server.base_url
    ) as client:
        option = {"uncertainty_minutes": 0}
        bazi = await client.chinese.bazi(subject=BIRTH, sensitivity=option)
        qimen = await client.chinese.qimen(subject=BIRTH, sensitivity={"uncertainty_minutes": 90})
        saju = await client.korean.saju(subject=BIRTH, sensitivity=option)
        plain = await client.chinese.bazi(subject=BIRTH)
    place = {"latitude": 39.9042, "longitude": 116.4074}
    when = (dt.date(1990, 5, 15), dt.time(10, 47))
    expected = {
        "bazi": sensitivity.bazi_sensitivity(*when, **place, timezone_name="Asia/Shanghai"),
        "qimen": sensitivity.qimen_sensitivity(
            *when, **place, offset_minutes=480, uncertainty_minutes=90
        ),
        "saju": sensitivity.saju_sensitivity(*when, **place, timezone_name="Asia/Shanghai"),
    }
    for name, result in (("bazi", bazi), ("qimen", qimen), ("saju", saju)):
        assert result.sensitivity is not None, name
        body = result.api_response.http_response.json()
        assert body["sensitivity"] == _plain(expected[name]), name
        assert result.api_response.credits_charged == 2, name
    assert {"pillar.hour", "pillar.day", "pillar.month"} <= {
        item.result
        for item in bazi.sensitivity.items  # type: ignore[union-attr]
    }
    assert plain.sensitivity is None
    assert plain.api_response.credits_charged == 1


def test_vedic_thai_uranian_sensitivity_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    from astro_calc.time import resolve
    from astro_calc.vedic import BirthSubject as VedicSubject

    account = _account(shared_stack, credits=30)
    vedic_subject = {"date": "1985-07-21", "time": "14:35", "latitude": 13.08,
                     "longitude": 80.27, "timezoneOffsetMinutes": 330}  # fmt: skip
    thai_subject = {"date": "2024-05-15", "time": "17:50", "latitude": 13.75,
                    "longitude": 100.5, "timezone": "Asia/Bangkok"}  # fmt: skip
    option = {"uncertainty_minutes": 30}
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        vedic = client.vedic.chart(subject=vedic_subject, sensitivity=option)
        thai = client.thai.wheel(subject=thai_subject, sensitivity=option)
        uranian = client.uranian.chart(
            birth_date="1879-03-14", birth_time="11:30", birth_lat=48.4, birth_lon=10.0,
            birth_place="Ulm", timezone_offset_minutes=40, sensitivity=option,
        )  # fmt: skip
    expected = {
        "vedic": sensitivity.vedic_sensitivity(
            VedicSubject(dt.date(1985, 7, 21), "14:35", 13.08, 80.27, 330),
            uncertainty_minutes=30,
        ),
        "thai": sensitivity.thai_sensitivity(
            resolve(
                dt.date(2024, 5, 15),
                dt.time(17, 50),
                latitude=13.75,
                longitude=100.5,
                timezone_name="Asia/Bangkok",
            ),
            uncertainty_minutes=30,
        ),
        "uranian": sensitivity.uranian_sensitivity(
            dt.date(1879, 3, 14),
            "11:30",
            48.4,
            10.0,
            timezone_offset_minutes=40,
            uncertainty_minutes=30,
        ),
    }
    prices = {"vedic": 2, "thai": 2, "uranian": 3}
    for name, result in (("vedic", vedic), ("thai", thai), ("uranian", uranian)):
        assert result.sensitivity is not None, name
        body = result.api_response.http_response.json()
        assert body["sensitivity"] == _plain(expected[name]), name
        assert result.api_response.credits_charged == prices[name], name
    # The Thai birth day changes at 18:00, ten minutes after the birth: not certain within 30.
    assert thai.sensitivity is not None
    assert thai.sensitivity.uncertain


def test_derived_charts_dasha_matching_thai_days_and_hr_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    """The routes wired after the first ones: each answer's ``sensitivity`` is astro_calc's,
    the charge is the bare row plus one, and the answer without the option has none."""
    from astro_calc.time import resolve
    from astro_calc.vedic import BirthSubject as VedicSubject
    from astro_server.platform.billing.pricing import OPERATIONS

    out = shared_stack.run_cli(
        "create-account", "--name", "sensitivity-pro", "--tier", "pro", "--credits", "200",
        "--json",
    )  # fmt: skip
    api_key = json.loads(out.stdout.strip().splitlines()[-1])["api_key"]
    other = {"date": "1962-06-18", "time": "06:10", "latitude": 53.4, "longitude": -2.98,
             "timezone": "Europe/London"}  # fmt: skip
    boy = {"date": "1985-07-21", "time": "14:35", "latitude": 13.08, "longitude": 80.27,
           "timezoneOffsetMinutes": 330}  # fmt: skip
    girl = {"date": "1988-02-03", "time": "05:50", "latitude": 19.07, "longitude": 72.88,
            "timezoneOffsetMinutes": 330}  # fmt: skip
    candidate = {"name": "Somchai", "birth_date": "1990-05-16", "birth_time": "17:35",
                 "timezoneOffsetMinutes": 420, "latitude": 13.75, "longitude": 100.5}  # fmt: skip
    option = {"uncertainty_minutes": 45}
    with AstroClient(api_key=api_key, base_url=shared_server.base_url) as client:
        answers = {
            "western.synastry": client.western.synastry(
                subject_a=SUBJECT, subject_b=other, sensitivity=option
            ),
            "western.composite": client.western.composite(
                subject_a=SUBJECT, subject_b=other, sensitivity=option
            ),
            "western.returns": client.western.returns(
                subject=SUBJECT, kind="solar", year=2020, sensitivity=option
            ),
            "western.progressions": client.western.progressions(
                subject=SUBJECT, target_date="2020-01-01T00:00:00Z", sensitivity=option
            ),
            "western.transits": client.western.transits(
                subject=SUBJECT,
                start="2020-01-01T00:00:00Z",
                end="2020-01-05T00:00:00Z",
                sensitivity=option,
            ),
            "vedic.dasha": client.vedic.dasha(subject=boy, sensitivity=option),
            "vedic.kundli_matching": client.vedic.kundli_matching(
                boy=boy, girl=girl, sensitivity=option
            ),
            "thai.auspicious_times": client.thai.auspicious_times(
                purpose="wedding",
                start_date="2026-01-01",
                end_date="2026-01-31",
                birth_date="1990-05-16",
                birth_time="17:35",
                sensitivity=option,
            ),
            "reports.hr_screening": client.reports.hr_screening(
                candidate=candidate,
                position="software engineer",
                as_of="2026-01-01",
                sensitivity=option,
            ),
        }
        bare = client.vedic.dasha(subject=boy)
        with pytest.raises(RequestValidationError) as refused:  # refused before sending
            client.vedic.kundli_matching(
                boy=boy, girl=girl, sensitivity={"uncertainty_minutes": -1}
            )
    assert [d["field"] for d in refused.value.details] == ["sensitivity.uncertainty_minutes"]
    assert bare.sensitivity is None
    assert bare.api_response.credits_charged == OPERATIONS["vedic.dasha"].credits

    a = BirthSubject(dt.date(1961, 7, 1), "19:45", 52.83, 0.5, None, "Europe/London")
    b = BirthSubject(dt.date(1962, 6, 18), "06:10", 53.4, -2.98, None, "Europe/London")
    calc_boy = VedicSubject(dt.date(1985, 7, 21), "14:35", 13.08, 80.27, 330)
    calc_girl = VedicSubject(dt.date(1988, 2, 3), "05:50", 19.07, 72.88, 330)
    natal_a = sensitivity.natal_sensitivity(a, uncertainty_minutes=45)
    pair = sensitivity.combined(
        [("subject_a", natal_a), ("subject_b", sensitivity.natal_sensitivity(b, **option))]
    )
    thai_birth = resolve(dt.date(1990, 5, 16), dt.time(17, 35), offset_minutes=420)
    expected = {
        "western.synastry": pair,
        "western.composite": pair,
        "western.returns": natal_a,
        "western.progressions": natal_a,
        "western.transits": natal_a,
        "vedic.dasha": sensitivity.dasha_sensitivity(calc_boy, **option),
        "vedic.kundli_matching": sensitivity.matching_sensitivity(calc_boy, calc_girl, **option),
        "thai.auspicious_times": sensitivity.thai_sensitivity(thai_birth, **option),
        "reports.hr_screening": sensitivity.hr_sensitivity(
            dt.date(1990, 5, 16),
            dt.time(17, 35),
            latitude=13.75,
            longitude=100.5,
            offset_minutes=420,
            **option,
        ),
    }
    for operation, result in answers.items():
        assert result.sensitivity is not None, operation
        body = result.api_response.http_response.json()
        assert body["sensitivity"] == _plain(expected[operation]), operation
        charged = result.api_response.credits_charged
        assert charged == OPERATIONS[operation].credits + 1, operation
    # 17:35 on a Wednesday: Wednesday night begins at 18:00, within the 45 minutes.
    thai_days = answers["thai.auspicious_times"].sensitivity
    assert thai_days is not None
    assert "thai.birth_day" in thai_days.uncertain
