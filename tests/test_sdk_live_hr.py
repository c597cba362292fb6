"""The HR talent assessment end to end through the SDK: hypercorn API, a worker process (which
prints the PDF), the scheduler, PostgreSQL and Redis (the shared stack).

Sync and async clients: the answer's typed models, billed once (an idempotent retry is not
billed again), the PDF fetched from its signed URL with its disclaimer and Thai text, 402 without
credits and 403 below tier pro as the spec says, and the estimate pricing it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.models.hr import HrScreening
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

CANDIDATE = {
    "name": "สมชาย ใจดี",
    "birth_date": "1990-05-17",
    "birth_time": "14:30",
    "timezoneOffsetMinutes": 420,
    "latitude": 13.75,
    "longitude": 100.5,
}


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "hr.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_assessment_through_the_sdk_billed_once(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="pro", credits=100, name="hr")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        result = client.reports.hr_screening(
            candidate=CANDIDATE,
            position="Senior software engineer",
            outlook_years=2,
            company={"name": "Acme", "founded_date": "2001-03-01"},
            as_of=dt.date(2026, 11, 24),
            idempotency_key="hr-e2e-1",
        )
        assert isinstance(result, HrScreening)
        assert result.api_response.credits_charged == 20
        assert result.verdict in ("strong_hire", "consider", "caution", "not_recommended")
        assert result.hr_narrative_en.startswith(result.disclaimer_en)
        assert result.hr_narrative_th.startswith(result.disclaimer_th)
        assert [y.number for y in result.thaksa_outlook.years] == [1, 2]
        assert result.bazi_profile.pillars.hour is not None
        assert result.position_match.archetypes[0].key == "technical"
        assert result.company_fit.assessed is True
        assert result.pdf_url is None
        again = client.reports.hr_screening(
            candidate=CANDIDATE,
            position="Senior software engineer",
            outlook_years=2,
            company={"name": "Acme", "founded_date": "2001-03-01"},
            as_of=dt.date(2026, 11, 24),
            idempotency_key="hr-e2e-1",
        )
        assert again.api_response.credits_charged == 0
        assert again.request_id == result.request_id
        estimate = client.estimates.create(operation="reports.hr_screening")
        assert estimate.estimated_credits == 20
        assert estimate.balance == 80  # charged once
        with pytest.raises(astro_sdk.RequestValidationError):
            client.reports.hr_screening(candidate=CANDIDATE, position="x" * 201)


def test_402_and_403_as_the_spec_says(shared_stack: Stack, shared_server: ServerProcess) -> None:
    poor = create_account(shared_stack, tier="pro", credits=19, name="hr")
    free = create_account(shared_stack, tier="free", credits=1000, name="hr")
    with AstroClient(api_key=poor["api_key"], base_url=shared_server.base_url) as client:
        with pytest.raises(astro_sdk.InsufficientCreditsError) as paid:
            client.reports.hr_screening(candidate=CANDIDATE, position="Nurse")
        assert paid.value.status_code == 402
        with pytest.raises(astro_sdk.PermissionDeniedError) as denied:
            client.with_options(api_key=free["api_key"]).reports.hr_screening(
                candidate=CANDIDATE, position="Nurse"
            )
        assert denied.value.status_code == 403
        assert client.estimates.create(operation="reports.hr_screening").balance == 19


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_pdf_through_the_async_client(
    shared_stack: Stack, shared_server: ServerProcess, tmp_path: Path
) -> None:
    account = create_account(shared_stack, tier="pro", credits=100, name="hr")

    async def run() -> HrScreening:
        async with AsyncAstroClient(
            api_key=account["api_key"], base_url=shared_server.base_url
        ) as client:
            return await client.reports.hr_screening(
                candidate=CANDIDATE,
                position="วิศวกรซอฟต์แวร์",
                include_pdf=True,
                locale="th",
                branding={"brand_name": "Lotus People", "primary_color": "#0E6E5C"},
            )

    result = asyncio.run(run())
    assert result.api_response.credits_charged == 20
    assert result.pdf_url is not None
    assert result.expires_at is not None
    assert abs((result.expires_at - result.generated_at).total_seconds() - 86_400) < 120
    fetched = httpx.get(result.pdf_url, timeout=30)
    assert fetched.status_code == 200
    text = pdf_text(fetched.content, tmp_path)
    compact = re.sub(r"\s", "", text)
    assert compact.startswith(re.sub(r"\s", "", result.disclaimer_th))
    assert "สมชาย ใจดี" in text
    assert "Lotus People" in text
    assert "วิศวกรซอฟต์แวร์" in text
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        assert result.report_id is not None
        report = client.reports.get(result.report_id)
        assert report.status == "succeeded"
        assert client.estimates.create(operation="reports.hr_screening").balance == 80
