"""The portal's Developers area in-process (issue 31): the overview's balance, tier, month's
spend and charts with their tables; the ledger paged with links to jobs and reports; API keys
made live and test (secret shown once), rotated and revoked; the header's test-mode switch;
webhook endpoints (secret once, events edited, paused, tested, a failed delivery retried); the
audit log filtered; every form refused without its CSRF token; a viewer sees no controls and
is refused by the API; another account's ids are the portal's 404 page; every key in Thai.
The browser tests (axe, 1280 and 390 px, English and Thai): tests/test_e2e_portal_developers.py.
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _platform_support import key_headers, new_account, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.reports.models import Report
from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery.http import AttemptResult
from astro_server.platform.models.accounts import Customer
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.models.delivery import FeedDelivery
from astro_server.platform.models.jobs import Job
from astro_server.portal import i18n
from astro_server.portal.developers import MODE_COOKIE
from astro_server.settings import Settings

PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HOOK = "https://127.0.0.1:9/hook"


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return settings_for(
        f"sqlite://{tmp_path / 'astro.sqlite3'}",
        tmp_path,
        allow_loopback_destinations=True,
        buy_credits_url="https://127.0.0.1:8443/buy",
    )


class Receiver:
    """Stands in for the customer's endpoint: answers 200 "thanks" (no socket)."""

    async def post(self, url: str, body: bytes, headers: dict[str, str]) -> AttemptResult:
        return AttemptResult(status=200, duration_ms=7, response_body="thanks", error=None)


@pytest.fixture(autouse=True)
def receiver() -> Iterator[None]:
    delivery_common.set_client(Receiver())  # type: ignore[arg-type]
    yield
    delivery_common.set_client(None)


async def login(app: Quart, account_id: str, email: str, role: str = "owner") -> tuple[Client, str]:
    customer = await accounts.create_customer(account_id, email, PASSWORD)
    await Customer.filter(id=customer.id).update(role=role)
    client = app.test_client()
    form = await (await client.get("/portal/login")).get_data(as_text=True)
    token = CSRF.search(form)
    assert token
    signed = await client.post(
        "/portal/login", form={"email": email, "password": PASSWORD, "csrf_token": token.group(1)}
    )
    assert signed.status_code == 303
    page = await (await client.get("/portal/developers")).get_data(as_text=True)
    found = CSRF.search(page)
    assert found
    return client, found.group(1)


def multi(*pairs: tuple[str, str]) -> dict[str, Any]:
    """A form with a repeated field (checkboxes), as a browser sends it."""
    return {
        "data": urlencode(pairs),
        "headers": {"Content-Type": "application/x-www-form-urlencoded"},
    }


async def text(client: Client, path: str, status: int = 200) -> str:
    answer = await client.get(path)
    body = await answer.get_data(as_text=True)
    assert answer.status_code == status, (path, answer.status_code, body[:500])
    return body


async def test_overview_shows_balance_tier_spend_charts_and_the_buy_link(app: Quart) -> None:
    account_id, _ = await new_account("pro", credits=1234)
    client, _ = await login(app, account_id, "dev@example.com")
    now = datetime.now(UTC)
    for amount in (-4, -6):
        await LedgerEntry.create(
            account_id=account_id, kind="debit", amount=amount, operation="western.natal"
        )
    body = await text(client, "/portal/developers")
    assert "1,234" in body
    assert i18n.translate("en", "dev.tier_pro") in body
    stats = re.search(r'Spent this month</dt><dd><span class="money">(\d+)<', body)
    assert stats
    assert stats.group(1) == "10"
    assert 'href="https://127.0.0.1:8443/buy"' in body
    assert f"astro-server add-credits --account {account_id} --credits 1000" in body
    # The charts: an SVG per grouping, each with a table holding the same numbers.
    assert body.count("<svg viewBox") == 2
    assert '<th scope="row" class="mono">western.natal</th>' in body
    today = now.date().isoformat()
    row = re.search(rf'<th scope="row">{today}</th>\s*<td[^>]*>(\d+)</td>', body)
    assert row
    assert row.group(1) == "2"
    # A window that runs backwards is named on the form.
    bad = await text(client, f"/portal/developers?from={today}&to=2000-01-01", 400)
    assert 'id="from-error"' in bad


