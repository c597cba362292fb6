"""Natal reports end to end through the SDK: hypercorn API, worker processes, PostgreSQL, Redis
and the S3 server; webhooks to a local HTTPS receiver verified with ``astro_sdk.webhooks``.

* async: queued -> succeeded, charged once, ``report.succeeded`` delivered and verified, the
  PDF fetched from its signed URL, a fresh URL from ``reports.get``;
* a real render failure (the worker's Chromium is ``/bin/false``): refunded once,
  ``report.failed`` delivered;
* sync (held connection), the HTML format, the customer routes, paging;
* 400/401/402/403/404 at their edges, and 503 when the server has no Chromium.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient
from astro_sdk.models.reports import ReportResult
from astro_sdk.webhooks import verify
from tests._support.accounts import create_account, create_customer
from tests._support.receiver import Inbox, receive
from tests._support.stack import ServerProcess, Stack, s3_env

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

SUBJECT = {"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5}
BRANDING = {
    "brand_name": "Lotus Star Readings",
    "primary_color": "#0E6E5C",
    "contact_email": "hello@lotus.example",
    "contact_phone": "+6621234567",
    "contact_url": "https://lotus.example",
}
PASSWORD = "correct horse battery staple"


def logo_png() -> bytes:
    """A 64 x 64 logo: a magenta square no report colour uses, to find it in the pixels."""
    image = Image.new("RGB", (64, 64), (230, 20, 200))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def receiver(https_server: HTTPServer) -> tuple[HTTPServer, Inbox]:
    inbox = receive(https_server, "/hooks", "ok")
    https_server.expect_request("/logo.png", method="GET").respond_with_data(
        logo_png(), content_type="image/png"
    )
    return https_server, inbox


def webhook_endpoint(base_url: str, api_key: str, url: str) -> str:
    """Register an account webhook endpoint for the report events; its signing secret."""
    created = httpx.post(
        f"{base_url}/api/v3/webhook-endpoints",
        headers={"X-API-Key": api_key},
        json={"url": url, "event_types": ["report.succeeded", "report.failed"]},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    secret: str = created.json()["signing_secret"]
    return secret


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "fetched.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def has_logo(data: bytes, tmp_path: Path) -> bool:
    """The cover (page 1) holds an image with the logo's magenta."""
    path = tmp_path / "cover.pdf"
    path.write_bytes(data)
    prefix = tmp_path / "cover"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path), str(prefix)], check=True
    )
    image = Image.open(next(tmp_path.glob("cover*.png"))).convert("RGB")
    raw = image.tobytes()
    magenta = sum(
        1
        for i in range(0, len(raw), 3)
        if abs(raw[i] - 230) < 20 and raw[i + 1] < 60 and abs(raw[i + 2] - 200) < 20
    )
    for leftover in tmp_path.glob("cover*.png"):
        leftover.unlink()
    return magenta > 200


