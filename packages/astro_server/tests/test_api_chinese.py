"""Chinese & Korean endpoints: BaZi, Qi Men Dun Jia, the Chinese calendar, Korean Saju.

In-process app on SQLite. Known charts go through the API and come back with the published values
the calculation tests use (their sources are cited there and below); every request limit is tried
at and past its edge; field-level 400s name the field; 401 without a key, 402 without credits.
"""

from __future__ import annotations

from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_server.platform.models.accounts import Account

# Bruce Lee, 1940-11-27 07:12 San Francisco: 庚辰 丁亥 甲戌 戊辰, the chart reproduced throughout
# the BaZi literature (also in astro_calc's test_chinese_bazi.py).
BRUCE_LEE: dict[str, Any] = {
    "date": "1940-11-27",
    "time": "07:12",
    "latitude": 37.79,
    "longitude": -122.41,
    "timezone": "America/Los_Angeles",
}
# korean-saju's documented example: 1994-04-28 23:40 KST, Seoul (zone found from the coordinates).
SEOUL_1994: dict[str, Any] = {
    "date": "1994-04-28",
    "time": "23:40",
    "latitude": 37.5665,
    "longitude": 126.978,
}
# qimen-rs README example: 2024-02-10 12:00 UTC+8.
QIMEN_2024: dict[str, Any] = {
    "date": "2024-02-10",
    "time": "12:00",
    "latitude": 39.9,
    "longitude": 116.4,
    "timezoneOffsetMinutes": 480,
}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json()


def _ganzhi(pillars: dict[str, Any]) -> tuple[str, ...]:
    return tuple(pillars[name]["ganzhi"] for name in ("year", "month", "day", "hour"))


# --- known charts ---------------------------------------------------------------------------------


async def test_bazi_of_a_published_chart(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/chinese/bazi",
        json={"subject": BRUCE_LEE, "gender": "male", "annual_from_year": 1970,
              "annual_to_year": 1973, "reference_date": "1970-01-01"},
        headers=key_headers(key),
    )  # fmt: skip
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    body = await response.get_json()
    chart = body["chart"]
    assert _ganzhi(chart["pillars"]) == ("庚辰", "丁亥", "甲戌", "戊辰")
    # 1940-11-27 was on Pacific Standard Time (UTC-8).
    assert chart["birth"]["utc"] == "1940-11-27T15:12:00Z"
    assert chart["birth"]["offset_minutes"] == -480
    assert chart["birth"]["timezone"] == "America/Los_Angeles"
    day_master = chart["day_master"]
    assert (day_master["character"], day_master["element"], day_master["polarity"]) == (
        "甲", "wood", "yang",
    )  # fmt: skip
    assert [a["year"] for a in chart["annual_pillars"]] == [1970, 1971, 1972, 1973]
    assert chart["annual_pillars"][0]["pillar"]["ganzhi"] == "庚戌"  # 1970 is a 庚戌 year
    assert len(chart["luck"]["pillars"]) == 8
    assert chart["current_luck_pillar"] is not None
    topics = [r["topic"] for r in body["readings"]]
    assert topics[0] == "day_master"
    assert "luck_pillar" in topics
    assert body["readings"][0]["key"] == "day_master.jia"
    assert all(r["en"] and r["th"] for r in body["readings"])


async def test_bazi_without_gender_has_no_luck_pillars(client: Client, key: str) -> None:
    status, body = await _post(client, key, "chinese/bazi", {"subject": BRUCE_LEE})
    assert status == 200
    assert body["chart"]["luck"] is None
    assert body["chart"]["current_luck_pillar"] is None
    assert body["chart"]["annual_pillars"] == []


@pytest.mark.parametrize(("boundary", "day"), [("zi", "乙酉"), ("midnight", "甲申")])
async def test_bazi_day_boundary_at_23_40(
    client: Client, key: str, boundary: str, day: str
) -> None:
    subject = {**SEOUL_1994, "timezoneOffsetMinutes": 540}
    status, body = await _post(
        client, key, "chinese/bazi", {"subject": subject, "day_boundary": boundary}
    )
    assert status == 200
    assert body["chart"]["pillars"]["day"]["ganzhi"] == day
    assert body["chart"]["pillars"]["hour"]["ganzhi"] == "丙子"
    assert body["chart"]["pillar_time"]["day_boundary"] == boundary


