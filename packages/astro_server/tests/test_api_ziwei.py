"""Zi Wei Dou Shu endpoints: the chart (``/api/v3/chinese/ziwei``) and its picture
(``/api/v3/chinese/ziwei/chart``).

In-process app on SQLite. A published chart comes back with its published values (x-iztro's
README sample, also in astro_calc's test_chinese_ziwei.py); every answer equals astro_calc's
for the same input; every request limit is tried just inside and just outside; field-level 400s
name the field and cost nothing; prices, estimates, scopes and the documentation.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.chinese import ziwei_chart
from astro_calc.disclaimers import disclaimer
from astro_calc.sensitivity.ziwei import ziwei_sensitivity
from astro_server.drawing.png import svg_to_png
from astro_server.drawing.ziwei import CJK_FAMILY, ziwei_chart_png, ziwei_chart_svg
from astro_server.features.chinese.ziwei_routes import ziwei_result
from astro_server.platform.auth import scopes
from astro_server.platform.auth.accounts import create_api_key
from astro_server.platform.models.accounts import Account

# x-iztro's README sample ("Natal Chart 2000-8-16 Tiger hour female"), placed in Beijing.
SAMPLE: dict[str, Any] = {
    "date": "2000-08-16",
    "time": "04:00",
    "latitude": 39.9042,
    "longitude": 116.4074,
    "timezone": "Asia/Shanghai",
}
SAMPLE_DATE = dt.date(2000, 8, 16)
SAMPLE_TIME = dt.time(4, 0)


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json()


def _plain(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


# --- the chart ------------------------------------------------------------------------------------


async def test_the_published_sample_chart(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/chinese/ziwei",
        json={"subject": SAMPLE, "gender": "female"},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    body = await response.get_json()
    assert (body["life_palace_branch"], body["body_palace_branch"]) == ("wu", "xu")
    assert body["five_elements_class"] == {"element": "wood", "number": 3, "label": "Wood 3"}
    assert (body["soul_star"], body["body_star"]) == ("pojun", "wenchang")
    assert body["lunar_date"]["year"] == 2000
    assert (body["hour_index"], body["hour_branch"]) == (2, "yin")
    names = [p["name"] for p in body["palaces"]]
    assert names == [
        "life", "siblings", "spouse", "children", "wealth", "health",
        "travel", "friends", "career", "property", "fortune", "parents",
    ]  # fmt: skip
    by_name = {p["name"]: p for p in body["palaces"]}
    assert by_name["career"]["is_body_palace"] is True
    life = by_name["life"]
    assert [(s["name"], s["brightness"]) for s in life["major_stars"]] == [("ziwei", "miao")]
    assert life["decadal"] == {"start_age": 3, "end_age": 12}
    marks = {
        s["transformation"]: (p["name"], s["name"])
        for p in body["palaces"]
        for s in (*p["major_stars"], *p["minor_stars"])
        if s["transformation"]
    }
    assert marks == {
        "lu": ("children", "taiyang"),
        "quan": ("wealth", "wuqu"),
        "ke": ("friends", "taiyin"),
        "ji": ("health", "tiantong"),
    }
    assert body["horoscope"] is None
    assert "sensitivity" not in body
    assert [r["topic"] for r in body["readings"]] == [
        "life_palace", "transformation", "transformation", "transformation", "transformation",
        "body_palace",
    ]  # fmt: skip
    assert body["readings"][0]["key"] == "life.ziwei"
    assert all(r["language"] == "en" and r["text"] for r in body["readings"])
    assert body["disclaimer"] == {"code": "ziwei", "text": disclaimer("ziwei", "en")}


async def test_the_answer_is_astro_calcs_chart_and_readings(client: Client, key: str) -> None:
    request = {
        "subject": {
            **SAMPLE,
            "date": "1987-08-14",
            "time": "23:20",
        },  # leap 6th month 20th, late Zi
        "gender": "male",
        "on_date": "2026-12-08",
        "late_zi": "same_day",
        "leap_month": "same",
    }
    status, body = await _post(client, key, "chinese/ziwei", request)
    assert status == 200
    chart = ziwei_chart(
        dt.date(1987, 8, 14),
        dt.time(23, 20),
        "male",
        on_date=dt.date(2026, 12, 8),
        late_zi="same_day",
        leap_month="same",
    )
    assert chart.lunar_date.leap  # 1987's leap sixth month
    assert body == _plain(ziwei_result(chart))
    horoscope = body["horoscope"]
    assert horoscope["on_date"] == "2026-12-08"
    assert horoscope["nominal_age"] == 40
    assert {horoscope["decadal"]["scope"], horoscope["yearly"]["scope"]} == {"decadal", "yearly"}


@pytest.mark.parametrize(
    ("language", "reading_language", "life_label"),
    [("en", "en", "Life"), ("th", "th", None), ("zh", "en", "命宫"), ("zh-Hans", "en", "命宫"),
     ("zh-Hant", "en", "命宮")],
)  # fmt: skip
async def test_languages_name_things_and_read_them(
    client: Client, key: str, language: str, reading_language: str, life_label: str | None
) -> None:
    status, body = await _post(
        client, key, "chinese/ziwei", {"subject": SAMPLE, "gender": "female", "language": language}
    )
    assert status == 200
    assert body["language"] == language
    chart = ziwei_chart(SAMPLE_DATE, SAMPLE_TIME, "female", language=language)  # type: ignore[arg-type]
    assert body["palaces"][0]["label"] == chart.palaces[0].label
    if life_label is not None:
        assert body["palaces"][0]["label"] == life_label
    assert {r["language"] for r in body["readings"]} == {reading_language}
    assert body["disclaimer"]["text"] == disclaimer("ziwei", reading_language)
    if reading_language == "th":
        assert all("\u0e00" <= r["text"][0] <= "\u0e7f" for r in body["readings"])


async def test_sensitivity_is_astro_calcs_and_costs_one_more(client: Client, key: str) -> None:
    subject = {**SAMPLE, "time": "04:50"}  # ten minutes before the Mao hour
    response = await client.post(
        "/api/v3/chinese/ziwei",
        json={"subject": subject, "gender": "female", "sensitivity": {"uncertainty_minutes": 30}},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "2"
    body = await response.get_json()
    expected = ziwei_sensitivity(
        SAMPLE_DATE,
        dt.time(4, 50),
        "female",
        latitude=SAMPLE["latitude"],
        longitude=SAMPLE["longitude"],
        timezone_name="Asia/Shanghai",
        uncertainty_minutes=30,
    )
    assert body["sensitivity"] == _plain(expected)
    hour = next(i for i in body["sensitivity"]["items"] if i["result"] == "ziwei.hour_branch")
    assert (hour["value"], hour["changes_after"]["to"], hour["certain"]) == ("yin", "mao", False)
    assert hour["changes_after"]["at"] == "2000-08-15T21:00:00Z"  # 05:00 in Beijing (UTC+8)


# --- the picture ----------------------------------------------------------------------------------


async def test_the_picture_as_svg(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/chinese/ziwei/chart",
        json={
            "subject": SAMPLE,
            "gender": "female",
            "language": "zh-Hant",
            "on_date": "2026-12-08",
        },
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.content_type.startswith("image/svg+xml")
    assert response.headers["X-Credits-Charged"] == "2"
    svg = (await response.get_data()).decode()
    chart = ziwei_chart(
        SAMPLE_DATE, SAMPLE_TIME, "female", language="zh-Hant", on_date=dt.date(2026, 12, 8)
    )
    assert svg == ziwei_chart_svg(chart)
    assert 'data-life-palace="wu"' in svg
    assert "命宮" in svg


@pytest.mark.parametrize("language", ["zh", "th", "en"])
async def test_the_picture_as_png_uses_the_bundled_fonts(
    client: Client, key: str, language: str
) -> None:
    response = await client.post(
        "/api/v3/chinese/ziwei/chart",
        json={"subject": SAMPLE, "gender": "female", "language": language, "format": "png",
              "size_px": 400, "theme": "dark"},
        headers=key_headers(key),
    )  # fmt: skip
    assert response.status_code == 200
    assert response.content_type == "image/png"
    png = await response.get_data()
    assert struct.unpack(">II", io.BytesIO(png).getbuffer()[16:24]) == (400, 400)
    chart = ziwei_chart(SAMPLE_DATE, SAMPLE_TIME, "female", language=language)  # type: ignore[arg-type]
    # The CJK subset included: the same pixels as the drawing module's own PNG.
    assert png == ziwei_chart_png(chart, theme="dark", size_px=400)


async def test_the_chinese_png_draws_the_characters(client: Client, key: str) -> None:
    """Without the CJK subset resvg draws no glyph for a character: the Chinese PNG would then
    equal the one drawn with the CJK family's text removed."""
    body = {"subject": SAMPLE, "gender": "female", "format": "png", "size_px": 300}
    response = await client.post(
        "/api/v3/chinese/ziwei/chart", json={**body, "language": "zh"}, headers=key_headers(key)
    )
    png = await response.get_data()
    chart = ziwei_chart(SAMPLE_DATE, SAMPLE_TIME, "female", language="zh")
    svg = ziwei_chart_svg(chart, size_px=300)
    stripped = svg.replace(CJK_FAMILY, "No Such Family")
    assert png != svg_to_png(stripped, 300)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"format": "gif"}, "format"),
        ({"size_px": 199}, "size_px"),
        ({"size_px": 2001}, "size_px"),
        ({"language": "fr"}, "language"),
        ({"theme": "sepia"}, "theme"),
        ({"colors": {"primary": "red"}}, "colors.primary"),
        ({"on_date": "2000-08-15"}, "on_date"),
        ({"gender": "x"}, "gender"),
    ],
)
async def test_picture_limits(client: Client, key: str, extra: dict[str, Any], field: str) -> None:
    body = {"subject": SAMPLE, "gender": "female", **extra}
    status, answer = await _post(client, key, "chinese/ziwei/chart", body)
    assert status == 400
    assert answer["details"][0]["field"] == field


