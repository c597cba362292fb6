"""``client.chinese.ziwei`` and ``client.chinese.ziwei_chart``: bodies as the server expects them,
the server's limits refused before sending, typed results and the picture's bytes."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import httpx
import pytest
from sdk_testkit import Script, async_client, reply, sync_client

import astro_sdk

SUBJECT = {"date": "2000-08-16", "time": "04:00", "latitude": 39.9, "longitude": 116.4}
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def _star(name: str, brightness: str | None = None, mark: str | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "label": name.title(),
        "brightness": brightness,
        "transformation": mark,
        "brightness_label": None,
        "transformation_label": None,
    }


def _palace(name: str, branch: str, stars: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "label": name.title(), "stem": "ren", "branch": branch,
            "stem_label": "Ren", "branch_label": branch.title(), "is_body_palace": False,
            "major_stars": stars, "minor_stars": [], "adjective_stars": [_star("tianxi")],
            "decadal": {"start_age": 3, "end_age": 12}}  # fmt: skip


def _level(scope: str) -> dict[str, Any]:
    return {"scope": scope, "label": scope, "palace_branch": "wu", "natal_palace": "life",
            "stem": "bing", "branch": "wu", "palace_names": ["life"] * 12,
            "transformations": [{"transformation": "lu", "star": "tiantong",
                                 "star_label": "Tian Tong", "natal_palace": "health"}]}  # fmt: skip


def _answer() -> dict[str, Any]:
    return {
        "birth_date": "2000-08-16", "birth_time": "04:00:00", "gender": "female",
        "language": "en",
        "lunar_date": {"year": 2000, "month": 7, "day": 17, "leap": False, "label": "2000-7-17"},
        "year_stem": "geng", "year_branch": "chen", "hour_index": 2, "hour_branch": "yin",
        "hour_branch_label": "Yin",
        "five_elements_class": {"element": "wood", "number": 3, "label": "Wood 3"},
        "soul_star": "pojun", "soul_star_label": "Po Jun", "body_star": "wenchang",
        "body_star_label": "Wen Chang", "life_palace_branch": "wu", "body_palace_branch": "xu",
        "palaces": [_palace("life", "wu", [_star("ziwei", "miao")])],
        "horoscope": {"on_date": "2026-12-08",
                      "lunar_date": {"year": 2026, "month": 10, "day": 19, "leap": False,
                                     "label": "2026-10-19"},
                      "nominal_age": 27, "decadal": _level("decadal"), "yearly": _level("yearly"),
                      "monthly": _level("monthly")},
        "conventions": ["local clock time decides the hour"],
        "readings": [{"topic": "life_palace", "key": "life.ziwei", "language": "en",
                      "text": "Zi Wei sits in the Life palace."}],
        "disclaimer": {"code": "ziwei", "text": "For reflection."},
    }  # fmt: skip


def test_ziwei_sends_only_the_given_fields_and_returns_a_typed_chart() -> None:
    script = Script(reply(200, _answer(), {"X-Credits-Charged": "1"}))
    result = sync_client(script).chinese.ziwei(
        subject=SUBJECT, gender="female", on_date=dt.date(2026, 12, 8), language="zh-Hant"
    )
    request = script.requests[0]
    assert request.url.path == "/api/v3/chinese/ziwei"
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert json.loads(request.content) == {
        "subject": SUBJECT, "gender": "female", "on_date": "2026-12-08", "language": "zh-Hant",
    }  # fmt: skip
    assert (result.life_palace_branch, result.five_elements_class.number) == ("wu", 3)
    assert result.birth_time == dt.time(4, 0)
    assert result.palaces[0].major_stars[0].brightness == "miao"
    assert result.horoscope is not None
    assert result.horoscope.on_date == dt.date(2026, 12, 8)
    assert result.horoscope.yearly.transformations[0].natal_palace == "health"
    assert result.readings[0].language == "en"
    assert result.disclaimer.code == "ziwei"
    assert result.sensitivity is None
    assert result.api_response.credits_charged == 1


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"subject": SUBJECT, "gender": "other"}, "gender"),
        ({"subject": {**SUBJECT, "date": "1900-01-31"}, "gender": "male"}, "subject.date"),
        ({"subject": {**SUBJECT, "date": "2100-12-31"}, "gender": "male"}, "subject.date"),
        ({"subject": {**SUBJECT, "time": "24:00"}, "gender": "male"}, "subject.time"),
        ({"subject": SUBJECT, "gender": "male", "on_date": "2000-08-15"}, "on_date"),
        ({"subject": SUBJECT, "gender": "male", "on_date": "2100-12-31"}, "on_date"),
        ({"subject": SUBJECT, "gender": "male", "language": "fr"}, "language"),
        ({"subject": SUBJECT, "gender": "male", "late_zi": "x"}, "late_zi"),
        ({"subject": SUBJECT, "gender": "male", "leap_month": "x"}, "leap_month"),
        (
            {"subject": SUBJECT, "gender": "male", "sensitivity": {"uncertainty_minutes": 721}},
            "sensitivity.uncertainty_minutes",
        ),
    ],
)
def test_ziwei_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).chinese.ziwei(**options)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


async def test_ziwei_chart_returns_the_png() -> None:
    headers = {"Content-Type": "image/png", "X-Credits-Charged": "2"}
    script = Script(httpx.Response(200, content=PNG, headers=headers))
    async with async_client(script) as client:
        image = await client.chinese.ziwei_chart(
            subject=SUBJECT, gender="female", language="zh", format="png", size_px=800
        )
    request = script.requests[0]
    assert request.url.path == "/api/v3/chinese/ziwei/chart"
    assert json.loads(request.content) == {
        "subject": SUBJECT, "gender": "female", "language": "zh", "format": "png", "size_px": 800,
    }  # fmt: skip
    assert (image.is_png, image.data, image.api_response.credits_charged) == (True, PNG, 2)