async def test_bazi_true_solar_time_moves_the_pillar_clock(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "chinese/bazi", {"subject": BRUCE_LEE, "solar_time": "true"}
    )
    assert status == 200
    pillar_time = body["chart"]["pillar_time"]
    assert pillar_time["mode"] == "true"
    # San Francisco is 2.41 deg west of the 120 deg W meridian: about -9.6 min, plus the EoT.
    assert pillar_time["correction_minutes"] == pytest.approx(
        -9.64 + pillar_time["equation_of_time_minutes"], abs=0.05
    )


async def test_saju_of_the_documented_example(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "korean/saju", {"subject": SEOUL_1994, "gender": "female"}
    )
    assert status == 200
    chart = body["chart"]
    assert chart["pillars_hanja"] == "甲戌年 戊辰月 甲申日 丙子時"
    assert chart["pillars_hangul"] == "갑술년 무진월 갑신일 병자시"
    assert chart["hour_basis"] == "korean_almanac"
    assert chart["standard_meridian_deg"] == 135.0
    assert chart["daylight_saving"] is False
    birth = chart["bazi"]["birth"]
    assert (birth["utc"], birth["offset_minutes"]) == ("1994-04-28T14:40:00Z", 540)
    assert (birth["timezone"], birth["time_source"]) == ("Asia/Seoul", "coordinates")
    # A yang (甲) year and a female: the luck pillars run backward.
    assert chart["bazi"]["luck"]["start"]["direction"] == "backward"
    assert body["readings"][0]["key"] == "day_master.jia"


async def test_saju_zi_boundary_changes_the_day(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "korean/saju", {"subject": SEOUL_1994, "day_boundary": "zi"}
    )
    assert status == 200
    assert body["chart"]["bazi"]["pillars"]["day"]["ganzhi"] == "乙酉"


async def test_qimen_of_the_published_example(client: Client, key: str) -> None:
    status, body = await _post(client, key, "chinese/qimen", {"subject": QIMEN_2024})
    assert status == 200
    assert body["moment"]["utc"] == "2024-02-10T04:00:00Z"
    assert body["moment"]["offset_minutes"] == 480
    chart = body["chart"]
    assert chart["method"] == "chai_bu"
    assert chart["solar_term"]["character"] == "立春"
    assert (chart["dun"], chart["yuan"], chart["ju"]) == ("yang", "lower", 2)
    assert chart["pillars"] == ["甲辰", "丙寅", "甲辰", "庚午"]
    assert (chart["chief"]["star"]["character"], chart["chief"]["star_palace"]) == ("天芮", 4)
    assert (chart["chief"]["door"]["character"], chart["chief"]["door_palace"]) == ("死门", 8)
    assert [b["character"] for b in chart["void_branches"]] == ["戌", "亥"]
    assert (chart["horse_star"]["character"], chart["horse_palace"]) == ("申", 2)
    assert [p["number"] for p in chart["palaces"]] == list(range(1, 10))
    assert chart["palaces"][4]["door"] is None


async def test_qimen_zhi_run_method(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "chinese/qimen", {"subject": QIMEN_2024, "method": "zhi_run"}
    )
    assert status == 200
    assert body["chart"]["method"] == "zhi_run"
    assert body["chart"]["dun"] == "yang"
    assert 1 <= body["chart"]["ju"] <= 9


async def test_calendar_date_is_the_chinese_new_year(client: Client, key: str) -> None:
    # 2024-02-10 was the first day of the 甲辰 (dragon) year.
    status, body = await _post(client, key, "chinese/calendar", {"date": "2024-02-10"})
    assert status == 200
    assert body["mode"] == "date"
    assert body["solar_terms"] == []
    assert body["lunar_months"] == []
    date = body["chinese_date"]
    assert (date["lunar_year"], date["month"], date["day"], date["is_leap_month"]) == (
        2024, 1, 1, False,
    )  # fmt: skip
    assert date["label"] == "甲辰年正月初一"
    assert date["zodiac_animal"] == "dragon"


async def test_calendar_year_has_24_terms_and_the_leap_month(client: Client, key: str) -> None:
    status, body = await _post(client, key, "chinese/calendar", {"year": 2025})
    assert status == 200
    assert body["mode"] == "year"
    assert body["chinese_date"] is None
    assert len(body["solar_terms"]) == 24
    assert body["solar_terms"][0]["character"] == "小寒"
    # 2025 (乙巳) has a leap sixth month (闰六月), from 2025-07-25.
    leap = [m for m in body["lunar_months"] if m["is_leap"]]
    assert [(m["month"], m["first_day"]) for m in leap] == [(6, "2025-07-25")]
    assert len(body["lunar_months"]) == 13