@pytest.mark.parametrize("extra", [{"size_px": 200}, {"size_px": 2000, "format": "svg"}])
async def test_picture_sizes_on_the_limits_are_accepted(
    client: Client, key: str, extra: dict[str, Any]
) -> None:
    body = {"subject": SAMPLE, "gender": "female", **extra}
    response = await client.post("/api/v3/chinese/ziwei/chart", json=body, headers=key_headers(key))
    assert response.status_code == 200


# --- limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"subject": SAMPLE}, "gender"),
        ({"subject": SAMPLE, "gender": "other"}, "gender"),
        ({"subject": SAMPLE, "gender": None}, "gender"),
        ({"subject": {**SAMPLE, "date": "1900-01-31"}, "gender": "male"}, "subject.date"),
        ({"subject": {**SAMPLE, "date": "2100-12-31"}, "gender": "male"}, "subject.date"),
        ({"subject": {**SAMPLE, "date": "2000-02-30"}, "gender": "male"}, "subject.date"),
        ({"subject": {**SAMPLE, "time": "24:00"}, "gender": "male"}, "subject.time"),
        ({"subject": {**SAMPLE, "time": "12:60"}, "gender": "male"}, "subject.time"),
        ({"subject": {**SAMPLE, "time": "7:30"}, "gender": "male"}, "subject.time"),
        ({"subject": {**SAMPLE, "latitude": 90.01}, "gender": "male"}, "subject.latitude"),
        ({"subject": {**SAMPLE, "timezone": "Nowhere/City"}, "gender": "male"}, "subject.timezone"),
        ({"subject": SAMPLE, "gender": "male", "on_date": "2000-08-15"}, "on_date"),
        ({"subject": SAMPLE, "gender": "male", "on_date": "2100-12-31"}, "on_date"),
        ({"subject": SAMPLE, "gender": "male", "on_date": "2026-02-30"}, "on_date"),
        ({"subject": SAMPLE, "gender": "male", "language": "zh-TW"}, "language"),
        ({"subject": SAMPLE, "gender": "male", "late_zi": "next_day"}, "late_zi"),
        ({"subject": SAMPLE, "gender": "male", "leap_month": "next"}, "leap_month"),
        (
            {"subject": SAMPLE, "gender": "male", "sensitivity": {"uncertainty_minutes": 720.01}},
            "sensitivity.uncertainty_minutes",
        ),
        (
            {"subject": SAMPLE, "gender": "male", "sensitivity": {"uncertainty_minutes": -1}},
            "sensitivity.uncertainty_minutes",
        ),
    ],
)
async def test_limits_are_field_level_400s_that_cost_nothing(
    client: Client, body: dict[str, Any], field: str
) -> None:
    account_id, key = await new_account("free", 5)
    status, answer = await _post(client, key, "chinese/ziwei", body)
    assert status == 400, answer
    assert answer["error"] == "validation_error"
    assert answer["details"][0]["field"] == field
    assert (await Account.get(id=account_id)).credits == 5


