"""The developer workflow end to end through the SDK against live server processes: account,
usage, ledger, keys (scopes, rotation, revocation), test mode and the audit log, on SQLite
(embedded server) and on PostgreSQL + Redis; and revocation seen at once by a second API
process sharing PostgreSQL and Redis."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

import astro_sdk
from astro_sdk import AstroClient
from tests._support.accounts import create_account
from tests._support.stack import Stack

pytestmark = pytest.mark.slow

SUBJECT = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
RECORDS = [{"id": "a", "boy": SUBJECT, "girl": {**SUBJECT, "date": "1992-03-01"}}]


def cli_json(stack: Stack, *args: str) -> dict[str, Any]:
    out = stack.run_cli(*args, "--json")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def new_account(stack: Stack, tier: str = "starter", credits: int = 20) -> tuple[str, str]:
    made = create_account(stack, tier=tier, credits=credits, name="dev")
    return made["account_id"], made["api_key"]


@pytest.fixture
def stack(
    database_url: str, stack_factory: Callable[..., Stack], request: pytest.FixtureRequest
) -> Stack:
    """SQLite: the embedded server (no database or Redis configured); PostgreSQL: with Redis."""
    if database_url.startswith("sqlite"):
        return stack_factory()
    redis_url: str = request.getfixturevalue("redis_namespace")
    return stack_factory(database_url=database_url, redis_url=redis_url)


def wait_for(client: AstroClient, job_id: str) -> None:
    deadline = time.monotonic() + 60
    while client.jobs.get(job_id).status in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_account_usage_ledger_keys_test_mode_and_audit_through_the_sdk(stack: Stack) -> None:
    server = stack.server()
    if stack.env.get("ASTRO_REDIS_URL"):
        stack.worker()
    account_id, key = new_account(stack)
    other_id, other_key = new_account(stack)
    url = server.base_url
    with AstroClient(api_key=key, base_url=url) as client:
        # Account, then two billed calls: the ledger and usage show them with their request ids.
        me = client.account.get()
        assert (me.account.id, me.account.tier, me.account.credits_balance) == (
            account_id,
            "starter",
            20,
        )
        assert me.account.rate_limit_per_minute == 300
        assert me.key.prefix == key[:12]
        assert me.key.environment == "live"
        assert me.key.scopes == ["*"]
        first = client.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        second = client.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        rows = list(client.ledger.list(limit=1))  # three pages, one row each
        assert [(r.type, r.credits, r.balance_after) for r in rows] == [
            ("debit", -1, 18),
            ("debit", -1, 19),
            ("top_up", 20, 20),
        ]
        assert [r.request_id for r in rows[:2]] == [
            second.api_response.request_id,
            first.api_response.request_id,
        ]
        usage = client.usage.get(group_by="operation")
        assert [(g.key, g.calls, g.credits_charged) for g in usage.groups] == [
            ("western.natal", 2, 2)
        ]
        assert client.account.get().account.credits_balance == 18
        live_job = client.vedic.kundli_matching_batch(records=RECORDS)  # type: ignore[arg-type]

        # Keys: a scoped key, its 403 naming the scope, no escalation, revocation at once.
        western = client.keys.create(name="site", scopes=["western"])
        assert western.key.scopes == ["western"]
        assert western.secret.startswith("ak_live_")
        assert {k.id for k in client.keys.list()} == {me.key.id, western.key.id}
        with AstroClient(api_key=western.secret, base_url=url) as scoped:
            scoped.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
            with pytest.raises(astro_sdk.PermissionDeniedError) as caught:
                scoped.vedic.kundli_matching_batch(records=RECORDS)  # type: ignore[arg-type]
            assert caught.value.error == "forbidden"
            assert "'vedic' scope" in caught.value.message
            with pytest.raises(astro_sdk.PermissionDeniedError):
                scoped.keys.create(scopes=["western"])  # no 'keys' scope
            client.keys.revoke(western.key.id)
            with pytest.raises(astro_sdk.AuthenticationError) as revoked:
                scoped.account.get()
            assert "revoked" in revoked.value.message

    # Another tenant: every id route answers 404 for this account's objects.
    with AstroClient(api_key=other_key, base_url=url) as other:
        for call in (
            lambda: other.keys.revoke(me.key.id),
            lambda: other.keys.rotate(me.key.id),
            lambda: other.jobs.get(live_job.job_id),
            lambda: other.jobs.cancel(live_job.job_id),
        ):
            with pytest.raises(astro_sdk.NotFoundError):
                call()
        assert [r.type for r in other.ledger.list()] == ["top_up"]
        assert other.account.get().account.id == other_id

    # Test mode: a test key from the operator CLI runs calls for real, debits nothing, and sees
    # only test objects.
    test_key = cli_json(
        stack, "create-key", "--account", account_id, "--environment", "test", "--name", "ci"
    )["api_key"]
    assert test_key.startswith("ak_test_")
    with (
        AstroClient(api_key=test_key, base_url=url) as test,
        AstroClient(api_key=key, base_url=url) as live,
    ):
        chart = test.western.natal(subject=SUBJECT)  # type: ignore[arg-type]
        assert len(chart.planets) >= 10
        assert chart.api_response.credits_charged == 0
        assert chart.api_response.credits_price == 1
        test_job = test.vedic.kundli_matching_batch(records=RECORDS)  # type: ignore[arg-type]
        wait_for(test, test_job.job_id)
        finished = test.jobs.get(test_job.job_id)
        assert finished.status == "succeeded"
        assert finished.livemode is False
        assert finished.credits_charged == 0
        with pytest.raises(astro_sdk.NotFoundError):
            live.jobs.get(test_job.job_id)
        with pytest.raises(astro_sdk.NotFoundError):
            test.jobs.get(live_job.job_id)
        assert [j.job_id for j in test.jobs.list()] == [test_job.job_id]
        assert test.account.get().key.environment == "test"
        assert test.account.get().account.rate_limit_per_minute == 100
        assert test.ledger.list().data == []
        balance = live.account.get().account.credits_balance
        assert balance == 18 - 2 - 1  # live batch (2) and the scoped key's natal (1)
        with pytest.raises(astro_sdk.NotFoundError):
            test.keys.revoke(me.key.id)  # a test key sees test keys only

    # The operator revokes by prefix through the same service: audited as the operator.
    revoked_count = cli_json(stack, "revoke-key", test_key[:12])
    assert revoked_count == {"revoked": 1}
    with (
        AstroClient(api_key=test_key, base_url=url) as test,
        pytest.raises(astro_sdk.AuthenticationError),
    ):
        test.account.get()
    with AstroClient(api_key=key, base_url=url) as client:
        events = list(client.audit_log.list())
    actions = [(e.action, e.actor.kind) for e in events]
    assert actions == [
        ("key.revoked", "operator"),
        ("key.created", "operator"),
        ("key.revoked", "api_key"),
        ("key.created", "api_key"),
        ("key.created", "operator"),
    ]
    assert events[2].object_id == western.key.id
    assert events[2].actor.id == me.key.id
    assert events[2].client_address == "127.0.0.1"
    assert events[0].livemode is False


@pytest.mark.postgres
@pytest.mark.redis
def test_revocation_is_immediate_in_every_api_process(production_stack: Stack) -> None:
    """Two API processes on one PostgreSQL and Redis, each caching key lookups for a minute:
    a key revoked (or rotated without grace) through one, or by the operator CLI, stops working
    in the other on its very next request."""
    cache = {"ASTRO_API_KEY_CACHE_S": "60"}
    first = production_stack.server(cache)
    second = production_stack.server(cache)
    _, key = new_account(production_stack)
    with (
        AstroClient(api_key=key, base_url=first.base_url) as one,
        AstroClient(api_key=key, base_url=second.base_url) as two,
    ):
        made = [one.keys.create(name=f"k{i}") for i in range(3)]
        clients = [AstroClient(api_key=m.secret, base_url=second.base_url) for m in made]
        try:
            for client in clients:  # each lookup is now cached in the second process
                assert client.account.get().key.id in {m.key.id for m in made}
            one.keys.revoke(made[0].key.id)
            with pytest.raises(astro_sdk.AuthenticationError):
                clients[0].account.get()
            one.keys.rotate(made[1].key.id, grace_s=0)
            with pytest.raises(astro_sdk.AuthenticationError):
                clients[1].account.get()
            production_stack.run_cli("revoke-key", made[2].secret)
            with pytest.raises(astro_sdk.AuthenticationError):
                clients[2].account.get()
            assert two.account.get().key.prefix == key[:12]  # the others still work
        finally:
            for client in clients:
                client.close()