async def test_ledger_pages_and_links_rows_to_their_job_or_report(app: Quart) -> None:
    account_id, _ = await new_account("pro")
    client, _ = await login(app, account_id, "dev@example.com")
    job = await Job.create(
        id="job_" + secrets.token_hex(12), account_id=account_id, kind="reports.natal",
        params={}, created_at=datetime.now(UTC),
    )  # fmt: skip
    lone = await Job.create(
        id="job_" + secrets.token_hex(12), account_id=account_id, kind="western.natal",
        params={}, created_at=datetime.now(UTC),
    )  # fmt: skip
    report = await Report.create(
        id="rep_" + secrets.token_hex(12), account_id=account_id, job_id=job.id,
        created_at=datetime.now(UTC),
    )  # fmt: skip
    for _n in range(55):
        await LedgerEntry.create(
            account_id=account_id, kind="debit", amount=-1, operation="western.natal"
        )
    await LedgerEntry.create(
        account_id=account_id, kind="debit", amount=-3, operation="x", job_id=lone.id
    )
    await LedgerEntry.create(
        account_id=account_id, kind="debit", amount=-9, operation="reports.natal", job_id=job.id
    )
    first = await text(client, "/portal/developers/ledger")
    assert first.count("<tr>") == 1 + 50  # the head and 50 rows
    assert f'href="/portal/reports/{report.id}"' in first
    assert f'href="/portal/developers/jobs/{lone.id}"' in first
    cursor = re.search(r'href="/portal/developers/ledger\?cursor=([^"]+)"', first)
    assert cursor
    second = await text(client, f"/portal/developers/ledger?cursor={cursor.group(1)}")
    assert second.count("<tr>") == 1 + 7
    assert 'href="/portal/developers/ledger?cursor=' not in second
    detail = await text(client, f"/portal/developers/jobs/{lone.id}")
    assert "western.natal" in detail
    other_id, _ = await new_account("pro")
    stranger, _ = await login(app, other_id, "stranger@example.com")
    await text(stranger, f"/portal/developers/jobs/{lone.id}", 404)


async def test_keys_live_and_test_secret_once_rotate_revoke_and_the_mode_switch(
    app: Quart,
) -> None:
    account_id, _ = await new_account("pro")
    client, csrf = await login(app, account_id, "dev@example.com")
    made = await client.post(
        "/portal/developers/keys",
        **multi(("csrf_token", csrf), ("name", "billing job"), ("environment", "live"),
                ("scopes", "western"), ("scopes", "reports")),
    )  # fmt: skip
    assert made.status_code == 201
    secret_page = await made.get_data(as_text=True)
    secret = re.search(r'id="api-key-secret" class="mono" readonly value="(ak_live_[^"]+)"',
                       secret_page)  # fmt: skip
    assert secret
    assert 'data-copy="api-key-secret"' in secret_page
    answer = await client.get("/api/v3/account", headers=key_headers(secret.group(1)))
    assert answer.status_code == 200
    listing = await text(client, "/portal/developers/keys")
    assert secret.group(1) not in listing  # shown once
    assert secret.group(1)[:12] in listing
    assert "billing job" in listing
    assert "reports, western" in listing  # scopes are listed in order
    key_id = re.search(r"/portal/developers/keys/(key_[a-f0-9]{24})/rotate", listing)
    assert key_id

    rotated = await client.post(
        f"/portal/developers/keys/{key_id.group(1)}/rotate",
        form={"csrf_token": csrf, "grace_s": "3600"},
    )
    assert rotated.status_code == 200
    rotation = await rotated.get_data(as_text=True)
    assert "keeps working until" in rotation
    new_secret = re.search(r'readonly value="(ak_live_[^"]+)"', rotation)
    assert new_secret
    assert new_secret.group(1) != secret.group(1)
    still = await client.get("/api/v3/account", headers=key_headers(secret.group(1)))
    assert still.status_code == 200  # the grace period
    listing = await text(client, "/portal/developers/keys")
    new_id = re.findall(r"/portal/developers/keys/(key_[a-f0-9]{24})/revoke", listing)
    assert len(new_id) == 3  # the account's first key, the rotated one, the new one
    revoke = await client.post(
        f"/portal/developers/keys/{new_id[0]}/revoke", form={"csrf_token": csrf}
    )
    assert revoke.headers["Location"] == "/portal/developers/keys?notice=key_revoked"
    gone = await client.get("/api/v3/account", headers=key_headers(new_secret.group(1)))
    assert gone.status_code == 401

    # The test-mode switch: a POST with the CSRF token; then test keys only, and the banner.
    switched = await client.post(
        "/portal/mode", form={"csrf_token": csrf, "mode": "test", "next": "/portal/developers/keys"}
    )
    assert switched.status_code == 303
    assert switched.headers["Location"] == "/portal/developers/keys"
    cookie = next(c for c in switched.headers.getlist("Set-Cookie") if c.startswith(MODE_COOKIE))
    assert "HttpOnly" in cookie
    assert "Path=/portal" in cookie
    test_listing = await text(client, "/portal/developers/keys")
    assert 'class="test-banner"' in test_listing
    assert 'aria-pressed="true"' in test_listing
    assert "billing job" not in test_listing
    made_test = await client.post(
        "/portal/developers/keys",
        form={"csrf_token": csrf, "name": "sandbox", "environment": "test", "scopes": "*"},
    )
    assert re.search(r'readonly value="ak_test_', await made_test.get_data(as_text=True))
    assert "sandbox" in await text(client, "/portal/developers/keys")
    # A live key's id in test mode is another mode's: the portal's 404 page.
    wrong = await client.post(
        f"/portal/developers/keys/{new_id[1]}/revoke", form={"csrf_token": csrf}
    )
    assert wrong.status_code == 404
    await client.post("/portal/mode", form={"csrf_token": csrf, "mode": "live", "next": "/portal/"})
    assert 'class="test-banner"' not in await text(client, "/portal/developers/keys")
    # No scope chosen: the form says so and keeps the name.
    refused = await client.post(
        "/portal/developers/keys", form={"csrf_token": csrf, "name": "none", "environment": "live"}
    )
    assert refused.status_code == 400
    refused_page = await refused.get_data(as_text=True)
    assert 'id="scopes-error"' in refused_page
    assert 'value="none"' in refused_page