@pytest.fixture
def hooks_stack(
    production_stack: Stack,
    s3_bucket_url: tuple[str, str],
    ca_file: Path,
    tmp_path: Path,
) -> tuple[Stack, ServerProcess, dict[str, str]]:
    """API (loopback destinations allowed for the receiver) on the S3 server; the worker and
    scheduler environment (trusting the receiver's CA) is returned for the test to start."""
    env = {
        "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
        "SSL_CERT_FILE": str(ca_file),  # the logo is fetched from the local receiver
        **s3_env(s3_bucket_url),
    }
    api = production_stack.server(env)
    return production_stack, api, env


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_async_report_is_queued_rendered_charged_once_and_announced(
    hooks_stack: tuple[Stack, ServerProcess, dict[str, str]],
    receiver: tuple[HTTPServer, Inbox],
    tmp_path: Path,
) -> None:
    stack, api, worker_env = hooks_stack
    server, inbox = receiver
    stack.worker(worker_env)
    stack.scheduler(worker_env)
    account = create_account(stack, tier="pro", credits=100, name="reports")
    other = create_account(stack, tier="pro", credits=100, name="reports")
    secret = webhook_endpoint(
        api.base_url, account["api_key"], f"https://localhost:{server.port}/hooks"
    )
    logo_url = f"https://localhost:{server.port}/logo.png"
    with AstroClient(api_key=account["api_key"], base_url=api.base_url) as client:
        handle = client.reports.natal_pdf(
            birth_subject=SUBJECT,
            name="Somchai Jaidee",
            branding={**BRANDING, "logo_url": logo_url},
            run_async=True,
        )
        assert handle.status == "queued"
        assert handle.poll == f"/api/v3/jobs/{handle.job_id}"
        assert handle.api_response.status_code == 202
        assert handle.api_response.credits_charged == 10
        job = handle.wait(timeout_s=120, poll_interval_s=0.2)
        assert job.status == "succeeded"
        assert (job.kind, job.credits_charged, job.credits_refunded) == ("reports.natal", 10, 0)
        result = ReportResult.model_validate(job.result)
        assert result.report_id == handle.model_extra["report_id"]
        assert result.format == "pdf"
        assert result.html_url is None
        fetched = httpx.get(result.url, timeout=30)
        assert fetched.status_code == 200
        assert fetched.headers["content-type"] == "application/pdf"
        text = pdf_text(fetched.content, tmp_path)
        assert "Somchai Jaidee" in text
        assert "Lotus Star Readings" in text
        assert has_logo(fetched.content, tmp_path)
        report = client.reports.get(result.report_id)
        assert report.status == "succeeded"
        assert report.pdf_url is not None
        assert httpx.get(report.pdf_url, timeout=30).content == fetched.content
        assert client.estimates.create(operation="western.natal").balance == 90  # charged once
        with pytest.raises(astro_sdk.NotFoundError):
            client.with_options(api_key=other["api_key"]).reports.get(result.report_id)
        with pytest.raises(astro_sdk.NotFoundError):
            client.with_options(api_key=other["api_key"]).jobs.get(handle.job_id)
    items = inbox.wait_for(1, timeout_s=60)
    assert items, "no report.succeeded delivery"
    body, headers = items[0]
    event = verify(body, headers, secret)
    assert event["type"] == "report.succeeded"
    assert event["livemode"] is True
    assert event["data"]["report_id"] == result.report_id
    assert event["data"]["status"] == "succeeded"
    assert event["data"]["pdf_url"].split("?")[0] == result.url.split("?")[0]

    # A brand profile (saved by a customer of the account, its logo fetched once) brands a
    # report of the API key; another account cannot use it.
    email = f"brand-{account['account_id']}@example.com"
    create_customer(stack, account["account_id"], email)
    with AstroClient(base_url=api.base_url) as anonymous:
        customer = anonymous.auth.login(email, PASSWORD)
        profile = customer.brand_profiles.create(
            name="Main", branding={"brand_name": "Orchid Astrology", "logo_url": logo_url}
        )
    with AstroClient(api_key=account["api_key"], base_url=api.base_url) as client:
        branded = client.reports.natal_pdf(
            birth_subject=SUBJECT, name="Ann", brand_profile_id=profile.id
        )
        data = httpx.get(branded.url, timeout=30).content
        assert "Orchid Astrology" in pdf_text(data, tmp_path)
        assert has_logo(data, tmp_path)
        with pytest.raises(astro_sdk.NotFoundError):
            client.with_options(api_key=other["api_key"]).reports.natal_pdf(
                birth_subject=SUBJECT, name="Ann", brand_profile_id=profile.id
            )


