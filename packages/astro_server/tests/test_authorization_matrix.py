"""The authorization matrix (issue 36), generated from the OpenAPI document.

For every route taking an id, :data:`ROUTES` names the kind of object the id names; the test
makes that object and calls the route as every caller that must not reach it, asserting the
documented answer, then as its owner (which must reach it: so a 404 above is the lookup's, not
a wrong id's):

* API-key routes: the object is made live and made test. Callers: another account's key of the
  same mode (404), the same account's key of the other mode (404), a key of the same account and
  mode without the route's scope (403; for jobs, without the scope of the job's kind).
* Session routes: the object is made by an admin login. Callers: another account's owner
  (404), a viewer and a member of the same account (403 where the role table says so, 404 for
  what stays another login's own, such as horoscope feed subscriptions).
* Signed routes (``/files``, ``/uploads``) take no credential: an unsigned request is 403.
* Minted by each role (issue 50): every API-key route above, and the role-gated ones taking no
  id, called with keys minted by the operator, by the owner's and the admin's sessions and by a
  key the admin minted; a key acts with its maker's role, so it reaches a route exactly when
  that role covers :data:`KEY_ROLES` (403 naming the role otherwise). Members and viewers mint
  no keys at all.

A route taking an id that :data:`ROUTES` does not list fails the test: whoever adds one says
what owns its object.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.brands.models import BrandProfile
from astro_server.features.cultural.models import Campaign
from astro_server.features.reports.models import Report
from astro_server.features.visual.models import VisualReading, VisualUpload
from astro_server.platform.auth import accounts
from astro_server.platform.delivery.signing import new_signing_secret
from astro_server.platform.models.accounts import Customer
from astro_server.platform.models.delivery import (
    FeedDelivery,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.platform.models.jobs import Job

PASSWORD = "a long enough password"
HOOK = "https://127.0.0.1:9/hook"
SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
OK = "ok"  # the owner's answer: anything but 403, 404 and a server error


def _id(prefix: str) -> str:
    return prefix + secrets.token_hex(12)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Owner:
    """Who the object is made for: the account, the mode, and (session routes) the login."""

    account_id: str
    livemode: bool
    customer_id: str | None
    key: str  # a key of that account and mode, every scope (for objects made through the API)


Make = Callable[[Client, Owner], Awaitable[dict[str, str]]]


async def _endpoint(purpose: str, client: Client, owner: Owner) -> dict[str, str]:
    from astro_server.platform.delivery import common as delivery_common

    endpoint_id = _id("whe_")
    box = delivery_common.secret_box(delivery_common.current_settings())
    endpoint = await WebhookEndpoint.create(
        id=endpoint_id,
        account_id=owner.account_id,
        livemode=owner.livemode,
        destination_url=HOOK if purpose == "account" else "mailto:team@example.test",
        event_types=["report.succeeded"] if purpose == "account" else ["visual_reading.failed"],
        secret_ciphertext=box.encrypt(new_signing_secret(), bound_to=endpoint_id),
        purpose=purpose,
    )
    delivery = await FeedDelivery.create(
        id=_id("dlv_"),
        endpoint_id=endpoint.id,
        kind="event",
        event_type="report.succeeded",
        message_id=_id("msg_"),
        status="failed",
        body="{}",
    )
    return {"id": endpoint.id, "subscription_id": endpoint.id, "delivery_id": delivery.id}


async def make_endpoint(client: Client, owner: Owner) -> dict[str, str]:
    return await _endpoint("account", client, owner)


async def make_visual_delivery(client: Client, owner: Owner) -> dict[str, str]:
    return await _endpoint("visual_delivery", client, owner)


async def make_report(client: Client, owner: Owner) -> dict[str, str]:
    report = await Report.create(
        id=_id("rep_"),
        account_id=owner.account_id,
        livemode=owner.livemode,
        customer_id=owner.customer_id,
        created_at=_now(),
    )
    return {"report_id": report.id}


async def make_job(client: Client, owner: Owner) -> dict[str, str]:
    job = await Job.create(
        id=_id("job_"),
        account_id=owner.account_id,
        livemode=owner.livemode,
        kind="reports.natal",
        params={},
        created_at=_now(),
    )
    return {"job_id": job.id}


async def make_upload(client: Client, owner: Owner) -> dict[str, str]:
    upload = await VisualUpload.create(
        id=_id("upl_"),
        account_id=owner.account_id,
        livemode=owner.livemode,
        created_by=owner.customer_id,
        kind="face",
        content_type="image/jpeg",
        content_length=10,
        sha256="0" * 64,
        expires_at=_now() + timedelta(minutes=15),
    )
    return {"upload_id": upload.id}


async def make_reading(client: Client, owner: Owner) -> dict[str, str]:
    reading = await VisualReading.create(
        id=_id("vr_"),
        account_id=owner.account_id,
        livemode=owner.livemode,
        created_by=owner.customer_id,
        upload_id=_id("upl_"),
        kind="face",
        language="en",
        status="succeeded",
        reading={"summary": "a reading"},
    )
    return {"reading_id": reading.id}


async def make_profile(client: Client, owner: Owner) -> dict[str, str]:
    made = await client.post(
        "/api/v3/profiles", json={"name": "P", "birth": SUBJECT}, headers=key_headers(owner.key)
    )
    assert made.status_code == 201, await made.get_json()
    return {"id": (await made.get_json())["profile"]["id"]}


async def make_calendar_feed(client: Client, owner: Owner) -> dict[str, str]:
    made = await client.post(
        "/api/v3/calendar-feeds", json={"kinds": ["eclipse"]}, headers=key_headers(owner.key)
    )
    assert made.status_code == 201, await made.get_json()
    return {"feed_id": (await made.get_json())["feed"]["id"]}


async def make_campaign(client: Client, owner: Owner) -> dict[str, str]:
    campaign = await Campaign.create(
        id=_id("cmp_"),
        account_id=owner.account_id,
        livemode=owner.livemode,
        name="Songkran",
        start=date(2027, 4, 10),
        end=date(2027, 4, 16),
        signs=["aries"],
        languages=["en"],
        markets=["th"],
    )
    return {"id": campaign.id}


async def make_key(client: Client, owner: Owner) -> dict[str, str]:
    """The operator's key for API-key routes; the admin login's (it acts as admin) for session
    routes, so the admin may rotate it (a key acting as owner it may not: issue 50)."""
    from astro_server.platform.auth import keys
    from astro_server.platform.caller import Caller

    environment = "live" if owner.livemode else "test"
    maker = Caller.operator(owner.account_id, livemode=owner.livemode)
    if owner.customer_id is not None:
        maker = Caller(
            owner.account_id,
            "enterprise",
            "sess_x",
            "session",
            owner.livemode,
            role="admin",
            customer_id=owner.customer_id,
        )
    key, _secret = await keys.create_key(maker, owner.account_id, environment=environment)
    return {"key_id": key.id}


async def make_member(client: Client, owner: Owner) -> dict[str, str]:
    customer = await accounts.create_customer(
        owner.account_id, f"m-{secrets.token_hex(4)}@example.test", PASSWORD
    )
    await Customer.filter(id=customer.id).update(role="viewer")
    return {"id": customer.id}


async def make_feed(client: Client, owner: Owner) -> dict[str, str]:
    assert owner.customer_id is not None
    from astro_server.platform.delivery import common as delivery_common

    url = f"{HOOK}/{secrets.token_hex(4)}"
    sub_id = _id("hfs_")
    box = delivery_common.secret_box(delivery_common.current_settings())
    sub = await HoroscopeFeedSubscription.create(
        id=sub_id,
        account_id=owner.account_id,
        customer_id=owner.customer_id,
        destination_url=url,
        destination_hash=hashlib.sha256(url.encode()).hexdigest(),
        sign="aries",
        secret_ciphertext=box.encrypt(new_signing_secret(), bound_to=sub_id),
    )
    delivery = await FeedDelivery.create(
        id=_id("dlv_"),
        subscription_id=sub.id,
        kind="test",
        message_id=_id("msg_"),
        status="failed",
        body="{}",
    )
    return {"id": sub.id, "delivery_id": delivery.id}


async def make_brand(client: Client, owner: Owner) -> dict[str, str]:
    profile = await BrandProfile.create(
        id=_id("brand_"), account_id=owner.account_id, name="Brand", branding={}
    )
    return {"id": profile.id}


async def make_nothing(client: Client, owner: Owner) -> dict[str, str]:
    return {
        "card_id": "the-fool",
        "file_id": _id("file_"),
        "upload_id": _id("upl_"),
        "token": "calt_" + secrets.token_urlsafe(32),  # a calendar feed URL's, not a live one
    }


@dataclass(frozen=True)
class Entry:
    """How one route's object is made and what each caller gets (None: not asked)."""

    make: Make
    other_account: int | None = 404
    other_mode: int | None = 404
    out_of_scope: int | None = 403
    viewer: int | str | None = None
    member: int | str | None = None
    owner: int | str | None = OK
    public: bool = False  # no owned object: only the scope (or the signature) is checked
    modeless: bool = False  # the account's, not a mode's: made live only
    extra: dict[str, Any] = field(default_factory=dict)
    query: str = ""


