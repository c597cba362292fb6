"""Test keys render real PDFs within a daily allowance, marked "TEST" (issue 36).

A test key's natal and HR PDFs are printed by Chromium like a live key's, with a diagonal "TEST"
on every page (pdftotext finds it on each page; pdftoppm shows the mark's tint at the middle of a
page, where a live page is white), up to ``ASTRO_TEST_PDF_DAILY_ALLOWANCE`` per account per UTC
day (natal and HR together; yesterday's do not count; HTML reports are not counted); one more is
429 with ``Retry-After`` until midnight UTC and a message naming the allowance.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import secrets
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from PIL import Image
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.reports import service as reports
from astro_server.features.reports.models import Report
from astro_server.features.reports.render.renderer import missing_components
from astro_server.platform.auth import accounts
from astro_server.platform.caller import Caller

pytestmark = pytest.mark.skipif(
    bool(missing_components()) or shutil.which("pdftotext") is None,
    reason="needs Chromium, playwright and poppler-utils (scripts/test.sh installs them)",
)

ALLOWANCE = 3
SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
NATAL = {"birth_subject": SUBJECT, "name": "Somchai Jaidee", "format": "pdf"}
HR = {
    "candidate": {
        "name": "Bruce Lee",
        "birth_date": "1940-11-27",
        "birth_time": "07:12",
        "timezoneOffsetMinutes": -480,
        "latitude": 37.79,
        "longitude": -122.41,
    },
    "position": "Martial arts teacher",
    "outlook_years": 3,
    "as_of": "2026-06-01",
    "company": {"name": "Golden Harvest", "founded_date": "1970-04-01"},
    "include_pdf": True,
}


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(
        f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path, test_pdf_daily_allowance=ALLOWANCE
    )
    async with running_app(settings) as application:
        yield application
        await application.extensions["astro"].broker.wait_all()


async def _download(client: Client, url: str, path: Path) -> Path:
    parts = urlsplit(url)
    response = await client.get(f"{parts.path}?{parts.query}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    data = await response.get_data()
    await asyncio.to_thread(path.write_bytes, data)
    return path


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


def _pages(path: Path) -> list[str]:
    """The text of each page in content order (``-raw``; pages end with a form feed)."""
    return _run("pdftotext", "-raw", "-enc", "UTF-8", str(path), "-").split("\f")[:-1]


def _marked(text: str) -> bool:
    """Whether the page carries the mark: the word TEST, or (drawn diagonally, each letter on
    its own line of the extraction) its four letters in a row."""
    words = text.split()
    return "TEST" in words or any(words[i : i + 4] == list("TEST") for i in range(len(words)))


def _tinted_middle(path: Path, page: int, folder: Path) -> float:
    """Share of the pixels in the middle fifth of ``page`` tinted red (the mark's colour at its
    opacity on white: red well above green and blue), at 30 dpi."""
    stem = folder / f"{path.stem}-p{page}"
    _run("pdftoppm", "-r", "30", "-f", str(page), "-l", str(page), "-png", str(path), str(stem))
    image_path = next(folder.glob(f"{stem.name}*.png"))
    with Image.open(image_path) as image:
        rgb = image.convert("RGB")
        w, h = rgb.size
        box = np.asarray(rgb.crop((w * 2 // 5, h * 2 // 5, w * 3 // 5, h * 3 // 5)), dtype=int)
    red, green, blue = box[..., 0], box[..., 1], box[..., 2]
    return float(((red - green > 20) & (red - blue > 20)).mean())


async def _made_today(account_id: str, count: int) -> None:
    for _ in range(count):
        await Report.create(
            id="rep_" + secrets.token_hex(12),
            account_id=account_id,
            livemode=False,
            kind="natal",
            format="pdf",
            locale="en",
            status="succeeded",
            created_at=dt.datetime.now(dt.UTC),
        )


async def test_test_key_pdfs_are_marked_and_allowed_up_to_the_daily_allowance(
    app: Quart, tmp_path: Path
) -> None:
    account_id, live = await new_account("pro", 10_000)
    test = await accounts.create_api_key(account_id, "test")
    client = app.test_client()
    # Yesterday's test PDFs do not count; one made today does.
    yesterday = dt.datetime.now(dt.UTC).replace(hour=0, minute=0) - dt.timedelta(minutes=1)
    await _made_today(account_id, 1)
    await Report.filter(account_id=account_id).update(created_at=yesterday)
    await _made_today(account_id, ALLOWANCE - 2)

    natal = await client.post("/api/v3/reports/natal/pdf", json=NATAL, headers=key_headers(test))
    assert natal.status_code == 200, await natal.get_json()
    assert natal.headers["X-Credits-Charged"] == "0"
    test_pdf = await _download(client, (await natal.get_json())["pdf_url"], tmp_path / "t.pdf")
    pages = await asyncio.to_thread(_pages, test_pdf)
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert _marked(text), f"page {number} has no TEST mark"
    # The last allowed one: an HR PDF, marked too.
    hr = await client.post("/api/v3/reports/hr-screening", json=HR, headers=key_headers(test))
    assert hr.status_code == 200, await hr.get_json()
    hr_pdf = await _download(client, (await hr.get_json())["pdf_url"], tmp_path / "hr.pdf")
    assert all(_marked(text) for text in await asyncio.to_thread(_pages, hr_pdf))

    # One more is refused until midnight UTC, naming the allowance; nothing is queued.
    reports_before = await Report.filter(account_id=account_id).count()
    refused = await client.post("/api/v3/reports/natal/pdf", json=NATAL, headers=key_headers(test))
    assert refused.status_code == 429, await refused.get_json()
    now = dt.datetime.now(dt.UTC)
    midnight = (now + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    retry_after = int(refused.headers["Retry-After"])
    assert abs(retry_after - math.ceil((midnight - now).total_seconds())) <= 5
    answer: dict[str, Any] = await refused.get_json()
    assert answer["error"] == "rate_limited"
    assert f"at most {ALLOWANCE} PDFs" in answer["message"]
    assert "ASTRO_TEST_PDF_DAILY_ALLOWANCE" in answer["message"]
    hr_refused = await client.post(
        "/api/v3/reports/hr-screening", json=HR, headers=key_headers(test)
    )
    assert hr_refused.status_code == 429
    assert await Report.filter(account_id=account_id).count() == reports_before
    # HTML reports are not counted, and carry the mark as well.
    html = await client.post(
        "/api/v3/reports/natal/pdf", json={**NATAL, "format": "html"}, headers=key_headers(test)
    )
    assert html.status_code == 200, await html.get_json()
    parts = urlsplit((await html.get_json())["html_url"])
    page = await (await client.get(f"{parts.path}?{parts.query}")).get_data(as_text=True)
    assert 'class="test-mark"' in page
    # Live keys are not counted; their PDF has no mark.
    async with app.app_context():
        await reports.check_test_pdf_allowance(Caller(account_id, "pro", "key_x", "api_key"))
    live_answer = await client.post(
        "/api/v3/reports/natal/pdf", json=NATAL, headers=key_headers(live)
    )
    assert live_answer.status_code == 200, await live_answer.get_json()
    live_pdf = await _download(
        client, (await live_answer.get_json())["pdf_url"], tmp_path / "live.pdf"
    )
    assert not any(_marked(text) for text in await asyncio.to_thread(_pages, live_pdf))
    # The mark is drawn: the middle of a page is tinted on the test PDF, white on the live one.
    assert await asyncio.to_thread(_tinted_middle, test_pdf, 3, tmp_path) > 0.02
    assert await asyncio.to_thread(_tinted_middle, live_pdf, 3, tmp_path) < 0.005
