"""Human Design endpoints: the chart, the composite, transits and the bodygraph picture.

In-process app on SQLite. Each answer is compared with astro_calc's own result for the same
input, byte for byte (astro_calc's tests check the chart against renlei-tu on random births and
against published charts); here also Ra Uru Hu's published chart (Jovian Archive: a 5/1 splenic
manifestor of the Left Angle Cross of the Clarion, 51/57 | 61/62) through the API, every request
limit at and past its edge with the field named, the prices of the table, estimates, the scope,
401 and 402, and the OpenAPI tag.
"""

from __future__ import annotations

import datetime as dt
import io
import xml.etree.ElementTree as ET
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account
from PIL import Image
from quart.typing import TestClientProtocol as Client

from astro_calc.disclaimers import disclaimer_for
from astro_calc.human_design import (
    chart_interpretation,
    composite,
    human_design_chart,
    transits,
)
from astro_calc.sensitivity import human_design_sensitivity
from astro_calc.western import BirthSubject
from astro_server.platform.models.accounts import Account

# Ra Uru Hu (Alan Robert Krakower), 9 April 1948, 00:14, Montreal (astro_calc's
# test_human_design.py cites the published chart).
RA: dict[str, Any] = {
    "date": "1948-04-09",
    "time": "00:14",
    "latitude": 45.5,
    "longitude": -73.57,
    "timezone": "America/Montreal",
}
RA_CALC = BirthSubject(dt.date(1948, 4, 9), "00:14", 45.5, -73.57, None, "America/Montreal")
# Whitney Houston, 9 August 1963, 20:55, Newark NJ (design node 62 and design Jupiter 17: the
# channel 17-62 in her published chart).
WHITNEY: dict[str, Any] = {
    "date": "1963-08-09",
    "time": "20:55",
    "latitude": 40.73,
    "longitude": -74.17,
    "timezone": "America/New_York",
}
WHITNEY_CALC = BirthSubject(dt.date(1963, 8, 9), "20:55", 40.73, -74.17, None, "America/New_York")
MOMENT = "2027-01-15T12:00:00Z"
SVG_NS = "{http://www.w3.org/2000/svg}"
_encode = msgspec.json.Encoder().encode


def _as_json(found: object) -> Any:
    """An astro_calc result as the API's JSON decodes (lists, strings, no structs)."""
    return msgspec.json.decode(_encode(found))


def _answer(found: object, language: str = "en") -> bytes:
    """astro_calc's result encoded as the route answers it: its fields, then the Human Design
    disclaimer (astro_calc.disclaimers) in ``language``."""
    note = _encode(disclaimer_for("human_design", language))
    return _encode(found)[:-1] + b',"disclaimer":' + note + b"}"


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post(
        f"/api/v3/human-design/{path}", json=body, headers=key_headers(key)
    )
    return response.status_code, await response.get_json()


# --- the chart ------------------------------------------------------------------------------------


