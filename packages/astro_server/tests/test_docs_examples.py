"""The OpenAPI document teaches (issue 32): a getting-started text, a description on every tag
group in the spec's order, an example on every request body and every JSON response, realistic
"Try it out" defaults, a billing note on every billed operation (price and tier from the price
table); every request example runs against the app and its answer fits the response schema, as
does every stored response example; and the document changes only by additions."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _docs_examples_support import NEEDS_OUTSIDE_STATE, operations, run_examples
from _platform_support import running_app, settings_for
from quart import Quart

from astro_server import app as app_module
from astro_server.app import TAG_GROUPS
from astro_server.platform import docs_examples, runtime
from astro_server.platform.billing.pricing import OPERATIONS
from astro_server.platform.delivery import ssrf
from astro_server.platform.docs_examples import BANGKOK, DELHI, LONDON, REQUEST_EXAMPLES

#: Success answers the in-process run cannot reach, so they carry no stored example: a visual
#: reading needs a photo uploaded to its grant's signed URL and validated; canceling needs a job
#: still queued (the in-process broker runs it at once); retrying needs a delivery that failed.
WITHOUT_STORED_ANSWER = [
    "post /api/v3/jobs/{job_id}/cancel 200",
    "post /api/v3/visual-readings 202",
    "post /api/v3/visual-readings/uploads/{upload_id}/complete 200",
    "delete /api/v3/visual-readings/{reading_id} 200",
    "get /api/v3/visual-readings/{reading_id} 200",
    "post /api/v3/webhook-endpoints/{id}/deliveries/{delivery_id}/retry 202",
    "post /v1/developer/webhook-endpoints/{id}/deliveries/{delivery_id}/retry 202",
    "post /v1/horoscope-feed-subscriptions/{id}/deliveries/{delivery_id}/retry 202",
    "post /v1/visual-readings 202",
    "post /v1/visual-readings/uploads/{upload_id}/complete 200",
    "delete /v1/visual-readings/{reading_id} 200",
    "get /v1/visual-readings/{reading_id} 200",
]


@pytest.fixture
async def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Quart]:
    async def loopback_resolver(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]  # the examples' hooks.example.com, never looked up nor reached

    monkeypatch.setattr(ssrf, "system_resolver", loopback_resolver)
    settings = settings_for(
        f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path, allow_loopback_destinations=True
    )
    async with running_app(settings) as application:
        runtime.install(application.extensions["astro"])  # this app's platform
        yield application


async def document_of(app: Quart) -> dict[str, Any]:
    response = await app.test_client().get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = await response.get_json()
    return document


def all_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(p, m, o) for p, item in document["paths"].items() for m, o in item.items()]


def validate(document: dict[str, Any], schema: dict[str, Any], value: Any, where: str) -> None:
    root = {**schema, "components": document["components"]}
    errors = list(jsonschema.Draft202012Validator(root).iter_errors(value))
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].absolute_path)}"


async def test_info_and_tags_teach(app: Quart) -> None:
    document = await document_of(app)
    description = document["info"]["description"]
    for topic in ("## Getting started", "test key", "## Errors", "Idempotency-Key", "## Jobs",
                  "## Webhooks", "## Rate limits", "ASTRO_LOCAL_WEBHOOKS=1"):  # fmt: skip
        assert topic in description, topic
    assert [t["name"] for t in document["tags"]] == [t["name"] for t in TAG_GROUPS]
    assert all(t.get("description") for t in document["tags"])
    used = {tag for _p, _m, op in all_operations(document) for tag in op.get("tags", ())}
    assert used <= {t["name"] for t in TAG_GROUPS}
    assert all(op.get("tags") for _p, _m, op in all_operations(document))  # grouped by tag


async def test_every_body_and_response_has_an_example(app: Quart) -> None:
    document = await document_of(app)
    missing = []
    for path, method, operation in all_operations(document):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None and "example" not in body:
            missing.append(f"{method} {path} request")
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json")
            if content is not None and "example" not in content:
                missing.append(f"{method} {path} {status}")
    assert sorted(missing) == sorted(WITHOUT_STORED_ANSWER), missing
    assert set(REQUEST_EXAMPLES) == {op["operationId"] for _p, _m, op in operations(document)}, (
        "an example for an operation that has no body, or the other way round"
    )


def test_examples_are_the_three_births() -> None:
    """Try it out starts from a real place and day, not latitude -90 and today's date."""
    subjects = [e.get("subject") for e in REQUEST_EXAMPLES.values() if "subject" in e]
    assert subjects
    assert all(s in (BANGKOK, LONDON, DELHI) for s in subjects)
    for birth in (BANGKOK, LONDON, DELHI):
        assert re.fullmatch(r"\d\d:\d\d", birth["time"])  # whole minutes, no seconds
        assert abs(birth["latitude"]) < 60


