"""The birth-time ``sensitivity`` option on the routes added after the first wiring (issue 34):
the Western derived charts (synastry, composite, returns, progressions, transits), the Vedic
dasha and kundli matching, the Thai auspicious times (the person's Thai birth day) and the HR
assessment.

In-process app on SQLite. Each answer's ``sensitivity`` is compared with astro_calc's for the
same input (astro_calc's tests check every crossing by brute force at +-1 s on 200 random births
or pairs); here: the rest of the answer unchanged by the option, the charge (the bare row plus
one credit), the option's edges (0 and 720 accepted; -1, 721, a string, a non-object refused
with a 400 naming the field), the estimates and the OpenAPI document.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_calc import sensitivity
from astro_calc import vedic as vedic_calc
from astro_calc.time import resolve
from astro_calc.western import BirthSubject
from astro_server.platform.billing.pricing import OPERATIONS

A: dict[str, Any] = {
    "date": "1961-07-01",
    "time": "19:45",
    "latitude": 52.8333,
    "longitude": 0.5,
    "timezone": "Europe/London",
}
B: dict[str, Any] = {
    "date": "1962-06-18",
    "time": "06:10",
    "latitude": 53.4,
    "longitude": -2.98,
    "timezone": "Europe/London",
}
CALC_A = BirthSubject(dt.date(1961, 7, 1), "19:45", 52.8333, 0.5, None, "Europe/London")
CALC_B = BirthSubject(dt.date(1962, 6, 18), "06:10", 53.4, -2.98, None, "Europe/London")
BOY: dict[str, Any] = {
    "date": "1985-07-21",
    "time": "14:35",
    "latitude": 13.08,
    "longitude": 80.27,
    "timezoneOffsetMinutes": 330,
}
GIRL: dict[str, Any] = {
    "date": "1988-02-03",
    "time": "05:50",
    "latitude": 19.07,
    "longitude": 72.88,
    "timezoneOffsetMinutes": 330,
}
CALC_BOY = vedic_calc.BirthSubject(dt.date(1985, 7, 21), "14:35", 13.08, 80.27, 330)
CALC_GIRL = vedic_calc.BirthSubject(dt.date(1988, 2, 3), "05:50", 19.07, 72.88, 330)
CANDIDATE: dict[str, Any] = {
    "name": "Somchai",
    "birth_date": "1990-05-16",
    "birth_time": "17:35",
    "timezoneOffsetMinutes": 420,
    "latitude": 13.75,
    "longitude": 100.5,
}

Expected = Callable[[float], sensitivity.Sensitivity]


def _natal(*subjects: tuple[str, BirthSubject], system: str = "P") -> Expected:
    def expected(minutes: float) -> sensitivity.Sensitivity:
        return sensitivity.combined(
            [
                (prefix, sensitivity.natal_sensitivity(s, house_system=system, **_u(minutes)))
                for prefix, s in subjects
            ]
        )

    return expected


def _u(minutes: float) -> dict[str, float]:
    return {"uncertainty_minutes": minutes}


PAIR = (("subject_a", CALC_A), ("subject_b", CALC_B))
#: (route, operation, request body without the option, astro_calc's answer for an uncertainty)
CASES: list[tuple[str, str, dict[str, Any], Expected]] = [
    ("western/synastry", "western.synastry", {"subject_a": A, "subject_b": B}, _natal(*PAIR)),
    (
        "western/composite",
        "western.composite",
        {"subject_a": A, "subject_b": B, "method": "davison", "house_system": "K"},
        _natal(*PAIR, system="K"),
    ),
    (
        "western/returns",
        "western.returns",
        {"subject": A, "kind": "solar", "year": 2020},
        _natal(("", CALC_A)),
    ),
    (
        "western/progressions",
        "western.progressions",
        {"subject": A, "target_date": "2020-01-01T00:00:00Z", "method": "solar_arc"},
        _natal(("", CALC_A)),
    ),
    (
        "western/transits",
        "western.transits",
        {"subject": A, "start": "2020-01-01T00:00:00Z", "end": "2020-01-08T00:00:00Z"},
        _natal(("", CALC_A)),
    ),
    (
        "vedic/dasha",
        "vedic.dasha",
        {"subject": BOY, "year_days": 360, "depth": 1, "at": "2020-01-01T00:00:00Z"},
        lambda m: sensitivity.dasha_sensitivity(CALC_BOY, year_days=360.0, **_u(m)),
    ),
    (
        "vedic/kundli-matching",
        "vedic.kundli_matching",
        {"boy": BOY, "girl": GIRL, "school": "south"},
        lambda m: sensitivity.matching_sensitivity(CALC_BOY, CALC_GIRL, school="south", **_u(m)),
    ),
    (
        "thai/auspicious-times",
        "thai.auspicious_times",
        {
            "purpose": "wedding",
            "start_date": "2026-01-01",
            "end_date": "2026-01-31",
            "birth_date": "1990-05-16",
            "birth_time": "17:35",
        },
        lambda m: sensitivity.thai_sensitivity(
            resolve(dt.date(1990, 5, 16), dt.time(17, 35), offset_minutes=420), **_u(m)
        ),
    ),
    (
        "reports/hr-screening",
        "reports.hr_screening",
        {"candidate": CANDIDATE, "position": "software engineer", "as_of": "2026-01-01"},
        lambda m: sensitivity.hr_sensitivity(
            dt.date(1990, 5, 16),
            dt.time(17, 35),
            latitude=13.75,
            longitude=100.5,
            offset_minutes=420,
            **_u(m),
        ),
    ),
]
IDS = [case[0] for case in CASES]
#: Fields of an answer that differ from one request to the next.
VOLATILE = {"request_id", "generated_at", "sensitivity"}


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
    _id, api_key = await new_account("pro", 10_000)  # the HR assessment is a pro operation
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json(), response


def _plain(value: msgspec.Struct) -> Any:
    return json.loads(msgspec.json.encode(value))


def _steady(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in VOLATILE}


@pytest.mark.parametrize(("path", "operation", "body", "expected"), CASES, ids=IDS)
@pytest.mark.parametrize("minutes", [0, 720])
async def test_the_option_is_astro_calcs_leaves_the_answer_and_costs_one_more(
    client: Client,
    key: str,
    path: str,
    operation: str,
    body: dict[str, Any],
    expected: Expected,
    minutes: float,
) -> None:
    status, bare, bare_response = await _post(client, key, path, body)
    assert status == 200, bare
    assert "sensitivity" not in bare
    assert bare_response.headers["X-Credits-Charged"] == str(OPERATIONS[operation].credits)
    asked = {**body, "sensitivity": {"uncertainty_minutes": minutes}}
    status, answer, response = await _post(client, key, path, asked)
    assert status == 200, answer
    assert answer["sensitivity"] == _plain(expected(minutes))
    assert answer["sensitivity"]["uncertainty_minutes"] == minutes
    assert answer["sensitivity"]["items"]
    assert _steady(answer) == _steady(bare)
    assert response.headers["X-Credits-Charged"] == str(OPERATIONS[operation].credits + 1)
    uncertain = answer["sensitivity"]["uncertain"]
    if minutes == 0:
        assert uncertain == []
    else:  # within 12 hours either side something always changes (an angle, a pillar, a day)
        assert uncertain


@pytest.mark.parametrize(("path", "operation", "body", "expected"), CASES, ids=IDS)
@pytest.mark.parametrize(
    ("option", "field"),
    [
        ({"uncertainty_minutes": -1}, "sensitivity.uncertainty_minutes"),
        ({"uncertainty_minutes": -0.5}, "sensitivity.uncertainty_minutes"),
        ({"uncertainty_minutes": 721}, "sensitivity.uncertainty_minutes"),
        ({"uncertainty_minutes": "ten"}, "sensitivity.uncertainty_minutes"),
        (30, "sensitivity"),
    ],
)
async def test_a_bad_option_is_a_400_naming_the_field(
    client: Client,
    key: str,
    path: str,
    operation: str,
    body: dict[str, Any],
    expected: Expected,
    option: object,
    field: str,
) -> None:
    status, answer, response = await _post(client, key, path, {**body, "sensitivity": option})
    assert status == 400, answer
    assert [d["field"] for d in answer["details"]] == [field]
    assert response.headers.get("X-Credits-Charged", "0") == "0"


@pytest.mark.parametrize(("path", "operation", "body", "expected"), CASES, ids=IDS)
async def test_estimates_price_the_sensitivity_row(
    client: Client, key: str, path: str, operation: str, body: dict[str, Any], expected: Expected
) -> None:
    params = {**body, "sensitivity": {"uncertainty_minutes": 30}}
    status, answer, _response = await _post(
        client, key, "estimates", {"operation": operation, "params": params}
    )
    assert status == 200, answer
    assert answer["operation"] == f"{operation}.sensitivity"
    assert answer["estimated_credits"] == OPERATIONS[operation].credits + 1


async def test_the_option_is_documented_on_every_route(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    schemas = doc["components"]["schemas"]

    def resolved(schema: dict[str, Any]) -> dict[str, Any]:
        return schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema

    for path, _operation, _body, _expected in CASES:
        op = doc["paths"][f"/api/v3/{path}"]["post"]
        answer = resolved(op["responses"]["200"]["content"]["application/json"]["schema"])
        assert "sensitivity" in answer["properties"], path
        request = resolved(op["requestBody"]["content"]["application/json"]["schema"])
        assert "sensitivity" in request["properties"], path
        assert ".sensitivity" in op["description"] or "+1 credit" in op["description"], path


async def test_the_hr_option_needs_the_birth_time(client: Client, key: str) -> None:
    candidate = {k: v for k, v in CANDIDATE.items() if k != "birth_time"}
    body = {"candidate": candidate, "position": "engineer", "sensitivity": {}}
    status, answer, response = await _post(client, key, "reports/hr-screening", body)
    assert status == 400, answer
    assert [d["field"] for d in answer["details"]] == ["candidate.birth_time"]
    assert response.headers.get("X-Credits-Charged", "0") == "0"


@pytest.mark.parametrize("missing", ["birth_date", "birth_time"])
async def test_the_auspicious_option_needs_the_birth(
    client: Client, key: str, missing: str
) -> None:
    body = {k: v for k, v in CASES[7][2].items() if k != missing}
    status, answer, _response = await _post(
        client, key, "thai/auspicious-times", {**body, "sensitivity": {}}
    )
    assert status == 400, answer
    assert [d["field"] for d in answer["details"]] == [missing]


async def test_the_pair_charts_name_each_birth(client: Client, key: str) -> None:
    body = {"subject_a": A, "subject_b": B, "sensitivity": {"uncertainty_minutes": 5}}
    status, answer, _response = await _post(client, key, "western/synastry", body)
    assert status == 200, answer
    names = [item["result"] for item in answer["sensitivity"]["items"]]
    assert "subject_a.ascendant.sign" in names
    assert "subject_b.moon.sign" in names
    assert all(n.startswith(("subject_a.", "subject_b.")) for n in names)