@pytest.mark.parametrize(
    "body",
    [
        {"subject": {**SAMPLE, "date": "1900-02-01"}, "gender": "male"},
        {"subject": {**SAMPLE, "date": "2100-12-30"}, "gender": "female"},
        {"subject": {**SAMPLE, "time": "23:59:59"}, "gender": "male"},
        {"subject": {**SAMPLE, "time": "00:00"}, "gender": "male"},
        {"subject": SAMPLE, "gender": "male", "on_date": "2000-08-16"},
        {"subject": SAMPLE, "gender": "male", "on_date": "2100-12-30"},
        {"subject": SAMPLE, "gender": "male", "sensitivity": {"uncertainty_minutes": 720}},
        {"subject": SAMPLE, "gender": "male", "sensitivity": {"uncertainty_minutes": 0}},
    ],
)
async def test_values_on_the_limits_are_accepted(
    client: Client, key: str, body: dict[str, Any]
) -> None:
    status, answer = await _post(client, key, "chinese/ziwei", body)
    assert status == 200, answer
    if "on_date" in body:
        assert answer["horoscope"]["on_date"] == body["on_date"]


async def test_a_local_time_skipped_by_daylight_saving_names_subject_time(
    client: Client, key: str
) -> None:
    # China's daylight saving began on 1988-04-17 at 02:00 (clocks went to 03:00).
    subject = {**SAMPLE, "date": "1988-04-17", "time": "02:30"}
    status, body = await _post(client, key, "chinese/ziwei", {"subject": subject, "gender": "male"})
    assert status == 400
    assert body["details"][0]["field"] == "subject.time"