async def test_webhooks_secret_events_pause_test_retry_and_delete(app: Quart) -> None:
    account_id, _ = await new_account("pro")
    client, csrf = await login(app, account_id, "dev@example.com")
    made = await client.post(
        "/portal/developers/webhooks",
        form={"csrf_token": csrf, "url": HOOK, "event_types": "report.failed"},
    )
    assert made.status_code == 201
    page = await made.get_data(as_text=True)
    assert re.search(r'id="signing-secret" class="mono" readonly value="whsec_', page)
    endpoint_id = re.search(r'href="/portal/developers/webhooks/(whe_[a-f0-9]{24})"', page)
    assert endpoint_id
    base = f"/portal/developers/webhooks/{endpoint_id.group(1)}"
    detail = await text(client, base)
    assert "127.0.0.1:9/hook" in detail
    assert 'value="report.failed" checked' in detail

    saved = await client.post(
        base + "/events",
        **multi(
            ("csrf_token", csrf),
            ("event_types", "report.failed"),
            ("event_types", "report.succeeded"),
        ),
    )
    assert saved.headers["Location"] == base + "?notice=saved"
    assert 'value="report.succeeded" checked' in await text(client, base)
    none = await client.post(base + "/events", form={"csrf_token": csrf})
    assert none.status_code == 400
    assert 'id="events-error"' in await none.get_data(as_text=True)

    paused = await client.post(base + "/active", form={"csrf_token": csrf, "active": "false"})
    assert paused.headers["Location"] == base + "?notice=endpoint_paused"
    tested = await client.post(base + "/test", form={"csrf_token": csrf})
    assert tested.headers["Location"] == base + "?notice=test_sent"
    log = await text(client, base)
    assert "HTTP 200" in log
    assert "7 ms" in log
    assert "thanks" in log

    failed = await FeedDelivery.create(
        id="dlv_" + secrets.token_hex(12), endpoint_id=endpoint_id.group(1), kind="event",
        event_type="report.failed", message_id="msg_" + secrets.token_hex(12), status="failed",
        attempts=3, body='{"id":"evt_1","type":"report.failed"}',
    )  # fmt: skip
    log = await text(client, base)
    retry_form = f"{base}/deliveries/{failed.id}/retry"
    assert retry_form in log
    retried = await client.post(retry_form, form={"csrf_token": csrf})
    assert retried.headers["Location"] == base + "?notice=retried"
    rotated = await client.post(base + "/rotate-secret", form={"csrf_token": csrf})
    assert "whsec_" in await rotated.get_data(as_text=True)

    other_id, _ = await new_account("pro")
    stranger, stranger_csrf = await login(app, other_id, "stranger@example.com")
    await text(stranger, base, 404)
    theirs = await stranger.post(base + "/test", form={"csrf_token": stranger_csrf})
    assert theirs.status_code == 404
    deleted = await client.post(base + "/delete", form={"csrf_token": csrf})
    assert deleted.headers["Location"] == "/portal/developers/webhooks?notice=endpoint_deleted"
    await text(client, base, 404)


