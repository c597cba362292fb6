"""The customer portal in a real browser: Chromium (Debian's, through playwright's
``executable_path``) against a live API process on PostgreSQL and Redis.

Covered: sign in with the keyboard; cookie flags; create a feed, copy its secret (shown once),
send a test delivery that a local HTTPS receiver (trustme CA, loopback flag for tests) verifies
with ``astro_sdk.webhooks``; the delivery log; pause; switch to Thai and back (remembered across
pages); a brand profile with its live cover preview (the report's own cover); a POST without
the CSRF token is refused; delete the feed; sign out. axe-core (bundled by
axe-playwright-python) finds no violation on any page, in English and Thai. Screenshots of
each page at 1280 and 390 px go to ``tests/artifacts/portal/`` (git-ignored).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from astro_sdk.webhooks import verify
from tests._support.accounts import create_account
from tests._support.receiver import Inbox, receive
from tests._support.stack import Stack

playwright_sync = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
EMAIL = "portal@example.com"
VIEWER = "viewer@example.com"
PASSWORD = "correct horse battery staple"
ARTIFACTS = Path(__file__).parent / "artifacts" / "portal"
WIDTHS = {"desktop": 1280, "phone": 390}
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not os.path.exists(CHROMIUM):  # pragma: no cover - the README's test setup installs it
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture
def receiver(https_server: HTTPServer) -> tuple[HTTPServer, Inbox]:
    return https_server, receive(https_server, "/astro/feed", "received by the portal test")


class Browser:
    """One page, with screenshots at both widths and an axe check of each page visited."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.axe = axe_module.Axe()
        self.checked: list[str] = []

    def go(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def look(self, name: str) -> None:
        """Screenshots at desktop and phone widths, then axe-core at each width."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for label, width in WIDTHS.items():
            self.page.set_viewport_size({"width": width, "height": 900})
            self.page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
            results = self.axe.run(self.page)
            assert results.violations_count == 0, f"{name} ({label}):\n" + results.generate_report()
            # Nothing wider than the viewport: the page reflows down to a phone's width.
            overflow = self.page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name} ({label}) scrolls sideways by {overflow}px"
        self.page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
        self.checked.append(name)


def create_customer(stack: Stack) -> None:
    create_account(
        stack, tier="enterprise", credits=50, name="portal-e2e", customer_email=EMAIL,
        password=PASSWORD,
    )  # fmt: skip


def test_portal_in_a_real_browser(
    production_stack: Stack,
    receiver: tuple[HTTPServer, Inbox],
    ca_file: Path,
    tmp_path: Path,
) -> None:
    server, inbox = receiver
    # The test delivery is sent by the API process itself: it trusts the test CA.
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1", "SSL_CERT_FILE": str(ca_file)}
    api = production_stack.server(env)
    production_stack.worker(env)  # writes the reports
    create_customer(production_stack)
    destination = f"https://localhost:{server.port}/astro/feed"

    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        context = chromium.new_context(
            viewport={"width": WIDTHS["desktop"], "height": 900},
            permissions=["clipboard-read", "clipboard-write"],
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if msg.type == "error" else None,
        )
        b = Browser(page, api.base_url)
        expect = playwright_sync.expect

        # Sign in, keyboard only: the skip link comes first, then the form's fields in order.
        b.go("/portal/")
        expect(page).to_have_url(api.base_url + "/portal/login")
        b.look("login")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        page.get_by_label("E-mail").focus()
        page.keyboard.type(EMAIL)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "password"
        page.keyboard.type(PASSWORD)
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()
        cookies = {c["name"]: c for c in context.cookies()}
        session = cookies["astro_portal_session"]
        assert session["httpOnly"] is True
        assert session["sameSite"] == "Lax"
        assert session["secure"] is False  # plain http on loopback; https sets Secure
        assert session["path"] == "/portal"
        assert session["value"].startswith("service_sess_")
        assert page.evaluate("document.cookie").find("service_sess_") == -1  # not readable by JS
        b.look("dashboard-empty")

        # Create a feed.
        page.get_by_role("link", name="Horoscope feeds").click()
        expect(page.get_by_text("No feeds yet.")).to_be_visible()
        b.look("feeds-empty")
        page.get_by_role("link", name="New feed").click()
        b.look("feed-new")
        page.get_by_label("Destination (https)").fill(destination)
        page.get_by_label("Sign").select_option("leo")
        page.get_by_label("Time zone").fill("Asia/Bangkok")
        page.get_by_label("Delivery time (local)").fill("07:30")
        page.get_by_role("button", name="Create feed").click()
        expect(page.get_by_role("heading", name="Signing secret")).to_be_visible()
        secret = page.get_by_label("Secret").input_value()
        assert secret.startswith("whsec_")
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_text("Copied to the clipboard.")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == secret
        b.look("feed-secret")
        page.get_by_role("link", name="Done").click()
        expect(page.get_by_role("heading", name="Leo feed")).to_be_visible()
        assert secret not in page.content()  # shown once only

        # A test delivery reaches the receiver, signed with that secret; the log shows it.
        page.get_by_role("button", name="Send a test").click()
        expect(page.get_by_text("The test was delivered.")).to_be_visible()
        deadline = time.monotonic() + 10
        while not inbox.items and time.monotonic() < deadline:
            time.sleep(0.1)
        (body, headers), *_ = inbox.items
        event = verify(body, headers, secret)
        assert event["type"] == "horoscope.daily"
        assert event["data"]["sign"] == "leo"
        expect(page.locator(".log .badge").first).to_have_text("Delivered")
        page.locator(".log summary").first.click()
        expect(page.get_by_text("received by the portal test")).to_be_visible()
        expect(page.get_by_text("HTTP 200").first).to_be_visible()
        b.look("feed-detail")

        # Pause: the page and the dashboard say so.
        page.get_by_role("button", name="Pause").click()
        expect(page.get_by_text("The feed is paused.")).to_be_visible()
        expect(page.get_by_role("button", name="Resume")).to_be_visible()
        b.go("/portal/feeds")
        expect(page.locator("tbody tr")).to_have_count(1)
        expect(page.locator("tbody .badge")).to_have_text("Paused")
        b.look("feeds")
        b.go("/portal/dashboard")
        b.look("dashboard")

        # Thai, remembered from page to page.
        page.get_by_role("link", name="ไทย").click()
        expect(page.get_by_role("heading", name="แดชบอร์ด")).to_be_visible()
        assert page.get_attribute("html", "lang") == "th"
        b.look("dashboard-th")
        page.get_by_role("link", name="ฟีดดวงรายวัน").click()
        expect(page.get_by_role("heading", name="ฟีดดวงรายวัน")).to_be_visible()
        expect(page.locator("tbody td").first).to_contain_text("สิงห์")
        expect(page.locator("tbody .badge")).to_have_text("หยุดชั่วคราว")
        b.look("feeds-th")
        page.locator("tbody a").first.click()
        expect(page.get_by_role("heading", name="ฟีดราศีสิงห์")).to_be_visible()
        expect(page.get_by_role("button", name="เริ่มส่งอีกครั้ง")).to_be_visible()
        b.look("feed-detail-th")
        b.go("/portal/brands/new")
        expect(page.get_by_label("ชื่อแบรนด์ (บนหน้าปก)")).to_be_visible()
        b.look("brand-new-th")
        page.get_by_role("link", name="English").click()
        expect(page.get_by_role("heading", name="New brand profile")).to_be_visible()

        # A brand profile; the cover preview (the report's own cover, drawn by the server in
        # an iframe) follows the form as it is typed.
        page.get_by_label("Profile name").fill("Main")
        page.get_by_label("Brand name (on the cover)").fill("Moon & Co")
        colour = page.locator("#primary_color")
        colour.fill("#f2c94c")
        cover = page.frame_locator("#cover")
        expect(cover.locator(".brand-name")).to_have_text("Moon & Co")
        # A light colour gets dark text on the band (contrast), a dark one white text.
        band = cover.locator(".cover-band")
        expect(band).to_have_css("background-color", "rgb(242, 201, 76)")
        expect(band).to_have_css("color", "rgb(29, 29, 31)")
        colour.fill("#1b3a6b")
        expect(band).to_have_css("background-color", "rgb(27, 58, 107)")
        expect(band).to_have_css("color", "rgb(255, 255, 255)")
        page.get_by_label("Contact e-mail").fill("hello@example.com")
        expect(cover.locator(".cover-contacts")).to_have_text("hello@example.com")
        b.look("brand-new")
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Saved.")).to_be_visible()
        expect(cover.locator(".cover-band")).to_have_css("background-color", "rgb(27, 58, 107)")
        b.look("brand-edit")
        page.get_by_role("link", name="Brand profiles", exact=True).first.click()
        expect(page.get_by_role("link", name="Main")).to_be_visible()
        b.look("brands")

        # Order a natal report: the place search fills the coordinates and the zone; the page
        # follows the job by itself until the PDF can be downloaded.
        page.get_by_role("link", name="Reports", exact=True).click()
        expect(page.get_by_text("No reports yet.")).to_be_visible()
        page.get_by_role("link", name="Order a natal report").click()
        page.get_by_label("Name of the person").fill("Somchai Portal")
        page.get_by_label("Birth date").fill("1990-05-17")
        page.get_by_label("Birth time (local)").fill("14:30")
        page.get_by_label("Search a place").press_sequentially("Bangk")
        page.get_by_role("button", name="Bangkok, TH (Asia/Bangkok)").click()
        expect(page.get_by_label("Latitude (north +)")).to_have_value("13.754")
        expect(page.get_by_label("Longitude (east +)")).to_have_value("100.5014")
        expect(page.get_by_label("Time zone")).to_have_value("Asia/Bangkok")
        page.get_by_label("Brand profile").select_option(label="Main")
        b.look("report-new")
        page.get_by_role("button", name="Order the report").click()
        download_link = page.get_by_role("link", name="Download")
        expect(download_link).to_be_visible(timeout=120_000)
        b.look("report-ready")
        with page.expect_download() as info:
            download_link.click()
        pdf = tmp_path / "report.pdf"
        info.value.save_as(pdf)
        assert pdf.read_bytes().startswith(b"%PDF")
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert "Somchai Portal" in text
        assert "Moon & Co" in text  # the brand profile chosen in the form
        b.go("/portal/reports")
        expect(page.locator("tbody tr")).to_have_count(1)
        expect(page.locator("tbody .badge")).to_have_text("Ready")
        expect(page.locator("tbody tr")).to_contain_text("Somchai Portal")  # the person's name
        b.look("reports")

        # CSRF: a POST without the token is refused, and the session survives it.
        status = page.evaluate(
            """fetch('/portal/logout', {method: 'POST', body: new URLSearchParams({}),
                redirect: 'manual'}).then(r => r.status)"""
        )
        assert status == 403
        forged = page.evaluate(
            """fetch('/portal/feeds', {method: 'POST', redirect: 'manual',
                body: new URLSearchParams({csrf_token: 'x', destination_url: 'https://a.b/',
                sign: 'leo'})}).then(r => r.status)"""
        )
        assert forged == 403
        b.go("/portal/dashboard")
        expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()

        # Delete the feed (after the confirmation dialog).
        b.go("/portal/feeds")
        page.locator("tbody a").first.click()
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Delete").click()
        expect(page.get_by_text("The feed is deleted.")).to_be_visible()
        expect(page.get_by_text("No feeds yet.")).to_be_visible()

        # The team: the owner invites a viewer; the link is shown once.
        page.get_by_role("link", name="Team", exact=True).click()
        expect(page.get_by_role("cell", name=EMAIL, exact=True)).to_be_visible()
        page.get_by_label("E-mail").fill(VIEWER)
        page.get_by_label("Role", exact=True).select_option("viewer")
        page.get_by_role("button", name="Send invitation").click()
        link = page.get_by_label("Invitation link").input_value()
        assert link.startswith(api.base_url + "/portal/accept-invitation?token=")
        expect(page.get_by_text("until")).to_be_visible()
        b.look("team")

        # Sign out: the session is revoked on the server, not only forgotten by the browser.
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_text("You are signed out.")).to_be_visible()
        assert "astro_portal_session" not in {c["name"] for c in context.cookies()}
        # The old token put back by hand is refused: the API revoked that session.
        context.add_cookies([{k: session[k] for k in ("name", "value", "domain", "path")}])
        b.go("/portal/dashboard")
        expect(page).to_have_url(api.base_url + "/portal/login?notice=expired")
        expect(page.get_by_text("Your session has ended.")).to_be_visible()

        # The viewer joins through the link and sees no control it could not use.
        page.goto(link)
        b.look("accept-invitation")
        page.get_by_label("Choose a password").fill(PASSWORD)
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_text("Your login is ready")).to_be_visible()
        page.get_by_label("E-mail").fill(VIEWER)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()
        expect(page.get_by_role("link", name="Team", exact=True)).to_have_count(0)
        expect(page.get_by_role("link", name="New feed")).to_have_count(0)
        expect(page.get_by_role("link", name="New brand profile")).to_have_count(0)
        expect(page.get_by_role("link", name="Read a new photo")).to_have_count(0)
        expect(page.locator("#visual-card")).to_contain_text("No readings yet.")
        b.look("viewer-dashboard")
        b.go("/portal/feeds")
        expect(page.get_by_role("link", name="New feed")).to_have_count(0)
        b.go("/portal/reports")
        expect(page.locator("tbody tr")).to_have_count(1)  # the account's reports
        expect(page.get_by_role("link", name="Order a natal report")).to_have_count(0)
        b.go("/portal/brands")
        page.get_by_role("link", name="Main").click()
        expect(page.get_by_label("Brand name (on the cover)")).to_be_disabled()
        expect(page.get_by_role("button", name="Save")).to_have_count(0)
        expect(page.get_by_role("button", name="Delete this profile")).to_have_count(0)
        b.look("viewer-brand")
        # Forged with the viewer's own valid CSRF token: the API refuses the role.
        for path, fields in (
            ("/portal/feeds", {"destination_url": destination, "sign": "leo"}),
            ("/portal/brands", {"name": "X", "brand_name": "X"}),
        ):
            status = page.evaluate(
                """([path, fields]) => fetch(path, {method: 'POST', body: new URLSearchParams(
                    {...fields, csrf_token: document.querySelector('[name=csrf_token]').value})
                }).then(r => r.status)""",
                [path, fields],
            )
            assert status == 403, path

        # The only failed loads are the forged POSTs above; no script error anywhere.
        refused = "Failed to load resource: the server responded with a status of 403 ()"
        assert errors == [refused] * 4
        context.close()
        chromium.close()
    assert len(b.checked) >= 20
