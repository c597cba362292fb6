"""The SDK against the live stack (hypercorn API on PostgreSQL and Redis): credentials, billing
headers, and each error status raised as its exception. Only the SDK talks to the server."""

from __future__ import annotations

import secrets

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient, RetryPolicy
from tests._support.accounts import create_account, create_customer
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

BOY = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
GIRL = {
    "date": "1992-11-02",
    "time": "21:15",
    "latitude": 19.07,
    "longitude": 72.88,
    "timezoneOffsetMinutes": 330,
}
EMAIL = "ann@example.com"
PASSWORD = "correct horse battery staple"


def new_customer(stack: Stack, account_id: str) -> str:
    """A customer with a fresh e-mail (tests share one server), returned for login."""
    email = EMAIL.replace("@", f"+{secrets.token_hex(4)}@")
    create_customer(stack, account_id, email, PASSWORD)
    return email


def test_login_returns_a_client_whose_session_works_until_logout(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="sdk-e2e")
    email = new_customer(shared_stack, account["account_id"])
    with AstroClient(base_url=shared_server.base_url) as client:
        customer = client.auth.login(email, PASSWORD)
        session = customer.auth.session
        assert session is not None
        assert session.token.startswith("service_sess_")
        assert session.customer.email == email
        assert session.customer.account_id == account["account_id"]
        customer.auth.logout()
        with pytest.raises(astro_sdk.AuthenticationError) as caught:
            customer.auth.logout()
    assert caught.value.status_code == 401
    assert caught.value.code == "401"


def test_wrong_password_is_an_authentication_error(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="sdk-e2e")
    email = new_customer(shared_stack, account["account_id"])
    with (
        AstroClient(base_url=shared_server.base_url) as client,
        pytest.raises(astro_sdk.AuthenticationError, match="Invalid e-mail or password"),
    ):
        client.auth.login(email, "wrong")


def test_an_api_key_call_reports_balance_and_rate_limit_headers(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=7, name="sdk-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        estimate = client.estimates.create(
            operation="vedic.kundli_matching_batch", params={"records": [{}, {}, {}]}
        )
    assert estimate.eligible is False
    assert estimate.tier_required == "starter"
    assert estimate.quantity == 3
    assert estimate.estimated_credits == 6
    assert estimate.balance == 7
    meta = estimate.api_response
    assert meta.rate_limit.limit == 60
    assert meta.rate_limit.remaining == 59
    assert meta.request_id is not None
    assert meta.request_id.startswith("req_")


def test_a_billable_call_carries_credit_headers(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="sdk-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        match = client.vedic.kundli_matching(boy=BOY, girl=GIRL)
        again = client.vedic.kundli_matching(boy=BOY, girl=GIRL)
    assert match.api_response.credits_charged == 1
    assert match.api_response.credits_remaining == 4
    assert again.api_response.credits_remaining == 3
    assert match.max == 36


def test_an_invalid_api_key_is_an_authentication_error(shared_server: ServerProcess) -> None:
    with (
        AstroClient(api_key="ak_test_" + "0" * 32, base_url=shared_server.base_url) as client,
        pytest.raises(astro_sdk.AuthenticationError) as caught,
    ):
        client.jobs.list()
    assert caught.value.error == "unauthorized"
    assert caught.value.code == "401"
    assert caught.value.request_id is not None


def test_an_empty_balance_is_insufficient_credits_and_is_not_retried(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=0, name="sdk-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        with pytest.raises(astro_sdk.InsufficientCreditsError) as caught:
            client.vedic.kundli_matching(boy=BOY, girl=GIRL)
        # One attempt only: the rate limiter counted one request before this estimate.
        remaining = client.estimates.create(operation="western.natal").api_response
    assert caught.value.error == "payment_required"
    assert caught.value.code == "402"
    assert caught.value.message == (
        "Insufficient credits: 'vedic.kundli_matching' costs 1 credit; the balance is 0."
    )
    assert remaining.rate_limit.remaining == 58


def test_an_operation_above_the_tier_is_permission_denied(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=100, name="sdk-e2e")
    with (
        AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client,
        pytest.raises(astro_sdk.PermissionDeniedError, match="starter") as caught,
    ):
        client.vedic.kundli_matching_batch(records=[{"id": "r1", "boy": BOY, "girl": GIRL}])
    assert caught.value.error == "forbidden"


def test_an_idempotency_key_replays_and_a_different_body_conflicts(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="sdk-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        first = client.vedic.kundli_matching(boy=BOY, girl=GIRL, idempotency_key="order-1")
        replay = client.vedic.kundli_matching(boy=BOY, girl=GIRL, idempotency_key="order-1")
        with pytest.raises(astro_sdk.IdempotencyConflictError) as caught:
            client.vedic.kundli_matching(boy=GIRL, girl=BOY, idempotency_key="order-1")
        balance = client.estimates.create(operation="western.natal").balance
    assert replay.model_dump() == first.model_dump()
    assert replay.api_response.credits_charged == 0
    assert caught.value.status_code == 409
    assert caught.value.error == "idempotency_conflict"
    assert balance == 4  # charged once


def test_the_rate_limit_is_a_rate_limit_error_with_retry_after(
    production_stack: Stack,
) -> None:
    server = production_stack.server(extra_env={"ASTRO_RATE_LIMIT_FREE": "2"})
    account = create_account(production_stack, tier="free", credits=10, name="sdk-e2e")
    # A Retry-After beyond the bound raises at once instead of sleeping through the window.
    policy = RetryPolicy(max_retry_after_s=0.5)
    with AstroClient(api_key=account["api_key"], base_url=server.base_url, retry=policy) as c:
        c.jobs.list()
        c.jobs.list()
        with pytest.raises(astro_sdk.RateLimitError) as caught:
            c.jobs.list()
    assert caught.value.error == "rate_limited"
    assert caught.value.retry_after_s is not None
    assert 0 < caught.value.retry_after_s <= 60


async def test_async_client_logs_in_and_calls_an_api_key_route(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=3, name="sdk-e2e")
    email = new_customer(shared_stack, account["account_id"])
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        customer = await c.auth.login(email, PASSWORD)
        assert customer.session_token is not None
        match = await customer.vedic.kundli_matching(boy=BOY, girl=GIRL)
        await customer.auth.logout()
    assert match.api_response.credits_remaining == 2