async def test_sensitivity_near_the_calendars_end_names_subject_date(
    client: Client, key: str
) -> None:
    # The chart is drawn to 2100-12-30; the search needs a day and its horizon beyond the birth.
    body = {
        "subject": {**SAMPLE, "date": "2100-12-29"},
        "gender": "male",
        "sensitivity": {"uncertainty_minutes": 10},
    }
    status, answer = await _post(client, key, "chinese/ziwei", body)
    assert status == 400
    assert answer["details"][0]["field"] == "subject.date"


async def test_a_stored_profile_is_a_subject(client: Client) -> None:
    _id, key = await new_account("free", 10)
    created = await client.post(
        "/api/v3/profiles",
        json={"name": "Sample", "birth": SAMPLE},
        headers=key_headers(key),
    )
    assert created.status_code == 201, await created.get_json()
    profile_id = (await created.get_json())["profile"]["id"]
    status, body = await _post(
        client, key, "chinese/ziwei", {"subject": {"profile_id": profile_id}, "gender": "female"}
    )
    assert status == 200, body
    assert body["life_palace_branch"] == "wu"


# --- billing, scopes, documentation ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "params", "variant", "credits"),
    [
        ("chinese.ziwei", {"subject": SAMPLE, "gender": "male"}, "chinese.ziwei", 1),
        (
            "chinese.ziwei",
            {"subject": SAMPLE, "gender": "male", "sensitivity": {"uncertainty_minutes": 5}},
            "chinese.ziwei.sensitivity",
            2,
        ),
        ("chinese.ziwei_chart", {"subject": SAMPLE, "gender": "male"}, "chinese.ziwei_chart", 2),
    ],
)
async def test_estimates_price_the_calls(
    client: Client,
    key: str,
    operation: str,
    params: dict[str, Any],
    variant: str,
    credits: int,
) -> None:
    status, answer = await _post(
        client, key, "estimates", {"operation": operation, "params": params}
    )
    assert status == 200, answer
    assert (answer["operation"], answer["estimated_credits"]) == (variant, credits)
    assert answer["tier_required"] == "free"


async def test_a_chinese_scoped_key_may_call_and_a_western_one_may_not(client: Client) -> None:
    account_id, _key = await new_account("free", 10)
    chinese = await create_api_key(account_id, scopes_wanted=frozenset({"chinese"}))
    western = await create_api_key(account_id, scopes_wanted=frozenset({"western"}))
    assert scopes.scope_for_rule("/api/v3/chinese/ziwei/chart") == "chinese"
    for path in ("chinese/ziwei", "chinese/ziwei/chart"):
        allowed = await client.post(
            f"/api/v3/{path}",
            json={"subject": SAMPLE, "gender": "male"},
            headers=key_headers(chinese),
        )
        assert allowed.status_code == 200
        refused = await client.post(
            f"/api/v3/{path}",
            json={"subject": SAMPLE, "gender": "male"},
            headers=key_headers(western),
        )
        assert refused.status_code == 403
        assert "chinese" in (await refused.get_json())["message"]


async def test_missing_key_is_401_and_no_credits_402(client: Client) -> None:
    response = await client.post(
        "/api/v3/chinese/ziwei", json={"subject": SAMPLE, "gender": "male"}
    )
    assert response.status_code == 401
    _id, poor = await new_account("free", 1)
    status, body = await _post(
        client, poor, "chinese/ziwei/chart", {"subject": SAMPLE, "gender": "male"}
    )
    assert status == 402
    assert body["error"] == "payment_required"


async def test_both_routes_are_documented_under_the_chinese_and_korean_tag(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    chart = doc["paths"]["/api/v3/chinese/ziwei"]["post"]
    picture = doc["paths"]["/api/v3/chinese/ziwei/chart"]["post"]
    assert (chart["operationId"], picture["operationId"]) == ("chineseZiwei", "chineseZiweiChart")
    assert chart["tags"] == picture["tags"] == ["Chinese & Korean"]
    schema = chart["responses"]["200"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    properties = schema["properties"]
    assert {"lunar_date", "hour_branch", "five_elements_class", "soul_star", "body_star",
            "life_palace_branch", "body_palace_branch", "palaces", "horoscope", "readings",
            "disclaimer", "sensitivity"} <= set(properties)  # fmt: skip
    assert set(picture["responses"]["200"]["content"]) == {"image/svg+xml", "image/png"}
