"""features/common/calculation.py: what a declared route answers, charges and documents, and the
declarations it refuses at import (the routes of the tag groups are tested in test_api_*)."""

from __future__ import annotations

import datetime as dt

import msgspec
import pytest
from _platform_support import key_headers, new_account
from pydantic import BaseModel
from quart import Blueprint
from quart.typing import TestClientProtocol as Client

from astro_server.features.common.calculation import calculation
from astro_server.features.common.interpretations import InterpretationOptions
from astro_server.features.common.pictures import PictureOptions

blueprint = Blueprint("calculation_test", __name__)
PATH = "/test/full-moon"


class MoonRequest(BaseModel):
    date: dt.date


class FullMoon(msgspec.Struct, frozen=True):
    date: dt.date
    name: str


def _ics(moon: FullMoon, data: MoonRequest) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//full moon//EN",
        "BEGIN:VEVENT",
        f"UID:{moon.date:%Y%m%d}@test",
        f"DTSTART;VALUE=DATE:{moon.date:%Y%m%d}",
        f"SUMMARY:{moon.name}",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "\r\n".join(lines) + "\r\n"


@calculation(
    blueprint,
    f"POST {PATH}",
    operation_id="testFullMoon",
    tags=["Test"],
    price="thai.calendar",
    body=MoonRequest,
    result=FullMoon,
    calendar=_ics,
)
def full_moon(data: MoonRequest) -> FullMoon:
    """A fixed answer for the test: the request's date named."""
    return FullMoon(data.date, "Full moon")


@pytest.fixture
def app_blueprints() -> list[Blueprint]:
    return [blueprint]


async def test_json_is_the_default_answer(client: Client) -> None:
    _, key = await new_account("free", 10)
    response = await client.post(PATH, json={"date": "2026-12-24"}, headers=key_headers(key))
    assert response.status_code == 200
    assert response.content_type == "application/json"
    assert await response.get_data() == b'{"date":"2026-12-24","name":"Full moon"}'
    assert response.headers["X-Credits-Charged"] == "1"


async def test_accept_text_calendar_answers_icalendar(client: Client) -> None:
    _, key = await new_account("free", 10)
    headers = key_headers(key, Accept="text/calendar")
    response = await client.post(PATH, json={"date": "2026-12-24"}, headers=headers)
    assert response.status_code == 200
    assert response.content_type == "text/calendar; charset=utf-8"
    assert await response.get_data() == (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//full moon//EN\r\nBEGIN:VEVENT\r\n"
        b"UID:20261224@test\r\nDTSTART;VALUE=DATE:20261224\r\nSUMMARY:Full moon\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    assert response.headers["X-Credits-Charged"] == "1"


async def test_json_preferred_over_calendar_when_both_accepted(client: Client) -> None:
    _, key = await new_account("free", 10)
    headers = key_headers(key, Accept="application/json, text/calendar;q=0.5")
    response = await client.post(PATH, json={"date": "2026-12-24"}, headers=headers)
    assert response.content_type == "application/json"


async def test_openapi_documents_the_calendar_alternative(client: Client) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"][PATH]["post"]
    assert operation["operationId"] == "testFullMoon"
    assert operation["summary"] == "A fixed answer for the test: the request's date named"
    content = operation["responses"]["200"]["content"]
    assert set(content) == {"application/json", "text/calendar"}


def test_interpretations_need_the_option_on_the_body() -> None:
    with pytest.raises(TypeError, match="InterpretationOptions"):
        calculation(
            Blueprint("refused", __name__),
            "POST /test/refused",
            operation_id="testRefused",
            tags=["Test"],
            price="thai.calendar",
            body=MoonRequest,
            interpret=lambda result, data: result,
        )


def test_a_picture_route_must_be_listed_as_an_image_operation() -> None:
    class Picture(MoonRequest, PictureOptions, InterpretationOptions):
        pass

    with pytest.raises(TypeError, match="IMAGE_OPERATIONS"):
        calculation(
            Blueprint("refused_picture", __name__),
            "POST /test/refused-picture",
            operation_id="testRefusedPicture",
            tags=["Test"],
            price="thai.calendar",
            body=Picture,
            picture=True,
        )


def test_a_route_with_path_arguments_is_written_by_hand() -> None:
    with pytest.raises(TypeError, match="path arguments"):
        calculation(
            Blueprint("refused_path", __name__),
            "GET /test/cards/<card_id>",
            operation_id="testRefusedPath",
            tags=["Test"],
            price=None,
        )


SKIPPED_A = {  # 01:30 on 2021-03-28 does not exist in London (the clocks went forward)
    "date": "2021-03-28",
    "time": "01:30",
    "latitude": 51.5,
    "longitude": -0.1,
    "timezone": "Europe/London",
}
GOOD_B = {"date": "1990-03-28", "time": "11:30", "latitude": 51.5, "longitude": -0.1}


@pytest.mark.parametrize("sensitivity", [None, {"uncertainty_minutes": 5}])
async def test_a_pair_names_the_refused_subject_with_or_without_sensitivity(
    client: Client, sensitivity: dict[str, float] | None
) -> None:
    # The result is computed before the sensitivity, so the error is the calculation's own
    # (subject_a.time), whether or not sensitivity was asked for.
    _, key = await new_account("free", 10)
    body = {"subject_a": SKIPPED_A, "subject_b": GOOD_B, "sensitivity": sensitivity}
    response = await client.post("/api/v3/western/synastry", json=body, headers=key_headers(key))
    assert response.status_code == 400
    details = (await response.get_json())["details"]
    assert [detail["field"] for detail in details] == ["subject_a.time"]
    assert response.headers["X-Credits-Charged"] == "0"
