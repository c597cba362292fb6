"""The customer portal in-process (SQLite and PostgreSQL): sign in and out through the API's
session semantics, cookie flags, CSRF refused without or with a wrong token, the feed pages
(create, secret shown once, pause/resume, delete), brand profiles, the language cookie, another
customer's objects answer 404, and no portal route appears in the OpenAPI document.
The browser tests are in tests/test_e2e_portal.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _platform_support import new_account, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import CustomerSession
from astro_server.portal import SESSION_COOKIE, csrf_token_for, i18n
from astro_server.settings import Settings

PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, allow_loopback_destinations=True)


async def customer(email: str) -> str:
    account_id, _ = await new_account()
    await accounts.create_customer(account_id, email, PASSWORD)
    return account_id


async def sign_in(app: Quart, email: str) -> tuple[Client, str]:
    """A cookie-keeping client signed in through the portal's form; returns its CSRF token."""
    await customer(email)
    client = app.test_client()
    form = await (await client.get("/portal/login")).get_data(as_text=True)
    login_token = CSRF.search(form)
    assert login_token
    response = await client.post(
        "/portal/login",
        form={"email": email, "password": PASSWORD, "csrf_token": login_token.group(1)},
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/portal/dashboard"
    page = await (await client.get("/portal/dashboard")).get_data(as_text=True)
    found = CSRF.search(page)
    assert found
    return client, found.group(1)


async def test_sign_in_sets_a_locked_down_cookie_and_sign_out_revokes_the_session(
    app: Quart,
) -> None:
    await customer("ana@example.com")
    client = app.test_client()
    form = await (await client.get("/portal/login")).get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    response = await client.post(
        "/portal/login",
        form={"email": "ana@example.com", "password": PASSWORD, "csrf_token": token.group(1)},
    )
    cookies = response.headers.getlist("Set-Cookie")
    session = next(c for c in cookies if c.startswith(SESSION_COOKIE + "="))
    assert "HttpOnly" in session
    assert "SameSite=Lax" in session
    assert "Path=/portal" in session
    assert "Secure" not in session  # plain http here; https sets Secure (below)
    assert "service_sess_" in session
    assert await CustomerSession.filter(revoked_at=None).count() == 1

    dashboard = await client.get("/portal/dashboard")
    assert dashboard.status_code == 200
    assert "default-src 'self'" in dashboard.headers["Content-Security-Policy"]
    assert dashboard.headers["Cache-Control"] == "no-store"
    csrf = CSRF.search(await dashboard.get_data(as_text=True))
    assert csrf
    out = await client.post("/portal/logout", form={"csrf_token": csrf.group(1)})
    assert out.status_code == 303
    assert out.headers["Location"] == "/portal/login?notice=signed_out"
    assert await CustomerSession.filter(revoked_at=None).count() == 0
    again = await client.get("/portal/dashboard")
    assert again.status_code == 303
    assert again.headers["Location"].startswith("/portal/login")


async def test_cookie_is_secure_over_https_and_a_wrong_password_is_refused(app: Quart) -> None:
    await customer("bo@example.com")
    client = app.test_client()
    form = await (await client.get("/portal/login", scheme="https")).get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    wrong = await client.post(
        "/portal/login",
        form={"email": "bo@example.com", "password": "nope", "csrf_token": token.group(1)},
        scheme="https",
    )
    assert wrong.status_code == 401
    assert i18n.translate("en", "login.failed") in await wrong.get_data(as_text=True)
    form = await wrong.get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    right = await client.post(
        "/portal/login",
        form={"email": "bo@example.com", "password": PASSWORD, "csrf_token": token.group(1)},
        scheme="https",
    )
    session = next(
        c for c in right.headers.getlist("Set-Cookie") if c.startswith(SESSION_COOKIE + "=")
    )
    assert "Secure" in session
    assert "HttpOnly" in session


async def test_posts_without_or_with_a_wrong_csrf_token_are_refused(app: Quart) -> None:
    client, csrf = await sign_in(app, "cy@example.com")
    for form in ({}, {"csrf_token": ""}, {"csrf_token": "0" * 64}):
        refused = await client.post(
            "/portal/feeds",
            form={**form, "destination_url": "https://example.com/x", "sign": "leo"},
        )
        assert refused.status_code == 403
        out = await client.post("/portal/logout", form=form)
        assert out.status_code == 403
    assert await CustomerSession.filter(revoked_at=None).count() == 1
    # Another session's token is not this session's.
    other, other_csrf = await sign_in(app, "cy2@example.com")
    assert other_csrf != csrf
    assert (await other.post("/portal/logout", form={"csrf_token": csrf})).status_code == 403
    async with app.app_context():
        assert csrf_token_for("service_sess_x") != csrf_token_for("service_sess_y")
    # The sign-in form's token is a double-submit cookie: a form without it is refused.
    fresh = app.test_client()
    login = await fresh.post(
        "/portal/login", form={"email": "cy@example.com", "password": PASSWORD}
    )
    assert login.status_code == 403


async def test_feed_pages_create_pause_resume_delete(app: Quart) -> None:
    client, csrf = await sign_in(app, "di@example.com")
    new = await client.get("/portal/feeds/new")
    assert 'list="zones"' in await new.get_data(as_text=True)
    refused = await client.post(
        "/portal/feeds",
        form={
            "csrf_token": csrf, "destination_url": "https://10.0.0.1/x", "sign": "leo",
            "language": "en", "timezone": "UTC", "delivery_time": "08:00",
        },
    )  # fmt: skip
    assert refused.status_code == 400
    body = await refused.get_data(as_text=True)
    assert 'aria-invalid="true"' in body
    assert "https://10.0.0.1/x" in body
    bad_zone = await client.post(
        "/portal/feeds",
        form={
            "csrf_token": csrf, "destination_url": "https://127.0.0.1:9/hook", "sign": "leo",
            "language": "th", "timezone": "Mars/Olympus", "delivery_time": "07:30",
        },
    )  # fmt: skip
    assert bad_zone.status_code == 400
    created = await client.post(
        "/portal/feeds",
        form={
            "csrf_token": csrf, "destination_url": "https://127.0.0.1:9/hook", "sign": "leo",
            "language": "th", "timezone": "Asia/Bangkok", "delivery_time": "07:30",
        },
    )  # fmt: skip
    assert created.status_code == 201
    page = await created.get_data(as_text=True)
    secret = re.search(r'value="(whsec_[^"]+)"', page)
    assert secret
    sub_id = re.search(r"/portal/feeds/(hfs_[0-9a-f]{24})", page)
    assert sub_id
    detail = await client.get(f"/portal/feeds/{sub_id.group(1)}")
    text = await detail.get_data(as_text=True)
    assert secret.group(1) not in text  # shown once only
    assert "Asia/Bangkok" in text
    assert "07:30" in text
    listing = await (await client.get("/portal/feeds")).get_data(as_text=True)
    assert "https://127.0.0.1:9/hook" in listing

    base = f"/portal/feeds/{sub_id.group(1)}"
    paused = await client.post(f"{base}/active", form={"csrf_token": csrf, "active": "false"})
    assert paused.headers["Location"] == f"{base}?notice=paused"
    assert "Resume" in await (await client.get(base)).get_data(as_text=True)
    resumed = await client.post(f"{base}/active", form={"csrf_token": csrf, "active": "true"})
    assert resumed.headers["Location"] == f"{base}?notice=resumed"
    rotated = await client.post(f"{base}/rotate-secret", form={"csrf_token": csrf})
    new_secret = re.search(r'value="(whsec_[^"]+)"', await rotated.get_data(as_text=True))
    assert new_secret
    assert new_secret.group(1) != secret.group(1)
    deleted = await client.post(f"{base}/delete", form={"csrf_token": csrf})
    assert deleted.headers["Location"] == "/portal/feeds?notice=deleted"
    assert (await client.get(base)).status_code == 404

    # Another customer's feed is 404 through the portal too.
    other, other_csrf = await sign_in(app, "ed@example.com")
    theirs = await other.post(
        "/portal/feeds",
        form={
            "csrf_token": other_csrf, "destination_url": "https://127.0.0.1:9/e",
            "sign": "aries", "language": "en", "timezone": "UTC", "delivery_time": "08:00",
        },
    )  # fmt: skip
    their_id = re.search(r"/portal/feeds/(hfs_[0-9a-f]{24})", await theirs.get_data(as_text=True))
    assert their_id
    assert (await client.get(f"/portal/feeds/{their_id.group(1)}")).status_code == 404
    gone = await client.post(f"/portal/feeds/{their_id.group(1)}/delete", form={"csrf_token": csrf})
    assert gone.status_code == 404
    assert (await other.get(f"/portal/feeds/{their_id.group(1)}")).status_code == 200


async def test_brand_profile_create_edit_and_errors(app: Quart) -> None:
    client, csrf = await sign_in(app, "fa@example.com")
    form = {
        "csrf_token": csrf, "name": "Main", "brand_name": "Moon & Co", "primary_color": "#12AB34",
        "logo_url": "", "contact_email": "hi@example.com", "contact_phone": "", "contact_url": "",
    }  # fmt: skip
    bad = await client.post("/portal/brands", form={**form, "contact_phone": "12"})
    assert bad.status_code == 400
    assert 'aria-invalid="true"' in await bad.get_data(as_text=True)
    created = await client.post("/portal/brands", form=form)
    assert created.status_code == 303
    location = created.headers["Location"]
    assert re.fullmatch(r"/portal/brands/brand_[0-9a-f]{24}\?notice=saved", location)
    edit = await (await client.get(location)).get_data(as_text=True)
    assert "Moon &amp; Co" in edit
    assert "primary_color=%2312AB34" in edit  # the cover preview's address carries the colour
    path = location.split("?")[0]
    saved = await client.post(path, form={**form, "primary_color": "#000000", "contact_email": ""})
    assert saved.status_code == 303
    edit = await (await client.get(path)).get_data(as_text=True)
    assert "primary_color=%23000000" in edit
    assert "hi@example.com" not in edit
    assert "Moon &amp; Co" in await (await client.get("/portal/brands")).get_data(as_text=True)
    deleted = await client.post(f"{path}/delete", form={"csrf_token": csrf})
    assert deleted.headers["Location"] == "/portal/brands?notice=profile_deleted"
    assert (await client.get(path)).status_code == 404


async def test_language_is_remembered_and_every_key_exists_in_thai(app: Quart) -> None:
    assert set(i18n.messages("en")) == set(
        __import__("json").loads(
            (Path(i18n.__file__).parent / "messages" / "th.json").read_text(encoding="utf-8")
        )
    )
    client, _ = await sign_in(app, "gi@example.com")
    switched = await client.get("/portal/language/th?next=/portal/feeds")
    assert switched.headers["Location"] == "/portal/feeds"
    assert "astro_portal_lang=th" in switched.headers["Set-Cookie"]
    page = await (await client.get("/portal/feeds")).get_data(as_text=True)
    assert '<html lang="th">' in page
    assert "ฟีดดวงรายวัน" in page
    # An open redirect is not possible through next=.
    for target in ("https://evil.example/", "//evil.example/portal", "/portal\\@evil"):
        away = await client.get("/portal/language/en", query_string={"next": target})
        assert away.headers["Location"] == "/portal/"


async def test_portal_routes_are_not_in_the_openapi_document(app: Quart) -> None:
    document = await (await app.test_client().get("/openapi.json")).get_json()
    assert not [path for path in document["paths"] if path.startswith("/portal")]


def test_place_search_prefix_accents_thai_and_limits() -> None:
    from astro_server.portal import places

    assert places.search("b") == []  # fewer than two characters
    (bangkok, *_) = places.search("bangk")
    # GeoNames 1609350 (Bangkok): 13.75398 N, 100.50144 E, Asia/Bangkok.
    assert bangkok["label"] == "Bangkok, TH"
    assert abs(bangkok["latitude"] - 13.754) < 1e-3
    assert abs(bangkok["longitude"] - 100.5014) < 1e-3
    assert bangkok["timezone"] == "Asia/Bangkok"
    assert places.search("sao paulo")[0]["label"] == "São Paulo, BR"  # accents folded
    (chiang_mai, *_) = places.search("เชียงใหม่", "th")
    assert chiang_mai["label"] == "เชียงใหม่, TH"
    assert chiang_mai["timezone"] == "Asia/Bangkok"
    assert len(places.search("san")) == places.MAX_RESULTS


async def test_report_form_names_coordinates_that_are_not_numbers(app: Quart) -> None:
    client, csrf = await sign_in(app, "ha@example.com")
    new = await (await client.get("/portal/reports/new")).get_data(as_text=True)
    assert "data-place-search" in new
    refused = await client.post(
        "/portal/reports",
        form={
            "csrf_token": csrf, "name": "X", "date": "1990-05-17", "time": "14:30",
            "place": "", "latitude": "north", "longitude": "100.5", "timezone": "",
            "house_system": "P", "locale": "en", "format": "html", "brand_profile_id": "",
        },
    )  # fmt: skip
    assert refused.status_code == 400
    body = await refused.get_data(as_text=True)
    assert 'id="latitude-error"' in body
    found = await client.get("/portal/places?q=bangk")
    assert (await found.get_json())["places"][0]["timezone"] == "Asia/Bangkok"
    assert (await client.get("/portal/reports")).status_code == 200
    assert (await client.get("/portal/reports/rep_" + "0" * 24)).status_code == 404


async def login_client(app: Quart, email: str) -> tuple[Client, str]:
    client = app.test_client()
    form = await (await client.get("/portal/login")).get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    response = await client.post(
        "/portal/login", form={"email": email, "password": PASSWORD, "csrf_token": token.group(1)}
    )
    assert response.status_code == 303
    page = await (await client.get("/portal/dashboard")).get_data(as_text=True)
    found = CSRF.search(page)
    assert found
    return client, found.group(1)


async def test_each_role_sees_only_the_controls_it_may_use(app: Quart) -> None:
    account_id, _ = await new_account("enterprise")
    await accounts.create_customer(account_id, "owner@example.com", PASSWORD)
    owner, owner_csrf = await login_client(app, "owner@example.com")
    assert "/portal/team" in await (await owner.get("/portal/dashboard")).get_data(as_text=True)
    links: dict[str, str] = {}
    for role in ("member", "admin", "viewer"):
        invited = await owner.post(
            "/portal/team/invitations",
            form={"csrf_token": owner_csrf, "email": f"{role}@example.com", "role": role},
        )
        assert invited.status_code == 201
        link = re.search(r'value="(http[^"]+accept-invitation\?token=[^"]+)"',
                         await invited.get_data(as_text=True))  # fmt: skip
        assert link
        links[role] = link.group(1).split("/portal/", 1)[1]
    for role, path in links.items():
        fresh = app.test_client()
        form = await (await fresh.get("/portal/" + path.replace("&amp;", "&"))).get_data(
            as_text=True
        )
        token = re.search(r'name="token" value="([^"]+)"', form)
        login_token = CSRF.search(form)
        assert token
        assert login_token
        joined = await fresh.post(
            "/portal/accept-invitation",
            form={
                "token": token.group(1),
                "password": PASSWORD,
                "csrf_token": login_token.group(1),
            },
        )
        assert joined.headers["Location"] == "/portal/login?notice=joined", role

    expected = {
        # role: (New feed, New brand profile, Order a report, Team link)
        "viewer": (False, False, False, False),
        "member": (True, False, True, False),
        "admin": (True, True, True, True),
    }
    for role, (feed, brand, report, team_link) in expected.items():
        client, csrf = await login_client(app, f"{role}@example.com")
        dashboard = await (await client.get("/portal/dashboard")).get_data(as_text=True)
        assert ('href="/portal/feeds/new"' in dashboard) is feed, role
        assert ('href="/portal/brands/new"' in dashboard) is brand, role
        assert ('href="/portal/team"' in dashboard) is team_link, role
        reports = await (await client.get("/portal/reports")).get_data(as_text=True)
        assert ('href="/portal/reports/new"' in reports) is report, role
        # The API decides: a brand profile from a member or viewer is a 403 page.
        made = await client.post(
            "/portal/brands", form={"csrf_token": csrf, "name": "B", "brand_name": "B",
                                    "primary_color": "", "logo_url": "", "contact_email": "",
                                    "contact_phone": "", "contact_url": ""},
        )  # fmt: skip
        assert made.status_code == (303 if brand else 403), role
    # Only the owner changes the team, whatever the page shows.
    admin, admin_csrf = await login_client(app, "admin@example.com")
    team_page = await (await admin.get("/portal/team")).get_data(as_text=True)
    assert "/portal/team/invitations" not in team_page
    forged = await admin.post(
        "/portal/team/invitations",
        form={"csrf_token": admin_csrf, "email": "x@example.com", "role": "owner"},
    )
    assert forged.status_code == 403


# --- rough edges (issue 31) ---------------------------------------------------------------------

REPORT_FORM = {
    "name": "สมชาย ใจดี", "date": "1990-05-17", "time": "14:30", "place": "Bangkok, TH",
    "latitude": "13.754", "longitude": "100.5014", "timezone": "Asia/Bangkok",
    "house_system": "W", "locale": "th", "format": "pdf", "brand_profile_id": "",
}  # fmt: skip


async def test_the_css_names_bundled_fonts_and_they_are_served_with_long_caching(
    app: Quart,
) -> None:
    client = app.test_client()
    css = await (await client.get("/portal/static/portal.css")).get_data(as_text=True)
    faces = re.findall(r'font-family: "([^"]+)";[^}]*url\("([^"]+)"\)', css)
    assert ("Noto Sans Thai", "/portal/fonts/NotoSansThai-Regular.ttf") in faces
    assert ("Noto Sans", "/portal/fonts/NotoSans-Regular.ttf") in faces
    assert 'url("http' not in css  # no CDN
    for _family, url in faces:
        answer = await client.get(url)
        assert answer.status_code == 200, url
        assert answer.mimetype == "font/ttf"
        assert answer.cache_control.max_age == 30 * 24 * 3600
        assert answer.cache_control.public
        assert (await answer.get_data())[:4] == b"\x00\x01\x00\x00"  # a TrueType file
    # Only the listed faces: no path into the package.
    assert (await client.get("/portal/fonts/OFL.txt")).status_code == 404
    assert (await client.get("/portal/fonts/..%2F__init__.py")).status_code == 404


async def test_the_first_visit_follows_accept_language_and_the_cookie_wins(app: Quart) -> None:
    client = app.test_client()
    thai = await client.get("/portal/login", headers={"Accept-Language": "th-TH,th;q=0.9,en;q=0.5"})
    assert '<html lang="th">' in await thai.get_data(as_text=True)
    german = await client.get("/portal/login", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="en">' in await german.get_data(as_text=True)  # neither: English
    await client.get("/portal/language/en")
    chosen = await client.get("/portal/login", headers={"Accept-Language": "th"})
    assert '<html lang="en">' in await chosen.get_data(as_text=True)


async def test_the_language_is_stored_on_the_login_and_comes_back_at_sign_in(app: Quart) -> None:
    from astro_server.platform.models.accounts import Customer

    client, _ = await sign_in(app, "lang@example.com")
    assert (await Customer.get(email="lang@example.com")).language is None
    await client.get("/portal/language/th?next=/portal/dashboard")
    assert (await Customer.get(email="lang@example.com")).language == "th"
    # Another browser, English by its headers and no cookie: signed in, the page is Thai.
    other = app.test_client()
    form = await (await other.get("/portal/login")).get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    signed = await other.post(
        "/portal/login",
        form={"email": "lang@example.com", "password": PASSWORD, "csrf_token": token.group(1)},
        headers={"Accept-Language": "en"},
    )
    assert any(c.startswith("astro_portal_lang=th;") for c in signed.headers.getlist("Set-Cookie"))
    page = await other.get("/portal/dashboard", headers={"Accept-Language": "en"})
    assert '<html lang="th">' in await page.get_data(as_text=True)


async def test_an_unknown_portal_address_is_the_portals_404_page(app: Quart) -> None:
    client = app.test_client()
    for path in ("/portal/nothing-here", "/portal/feeds/x/y/z", "/portal/static-ish"):
        answer = await client.get(path, headers={"Accept-Language": "th"})
        assert answer.status_code == 404, path
        assert answer.mimetype == "text/html"
        body = await answer.get_data(as_text=True)
        assert '<html lang="th">' in body
        assert i18n.translate("th", "error.not_found") in body
    signed, _ = await sign_in(app, "lost@example.com")
    english = await signed.get("/portal/no-such-page")
    assert english.status_code == 404
    assert i18n.translate("en", "error.not_found") in await english.get_data(as_text=True)
    # The API outside /portal keeps its JSON 404.
    assert (await client.get("/no-such-api-route")).mimetype == "application/json"


async def test_a_starter_account_ordering_a_report_is_told_the_tier_and_keeps_its_form(
    app: Quart,
) -> None:
    from astro_server.platform.billing.pricing import OPERATIONS

    row = OPERATIONS["reports.natal_pdf"]
    account_id, _ = await new_account("starter", 100)
    await accounts.create_customer(account_id, "starter@example.com", PASSWORD)
    client, csrf = await login_client(app, "starter@example.com")
    await client.get("/portal/language/th")
    new = await (await client.get("/portal/reports/new")).get_data(as_text=True)
    # The price and the tier are shown before submitting, from the price table.
    price = i18n.translate(
        "th", "report.price", credits=row.credits, tier=i18n.translate("th", "tier." + row.tier)
    )
    assert price in new
    refused = await client.post("/portal/reports", form={"csrf_token": csrf, **REPORT_FORM})
    assert refused.status_code == 403
    body = await refused.get_data(as_text=True)
    expected = i18n.translate(
        "th", "report.tier_required", tier=i18n.translate("th", "tier." + row.tier)
    )
    assert expected in body
    assert i18n.translate("th", "error.forbidden") not in body  # not the role's refusal
    assert "needs the" not in body  # no English sentence from the API
    assert 'id="report-form"' in body  # the form is kept, with what was typed
    assert 'value="สมชาย ใจดี"' in body
    assert 'value="13.754"' in body
    assert '<option value="W" selected>' in body
    assert '<option value="th" selected>' in body


async def test_the_reports_list_labels_each_kind_and_names_the_person(app: Quart) -> None:
    from datetime import UTC, datetime

    from astro_server.features.reports.models import Report
    from astro_server.platform.auth import credentials
    from astro_server.platform.models.jobs import Job

    account_id, _ = await new_account("pro", 0)
    await accounts.create_customer(account_id, "hr@example.com", PASSWORD)
    client, _ = await login_client(app, "hr@example.com")
    now = datetime.now(UTC)
    made = {
        "hr_screening": {"assessment": {"candidate_summary": {"name": "Nok Srisuk"}}},
        "natal": {"request": {"name": "Emma Clarke"}},
    }
    for kind, params in made.items():
        job = await Job.create(
            id=credentials.new_id("job_"), account_id=account_id, kind=f"reports.{kind}",
            params={"report_id": "x", **params}, created_at=now, status="queued",
        )  # fmt: skip
        await Report.create(
            id=credentials.new_id("rep_"), account_id=account_id, kind=kind, format="pdf",
            locale="en", status="queued", job_id=job.id, created_at=now,
        )  # fmt: skip
    page = await (await client.get("/portal/reports")).get_data(as_text=True)
    assert f"{i18n.translate('en', 'reports.hr_screening')} · PDF" in page
    assert f"{i18n.translate('en', 'reports.natal')} · PDF" in page
    assert page.count(i18n.translate("en", "reports.natal")) == 1  # the HR row is not "Natal"
    assert "Nok Srisuk" in page
    assert "Emma Clarke" in page


def _cover(html: str) -> str:
    start = html.index('<section class="cover">')
    return html[start : html.index("</section>", start) + len("</section>")]


def test_the_brand_preview_is_the_reports_own_cover() -> None:
    """The preview document and the natal report share one cover: the same markup for the same
    brand, person, birth and time (Thai title included), and the report's stylesheet."""
    from datetime import UTC, datetime

    from astro_calc.western import BirthSubject, natal_chart
    from astro_server.features.reports.render.branding import ReportBrand
    from astro_server.features.reports.render.html import labels
    from astro_server.features.reports.render.natal import cover_preview_html, natal_report_html

    chart = natal_chart(
        BirthSubject(
            date=__import__("datetime").date(1990, 4, 13), time="08:30", latitude=13.7563,
            longitude=100.5018, timezone="Asia/Bangkok",
        ),
        house_system="P",
        include_minor=False,
    )  # fmt: skip
    brand = ReportBrand(name="ดวงดาว", primary_color="#0f7b6c", contact_email="a@example.com")
    when = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    report = natal_report_html(
        chart, person_name="สมหญิง ใจดี", locale="th", brand=brand, generated_at=when
    )
    preview = cover_preview_html(
        chart, person_name="สมหญิง ใจดี", locale="th", brand=brand, generated_at=when
    )
    assert _cover(preview) == _cover(report)
    assert labels("th")["report_title"] in _cover(preview)
    assert "--brand: #0f7b6c;" in preview
    assert ".cover-band {" in preview  # the report's stylesheet, not a look-alike


async def test_the_brand_form_frames_the_cover_preview(app: Quart) -> None:
    from astro_server.features.reports.render.html import labels

    client, _ = await sign_in(app, "brand-preview@example.com")
    await client.get("/portal/language/th")
    form = await (await client.get("/portal/brands/new")).get_data(as_text=True)
    found = re.search(r'<iframe id="cover"[^>]* src="([^"]+)"', form)
    assert found
    assert found.group(1).startswith("/portal/brands/preview?lang=th")
    answer = await client.get(
        "/portal/brands/preview",
        query_string={
            "lang": "th", "brand_name": "Siam Stars", "primary_color": "#0f7b6c",
            "contact_email": "hello@example.com", "logo_url": "javascript:alert(1)",
        },
    )  # fmt: skip
    assert answer.status_code == 200
    assert "frame-ancestors 'self'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Frame-Options"] == "SAMEORIGIN"
    html = await answer.get_data(as_text=True)
    cover = _cover(html)
    assert labels("th")["report_title"] in cover
    assert "Siam Stars" in cover
    assert "hello@example.com" in cover
    assert "javascript:" not in html
    assert "--brand: #0f7b6c;" in html
    assert 'url("/portal/fonts/NotoSerifThai-Bold.ttf")' in html
    assert (await client.get("/portal/fonts/NotoSerifThai-Bold.ttf")).status_code == 200
    # Every other portal page stays unframeable.
    assert (await client.get("/portal/brands/new")).headers["X-Frame-Options"] == "DENY"
