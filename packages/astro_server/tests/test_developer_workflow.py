"""Keys, scopes, test mode, the ledger endpoints and the audit log, in process through the SDK
(httpx's ASGI transport into the app) on SQLite and PostgreSQL: what needs a controllable clock
or many concurrent requests. Live server processes: tests/test_e2e_developer.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from _platform_support import new_account, settings_for
from quart import Quart
from tortoise import connections
from tortoise.exceptions import OperationalError

import astro_sdk
from astro_sdk import AsyncAstroClient
from astro_server.platform import clock
from astro_server.platform.auth import accounts, scopes
from astro_server.platform.caller import Caller
from astro_server.platform.models.accounts import Account, ApiKey
from astro_server.platform.models.audit import AuditEvent
from astro_server.platform.models.billing import LedgerEntry
from astro_server.settings import Settings

SUBJECT = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(
        database_url,
        tmp_path,
        rate_limits={"free": 10_000, "starter": 10_000, "pro": 10_000, "enterprise": 10_000},
    )


@pytest.fixture
def sdk(app: Quart) -> Callable[[str], AsyncIterator[AsyncAstroClient]]:
    """``async with sdk(api_key) as client``: the SDK talking to the app in process."""

    @asynccontextmanager
    async def make(api_key: str) -> AsyncIterator[AsyncAstroClient]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield AsyncAstroClient(
                api_key=api_key, base_url="http://testserver", http_client=http, max_retries=0
            )

    return make  # type: ignore[return-value]


class MovableClock:
    """``clock.now`` a test can move forward."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


async def test_a_rotated_key_works_through_its_grace_period_and_not_a_second_after(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]], monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = MovableClock()
    monkeypatch.setattr(clock, "now", moved)
    _, key = await new_account("free", 0)
    async with sdk(key) as client:
        me = await client.account.get()
        rotated = await client.keys.rotate(me.key.id, grace_s=3600)
    assert rotated.previous.id == me.key.id
    assert rotated.key.id != me.key.id
    assert rotated.secret.startswith("ak_live_")
    assert rotated.key.scopes == me.key.scopes == ["*"]
    assert rotated.previous.expires_at is not None
    ends = rotated.previous.expires_at
    assert abs((ends - datetime.now(UTC)).total_seconds() - 3600) < 60
    async with sdk(key) as old, sdk(rotated.secret) as new:
        moved.offset = ends - datetime.now(UTC) - timedelta(seconds=1)  # 1 s before the end
        assert (await old.account.get()).key.id == me.key.id
        moved.offset = ends - datetime.now(UTC) + timedelta(seconds=1)  # 1 s after
        with pytest.raises(astro_sdk.AuthenticationError) as caught:
            await old.account.get()
        assert "grace period" in caught.value.message
        assert (await new.account.get()).key.id == rotated.key.id
        # A key already rotated cannot be rotated again (one successor per key).
        with pytest.raises(astro_sdk.ConflictError):
            await new.keys.rotate(me.key.id, grace_s=0)


