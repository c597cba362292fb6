"""The portal's Developers area in a real browser (issue 31): Chromium (Debian's) against a live
API process (embedded mode: SQLite, in-process broker), English and Thai, 1280 and 390 px.

Covered: the overview (balance, tier, month's spend from ledger rows the CLI's top-up and
written debits make, usage charts with their tables, the "buy credits" link of
``ASTRO_BUY_CREDITS_URL``); the ledger; an API key made with two scopes, its secret copied
(shown once) and used against the API, rotated with a grace period, revoked; the header's
test-mode switch (banner, test keys only); a webhook endpoint made, its test event received
by a local HTTPS receiver and shown in the delivery log; the audit log filtered by action; a
viewer sees no control. axe-core finds no violation on any page at either width, and no page
scrolls sideways. Screenshots go to ``tests/artifacts/portal-developers/`` (git-ignored) and,
when ``ASTRO_SHOTS_DIR`` is set, the English 1280 px and Thai 390 px ones are copied there.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer

from tests._support.receiver import Inbox, receive
from tests._support.stack import Stack

playwright_sync = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
OWNER = "dev-owner@example.com"
VIEWER = "dev-viewer@example.com"
PASSWORD = "correct horse battery staple"
ARTIFACTS = Path(__file__).parent / "artifacts" / "portal-developers"
WIDTHS = {"desktop": 1280, "phone": 390}
BUY_URL = "https://127.0.0.1:8443/buy-credits"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not os.path.exists(CHROMIUM):  # pragma: no cover - the README's test setup installs it
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


class Browser:
    """One page: screenshots at both widths, axe at each, no sideways scrolling."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.axe = axe_module.Axe()
        self.shots = os.environ.get("ASTRO_SHOTS_DIR")

    def go(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def look(self, name: str, lang: str = "en") -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for label, width in WIDTHS.items():
            self.page.set_viewport_size({"width": width, "height": 900})
            shot = ARTIFACTS / f"{name}-{lang}-{label}.png"
            self.page.screenshot(path=str(shot), full_page=True)
            if self.shots and (lang, label) in (("en", "desktop"), ("th", "phone")):
                Path(self.shots).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(self.shots) / shot.name)
            results = self.axe.run(self.page)
            assert results.violations_count == 0, f"{name} ({label}):\n" + results.generate_report()
            overflow = self.page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name} ({label}) scrolls sideways by {overflow}px"
        self.page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


def make_account(stack: Stack) -> str:
    out = stack.run_cli(
        "create-account", "--name", "dev-e2e", "--tier", "enterprise", "--credits", "500", "--json"
    )
    account: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    account_id = str(account["account_id"])
    for email in (OWNER, VIEWER):
        stack.run_cli(
            "create-customer", "--account", account_id, "--email", email, "--password", PASSWORD
        )
    stack.run_cli("add-credits", "--account", account_id, "--credits", "250")
    database = Path(stack.env["ASTRO_DATA_DIR"]) / "astro.sqlite3"
    with sqlite3.connect(database) as db:
        # The CLI makes owners; the team's invitation flow is covered by test_e2e_portal.py.
        db.execute("UPDATE customers SET role = 'viewer' WHERE email = ?", (VIEWER,))
        # Billed calls of this month (the debit path itself is covered by the billing tests).
        for operation, amount in (
            ("western.natal", -3),
            ("western.natal", -3),
            ("vedic.chart", -5),
        ):
            db.execute(
                "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
                "VALUES (?, 'debit', ?, ?, strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'))",
                (account_id, amount, operation),
            )
    return account_id


