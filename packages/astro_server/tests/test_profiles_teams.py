"""Encrypted client profiles and teams, in process through the SDK (httpx's ASGI transport into
the app) on SQLite and PostgreSQL: profile CRUD, filters and paging; ``profile_id`` in place of a
subject (same result as inline, billed alike, refused before any debit when unknown); tenant and
live/test isolation on every id route; the raw rows hold no plaintext; master-key rotation;
crypto-shred; audit rows; invitations, roles and the last-owner rule; and every role against every
session route. Live server processes: tests/test_e2e_profiles_teams.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from _platform_support import new_account, settings_for
from quart import Quart

import astro_sdk
from astro_sdk import AsyncAstroClient
from astro_server.features.profiles import crypto as profile_crypto
from astro_server.features.profiles import service as profiles_service
from astro_server.platform import db, runtime
from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Customer
from astro_server.platform.models.audit import AuditEvent
from astro_server.platform.runtime import Platform
from astro_server.settings import Settings

SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
OTHER = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
# Strings that must never appear in a database row (the personal fields as given).
NAME, NOTES, EXTERNAL, TAG = "Somchai Jaidee", "Prefers Thai readings", "crm-778812", "vip-gold"
PLAINTEXTS = [NAME, NOTES, EXTERNAL, TAG, "1987-11-23", "13.7563", "100.5018", "Somchai"]
Maker = Callable[..., Any]


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(
        database_url,
        tmp_path,
        rate_limits={"free": 10_000, "starter": 10_000, "pro": 10_000, "enterprise": 10_000},
    )


@pytest.fixture
def sdk(app: Quart) -> Maker:
    """``async with sdk(api_key=...) / sdk(session_token=...) as client``: in process."""

    @asynccontextmanager
    async def make(**credentials: str) -> AsyncIterator[AsyncAstroClient]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield AsyncAstroClient(
                base_url="http://testserver", http_client=http, max_retries=0, **credentials
            )

    return make


async def _test_key(account_id: str) -> str:
    return await accounts.create_api_key(account_id, "test")


async def _profile(client: AsyncAstroClient, **extra: Any) -> astro_sdk.models.profiles.Profile:
    fields: dict[str, Any] = {
        "name": NAME,
        "birth": SUBJECT,
        "gender": "male",
        "tags": [TAG, "thai"],
        "external_id": EXTERNAL,
        "notes": NOTES,
    }
    return await client.profiles.create(**{**fields, **extra})


# --- profiles ----------------------------------------------------------------------------------


async def test_profile_crud_filters_paging_and_export(sdk: Maker) -> None:
    _, key = await new_account("pro", 0)
    async with sdk(api_key=key) as client:
        made = await _profile(client)
        assert made.id.startswith("prof_")
        assert len(made.id) == 29
        assert (made.name, made.birth.date.isoformat(), made.tags) == (
            NAME,
            SUBJECT["date"],
            [TAG, "thai"],
        )
        assert made.livemode is True
        assert made.api_response.status_code == 201
        others = [
            await _profile(client, name=f"P{i}", external_id=f"x{i}", tags=["bulk"])
            for i in range(4)
        ]
        assert [p.id for p in (await client.profiles.list(external_id=EXTERNAL)).data] == [made.id]
        assert (await client.profiles.list(external_id=EXTERNAL[:-1])).data == []
        assert [p.id for p in (await client.profiles.list(tag=TAG)).data] == [made.id]
        assert (await client.profiles.list(tag=TAG.upper())).data == []  # exact match only
        tagged = [p.id async for p in client.profiles.list(tag="bulk", limit=3)]
        assert tagged == [p.id for p in reversed(others)]  # newest first, across two pages
        everything = [p.id async for p in client.profiles.list(limit=2)]
        assert len(everything) == 5
        changed = await client.profiles.update(made.id, notes=None, tags=["moved"], gender="m")
        assert (changed.notes, changed.tags, changed.gender, changed.name) == (
            None,
            ["moved"],
            "m",
            NAME,
        )
        assert (await client.profiles.list(tag=TAG)).data == []
        assert [p.id for p in (await client.profiles.list(tag="moved")).data] == [made.id]
        fetched = await client.profiles.get(made.id)
        assert fetched.tags == ["moved"]
        assert fetched.notes is None
        export = await client.profiles.export(made.id)
        assert export.profile.id == made.id
        assert [e.action for e in export.audit_events] == [
            "profile.created",
            "profile.updated",
            "profile.read",
            "profile.exported",
        ]
        await client.profiles.delete(made.id)
        with pytest.raises(astro_sdk.NotFoundError):
            await client.profiles.get(made.id)
        with pytest.raises(astro_sdk.NotFoundError):
            await client.profiles.delete(made.id)
    # The erased profile leaves no row (its tag rows go with it).
    assert not await db.fetch("SELECT id FROM client_profiles WHERE id = ?", [made.id])
    assert not await db.fetch("SELECT id FROM client_profile_tags WHERE profile_id = ?", [made.id])


async def test_profile_fields_are_checked_at_their_limits(sdk: Maker) -> None:
    _, key = await new_account("pro", 0)
    async with sdk(api_key=key) as client:
        ok = await _profile(
            client, name="n" * 200, tags=["t" * 50] * 1 + [f"t{i}" for i in range(19)]
        )
        assert len(ok.tags) == 20
        raw = client._http
        cases = [
            ({"name": "n" * 201}, "name"),
            ({"name": ""}, "name"),
            ({"tags": [f"t{i}" for i in range(21)]}, "tags"),
            ({"tags": ["t" * 51]}, "tags"),
            ({"notes": "x" * 10_001}, "notes"),
            ({"birth": {**SUBJECT, "latitude": 90.5}}, "birth.latitude"),
            ({"birth": {**SUBJECT, "timezone": "Mars/Olympus"}}, "birth.timezone"),
            ({"colour": "red"}, "colour"),
        ]
        base = {"name": NAME, "birth": SUBJECT}
        for change, field in cases:
            answer = await raw.post(
                "/api/v3/profiles", json={**base, **change}, headers={"X-API-Key": key}
            )
            assert answer.status_code == 400, change
            assert answer.json()["details"][0]["field"] == field
        assert (
            await raw.post(
                "/api/v3/profiles", json={**base, "notes": "x" * 10_000}, headers={"X-API-Key": key}
            )
        ).status_code == 201


async def test_profile_id_stands_for_the_subject_everywhere_and_is_billed_alike(sdk: Maker) -> None:
    _, key = await new_account("pro", 100)
    async with sdk(api_key=key) as client:
        prof = await _profile(client)
        ref = {"profile_id": prof.id}
        inline = await client.western.natal(subject=SUBJECT)
        by_ref = await client.western.natal(subject=ref)
        assert by_ref.model_dump() == inline.model_dump()
        assert by_ref.api_response.credits_charged == inline.api_response.credits_charged == 1
        pair = await client.western.synastry(subject_a=ref, subject_b=OTHER)
        pair_inline = await client.western.synastry(subject_a=SUBJECT, subject_b=OTHER)
        assert pair.model_dump() == pair_inline.model_dump()
        match = await client.vedic.kundli_matching(boy=ref, girl=OTHER)
        match_inline = await client.vedic.kundli_matching(boy=SUBJECT, girl=OTHER)
        assert match.model_dump() == match_inline.model_dump()
        bazi = await client.chinese.bazi(subject=ref)
        assert bazi.model_dump() == (await client.chinese.bazi(subject=SUBJECT)).model_dump()
        wheel = await client.western.natal_wheel(subject=ref)
        assert wheel.data == (await client.western.natal_wheel(subject=SUBJECT)).data
        # Unknown, malformed or mixed references: a 400 naming the field, nothing charged.
        balance = (await client.account.get()).account.credits_balance
        raw = client._http
        for subject, field in [
            ({"profile_id": "prof_" + "0" * 24}, "subject.profile_id"),
            ({"profile_id": "nope"}, "subject.profile_id"),
            ({"profile_id": prof.id, "fold": 1}, "subject.fold"),
        ]:
            answer = await raw.post(
                "/api/v3/western/natal", json={"subject": subject}, headers={"X-API-Key": key}
            )
            assert answer.status_code == 400
            assert answer.json()["details"] == [
                {"field": field, "message": answer.json()["details"][0]["message"]}
            ]
            assert answer.headers.get("X-Credits-Charged") is None
        batch = await raw.post(
            "/api/v3/vedic/kundli-matching",
            json={"boy": OTHER, "girl": {"profile_id": "prof_" + "1" * 24}},
            headers={"X-API-Key": key},
        )
        assert batch.json()["details"][0]["field"] == "girl.profile_id"
        assert (await client.account.get()).account.credits_balance == balance


async def test_every_id_route_isolates_tenants_and_modes(sdk: Maker) -> None:
    account_id, key = await new_account("pro", 100)
    _, stranger = await new_account("pro", 100)
    test_key = await _test_key(account_id)
    async with (
        sdk(api_key=key) as live,
        sdk(api_key=stranger) as other,
        sdk(api_key=test_key) as test,
    ):
        prof = await _profile(live)
        test_prof = await _profile(test)
        assert test_prof.livemode is False
        for client, pid in (
            (other, prof.id),
            (test, prof.id),
            (live, test_prof.id),
            (other, test_prof.id),
        ):
            with pytest.raises(astro_sdk.NotFoundError):
                await client.profiles.get(pid)
            with pytest.raises(astro_sdk.NotFoundError):
                await client.profiles.update(pid, notes="x")
            with pytest.raises(astro_sdk.NotFoundError):
                await client.profiles.export(pid)
            with pytest.raises(astro_sdk.NotFoundError):
                await client.profiles.delete(pid)
            with pytest.raises(astro_sdk.BadRequestError) as caught:
                await client.western.natal(subject={"profile_id": pid})
            assert caught.value.details[0]["field"] == "subject.profile_id"
        assert [p.id for p in (await live.profiles.list()).data] == [prof.id]
        assert [p.id for p in (await test.profiles.list()).data] == [test_prof.id]
        assert (await other.profiles.list()).data == []
        # A test key runs the calculation with its own profile and pays nothing.
        chart = await test.western.natal(subject={"profile_id": test_prof.id})
        assert chart.api_response.credits_charged == 0
        assert (await live.profiles.get(prof.id)).notes == NOTES  # untouched by the others


async def test_the_database_holds_no_plaintext(sdk: Maker) -> None:
    account_id, key = await new_account("pro", 10)
    async with sdk(api_key=key) as client:
        prof = await _profile(client)
        await client.profiles.update(prof.id, notes=NOTES + " again")
        await client.profiles.get(prof.id)
        await client.profiles.export(prof.id)
        await client.western.natal(subject={"profile_id": prof.id})
    rows: list[dict[str, Any]] = []
    for table in ("client_profiles", "client_profile_tags", "account_data_keys", "audit_log"):
        found = await db.fetch(f"SELECT * FROM {table}", [])  # noqa: S608 (fixed names)
        assert found, table
        rows.extend(found)
    text = json.dumps(rows, default=str)
    for secret in PLAINTEXTS:
        assert secret not in text
    sealed = (await db.fetch("SELECT sealed, external_id_index FROM client_profiles", []))[0]
    assert str(sealed["sealed"]).startswith("v1.")
    assert len(str(sealed["external_id_index"])) == 64
    # The audit rows hold ids and actions only.
    events = await AuditEvent.filter(
        account_id=account_id, action__startswith="profile."
    ).values_list("action", "object_id")
    assert set(events) == {
        ("profile.created", prof.id),
        ("profile.updated", prof.id),
        ("profile.read", prof.id),
        ("profile.exported", prof.id),
    }


async def test_master_key_rotation_keeps_profiles_readable(app: Quart, sdk: Maker) -> None:
    _, key = await new_account("pro", 10)
    async with sdk(api_key=key) as client:
        prof = await _profile(client)
    state: Platform = app.extensions["astro"]
    old = state.settings.secret_key
    wrapped_before = await db.fetch("SELECT wrapped_key FROM account_data_keys", [])
    keys_done, _ = await profile_crypto.rotate_master_key(old, "n" * 40)
    assert keys_done == 1
    assert await db.fetch("SELECT wrapped_key FROM account_data_keys", []) != wrapped_before
    # Still the old master key: the data key no longer opens, so the profile reads as gone.
    async with sdk(api_key=key) as client:
        with pytest.raises(astro_sdk.NotFoundError):
            await client.profiles.get(prof.id)
    state.settings = state.settings.with_overrides(secret_key="n" * 40)
    runtime.install(state)  # the process's settings, as a restart would read them
    async with sdk(api_key=key) as client:
        assert (await client.profiles.get(prof.id)).name == NAME
        assert [p.id for p in (await client.profiles.list(external_id=EXTERNAL)).data] == [prof.id]
        chart = await client.western.natal(subject={"profile_id": prof.id})
        assert chart.api_response.credits_charged == 1
    with pytest.raises(ValueError, match="differ"):
        await profile_crypto.rotate_master_key("n" * 40, "n" * 40)


async def test_crypto_shred_makes_the_accounts_profiles_unreadable(app: Quart, sdk: Maker) -> None:
    account_id, key = await new_account("pro", 10)
    _, bystander = await new_account("pro", 10)
    async with sdk(api_key=key) as client, sdk(api_key=bystander) as other:
        prof = await _profile(client)
        kept = await _profile(other)
        assert (await client.profiles.get(prof.id)).name == NAME  # the key is cached now
        assert (await client.western.natal(subject={"profile_id": prof.id})).api_response
        async with app.app_context():  # as the operator's CLI does, in the server's process
            assert await profiles_service.crypto_shred(account_id) == 1
        with pytest.raises(astro_sdk.NotFoundError):
            await client.profiles.get(prof.id)
        with pytest.raises(astro_sdk.NotFoundError):
            await client.profiles.export(prof.id)
        assert (await client.profiles.list()).data == []
        with pytest.raises(astro_sdk.BadRequestError):
            await client.western.natal(subject={"profile_id": prof.id})
        # The row is still there, sealed, with nothing left to open it.
        row = (
            await db.fetch(
                "SELECT wrapped_key FROM account_data_keys WHERE account_id = ?", [account_id]
            )
        )[0]
        assert row["wrapped_key"] is None
        # New profiles get a new data key; the other account is untouched.
        fresh = await _profile(client)
        assert [p.id for p in (await client.profiles.list()).data] == [fresh.id]
        assert (await other.profiles.get(kept.id)).name == NAME
        await client.profiles.delete(prof.id)  # a shredded profile can still be erased


# --- teams and roles ----------------------------------------------------------------------------


async def _login(sdk: Maker, email: str, password: str) -> str:
    async with sdk() as anonymous:
        session = await anonymous.auth.create_session(email=email, password=password)
    return session.token


async def test_invitations_roles_and_the_last_owner(sdk: Maker) -> None:
    account_id, key = await new_account("enterprise", 0)
    owner = await accounts.create_customer(account_id, "owner@example.test", "owner-password")
    assert owner.role == "owner"
    async with sdk(api_key=key) as admin_key:
        made = await admin_key.team.invite(email="Ana@Example.test", role="member")
        assert made.invitation.email == "ana@example.test"
        assert made.link.endswith("/auth/accept-invitation?token=" + made.token)
        gap = made.invitation.expires_at - made.invitation.created_at
        assert gap.total_seconds() == 72 * 3600
        listing = await admin_key.team.list()
        assert [m.email for m in listing.members] == ["owner@example.test"]
        assert [i.id for i in listing.invitations] == [made.invitation.id]
        with pytest.raises(astro_sdk.ConflictError):  # an existing login
            await admin_key.team.invite(email="owner@example.test", role="viewer")
    async with sdk() as anonymous:
        joined = await anonymous.auth.accept_invitation(token=made.token, password="ana-password")
        assert (joined.member.role, joined.account_id) == ("member", account_id)
        with pytest.raises(astro_sdk.AuthenticationError):  # one use only
            await anonymous.auth.accept_invitation(token=made.token, password="ana-password")
    ana_token = await _login(sdk, "ana@example.test", "ana-password")
    owner_token = await _login(sdk, "owner@example.test", "owner-password")
    async with sdk(session_token=ana_token) as ana, sdk(session_token=owner_token) as boss:
        assert len((await ana.team.list()).members) == 2  # members read the team
        with pytest.raises(astro_sdk.PermissionDeniedError) as caught:
            await ana.team.invite(email="x@example.test", role="viewer")
        assert "'owner' role" in caught.value.message
        with pytest.raises(astro_sdk.ConflictError) as last:
            await boss.team.change_role(owner.id, role="admin")
        assert last.value.code == "last_owner"
        with pytest.raises(astro_sdk.ConflictError):
            await boss.team.remove(owner.id)
        promoted = await boss.team.change_role(joined.member.id, role="owner")
        assert promoted.role == "owner"
        assert (await ana.team.change_role(owner.id, role="viewer")).role == "viewer"
        with pytest.raises(astro_sdk.PermissionDeniedError):  # now a viewer
            await boss.team.invite(email="y@example.test", role="viewer")
        await ana.team.remove(owner.id)
        with pytest.raises(astro_sdk.AuthenticationError):  # its session ended at once
            await boss.team.list()
        with pytest.raises(astro_sdk.NotFoundError):
            await ana.team.remove(owner.id)
    actions = (
        await AuditEvent.filter(account_id=account_id, action__startswith="team.")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "team.invited",
        "team.joined",
        "team.role_changed",
        "team.role_changed",
        "team.removed",
    ]
    assert (await Customer.get(id=owner.id)).disabled_at is not None


async def test_teams_need_the_enterprise_tier_and_the_team_scope(sdk: Maker) -> None:
    _, key = await new_account("pro", 0)
    enterprise_id, _ = await new_account("enterprise", 0)
    narrow = await accounts.create_api_key(enterprise_id, scopes_wanted=frozenset({"profiles"}))
    async with sdk(api_key=key) as client, sdk(api_key=narrow) as scoped:
        with pytest.raises(astro_sdk.PermissionDeniedError) as tier:
            await client.team.list()
        assert "enterprise" in tier.value.message
        with pytest.raises(astro_sdk.PermissionDeniedError) as scope:
            await scoped.team.list()
        assert "'team' scope" in scope.value.message
        assert (await scoped.profiles.list()).data == []


async def test_team_members_of_another_account_are_not_found(sdk: Maker) -> None:
    account_id, key = await new_account("enterprise", 0)
    other_id, _ = await new_account("enterprise", 0)
    theirs = await accounts.create_customer(other_id, "them@example.test", "their-password")
    await accounts.create_customer(account_id, "me@example.test", "my-long-password")
    async with sdk(api_key=key) as client:
        with pytest.raises(astro_sdk.NotFoundError):
            await client.team.change_role(theirs.id, role="viewer")
        with pytest.raises(astro_sdk.NotFoundError):
            await client.team.remove(theirs.id)
    assert (await Customer.get(id=theirs.id)).role == "owner"


# Every session route: the role each needs (GET viewer, else member, unless declared). Routes
# other branches add are covered by the default; a route missing here fails the test below.
DECLARED = {
    ("POST", "/auth/logout"): "viewer",
    ("PATCH", "/auth/me"): "viewer",  # the login's own preferences
    ("POST", "/v1/team/members"): "owner",
    ("PATCH", "/v1/team/members/{id}"): "owner",
    ("DELETE", "/v1/team/members/{id}"): "owner",
    ("POST", "/v1/report-brand-profiles"): "admin",
    ("PATCH", "/v1/report-brand-profiles/{id}"): "admin",
    ("DELETE", "/v1/report-brand-profiles/{id}"): "admin",
    # The account's visual-reading deliveries receive every reading's summary: admin.
    ("POST", "/v1/visual-reading-deliveries"): "admin",
    ("PATCH", "/v1/visual-reading-deliveries/{subscription_id}"): "admin",
    ("DELETE", "/v1/visual-reading-deliveries/{subscription_id}"): "admin",
    # The Developers area: keys and webhook endpoints are managed by admins (docs/decisions.md).
    ("POST", "/v1/developer/keys"): "admin",
    ("POST", "/v1/developer/keys/{key_id}/rotate"): "admin",
    ("DELETE", "/v1/developer/keys/{key_id}"): "admin",
    ("POST", "/v1/developer/webhook-endpoints"): "admin",
    ("PATCH", "/v1/developer/webhook-endpoints/{id}"): "admin",
    ("DELETE", "/v1/developer/webhook-endpoints/{id}"): "admin",
    ("POST", "/v1/developer/webhook-endpoints/{id}/rotate-secret"): "admin",
    ("POST", "/v1/developer/webhook-endpoints/{id}/test"): "admin",
    ("POST", "/v1/developer/webhook-endpoints/{id}/deliveries/{delivery_id}/retry"): ("admin"),
}
ROLE_ORDER = ["viewer", "member", "admin", "owner"]
_SAMPLE_IDS = {
    "id": "hfs_" + "0" * 24,
    "delivery_id": "dlv_" + "0" * 24,
}


def _session_routes(document: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            security = operation.get("security") or []
            if any("SessionBearer" in requirement for requirement in security):
                found.append((method.upper(), path))
    return sorted(found)


async def test_every_role_against_every_session_route(app: Quart) -> None:
    account_id, _ = await new_account("enterprise", 0)
    client = app.test_client()
    document = await (await client.get("/openapi.json")).get_json()
    routes = _session_routes(document)
    assert len(routes) >= 14
    tokens = {}
    for role in ROLE_ORDER:
        customer = await accounts.create_customer(
            account_id, f"{role}@example.test", "password-one-two"
        )
        await Customer.filter(id=customer.id).update(role=role)
        tokens[role] = await _login_raw(client, f"{role}@example.test")
    checked = 0
    for method, path in routes:
        needed = DECLARED.get((method, path), "viewer" if method == "GET" else "member")
        url = path
        for name, value in _SAMPLE_IDS.items():
            url = url.replace("{" + name + "}", value)
        for role in ROLE_ORDER:
            if (method, path) == ("POST", "/auth/logout"):
                continue  # checked last: it ends the session
            answer = await client.open(
                url, method=method, json={}, headers={"Authorization": f"Bearer {tokens[role]}"}
            )
            body = await answer.get_json()
            refused = answer.status_code == 403 and "role" in (body or {}).get("message", "")
            allowed = ROLE_ORDER.index(role) >= ROLE_ORDER.index(needed)
            assert refused is not allowed, (method, path, role, answer.status_code, body)
            if refused:
                assert f"the {needed!r} role" in body["message"]
            checked += 1
    for role in ROLE_ORDER:
        answer = await client.post(
            "/auth/logout", headers={"Authorization": f"Bearer {tokens[role]}"}
        )
        assert answer.status_code == 204
    assert checked == (len(routes) - 1) * len(ROLE_ORDER)


async def _login_raw(client: Any, email: str) -> str:
    answer = await client.post("/auth/login", json={"email": email, "password": "password-one-two"})
    assert answer.status_code == 200
    token: str = (await answer.get_json())["token"]
    return token


async def test_test_keys_read_the_team_but_do_not_change_it(sdk: Maker) -> None:
    account_id, _ = await new_account("enterprise", 0)
    test_key = await _test_key(account_id)
    boss = await accounts.create_customer(account_id, "boss@example.test", "boss-password")
    async with sdk(api_key=test_key) as client:
        assert [m.id for m in (await client.team.list()).members] == [boss.id]
        with pytest.raises(astro_sdk.PermissionDeniedError) as caught:
            await client.team.invite(email="x@example.test", role="viewer")
        assert "live key" in caught.value.message
        with pytest.raises(astro_sdk.PermissionDeniedError):
            await client.team.change_role(boss.id, role="viewer")
        with pytest.raises(astro_sdk.PermissionDeniedError):
            await client.team.remove(boss.id)


async def test_a_listing_that_returns_profiles_is_audited(sdk: Maker) -> None:
    account_id, key = await new_account("pro", 0)
    async with sdk(api_key=key) as client:
        assert (await client.profiles.list()).data == []
        await _profile(client)
        assert len((await client.profiles.list(tag=TAG)).data) == 1
    listed = await AuditEvent.filter(account_id=account_id, action="profile.listed")
    assert [e.object_id for e in listed] == [None]


async def test_rotation_re_encrypts_the_delivery_signing_secrets_too(app: Quart) -> None:
    from astro_server.platform.delivery.secrets_box import SecretBox, SecretDecryptionError
    from astro_server.platform.models.delivery import HoroscopeFeedSubscription, WebhookEndpoint

    old = app.extensions["astro"].settings.secret_key
    account_id, _ = await new_account("pro", 0)
    sub_id = "hfs_" + "a" * 24
    await HoroscopeFeedSubscription.create(
        id=sub_id,
        account_id=account_id,
        customer_id="cus_" + "0" * 24,
        destination_url="https://example.test/hook",
        destination_hash="0" * 64,
        sign="aries",
        secret_ciphertext=SecretBox(old).encrypt("whsec_current", bound_to=sub_id),
        previous_secret_ciphertext=SecretBox(old).encrypt("whsec_previous", bound_to=sub_id),
    )
    endpoint_id = "whe_" + "b" * 24
    await WebhookEndpoint.create(
        id=endpoint_id,
        account_id=account_id,
        destination_url="https://example.test/events",
        secret_ciphertext=SecretBox(old).encrypt("whsec_endpoint", bound_to=endpoint_id),
    )
    assert await profile_crypto.rotate_master_key(old, "m" * 40) == (0, 2)
    endpoint = await WebhookEndpoint.get(id=endpoint_id)
    assert SecretBox("m" * 40).decrypt(endpoint.secret_ciphertext, bound_to=endpoint_id) == (
        "whsec_endpoint"
    )
    row = await HoroscopeFeedSubscription.get(id=sub_id)
    new_box = SecretBox("m" * 40)
    assert new_box.decrypt(row.secret_ciphertext, bound_to=sub_id) == "whsec_current"
    assert row.previous_secret_ciphertext is not None
    assert new_box.decrypt(row.previous_secret_ciphertext, bound_to=sub_id) == "whsec_previous"
    with pytest.raises(SecretDecryptionError):
        SecretBox(old).decrypt(row.secret_ciphertext, bound_to=sub_id)
    # A row that does not open with the current key stops the whole rotation: nothing changes.
    with pytest.raises(SecretDecryptionError):
        await profile_crypto.rotate_master_key(old, "z" * 40)
    assert (
        await HoroscopeFeedSubscription.get(id=sub_id)
    ).secret_ciphertext == row.secret_ciphertext
