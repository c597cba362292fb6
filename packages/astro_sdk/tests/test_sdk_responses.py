"""Lenient parsing of successes, the headers exposed on results, and error bodies on exceptions."""

from __future__ import annotations

import httpx
import pytest
from sdk_testkit import Script, error, job_body, reply, sync_client

import astro_sdk
from astro_sdk.models import Job

JOB_ID = "job_" + "a" * 24


def test_unknown_response_fields_are_kept_aside_and_break_nothing() -> None:
    body = job_body("succeeded", shard="eu-1", result={"pairs": 2})
    job = sync_client(Script(reply(200, body))).jobs.get(JOB_ID)
    assert job.status == "succeeded"
    assert job.model_extra == {"shard": "eu-1"}
    assert job.result == {"pairs": 2}


def test_a_status_value_added_later_still_parses() -> None:
    job = sync_client(Script(reply(200, job_body("paused")))).jobs.get(JOB_ID)
    assert job.status == "paused"
    assert job.is_finished is False


def test_nested_models_are_lenient_too() -> None:
    body = {
        "token": "service_sess_x",
        "expires_at": "2025-01-02T00:00:00Z",
        "customer": {"id": "cus_1", "email": "a@b.c", "account_id": "acc_1", "locale": "th"},
    }
    session = sync_client(Script(reply(200, body))).auth.create_session(email="a@b.c", password="p")
    assert session.customer.account_id == "acc_1"
    assert session.customer.model_extra == {"locale": "th"}


def test_a_success_missing_a_required_field_is_a_response_validation_error() -> None:
    body = job_body("queued")
    del body["kind"]
    with pytest.raises(astro_sdk.APIResponseValidationError, match="kind") as caught:
        sync_client(Script(reply(200, body))).jobs.get(JOB_ID)
    assert caught.value.status_code == 200


def test_credit_rate_limit_and_request_id_headers_are_exposed() -> None:
    headers = {
        "X-Credits-Charged": "4",
        "X-Credits-Remaining": "96",
        "RateLimit-Limit": "60",
        "RateLimit-Remaining": "59",
        "RateLimit-Reset": "42",
        "X-Request-Id": "req_abc",
    }
    job = sync_client(Script(reply(200, job_body("queued"), headers))).jobs.get(JOB_ID)
    meta = job.api_response
    assert meta.credits_charged == 4
    assert meta.credits_remaining == 96
    assert meta.rate_limit == astro_sdk.RateLimit(limit=60, remaining=59, reset_s=42)
    assert (meta.rate_limit_limit, meta.rate_limit_remaining, meta.rate_limit_reset_s) == (
        60,
        59,
        42,
    )
    assert meta.request_id == "req_abc"
    assert meta.status_code == 200
    assert isinstance(meta.http_response, httpx.Response)
    assert meta.http_response.json()["job_id"] == JOB_ID


def test_absent_or_garbled_numeric_headers_read_as_none() -> None:
    headers = {"X-Credits-Charged": "four"}
    job = sync_client(Script(reply(200, job_body("queued"), headers))).jobs.get(JOB_ID)
    assert job.api_response.credits_charged is None
    assert job.api_response.credits_remaining is None
    assert job.api_response.rate_limit.limit is None


def test_nested_objects_have_no_response_of_their_own() -> None:
    body = {"jobs": [job_body("queued")], "next_cursor": None}
    page = sync_client(Script(reply(200, body))).jobs.list()
    assert page.api_response is not None
    with pytest.raises(AttributeError):
        _ = page.data[0].api_response


def test_error_body_fields_are_on_the_exception() -> None:
    body = {
        "error": "validation_error",
        "message": "Invalid request: records[0].boy.date",
        "request_id": "req_1",
        "details": [{"field": "records[0].boy.date", "message": "invalid date"}],
    }
    response = reply(400, body, {"X-Request-Id": "req_1"})
    with pytest.raises(astro_sdk.BadRequestError) as caught:
        sync_client(Script(response)).jobs.get(JOB_ID)
    exc = caught.value
    assert exc.status_code == 400
    assert exc.error == "validation_error"
    assert exc.message == "Invalid request: records[0].boy.date: invalid date"
    assert exc.code == "400"
    assert exc.request_id == "req_1"
    assert exc.details == [{"field": "records[0].boy.date", "message": "invalid date"}]
    assert exc.response.status_code == 400
    assert exc.body == body
    assert str(exc) == (
        "400 validation_error: Invalid request: records[0].boy.date: invalid date "
        "(request_id req_1)"
    )


def test_request_id_falls_back_to_the_header() -> None:
    body = {"error": "not_found", "message": "Job not found."}
    response = reply(404, body, {"X-Request-Id": "r9"})
    with pytest.raises(astro_sdk.NotFoundError) as caught:
        sync_client(Script(response)).jobs.get(JOB_ID)
    assert caught.value.request_id == "r9"


def test_a_non_json_error_body_still_gives_the_status_class() -> None:
    html = httpx.Response(502, content=b"<html>Bad Gateway</html>")
    script = Script(html, html, html)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("astro_sdk._client._sleep", lambda s: None)
        with pytest.raises(astro_sdk.InternalServerError) as caught:
            sync_client(script).jobs.get(JOB_ID)
    assert caught.value.error == "http_502"
    assert caught.value.message == "HTTP 502"
    assert caught.value.body == "<html>Bad Gateway</html>"


def test_401_code_and_message_reach_the_caller() -> None:
    response = error(401, "unauthorized", "Invalid API key.", code="401")
    with pytest.raises(astro_sdk.AuthenticationError) as caught:
        sync_client(Script(response)).jobs.get(JOB_ID)
    assert (caught.value.code, caught.value.message) == ("401", "Invalid API key.")


def test_parsed_result_is_the_declared_model() -> None:
    job = sync_client(Script(reply(200, job_body("queued")))).jobs.get(JOB_ID)
    assert type(job) is Job
    assert job.created_at.isoformat() == "2025-01-01T00:00:00+00:00"


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (400, {"error": "validation_error", "message": "Invalid request: x"}, "400"),
        (401, {"error": "unauthorized", "message": "bad key", "code": "401"}, "401"),
        (402, {"error": "payment_required", "message": "short", "code": "402"}, "402"),
        (404, {"error": "not_found", "message": "Job not found."}, "404"),
        (
            409,
            {"error": "conflict", "message": "full", "code": "subscription_limit"},
            "subscription_limit",
        ),
        (500, {"error": "internal_server_error", "message": "x", "code": "internal"}, "internal"),
        (502, "<html>bad gateway</html>", "502"),
    ],
)
def test_code_is_the_servers_code_else_the_status_as_a_string(
    status: int, body: object, code: str
) -> None:
    client = sync_client(Script(reply(status, body)), max_retries=0)
    with pytest.raises(astro_sdk.APIStatusError) as caught:
        client.jobs.get(JOB_ID)
    assert caught.value.code == code


def test_a_400_message_names_the_first_failing_field_and_counts_the_others() -> None:
    body = {
        "error": "validation_error",
        "message": "Invalid request: year, month",
        "details": [
            {"field": "year", "message": "must be between 1900 and 2100"},
            {"field": "month", "message": "must be between 1 and 12"},
        ],
    }
    with pytest.raises(astro_sdk.BadRequestError) as caught:
        sync_client(Script(reply(400, body))).jobs.get(JOB_ID)
    assert caught.value.message == (
        "Invalid request: year: must be between 1900 and 2100 (and 1 more)"
    )