async def test_audit_log_filters_by_action_actor_and_date(app: Quart) -> None:
    account_id, _ = await new_account("pro")
    client, csrf = await login(app, account_id, "dev@example.com")
    for name in ("a", "b"):
        await client.post(
            "/portal/developers/keys",
            form={"csrf_token": csrf, "name": name, "environment": "live", "scopes": "*"},
        )
    listing = await text(client, "/portal/developers/keys")
    key_id = re.findall(r"/portal/developers/keys/(key_[a-f0-9]{24})/revoke", listing)[0]
    await client.post(f"/portal/developers/keys/{key_id}/revoke", form={"csrf_token": csrf})
    everything = await text(client, "/portal/developers/audit")
    assert everything.count(">key.created<") == 3  # the operator's first key and two here
    revoked = await text(client, "/portal/developers/audit?action=key.revoked")
    assert revoked.count(">key.revoked<") == 1
    assert ">key.created<" not in revoked
    me = await Customer.get(email="dev@example.com")
    mine = await text(client, f"/portal/developers/audit?actor={me.id}")
    assert mine.count(">key.created<") == 2
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    later = await text(client, f"/portal/developers/audit?from={tomorrow}")
    assert i18n.translate("en", "dev.audit_empty") in later
    bad = await text(client, "/portal/developers/audit?from=someday", 400)
    assert 'id="from-error"' in bad


async def test_every_form_needs_its_csrf_token(app: Quart) -> None:
    account_id, _ = await new_account("pro")
    client, csrf = await login(app, account_id, "dev@example.com")
    posts = [
        "/portal/mode",
        "/portal/developers/keys",
        "/portal/developers/keys/key_" + "0" * 24 + "/rotate",
        "/portal/developers/keys/key_" + "0" * 24 + "/revoke",
        "/portal/developers/webhooks",
        *(
            "/portal/developers/webhooks/whe_" + "0" * 24 + tail
            for tail in ("/events", "/active", "/rotate-secret", "/test", "/delete",
                         "/deliveries/dlv_" + "0" * 24 + "/retry")
        ),
    ]  # fmt: skip
    for path in posts:
        for form in ({}, {"csrf_token": "wrong"}):
            answer = await client.post(path, form=form)
            assert answer.status_code == 403, path
    # Every form on the area's pages carries the token.
    for path in ("/portal/developers", "/portal/developers/keys", "/portal/developers/webhooks"):
        page = await text(client, path)
        forms = re.findall(r'<form method="post".*?</form>', page, re.S)
        assert forms
        assert all(f'name="csrf_token" value="{csrf}"' in f for f in forms), path


async def test_a_viewer_sees_no_controls_and_the_api_refuses_it(app: Quart) -> None:
    account_id, _ = await new_account("enterprise")
    owner, owner_csrf = await login(app, account_id, "owner@example.com")
    await owner.post(
        "/portal/developers/webhooks",
        form={"csrf_token": owner_csrf, "url": HOOK, "event_types": "report.failed"},
    )
    hooks = await text(owner, "/portal/developers/webhooks")
    endpoint_id = re.search(r"/portal/developers/webhooks/(whe_[a-f0-9]{24})", hooks)
    assert endpoint_id
    for role in ("viewer", "member"):
        client, csrf = await login(app, account_id, f"{role}@example.com", role=role)
        keys = await text(client, "/portal/developers/keys")
        assert "/rotate" not in keys, role
        assert "/revoke" not in keys, role
        assert 'action="/portal/developers/keys"' not in keys, role
        detail = await text(client, f"/portal/developers/webhooks/{endpoint_id.group(1)}")
        assert "/test" not in detail
        assert "/active" not in detail
        assert "/events" not in detail
        assert "report.failed" in detail  # read, not changed
        hooks = await text(client, "/portal/developers/webhooks")
        assert 'action="/portal/developers/webhooks"' not in hooks
        forged = await client.post(
            "/portal/developers/keys",
            form={"csrf_token": csrf, "name": "x", "environment": "live", "scopes": "*"},
        )
        assert forged.status_code == 403, role
        await text(client, "/portal/developers/audit")
        await text(client, "/portal/developers/ledger")


async def test_every_developers_key_is_in_thai_and_pages_render_in_thai(app: Quart) -> None:
    english, thai = i18n.messages("en"), i18n.messages("th")
    ours = [k for k in english if k.startswith(("dev.", "mode.")) or k == "nav.developers"]
    assert len(ours) > 100
    from astro_server.portal.i18n import resources

    raw_th = resources.files("astro_server.portal").joinpath("messages/th.json").read_text()
    for key in ours:
        assert f'"{key}"' in raw_th, key
        assert thai[key] != english[key], key  # translated, not the English fallback
    account_id, _ = await new_account("pro")
    client, _ = await login(app, account_id, "dev@example.com")
    await client.get("/portal/language/th")
    for path in ("/portal/developers", "/portal/developers/ledger", "/portal/developers/keys",
                 "/portal/developers/webhooks", "/portal/developers/audit"):  # fmt: skip
        page = html.unescape(await text(client, path))
        assert '<html lang="th">' in page
        assert thai["dev.title"] in page
