"""``client.chinese`` and ``client.korean``: bodies as the server expects them, validation before
sending (bounds and the cross-field rules), typed results."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from sdk_testkit import Script, async_client, reply, sync_client

import astro_sdk
from astro_sdk.models.chinese import ChineseBirthSubject

SUBJECT = {"date": "1940-11-27", "time": "07:12", "latitude": 37.79, "longitude": -122.41}
SEOUL = ChineseBirthSubject(
    date=dt.date(1994, 4, 28), time="23:40", latitude=37.5665, longitude=126.978
)
UTC_ISO = "1940-11-27T15:12:00Z"


def _symbol(index: int, character: str, **extra: Any) -> dict[str, Any]:
    return {"index": index, "key": character, "character": character, "pinyin": "p",
            "hanja": character, "hangul": "h", "english": "e", **extra}  # fmt: skip


def _stem(index: int, character: str) -> dict[str, Any]:
    return {"index": index, "character": character, "pinyin": "p", "hanja": character,
            "hangul": "h", "romanized": "r", "element": "wood", "polarity": "yang"}  # fmt: skip


def _branch(index: int, character: str) -> dict[str, Any]:
    return {**_stem(index, character), "animal": "dog"}


def _term(index: int) -> dict[str, Any]:
    return {**_symbol(index, "立冬"), "longitude_deg": 225, "is_jie": True,
            "jd_ut": 2429940.5, "utc": UTC_ISO}  # fmt: skip


def _pillar(ganzhi: str) -> dict[str, Any]:
    ten_god = _symbol(0, "比肩")
    return {
        "cycle_index": 10, "ganzhi": ganzhi, "stem": _stem(0, ganzhi[0]),
        "branch": _branch(10, ganzhi[1]), "na_yin": {**_symbol(5, "山头火"), "element": "fire"},
        "hidden_stems": [{"stem": _stem(4, "戊"), "role": "principal", "weight": 0.6,
                          "ten_god": ten_god}],
        "stem_ten_god": None, "life_stage": _symbol(4, "衰"), "self_life_stage": _symbol(4, "衰"),
        "is_void": False,
    }  # fmt: skip


def _bazi_chart() -> dict[str, Any]:
    birth = {"local": "1940-11-27T07:12:00-08:00", "utc": UTC_ISO, "offset_minutes": -480,
             "timezone": "America/Los_Angeles", "time_source": "timezone",
             "latitude": 37.79, "longitude": -122.41}  # fmt: skip
    scores = [{"element": "wood", "score": 2.0, "percent": 22.2, "visible_stems": 1}]
    return {
        "birth": birth,
        "pillar_time": {"mode": "clock", "local": "1940-11-27T07:12:00",
                        "correction_minutes": 0.0, "equation_of_time_minutes": 0.0,
                        "day_boundary": "zi"},
        "pillars": {"year": _pillar("庚辰"), "month": _pillar("丁亥"), "day": _pillar("甲戌"),
                    "hour": _pillar("戊辰")},
        "day_master": _stem(0, "甲"), "bazi_year": 1940,
        "previous_jie": _term(20), "next_jie": _term(22),
        "void_branches": [_branch(8, "申"), _branch(9, "酉")],
        "element_balance": {"weighting": "w", "total": 9.0, "scores": scores,
                            "dominant": "earth", "weakest": "water", "missing": []},
        "strength": {"verdict": "weak", "support_percent": 30.0, "method": "m",
                     "factors": [{"key": "season", "supports": True, "detail": "d"}]},
        "favourable_elements": ["water", "wood"], "unfavourable_elements": ["metal"],
        "ten_gods": [{"ten_god": _symbol(4, "偏财"), "weight": 2.5}],
        "gender": None, "luck": None, "annual_pillars": [], "current_luck_pillar": None,
        "reference_date": "2024-01-01",
    }  # fmt: skip


def _readings() -> list[dict[str, str]]:
    return [{"topic": "day_master", "key": "day_master.jia", "en": "Jia", "th": "เจี่ย"}]


def test_bazi_sends_only_the_given_fields_and_returns_a_typed_chart() -> None:
    script = Script(
        reply(200, {"chart": _bazi_chart(), "readings": _readings()}, {"X-Credits-Charged": "1"})
    )
    result = sync_client(script).chinese.bazi(
        subject=SUBJECT, gender="male", annual_from_year=1970, annual_to_year=1973
    )
    request = script.requests[0]
    assert request.url.path == "/api/v3/chinese/bazi"
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert json.loads(request.content) == {
        "subject": SUBJECT, "gender": "male", "annual_from_year": 1970, "annual_to_year": 1973,
    }  # fmt: skip
    pillars = result.chart.pillars
    assert (pillars.year.ganzhi, pillars.day.stem.character) == ("庚辰", "甲")
    assert result.chart.birth.utc == dt.datetime(1940, 11, 27, 15, 12, tzinfo=dt.UTC)
    assert result.chart.void_branches[1].character == "酉"
    assert result.readings[0].th == "เจี่ย"
    assert result.api_response.credits_charged == 1


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"subject": {**SUBJECT, "time": "7:12"}}, "subject.time"),
        ({"subject": {**SUBJECT, "latitude": 90.5}}, "subject.latitude"),
        ({"subject": {**SUBJECT, "date": "1800-06-01"}}, "subject.date"),
        ({"subject": {**SUBJECT, "timezoneOffsetMinutes": 1081}}, "subject.timezoneOffsetMinutes"),
        ({"subject": SUBJECT, "luck_pillar_count": 13}, "luck_pillar_count"),
        ({"subject": SUBJECT, "annual_from_year": 1950, "annual_to_year": 2070}, "annual_to_year"),
        ({"subject": SUBJECT, "annual_from_year": 1950}, "annual_to_year"),
        ({"subject": SUBJECT, "gender": "other"}, "gender"),
    ],
)
def test_bazi_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).chinese.bazi(**options)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


def test_calendar_takes_exactly_one_of_date_and_year() -> None:
    client = sync_client(Script())
    for options in ({}, {"date": "2024-02-10", "year": 2024}):
        with pytest.raises(astro_sdk.RequestValidationError, match="exactly one"):
            client.chinese.calendar(**options)
    with pytest.raises(astro_sdk.RequestValidationError, match="year"):
        client.chinese.calendar(year=2101)


def test_calendar_date_returns_the_chinese_date() -> None:
    chinese_date = {"gregorian": "2024-02-10", "lunar_year": 2024, "month": 1, "day": 1,
                    "is_leap_month": False, "month_days": 29, "year_ganzhi": "甲辰",
                    "zodiac_animal": "dragon", "label": "甲辰年正月初一"}  # fmt: skip
    body = {"mode": "date", "chinese_date": chinese_date, "year": None, "solar_terms": [],
            "lunar_months": []}  # fmt: skip
    script = Script(reply(200, body))
    result = sync_client(script).chinese.calendar(date=dt.date(2024, 2, 10))
    assert json.loads(script.requests[0].content) == {"date": "2024-02-10"}
    assert result.chinese_date is not None
    assert result.chinese_date.label == "甲辰年正月初一"
    assert result.chinese_date.gregorian == dt.date(2024, 2, 10)


def test_qimen_sends_the_method() -> None:
    script = Script(reply(500, {"error": "internal_server_error", "message": "x"}))
    with pytest.raises(astro_sdk.InternalServerError):
        sync_client(script, max_retries=0).chinese.qimen(subject=SUBJECT, method="zhi_run")
    assert json.loads(script.requests[0].content) == {"subject": SUBJECT, "method": "zhi_run"}
    assert script.requests[0].url.path == "/api/v3/chinese/qimen"
    with pytest.raises(astro_sdk.RequestValidationError, match="method"):
        sync_client(Script()).chinese.qimen(subject=SUBJECT, method="fei_pan")  # type: ignore[arg-type]


async def test_async_saju_returns_the_korean_chart() -> None:
    chart = {"hour_basis": "korean_almanac", "standard_meridian_deg": 135.0,
             "daylight_saving": False, "pillars_hangul": "갑술년 무진월 갑신일 병자시",
             "pillars_hanja": "甲戌年 戊辰月 甲申日 丙子時", "bazi": _bazi_chart()}  # fmt: skip
    script = Script(reply(200, {"chart": chart, "readings": _readings()}))
    async with async_client(script) as client:
        result = await client.korean.saju(subject=SEOUL, gender="female", idempotency_key="s-1")
    request = script.requests[0]
    assert request.url.path == "/api/v3/korean/saju"
    assert request.headers["Idempotency-Key"] == "s-1"
    assert json.loads(request.content) == {
        "subject": {"date": "1994-04-28", "time": "23:40", "latitude": 37.5665,
                    "longitude": 126.978},
        "gender": "female",
    }  # fmt: skip
    assert result.chart.pillars_hanja == "甲戌年 戊辰月 甲申日 丙子時"
    assert result.chart.bazi.pillars.hour.ganzhi == "戊辰"


async def test_async_saju_refuses_an_unknown_hour_basis_before_sending() -> None:
    script = Script()
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.RequestValidationError, match="hour_basis"):
            await client.korean.saju(subject=SEOUL, hour_basis="solar")  # type: ignore[arg-type]
    assert script.requests == []
