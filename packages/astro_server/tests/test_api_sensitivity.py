"""The birth-time ``sensitivity`` option (issue 34) on the birth-based routes, its price, and
``POST /api/v3/western/rectification-window``.

In-process app on SQLite. The ``sensitivity`` object is compared with astro_calc's own
:mod:`astro_calc.sensitivity` result for the same input (its tests check every crossing by brute
force at +-1 s and the pillars against lunar-python); here: the option's edges (0 and 720
accepted, -1 and 721 refused naming ``sensitivity.uncertainty_minutes``), the answer without the
option byte for byte the bare calculation's, the charge and the estimate from the price table.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_calc import sensitivity
from astro_calc.western import BirthSubject, natal_chart
from astro_server.platform.billing.pricing import (
    OPERATIONS,
    SENSITIVE_OPERATIONS,
    SENSITIVITY_EXTRA_CREDITS,
    variant_of,
)

SUBJECT: dict[str, Any] = {
    "date": "1961-07-01",
    "time": "19:45",
    "latitude": 52.8333,
    "longitude": 0.5,
    "timezone": "Europe/London",
}
CALC_SUBJECT = BirthSubject(dt.date(1961, 7, 1), "19:45", 52.8333, 0.5, None, "Europe/London")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path)
    async with running_app(settings) as application:
        yield application


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json(), response


def _plain(value: msgspec.Struct) -> Any:
    return json.loads(msgspec.json.encode(value))


# --- the price table -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SENSITIVE_OPERATIONS)
def test_each_sensitive_operation_has_a_row_one_credit_dearer_at_its_tier(name: str) -> None:
    bare, row = OPERATIONS[name], OPERATIONS[f"{name}.sensitivity"]
    assert row.tier == bare.tier
    assert row.credits == bare.credits + SENSITIVITY_EXTRA_CREDITS == bare.credits + 1
    assert variant_of(name, {"sensitivity": {"uncertainty_minutes": 5}}) == f"{name}.sensitivity"
    assert variant_of(name, {"sensitivity": None}) == name


def test_interpretations_and_sensitivity_add_up() -> None:
    for level in ("summary", "full"):
        interpreted = OPERATIONS[f"western.natal.interpretations_{level}"]
        both = OPERATIONS[f"western.natal.interpretations_{level}.sensitivity"]
        assert both.tier == interpreted.tier == "pro"
        assert both.credits == interpreted.credits + 1
        assert (
            variant_of("western.natal", {"interpretations": level, "sensitivity": {}})
            == f"western.natal.interpretations_{level}.sensitivity"
        )
    # An operation without the option is priced as itself.
    assert variant_of("tarot.draw", {"sensitivity": {}}) == "tarot.draw"


@pytest.mark.parametrize("value", [True, 30, "30", ["x"]])
def test_a_sensitivity_that_is_not_an_object_names_the_field(value: object) -> None:
    from astro_server.platform.errors import APIError

    with pytest.raises(APIError) as err:
        variant_of("western.natal", {"sensitivity": value})
    assert err.value.status == 400
    assert err.value.details[0]["field"] == "params.sensitivity"  # type: ignore[index]


# --- Western natal -------------------------------------------------------------------------------


async def test_natal_without_the_option_is_the_bare_chart_byte_for_byte(
    client: Client, key: str
) -> None:
    status, _body, response = await _post(client, key, "western/natal", {"subject": SUBJECT})
    assert status == 200
    assert await response.get_data() == msgspec.json.encode(natal_chart(CALC_SUBJECT))
    assert response.headers["X-Credits-Charged"] == "1"


@pytest.mark.parametrize("minutes", [0, 720, 37.5])
async def test_natal_sensitivity_is_astro_calcs_and_costs_one_more(
    client: Client, key: str, minutes: float
) -> None:
    body = {"subject": SUBJECT, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, "western/natal", body)
    assert status == 200, answer
    expected = sensitivity.natal_sensitivity(CALC_SUBJECT, uncertainty_minutes=minutes)
    assert answer["sensitivity"] == _plain(expected)
    assert answer["sensitivity"]["uncertainty_minutes"] == minutes
    # The chart itself is unchanged by the option.
    assert {k: v for k, v in answer.items() if k != "sensitivity"} == _plain(
        natal_chart(CALC_SUBJECT)
    )
    assert response.headers["X-Credits-Charged"] == "2"
    items = {item["result"]: item for item in answer["sensitivity"]["items"]}
    assert "ascendant.sign" in items
    if minutes == 720:  # the ascendant changes sign within 12 hours either side
        assert "ascendant.sign" in answer["sensitivity"]["uncertain"]


async def test_natal_sensitivity_with_interpretations_is_the_combined_row(
    client: Client,
) -> None:
    _id, pro = await new_account("pro", 100)
    body = {"subject": SUBJECT, "interpretations": "summary", "sensitivity": {}}
    status, answer, response = await _post(client, pro, "western/natal", body)
    assert status == 200, answer
    assert answer["interpretations"]["level"] == "summary"
    assert answer["sensitivity"]["uncertainty_minutes"] == 0
    assert response.headers["X-Credits-Charged"] == str(
        OPERATIONS["western.natal.interpretations_summary.sensitivity"].credits
    )
    assert response.headers["X-Credits-Charged"] == "3"


@pytest.mark.parametrize("minutes", [-1, 721, "ten"])
async def test_natal_uncertainty_outside_0_720_names_the_field(
    client: Client, key: str, minutes: object
) -> None:
    body = {"subject": SUBJECT, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, _response = await _post(client, key, "western/natal", body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == ["sensitivity.uncertainty_minutes"]


async def test_estimates_price_the_option(client: Client, key: str) -> None:
    for params, operation, credits in (
        ({"subject": SUBJECT}, "western.natal", 1),
        (
            {"subject": SUBJECT, "sensitivity": {"uncertainty_minutes": 30}},
            "western.natal.sensitivity",
            2,
        ),
        (
            {"subject": SUBJECT, "interpretations": "full", "sensitivity": {}},
            "western.natal.interpretations_full.sensitivity",
            4,
        ),
    ):
        status, answer, _response = await _post(
            client, key, "estimates", {"operation": "western.natal", "params": params}
        )
        assert status == 200, answer
        assert (answer["operation"], answer["estimated_credits"]) == (operation, credits)


async def test_the_option_is_documented(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    op = doc["paths"]["/api/v3/western/natal"]["post"]
    schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    assert "sensitivity" in schema["properties"]
    assert "interpretations" in schema["properties"]
    assert "Sensitivity" in doc["components"]["schemas"]
    request = op["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in request:
        request = doc["components"]["schemas"][request["$ref"].rsplit("/", 1)[1]]
    assert "sensitivity" in request["properties"]


# --- BaZi, Saju, Qi Men --------------------------------------------------------------------------

BIRTH: dict[str, Any] = {
    "date": "1990-05-15",
    "time": "10:47",
    "latitude": 39.9042,
    "longitude": 116.4074,
    "timezone": "Asia/Shanghai",
}
SEOUL: dict[str, Any] = {
    "date": "1988-02-04",
    "time": "23:20",
    "latitude": 37.5665,
    "longitude": 126.978,
    "timezone": "Asia/Seoul",
}


def _calc_chinese(path: str, minutes: float) -> sensitivity.Sensitivity:
    if path == "chinese/bazi":
        return sensitivity.bazi_sensitivity(
            dt.date(1990, 5, 15), dt.time(10, 47), latitude=39.9042, longitude=116.4074,
            timezone_name="Asia/Shanghai", uncertainty_minutes=minutes,
        )  # fmt: skip
    if path == "korean/saju":
        return sensitivity.saju_sensitivity(
            dt.date(1988, 2, 4), dt.time(23, 20), latitude=37.5665, longitude=126.978,
            timezone_name="Asia/Seoul", uncertainty_minutes=minutes,
        )  # fmt: skip
    return sensitivity.qimen_sensitivity(
        dt.date(1990, 5, 15), dt.time(10, 47), latitude=39.9042, longitude=116.4074,
        offset_minutes=480, uncertainty_minutes=minutes,
    )  # fmt: skip


CHINESE = [("chinese/bazi", BIRTH), ("korean/saju", SEOUL), ("chinese/qimen", BIRTH)]


@pytest.mark.parametrize(("path", "subject"), CHINESE)
async def test_chinese_routes_without_the_option_are_unchanged_and_cost_one(
    client: Client, key: str, path: str, subject: dict[str, Any]
) -> None:
    status, answer, response = await _post(client, key, path, {"subject": subject})
    assert status == 200, answer
    assert "sensitivity" not in answer
    assert b'"sensitivity"' not in await response.get_data()
    assert response.headers["X-Credits-Charged"] == "1"


@pytest.mark.parametrize(("path", "subject"), CHINESE)
@pytest.mark.parametrize("minutes", [0, 720])
async def test_chinese_sensitivity_is_astro_calcs_and_costs_one_more(
    client: Client, key: str, path: str, subject: dict[str, Any], minutes: float
) -> None:
    bare_status, bare, _r = await _post(client, key, path, {"subject": subject})
    body = {"subject": subject, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, path, body)
    assert (bare_status, status) == (200, 200), answer
    assert answer["sensitivity"] == _plain(_calc_chinese(path, minutes))
    assert {k: v for k, v in answer.items() if k != "sensitivity"} == bare
    assert response.headers["X-Credits-Charged"] == "2"
    results = {item["result"] for item in answer["sensitivity"]["items"]}
    if path == "chinese/qimen":
        assert results == {"qimen.ju"}
    else:
        assert {"pillar.hour", "pillar.day", "pillar.month"} <= results
        if minutes == 720:  # twelve hours either side always changes the hour pillar
            assert "pillar.hour" in answer["sensitivity"]["uncertain"]


@pytest.mark.parametrize(("path", "subject"), CHINESE)
@pytest.mark.parametrize("minutes", [-1, 721])
async def test_chinese_uncertainty_outside_0_720_names_the_field(
    client: Client, key: str, path: str, subject: dict[str, Any], minutes: float
) -> None:
    body = {"subject": subject, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, _response = await _post(client, key, path, body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == ["sensitivity.uncertainty_minutes"]


# --- rectification window ------------------------------------------------------------------------

WINDOW: dict[str, Any] = {
    "date": "1961-07-01",
    "latitude": 52.8333,
    "longitude": 0.5,
    "timezone": "Europe/London",
    "start_time": "18:00",
    "end_time": "22:00",
}


async def test_rectification_window_is_astro_calcs_and_priced(client: Client, key: str) -> None:
    status, answer, response = await _post(client, key, "western/rectification-window", WINDOW)
    assert status == 200, answer
    expected = sensitivity.rectification_window(
        dt.date(1961, 7, 1), dt.time(18), dt.time(22), latitude=52.8333, longitude=0.5,
        timezone_name="Europe/London",
    )  # fmt: skip
    assert answer == _plain(expected)
    results = {event["result"] for event in answer["events"]}
    # Four hours always cross an ascendant sign and two Chinese double hours.
    assert "ascendant.sign" in results
    assert sum(event["result"] == "pillar.hour" for event in answer["events"]) == 2
    assert [e["at"] for e in answer["events"]] == sorted(e["at"] for e in answer["events"])
    assert response.headers["X-Credits-Charged"] == str(
        OPERATIONS["western.rectification_window"].credits
    )


async def test_rectification_window_of_a_full_day_wraps_to_the_next(
    client: Client, key: str
) -> None:
    body = {**WINDOW, "start_time": "06:30", "end_time": "06:30", "ayanamsa": "raman"}
    status, answer, _response = await _post(client, key, "western/rectification-window", body)
    assert status == 200, answer
    start = dt.datetime.fromisoformat(answer["start_utc"])
    end = dt.datetime.fromisoformat(answer["end_utc"])
    assert end - start == dt.timedelta(hours=24)
    assert sum(event["result"] == "pillar.hour" for event in answer["events"]) == 12


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"start_time": "24:00"}, "start_time"),
        ({"end_time": "7pm"}, "end_time"),
        ({"latitude": 91}, "latitude"),
        ({"longitude": -181}, "longitude"),
        ({"ayanamsa": "tropical"}, "ayanamsa"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"timezoneOffsetMinutes": 1081}, "timezoneOffsetMinutes"),
    ],
)
async def test_rectification_window_limits_name_the_field(
    client: Client, key: str, override: dict[str, Any], field: str
) -> None:
    body = {**WINDOW, **override}
    status, answer, _response = await _post(client, key, "western/rectification-window", body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == [field]


async def test_rectification_window_is_documented_under_western(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    op = doc["paths"]["/api/v3/western/rectification-window"]["post"]
    assert op["tags"] == ["Western"]
    assert op["operationId"] == "westernRectificationWindow"
    assert "402" in op["responses"]


# --- Vedic chart ---------------------------------------------------------------------------------

VEDIC: dict[str, Any] = {
    "date": "1985-07-21",
    "time": "14:35",
    "latitude": 13.08,
    "longitude": 80.27,
    "timezoneOffsetMinutes": 330,
}


@pytest.mark.parametrize("minutes", [0, 720])
async def test_vedic_sensitivity_is_astro_calcs_and_costs_one_more(
    client: Client, key: str, minutes: float
) -> None:
    from astro_calc.vedic import BirthSubject as VedicSubject

    status, bare, bare_response = await _post(client, key, "vedic/chart", {"subject": VEDIC})
    assert status == 200
    assert "sensitivity" not in bare
    assert bare_response.headers["X-Credits-Charged"] == "1"
    body = {"subject": VEDIC, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, "vedic/chart", body)
    assert status == 200, answer
    expected = sensitivity.vedic_sensitivity(
        VedicSubject(dt.date(1985, 7, 21), "14:35", 13.08, 80.27, 330),
        uncertainty_minutes=minutes,
    )
    assert answer["sensitivity"] == _plain(expected)
    assert {k: v for k, v in answer.items() if k != "sensitivity"} == bare
    assert response.headers["X-Credits-Charged"] == "2"


@pytest.mark.parametrize("minutes", [-1, 721])
async def test_vedic_uncertainty_outside_0_720_names_the_field(
    client: Client, key: str, minutes: float
) -> None:
    body = {"subject": VEDIC, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, _response = await _post(client, key, "vedic/chart", body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == ["sensitivity.uncertainty_minutes"]


# --- Thai Taksa wheel (the Thai birth day) -------------------------------------------------------

THAI: dict[str, Any] = {  # a Wednesday, ten minutes before Wednesday night begins (18:00)
    "date": "2024-05-15",
    "time": "17:50",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}


@pytest.mark.parametrize("minutes", [0, 720])
async def test_thai_wheel_sensitivity_is_astro_calcs_and_costs_one_more(
    client: Client, key: str, minutes: float
) -> None:
    from astro_calc.time import resolve

    status, bare, bare_response = await _post(client, key, "thai/wheel", {"subject": THAI})
    assert status == 200
    assert "sensitivity" not in bare
    assert bare_response.headers["X-Credits-Charged"] == "1"
    body = {"subject": THAI, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, "thai/wheel", body)
    assert status == 200, answer
    resolved = resolve(
        dt.date(2024, 5, 15), dt.time(17, 50), latitude=13.75, longitude=100.5,
        timezone_name="Asia/Bangkok",
    )  # fmt: skip
    expected = sensitivity.thai_sensitivity(resolved, uncertainty_minutes=minutes)
    assert answer["sensitivity"] == _plain(expected)
    assert {k: v for k, v in answer.items() if k != "sensitivity"} == bare
    assert response.headers["X-Credits-Charged"] == "2"
    # Wednesday night begins at 18:00 local: the birth day changes ten minutes after the birth.
    changes = [
        item["changes_after"]
        for item in answer["sensitivity"]["items"]
        if item["changes_after"] is not None
    ]
    assert any(change["minutes"] == pytest.approx(10, abs=1 / 60) for change in changes)


@pytest.mark.parametrize("minutes", [-1, 721])
async def test_thai_uncertainty_outside_0_720_names_the_field(
    client: Client, key: str, minutes: float
) -> None:
    body = {"subject": THAI, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, _response = await _post(client, key, "thai/wheel", body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == ["sensitivity.uncertainty_minutes"]


# --- Uranian chart -------------------------------------------------------------------------------

URANIAN: dict[str, Any] = {
    "birth_date": "1879-03-14",
    "birth_time": "11:30",
    "birth_lat": 48.4,
    "birth_lon": 10.0,
    "birth_place": "Ulm",
    "timezoneOffsetMinutes": 40,
}


@pytest.mark.parametrize("minutes", [0, 720])
async def test_uranian_chart_sensitivity_is_astro_calcs_and_costs_one_more(
    client: Client, key: str, minutes: float
) -> None:
    status, bare, bare_response = await _post(client, key, "uranian/chart", URANIAN)
    assert status == 200
    assert "sensitivity" not in bare
    assert bare_response.headers["X-Credits-Charged"] == "2"
    body = {**URANIAN, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, "uranian/chart", body)
    assert status == 200, answer
    expected = sensitivity.uranian_sensitivity(
        dt.date(1879, 3, 14), "11:30", 48.4, 10.0, timezone_offset_minutes=40,
        uncertainty_minutes=minutes,
    )  # fmt: skip
    assert answer["sensitivity"] == _plain(expected)
    assert answer["sensitivity"]["items"]
    rest = {k: v for k, v in answer.items() if k != "sensitivity"}
    for chart in (rest, bare):
        del chart["meta"]["computed_at"]  # the clock reading, the one field that moves
    assert rest == bare
    assert response.headers["X-Credits-Charged"] == "3"


@pytest.mark.parametrize("minutes", [-1, 721])
async def test_uranian_uncertainty_outside_0_720_names_the_field(
    client: Client, key: str, minutes: float
) -> None:
    body = {**URANIAN, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, _response = await _post(client, key, "uranian/chart", body)
    assert status == 400
    assert [d["field"] for d in answer["details"]] == ["sensitivity.uncertainty_minutes"]


async def test_the_midpoints_route_does_not_take_the_option(client: Client, key: str) -> None:
    body = {**URANIAN, "sensitivity": {"uncertainty_minutes": 5}}
    status, answer, response = await _post(client, key, "uranian/midpoints", body)
    assert status == 200
    assert "sensitivity" not in answer
    assert response.headers["X-Credits-Charged"] == "1"
