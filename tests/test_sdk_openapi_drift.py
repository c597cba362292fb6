"""The SDK and the server's ``/openapi.json`` agree on every operation, field, type and flag.

When this fails, each line of the message names an operation and what to change: add the SDK
side of a new endpoint (see the SDK README, "Adding an endpoint") or fix the side that is wrong.
The document is read in-process (``create_app`` + Quart's test client on a migrated SQLite).
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
from sdk_drift import drift, server_operations

from astro_sdk import Credential
from astro_sdk._client import registered_operations
from astro_server.app import create_app
from astro_server.platform.db import migrate_db
from astro_server.settings import Settings


async def _fetch_openapi(data_dir: Path) -> dict[str, Any]:
    settings = Settings(data_dir=data_dir, secret_key="k" * 32)
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    async with app.test_app():
        response = await app.test_client().get("/openapi.json")
        assert response.status_code == 200
        document: dict[str, Any] = await response.get_json()
    return document


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return asyncio.run(_fetch_openapi(tmp_path_factory.mktemp("openapi")))


def test_sdk_and_server_openapi_agree(openapi: dict[str, Any]) -> None:
    problems = drift(openapi, registered_operations())
    assert not problems, "SDK and server disagree:\n  " + "\n  ".join(problems)


def test_hidden_probes_are_not_operations(openapi: dict[str, Any]) -> None:
    paths = {op.path for op in server_operations(openapi).values()}
    assert not paths & {"/healthz", "/readyz", "/metrics", "/openapi.json"}


def test_every_registered_operation_is_reachable_from_a_client_resource() -> None:
    registry = registered_operations()
    assert {"login", "logout", "getJob", "listJobs", "cancelJob", "createEstimate"} <= set(registry)
    assert registry["getJob"].credential is Credential.API_KEY
    assert registry["logout"].credential is Credential.SESSION
    assert registry["login"].credential is Credential.NONE


# The comparator itself must catch each kind of drift; these mutate a copy of the real document
# and look only at the problems the mutation added (others may be mid-way through an endpoint).


def new_problems(original: dict[str, Any], mutated: dict[str, Any]) -> list[str]:
    registry = registered_operations()
    before = set(drift(original, registry))
    return [p for p in drift(mutated, registry) if p not in before]


def _job_schema(document: dict[str, Any]) -> dict[str, Any]:
    ref = document["paths"]["/api/v3/jobs/{job_id}"]["get"]["responses"]["200"]["content"][
        "application/json"
    ]["schema"]
    if "$ref" in ref:
        name = ref["$ref"].rsplit("/", 1)[1]
        schema: dict[str, Any] = document["components"]["schemas"][name]
        return schema
    return ref


def _estimate_request(document: dict[str, Any]) -> dict[str, Any]:
    schema = document["paths"]["/api/v3/estimates"]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]
    if "$ref" in schema:
        found: dict[str, Any] = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        return found
    return schema


def test_a_new_server_operation_is_reported_with_where_to_add_it(
    openapi: dict[str, Any],
) -> None:
    doc = copy.deepcopy(openapi)
    doc["paths"]["/api/v3/western/harmonics"] = {
        "post": {"operationId": "westernHarmonicsExample", "tags": ["Western"], "responses": {}}
    }
    problems = new_problems(openapi, doc)
    assert len(problems) == 1
    assert problems[0].startswith(
        "westernHarmonicsExample (POST /api/v3/western/harmonics, tag Western) has no SDK "
        "operation: add Operation(operation_id='westernHarmonicsExample'"
    )
    assert "astro_sdk/resources/western.py" in problems[0]


def test_an_operation_gone_from_the_server_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    del doc["paths"]["/api/v3/jobs/{job_id}/cancel"]
    assert new_problems(openapi, doc) == [
        "cancelJob (POST /api/v3/jobs/{job_id}/cancel) is in the SDK registry but not in the "
        "server's OpenAPI document (renamed, removed, or missing its operation_id on the server)"
    ]


def test_a_field_missing_from_the_sdk_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    _job_schema(doc)["properties"]["queue_position"] = {"type": "integer"}
    problems = new_problems(openapi, doc)
    assert any(
        p.endswith("response Job.queue_position: on the server, missing from the SDK model")
        for p in problems
    ), problems


def test_a_changed_type_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    _job_schema(doc)["properties"]["credits_charged"] = {"type": "string"}
    problems = new_problems(openapi, doc)
    assert any(
        "Job.credits_charged: the server's type is string, the SDK's is integer" in p
        for p in problems
    ), problems


def test_a_changed_required_flag_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    _estimate_request(doc)["required"].append("params")
    problems = new_problems(openapi, doc)
    assert any(
        "EstimateRequest.params: the server says required, the SDK says optional" in p
        for p in problems
    ), problems


def test_a_changed_request_bound_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    _estimate_request(doc)["properties"]["operation"]["maxLength"] = 50
    problems = new_problems(openapi, doc)
    assert any("operation: the server's maxLength is 50, the SDK's is 100" in p for p in problems)


def test_a_changed_credential_kind_is_reported(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    doc["paths"]["/api/v3/jobs"]["get"]["security"] = [{"SessionBearer": []}]
    problems = new_problems(openapi, doc)
    assert any(
        "listJobs" in p and "takes credential session, the SDK sends api_key" in p for p in problems
    )


def test_a_newly_billable_operation_must_be_marked_billable(openapi: dict[str, Any]) -> None:
    doc = copy.deepcopy(openapi)
    doc["paths"]["/api/v3/estimates"]["post"]["responses"]["402"] = {"description": "x"}
    problems = new_problems(openapi, doc)
    assert any("createEstimate" in p and "Operation.billable must be True" in p for p in problems)


def test_a_response_enum_may_be_read_as_a_string_but_a_request_enum_must_match(
    openapi: dict[str, Any],
) -> None:
    doc = copy.deepcopy(openapi)
    params = doc["paths"]["/api/v3/jobs"]["get"]["parameters"]
    status = next(p for p in params if p["name"] == "status")
    narrowed = {"enum": ["queued", "running"], "type": "string"}
    status["schema"] = {"anyOf": [narrowed, {"type": "null"}]}
    problems = new_problems(openapi, doc)
    assert any("listJobs" in p and "query status: the server allows" in p for p in problems)
    # Job.status is an enum on the server and a plain string in the SDK: not a problem.
    assert not any("Job.status" in p for p in drift(openapi, registered_operations()))


def test_a_self_referencing_schema_is_compared_once_and_its_drift_reported(
    openapi: dict[str, Any],
) -> None:
    # A dasha period holds its sub-periods: the comparison must end, and still see a new field.
    doc = copy.deepcopy(openapi)
    period = doc["components"]["schemas"]["VedicDashaPeriod"]
    assert period["properties"]["sub_periods"]["items"] == {
        "$ref": "#/components/schemas/VedicDashaPeriod"
    }
    period["properties"]["lord_th"] = {"type": "string"}
    problems = new_problems(openapi, doc)
    assert any(
        "vedicDasha" in p
        and p.endswith("mahadashas[].lord_th: on the server, missing from the SDK model")
        for p in problems
    ), problems
