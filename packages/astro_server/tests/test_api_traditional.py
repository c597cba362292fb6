"""Hellenistic timing routes (issue 46): profections, zodiacal releasing (and its timeline picture),
firdaria, and the natal chart's ``"lots": true``.

In-process app on SQLite. Answers are compared with astro_calc's own functions for the same input
(their tests check them against Brennan's profection table, Abu Ma'shar's firdaria ages and a
published releasing, cited there) and, where a published figure exists, with it: Emperor
Akihito's releasing from Spirit around 8 August 2016 (windsoftheplanets.com, "Zodiacal Releasing
- part 3", 2016; birth data Astrodatabank AA). Every request limit is tried just inside and just
outside; a 400 names the field; prices and estimates come from the price table.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc import sensitivity
from astro_calc.disclaimers import disclaimer_for
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.traditional import (
    firdaria,
    natal_lots,
    profections,
    with_minor_dignities,
    zodiacal_releasing,
)
from astro_calc.western.traditional.readings import (
    profection_interpretation,
    releasing_interpretation,
)
from astro_server.platform.billing.pricing import OPERATIONS

# 1 May 1990, 07:30 UTC+7, Bangkok: Gemini rising, a day chart, Spirit in Pisces, Fortune in Leo
# (astro_calc's timing tests).
BANGKOK: dict[str, Any] = {
    "date": "1990-05-01",
    "time": "07:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezoneOffsetMinutes": 420,
}
CALC_BANGKOK = BirthSubject(dt.date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
# Emperor Akihito, 23 December 1933, 06:39 JST, Tokyo (Astrodatabank AA): a night chart.
AKIHITO: dict[str, Any] = {
    "date": "1933-12-23",
    "time": "06:39",
    "latitude": 35.6895,
    "longitude": 139.6917,
    "timezoneOffsetMinutes": 540,
}
CALC_AKIHITO = BirthSubject(
    dt.date(1933, 12, 23), "06:39", 35.6895, 139.6917, timezone_offset_minutes=540
)


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


@pytest.fixture
async def pro_key() -> str:
    _id, api_key = await new_account("pro", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json(), response


def _plain(value: msgspec.Struct) -> Any:
    return json.loads(msgspec.json.encode(value))


def _with_disclaimer(found: msgspec.Struct, language: str = "en") -> bytes:
    """astro_calc's answer with the timing reading's disclaimer appended, as the route sends."""
    note = msgspec.json.encode(disclaimer_for("traditional_timing", language))
    return msgspec.json.encode(found)[:-1] + b',"disclaimer":' + note + b"}"


def _fields(answer: dict[str, Any]) -> list[str]:
    return [d["field"] for d in answer["details"]]


# --- profections ----------------------------------------------------------------------------------


async def test_profections_are_astro_calcs_byte_for_byte(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/western/profections",
        json={"subject": BANGKOK, "on_date": "2026-12-07"},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    expected = profections(CALC_BANGKOK, dt.date(2026, 12, 7))
    assert await response.get_data() == _with_disclaimer(expected)
    body = await response.get_json()
    # Gemini rising, age 36: the 1st house again, Gemini, ruled by Mercury.
    assert (body["age"], body["sign"], body["house"], body["lord_of_year"]) == (
        36, "gemini", 1, "mercury",
    )  # fmt: skip
    assert [m["sign"] for m in body["months"][:3]] == ["gemini", "cancer", "leo"]
    assert len(body["months"]) == 12
    assert response.headers["X-Credits-Charged"] == "1"


@pytest.mark.parametrize(
    ("on_date", "status"),
    [
        ("1990-05-01", 200),  # the birth date: age 0
        ("1990-04-30", 400),  # the day before
        ("2140-05-01", 200),  # age 150
        ("2141-05-01", 400),  # age 151
        ("3000-01-01", 400),  # outside the ephemeris span
    ],
)
async def test_profections_on_date_edges(
    client: Client, key: str, on_date: str, status: int
) -> None:
    code, answer, _response = await _post(
        client, key, "western/profections", {"subject": BANGKOK, "on_date": on_date}
    )
    assert code == status, answer
    if status == 400:
        assert _fields(answer) == ["on_date"]


async def test_profections_need_on_date(client: Client, key: str) -> None:
    code, answer, _response = await _post(client, key, "western/profections", {"subject": BANGKOK})
    assert code == 400
    assert _fields(answer) == ["on_date"]


async def test_profections_interpretations_read_the_lord_of_the_year(
    client: Client, pro_key: str
) -> None:
    body = {"subject": BANGKOK, "on_date": "2026-12-07", "interpretations": "full"}
    code, answer, response = await _post(client, pro_key, "western/profections", {**body})
    assert code == 200, answer
    found = profections(CALC_BANGKOK, dt.date(2026, 12, 7))
    assert answer["interpretations"] == _plain(profection_interpretation(found, "en", "full"))
    assert answer["interpretations"]["items"][0]["key"] == "lord_of_year.mercury"
    assert response.headers["X-Credits-Charged"] == "3"
    thai = {**body, "language": "th", "interpretations": "summary"}
    code, answer, response = await _post(client, pro_key, "western/profections", thai)
    assert code == 200
    assert answer["interpretations"]["language"] == "th"
    assert answer["disclaimer"] == _plain(disclaimer_for("traditional_timing", "th"))
    assert response.headers["X-Credits-Charged"] == "2"


async def test_profections_interpretations_need_the_pro_tier(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "on_date": "2026-12-07", "interpretations": "summary"}
    code, answer, _response = await _post(client, key, "western/profections", body)
    assert code == 403
    assert answer["error"] == "forbidden"


async def test_profections_sensitivity_is_the_ascendants_sign(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "on_date": "2026-12-07", "sensitivity": {"uncertainty_minutes": 30}}
    code, answer, response = await _post(client, key, "western/profections", body)
    assert code == 200, answer
    full = sensitivity.traditional_sensitivity(CALC_BANGKOK, uncertainty_minutes=30)
    expected = [_plain(i) for i in full.items if i.result == "ascendant.sign"]
    assert answer["sensitivity"]["items"] == expected
    assert answer["sensitivity"]["items"][0]["value"] == "gemini"
    assert response.headers["X-Credits-Charged"] == "2"


# --- zodiacal releasing ---------------------------------------------------------------------------


async def test_akihitos_published_releasing_through_the_api(client: Client, key: str) -> None:
    body = {"subject": AKIHITO, "levels": 4, "start": "2016-01-01", "end": "2016-12-31"}
    response = await client.post(
        "/api/v3/western/zodiacal-releasing", json=body, headers=key_headers(key)
    )
    assert response.status_code == 200
    expected = zodiacal_releasing(
        CALC_AKIHITO, levels=4, start=dt.date(2016, 1, 1), end=dt.date(2016, 12, 31)
    )
    assert await response.get_data() == _with_disclaimer(expected)
    answer = await response.get_json()
    assert answer["disclaimer"]["code"] == "traditional_timing"
    assert (answer["lot_sign"], answer["fortune_sign"], answer["sect"]) == (
        "pisces", "libra", "night",
    )  # fmt: skip
    assert answer["year_length_days"] == 360

    def period(level: int, sign: str) -> dict[str, Any]:
        noon = "2016-08-08T12:00:00Z"
        return next(
            p
            for p in answer["periods"]
            if p["level"] == level and p["sign"] == sign and p["start"] <= noon < p["end"]
        )

    # Published: level 2 Libra 11 January - 6 September 2016, a peak (Fortune's own sign);
    # level 3 Aquarius 14 June - 27 August 2016; level 4 Scorpio on 8 August 2016.
    libra = period(2, "libra")
    assert libra["start"].startswith("2016-01-11")
    assert libra["end"].startswith("2016-09-07")
    assert libra["peak"] is True
    aquarius = period(3, "aquarius")
    assert aquarius["start"].startswith("2016-06-14")
    assert aquarius["end"].startswith("2016-08-28")
    assert period(4, "scorpio")["level"] == 4
    # Level 1 (Leo, from 28 October 2012) is clipped to the window.
    assert period(1, "leo")["start"] == "2016-01-01T00:00:00Z"
    assert response.headers["X-Credits-Charged"] == "2"


async def test_releasing_defaults_spirit_level_two_for_ninety_years(
    client: Client, key: str
) -> None:
    code, answer, _response = await _post(
        client, key, "western/zodiacal-releasing", {"subject": BANGKOK}
    )
    assert code == 200
    assert (answer["lot"], answer["levels"], answer["year_length_days"]) == ("spirit", 2, 360)
    assert {p["level"] for p in answer["periods"]} == {1, 2}
    expected = zodiacal_releasing(CALC_BANGKOK, levels=2)
    assert {k: v for k, v in answer.items() if k != "disclaimer"} == _plain(expected)


@pytest.mark.parametrize(
    ("changes", "status", "field"),
    [
        ({"levels": 1}, 200, None),
        ({"levels": 0}, 400, "levels"),
        ({"levels": 5}, 400, "levels"),
        ({"levels": 2.5}, 400, "levels"),
        ({"lot": "fortune"}, 200, None),
        ({"lot": "eros"}, 400, "lot"),
        ({"year_length_days": 365.25}, 200, None),
        ({"year_length_days": 365}, 400, "year_length_days"),
        ({"start": "2000-01-01", "end": "2000-01-01"}, 200, None),  # one day
        ({"start": "2000-01-02", "end": "2000-01-01"}, 400, "end"),  # end before start
        ({"start": "2100-01-01", "end": "2140-04-29"}, 200, None),  # 150 Julian years less a day
        ({"start": "2100-01-01", "end": "2140-05-02"}, 400, "end"),  # past 150 years
        ({"end": "3000-01-01"}, 400, "end"),  # outside the ephemeris span
        ({"start": "0099-12-31"}, 400, "start"),
    ],
)
async def test_releasing_limits(
    client: Client, key: str, changes: dict[str, Any], status: int, field: str | None
) -> None:
    body = {"subject": BANGKOK, "levels": 1, **changes}
    code, answer, _response = await _post(client, key, "western/zodiacal-releasing", body)
    assert code == status, answer
    if field is not None:
        assert _fields(answer) == [field]


@pytest.mark.parametrize(("days", "status"), [(3660, 200), (3661, 400)])
async def test_level_four_window_is_at_most_3660_days(
    client: Client, key: str, days: int, status: int
) -> None:
    start = dt.date(2000, 1, 1)
    end = start + dt.timedelta(days=days - 1)  # the window runs to the end of ``end``
    body = {"subject": BANGKOK, "levels": 4, "start": start.isoformat(), "end": end.isoformat()}
    code, answer, _response = await _post(client, key, "western/zodiacal-releasing", body)
    assert code == status, answer
    if status == 400:
        assert _fields(answer) == ["end"]
        assert "3660 days" in answer["details"][0]["message"]
    else:
        assert answer["end"] == "2010-01-08T00:00:00Z"
        assert len(answer["periods"]) < 1300


async def test_level_four_without_end_answers_the_longest_window(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "levels": 4}
    code, answer, _response = await _post(client, key, "western/zodiacal-releasing", body)
    assert code == 200, answer
    start = dt.datetime.fromisoformat(answer["start"])
    end = dt.datetime.fromisoformat(answer["end"])
    assert start == dt.datetime(1990, 5, 1, 0, 30, tzinfo=dt.UTC)  # the birth
    assert dt.timedelta(days=3659) < end - start <= dt.timedelta(days=3660)
    assert {p["level"] for p in answer["periods"]} == {1, 2, 3, 4}
    # A level-4 window starting before the birth counts from the birth.
    early = {"subject": BANGKOK, "levels": 4, "start": "1980-01-01", "end": "2000-04-30"}
    code, answer, _response = await _post(client, key, "western/zodiacal-releasing", early)
    assert code == 200, answer


async def test_releasing_interpretations_read_the_periods_at_the_start(
    client: Client, pro_key: str
) -> None:
    body = {"subject": AKIHITO, "levels": 2, "start": "2016-08-08", "end": "2016-12-31",
            "interpretations": "summary", "language": "th"}  # fmt: skip
    code, answer, response = await _post(client, pro_key, "western/zodiacal-releasing", body)
    assert code == 200, answer
    found = zodiacal_releasing(
        CALC_AKIHITO, levels=2, start=dt.date(2016, 8, 8), end=dt.date(2016, 12, 31)
    )
    assert answer["interpretations"] == _plain(releasing_interpretation(found, None, "th"))
    keys = [item["key"] for item in answer["interpretations"]["items"]]
    assert keys == ["releasing.spirit.sun", "releasing.spirit.venus", "peak.1"]
    assert response.headers["X-Credits-Charged"] == "3"


async def test_releasing_sensitivity_is_the_sect_and_the_two_lots(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "levels": 1, "lot": "spirit",
            "sensitivity": {"uncertainty_minutes": 720}}  # fmt: skip
    code, answer, response = await _post(client, key, "western/zodiacal-releasing", body)
    assert code == 200, answer
    items = answer["sensitivity"]["items"]
    assert [i["result"] for i in items] == ["sect", "lot.fortune.sign", "lot.spirit.sign"]
    full = sensitivity.traditional_sensitivity(CALC_BANGKOK, uncertainty_minutes=720)
    assert items == [_plain(i) for i in full.items if i.result in {i["result"] for i in items}]
    # Twelve hours either side reach both a sunrise or sunset and a new sign of each lot.
    assert set(answer["sensitivity"]["uncertain"]) == {"sect", "lot.fortune.sign",
                                                        "lot.spirit.sign"}  # fmt: skip
    assert response.headers["X-Credits-Charged"] == "3"


async def test_releasing_timeline_picture_svg_and_png(client: Client, key: str) -> None:
    body = {"subject": AKIHITO, "levels": 3, "start": "2012-01-01", "end": "2031-12-31"}
    response = await client.post(
        "/api/v3/western/zodiacal-releasing/chart", json=body, headers=key_headers(key)
    )
    assert response.status_code == 200
    assert response.content_type == "image/svg+xml"
    svg = (await response.get_data()).decode()
    assert svg.startswith("<svg")
    assert "Leo" in svg
    assert response.headers["X-Credits-Charged"] == "2"
    png = await client.post(
        "/api/v3/western/zodiacal-releasing/chart",
        json={**body, "format": "png", "size_px": 400},
        headers=key_headers(key),
    )
    assert png.status_code == 200
    assert png.content_type == "image/png"
    assert (await png.get_data()).startswith(b"\x89PNG")


async def test_releasing_picture_refuses_a_long_level_four_window(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "levels": 4, "start": "2000-01-01", "end": "2020-01-01"}
    code, answer, response = await _post(client, key, "western/zodiacal-releasing/chart", body)
    assert code == 400
    assert _fields(answer) == ["end"]
    assert response.headers.get("X-Credits-Charged", "0") == "0"


# --- firdaria -------------------------------------------------------------------------------------


async def test_firdaria_are_astro_calcs_byte_for_byte(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/western/firdaria",
        json={"subject": BANGKOK, "on_date": "2026-01-01"},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    expected = firdaria(CALC_BANGKOK, on_date=dt.date(2026, 1, 1))
    assert await response.get_data() == msgspec.json.encode(expected)
    answer = await response.get_json()
    assert answer["sect"] == "day"
    assert [p["ruler"] for p in answer["periods"][:3]] == ["sun", "venus", "mercury"]
    assert answer["current"]["ruler"] == "moon"  # ages 31 to 40 of a day chart
    assert len(answer["periods"][0]["sub_periods"]) == 7
    assert answer["periods"][7]["ruler"] == "north_node"
    assert answer["periods"][7]["sub_periods"] == []
    assert response.headers["X-Credits-Charged"] == "1"


async def test_firdaria_of_a_night_chart_and_the_node_placement(client: Client, key: str) -> None:
    code, answer, _response = await _post(client, key, "western/firdaria", {"subject": AKIHITO})
    assert code == 200
    assert answer["sect"] == "night"
    assert answer["current"] is None
    rulers = [p["ruler"] for p in answer["periods"]]
    assert rulers == ["moon", "saturn", "jupiter", "mars", "north_node", "south_node", "sun",
                      "venus", "mercury"]  # fmt: skip
    body = {"subject": AKIHITO, "node_placement": "after_mercury", "year_length_days": 360}
    code, answer, _response = await _post(client, key, "western/firdaria", body)
    assert code == 200
    assert [p["ruler"] for p in answer["periods"]][-3:] == ["mercury", "north_node", "south_node"]
    assert answer["year_length_days"] == 360
    assert answer == _plain(
        firdaria(CALC_AKIHITO, node_placement="after_mercury", year_length_days=360.0)
    )


@pytest.mark.parametrize(
    ("changes", "status", "field"),
    [
        ({"year_length_days": 365.2422}, 200, None),
        ({"year_length_days": 365}, 400, "year_length_days"),
        ({"node_placement": "first"}, 400, "node_placement"),
        ({"on_date": "1990-05-01"}, 200, None),  # 12:00 UTC on the birth day, after 00:30
        ({"on_date": "1990-04-30"}, 400, "on_date"),
        ({"on_date": "2140-04-30"}, 200, None),  # 150 Julian years less a day
        ({"on_date": "2140-05-02"}, 400, "on_date"),
    ],
)
async def test_firdaria_limits(
    client: Client, key: str, changes: dict[str, Any], status: int, field: str | None
) -> None:
    code, answer, _response = await _post(
        client, key, "western/firdaria", {"subject": BANGKOK, **changes}
    )
    assert code == status, answer
    if field is not None:
        assert _fields(answer) == [field]


async def test_firdaria_sensitivity_is_the_sect(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "sensitivity": {"uncertainty_minutes": 60}}
    code, answer, response = await _post(client, key, "western/firdaria", body)
    assert code == 200, answer
    full = sensitivity.traditional_sensitivity(CALC_BANGKOK, uncertainty_minutes=60)
    assert answer["sensitivity"]["items"] == [_plain(i) for i in full.items if i.result == "sect"]
    # Born an hour after sunrise: the sect is day, and a night chart 60 minutes earlier.
    sect = answer["sensitivity"]["items"][0]
    assert sect["value"] == "day"
    assert response.headers["X-Credits-Charged"] == "2"


# --- the natal chart's lots -----------------------------------------------------------------------


async def test_natal_without_lots_is_the_bare_chart_byte_for_byte(client: Client, key: str) -> None:
    for body in ({"subject": BANGKOK}, {"subject": BANGKOK, "lots": False}):
        response = await client.post("/api/v3/western/natal", json=body, headers=key_headers(key))
        assert response.status_code == 200
        assert await response.get_data() == msgspec.json.encode(natal_chart(CALC_BANGKOK))


async def test_natal_lots_add_sect_lots_and_the_minor_dignities(client: Client, key: str) -> None:
    code, answer, response = await _post(
        client, key, "western/natal", {"subject": BANGKOK, "lots": True}
    )
    assert code == 200, answer
    chart = natal_chart(CALC_BANGKOK)
    layer = natal_lots(chart)
    assert answer["sect"] == "day"
    assert answer["lots"] == _plain(layer)["lots"]
    assert list(answer["lots"]) == [
        "fortune", "spirit", "eros", "necessity", "courage", "victory", "nemesis",
    ]  # fmt: skip
    assert (answer["lots"]["spirit"]["sign"], answer["lots"]["fortune"]["sign"]) == (
        "pisces", "leo",
    )  # fmt: skip
    assert answer["lots"]["fortune"]["formula"] == "asc + moon - sun"
    # Each lot's house is its whole-sign house from the Gemini ascendant.
    assert answer["lots"]["spirit"]["house"] == 10
    assert answer["lots"]["fortune"]["house"] == 3
    extended = with_minor_dignities(chart, "day")
    assert answer["planets"] == _plain(extended)["planets"]
    rest = {k: v for k, v in answer.items() if k not in ("planets", "sect", "lots")}
    assert rest == {k: v for k, v in _plain(chart).items() if k != "planets"}
    assert response.headers["X-Credits-Charged"] == "1"


async def test_natal_lots_need_the_seven_planets(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "lots": True, "bodies": ["sun", "moon", "mercury"]}
    code, answer, _response = await _post(client, key, "western/natal", body)
    assert code == 400
    assert _fields(answer) == ["bodies"]
    code, _answer, _response = await _post(client, key, "western/natal", {**body, "lots": False})
    assert code == 200


async def test_natal_lots_sensitivity_adds_the_sect_and_the_lots(client: Client, key: str) -> None:
    body = {"subject": BANGKOK, "lots": True, "sensitivity": {"uncertainty_minutes": 10}}
    code, answer, response = await _post(client, key, "western/natal", body)
    assert code == 200, answer
    results = [i["result"] for i in answer["sensitivity"]["items"]]
    natal = sensitivity.natal_sensitivity(CALC_BANGKOK, uncertainty_minutes=10)
    assert results[: len(natal.items)] == [i.result for i in natal.items]
    assert results[len(natal.items) :] == ["sect"] + [
        f"lot.{name}.sign"
        for name in ("fortune", "spirit", "eros", "necessity", "courage", "victory", "nemesis")
    ]
    assert results.count("ascendant.sign") == 1
    assert response.headers["X-Credits-Charged"] == "2"


# --- prices, estimates, documentation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "params", "charged_as", "credits"),
    [
        ("western.profections", {}, "western.profections", 1),
        ("western.profections", {"sensitivity": {}}, "western.profections.sensitivity", 2),
        ("western.profections", {"interpretations": "full"},
         "western.profections.interpretations_full", 3),
        ("western.zodiacal_releasing", {}, "western.zodiacal_releasing", 2),
        ("western.zodiacal_releasing", {"interpretations": "summary", "sensitivity": {}},
         "western.zodiacal_releasing.interpretations_summary.sensitivity", 4),
        ("western.firdaria", {}, "western.firdaria", 1),
        ("western.firdaria", {"sensitivity": {}}, "western.firdaria.sensitivity", 2),
        ("western.zodiacal_releasing_chart", {}, "western.zodiacal_releasing_chart", 2),
    ],
)  # fmt: skip
async def test_estimates_price_each_operation(
    client: Client,
    pro_key: str,
    operation: str,
    params: dict[str, Any],
    charged_as: str,
    credits: int,
) -> None:
    code, answer, _response = await _post(
        client, pro_key, "estimates", {"operation": operation, "params": params}
    )
    assert code == 200, answer
    assert (answer["operation"], answer["estimated_credits"]) == (charged_as, credits)
    assert OPERATIONS[charged_as].credits == credits


def test_price_rows_and_tiers() -> None:
    assert OPERATIONS["western.profections"].tier == "free"
    assert OPERATIONS["western.zodiacal_releasing"].tier == "free"
    assert OPERATIONS["western.firdaria"].tier == "free"
    assert OPERATIONS["western.zodiacal_releasing_chart"].tier == "free"
    assert OPERATIONS["western.profections.interpretations_summary"].tier == "pro"
    assert "western.firdaria.interpretations_summary" not in OPERATIONS


async def test_no_key_is_401_and_no_credits_is_402(client: Client) -> None:
    response = await client.post("/api/v3/western/firdaria", json={"subject": BANGKOK}, headers={})
    assert response.status_code == 401
    _id, broke = await new_account("free", 0)
    code, answer, _response = await _post(client, broke, "western/firdaria", {"subject": BANGKOK})
    assert code == 402
    assert answer["error"] == "payment_required"


async def test_the_routes_are_documented(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    ids = {
        "/api/v3/western/profections": "westernProfections",
        "/api/v3/western/zodiacal-releasing": "westernZodiacalReleasing",
        "/api/v3/western/zodiacal-releasing/chart": "westernZodiacalReleasingChart",
        "/api/v3/western/firdaria": "westernFirdaria",
    }
    for path, operation_id in ids.items():
        op = doc["paths"][path]["post"]
        assert op["operationId"] == operation_id
        assert op["tags"] == ["Western"]
    chart = doc["paths"]["/api/v3/western/zodiacal-releasing/chart"]["post"]
    assert set(chart["responses"]["200"]["content"]) == {"image/svg+xml", "image/png"}
    natal = doc["paths"]["/api/v3/western/natal"]["post"]
    schema = natal["responses"]["200"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    assert {"sect", "lots"} <= set(schema["properties"])
    assert "sect" not in schema.get("required", [])