def test_a_render_failure_refunds_once_and_sends_report_failed(
    hooks_stack: tuple[Stack, ServerProcess, dict[str, str]],
    receiver: tuple[HTTPServer, Inbox],
) -> None:
    stack, api, worker_env = hooks_stack
    server, inbox = receiver
    # The worker's "Chromium" exits at once: launching the browser fails for real.
    stack.worker({**worker_env, "ASTRO_CHROMIUM_PATH": "/bin/false"})
    stack.scheduler(worker_env)
    account = create_account(stack, tier="pro", credits=100, name="reports")
    secret = webhook_endpoint(
        api.base_url, account["api_key"], f"https://localhost:{server.port}/hooks"
    )
    with AstroClient(api_key=account["api_key"], base_url=api.base_url) as client:
        handle = client.reports.natal_pdf(birth_subject=SUBJECT, name="Ann", run_async=True)
        with pytest.raises(astro_sdk.JobFailedError) as failed:
            handle.wait(timeout_s=120, poll_interval_s=0.2)
        job = failed.value.job
        assert (job.credits_charged, job.credits_refunded) == (10, 10)
        assert client.estimates.create(operation="western.natal").balance == 100
        report = client.reports.get(handle.model_extra["report_id"])
        assert report.status == "failed"
        assert report.pdf_url is None
        assert report.error is not None
        time.sleep(2)  # a second refund, if there were one, would land by now
        assert client.estimates.create(operation="western.natal").balance == 100
    items = inbox.wait_for(1, timeout_s=60)
    assert items, "no report.failed delivery"
    event = verify(items[0][0], items[0][1], secret)
    assert event["type"] == "report.failed"
    assert event["data"]["report_id"] == report.report_id
    assert event["data"]["error"]["error"] in ("service_unavailable", "report_failed")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_sync_report_html_format_and_customer_routes(
    shared_stack: Stack, shared_server: ServerProcess, tmp_path: Path
) -> None:
    account = create_account(shared_stack, tier="pro", credits=100, name="reports")
    other = create_account(shared_stack, tier="pro", credits=100, name="reports")
    email = f"reports-{account['account_id']}@example.com"
    create_customer(shared_stack, account["account_id"], email)
    create_customer(shared_stack, other["account_id"], f"other-{email}")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        result = client.reports.natal_pdf(
            birth_subject=SUBJECT, name="สมชาย ใจดี", locale="th", house_system="W"
        )
        assert result.api_response.status_code == 200
        assert result.api_response.credits_charged == 10
        assert result.pdf_url is not None
        text = pdf_text(httpx.get(result.pdf_url, timeout=30).content, tmp_path)
        assert "สมชาย ใจดี" in text
        assert "รายงานดวงชะตากำเนิด" in text
    with AstroClient(base_url=shared_server.base_url) as anonymous:
        customer = anonymous.auth.login(email, PASSWORD)
        made = customer.customer_reports.create_natal(
            birth_subject=SUBJECT, name="Ann <b>Lee</b>", format="html"
        )
        assert made.format == "html"
        assert made.pdf_url is None
        assert made.html_url is not None
        page = httpx.get(made.html_url, timeout=30)
        assert page.headers["content-type"].startswith("text/html")
        assert "Ann &lt;b&gt;Lee&lt;/b&gt;" in page.text
        assert "<b>Lee" not in page.text
        queued = customer.customer_reports.create_natal(
            birth_subject=SUBJECT, name="Queued", format="html", run_async=True
        )
        assert queued.poll == f"/v1/reports/{queued.report_id}"
        listed = [r.report_id for r in customer.customer_reports.list(limit=1)]
        assert listed[:3] == [queued.report_id, made.report_id, result.report_id]
        assert customer.customer_reports.get(made.report_id).status == "succeeded"
        intruder = anonymous.auth.login(f"other-{email}", PASSWORD)
        for report_id in (made.report_id, result.report_id):
            with pytest.raises(astro_sdk.NotFoundError):
                intruder.customer_reports.get(report_id)
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        assert client.estimates.create(operation="western.natal").balance == 70


def _post(base_url: str, headers: dict[str, str], body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{base_url}/api/v3/reports/natal/pdf", headers=headers, json=body, timeout=60
    )