async def test_every_request_example_runs_and_fits_its_response_schema(app: Quart) -> None:
    document = await document_of(app)
    answers = await run_examples(app, document)
    assert len(answers) == len(REQUEST_EXAMPLES)
    for answer in answers:
        where = f"{answer.method.upper()} {answer.path} ({answer.operation_id})"
        responses = document["paths"][answer.path][answer.method]["responses"]
        expected = NEEDS_OUTSIDE_STATE.get(answer.operation_id)
        if expected is not None:
            assert answer.status == expected, (where, answer.body)
        else:
            assert 200 <= answer.status < 300, (where, answer.status, answer.body)
        documented = responses.get(str(answer.status))
        assert documented is not None, f"{where}: {answer.status} is not documented"
        content = documented.get("content", {})
        if answer.content_type == "application/json":
            validate(document, content["application/json"]["schema"], answer.body, where)
        elif answer.status != 204:
            assert answer.content_type in content or "*/*" in content, (where, content)


async def test_stored_response_examples_fit_their_schemas(app: Quart) -> None:
    document = await document_of(app)
    for path, method, operation in all_operations(document):
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json")
            if content is not None and "example" in content:
                where = f"{method.upper()} {path} {status}"
                validate(document, content["schema"], content["example"], where)


async def test_billed_operations_say_price_tier_and_test_key(app: Quart) -> None:
    document = await document_of(app)
    billed = [op for _p, _m, op in all_operations(document) if "x-astro-billing" in op]
    assert len(billed) >= 40
    for operation in billed:
        name = operation["x-astro-billing"]["operation"]
        row = OPERATIONS[name]
        assert operation["x-astro-billing"]["credits"] == row.credits
        assert operation["description"].startswith(f"**Billed:** {row.credits} credit")
        assert f"tier {row.tier} or above" in operation["description"]
        assert "test key" in operation["description"]
    names = {op["x-astro-billing"]["operation"] for op in billed}
    # Every priced operation of the table is on some route (free ones need no note), its
    # interpretation and sensitivity variants in the notes of their base operation.
    priced = {
        n
        for n, row in OPERATIONS.items()
        if row.credits and ".interpretations_" not in n and not n.endswith(".sensitivity")
    }
    assert priced <= names, priced - names


def _is_addition(before: Any, after: Any, where: str = "") -> None:
    if isinstance(before, dict):
        assert isinstance(after, dict), where
        for key, value in before.items():
            assert key in after, f"{where}/{key} removed"
            _is_addition(value, after[key], f"{where}/{key}")
    elif isinstance(before, list):
        assert isinstance(after, list), where
        assert len(before) == len(after), f"{where} changed length"
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            _is_addition(old, new, f"{where}[{index}]")
    elif isinstance(before, str) and where.endswith("/description"):
        assert before in after, f"{where} changed"
    else:
        assert before == after, f"{where} changed"


async def test_the_document_changes_only_by_additions(
    app: Quart, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_examples = await document_of(app)
    monkeypatch.setattr(app_module, "document_examples", lambda document: None)
    monkeypatch.setattr(app_module, "billable_operation", lambda view: None)
    monkeypatch.setattr(docs_examples, "response_examples", dict)
    app.extensions["QUART_SCHEMA"].openapi_provider.forget()
    before = await document_of(app)
    assert "description" not in before["info"]
    _is_addition(before, with_examples)


async def test_the_pages_and_their_files_come_from_this_server(app: Quart) -> None:
    client = app.test_client()
    for path, script in (
        ("/docs", "/docs/assets/swagger-ui-bundle.js"),
        ("/docs/reference", "/docs/assets/redoc.standalone.js"),
    ):
        response = await client.get(path)
        page = (await response.get_data()).decode()
        assert response.status_code == 200
        assert "http://" not in page
        assert "https://" not in page
        policy = response.headers["Content-Security-Policy"]
        # Nothing from another host: everything from this server, inline scripts by hash only.
        assert "default-src 'none'" in policy
        assert "script-src 'self' 'sha256-" in policy
        assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";", 1)[0]
        assert script in page
        asset = await client.get(script)
        assert asset.status_code == 200
        assert len(await asset.get_data()) > 1_000_000
    page = (await (await client.get("/docs")).get_data()).decode()
    assert '"filter": true' in page
    assert '"validatorUrl": null' in page
    index = await (await client.get("/")).get_json()
    assert index["reference_url"] == "/docs/reference"
