"""The portal's visual-reading pages in a real browser (Debian's Chromium through playwright)
against a live API process and a job worker on PostgreSQL and Redis, the photos kept by the
server's own (local) storage.

Covered: upload a face photo (Grace Hopper, matplotlib's sample) from the browser: the page's
script digests it with SubtleCrypto, gets the grant through the portal, PUTs the bytes to the
signed URL and completes and queues the reading; the reading page follows the job until it is
ready, shows the Thai sections chosen in the form, the measured features (class labels in English
and Thai, the API's code beside) with confidences and the overlay PNG (loaded: ``naturalWidth >
0``); delete the photo (after the confirmation; the text stays). A webhook delivery subscription: a
refused destination names the field; the signing secret is shown once; pause, resume, delete; an
e-mail delivery (no secret). The usage and cost page draws its SVG charts with titles and data
tables, and its numbers are the API's (costs as amounts with the raw micros). The dashboard's card
counts the readings and links the newest with its status. Thai throughout. Without JavaScript the
page says the upload needs it. A viewer sees no button it could not use and a forged upload step is
refused. axe-core finds no violation; screenshots at 1280 and 390 px go to
``tests/artifacts/portal/``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from astro_sdk import AstroClient
from astro_server.portal.i18n import messages
from astro_server.portal.visual import money
from tests._support.stack import Stack

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "packages/astro_server/tests"))
from _visual_support import encode, grace_hopper
from test_e2e_portal import (
    ARTIFACTS,
    CHROMIUM,
    EMAIL,
    LAUNCH_ARGS,
    PASSWORD,
    VIEWER,
    WIDTHS,
    Browser,
    create_customer,
)

playwright_sync = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def label_of(language: str, feature: str, code: str) -> str:
    """A class code's label as the portal's messages file has it."""
    return messages(language)[f"vvalue.{feature}.{code}"]


def sign_in(page: Any, base_url: str, email: str) -> None:
    page.goto(base_url + "/portal/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def test_visual_readings_in_the_portal(production_stack: Stack, tmp_path: Path) -> None:
    env = {"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1"}
    api = production_stack.server(env)
    production_stack.worker(env)  # runs the readings
    create_customer(production_stack)
    with AstroClient(base_url=api.base_url) as anonymous:
        owner = anonymous.auth.login(EMAIL, PASSWORD)
        invitation = owner.team.invite(email=VIEWER, role="viewer")
        anonymous.auth.accept_invitation(token=invitation.token, password=PASSWORD)
    photo = tmp_path / "grace-hopper.jpg"
    photo.write_bytes(encode(grace_hopper()))

    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        context = chromium.new_context(viewport={"width": WIDTHS["desktop"], "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        b = Browser(page, api.base_url)
        expect = playwright_sync.expect

        sign_in(page, api.base_url, EMAIL)
        page.get_by_role("link", name="Visual readings", exact=True).click()
        expect(page.get_by_role("heading", name="Visual readings", level=1)).to_be_visible()
        expect(page.get_by_text("No readings yet.")).to_be_visible()
        # http on 127.0.0.1 is a secure context: SubtleCrypto is there.
        assert page.evaluate("window.isSecureContext && !!crypto.subtle") is True
        # The hand is asked for palm readings only.
        expect(page.get_by_label("Hand", exact=True)).to_be_hidden()
        page.get_by_label("Palm reading").check()
        expect(page.get_by_label("Hand", exact=True)).to_be_visible()
        b.look("visual-empty")
        page.get_by_label("Face reading").check()
        expect(page.get_by_label("Hand", exact=True)).to_be_hidden()

        # Upload from the browser; the reading's page follows the job until it is ready.
        page.get_by_label("Language of the reading").select_option("th")
        page.get_by_label("Photo", exact=True).set_input_files(str(photo))
        with page.expect_request(lambda r: r.method == "PUT" and "/uploads/upl_" in r.url) as put:
            page.get_by_role("button", name="Upload and read").click()
        assert put.value.url.startswith(api.base_url + "/uploads/upl_")  # the browser's own PUT
        # Completing runs the validation, whose face detector loads on the server's first use.
        expect(page).to_have_url(
            re.compile(r".*/portal/visual/readings/vr_[0-9a-f]{24}$"), timeout=60_000
        )
        expect(page.get_by_role("heading", name="Face reading", level=1)).to_be_visible()
        expect(page.locator("[role=status] .badge")).to_have_text("Ready", timeout=120_000)
        reading_url = page.url
        reading_id = reading_url.rsplit("/", 1)[1]
        overlay = page.locator("#overlay")
        expect(overlay).to_be_visible()
        page.wait_for_function(
            "() => { const i = document.getElementById('overlay'); "
            "return i.complete && i.naturalWidth > 0; }"
        )
        overlay_src = overlay.get_attribute("src")
        assert overlay_src is not None
        assert overlay_src.startswith("/files/file_")
        # The sections in the language chosen in the form (Thai), marked as such.
        text = page.locator("section[lang=th]")
        expect(text.get_by_role("heading", name="รูปหน้า")).to_be_visible()
        # The measured features with their confidences (the API's numbers).
        with AstroClient(base_url=api.base_url) as anonymous:
            reading = anonymous.auth.login(EMAIL, PASSWORD).customer_visual_readings.get(reading_id)
        assert reading.reading is not None
        face_shape = reading.reading["features"]["face_shape"]
        row = page.get_by_role("row", name="Face shape")
        # The class as its English label, the API's code beside it.
        label = label_of("en", "face_shape", face_shape["value"])
        expect(row.get_by_role("cell").nth(0)).to_have_text(f"{label} {face_shape['value']}")
        expect(row.locator("code")).to_have_text(face_shape["value"])
        expect(row.locator("code")).to_have_attribute("title", "The code the API returns")
        zones = page.get_by_role("row", name="Three zones")
        dominant = reading.reading["features"]["zones"]["dominant"]
        expect(zones.get_by_role("cell").nth(0)).to_contain_text(label_of("en", "zones", dominant))
        expect(row.get_by_role("cell").nth(2)).to_have_text(
            f"{round(face_shape['confidence'] * 100)} %"
        )
        expect(page.get_by_role("row")).to_have_count(1 + len(reading.reading["features"]))
        b.look("visual-reading")

        # Delete the photo: the overlay goes, the text stays.
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Delete photo").click()
        expect(page.get_by_text("The photo and its overlay are deleted.")).to_be_visible()
        expect(page.locator("#overlay")).to_have_count(0)
        expect(page.get_by_role("button", name="Delete photo")).to_have_count(0)
        expect(text.get_by_role("heading", name="รูปหน้า")).to_be_visible()
        gone = page.evaluate("(src) => fetch(src).then(r => r.status)", overlay_src)
        assert gone == 410
        b.look("visual-photo-deleted")
        page.get_by_role("link", name="Visual readings", exact=True).first.click()
        expect(page.locator("tbody tr")).to_have_count(1)
        expect(page.locator("tbody .badge")).to_have_text("Ready")
        b.look("visual-list")

        # Delivery subscriptions: a refused destination names the field; the secret once.
        page.get_by_role("link", name="Deliveries").click()
        expect(page.get_by_text("No deliveries yet.")).to_be_visible()
        destination = page.get_by_label("Destination (https URL or e-mail)")
        destination.fill("http://127.0.0.1/hooks")
        page.get_by_role("button", name="Create delivery").click()
        expect(destination).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#destination-error")).not_to_be_empty()
        b.look("visual-delivery-refused")
        destination.fill("https://localhost:9/hooks")
        page.get_by_label("A photo was refused").check()
        page.get_by_role("button", name="Create delivery").click()
        expect(page.get_by_role("heading", name="Signing secret")).to_be_visible()
        secret = page.get_by_label("Secret").input_value()
        assert secret.startswith("whsec_")
        b.look("visual-delivery-secret")
        page.get_by_role("link", name="Done").click()
        expect(page.locator("tbody tr")).to_have_count(1)
        assert secret not in page.content()  # shown once only
        expect(page.locator("tbody li")).to_have_count(3)
        page.get_by_role("button", name="Pause").click()
        expect(page.get_by_text("The delivery is paused.")).to_be_visible()
        expect(page.locator("tbody .badge")).to_have_text("Paused")
        page.get_by_role("button", name="Resume").click()
        expect(page.locator("tbody .badge")).to_have_text("Active")
        # An e-mail delivery: no secret (e-mail is not signed).
        destination.fill("ops@example.com")
        page.get_by_role("button", name="Create delivery").click()
        expect(page.get_by_text("The delivery is created.")).to_be_visible()
        assert "whsec_" not in page.content()
        expect(page.locator("tbody tr")).to_have_count(2)
        mail_row = page.get_by_role("row", name="ops@example.com")
        expect(mail_row).to_contain_text("(e-mail)")
        b.look("visual-deliveries")
        page.once("dialog", lambda dialog: dialog.accept())
        mail_row.get_by_role("button", name="Delete").click()
        expect(page.get_by_text("The delivery is deleted.")).to_be_visible()
        expect(page.locator("tbody tr")).to_have_count(1)

        # Usage and cost: three charts (title, description, table), the API's numbers.
        page.get_by_role("link", name="Usage and cost").click()
        charts = page.locator("svg[role=img]")
        expect(charts).to_have_count(3)
        for i in range(3):
            chart = charts.nth(i)
            assert chart.locator("title").first.text_content()
            assert chart.locator("desc").text_content()
        expect(page.get_by_role("img", name="Readings per day")).to_be_visible()
        assert page.locator("#chart-jobs-title ~ rect").count() == 1  # one day, face readings
        page.get_by_text("Show the numbers as a table").first.click()
        totals = page.get_by_role("row", name="Face readings")
        expect(totals.get_by_role("cell").nth(0)).to_have_text("1")  # readings
        expect(totals.get_by_role("cell").nth(3)).to_have_text(str(reading.credits_charged))
        # Costs as amounts (micros / 10^6, every digit), the raw micros beside them.
        for i, micros in ((6, reading.estimated_cost_micros), (7, reading.actual_cost_micros)):
            expect(totals.get_by_role("cell").nth(i)).to_have_text(
                f"{money(micros)} {micros} micros"
            )
        expect(page.locator(".stats")).to_contain_text(money(reading.actual_cost_micros))
        b.look("visual-analytics")

        # The dashboard's card: readings of the last 30 days, the newest with its status.
        b.go("/portal/dashboard")
        card = page.locator("#visual-card")
        expect(card.get_by_role("heading", name="Visual readings")).to_be_visible()
        expect(card.locator(".stats dd")).to_have_text("1")
        expect(card.locator(".badge")).to_have_text("Ready")
        expect(card.get_by_role("link", name="Read a new photo")).to_be_visible()
        b.look("dashboard-visual")
        card.get_by_role("link", name=re.compile("^Face reading")).click()
        expect(page).to_have_url(reading_url)
        # A window the API refuses (over 366 days) is named on the form.
        b.go("/portal/visual/analytics?from=2024-01-01&to=2026-01-01")
        expect(page.get_by_role("alert")).to_be_visible()
        expect(page.locator("svg[role=img]")).to_have_count(0)

        # Thai.
        b.go("/portal/visual/analytics")
        page.get_by_role("link", name="ไทย").click()
        expect(page.get_by_role("heading", name="การใช้งานและค่าใช้จ่าย", level=1)).to_be_visible()
        expect(page.get_by_role("link", name="ดูลายมือและโหงวเฮ้ง", exact=True)).to_be_visible()
        expect(page.get_by_role("img", name="จำนวนการอ่านต่อวัน")).to_be_visible()
        b.look("visual-analytics-th")
        page.get_by_role("link", name="ผลการอ่าน", exact=True).click()
        expect(page.get_by_role("heading", name="อ่านจากภาพถ่ายใหม่")).to_be_visible()
        expect(page.get_by_role("button", name="อัปโหลดและอ่าน")).to_be_visible()
        expect(page.locator("tbody .badge")).to_have_text("พร้อมแล้ว")
        b.look("visual-th")
        b.go(reading_url.removeprefix(api.base_url))
        expect(page.get_by_role("heading", name="ดูโหงวเฮ้ง", level=1)).to_be_visible()
        thai_row = page.get_by_role("row", name="รูปหน้า")
        expect(thai_row.get_by_role("cell").nth(0)).to_have_text(
            f"{label_of('th', 'face_shape', face_shape['value'])} {face_shape['value']}"
        )
        b.look("visual-reading-th")
        b.go("/portal/dashboard")
        expect(page.locator("#visual-card h2")).to_have_text("ดูลายมือและโหงวเฮ้ง")
        expect(page.locator("#visual-card .badge")).to_have_text("พร้อมแล้ว")
        b.look("dashboard-visual-th")
        b.go("/portal/visual/deliveries")
        expect(page.get_by_role("button", name="สร้างการส่งแจ้งเตือน")).to_be_visible()
        b.look("visual-deliveries-th")
        page.get_by_role("link", name="English").click()

        # CSRF: an upload step without the page's token is refused.
        forged = page.evaluate(
            """fetch('/portal/visual/uploads', {method: 'POST', body: new URLSearchParams({
                kind: 'face', content_type: 'image/jpeg', content_length: '10',
                sha256: '0'.repeat(64)})}).then(r => r.status)"""
        )
        assert forged == 403

        # Delete the delivery (after the confirmation).
        b.go("/portal/visual/deliveries")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Delete").click()
        expect(page.get_by_text("The delivery is deleted.")).to_be_visible()
        expect(page.get_by_text("No deliveries yet.")).to_be_visible()
        # A delivery for the viewer to see.
        page.get_by_label("Destination (https URL or e-mail)").fill("https://localhost:9/v")
        page.get_by_role("button", name="Create delivery").click()
        expect(page.get_by_role("heading", name="Signing secret")).to_be_visible()
        page.get_by_role("button", name="Sign out").click()

        # The viewer sees the readings, the deliveries and the charts, and no button.
        sign_in(page, api.base_url, VIEWER)
        expect(page.locator("#visual-card .badge")).to_have_text("Ready")
        expect(
            page.locator("#visual-card").get_by_role("link", name="Read a new photo")
        ).to_have_count(0)
        b.go("/portal/visual")
        expect(page.locator("tbody tr")).to_have_count(1)
        expect(page.locator("#visual-upload")).to_have_count(0)
        expect(page.get_by_role("button", name="Upload and read")).to_have_count(0)
        b.look("viewer-visual")
        b.go(reading_url.removeprefix(api.base_url))
        expect(page.get_by_role("heading", name="Face reading", level=1)).to_be_visible()
        # No control in the page (the header's sign-out and test-mode switch aside).
        expect(page.locator("main").get_by_role("button")).to_have_count(0)
        b.look("viewer-visual-reading")
        b.go("/portal/visual/deliveries")
        expect(page.locator("tbody tr")).to_have_count(1)
        expect(page.locator("main").get_by_role("button")).to_have_count(0)
        expect(page.get_by_label("Destination (https URL or e-mail)")).to_have_count(0)
        b.look("viewer-visual-deliveries")
        b.go("/portal/visual/analytics")
        expect(page.locator("svg[role=img]")).to_have_count(3)
        b.look("viewer-visual-analytics")
        # With the viewer's own CSRF token: the API refuses the role.
        status = page.evaluate(
            """fetch('/portal/visual/uploads', {method: 'POST', body: new URLSearchParams({
                kind: 'face', content_type: 'image/jpeg', content_length: '10',
                sha256: '0'.repeat(64),
                csrf_token: document.querySelector('[name=csrf_token]').value})
            }).then(r => r.status)"""
        )
        assert status == 403

        # The only failed loads: the refused destination and window (400), the deleted
        # overlay (410) and the forged steps (403); no script error anywhere.
        assert errors, "the refused loads are reported"
        assert all(e.startswith("Failed to load resource") for e in errors), errors

        # Without JavaScript the page says the upload needs it (no fake fallback).
        plain = chromium.new_context(
            viewport={"width": WIDTHS["desktop"], "height": 900}, java_script_enabled=False
        )
        nojs = plain.new_page()
        sign_in(nojs, api.base_url, EMAIL)
        nojs.goto(api.base_url + "/portal/visual")
        expect(nojs.get_by_text("Uploading a photo needs JavaScript")).to_be_visible()
        expect(nojs.locator("#visual-upload")).to_be_hidden()
        nojs.screenshot(path=str(ARTIFACTS / "visual-nojs-desktop.png"), full_page=True)
        plain.close()
        context.close()
        chromium.close()
    assert len(b.checked) == 18
