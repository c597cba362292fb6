"""The portal's rough edges of issue 31, in a real browser (Debian's Chromium through
playwright, as tests/test_e2e_portal.py) against a live API process on PostgreSQL and Redis.

A Thai browser (``Accept-Language: th``) gets Thai on its first visit, and the bundled Noto Sans
Thai web font is loaded (``document.fonts``), whatever fonts the machine has. A starter account
sees the report's price and tier before ordering, and after ordering is told the tier in Thai
with its form kept; the operator's ``set-tier`` lets the same form through, and the reports list
names the person. The brand form's preview is the report's own cover. An unknown portal address
is the portal's Thai 404 page. The language chosen is stored on the login: another browser that
asks for Thai signs in to English. axe-core finds no violation; screenshots of each page at 1280
and 390 px go to ``$ASTRO_PORTAL_SHOTS`` (default ``tests/artifacts/portal-rough``, git-ignored).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from astro_server.features.reports.render.html import labels
from astro_server.portal import i18n
from tests._support.stack import Stack

playwright_sync = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
EMAIL = "starter@example.com"
PASSWORD = "correct horse battery staple"
SHOTS = Path(
    os.environ.get("ASTRO_PORTAL_SHOTS", Path(__file__).parent / "artifacts" / "portal-rough")
)
WIDTHS = {"desktop": 1280, "phone": 390}
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not os.path.exists(CHROMIUM):  # pragma: no cover - the README's test setup installs it
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


def look(page: Any, name: str) -> None:
    """Screenshots at desktop and phone widths; axe-core and no sideways scroll at each."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = axe_module.Axe()
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
        results = axe.run(page)
        assert results.violations_count == 0, f"{name} ({label}):\n" + results.generate_report()
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} ({label}) scrolls sideways by {overflow}px"
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


THAI_FONT_LOADED = """async () => {
  await document.fonts.ready;
  return [...document.fonts]
    .filter(f => f.family.replace(/"/g, '') === 'Noto Sans Thai' && f.status === 'loaded')
    .length;
}"""


def sign_in(page: Any, base_url: str, password_label: str) -> None:
    page.goto(base_url + "/portal/login")
    page.locator("#email").fill(EMAIL)
    page.locator("#password").fill(PASSWORD)
    page.locator("#password").press("Enter")
    page.wait_for_url(base_url + "/portal/dashboard")
    del password_label


def test_rough_edges_in_a_real_browser(production_stack: Stack) -> None:
    api = production_stack.server()
    made = json.loads(
        production_stack.run_cli(
            "create-account", "--name", "starter-e2e", "--tier", "starter", "--credits", "50",
            "--json",
        ).stdout.strip().splitlines()[-1]
    )  # fmt: skip
    account = made["account_id"]
    production_stack.run_cli(
        "create-customer", "--account", account, "--email", EMAIL, "--password", PASSWORD
    )
    base = api.base_url
    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        thai = chromium.new_context(
            locale="th-TH", viewport={"width": WIDTHS["desktop"], "height": 900}
        )
        page = thai.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        expect = playwright_sync.expect

        # First visit of a Thai browser: Thai, in the bundled Thai web font.
        page.goto(base + "/portal/login")
        expect(page.locator("html")).to_have_attribute("lang", "th")
        assert page.evaluate(THAI_FONT_LOADED) >= 1
        look(page, "login-th")

        sign_in(page, base, "รหัสผ่าน")
        expect(page.locator("html")).to_have_attribute("lang", "th")
        assert page.evaluate(THAI_FONT_LOADED) >= 1

        # The report form shows the price and the tier before ordering ...
        page.goto(base + "/portal/reports/new")
        price = page.locator("#report-price")
        expect(price).to_contain_text("10 เครดิต")
        expect(price).to_contain_text("โปร")
        page.locator("#name").fill("สมชาย ใจดี")
        page.locator("#date").fill("1990-05-17")
        page.locator("#time").fill("14:30")
        page.locator("#latitude").fill("13.754")
        page.locator("#longitude").fill("100.5014")
        page.locator("#timezone").fill("Asia/Bangkok")
        page.locator("#house_system").select_option("W")
        look(page, "report-new-th")
        # ... and a starter account's order is refused in Thai, naming the tier, form kept.
        page.locator("#report-form button[type=submit]").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("ต้องใช้ระดับ โปร ขึ้นไป")
        expect(page.locator("#name")).to_have_value("สมชาย ใจดี")
        expect(page.locator("#latitude")).to_have_value("13.754")
        expect(page.locator("#house_system")).to_have_value("W")
        look(page, "report-tier-th")

        # The operator moves the account to pro: the kept form goes through as it is.
        production_stack.run_cli("set-tier", "--account", account, "--tier", "pro")
        page.locator("#report-form button[type=submit]").click()
        page.wait_for_url(f"{base}/portal/reports/rep_*")
        expect(page.locator("h1")).to_contain_text("สมชาย ใจดี")
        page.goto(base + "/portal/reports")
        row = page.locator("tbody tr").first
        expect(row).to_contain_text("สมชาย ใจดี")
        expect(row).to_contain_text(i18n.translate("th", "reports.natal") + " · PDF")
        look(page, "reports-th")

        # The brand preview is the report's own cover (Thai title from the report's labels).
        page.goto(base + "/portal/brands/new")
        cover = page.frame_locator("#cover")
        expect(cover.locator(".cover-title")).to_have_text(labels("th")["report_title"])
        page.locator("#brand_name").fill("ดวงดาว สตูดิโอ")
        expect(cover.locator(".brand-name")).to_have_text("ดวงดาว สตูดิโอ")
        look(page, "brand-preview-th")

        # An unknown address: the portal's own 404 page, in Thai.
        answer = page.goto(base + "/portal/no-such-page")
        assert answer is not None
        assert answer.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text("ไม่พบรายการนี้")
        look(page, "not-found-th")

        # Choose English: stored on the login. Another Thai browser signs in to English.
        page.goto(base + "/portal/dashboard")
        page.get_by_role("link", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        other = chromium.new_context(locale="th-TH")
        second = other.new_page()
        second.goto(base + "/portal/login")
        expect(second.locator("html")).to_have_attribute("lang", "th")  # no cookie yet
        sign_in(second, base, "รหัสผ่าน")
        expect(second.locator("html")).to_have_attribute("lang", "en")
        second.goto(base + "/portal/no-such-page")
        expect(second.get_by_role("heading", level=1)).to_have_text("Not found")
        look(second, "not-found-en")
        second.goto(base + "/portal/reports")
        expect(second.locator("tbody tr").first).to_contain_text("Natal report")
        look(second, "reports-en")
        other.close()
        thai.close()
        chromium.close()
    assert errors == []