def _session(
    make: Make,
    viewer: int | str,
    member: int | str,
    owner: int | str = OK,
    extra: dict[str, Any] | None = None,
) -> Entry:
    return Entry(
        make,
        other_mode=None,
        out_of_scope=None,
        viewer=viewer,
        member=member,
        owner=owner,
        extra=extra or {},
    )


ACTIVE = {"active": False}


# (method, OpenAPI path) -> entry. A new id-taking route fails the test until it is listed here.
ROUTES: dict[tuple[str, str], Entry] = {
    ("GET", "/api/v3/campaigns/{id}"): Entry(make_campaign),
    ("PATCH", "/api/v3/campaigns/{id}"): Entry(make_campaign, extra=ACTIVE),
    ("DELETE", "/api/v3/campaigns/{id}"): Entry(make_campaign),
    ("GET", "/api/v3/campaigns/{id}/content"): Entry(make_campaign, query="?date=2027-04-12"),
    ("DELETE", "/api/v3/calendar-feeds/{feed_id}"): Entry(make_calendar_feed),
    # A calendar feed's file: the token in its URL is the credential (an unknown one is 403).
    ("GET", "/calendar/{token}.ics"): Entry(make_nothing, public=True),
    # A job's scope is its kind's (reports.natal: reports).
    ("GET", "/api/v3/jobs/{job_id}"): Entry(make_job),
    ("POST", "/api/v3/jobs/{job_id}/cancel"): Entry(make_job),
    ("POST", "/api/v3/keys/{key_id}/rotate"): Entry(make_key),
    ("DELETE", "/api/v3/keys/{key_id}"): Entry(make_key),
    ("GET", "/api/v3/profiles/{id}"): Entry(make_profile),
    ("PATCH", "/api/v3/profiles/{id}"): Entry(make_profile, extra={"notes": "n"}),
    ("DELETE", "/api/v3/profiles/{id}"): Entry(make_profile),
    ("GET", "/api/v3/profiles/{id}/export"): Entry(make_profile),
    ("GET", "/api/v3/reports/{report_id}"): Entry(make_report),
    ("GET", "/api/v3/tarot/cards/{card_id}"): Entry(make_nothing, public=True),
    # Team members belong to the account, not a mode: a test key reads the team, never changes it.
    ("PATCH", "/api/v3/team/members/{id}"): Entry(
        make_member, other_mode=403, modeless=True, extra={"role": "member"}
    ),
    ("DELETE", "/api/v3/team/members/{id}"): Entry(make_member, other_mode=403, modeless=True),
    ("POST", "/api/v3/visual-readings/uploads/{upload_id}/complete"): Entry(make_upload),
    ("GET", "/api/v3/visual-readings/{reading_id}"): Entry(make_reading),
    ("DELETE", "/api/v3/visual-readings/{reading_id}"): Entry(make_reading),
    ("GET", "/api/v3/webhook-endpoints/{id}"): Entry(make_endpoint),
    ("PATCH", "/api/v3/webhook-endpoints/{id}"): Entry(make_endpoint, extra=ACTIVE),
    ("DELETE", "/api/v3/webhook-endpoints/{id}"): Entry(make_endpoint),
    ("GET", "/api/v3/webhook-endpoints/{id}/deliveries"): Entry(make_endpoint),
    ("POST", "/api/v3/webhook-endpoints/{id}/deliveries/{delivery_id}/retry"): Entry(make_endpoint),
    ("POST", "/api/v3/webhook-endpoints/{id}/rotate-secret"): Entry(make_endpoint),
    ("GET", "/files/{file_id}"): Entry(make_nothing, public=True),
    ("PUT", "/uploads/{upload_id}"): Entry(make_nothing, public=True),
    # Horoscope feed subscriptions are each login's own: another login's is not found.
    ("GET", "/v1/horoscope-feed-subscriptions/{id}"): _session(make_feed, 404, 404),
    ("PATCH", "/v1/horoscope-feed-subscriptions/{id}"): _session(make_feed, 403, 404, extra=ACTIVE),
    ("DELETE", "/v1/horoscope-feed-subscriptions/{id}"): _session(make_feed, 403, 404),
    ("GET", "/v1/horoscope-feed-subscriptions/{id}/deliveries"): _session(make_feed, 404, 404),
    ("POST", "/v1/horoscope-feed-subscriptions/{id}/deliveries/{delivery_id}/retry"): _session(
        make_feed, 403, 404
    ),
    ("POST", "/v1/horoscope-feed-subscriptions/{id}/rotate-secret"): _session(make_feed, 403, 404),
    ("POST", "/v1/horoscope-feed-subscriptions/{id}/test"): _session(make_feed, 403, 404),
    # Brand profiles and visual-reading deliveries are the account's: admin changes them.
    ("GET", "/v1/report-brand-profiles/{id}"): _session(make_brand, OK, OK),
    ("PATCH", "/v1/report-brand-profiles/{id}"): _session(make_brand, 403, 403),
    ("DELETE", "/v1/report-brand-profiles/{id}"): _session(make_brand, 403, 403),
    ("GET", "/v1/reports/{report_id}"): _session(make_report, OK, OK),
    ("PATCH", "/v1/team/members/{id}"): _session(
        make_member, 403, 403, owner=403, extra={"role": "member"}
    ),
    ("DELETE", "/v1/team/members/{id}"): _session(make_member, 403, 403, owner=403),
    ("GET", "/v1/visual-reading-deliveries/{subscription_id}"): _session(
        make_visual_delivery, OK, OK
    ),
    ("PATCH", "/v1/visual-reading-deliveries/{subscription_id}"): _session(
        make_visual_delivery, 403, 403, extra=ACTIVE
    ),
    ("DELETE", "/v1/visual-reading-deliveries/{subscription_id}"): _session(
        make_visual_delivery, 403, 403
    ),
    ("GET", "/v1/visual-reading-deliveries/{subscription_id}/deliveries"): _session(
        make_visual_delivery, OK, OK
    ),
    # Uploads and readings made by the admin: a member changes only its own.
    ("POST", "/v1/visual-readings/uploads/{upload_id}/complete"): _session(make_upload, 403, 403),
    ("GET", "/v1/visual-readings/{reading_id}"): _session(make_reading, OK, OK),
    ("DELETE", "/v1/visual-readings/{reading_id}"): _session(make_reading, 403, 403),
    # The Developers area (issue 31): every login reads; owner and admin manage.
    ("GET", "/v1/developer/jobs/{job_id}"): _session(make_job, OK, OK),
    ("POST", "/v1/developer/keys/{key_id}/rotate"): _session(make_key, 403, 403),
    ("DELETE", "/v1/developer/keys/{key_id}"): _session(make_key, 403, 403),
    ("GET", "/v1/developer/webhook-endpoints/{id}"): _session(make_endpoint, OK, OK),
    ("PATCH", "/v1/developer/webhook-endpoints/{id}"): _session(
        make_endpoint, 403, 403, extra=ACTIVE
    ),
    ("DELETE", "/v1/developer/webhook-endpoints/{id}"): _session(make_endpoint, 403, 403),
    ("GET", "/v1/developer/webhook-endpoints/{id}/deliveries"): _session(make_endpoint, OK, OK),
    ("POST", "/v1/developer/webhook-endpoints/{id}/deliveries/{delivery_id}/retry"): _session(
        make_endpoint, 403, 403
    ),
    ("POST", "/v1/developer/webhook-endpoints/{id}/rotate-secret"): _session(
        make_endpoint, 403, 403
    ),
    ("POST", "/v1/developer/webhook-endpoints/{id}/test"): _session(make_endpoint, 403, 403),
}
# The scope each API-key route needs, and one it does not (the out-of-scope key holds that one).
_NOT_THE_SCOPE = {"tarot": "western"}


