"""Thai Astrology endpoints: calendar, festivals, lunar, wheel and auspicious times; every limit at
its edge (years 1900 and 2200, the 366-day range), 401 without a key, field-level 400s that cost
nothing, and the OpenAPI bounds.

In-process app on SQLite. Bodies are compared with astro_calc's own results for the same input,
which the calculation tests check against the published Thai tables and official dates.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.thai import taksa_wheel, thai_festivals
from astro_server.platform.auth import credentials
from astro_server.platform.models.accounts import Account, ApiKey

CALENDAR = "/api/v3/thai/calendar"
FESTIVALS = "/api/v3/thai/festivals"
LUNAR = "/api/v3/thai/lunar"
WHEEL = "/api/v3/thai/wheel"
AUSPICIOUS = "/api/v3/thai/auspicious-times"
SUBJECT: dict[str, Any] = {
    "date": "1990-05-16",
    "time": "19:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}
AUSPICIOUS_BODY: dict[str, Any] = {
    "purpose": "wedding",
    "start_date": "2025-01-01",
    "end_date": "2025-12-31",
}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _credits(key: str) -> int:
    api_key = await ApiKey.get(key_hash=credentials.digest(key))
    return (await Account.get(id=api_key.account_id)).credits  # type: ignore[attr-defined]


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> Any:
    response = await client.post(path, json=body, headers=key_headers(key))
    return response, await response.get_json()


async def test_calendar_for_a_date(client: Client, key: str) -> None:
    response, body = await _post(client, key, CALENDAR, {"date": "2024-02-24"})
    assert response.status_code == 200
    assert body["calendar_year"] is None
    lunar = body["lunar_date"]
    # Makha Bucha 2024: waxing 15 of month 3 (official announcement, see test_thai_festivals).
    assert (lunar["lunar_month"], lunar["phase"], lunar["kham"]) == (3, "waxing", 15)
    assert lunar["wan_phra"] is True
    assert lunar["buddhist_era"] == 2567
    assert response.headers["X-Credits-Charged"] == "1"


async def test_calendar_for_a_year(client: Client, key: str) -> None:
    response, body = await _post(client, key, CALENDAR, {"year": 2023})
    assert response.status_code == 200
    year = body["calendar_year"]
    assert year["year_type"] == "athikamat"
    assert [(m["month"], m["second_month_8"]) for m in year["months"]][7:9] == [
        (8, False),
        (8, True),
    ]
    assert sum(m["days"] for m in year["months"]) == 384
    assert year["suriyayatra"]["cs_year"] == 1385


@pytest.mark.parametrize(
    "body",
    [{"year": 1900}, {"year": 2200}, {"date": "1900-01-01"}, {"date": "2200-12-31"}],
)
async def test_calendar_limits_at_their_edges_are_accepted(
    client: Client, key: str, body: dict[str, Any]
) -> None:
    response, _ = await _post(client, key, CALENDAR, body)
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"year": 1899}, "year"),
        ({"year": 2201}, "year"),
        ({"date": "1899-12-31"}, "date"),
        ({"date": "2201-01-01"}, "date"),
        ({}, "year"),
        ({"date": "2024-01-01", "year": 2024}, "year"),
    ],
)
async def test_calendar_past_the_limits_is_a_free_400_naming_the_field(
    client: Client, key: str, body: dict[str, Any], field: str
) -> None:
    before = await _credits(key)
    response, answer = await _post(client, key, CALENDAR, body)
    assert response.status_code == 400
    assert answer["error"] == "validation_error"
    assert [d["field"] for d in answer["details"]] == [field]
    assert await _credits(key) == before


async def test_festivals_match_the_calculation(client: Client, key: str) -> None:
    response, body = await _post(client, key, FESTIVALS, {"year": 2024})
    assert response.status_code == 200
    expected = thai_festivals(2024)
    assert [(f["key"], f["date"]) for f in body["festivals"]] == [
        (f.key, f.date.isoformat()) for f in expected.festivals
    ]
    visakha = next(f for f in body["festivals"] if f["key"] == "visakha_bucha")
    assert visakha["date"] == "2024-05-22"
    assert visakha["name_th"]
    assert visakha["name_en"]


@pytest.mark.parametrize(("year", "status"), [(1900, 200), (2200, 200), (1899, 400), (2201, 400)])
async def test_festival_years_at_the_edges(
    client: Client, key: str, year: int, status: int
) -> None:
    response, body = await _post(client, key, FESTIVALS, {"year": year})
    assert response.status_code == status
    if status == 400:
        assert [d["field"] for d in body["details"]] == ["year"]


async def test_lunar_for_a_moment_and_place(client: Client, key: str) -> None:
    body = {"moment": "2024-04-08T18:21:00Z", "latitude": 13.75, "longitude": 100.5}
    response, answer = await _post(client, key, LUNAR, body)
    assert response.status_code == 200
    assert answer["timezone"] == "Asia/Bangkok"
    assert answer["phase"] == "new_moon"
    assert answer["illumination"] < 0.001
    assert answer["local_date"] == "2024-04-09"
    assert answer["thai_lunar_date"]["lunar_month"] == 5


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("moment", "2024-04-08T18:21:00"),  # no UTC offset
        ("moment", "1900-01-01T12:00:00Z"),
        ("latitude", 90.01),
        ("longitude", -180.01),
        ("timezone", "Mars/Olympus"),
    ],
)
async def test_lunar_bad_fields_are_400s(
    client: Client, key: str, field: str, value: object
) -> None:
    body = {"moment": "2024-04-08T18:21:00Z", "latitude": 13.75, "longitude": 100.5}
    response, answer = await _post(client, key, LUNAR, {**body, field: value})
    assert response.status_code == 400
    assert [d["field"] for d in answer["details"]] == [field]


async def test_wheel_for_a_birth_subject(client: Client, key: str) -> None:
    response, body = await _post(client, key, WHEEL, {"subject": SUBJECT, "on_date": "2025-06-01"})
    assert response.status_code == 200
    assert body["utc"] == "1990-05-16T12:30:00Z"
    assert body["offset_minutes"] == 420
    expected = taksa_wheel(dt.date(1990, 5, 16), dt.time(19, 30), on_date=dt.date(2025, 6, 1))
    wheel = body["wheel"]
    assert wheel["birth_day"] == expected.birth_day == "wednesday_night"
    assert [p["planet"] for p in wheel["positions"]] == [p.planet for p in expected.positions]
    assert wheel["kalakini"]["position"] == "kalakini"
    assert wheel["yearly"]["age_years"] == 35


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("latitude", -90),
        ("latitude", 90),
        ("longitude", -180),
        ("longitude", 180),
        ("timezoneOffsetMinutes", -1080),
        ("timezoneOffsetMinutes", 1080),
        ("time", "23:59:59"),
    ],
)
async def test_wheel_subject_bounds_are_accepted(
    client: Client, key: str, field: str, value: object
) -> None:
    response, _ = await _post(client, key, WHEEL, {"subject": {**SUBJECT, field: value}})
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("latitude", 90.01),
        ("longitude", 180.01),
        ("timezoneOffsetMinutes", 1081),
        ("time", "24:00"),
        ("date", "1990-02-30"),
        ("timezone", "Nowhere/City"),
    ],
)
async def test_wheel_subject_past_the_bounds_is_a_400_naming_the_field(
    client: Client, key: str, field: str, value: object
) -> None:
    response, body = await _post(client, key, WHEEL, {"subject": {**SUBJECT, field: value}})
    assert response.status_code == 400
    assert [d["field"] for d in body["details"]] == [f"subject.{field}"]


async def test_wheel_time_skipped_by_daylight_saving_names_subject_time(
    client: Client, key: str
) -> None:
    # 02:30 on 2021-03-14 does not exist in New York (clocks jumped from 02:00 to 03:00): the
    # 400 names the field by its path in the body, as the Western and Chinese endpoints do.
    gap = {"date": "2021-03-14", "time": "02:30", "latitude": 40.7, "longitude": -74.0,
           "timezone": "America/New_York"}  # fmt: skip
    response, body = await _post(client, key, WHEEL, {"subject": gap})
    assert response.status_code == 400
    assert [d["field"] for d in body["details"]] == ["subject.time"]


async def test_auspicious_times_for_366_days_is_accepted(client: Client, key: str) -> None:
    body = {**AUSPICIOUS_BODY, "start_date": "2024-01-01", "end_date": "2024-12-31"}
    response, answer = await _post(client, key, AUSPICIOUS, body)
    assert response.status_code == 200
    assert answer["days_examined"] == 366
    assert len(answer["auspicious_days"]) + len(answer["avoided_days"]) == 366
    assert response.headers["X-Credits-Charged"] == "2"
    day = answer["auspicious_days"][0]
    assert day["reasons"]
    assert all(r["th"] and r["en"] for r in day["reasons"])


async def test_auspicious_times_for_367_days_is_a_free_400_naming_end_date(
    client: Client, key: str
) -> None:
    before = await _credits(key)
    body = {**AUSPICIOUS_BODY, "start_date": "2024-01-01", "end_date": "2025-01-01"}
    response, answer = await _post(client, key, AUSPICIOUS, body)
    assert response.status_code == 400
    assert [d["field"] for d in answer["details"]] == ["end_date"]
    assert "367" in answer["details"][0]["message"]
    assert await _credits(key) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("purpose", "haircut"),
        ("end_date", "2024-12-31"),  # before start_date
        ("start_date", "1899-12-31"),
        ("birth_time", "7:30"),
    ],
)
async def test_auspicious_bad_fields_are_400s(
    client: Client, key: str, field: str, value: object
) -> None:
    response, body = await _post(client, key, AUSPICIOUS, {**AUSPICIOUS_BODY, field: value})
    assert response.status_code == 400
    assert field in [d["field"] for d in body["details"]]


async def test_auspicious_times_with_a_person(client: Client, key: str) -> None:
    body = {**AUSPICIOUS_BODY, "birth_date": "1990-05-16", "birth_time": "19:30"}
    response, answer = await _post(client, key, AUSPICIOUS, body)
    assert response.status_code == 200
    keys = {r["key"] for d in answer["avoided_days"] for r in d["reasons"]}
    assert "person_kalakini_day" in keys


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (CALENDAR, {"year": 2024}),
        (FESTIVALS, {"year": 2024}),
        (LUNAR, {"moment": "2024-04-08T18:21:00Z", "latitude": 13.75, "longitude": 100.5}),
        (WHEEL, {"subject": SUBJECT}),
        (AUSPICIOUS, AUSPICIOUS_BODY),
    ],
)
async def test_missing_key_is_401(client: Client, path: str, body: dict[str, Any]) -> None:
    response = await client.post(path, json=body)
    assert response.status_code == 401
    assert (await response.get_json())["error"] == "unauthorized"


async def test_openapi_documents_the_thai_group_and_its_bounds(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    ids = {
        CALENDAR: "thaiCalendar",
        FESTIVALS: "thaiFestivals",
        LUNAR: "thaiLunar",
        WHEEL: "thaiWheel",
        AUSPICIOUS: "thaiAuspiciousTimes",
    }
    for path, op_id in ids.items():
        op = doc["paths"][path]["post"]
        assert op["operationId"] == op_id
        assert op["tags"] == ["Thai Astrology"]
        assert {"401", "402"} <= set(op["responses"])

    def props(path: str) -> dict[str, Any]:
        schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        schema = schema["schema"]
        if "$ref" in schema:
            schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        properties: dict[str, Any] = schema["properties"]
        return properties

    year = props(FESTIVALS)["year"]
    assert (year["minimum"], year["maximum"]) == (1900, 2200)
    assert set(props(AUSPICIOUS)["purpose"]["enum"]) == {
        "wedding", "business_opening", "moving_house", "travel", "ordination",
    }  # fmt: skip
    for path in (CALENDAR, FESTIVALS, LUNAR, AUSPICIOUS):
        source = props(path)["year_type_source"]
        assert source["enum"] == ["almanac", "rule"]
        assert source["default"] == "almanac"
        assert "Suriyayatra" in source["description"]
    assert "year_type_source" not in props(WHEEL)  # the Taksa wheel uses no lunar date


LUNAR_1944: dict[str, Any] = {
    "moment": "1944-06-05T05:00:00Z",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}
SOURCE_BODIES = [
    (CALENDAR, {"date": "1944-06-05"}),
    (CALENDAR, {"year": 1944}),
    (FESTIVALS, {"year": 1944}),
    (LUNAR, LUNAR_1944),
    (AUSPICIOUS, {"purpose": "travel", "start_date": "1944-06-05", "end_date": "1944-06-05"}),
]


def _lunar_dates(path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    if path == CALENDAR:
        return [body["lunar_date"]] if body["lunar_date"] else []
    if path == FESTIVALS:
        return [f["lunar_date"] for f in body["festivals"]]
    if path == LUNAR:
        return [body["thai_lunar_date"]]
    return [d["lunar_date"] for d in body["auspicious_days"] + body["avoided_days"]]


@pytest.mark.parametrize(("path", "body"), SOURCE_BODIES)
@pytest.mark.parametrize("source", [None, "almanac", "rule"])
async def test_year_type_source_is_echoed_and_followed(
    client: Client, key: str, path: str, body: dict[str, Any], source: str | None
) -> None:
    # 1944: the published table makes it athikamat, the Suriyayatra rule a common year.
    sent = body if source is None else {**body, "year_type_source": source}
    response, answer = await _post(client, key, path, sent)
    assert response.status_code == 200
    effective = source or "almanac"
    assert answer["year_type_source"] == effective
    kind = "athikamat" if effective == "almanac" else "pakatimat"
    for lunar in _lunar_dates(path, answer):
        assert (lunar["year_type"], lunar["year_type_decided_by"]) == (kind, effective)
    if path == CALENDAR and "year" in body:
        year = answer["calendar_year"]
        assert (year["year_type"], year["year_type_decided_by"]) == (kind, effective)
        assert sum(m["days"] for m in year["months"]) == (384 if kind == "athikamat" else 354)
        assert year["suriyayatra"]["year_type"] == "pakatimat"  # the rule's elements
    if path == FESTIVALS:
        visakha = next(f for f in answer["festivals"] if f["key"] == "visakha_bucha")
        assert visakha["date"] == ("1944-06-05" if effective == "almanac" else "1944-05-07")
        assert answer["year_type_decided_by"] == effective


async def test_outside_the_table_the_rule_decides_under_almanac(client: Client, key: str) -> None:
    response, answer = await _post(client, key, CALENDAR, {"year": 1905})
    assert response.status_code == 200
    assert answer["year_type_source"] == "almanac"
    assert answer["calendar_year"]["year_type_decided_by"] == "rule"


@pytest.mark.parametrize(("path", "body"), SOURCE_BODIES)
@pytest.mark.parametrize("value", ["myhora", "", "ALMANAC", 1])
async def test_unknown_year_type_source_is_a_free_400_naming_the_field(
    client: Client, key: str, path: str, body: dict[str, Any], value: object
) -> None:
    before = await _credits(key)
    response, answer = await _post(client, key, path, {**body, "year_type_source": value})
    assert response.status_code == 400
    assert answer["error"] == "validation_error"
    assert [d["field"] for d in answer["details"]] == ["year_type_source"]
    assert await _credits(key) == before