def test_refusals_401_402_403_404_and_400_at_the_edges(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    base = shared_server.base_url
    body: dict[str, Any] = {"birth_subject": SUBJECT, "name": "x" * 120, "format": "html"}
    assert _post(base, {}, body).status_code == 401
    starter = create_account(shared_stack, tier="starter", credits=100, name="reports")
    refused = _post(base, {"X-API-Key": starter["api_key"]}, body)
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    broke = create_account(shared_stack, tier="pro", credits=9, name="reports")
    short = _post(base, {"X-API-Key": broke["api_key"]}, body)
    assert short.status_code == 402
    assert short.json()["error"] == "payment_required"
    account = create_account(shared_stack, tier="pro", credits=30, name="reports")
    key = {"X-API-Key": account["api_key"]}
    first = _post(base, {**key, "Idempotency-Key": "edge-120"}, body)  # a name of 120 chars
    assert first.status_code == 200, first.text
    again = _post(base, {**key, "Idempotency-Key": "edge-120"}, body)
    assert again.json() == first.json()  # replayed: the same report, charged once
    assert again.headers["X-Credits-Charged"] == "0"
    for change, field in (
        ({"name": "x" * 121}, "name"),
        ({"name": ""}, "name"),
        ({"house_system": "X"}, "house_system"),
        ({"locale": "fr"}, "locale"),
        ({"format": "docx"}, "format"),
        ({"birth_subject": {**SUBJECT, "latitude": 90.5}}, "birth_subject.latitude"),
        ({"branding": {**BRANDING, "primary_color": "#12345"}}, "branding.primary_color"),
        ({"branding": {**BRANDING, "contact_phone": "+123456"}}, "branding.contact_phone"),
        ({"branding": {**BRANDING, "contact_url": "http://lotus.example"}}, "branding.contact_url"),
        ({"branding": {**BRANDING, "brand_name": "b" * 121}}, "branding.brand_name"),
    ):
        answer = _post(base, key, {**body, **change})
        assert answer.status_code == 400, (change, answer.text)
        assert field in [d["field"] for d in answer.json()["details"]], answer.text
    both = _post(base, key, {**body, "branding": BRANDING, "brand_profile_id": "brand_" + "0" * 24})
    assert both.status_code == 400
    unknown = _post(base, key, {**body, "brand_profile_id": "brand_" + "a" * 24})
    assert unknown.status_code == 404
    missing = httpx.get(f"{base}/api/v3/reports/rep_{'0' * 24}", headers=key, timeout=30)
    assert missing.status_code == 404
    with AstroClient(api_key=account["api_key"], base_url=base) as client:
        assert client.estimates.create(operation="western.natal").balance == 20  # one charge


def test_without_chromium_pdf_routes_answer_503_and_readyz_says_so(
    stack_factory: Any, tmp_path: Path
) -> None:
    stack = stack_factory()  # embedded mode: SQLite, jobs in the API process
    server = stack.server({"ASTRO_CHROMIUM_PATH": str(tmp_path / "no-chromium")})
    account = create_account(stack, tier="pro", credits=100, name="reports")
    key = {"X-API-Key": account["api_key"]}
    answer = _post(server.base_url, key, {"birth_subject": SUBJECT, "name": "Ann"})
    assert answer.status_code == 503
    assert answer.json()["error"] == "service_unavailable"
    assert "Chromium" in answer.json()["message"]
    ready = httpx.get(f"{server.base_url}/readyz", timeout=30).json()
    assert ready["status"] == "ready"
    assert ready["checks"]["pdf_renderer"] == "missing"
    assert any("Chromium" in item for item in ready["missing"]["pdf_renderer"])
    html = _post(server.base_url, key, {"birth_subject": SUBJECT, "name": "Ann", "format": "html"})
    assert html.status_code == 200, html.text
    assert html.json()["html_url"]
    with AstroClient(api_key=account["api_key"], base_url=server.base_url) as client:
        assert client.estimates.create(operation="western.natal").balance == 90