async def test_calendar_lichun_2024_to_the_minute(client: Client, key: str) -> None:
    # Hong Kong Observatory: 立春 2024-02-04 16:27 HKT (UTC+8).
    status, body = await _post(client, key, "chinese/calendar", {"year": 2024})
    assert status == 200
    lichun = body["solar_terms"][2]
    assert lichun["character"] == "立春"
    assert lichun["utc"].startswith("2024-02-04T08:27:")
    assert [m["is_leap"] for m in body["lunar_months"]] == [False] * 12


# --- limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"latitude": 90.01}, "subject.latitude"),
        ({"latitude": -90.01}, "subject.latitude"),
        ({"longitude": 180.01}, "subject.longitude"),
        ({"longitude": -180.01}, "subject.longitude"),
        ({"timezoneOffsetMinutes": 1081}, "subject.timezoneOffsetMinutes"),
        ({"timezoneOffsetMinutes": -1081}, "subject.timezoneOffsetMinutes"),
        ({"time": "24:00"}, "subject.time"),
        ({"time": "7:12"}, "subject.time"),
        ({"time": "07:12:60"}, "subject.time"),
        ({"timezone": "Nowhere/City"}, "subject.timezone"),
        ({"timezone": "x" * 65}, "subject.timezone"),
        ({"date": "1800-12-31"}, "subject.date"),
        ({"date": "2200-01-01"}, "subject.date"),
        ({"date": "1940-02-30"}, "subject.date"),
    ],
)
async def test_subject_limits_are_field_level_400s(
    client: Client, override: dict[str, Any], field: str
) -> None:
    account_id, key = await new_account("free", 5)
    status, body = await _post(client, key, "chinese/bazi", {"subject": {**BRUCE_LEE, **override}})
    assert status == 400
    assert body["error"] == "validation_error"
    assert body["details"][0]["field"] == field
    assert (await Account.get(id=account_id)).credits == 5  # a 400 costs nothing


@pytest.mark.parametrize(
    "override",
    [
        {"latitude": 90}, {"latitude": -90}, {"longitude": 180}, {"longitude": -180},
        {"timezoneOffsetMinutes": 1080, "timezone": None},
        {"timezoneOffsetMinutes": -1080, "timezone": None},
        {"time": "23:59:59"}, {"time": "00:00"},
        {"date": "1801-01-01"}, {"date": "2199-12-31"},
    ],
)  # fmt: skip
async def test_subject_values_on_the_limits_are_accepted(
    client: Client, key: str, override: dict[str, Any]
) -> None:
    status, _body = await _post(client, key, "chinese/bazi", {"subject": {**BRUCE_LEE, **override}})
    assert status == 200


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"gender": "other"}, "gender"),
        ({"day_boundary": "noon"}, "day_boundary"),
        ({"solar_time": "apparent"}, "solar_time"),
        ({"luck_pillar_count": 0}, "luck_pillar_count"),
        ({"luck_pillar_count": 13}, "luck_pillar_count"),
        ({"annual_from_year": 1800, "annual_to_year": 1810}, "annual_from_year"),
        ({"annual_from_year": 2190, "annual_to_year": 2200}, "annual_to_year"),
        ({"annual_from_year": 1950, "annual_to_year": 2070}, "annual_to_year"),  # 121 years
        ({"annual_from_year": 1990, "annual_to_year": 1989}, "annual_to_year"),
        ({"annual_from_year": 1990}, "annual_to_year"),
        ({"annual_to_year": 1990}, "annual_to_year"),
        ({"reference_date": "1970-13-01"}, "reference_date"),
    ],
)
async def test_bazi_option_limits(
    client: Client, key: str, extra: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, "chinese/bazi", {"subject": BRUCE_LEE, **extra})
    assert status == 400
    assert body["details"][0]["field"] == field