async def test_revoking_a_key_ends_the_grace_of_the_keys_it_replaced(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    """Issue 50: a key rotated twice (A -> B -> C, each with an hour of grace) is one key to its
    owner; revoking C stops A and B at once too, as the portal's confirmation promises."""
    _, key = await new_account("free", 0)
    async with sdk(key) as client:
        spare = await client.keys.create(name="ci")
        first = await client.keys.rotate(spare.key.id, grace_s=3600)
        second = await client.keys.rotate(first.key.id, grace_s=3600)
    async with sdk(spare.secret) as a, sdk(first.secret) as b, sdk(second.secret) as c:
        for old in (a, b, c):  # all three work, two of them in their grace
            assert (await old.account.get()).key.id in (spare.key.id, first.key.id, second.key.id)
        revoked = await c.keys.revoke(second.key.id)
        assert revoked.revoked_at is not None
        for old in (a, b, c):
            with pytest.raises(astro_sdk.AuthenticationError) as caught:
                await old.account.get()
            assert "revoked" in caught.value.message
    rows = await ApiKey.filter(id__in=[spare.key.id, first.key.id]).values_list(
        "revoked_at", flat=True
    )
    assert len(rows) == 2
    assert None not in rows
    actions = await AuditEvent.filter(action="key.revoked").values_list("object_id", flat=True)
    assert {spare.key.id, first.key.id, second.key.id} <= set(actions)


async def test_grace_is_bounded_at_seven_days_on_both_sides(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    _, key = await new_account("free", 0)
    async with sdk(key) as client:
        spare = await client.keys.create(name="spare")
        with pytest.raises(astro_sdk.RequestValidationError):
            await client.keys.rotate(spare.key.id, grace_s=604_801)  # refused before sending
        # The server refuses it too (a raw request: the SDK would not send it).
        raw = await client._http.post(
            f"/api/v3/keys/{spare.key.id}/rotate",
            json={"grace_s": 604_801},
            headers={"X-API-Key": key},
        )
        assert raw.status_code == 400
        assert raw.json()["details"][0]["field"] == "grace_s"
        rotated = await client.keys.rotate(spare.key.id, grace_s=604_800)
        assert rotated.previous.expires_at is not None
        neg = await client._http.post(
            f"/api/v3/keys/{rotated.key.id}/rotate",
            json={"grace_s": -1},
            headers={"X-API-Key": key},
        )
        assert neg.status_code == 400


async def test_concurrent_debits_never_overdraw_while_the_ledger_is_read(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    account_id, key = await new_account("free", 10)
    async with sdk(key) as client:

        async def natal() -> int:
            try:
                chart = await client.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
            except astro_sdk.InsufficientCreditsError:
                return 402
            assert chart.api_response.credits_charged == 1
            return 200

        async def read() -> int:
            page = await client.ledger.list(limit=5)
            usage = await client.usage.get()
            for entry in page.data:
                assert entry.balance_after is not None
                assert entry.balance_after >= 0
            assert all(g.credits_charged >= 0 for g in usage.groups)
            return 0

        results = await asyncio.gather(*(natal() for _ in range(30)), *(read() for _ in range(10)))
    assert sorted(r for r in results if r) == [200] * 10 + [402] * 20
    assert (await Account.get(id=account_id)).credits == 0
    debits = await LedgerEntry.filter(account_id=account_id, kind="debit").order_by("id")
    # Each debit records the balance it left: 9, 8, ..., 0, one each, in ledger order.
    assert [d.balance_after for d in debits] == list(range(9, -1, -1))
    async with sdk(key) as client:
        every = [entry async for entry in client.ledger.list(limit=3)]
        usage = await client.usage.get(group_by="operation")
    assert [e.type for e in every] == ["debit"] * 10 + ["top_up"]
    assert [e.balance_after for e in every] == list(range(11))
    assert [(g.key, g.calls, g.credits_charged, g.net_credits) for g in usage.groups] == [
        ("western.natal", 10, 10, 10)
    ]


async def test_refunds_appear_in_the_ledger_and_usage_with_their_balance(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    from tortoise.transactions import in_transaction

    from astro_server.platform.billing import ledger as billing

    account_id, key = await new_account("starter", 5)
    async with sdk(key) as client:
        chart = await client.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        request_id = chart.api_response.request_id
    debit = await LedgerEntry.get(account_id=account_id, kind="debit")
    assert debit.request_id == request_id
    assert debit.balance_after == 4
    async with in_transaction() as conn:
        await billing.refund(conn, account_id, debit.id, 1, "western.natal", job_id="job_x")
    async with sdk(key) as client:
        page = await client.ledger.list()
        by_day = await client.usage.get(group_by="day")
    refund = page.data[0]
    assert (refund.type, refund.credits, refund.balance_after, refund.job_id) == (
        "refund",
        1,
        5,
        "job_x",
    )
    assert page.data[1].request_id == request_id
    today = datetime.now(UTC).date().isoformat()
    assert [
        (g.key, g.calls, g.refunds, g.credits_refunded, g.net_credits) for g in by_day.groups
    ] == [(today, 1, 1, 1, 0)]


async def test_usage_range_is_checked_at_its_edges(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    _, key = await new_account("free", 0)
    end = datetime(2026, 6, 1, tzinfo=UTC)
    async with sdk(key) as client:
        ok = await client.usage.get(start=end - timedelta(days=366), end=end)
        assert ok.groups == []
        assert ok.from_ == end - timedelta(days=366)
        for start in (end - timedelta(days=366, seconds=1), end, end + timedelta(days=1)):
            with pytest.raises(astro_sdk.BadRequestError) as caught:
                await client.usage.get(start=start, end=end)
            assert caught.value.details[0]["field"] == "to"


async def test_test_mode_runs_for_real_debits_nothing_and_keeps_jobs_apart(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    account_id, live_key = await new_account("starter", 5)
    test_key = await accounts.create_api_key(account_id, "test")
    async with sdk(test_key) as test, sdk(live_key) as live:
        chart = await test.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        assert len(chart.planets) >= 10  # computed for real
        assert chart.api_response.credits_charged == 0
        assert chart.api_response.credits_price == 1
        assert chart.api_response.credits_remaining == 5
        assert chart.api_response.rate_limit_limit == 100  # Settings.test_rate_limit
        live_chart = await live.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        assert live_chart.api_response.credits_charged == 1
        assert live_chart.api_response.credits_price == 1
        assert live_chart.api_response.rate_limit_limit == 10_000
        # No ledger row for the test call; a test key sees no ledger and no usage.
        assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 1
        assert (await test.ledger.list()).data == []
        assert (await test.usage.get()).groups == []
        records = [{"id": "a", "boy": SUBJECT, "girl": {**SUBJECT, "date": "1992-03-01"}}]
        test_job = await test.vedic.kundli_matching_batch(records=records)  # type: ignore[arg-type]
        live_job = await live.vedic.kundli_matching_batch(records=records)  # type: ignore[arg-type]
        assert test_job.api_response.credits_charged == 0
        assert (await test.jobs.get(test_job.job_id)).livemode is False
        assert (await live.jobs.get(live_job.job_id)).livemode is True
        for client, other in ((live, test_job.job_id), (test, live_job.job_id)):
            with pytest.raises(astro_sdk.NotFoundError):
                await client.jobs.get(other)
            with pytest.raises(astro_sdk.NotFoundError):
                await client.jobs.cancel(other)
        assert [j.job_id for j in (await test.jobs.list()).data] == [test_job.job_id]
        assert [j.job_id for j in (await live.jobs.list()).data] == [live_job.job_id]
        # Keys: each environment manages its own.
        me_live = (await live.account.get()).key
        me_test = (await test.account.get()).key
        assert me_test.environment == "test"
        assert me_test.prefix.startswith("ak_test_")
        with pytest.raises(astro_sdk.NotFoundError):
            await test.keys.revoke(me_live.id)
        with pytest.raises(astro_sdk.NotFoundError):
            await live.keys.rotate(me_test.id)
        with pytest.raises(astro_sdk.PermissionDeniedError):
            await live.keys.create(environment="test")
        made = await test.keys.create(name="ci")
        assert made.key.environment == "test"
        assert made.secret.startswith("ak_test_")
        assert {k.id async for k in test.keys.list()} == {me_test.id, made.key.id}
        assert {k.id async for k in live.keys.list()} == {me_live.id}
    assert (await Account.get(id=account_id)).credits == 5 - 1 - 2  # live natal, live batch


async def test_scopes_limit_calls_and_grants(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    _, key = await new_account("free", 5)
    async with sdk(key) as admin:
        admin_id = (await admin.account.get()).key.id
        keys_only = await admin.keys.create(name="keys", scopes=["keys", "western"])
        assert keys_only.key.scopes == ["keys", "western"]
    async with sdk(keys_only.secret) as scoped:
        chart = await scoped.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        assert chart.api_response.status_code == 200
        with pytest.raises(astro_sdk.PermissionDeniedError) as caught:
            await scoped.numerology.profile(name="Ada Lovelace", birth_date="1815-12-10")
        assert caught.value.status_code == 403
        assert caught.value.error == "forbidden"
        assert "'tarot' scope" in caught.value.message
        # Developer workflow needs no scope.
        assert (await scoped.account.get()).key.scopes == ["keys", "western"]
        # Within its own scopes it may grant; beyond them not.
        sub = await scoped.keys.create(scopes=["western"])
        assert sub.key.scopes == ["western"]
        for wanted in (["vedic"], ["*"], ["western", "thai"]):
            with pytest.raises(astro_sdk.PermissionDeniedError) as denied:
                await scoped.keys.create(scopes=wanted)
            assert "cannot grant" in denied.value.message
        # Nor rotate (a fresh secret of) or revoke a key holding more than it does.
        for call in (scoped.keys.rotate(admin_id), scoped.keys.revoke(admin_id)):
            with pytest.raises(astro_sdk.PermissionDeniedError):
                await call
        # The audit log needs the team scope.
        with pytest.raises(astro_sdk.PermissionDeniedError) as no_team:
            await scoped.audit_log.list()
        assert "'team' scope" in no_team.value.message
    async with sdk(sub.secret) as western_only:
        with pytest.raises(astro_sdk.PermissionDeniedError) as no_keys:
            await western_only.keys.list()
        assert "'keys' scope" in no_keys.value.message


def test_every_api_key_route_maps_to_a_named_scope_or_none(app: Quart) -> None:
    """The one mechanism covers every route the app has: no /api/v3 group falls back to '*'."""
    rules = [r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/v3/")]
    assert rules
    unmapped = sorted({r for r in rules if scopes.scope_for_rule(r) == scopes.ALL})
    assert unmapped == []
    assert scopes.scope_for_rule("/api/v3/korean/saju") == "chinese"
    assert scopes.scope_for_rule("/api/v3/numerology/profile") == "tarot"
    assert scopes.scope_for_rule("/api/v3/jobs/<job_id>") is None
    assert scopes.scope_for_rule("/api/v3/brand-new-group") == scopes.ALL


async def test_audit_rows_record_key_changes_and_cannot_be_changed(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    account_id, key = await new_account("free", 0)
    other_id, other_key = await new_account("free", 0)
    async with sdk(key) as client:
        me = (await client.account.get()).key
        made = await client.keys.create(name="tmp", scopes=["tarot"])
        rotated = await client.keys.rotate(made.key.id, grace_s=60)
        revoked = await client.keys.revoke(rotated.key.id)
        assert revoked.revoked_at is not None
        events = [e async for e in client.audit_log.list(limit=2)]
        by_actor = (await client.audit_log.list(actor=me.id)).data
        only_revoked = (await client.audit_log.list(action="key.revoked")).data
        later = (await client.audit_log.list(start=datetime.now(UTC) + timedelta(minutes=1))).data
    # Revoking the rotated key also ends its predecessor's grace (issue 50): audited first.
    assert [(e.action, e.object_id) for e in events] == [
        ("key.revoked", made.key.id),
        ("key.revoked", rotated.key.id),
        ("key.rotated", made.key.id),
        ("key.created", made.key.id),
        ("key.created", me.id),
    ]
    assert events[-1].actor.kind == "operator"
    for event in events[:4]:
        assert event.actor.id == me.id
        assert event.actor.kind == "api_key"
        assert event.request_id
        assert event.request_id.startswith("req_")
        assert event.client_address
    assert len(by_actor) == 4
    assert [e.action for e in only_revoked] == ["key.revoked", "key.revoked"]
    assert later == []
    # Another account sees none of it, and cannot touch the keys.
    async with sdk(other_key) as other:
        seen = (await other.audit_log.list()).data
        assert [e.action for e in seen] == ["key.created"]
        assert seen[0].object_id not in {me.id, made.key.id}
        for call in (other.keys.revoke(made.key.id), other.keys.rotate(me.id)):
            with pytest.raises(astro_sdk.NotFoundError):
                await call
    assert other_id != account_id
    # No secret in any row.
    rows = await AuditEvent.filter(account_id=account_id).values()
    assert not any("ak_live_" in str(v) for row in rows for v in row.values())
    if connections.get("default").capabilities.dialect == "postgres":
        import asyncpg

        with pytest.raises((OperationalError, asyncpg.RaiseError), match="append-only"):
            await AuditEvent.filter(account_id=account_id).update(action="x")
        with pytest.raises((OperationalError, asyncpg.RaiseError), match="append-only"):
            await AuditEvent.filter(account_id=account_id).delete()


async def test_usage_sums_closed_days_once_and_matches_the_ledger(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole closed days come from usage_daily, made once; the partial edges and open days from
    the ledger: the totals equal a plain sum over the ledger, before and after more days close."""
    from astro_server.platform import db
    from astro_server.platform.models.billing import UsageDaily, UsageRollup

    moved = MovableClock()
    monkeypatch.setattr(clock, "now", moved)
    account_id, key = await new_account("free", 0)
    now = datetime.now(UTC)
    rows = []
    for i in range(200):  # every 7 hours back over ~58 days, three operations, some refunds
        at = now - timedelta(hours=7 * i, minutes=i % 60)
        kind, amount = ("refund", 2) if i % 9 == 0 else ("debit", -(1 + i % 3))
        rows.append([account_id, kind, amount, f"op.{i % 3}", at])
    await db.execute_many(
        "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )

    def expected(
        start: datetime, end: datetime, by_day: bool
    ) -> dict[str, tuple[int, int, int, int]]:
        out: dict[str, list[int]] = {}
        for _, kind, amount, operation, at in rows:
            if start <= at < end:
                key_ = at.date().isoformat() if by_day else operation
                entry = out.setdefault(key_, [0, 0, 0, 0])
                if kind == "debit":
                    entry[0] += 1
                    entry[1] -= amount
                else:
                    entry[2] += 1
                    entry[3] += amount
        return {k: (v[0], v[1], v[2], v[3]) for k, v in out.items()}

    async def check(client: AsyncAstroClient, start: datetime, end: datetime) -> None:
        for group_by in ("operation", "day"):
            got = await client.usage.get(start=start, end=end, group_by=group_by)
            assert {
                g.key: (g.calls, g.credits_charged, g.refunds, g.credits_refunded)
                for g in got.groups
            } == expected(start, end, group_by == "day")

    async with sdk(key) as client:
        windows = [
            (now - timedelta(days=30, hours=5), now + timedelta(minutes=1)),
            (now - timedelta(days=60), now - timedelta(days=3, hours=2)),
            (now - timedelta(hours=20), now),  # inside the open days: the ledger only
        ]
        for start, end in windows:
            await check(client, start, end)
        summed = await UsageDaily.filter(account_id=account_id).count()
        state = await UsageRollup.get(account_id=account_id)
        assert summed > 0
        assert state.rolled_until == (now - timedelta(hours=1)).date().isoformat()
        for start, end in windows:  # again, from the stored sums: the same answers
            await check(client, start, end)
        assert await UsageDaily.filter(account_id=account_id).count() == summed
        moved.offset = timedelta(days=2)  # two more days close: summed incrementally
        await check(client, now - timedelta(days=10), now + timedelta(minutes=1))
    state = await UsageRollup.get(account_id=account_id)
    assert state.rolled_until == (now + timedelta(days=2, hours=-1)).date().isoformat()
    assert await UsageDaily.filter(account_id=account_id).count() > summed


async def test_the_scheduler_sums_closed_days_and_a_late_refund_lands_on_its_own_day(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``usage.roll_up`` sums the closed days of the accounts behind (at most ``limit`` a run;
    one with no rows only has its mark moved), so the first usage request finds them ready; a
    refund of a debit of a closed day is a ledger row of today (now), never a change to a closed
    day, and the totals stay equal to a plain sum over the ledger before and after its day
    closes."""
    from tortoise.transactions import in_transaction

    from astro_server.platform import db, maintenance
    from astro_server.platform.billing import ledger as billing
    from astro_server.platform.billing import usage
    from astro_server.platform.models.billing import LedgerEntry, UsageDaily, UsageRollup

    moved = MovableClock()
    monkeypatch.setattr(clock, "now", moved)
    idle_id, _ = await new_account("free", 0)  # no ledger rows: nothing to sum
    account_id, key = await new_account("free", 100)
    other_id, _ = await new_account("free", 0)
    now = datetime.now(UTC)
    rows = [
        [acct, "debit", -(1 + i % 3), f"op.{i % 2}", now - timedelta(hours=5 * i + 2)]
        for acct in (account_id, other_id)
        for i in range(60)
    ]
    await db.execute_many(
        "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    target = (now - timedelta(hours=1)).date().isoformat()
    before = {
        r.account_id
        for r in await UsageRollup.filter(account_id__in=[idle_id, account_id, other_id])
    }
    assert before == set()
    await usage.roll_up_closed_days(limit=1)  # one account a run at most
    assert len(await UsageRollup.filter(account_id__in=[idle_id, account_id, other_id])) == 1
    await maintenance.roll_up_usage()  # the periodic task: the rest
    states = {
        r.account_id: r.rolled_until
        for r in await UsageRollup.filter(account_id__in=[idle_id, account_id, other_id])
    }
    assert states == {idle_id: target, account_id: target, other_id: target}
    assert not await UsageDaily.filter(account_id=idle_id).exists()
    assert await usage.roll_up_closed_days() == 0  # nothing behind any more
    summed = await UsageDaily.filter(account_id=account_id).count()
    assert summed > 0

    old = (
        await LedgerEntry.filter(account_id=account_id, kind="debit").order_by("created_at").first()
    )
    assert old is not None
    assert old.created_at < now - timedelta(days=5)
    async with in_transaction() as conn:  # the job failed late: its debit is given back today
        await billing.refund(conn, account_id, old.id, -old.amount, old.operation)
    ledger = await LedgerEntry.filter(account_id=account_id)
    refund = next(e for e in ledger if e.kind == "refund")
    assert refund.created_at >= now - timedelta(minutes=1)

    def expected(start: datetime, end: datetime, by_day: bool) -> dict[str, tuple[int, ...]]:
        out: dict[str, list[int]] = {}
        for e in ledger:
            if e.kind in ("debit", "refund") and start <= e.created_at < end:
                key_ = e.created_at.astimezone(UTC).date().isoformat() if by_day else e.operation
                entry = out.setdefault(key_, [0, 0, 0, 0])
                if e.kind == "debit":
                    entry[0] += 1
                    entry[1] -= e.amount
                else:
                    entry[2] += 1
                    entry[3] += e.amount
        return {k: tuple(v) for k, v in out.items()}

    async def check(client: AsyncAstroClient, start: datetime, end: datetime) -> None:
        for group_by in ("operation", "day"):
            got = await client.usage.get(start=start, end=end, group_by=group_by)
            assert {
                g.key: (g.calls, g.credits_charged, g.refunds, g.credits_refunded)
                for g in got.groups
            } == expected(start, end, group_by == "day")

    window = (now - timedelta(days=20), now + timedelta(minutes=5))
    async with sdk(key) as client:
        await check(client, *window)
        assert await UsageDaily.filter(account_id=account_id).count() == summed
        assert not await UsageDaily.filter(account_id=account_id, kind="refund").exists()
        moved.offset = timedelta(days=2)  # the refund's day closes: the scheduler sums it
        assert await usage.roll_up_closed_days() >= 1
        state = await UsageRollup.get(account_id=account_id)
        assert state.rolled_until == (now + timedelta(days=2, hours=-1)).date().isoformat()
        assert await UsageDaily.filter(account_id=account_id, kind="refund").count() == 1
        await check(client, *window)


async def test_closed_days_sums_are_kept_per_window_and_match_the_ledger(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closed days' sums of a window are read from usage_daily once, then from the
    process's cache (they never change): the same totals as a plain sum over the ledger, today's
    new rows still counted; at most CLOSED_CACHE_SIZE windows are kept, least recent dropped."""
    from astro_server.platform import db
    from astro_server.platform.billing import usage

    monkeypatch.setattr(usage, "CLOSED_CACHE_SIZE", 2)
    usage._closed_cache.clear()
    account_id, key = await new_account("free", 0)
    now = datetime.now(UTC)
    rows = [
        [account_id, "debit", -(1 + i % 4), f"op.{i % 3}", now - timedelta(hours=3 * i + 2)]
        for i in range(150)
    ]
    await db.execute_many(
        "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    reads: list[str] = []
    fetch = db.fetch

    async def counting(query: str, values: list[Any], conn: Any = None) -> list[dict[str, Any]]:
        if "FROM usage_daily" in query:
            reads.append(query)
        return await fetch(query, values, conn)

    monkeypatch.setattr(db, "fetch", counting)

    def expected(start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
        out: dict[str, list[int]] = {}
        for _, _, amount, operation, at in rows:
            if start <= at < end:
                entry = out.setdefault(operation, [0, 0])
                entry[0] += 1
                entry[1] -= amount
        return {k: (v[0], v[1]) for k, v in out.items()}

    async def check(client: AsyncAstroClient, days: int) -> None:
        start, end = now - timedelta(days=days, minutes=7), now + timedelta(minutes=1)
        got = await client.usage.get(start=start, end=end, group_by="operation")
        assert {g.key: (g.calls, g.credits_charged) for g in got.groups} == expected(start, end)

    async with sdk(key) as client:
        await check(client, 15)
        assert len(reads) == 1
        await check(client, 15)  # the same closed days: from the cache
        assert len(reads) == 1
        today = [account_id, "debit", -5, "op.new", now - timedelta(seconds=1)]
        await db.execute_many(
            "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [today],
        )
        rows.append(today)
        await check(client, 15)  # today's row comes from the ledger, the closed days cached
        assert len(reads) == 1
        await check(client, 10)
        await check(client, 5)
        assert len(reads) == 3
        assert len(usage._closed_cache) == 2
        await check(client, 15)  # dropped as the least recently used: read again
        assert len(reads) == 4


async def test_key_requests_are_checked_at_their_limits(
    sdk: Callable[[str], AsyncIterator[AsyncAstroClient]],
) -> None:
    from astro_server.platform.auth import keys

    account_id, key = await new_account("free", 0)
    headers = {"X-API-Key": key}
    async with sdk(key) as client:
        http = client._http
        made = await client.keys.create(name="n" * 100)
        assert made.key.name == "n" * 100
        cases = [
            ({"name": "n" * 101}, "name"),
            ({"scopes": []}, "scopes"),
            ({"scopes": ["astrology"]}, "scopes[0]"),
            ({"environment": "staging"}, "environment"),
            ({"name": "tab\there"}, "name"),
        ]
        for body, field in cases:
            response = await http.post("/api/v3/keys", json=body, headers=headers)
            assert response.status_code == 400, body
            assert response.json()["details"][0]["field"] == field
        for query in ({"limit": 0}, {"limit": 101}, {"cursor": "key_" + "0" * 24}):
            response = await http.get("/api/v3/keys", params=query, headers=headers)
            assert response.status_code == 400, query
        page = await http.get("/api/v3/keys", params={"limit": 100}, headers=headers)
        assert page.status_code == 200
        bad_pages = [
            ("/api/v3/ledger", {"cursor": "x1"}),
            ("/api/v3/ledger", {"limit": 101}),
            ("/api/v3/audit-log", {"cursor": "x1"}),
            ("/api/v3/audit-log", {"limit": 201}),
            ("/api/v3/usage", {"group_by": "week"}),
        ]
        for path, query in bad_pages:
            response = await http.get(path, params=query, headers=headers)
            assert response.status_code == 400, (path, query)
        audit_max = await http.get("/api/v3/audit-log", params={"limit": 200}, headers=headers)
        assert audit_max.status_code == 200
        # At most MAX_ACTIVE_KEYS unrevoked keys per environment: the last one fits, one more not.
        active = 2  # the account's first key and "n" * 100
        for _ in range(keys.MAX_ACTIVE_KEYS - active):
            await keys.create_key(Caller.operator(account_id), account_id)
        with pytest.raises(astro_sdk.ConflictError):
            await client.keys.create()
        await client.keys.revoke(made.key.id)
        assert (await client.keys.create()).key.environment == "live"


async def test_numeric_cursors_must_name_a_row_of_the_listing(app: Quart) -> None:
    """Issue 29: the ledger (and the audit log) took any number as a cursor and answered an
    empty or foreign page; a cursor that is not one of the account's rows is the 400
    ``invalid_cursor`` naming ``cursor``, as on the other lists (platform/paging.py)."""
    from astro_server.platform.billing.ledger import add_credits

    account_id, key = await new_account("free", 0)
    other_id, other_key = await new_account("free", 0)
    for _ in range(3):
        await add_credits(account_id, 5)
        await add_credits(other_id, 5)
    client = app.test_client()
    headers = {"X-API-Key": key}
    first = await client.get("/api/v3/ledger", query_string={"limit": 1}, headers=headers)
    assert first.status_code == 200
    own_cursor = (await first.get_json())["next_cursor"]
    assert own_cursor is not None
    second = await client.get(
        "/api/v3/ledger", query_string={"limit": 1, "cursor": own_cursor}, headers=headers
    )
    assert second.status_code == 200
    assert len((await second.get_json())["entries"]) == 1
    foreign = await client.get(
        "/api/v3/ledger", query_string={"limit": 1}, headers={"X-API-Key": other_key}
    )
    foreign_cursor = (await foreign.get_json())["next_cursor"]
    for path, cursor in [
        ("/api/v3/ledger", "999999999"),
        ("/api/v3/ledger", foreign_cursor),
        ("/api/v3/ledger", "9" * 30),
        ("/api/v3/audit-log", "999999999"),
    ]:
        response = await client.get(path, query_string={"cursor": cursor}, headers=headers)
        body = await response.get_json()
        assert response.status_code == 400, (path, cursor, body)
        assert body["code"] == "invalid_cursor"
        assert body["details"][0]["field"] == "cursor"
