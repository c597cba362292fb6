"""Each route gets the credential kind it takes; a missing one fails before any request."""

from __future__ import annotations

import httpx
import pytest
from sdk_testkit import API_KEY, BASE_URL, SESSION_TOKEN, Script, job_body, reply, sync_client

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient

JOB_ID = "job_" + "a" * 24
LOGIN_BODY = {
    "token": SESSION_TOKEN,
    "expires_at": "2025-01-02T00:00:00Z",
    "customer": {"id": "cus_1", "email": "ann@example.com", "account_id": "acc_1"},
}


def test_api_key_route_without_an_api_key_fails_before_any_request() -> None:
    script = Script()
    client = sync_client(script, api_key=None, session_token=SESSION_TOKEN)
    with pytest.raises(astro_sdk.MissingCredentialError, match="takes an API key"):
        client.jobs.get(JOB_ID)
    assert script.requests == []


def test_session_route_without_a_session_fails_before_any_request() -> None:
    script = Script()
    with pytest.raises(astro_sdk.MissingCredentialError, match=r"auth\.login"):
        sync_client(script).auth.logout()
    assert script.requests == []


async def test_async_client_checks_credentials_before_any_request() -> None:
    script = Script()
    transport = httpx.MockTransport(script.handle_async)
    async with AsyncAstroClient(
        base_url=BASE_URL, http_client=httpx.AsyncClient(transport=transport)
    ) as client:
        with pytest.raises(astro_sdk.MissingCredentialError):
            await client.jobs.get(JOB_ID)
    assert script.requests == []


def test_api_key_route_gets_only_the_api_key_header() -> None:
    script = Script(reply(200, job_body("queued")))
    sync_client(script, session_token=SESSION_TOKEN).jobs.get(JOB_ID)
    sent = script.requests[0].headers
    assert sent["X-API-Key"] == API_KEY
    assert "Authorization" not in sent


def test_session_route_gets_only_the_bearer_token() -> None:
    script = Script(httpx.Response(204))
    sync_client(script, session_token=SESSION_TOKEN).auth.logout()
    sent = script.requests[0].headers
    assert sent["Authorization"] == f"Bearer {SESSION_TOKEN}"
    assert "X-API-Key" not in sent


def test_login_sends_no_credential_and_returns_a_client_carrying_the_session() -> None:
    script = Script(reply(200, LOGIN_BODY), httpx.Response(204))
    client = sync_client(script)
    customer_client = client.auth.login("ann@example.com", "pw")
    login_request = script.requests[0]
    assert login_request.url.path == "/auth/login"
    assert "X-API-Key" not in login_request.headers
    assert "Authorization" not in login_request.headers
    assert customer_client.session_token == SESSION_TOKEN
    assert customer_client.api_key == API_KEY
    assert client.session_token is None
    assert customer_client.auth.session is not None
    assert customer_client.auth.session.customer.email == "ann@example.com"
    customer_client.auth.logout()
    assert script.requests[1].headers["Authorization"] == f"Bearer {SESSION_TOKEN}"


def test_api_key_that_is_a_session_token_is_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="session_token"):
        AstroClient(api_key=SESSION_TOKEN, base_url=BASE_URL)


def test_environment_supplies_api_key_and_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASTRO_API_KEY", "ak_test_fromenv")
    monkeypatch.setenv("ASTRO_BASE_URL", "http://env.test/")
    script = Script(reply(200, job_body("queued")))
    client = AstroClient(http_client=httpx.Client(transport=httpx.MockTransport(script)))
    client.jobs.get(JOB_ID)
    assert str(script.requests[0].url) == f"http://env.test/api/v3/jobs/{JOB_ID}"
    assert script.requests[0].headers["X-API-Key"] == "ak_test_fromenv"


def test_explicit_arguments_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASTRO_API_KEY", "ak_test_fromenv")
    monkeypatch.setenv("ASTRO_BASE_URL", "http://env.test")
    client = AstroClient(api_key="ak_test_arg", base_url="http://arg.test")
    assert (client.api_key, client.base_url) == ("ak_test_arg", "http://arg.test")
    client.close()


def test_without_configuration_the_client_targets_a_local_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ASTRO_BASE_URL", raising=False)
    monkeypatch.delenv("ASTRO_API_KEY", raising=False)
    with AstroClient() as client:
        assert client.base_url == "http://127.0.0.1:8000"
        assert client.api_key is None


def test_with_options_shares_the_pool_and_changes_only_what_was_given() -> None:
    script = Script(reply(200, job_body("queued")))
    client = sync_client(script)
    copy = client.with_options(max_retries=0, timeout=5.0)
    assert copy._http is client._http
    assert copy.retry_policy.max_retries == 0
    assert client.retry_policy.max_retries == 2
    assert copy.timeout.read == 5.0
    assert copy.api_key == client.api_key
    assert copy.jobs is not client.jobs
    copy.jobs.get(JOB_ID)
    assert len(script.requests) == 1


def test_with_options_can_remove_a_credential() -> None:
    client = sync_client(Script())
    keyless = client.with_options(api_key=None)
    with pytest.raises(astro_sdk.MissingCredentialError):
        keyless.jobs.get(JOB_ID)


def test_default_headers_are_sent_and_merged() -> None:
    script = Script(reply(200, job_body("queued")))
    client = sync_client(script, default_headers={"X-Tenant": "t1"})
    client.with_options(default_headers={"X-Trace": "9"}).jobs.get(JOB_ID)
    sent = script.requests[0].headers
    assert (sent["X-Tenant"], sent["X-Trace"]) == ("t1", "9")
    assert sent["User-Agent"].startswith("astro-sdk/")


def test_context_manager_closes_the_pool_it_made() -> None:
    with AstroClient(base_url=BASE_URL) as client:
        copy = client.with_options(max_retries=1)
        copy.close()  # a copy never closes the shared pool
        assert not client.is_closed
    assert client.is_closed


def test_a_pool_brought_by_the_caller_is_left_open() -> None:
    http = httpx.Client(transport=httpx.MockTransport(Script()))
    with AstroClient(base_url=BASE_URL, http_client=http):
        pass
    assert not http.is_closed
    http.close()


async def test_async_context_manager_closes_the_pool_it_made() -> None:
    async with AsyncAstroClient(base_url=BASE_URL) as client:
        assert not client.is_closed
    assert client.is_closed


def test_requests_are_validated_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).estimates.create(operation="")
    assert caught.value.details[0]["field"] == "operation"
    assert isinstance(caught.value, ValueError)
    assert script.requests == []


def test_an_empty_path_parameter_is_refused_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError, match="job_id"):
        sync_client(script).jobs.get("")
    assert script.requests == []


def test_path_parameters_are_percent_encoded() -> None:
    script = Script(reply(404, {"error": "not_found", "message": "Job not found."}))
    with pytest.raises(astro_sdk.NotFoundError):
        sync_client(script).jobs.get("../admin?x=1")
    assert script.requests[0].url.raw_path == b"/api/v3/jobs/..%2Fadmin%3Fx%3D1"


def test_request_body_holds_only_the_fields_given() -> None:
    estimate = {
        "operation": "western.natal",
        "eligible": True,
        "reasons": [],
        "tier_required": "free",
        "tier": "free",
        "quantity": 1,
        "estimated_credits": 1,
        "balance": 10,
    }
    script = Script(reply(200, estimate))
    result = sync_client(script).estimates.create(operation="western.natal")
    assert script.requests[0].content == b'{"operation":"western.natal"}'
    assert script.requests[0].headers["Content-Type"] == "application/json"
    assert result.eligible is True
