"""Tiers, credits, ledger, idempotency and estimates through ``@billable`` (SQLite and PostgreSQL).

The routes below are defined here, for the tests only, on real rows of the price table:
``western.natal`` (free tier, 1 credit), ``vedic.kundli_matching_batch`` (starter, 2 per record)
and ``reports.natal_pdf`` (pro, 10).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from pydantic import BaseModel, Field, field_validator
from quart import Blueprint, Quart, Response
from quart.typing import TestClientProtocol as Client
from quart_schema import DataSource, document_response, validate_querystring, validate_request
from tortoise.functions import Sum

from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.errors import APIError
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import IdempotencyRecord, LedgerEntry
from astro_server.platform.responses import json_response

routes = Blueprint("billing_test_routes", __name__)
executions: list[int] = []
release = asyncio.Event()
started = asyncio.Event()


class Echo(BaseModel):
    n: int = Field(ge=0, le=1000)
    outcome: str = "ok"  # ok | 400 | 500 | raise | wait | large


class Batch(BaseModel):
    records: list[int] = Field(min_length=1, max_length=50)


@routes.post("/test/echo")
@require_api_key
@billable("western.natal", body=Echo)
async def echo(data: Echo) -> Response:
    executions.append(data.n)
    started.set()
    if data.outcome == "wait":
        await release.wait()
    if data.outcome == "400":
        raise APIError(400, "refused by the handler")
    if data.outcome == "500":
        return json_response({"error": "internal_server_error", "message": "x"}, 500)
    if data.outcome == "raise":
        raise RuntimeError("boom")
    charge = current_charge()
    assert charge is not None
    body: dict[str, object] = {"n": data.n, "charged": charge.credits, "execution": len(executions)}
    if data.outcome == "large":  # a body stored compressed for replay
        body["rows"] = [{"i": i, "text": f"line {i} ๑๒๓ " * (i % 7)} for i in range(2000)]
    return json_response(body)


@routes.post("/test/batch")
@require_api_key
@billable("vedic.kundli_matching_batch", body=Batch, quantity=lambda body: len(body.records))
async def batch(data: Batch) -> Response:
    return json_response({"records": len(data.records)})


@routes.post("/test/pdf")
@require_api_key
@billable("reports.natal_pdf")
async def pdf() -> Response:
    return json_response({"pdf_url": "/files/x.pdf"})


validations: list[int] = []


class Counted(BaseModel):
    n: int = Field(ge=0, le=1000)

    @field_validator("n")
    @classmethod
    def _count(cls, value: int) -> int:
        validations.append(value)
        return value


@routes.post("/test/counted")
@require_api_key
@billable("western.natal", body=Counted)
async def counted(data: Counted) -> Response:
    return json_response({"n": data.n, "type": type(data).__name__})


class DayQuery(BaseModel):
    sign: str = Field(min_length=1, max_length=20)
    date: str = Field(min_length=10, max_length=10)


@routes.get("/test/daily")
@require_api_key
@billable("horoscopes.daily")
@validate_querystring(DayQuery)
async def daily(query_args: DayQuery) -> Response:
    executions.append(len(executions))
    return json_response({"sign": query_args.sign, "date": query_args.date})


# The wrong way round: validate_request applied over @billable (it reads the body itself and
# passes data= down). Refused at the first request, before anything is charged.
@routes.post("/test/validated-above")
@require_api_key
@validate_request(Echo)
@billable("western.natal", body=Echo)
async def validated_above(data: Echo) -> Response:
    return json_response({"n": data.n})


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    global release, started
    executions.clear()
    # Fresh events: an asyncio.Event belongs to the loop that first waited on it.
    release, started = asyncio.Event(), asyncio.Event()
    settings = settings_for(
        database_url,
        tmp_path,
        rate_limits={"free": 10_000, "starter": 10_000, "pro": 10_000, "enterprise": 10_000},
    )
    async with running_app(settings, [routes]) as application:
        yield application


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


async def balance(account_id: str) -> int:
    return (await Account.get(id=account_id)).credits


async def ledger_sum(account_id: str) -> int:
    rows = await LedgerEntry.filter(account_id=account_id).annotate(s=Sum("amount")).values("s")
    return int(rows[0]["s"] or 0)


async def test_a_billable_call_debits_once_and_reports_credits_in_headers(client: Client) -> None:
    account_id, key = await new_account("free", 5)
    response = await client.post("/test/echo", json={"n": 1}, headers=key_headers(key))
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "1"
    assert response.headers["X-Credits-Remaining"] == "4"
    assert await balance(account_id) == 4
    debits = await LedgerEntry.filter(account_id=account_id, kind="debit")
    assert [(d.amount, d.operation) for d in debits] == [(-1, "western.natal")]


async def test_short_balance_is_402_payment_required_and_charges_nothing(client: Client) -> None:
    account_id, key = await new_account("free", 0)
    response = await client.post("/test/echo", json={"n": 1}, headers=key_headers(key))
    body = await response.get_json()
    assert response.status_code == 402
    assert body["error"] == "payment_required"
    assert body["code"] == "402"
    assert "Insufficient credits" in body["message"]
    assert executions == []
    assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 0


async def test_lower_tier_is_403_naming_the_tier_needed(client: Client) -> None:
    _, key = await new_account("starter", 100)
    response = await client.post("/test/pdf", headers=key_headers(key))
    body = await response.get_json()
    assert response.status_code == 403
    assert body["error"] == "forbidden"
    assert "'pro' tier" in body["message"]


async def test_per_record_price_multiplies_by_the_record_count(client: Client) -> None:
    account_id, key = await new_account("starter", 100)
    response = await client.post(
        "/test/batch", json={"records": [1, 2, 3]}, headers=key_headers(key)
    )
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "6"
    assert await balance(account_id) == 94


async def test_invalid_body_is_a_field_level_400_before_any_debit(client: Client) -> None:
    account_id, key = await new_account("starter", 100)
    response = await client.post("/test/batch", json={"records": []}, headers=key_headers(key))
    body = await response.get_json()
    assert response.status_code == 400
    assert body["error"] == "validation_error"
    assert body["details"][0]["field"] == "records"
    assert await balance(account_id) == 100
    assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 0


async def test_a_body_that_is_not_utf8_is_a_400_before_any_debit(client: Client) -> None:
    # Found by schemathesis: Quart decodes the body before parsing it, and the UnicodeDecodeError
    # escaped as a 500.
    account_id, key = await new_account("starter", 100)
    headers = {**key_headers(key), "Content-Type": "application/json"}
    response = await client.post("/test/batch", data=b'{"records": "\xff\xfe"}', headers=headers)
    assert response.status_code == 400
    assert (await response.get_json())["error"] == "bad_request"
    assert await balance(account_id) == 100
    assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 0


@pytest.mark.parametrize("outcome", ["400", "500", "raise"])
async def test_a_handler_failing_after_the_debit_is_refunded(client: Client, outcome: str) -> None:
    account_id, key = await new_account("free", 3)
    response = await client.post(
        "/test/echo", json={"n": 1, "outcome": outcome}, headers=key_headers(key)
    )
    assert response.status_code >= 400
    assert response.headers["X-Credits-Charged"] == "0"
    assert await balance(account_id) == 3
    entries = await LedgerEntry.filter(account_id=account_id).order_by("id")
    debit = next(e for e in entries if e.kind == "debit")
    refund = next(e for e in entries if e.kind == "refund")
    assert (debit.amount, refund.amount, refund.refund_of) == (-1, 1, debit.id)
    assert await ledger_sum(account_id) == 3  # initial top-up 3, debit -1, refund +1


async def test_same_key_same_body_replays_the_first_response_without_a_second_debit(
    client: Client,
) -> None:
    account_id, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "order-1"})
    first = await client.post("/test/echo", json={"n": 7}, headers=headers)
    second = await client.post(
        "/test/echo", data='{ "n" : 7 }', headers={**headers, "Content-Type": "application/json"}
    )
    assert first.status_code == second.status_code == 200
    assert await first.get_data() == await second.get_data()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.headers["X-Credits-Charged"] == "0"
    assert second.headers["X-Credits-Remaining"] == "4"  # the balance now, not a cached one
    assert executions == [7]
    assert await balance(account_id) == 4


async def test_a_large_first_response_replays_byte_for_byte(client: Client) -> None:
    from astro_server.platform.billing import idempotency

    _, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "large-1"})
    first = await client.post("/test/echo", json={"n": 3, "outcome": "large"}, headers=headers)
    second = await client.post("/test/echo", json={"n": 3, "outcome": "large"}, headers=headers)
    assert first.status_code == second.status_code == 200
    assert second.headers["Idempotent-Replayed"] == "true"
    body = await first.get_data()
    assert len(body) > 50_000
    assert await second.get_data() == body
    record = await IdempotencyRecord.get(key="large-1")
    assert record.response_body is not None
    assert record.response_body.startswith("dk.")  # sealed under the account's data key
    stored = await idempotency.open_stored_body(record.id, record.response_body)
    assert stored.startswith("zs:")
    assert len(record.response_body) < len(body) / 3
    assert idempotency.decode_stored_body(stored) == body


def test_stored_bodies_round_trip_and_old_rows_still_decode() -> None:
    import base64

    from astro_server.platform.billing.idempotency import (
        _COMPRESS_FROM,
        decode_stored_body,
        encode_stored_body,
    )

    edge = _COMPRESS_FROM
    for body in (b"", b'{"a":1}', b"x" * (edge - 1), b"x" * edge, bytes(range(256)) * 40):
        assert decode_stored_body(encode_stored_body(body)) == body
    assert ":" not in encode_stored_body(b"x" * (edge - 1))
    assert encode_stored_body(b"x" * edge).startswith("zs:")
    # Rows written by earlier releases (plain base64) replay unchanged.
    assert decode_stored_body(base64.b64encode(b'{"old":true}').decode()) == b'{"old":true}'


async def test_concurrent_keyed_calls_each_store_and_replay_their_own_response(
    app: Quart,
) -> None:
    # On PostgreSQL the stored responses of concurrent requests are written together: each
    # key must still replay exactly its own first response.
    account_id, key = await new_account("free", 30)

    def call(i: int) -> Awaitable[Response]:
        headers = key_headers(key, **{"Idempotency-Key": f"bulk-{i}"})
        return app.test_client().post("/test/echo", json={"n": i}, headers=headers)

    firsts = await asyncio.gather(*(call(i) for i in range(20)))
    replays = await asyncio.gather(*(call(i) for i in range(20)))
    for i, (first, replay) in enumerate(zip(firsts, replays, strict=True)):
        assert first.status_code == replay.status_code == 200
        assert (await first.get_json())["n"] == i
        assert await replay.get_data() == await first.get_data()
        assert replay.headers["Idempotent-Replayed"] == "true"
    assert sorted(executions) == list(range(20))
    assert await balance(account_id) == 10
    assert await IdempotencyRecord.filter(status="completed").count() == 20


async def test_a_json_body_is_validated_once_and_reaches_the_handler_as_the_model(
    client: Client,
) -> None:
    validations.clear()
    account_id, key = await new_account("free", 5)
    response = await client.post("/test/counted", json={"n": 3}, headers=key_headers(key))
    assert response.status_code == 200
    assert await response.get_json() == {"n": 3, "type": "Counted"}
    assert validations == [3]
    refused = await client.post("/test/counted", json={"n": -1}, headers=key_headers(key))
    assert refused.status_code == 400
    assert (await refused.get_json())["details"][0]["field"] == "n"
    assert await balance(account_id) == 4  # the 400 cost nothing


def test_billable_over_a_validate_request_fails_at_import_saying_to_pass_body() -> None:
    """Stacking validate_request under @billable (the old way) is refused when the module loads:
    the price must not depend on decorator order. Another decorator in between does not hide it."""

    async def handler(data: Batch) -> Response:
        return json_response({})

    with pytest.raises(TypeError, match=r"body=Model") as refused:
        billable("vedic.kundli_matching_batch", body=Batch)(validate_request(Batch)(handler))
    assert "validate_request" in str(refused.value)
    documented = document_response(Echo, 200)(validate_request(Batch)(handler))
    with pytest.raises(TypeError, match=r"body=Model"):
        billable("western.natal")(documented)


@pytest.mark.parametrize(
    "pricing",
    [{"quantity": lambda body: len(body.records)}, {"variant": lambda body: "western.natal"}],
)
def test_quantity_or_variant_without_a_body_model_fails_at_import(
    pricing: dict[str, Any],
) -> None:
    """They read the body: without ``body=`` they could never run, and the call would be
    charged the base price."""
    with pytest.raises(TypeError, match=r"pass its model as body="):
        billable("vedic.kundli_matching_batch", **pricing)


def test_the_body_model_is_recorded_for_openapi_as_validate_request_records_it() -> None:
    async def handler(data: Batch) -> Response:
        return json_response({})

    wrapped = billable("vedic.kundli_matching_batch", body=Batch)(handler)
    validated = validate_request(Batch)(handler)
    attribute = "_quart_schema_request_schema"
    assert getattr(wrapped, attribute) == getattr(validated, attribute) == (Batch, DataSource.JSON)


async def test_validate_request_stacked_above_billable_is_refused_before_any_debit(
    client: Client,
) -> None:
    account_id, key = await new_account("free", 5)
    response = await client.post("/test/validated-above", json={"n": 1}, headers=key_headers(key))
    assert response.status_code == 500
    assert await balance(account_id) == 5
    assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 0


async def test_same_key_other_body_is_409_idempotency_conflict(client: Client) -> None:
    _, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "order-2"})
    await client.post("/test/echo", json={"n": 1}, headers=headers)
    response = await client.post("/test/echo", json={"n": 2}, headers=headers)
    body = await response.get_json()
    assert response.status_code == 409
    assert body["error"] == "idempotency_conflict"


async def test_same_key_on_a_get_with_another_query_is_409_idempotency_conflict(
    client: Client,
) -> None:
    # The query string is part of the request: one key for two horoscope dates is a conflict,
    # not a replay of the first date's answer.
    account_id, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "daily-1"})
    first = await client.get("/test/daily?sign=leo&date=2026-01-01", headers=headers)
    assert first.status_code == 200
    other = await client.get("/test/daily?sign=leo&date=2026-01-02", headers=headers)
    assert other.status_code == 409
    assert (await other.get_json())["error"] == "idempotency_conflict"
    # The same parameters in another order (and encoding) are the same request: a replay.
    again = await client.get("/test/daily?date=2026-01-01&sign=%6Ceo", headers=headers)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert await again.get_data() == await first.get_data()
    assert len(executions) == 1
    assert await balance(account_id) == 5 - 1


async def test_same_key_while_the_first_runs_is_409_in_progress_with_retry_after(
    app: Quart, client: Client
) -> None:
    account_id, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "order-3"})
    first = asyncio.create_task(
        app.test_client().post("/test/echo", json={"n": 1, "outcome": "wait"}, headers=headers)
    )
    await asyncio.wait_for(started.wait(), timeout=10)
    response = await client.post("/test/echo", json={"n": 1, "outcome": "wait"}, headers=headers)
    body = await response.get_json()
    assert response.status_code == 409
    assert body["error"] == "idempotency_in_progress"
    assert response.headers["Retry-After"] == "1"
    release.set()
    assert (await first).status_code == 200
    assert await balance(account_id) == 4


async def test_a_failed_first_request_releases_its_key_for_a_retry(client: Client) -> None:
    account_id, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "order-4"})
    failed = await client.post("/test/echo", json={"n": 1, "outcome": "400"}, headers=headers)
    assert failed.status_code == 400
    assert await IdempotencyRecord.filter(key="order-4").count() == 0
    retried = await client.post("/test/echo", json={"n": 1, "outcome": "400"}, headers=headers)
    assert retried.status_code == 400
    assert await balance(account_id) == 5


async def test_idempotency_keys_are_scoped_per_credential(client: Client) -> None:
    _, key_a = await new_account("free", 5)
    _, key_b = await new_account("free", 5)
    for key in (key_a, key_b):
        response = await client.post(
            "/test/echo", json={"n": 1}, headers=key_headers(key, **{"Idempotency-Key": "same"})
        )
        assert response.status_code == 200
        assert "Idempotent-Replayed" not in response.headers
    assert executions == [1, 1]


async def test_fifty_concurrent_calls_on_ten_credits_succeed_exactly_ten_times(
    app: Quart,
) -> None:
    account_id, key = await new_account("free", 10)
    responses = await asyncio.gather(
        *(
            app.test_client().post("/test/echo", json={"n": i}, headers=key_headers(key))
            for i in range(50)
        )
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * 10 + [402] * 40
    assert await balance(account_id) == 0
    assert await ledger_sum(account_id) == 0
    assert await LedgerEntry.filter(account_id=account_id, kind="debit").count() == 10


async def test_twenty_concurrent_requests_with_one_key_execute_once(app: Quart) -> None:
    account_id, key = await new_account("free", 10)
    headers = key_headers(key, **{"Idempotency-Key": "burst"})
    responses = await asyncio.gather(
        *(app.test_client().post("/test/echo", json={"n": 5}, headers=headers) for _ in range(20))
    )
    ok = [r for r in responses if r.status_code == 200]
    in_progress = [r for r in responses if r.status_code == 409]
    assert len(ok) + len(in_progress) == 20
    assert executions == [5]
    assert {await r.get_data() for r in ok} == {await ok[0].get_data()}
    assert await balance(account_id) == 9
    for r in in_progress:
        assert (await r.get_json())["error"] == "idempotency_in_progress"


async def test_estimate_reports_eligibility_and_price_from_the_same_table(client: Client) -> None:
    account_id, key = await new_account("starter", 5)
    response = await client.post(
        "/api/v3/estimates",
        json={"operation": "vedic.kundli_matching_batch", "params": {"records": [{}, {}, {}]}},
        headers=key_headers(key),
    )
    body = await response.get_json()
    assert response.status_code == 200
    assert body == {
        "operation": "vedic.kundli_matching_batch",
        "eligible": False,
        "reasons": ["Needs 6 credits; the balance is 5."],
        "tier_required": "starter",
        "tier": "starter",
        "quantity": 3,
        "estimated_credits": 6,
        "balance": 5,
    }
    assert "X-Credits-Charged" not in response.headers
    assert await balance(account_id) == 5


async def test_estimate_names_the_tier_when_not_allowed(client: Client) -> None:
    _, key = await new_account("free", 100)
    response = await client.post(
        "/api/v3/estimates", json={"operation": "reports.natal_pdf"}, headers=key_headers(key)
    )
    body = await response.get_json()
    assert body["eligible"] is False
    assert body["tier_required"] == "pro"
    assert body["reasons"] == ["Needs the 'pro' tier or higher; this account is 'free'."]


async def test_estimate_of_an_unknown_operation_is_a_field_level_400(client: Client) -> None:
    _, key = await new_account("free", 1)
    response = await client.post(
        "/api/v3/estimates", json={"operation": "nope"}, headers=key_headers(key)
    )
    body = await response.get_json()
    assert response.status_code == 400
    assert body["details"] == [{"field": "operation", "message": "not a billable operation"}]


async def test_estimate_matches_the_real_debit(client: Client) -> None:
    _, key = await new_account("starter", 100)
    estimate = await client.post(
        "/api/v3/estimates",
        json={"operation": "vedic.kundli_matching_batch", "params": {"records": [1, 2]}},
        headers=key_headers(key),
    )
    real = await client.post("/test/batch", json={"records": [1, 2]}, headers=key_headers(key))
    assert (
        int(real.headers["X-Credits-Charged"]) == (await estimate.get_json())["estimated_credits"]
    )


async def test_one_postgres_claim_batch_gives_each_request_its_own_outcome(
    migrated_pg_database: str, tmp_path: Path
) -> None:
    """Requests that arrive together are claimed in one database call (PostgreSQL; SQLite claims
    one by one): each keeps its own outcome, and a refused or conflicting one writes nothing."""
    async with running_app(settings_for(migrated_pg_database, tmp_path)):
        await _claim_one_mixed_batch()


async def _claim_one_mixed_batch() -> None:
    from astro_server.platform.billing import idempotency
    from astro_server.platform.billing.claims import _ClaimItem, _flush_claims

    rich, _ = await new_account("starter", 5)
    poor, _ = await new_account("free", 1)
    rich_credential = (await _credential_of(rich)).id
    poor_credential = (await _credential_of(poor)).id

    def item(account: str, credential: str, cost: int, rank: int, key: str | None) -> _ClaimItem:
        scope = idempotency.Scope(credential, "POST", "/test/echo", key) if key else None
        return _ClaimItem(account, credential, scope, "h-" + (key or "none"), cost, rank, "x", None)

    outcomes = await _flush_claims(
        [
            item(poor, poor_credential, 1, 1, "a"),  # ok, balance 0
            item(rich, rich_credential, 2, 2, "k1"),  # ok, 3 left
            item(poor, poor_credential, 1, 1, None),  # refused: balance
            item(rich, rich_credential, 1, 2, "k1"),  # conflict: same key in the same batch
            item(rich, rich_credential, 1, 3, "k2"),  # refused: tier pro > starter
            item(rich, rich_credential, 3, 2, None),  # ok, 0 left
            item(poor, poor_credential, 5, 1, "a"),  # conflict although the balance is short
        ]
    )
    assert [o.outcome for o in outcomes] == [
        "ok", "ok", "refused", "conflict", "refused", "ok", "conflict",
    ]  # fmt: skip
    assert [o.balance for o in outcomes] == [0, 3, None, None, None, 0, None]
    assert outcomes[0].claim_id is not None
    assert outcomes[3].claim_id is None
    assert (await balance(rich), await balance(poor)) == (0, 0)
    # The ledger holds the opening top-up and one row per debit: it still sums to the balance.
    assert (await ledger_sum(rich), await ledger_sum(poor)) == (0, 0)
    debits = await LedgerEntry.filter(kind="debit").order_by("id").values_list("amount", flat=True)
    assert sorted(debits) == [-3, -2, -1]
    keys = await IdempotencyRecord.all().values_list("key", "ledger_entry_id")
    ledger_ids = {o.ledger_id for o in outcomes if o.ledger_id is not None}
    assert sorted(k for k, _ in keys) == ["a", "k1"]
    assert {lid for _, lid in keys} <= ledger_ids
    assert await _flush_claims([]) == []


async def _credential_of(account_id: str) -> Any:
    from astro_server.platform.models.accounts import ApiKey

    return await ApiKey.get(account_id=account_id)


async def test_a_claim_cancelled_while_its_batch_is_in_flight_is_refunded(
    migrated_pg_database: str, tmp_path: Path
) -> None:
    """A client that goes away while its request's batch is in the database: the batch still
    debits it, and the debit is refunded and its key released (PostgreSQL)."""
    from astro_server.platform.batching import Coalescer
    from astro_server.platform.billing import claims, idempotency

    async with running_app(settings_for(migrated_pg_database, tmp_path)):
        account_id, _ = await new_account("free", 5)
        credential = (await _credential_of(account_id)).id
        in_flight, flushed = asyncio.Event(), asyncio.Event()

        async def slow_flush(items: list[Any]) -> list[Any]:
            in_flight.set()
            await asyncio.sleep(0.3)  # the caller is cancelled meanwhile
            try:
                return await claims._flush_claims(items)
            finally:
                flushed.set()

        loop = asyncio.get_running_loop()
        claims._claim_batches[loop] = Coalescer(slow_flush)
        try:
            scope = idempotency.Scope(credential, "POST", "/test/echo", "gone-1")
            item = claims._ClaimItem(account_id, credential, scope, "h", 2, 1, "x", "req_1")
            task = asyncio.create_task(claims._submit_claim(item))
            await in_flight.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.wait_for(flushed.wait(), 10)
            await asyncio.sleep(0.05)  # the batch's results are handed out, callbacks run
            await asyncio.wait_for(asyncio.gather(*claims._orphan_refunds), 10)
        finally:
            del claims._claim_batches[loop]
        assert await balance(account_id) == 5
        kinds = (
            await LedgerEntry.filter(account_id=account_id)
            .order_by("id")
            .values_list("kind", "amount")
        )
        assert kinds == [("top_up", 5), ("debit", -2), ("refund", 2)]
        assert not await IdempotencyRecord.filter(key="gone-1").exists()