async def test_chart_of_ra_uru_hu_is_the_published_one(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/human-design/chart", json={"subject": RA}, headers=key_headers(key)
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    body = await response.get_json()
    assert (body["type"], body["authority"], body["profile"]) == ("manifestor", "splenic", "5/1")
    assert body["strategy"] == "to_inform"
    assert body["incarnation_cross"] == {
        "angle": "left",
        "gates": [51, 57, 61, 62],
        "name": "Left Angle Cross of the Clarion 1",
    }
    # Montreal kept Eastern Standard Time (UTC-5) on 9 April 1948.
    assert body["birth_utc"] == "1948-04-09T05:14:00Z"
    assert [c["name"] for c in body["centers"]] == [
        "head", "ajna", "throat", "g", "heart", "sacral", "spleen", "solar_plexus", "root",
    ]  # fmt: skip
    bodies = [a["body"] for a in body["activations"]["personality"]]
    assert bodies[:5] == ["sun", "earth", "north_node", "south_node", "moon"]
    assert len(body["activations"]["design"]) == 13
    assert body["node"] == "true"


async def test_chart_is_astro_calcs_byte_for_byte(client: Client, key: str) -> None:
    for node in ("true", "mean"):
        response = await client.post(
            "/api/v3/human-design/chart",
            json={"subject": WHITNEY, "node": node},
            headers=key_headers(key),
        )
        assert await response.get_data() == _answer(human_design_chart(WHITNEY_CALC, node=node))


async def test_the_mean_node_moves_only_the_node_activations(client: Client, key: str) -> None:
    _s, true = await _post(client, key, "chart", {"subject": WHITNEY})
    _s, mean = await _post(client, key, "chart", {"subject": WHITNEY, "node": "mean"})
    for side in ("personality", "design"):
        differ = {
            t["body"]
            for t, m in zip(true["activations"][side], mean["activations"][side], strict=True)
            if t["longitude"] != m["longitude"]
        }
        assert differ == {"north_node", "south_node"}
    assert mean["node"] == "mean"
    assert mean["design_utc"] == true["design_utc"]


async def test_whitney_houston_has_the_channel_17_62(client: Client, key: str) -> None:
    _s, body = await _post(client, key, "chart", {"subject": WHITNEY})
    design = {a["body"]: a["gate"] for a in body["activations"]["design"]}
    assert (design["north_node"], design["jupiter"]) == (62, 17)
    assert "17-62" in body["channels"]


@pytest.mark.parametrize(("level", "language"), [("summary", "en"), ("full", "th")])
async def test_interpretations_are_astro_calcs_and_charged_as_their_row(
    client: Client, level: str, language: str
) -> None:
    _id, key = await new_account("pro", 100)
    response = await client.post(
        "/api/v3/human-design/chart",
        json={"subject": RA, "interpretations": level, "language": language},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    # The bare chart's 1 credit plus 1 (summary) or 2 (full).
    assert response.headers["X-Credits-Charged"] == str(1 + (1 if level == "summary" else 2))
    body = await response.get_json()
    expected = chart_interpretation(
        human_design_chart(RA_CALC),
        language=language,
        level=level,  # type: ignore[arg-type]
    )
    assert body["interpretations"] == _as_json(expected)
    keys = [item["key"] for item in body["interpretations"]["items"]]
    assert keys[:4] == ["type.manifestor", "strategy.to_inform", "authority.splenic", "profile.5/1"]


async def test_interpretations_need_the_pro_tier(client: Client, key: str) -> None:
    status, body = await _post(client, key, "chart", {"subject": RA, "interpretations": "summary"})
    assert status == 403
    assert body["error"] == "forbidden"


async def test_without_options_the_answer_has_no_interpretations_or_sensitivity(
    client: Client, key: str
) -> None:
    _s, body = await _post(client, key, "chart", {"subject": RA, "interpretations": "none"})
    assert "interpretations" not in body
    assert "sensitivity" not in body


async def test_sensitivity_is_astro_calcs_and_costs_one_more(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/human-design/chart",
        json={"subject": RA, "sensitivity": {"uncertainty_minutes": 30}},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "2"
    body = await response.get_json()
    expected = human_design_sensitivity(RA_CALC, uncertainty_minutes=30)
    assert body["sensitivity"] == _as_json(expected)
    results = {item["result"] for item in body["sensitivity"]["items"]}
    assert {"type", "authority", "profile", "centers.defined", "design.sun.gate"} <= results


@pytest.mark.parametrize("minutes", [0, 720])
async def test_sensitivity_on_its_limits_is_accepted(
    client: Client, key: str, minutes: float
) -> None:
    status, body = await _post(
        client, key, "chart", {"subject": RA, "sensitivity": {"uncertainty_minutes": minutes}}
    )
    assert status == 200
    assert body["sensitivity"]["uncertainty_minutes"] == minutes


@pytest.mark.parametrize("minutes", [-1, 720.5])
async def test_sensitivity_outside_its_limits_names_the_field(
    client: Client, key: str, minutes: float
) -> None:
    status, body = await _post(
        client, key, "chart", {"subject": RA, "sensitivity": {"uncertainty_minutes": minutes}}
    )
    assert status == 400
    assert body["details"][0]["field"] == "sensitivity.uncertainty_minutes"


async def test_interpretations_with_sensitivity_are_the_combined_row(client: Client) -> None:
    _id, key = await new_account("pro", 100)
    response = await client.post(
        "/api/v3/human-design/chart",
        json={"subject": RA, "interpretations": "full", "sensitivity": {}},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "4"  # 1 + 2 (full) + 1 (sensitivity)


async def test_a_stored_profile_stands_for_the_subject(client: Client, key: str) -> None:
    made = await client.post(
        "/api/v3/profiles", json={"name": "Ra", "birth": RA}, headers=key_headers(key)
    )
    assert made.status_code == 201, await made.get_data()
    ref = {"profile_id": (await made.get_json())["profile"]["id"]}
    _s, inline = await _post(client, key, "chart", {"subject": RA})
    response = await client.post(
        "/api/v3/human-design/chart", json={"subject": ref}, headers=key_headers(key)
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    assert await response.get_json() == inline
    _s, pair = await _post(client, key, "composite", {"subject_a": ref, "subject_b": WHITNEY})
    inline.pop("disclaimer")
    assert pair["chart_a"] == inline
    status, body = await _post(
        client, key, "chart", {"subject": {"profile_id": "prof_" + "0" * 24}}
    )
    assert status == 400
    assert body["details"][0]["field"] == "subject.profile_id"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("chart", {"subject": RA}),
        ("composite", {"subject_a": RA, "subject_b": WHITNEY}),
        ("transits", {"subject": RA, "moment": MOMENT}),
    ],
)
@pytest.mark.parametrize("language", ["en", "th"])
async def test_every_answer_carries_the_human_design_disclaimer_in_its_language(
    client: Client, key: str, path: str, body: dict[str, Any], language: str
) -> None:
    _s, answer = await _post(client, key, path, {**body, "language": language})
    note = disclaimer_for("human_design", language)
    assert answer["disclaimer"] == {"code": "human_design", "text": note.text}
    if path == "composite":
        assert "disclaimer" not in answer["chart_a"]


# --- composite, transits ----------------------------------------------------------------------


async def test_composite_is_astro_calcs_and_costs_two(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/human-design/composite",
        json={"subject_a": RA, "subject_b": WHITNEY},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "2"
    expected = composite(human_design_chart(RA_CALC), human_design_chart(WHITNEY_CALC))
    assert await response.get_data() == _answer(expected)
    body = await response.get_json()
    # Every electromagnetic channel is one each of them completes for the other.
    for connection in body["connections"]:
        if connection["kind"] == "electromagnetic":
            assert connection["holder"] is None
            assert connection["gates_a"]
            assert connection["gates_b"]
            assert connection["channel"] in body["electromagnetic"]


async def test_composite_with_the_mean_node(client: Client, key: str) -> None:
    _s, body = await _post(
        client, key, "composite", {"subject_a": RA, "subject_b": WHITNEY, "node": "mean"}
    )
    assert (body["chart_a"]["node"], body["chart_b"]["node"]) == ("mean", "mean")


@pytest.mark.parametrize("which", ["subject_a", "subject_b"])
async def test_composite_names_the_refused_subject(client: Client, key: str, which: str) -> None:
    # New York began daylight saving on 1963-04-28 at 02:00: 02:30 did not happen.
    skipped = {**WHITNEY, "date": "1963-04-28", "time": "02:30"}
    body = {"subject_a": RA, "subject_b": WHITNEY, which: skipped}
    status, answer = await _post(client, key, "composite", body)
    assert status == 400
    assert answer["details"][0]["field"] == f"{which}.time"


async def test_transits_are_astro_calcs_at_the_moment_asked(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/human-design/transits",
        json={"subject": WHITNEY, "moment": MOMENT},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    moment = dt.datetime(2027, 1, 15, 12, tzinfo=dt.UTC)
    assert await response.get_data() == _answer(transits(human_design_chart(WHITNEY_CALC), moment))


async def test_a_naive_transit_moment_is_utc(client: Client, key: str) -> None:
    _s, aware = await _post(client, key, "transits", {"subject": RA, "moment": MOMENT})
    _s, naive = await _post(client, key, "transits", {"subject": RA, "moment": MOMENT[:-1]})
    assert naive == aware


async def test_transits_default_to_now(client: Client, key: str) -> None:
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    _s, body = await _post(client, key, "transits", {"subject": RA})
    after = dt.datetime.now(dt.UTC)
    moment = dt.datetime.fromisoformat(body["moment"])
    assert before <= moment <= after
    assert moment.microsecond == 0
    assert body == msgspec.json.decode(_answer(transits(human_design_chart(RA_CALC), moment)))


# --- the picture ------------------------------------------------------------------------------


async def test_bodygraph_svg_draws_the_charts_centres_and_channels(
    client: Client, key: str
) -> None:
    response = await client.post(
        "/api/v3/human-design/bodygraph", json={"subject": WHITNEY}, headers=key_headers(key)
    )
    assert response.status_code == 200
    assert response.content_type == "image/svg+xml"
    assert response.headers["X-Credits-Charged"] == "2"
    data = await response.get_data()
    assert int(response.headers["Content-Length"]) == len(data)
    root = ET.fromstring(data)  # noqa: S314 (our own output)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("width") == "800"
    chart = human_design_chart(WHITNEY_CALC)
    drawn_centres = {
        g.get("data-center"): g.get("data-defined") == "true"
        for g in root.iter(f"{SVG_NS}g")
        if g.get("class") == "center"
    }
    assert drawn_centres == {c.name: c.defined for c in chart.centers}
    drawn_channels = {
        g.get("data-channel")
        for g in root.iter(f"{SVG_NS}g")
        if g.get("class") == "channel" and g.get("data-defined") == "true"
    }
    assert drawn_channels == set(chart.channels)


async def test_bodygraph_png_in_the_size_asked(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/human-design/bodygraph",
        json={"subject": RA, "format": "png", "size_px": 321, "theme": "dark", "language": "th"},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert response.content_type == "image/png"
    assert response.headers["X-Credits-Charged"] == "2"
    image = Image.open(io.BytesIO(await response.get_data()))
    assert image.size == (321, 321)


# --- limits -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"latitude": 90.001}, "subject.latitude"),
        ({"latitude": -90.001}, "subject.latitude"),
        ({"longitude": 180.001}, "subject.longitude"),
        ({"longitude": -180.001}, "subject.longitude"),
        ({"timezoneOffsetMinutes": 1081}, "subject.timezoneOffsetMinutes"),
        ({"timezoneOffsetMinutes": -1081}, "subject.timezoneOffsetMinutes"),
        ({"time": "24:00"}, "subject.time"),
        ({"time": "7:30"}, "subject.time"),
        ({"date": "0099-12-31"}, "subject.date"),
        ({"date": "3000-01-01"}, "subject.date"),
        ({"date": "1948-02-30"}, "subject.date"),
        ({"timezone": "Mars/Olympus"}, "subject.timezone"),
        ({"timezone": "A" * 65}, "subject.timezone"),
        ({"fold": 2}, "subject.fold"),
    ],
)
async def test_subject_limits_are_field_level_400s(
    client: Client, override: dict[str, Any], field: str
) -> None:
    account_id, key = await new_account("free", 5)
    status, body = await _post(client, key, "chart", {"subject": {**RA, **override}})
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
        {"time": "23:59:59"}, {"time": "00:00"}, {"fold": 1},
        {"date": "0100-01-01", "timezone": None, "timezoneOffsetMinutes": 0},
        {"date": "2999-12-31", "timezone": None, "timezoneOffsetMinutes": 0},
    ],
)  # fmt: skip
async def test_subject_values_on_the_limits_are_accepted(
    client: Client, key: str, override: dict[str, Any]
) -> None:
    status, _body = await _post(client, key, "chart", {"subject": {**RA, **override}})
    assert status == 200


async def test_a_local_time_skipped_by_daylight_saving_names_subject_time(
    client: Client, key: str
) -> None:
    subject = {**WHITNEY, "date": "1963-04-28", "time": "02:30"}
    for path in ("chart", "transits", "bodygraph"):
        status, body = await _post(client, key, path, {"subject": subject})
        assert status == 400, path
        assert body["details"][0]["field"] == "subject.time"


@pytest.mark.parametrize(
    ("path", "extra", "field"),
    [
        ("chart", {"node": "osculating"}, "node"),
        ("chart", {"interpretations": "long"}, "interpretations"),
        ("chart", {"language": "fr"}, "language"),
        ("chart", {"sensitivity": {"uncertainty_minutes": "a lot"}}, "sensitivity"),
        ("composite", {"node": "osculating"}, "node"),
        ("composite", {"language": "de"}, "language"),
        ("transits", {"language": "de"}, "language"),
        ("transits", {"moment": "0099-12-31T23:59:59Z"}, "moment"),
        ("transits", {"moment": "3000-01-01T00:00:00Z"}, "moment"),
        ("transits", {"moment": "tomorrow"}, "moment"),
        ("transits", {"node": "osculating"}, "node"),
        ("bodygraph", {"format": "gif"}, "format"),
        ("bodygraph", {"size_px": 199}, "size_px"),
        ("bodygraph", {"size_px": 2001}, "size_px"),
        ("bodygraph", {"theme": "sepia"}, "theme"),
        ("bodygraph", {"language": "zh"}, "language"),
        ("bodygraph", {"colors": {"primary": "red"}}, "colors.primary"),
        ("bodygraph", {"node": "osculating"}, "node"),
    ],
)
async def test_option_limits(
    client: Client, key: str, path: str, extra: dict[str, Any], field: str
) -> None:
    subjects = {"subject_a": RA, "subject_b": WHITNEY} if path == "composite" else {"subject": RA}
    status, body = await _post(client, key, path, {**subjects, **extra})
    assert status == 400
    assert body["details"][0]["field"].startswith(field)


@pytest.mark.parametrize(
    ("path", "extra"),
    [
        ("transits", {"moment": "0100-01-01T00:00:00Z"}),
        ("transits", {"moment": "2999-12-31T23:59:59Z"}),
        ("bodygraph", {"size_px": 200}),
        ("bodygraph", {"size_px": 2000, "format": "png"}),
        ("bodygraph", {"colors": {"primary": "#AA00ff", "background": "#000000"}}),
    ],
)
async def test_options_on_the_limits_are_accepted(
    client: Client, key: str, path: str, extra: dict[str, Any]
) -> None:
    response = await client.post(
        f"/api/v3/human-design/{path}", json={"subject": RA, **extra}, headers=key_headers(key)
    )
    assert response.status_code == 200, await response.get_data()


@pytest.mark.parametrize("missing", ["subject_a", "subject_b"])
async def test_composite_needs_both_subjects(client: Client, key: str, missing: str) -> None:
    body = {"subject_a": RA, "subject_b": WHITNEY}
    del body[missing]
    status, answer = await _post(client, key, "composite", body)
    assert status == 400
    assert answer["details"][0]["field"] == missing


# --- billing, scope, auth, documentation ------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "params", "charged_as", "credits"),
    [
        ("human_design.chart", {"subject": RA}, "human_design.chart", 1),
        (
            "human_design.chart",
            {"subject": RA, "interpretations": "summary"},
            "human_design.chart.interpretations_summary",
            2,
        ),
        (
            "human_design.chart",
            {"subject": RA, "sensitivity": {"uncertainty_minutes": 60}},
            "human_design.chart.sensitivity",
            2,
        ),
        (
            "human_design.chart",
            {"subject": RA, "interpretations": "full", "sensitivity": {}},
            "human_design.chart.interpretations_full.sensitivity",
            4,
        ),
        ("human_design.composite", {}, "human_design.composite", 2),
        ("human_design.transits", {}, "human_design.transits", 1),
        ("human_design.bodygraph", {}, "human_design.bodygraph", 2),
    ],
)
async def test_estimates_price_every_operation_from_the_table(
    client: Client,
    key: str,
    operation: str,
    params: dict[str, Any],
    charged_as: str,
    credits: int,
) -> None:
    response = await client.post(
        "/api/v3/estimates",
        json={"operation": operation, "params": params},
        headers=key_headers(key),
    )
    answer = await response.get_json()
    assert response.status_code == 200, answer
    assert (answer["operation"], answer["estimated_credits"]) == (charged_as, credits)


async def test_a_key_with_the_human_design_scope_may_call_and_others_may_not(
    client: Client, key: str
) -> None:
    keys = {}
    for scope in ("human_design", "western"):
        response = await client.post(
            "/api/v3/keys",
            json={"name": scope, "environment": "live", "scopes": [scope]},
            headers=key_headers(key),
        )
        assert response.status_code == 201, await response.get_data()
        keys[scope] = (await response.get_json())["secret"]
    status, _body = await _post(client, keys["human_design"], "chart", {"subject": RA})
    assert status == 200
    status, body = await _post(client, keys["western"], "chart", {"subject": RA})
    assert status == 403
    assert "human_design" in body["message"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("chart", {"subject": RA}),
        ("composite", {"subject_a": RA, "subject_b": WHITNEY}),
        ("transits", {"subject": RA}),
        ("bodygraph", {"subject": RA}),
    ],
)
async def test_missing_key_is_401(client: Client, path: str, body: dict[str, Any]) -> None:
    response = await client.post(f"/api/v3/human-design/{path}", json=body)
    assert response.status_code == 401
    assert (await response.get_json())["error"] == "unauthorized"