def _id_routes(document: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(method, path, session?) of every route whose path takes an id."""
    found = []
    for path, item in document["paths"].items():
        if "{" not in path:
            continue
        for method, operation in item.items():
            security = operation.get("security") or []
            session = any("SessionBearer" in requirement for requirement in security)
            found.append((method.upper(), path, session))
    return sorted(found)


def _url(path: str, params: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], path)


@dataclass
class Party:
    """One account's credentials: keys per mode (every scope, one out-of-scope) and logins."""

    account_id: str
    keys: dict[bool, str]
    narrow: dict[bool, str]  # a key with the 'tarot' scope only
    narrow_western: dict[bool, str]
    sessions: dict[str, dict[str, str]]
    customers: dict[str, str]


async def _party(client: Client) -> Party:
    account_id, live = await new_account("enterprise", 1000)
    test = await accounts.create_api_key(account_id, "test")
    narrow = {
        mode: await accounts.create_api_key(
            account_id, "live" if mode else "test", scopes_wanted=frozenset({"tarot"})
        )
        for mode in (True, False)
    }
    narrow_western = {
        mode: await accounts.create_api_key(
            account_id, "live" if mode else "test", scopes_wanted=frozenset({"western"})
        )
        for mode in (True, False)
    }
    sessions, customers = {}, {}
    for role in ("owner", "admin", "member", "viewer"):
        email = f"{role}-{secrets.token_hex(4)}@example.test"
        customer = await accounts.create_customer(account_id, email, PASSWORD)
        await Customer.filter(id=customer.id).update(role=role)
        answer = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
        assert answer.status_code == 200
        token = (await answer.get_json())["token"]
        sessions[role] = {"Authorization": f"Bearer {token}"}
        customers[role] = customer.id
    return Party(account_id, {True: live, False: test}, narrow, narrow_western, sessions, customers)


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(
        database_url,
        tmp_path,
        allow_loopback_destinations=True,
        rate_limits={"free": 10**6, "starter": 10**6, "pro": 10**6, "enterprise": 10**6},
    )
    async with running_app(settings) as application:
        yield application
        await application.extensions["astro"].broker.wait_all()


def _matches(expected: int | str, status: int) -> bool:
    if expected == OK:
        return status not in (403, 404) and status < 500
    return status == expected


async def test_every_id_route_against_every_caller(app: Quart) -> None:
    client = app.test_client()
    document = await (await client.get("/openapi.json")).get_json()
    routes = _id_routes(document)
    missing = [(m, p) for m, p, _ in routes if (m, p) not in ROUTES]
    assert not missing, f"id-taking routes without an authorization entry: {missing}"
    stale = set(ROUTES) - {(m, p) for m, p, _ in routes}
    assert not stale, f"entries for routes that no longer exist: {stale}"
    mine, theirs = await _party(client), await _party(client)
    failures: list[str] = []
    checked = 0

    async def call(method: str, url: str, headers: dict[str, str], entry: Entry) -> int:
        body = entry.extra if method in ("POST", "PATCH", "PUT") else None
        answer = await client.open(url, method=method, json=body, headers=headers)
        return answer.status_code

    def expect(what: str, expected: int | str, status: int) -> None:
        nonlocal checked
        checked += 1
        if not _matches(expected, status):
            failures.append(f"{what}: expected {expected}, got {status}")

    for method, path, session in routes:
        entry = ROUTES[(method, path)]
        if entry.public:
            params = await make_nothing(client, Owner(mine.account_id, True, None, ""))
            url = _url(path, params)
            if path.startswith("/api/v3/"):
                status = await call(method, url, key_headers(mine.narrow_western[True]), entry)
                expect(f"{method} {path} out of scope", 403, status)
            else:  # signed routes: no credential counts, an unsigned request is refused
                status = await call(method, url, key_headers(mine.keys[True]), entry)
                expect(f"{method} {path} unsigned", 403, status)
            continue
        if not session:
            for livemode in (True,) if entry.modeless else (True, False):
                owner = Owner(mine.account_id, livemode, None, mine.keys[livemode])
                params = await entry.make(client, owner)
                url = _url(path, params) + entry.query
                where = f"{method} {path} ({'live' if livemode else 'test'} object)"
                callers = [
                    ("other account", entry.other_account, theirs.keys[livemode]),
                    ("other mode", entry.other_mode, mine.keys[not livemode]),
                    ("out of scope", entry.out_of_scope, mine.narrow[livemode]),
                ]
                for name, expected, key in callers:
                    if expected is not None:
                        status = await call(method, url, key_headers(key), entry)
                        expect(f"{where} as {name}", expected, status)
                if entry.owner is not None:
                    status = await call(method, url, key_headers(mine.keys[livemode]), entry)
                    expect(f"{where} as its owner", entry.owner, status)
            continue
        owner = Owner(mine.account_id, True, mine.customers["admin"], mine.keys[True])
        params = await entry.make(client, owner)
        url = _url(path, params)
        where = f"{method} {path} (admin's object)"
        callers = [
            ("other account's owner", entry.other_account, theirs.sessions["owner"]),
            ("viewer", entry.viewer, mine.sessions["viewer"]),
            ("member", entry.member, mine.sessions["member"]),
        ]
        for name, expected, headers in callers:
            if expected is not None:
                status = await call(method, url, headers, entry)
                expect(f"{where} as {name}", expected, status)
        if entry.owner is not None:
            status = await call(method, url, mine.sessions["admin"], entry)
            expect(f"{where} as the admin", entry.owner, status)
    assert not failures, "\n".join(failures)
    assert checked >= 3 * len(routes)


# The role an API-key route needs from the login that minted the key (issue 50): the session
# door's rule for the same action (tests/test_profiles_teams.py, DECLARED). Routes not listed
# need none: a key minted by any role that may mint reaches them.
KEY_ROLES: dict[tuple[str, str], str] = {
    ("POST", "/api/v3/team/members"): "owner",
    ("PATCH", "/api/v3/team/members/{id}"): "owner",
    ("DELETE", "/api/v3/team/members/{id}"): "owner",
    ("POST", "/api/v3/keys"): "admin",
    ("DELETE", "/api/v3/keys/{key_id}"): "admin",
    # The key rotated is the operator's (it acts as owner): rotating hands over its power.
    ("POST", "/api/v3/keys/{key_id}/rotate"): "owner",
}
# Role-gated API-key routes that take no id, with a fresh body per call.
_NO_ID_BODIES: dict[tuple[str, str], Callable[[], dict[str, Any]]] = {
    ("POST", "/api/v3/team/members"): lambda: {
        "email": f"i-{secrets.token_hex(4)}@example.test",
        "role": "viewer",
    },
    ("POST", "/api/v3/keys"): lambda: {"scopes": ["tarot"]},
}
_ROLE_RANK = {"viewer": 0, "member": 1, "admin": 2, "owner": 3}


async def _minted_keys(client: Client, party: Party, livemode: bool) -> dict[str, tuple[str, str]]:
    """minter -> (the key, the role it acts with): the operator's, the owner's and the admin's
    sessions', and a key the admin's key minted; members and viewers are refused (403)."""
    environment = "live" if livemode else "test"
    minted = {"operator": (party.keys[livemode], "owner")}
    for role in ("owner", "admin", "member", "viewer"):
        answer = await client.post(
            "/v1/developer/keys",
            json={"environment": environment, "scopes": ["*"]},
            headers=party.sessions[role],
        )
        if role in ("member", "viewer"):
            assert answer.status_code == 403, (role, await answer.get_json())
            continue
        assert answer.status_code == 201, await answer.get_json()
        minted[role] = ((await answer.get_json())["secret"], role)
    answer = await client.post(
        "/api/v3/keys", json={"scopes": ["*"]}, headers=key_headers(minted["admin"][0])
    )
    assert answer.status_code == 201, await answer.get_json()
    minted["the admin's key"] = ((await answer.get_json())["secret"], "admin")
    return minted


async def test_every_key_route_as_keys_minted_by_each_role(app: Quart) -> None:
    client = app.test_client()
    document = await (await client.get("/openapi.json")).get_json()
    key_routes = [
        (m, p)
        for m, p, session in _id_routes(document)
        if not session and not ROUTES[(m, p)].public
    ]
    assert not set(_NO_ID_BODIES) - {
        (m.upper(), p) for p, item in document["paths"].items() for m in item
    }, "a role-gated route without an id no longer exists"
    assert set(KEY_ROLES) <= set(key_routes) | set(_NO_ID_BODIES)
    mine = await _party(client)
    failures: list[str] = []
    checked = 0
    for livemode in (True, False):
        minted = await _minted_keys(client, mine, livemode)
        owner = Owner(mine.account_id, livemode, None, mine.keys[livemode])
        for method, path in [*key_routes, *_NO_ID_BODIES]:
            entry = ROUTES.get((method, path), Entry(make_nothing))
            if (entry.modeless or path.startswith("/api/v3/team/")) and not livemode:
                continue  # the team is changed by live keys only (the matrix above)
            needed = KEY_ROLES.get((method, path))
            for minter, (key, role) in minted.items():
                params = await entry.make(client, owner)
                url = _url(path, params) + entry.query
                body = (
                    _NO_ID_BODIES[(method, path)]()
                    if (method, path) in _NO_ID_BODIES
                    else (entry.extra if method in ("POST", "PATCH", "PUT") else None)
                )
                answer = await client.open(url, method=method, json=body, headers=key_headers(key))
                reaches = needed is None or _ROLE_RANK[role] >= _ROLE_RANK[needed]
                where = f"{method} {path} ({'live' if livemode else 'test'}) by {minter}'s key"
                checked += 1
                if reaches and not _matches(OK, answer.status_code):
                    failures.append(f"{where}: expected to reach it, got {answer.status_code}")
                if not reaches:
                    message = ((await answer.get_json()) or {}).get("message", "")
                    if answer.status_code != 403 or repr(needed) not in message:
                        failures.append(
                            f"{where}: expected 403 naming {needed!r}, got "
                            f"{answer.status_code} {message}"
                        )
    assert not failures, "\n".join(failures)
    assert checked >= 4 * (2 * len(key_routes))
