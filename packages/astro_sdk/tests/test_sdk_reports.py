"""``client.reports`` and ``client.customer_reports``: request bodies, the sync answer, the job
handle of ``run_async=True`` and its ``wait()``, local refusals, the async client."""

from __future__ import annotations

import json

import pytest
from sdk_testkit import FakeClock, Script, async_client, job_body, reply, sync_client

import astro_sdk
from astro_sdk.models.reports import CustomerReportHandle, ReportResult

SUBJECT = {"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5}
REPORT_ID = "rep_" + "b" * 24
JOB_ID = "job_" + "a" * 24
RESULT = {
    "report_id": REPORT_ID,
    "format": "pdf",
    "pdf_url": "http://astro.test/files/file_x?expires=1&signature=s",
    "html_url": None,
    "expires_at": "2026-11-25T09:30:00Z",
}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr("astro_sdk._client._sleep", fake.sleep)
    monkeypatch.setattr("astro_sdk._client._monotonic", fake.monotonic)
    return fake


def test_sync_natal_pdf_sends_the_fields_given_and_returns_the_result() -> None:
    script = Script(reply(200, RESULT, {"X-Credits-Charged": "10"}))
    with sync_client(script) as client:
        result = client.reports.natal_pdf(
            birth_subject=SUBJECT, name="Ann", locale="th", branding={"brand_name": "Lotus"}
        )
    sent = script.requests[0]
    assert (sent.method, sent.url.path) == ("POST", "/api/v3/reports/natal/pdf")
    assert json.loads(sent.content) == {
        "birth_subject": SUBJECT,
        "name": "Ann",
        "locale": "th",
        "branding": {"brand_name": "Lotus"},
    }
    assert sent.headers["Idempotency-Key"]
    assert isinstance(result, ReportResult)
    assert result.url == RESULT["pdf_url"]
    assert result.api_response.credits_charged == 10


def test_run_async_sends_async_true_and_the_handle_waits_for_the_result(
    clock: FakeClock,
) -> None:
    handle_body = {
        "job_id": JOB_ID,
        "status": "queued",
        "poll": f"/api/v3/jobs/{JOB_ID}",
        "report_id": REPORT_ID,
    }
    done = job_body("succeeded", kind="reports.natal", result=RESULT)
    script = Script(reply(202, handle_body), reply(200, job_body("running")), reply(200, done))
    with sync_client(script) as client:
        handle = client.reports.natal_pdf(birth_subject=SUBJECT, name="Ann", run_async=True)
        job = handle.wait(poll_interval_s=0.5)
    assert json.loads(script.requests[0].content)["async"] is True
    assert handle.model_extra is not None
    assert handle.model_extra["report_id"] == REPORT_ID
    assert ReportResult.model_validate(job.result).report_id == REPORT_ID
    assert [r.url.path for r in script.requests[1:]] == [f"/api/v3/jobs/{JOB_ID}"] * 2


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "x" * 121}, "name"),
        ({"name": ""}, "name"),
        ({"house_system": "X"}, "house_system"),
        ({"branding": {"brand_name": "L", "primary_color": "red"}}, "branding.primary_color"),
        ({"brand_profile_id": "brand_1"}, "brand_profile_id"),
    ],
)
def test_bad_fields_are_refused_before_sending(fields: dict[str, object], field: str) -> None:
    script = Script()
    with sync_client(script) as client, pytest.raises(astro_sdk.RequestValidationError) as caught:
        client.reports.natal_pdf(birth_subject=SUBJECT, **{"name": "Ann", **fields})  # type: ignore[arg-type]
    assert field in [d["field"] for d in caught.value.details]
    assert script.requests == []


def test_branding_and_a_brand_profile_together_are_refused() -> None:
    with sync_client(Script()) as client, pytest.raises(astro_sdk.RequestValidationError):
        client.reports.natal_pdf(
            birth_subject=SUBJECT,
            name="Ann",
            branding={"brand_name": "Lotus"},
            brand_profile_id="brand_" + "c" * 24,
        )


def test_get_reads_a_report_with_its_fresh_url() -> None:
    record = {
        **RESULT,
        "kind": "natal",
        "locale": "en",
        "status": "succeeded",
        "job_id": JOB_ID,
        "created_at": "2026-11-24T09:30:00Z",
        "finished_at": "2026-11-24T09:30:02Z",
        "error": None,
    }
    script = Script(reply(200, record))
    with sync_client(script) as client:
        report = client.reports.get(REPORT_ID)
    assert script.requests[0].url.path == f"/api/v3/reports/{REPORT_ID}"
    assert report.status == "succeeded"
    assert report.pdf_url == RESULT["pdf_url"]


def test_customer_reports_use_the_session_and_return_a_report_handle() -> None:
    handle_body = {
        "job_id": JOB_ID,
        "status": "queued",
        "poll": f"/v1/reports/{REPORT_ID}",
        "report_id": REPORT_ID,
    }
    script = Script(reply(202, handle_body))
    with sync_client(script, api_key=None, session_token="service_sess_abc") as client:
        handle = client.customer_reports.create_natal(
            birth_subject=SUBJECT, name="Ann", format="html", run_async=True
        )
    sent = script.requests[0]
    assert sent.url.path == "/v1/reports/natal"
    assert sent.headers["Authorization"] == "Bearer service_sess_abc"
    assert isinstance(handle, CustomerReportHandle)
    assert handle.poll == f"/v1/reports/{REPORT_ID}"


async def test_the_async_client_returns_the_same_result() -> None:
    script = Script(reply(200, RESULT))
    async with async_client(script) as client:
        result = await client.reports.natal_pdf(birth_subject=SUBJECT, name="Ann")
    assert isinstance(result, ReportResult)
    assert result.report_id == REPORT_ID