async def test_too_few_credits_is_402(client: Client) -> None:
    _id, poor = await new_account("free", 1)
    status, body = await _post(client, poor, "composite", {"subject_a": RA, "subject_b": WHITNEY})
    assert status == 402
    assert body["error"] == "payment_required"


async def test_every_route_is_documented_under_the_human_design_tag(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    assert "Human Design" in {group["name"] for group in doc["tags"]}
    routes = {
        "/api/v3/human-design/chart": "humanDesignChart",
        "/api/v3/human-design/composite": "humanDesignComposite",
        "/api/v3/human-design/transits": "humanDesignTransits",
        "/api/v3/human-design/bodygraph": "humanDesignBodygraph",
    }
    for path, op_id in routes.items():
        op = doc["paths"][path]["post"]
        assert op["tags"] == ["Human Design"]
        assert op["operationId"] == op_id
        assert {"200", "400", "401", "402"} <= set(op["responses"])
    chart = doc["paths"]["/api/v3/human-design/chart"]["post"]["responses"]["200"]
    schema = chart["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    properties = schema["properties"]
    assert {"type", "authority", "profile", "design_utc", "interpretations", "sensitivity"} <= set(
        properties
    )
    picture = doc["paths"]["/api/v3/human-design/bodygraph"]["post"]["responses"]["200"]
    assert set(picture["content"]) == {"image/svg+xml", "image/png"}