def sign_in(page: Any, base_url: str, email: str) -> None:
    page.goto(base_url + "/portal/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def test_developers_area_in_a_real_browser(
    stack_factory: Callable[..., Stack],
    https_server: HTTPServer,
    ca_file: Path,
) -> None:
    inbox: Inbox = receive(https_server, "/astro/events", "received by the developers test")
    stack = stack_factory()
    env = {
        "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
        "SSL_CERT_FILE": str(ca_file),
        "ASTRO_BUY_CREDITS_URL": BUY_URL,
    }
    api = stack.server(env)
    account_id = make_account(stack)
    destination = f"https://localhost:{https_server.port}/astro/events"

    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        context = chromium.new_context(
            viewport={"width": WIDTHS["desktop"], "height": 900},
            permissions=["clipboard-read", "clipboard-write"],
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        b = Browser(page, api.base_url)
        expect = playwright_sync.expect

        sign_in(page, api.base_url, OWNER)
        page.get_by_role("link", name="Developers").click()
        expect(page.get_by_role("heading", name="Developers", exact=True)).to_be_visible()
        stats = page.locator("dl.stats").first
        expect(stats).to_contain_text("750")  # 500 + the top-up of 250 (the rows are inserted)
        expect(stats).to_contain_text("Enterprise")
        expect(stats).to_contain_text("11")
        expect(page.get_by_role("link", name="Buy credits")).to_have_attribute("href", BUY_URL)
        expect(
            page.get_by_text(f"astro-server add-credits --account {account_id} --credits 1000")
        ).to_be_visible()
        expect(page.locator("svg[role=img]")).to_have_count(2)
        page.get_by_text("Show the numbers as a table").first.click()
        expect(page.get_by_role("rowheader", name="western.natal")).to_be_visible()
        b.look("overview")

        page.get_by_role("link", name="Ledger").click()
        expect(page.locator("tbody tr")).to_have_count(5)  # three debits, two top-ups
        expect(page.locator("tbody tr").last).to_contain_text("Top-up")
        b.look("ledger")

        # A key with two scopes: the secret shown once, copied, and accepted by the API.
        page.get_by_role("link", name="API keys").click()
        page.get_by_label("Name").fill("nightly reports")
        page.get_by_label("Every scope").uncheck()
        page.get_by_label("reports", exact=True).check()
        page.get_by_label("western", exact=True).check()
        b.look("keys")
        page.get_by_role("button", name="Create the key").click()
        expect(page.get_by_role("heading", name="Your new API key")).to_be_visible()
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_text("Copied to the clipboard.")).to_be_visible()
        secret = page.evaluate("navigator.clipboard.readText()")
        assert secret.startswith("ak_live_")
        b.look("key-secret")
        answer = httpx.get(api.base_url + "/api/v3/account", headers={"X-API-Key": secret})
        assert answer.status_code == 200
        assert answer.json()["account"]["id"] == account_id
        page.get_by_role("link", name="Done").click()
        row = page.locator("tbody tr", has_text="nightly reports")
        expect(row).to_contain_text("reports, western")
        expect(row).to_contain_text(secret[:12])
        page.on("dialog", lambda dialog: dialog.accept())
        row.get_by_label("How long the old key keeps working").select_option("3600")
        row.get_by_role("button", name="Rotate").click()
        expect(page.get_by_text("keeps working until")).to_be_visible()
        page.get_by_role("link", name="Done").click()
        new_row = page.locator("tbody tr", has_text="nightly reports").first
        new_row.get_by_role("button", name="Revoke").click()
        expect(page.get_by_text("The key is revoked")).to_be_visible()

        # Test mode: the banner, and test keys only.
        page.get_by_role("button", name="Test mode").click()
        expect(page.locator(".test-banner")).to_be_visible()
        expect(page.get_by_text("nightly reports")).to_have_count(0)
        page.get_by_label("Name").fill("sandbox")
        page.get_by_role("button", name="Create the key").click()
        assert page.locator("#api-key-secret").input_value().startswith("ak_test_")
        page.get_by_role("link", name="Done").click()
        b.look("keys-test")
        page.get_by_role("button", name="Test mode").click()
        expect(page.locator(".test-banner")).to_have_count(0)

        # A webhook endpoint: the secret once, a test event to the local receiver, the log.
        page.get_by_role("link", name="Webhooks").click()
        page.get_by_label("Endpoint URL").fill(destination)
        b.look("webhooks")
        page.get_by_role("button", name="Create the endpoint").click()
        expect(page.get_by_role("heading", name="Signing secret")).to_be_visible()
        signing_secret = page.locator("#signing-secret").input_value()
        page.get_by_role("link", name="Done").click()
        expect(page.get_by_role("heading", name="Webhook endpoint")).to_be_visible()
        page.get_by_role("button", name="Send a test event").click()
        expect(page.get_by_text("The test was delivered.")).to_be_visible()
        # Signed with the secret shown once (verified as a receiver would, with the SDK).
        (event,) = inbox.events(signing_secret, 1, timeout_s=10)
        assert event["test"] is True
        assert event["livemode"] is True
        expect(page.get_by_text("received by the developers test")).to_be_visible()
        expect(page.get_by_text("HTTP 200").first).to_be_visible()
        b.look("webhook")

        b.go("/portal/developers/audit")
        page.get_by_label("Action").fill("key.revoked")
        page.get_by_role("button", name="Filter").click()
        # The rotated key and its predecessor still in grace: both revocations (issue 50).
        expect(page.locator("tbody tr")).to_have_count(2)
        b.look("audit")

        # Thai, phone and desktop, every page of the area.
        page.get_by_role("link", name="ไทย").click()
        for path, heading, name in (
            ("/portal/developers", "นักพัฒนา", "overview"),
            ("/portal/developers/ledger", "บัญชีเครดิต", "ledger"),
            ("/portal/developers/keys", "คีย์ API", "keys"),
            ("/portal/developers/webhooks", "เว็บฮุก", "webhooks"),
            ("/portal/developers/audit", "บันทึกการตรวจสอบ", "audit"),
        ):
            b.go(path)
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            b.look(name, "th")
        b.go("/portal/developers/webhooks")
        page.locator("tbody a").first.click()
        expect(page.get_by_role("heading", name="ปลายทางเว็บฮุก")).to_be_visible()
        b.look("webhook", "th")
        page.get_by_role("link", name="English").click()

        # A viewer reads everything and sees no control.
        viewer = chromium.new_context(viewport={"width": WIDTHS["desktop"], "height": 900})
        vpage = viewer.new_page()
        sign_in(vpage, api.base_url, VIEWER)
        vpage.goto(api.base_url + "/portal/developers/keys")
        expect(vpage.locator("tbody tr").first).to_be_visible()
        expect(vpage.get_by_role("button", name="Revoke")).to_have_count(0)
        expect(vpage.get_by_role("button", name="Create the key")).to_have_count(0)
        vpage.goto(api.base_url + "/portal/developers/webhooks")
        vpage.locator("tbody a").first.click()
        expect(vpage.get_by_role("button", name="Send a test event")).to_have_count(0)
        Browser(vpage, api.base_url).look("webhook-viewer")
        viewer.close()
        chromium.close()
    assert not errors, errors