@pytest.mark.parametrize(
    "extra",
    [
        {"luck_pillar_count": 1, "gender": "female"},
        {"luck_pillar_count": 12, "gender": "male"},
        {"annual_from_year": 1950, "annual_to_year": 2069},  # 120 years
        {"annual_from_year": 1801, "annual_to_year": 1801},
        {"annual_from_year": 2199, "annual_to_year": 2199},
    ],
)
async def test_bazi_options_on_the_limits_are_accepted(
    client: Client, key: str, extra: dict[str, Any]
) -> None:
    status, body = await _post(client, key, "chinese/bazi", {"subject": BRUCE_LEE, **extra})
    assert status == 200
    if "luck_pillar_count" in extra:
        assert len(body["chart"]["luck"]["pillars"]) == extra["luck_pillar_count"]
    else:
        span = extra["annual_to_year"] - extra["annual_from_year"] + 1
        assert len(body["chart"]["annual_pillars"]) == span


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"hour_basis": "solar"}, "hour_basis"),
        ({"day_boundary": "noon"}, "day_boundary"),
        ({"gender": "x"}, "gender"),
        ({"annual_from_year": 1950, "annual_to_year": 2070}, "annual_to_year"),
    ],
)
async def test_saju_option_limits(
    client: Client, key: str, extra: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, "korean/saju", {"subject": SEOUL_1994, **extra})
    assert status == 400
    assert body["details"][0]["field"] == field


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"method": "fei_pan"}, "method"), ({"day_boundary": "dawn"}, "day_boundary")],
)
async def test_qimen_option_limits(
    client: Client, key: str, extra: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, "chinese/qimen", {"subject": QIMEN_2024, **extra})
    assert status == 400
    assert body["details"][0]["field"] == field


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"year": 1899}, "year"),
        ({"year": 2101}, "year"),
        ({}, "year"),
        ({"date": "2024-02-10", "year": 2024}, "year"),
        ({"date": "1900-01-31"}, "date"),
        ({"date": "2101-01-01"}, "date"),
        ({"date": "2024-02-30"}, "date"),
    ],
)
async def test_calendar_limits(client: Client, key: str, body: dict[str, Any], field: str) -> None:
    status, answer = await _post(client, key, "chinese/calendar", body)
    assert status == 400
    assert answer["details"][0]["field"] == field


@pytest.mark.parametrize(
    "body", [{"year": 1900}, {"year": 2100}, {"date": "1900-02-01"}, {"date": "2100-12-31"}]
)
async def test_calendar_values_on_the_limits_are_accepted(
    client: Client, key: str, body: dict[str, Any]
) -> None:
    status, _answer = await _post(client, key, "chinese/calendar", body)
    assert status == 200


async def test_a_local_time_skipped_by_daylight_saving_names_subject_time(
    client: Client, key: str
) -> None:
    # Korea began daylight saving on 1988-05-08 at 02:00 (clocks went to 03:00).
    subject = {**SEOUL_1994, "date": "1988-05-08", "time": "02:30", "timezone": "Asia/Seoul"}
    status, body = await _post(client, key, "korean/saju", {"subject": subject})
    assert status == 400
    assert body["details"][0]["field"] == "subject.time"


# --- auth, billing, documentation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("chinese/bazi", {"subject": BRUCE_LEE}),
        ("chinese/qimen", {"subject": QIMEN_2024}),
        ("chinese/calendar", {"year": 2024}),
        ("korean/saju", {"subject": SEOUL_1994}),
    ],
)
async def test_missing_key_is_401(client: Client, path: str, body: dict[str, Any]) -> None:
    response = await client.post(f"/api/v3/{path}", json=body)
    assert response.status_code == 401
    assert (await response.get_json())["error"] == "unauthorized"


async def test_no_credits_is_402(client: Client) -> None:
    _id, poor = await new_account("free", 0)
    status, body = await _post(client, poor, "chinese/calendar", {"year": 2024})
    assert status == 402
    assert body["error"] == "payment_required"


async def test_every_route_is_documented_under_the_chinese_and_korean_tag(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    routes = {
        "/api/v3/chinese/bazi": "chineseBazi",
        "/api/v3/chinese/qimen": "chineseQimen",
        "/api/v3/chinese/calendar": "chineseCalendar",
        "/api/v3/korean/saju": "koreanSaju",
    }
    for path, op_id in routes.items():
        op = doc["paths"][path]["post"]
        assert op["tags"] == ["Chinese & Korean"]
        assert op["operationId"] == op_id
        assert {"200", "401", "402"} <= set(op["responses"])
    # This group's schemas are prefixed so Western's ElementBalance keeps its own shape.
    schemas = doc["components"]["schemas"]
    assert "ChineseElementBalance" in schemas
    assert "weighting" in schemas["ChineseElementBalance"]["properties"]
