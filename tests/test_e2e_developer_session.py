"""The developer workflow's session routes end to end through the SDK (``client.developer``)
against a live server process (embedded: SQLite): a customer logs in; the overview's balance
and tier; a live key made with scopes, used, rotated with a grace period and revoked (the API
refuses it at once); a test key seen only in test mode; a webhook endpoint's test event to a
local HTTPS receiver, verified with the secret shown once; the delivery log; the audit log by
action; an API key on these routes is a 401 naming the session."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient
from tests._support.receiver import receive
from tests._support.stack import Stack

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery staple"
EMAIL = "sdk-dev@example.com"


def cli_json(stack: Stack, *args: str) -> dict[str, Any]:
    out = stack.run_cli(*args, "--json")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_developer_session_routes_through_the_sdk(
    stack_factory: Callable[..., Stack], https_server: HTTPServer, ca_file: Path
) -> None:
    inbox = receive(https_server, "/astro/dev-events", "received by the SDK test")
    stack = stack_factory()
    api = stack.server({"ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1", "SSL_CERT_FILE": str(ca_file)})
    made = cli_json(stack, "create-account", "--name", "sdk", "--tier", "pro", "--credits", "40")
    account_id, api_key = made["account_id"], made["api_key"]
    stack.run_cli("create-customer", "--account", account_id, "--email", EMAIL, "--password",
                  PASSWORD)  # fmt: skip

    with AstroClient(base_url=api.base_url) as anonymous:
        me = anonymous.auth.login(EMAIL, PASSWORD)
        overview = me.developer.overview()
        assert overview.account.id == account_id
        assert overview.account.tier == "pro"
        assert overview.account.credits_balance == 40
        assert overview.keys.active == 1
        assert overview.buy_credits_url is None

        created = me.developer.create_key(name="etl", scopes=["western"])
        assert created.secret.startswith("ak_live_")
        assert created.key.scopes == ["western"]
        with AstroClient(api_key=created.secret, base_url=api.base_url) as keyed:
            assert keyed.account.get().account.id == account_id
            with pytest.raises(astro_sdk.PermissionDeniedError):
                keyed.keys.list().data  # noqa: B018 - the call is the check: no keys scope
        rotated = me.developer.rotate_key(created.key.id, grace_s=600)
        assert rotated.previous.expires_at is not None
        revoked = me.developer.revoke_key(rotated.key.id)
        assert revoked.revoked_at is not None
        with (
            AstroClient(api_key=rotated.secret, base_url=api.base_url) as gone,
            pytest.raises(astro_sdk.AuthenticationError),
        ):
            gone.account.get()

        test_key = me.developer.create_key(name="sandbox", environment="test")
        assert test_key.secret.startswith("ak_test_")
        live_ids = {k.id for k in me.developer.list_keys().keys}
        test_ids = {k.id for k in me.developer.list_keys(mode="test").keys}
        assert test_key.key.id in test_ids
        assert test_key.key.id not in live_ids
        with pytest.raises(astro_sdk.NotFoundError):
            me.developer.revoke_key(test_key.key.id)  # live mode: another mode's id

        destination = f"https://localhost:{https_server.port}/astro/dev-events"
        hook = me.developer.create_webhook_endpoint(url=destination, event_types=["report.failed"])
        delivery = me.developer.send_webhook_test(hook.endpoint.id)
        assert delivery.status == "succeeded"
        assert delivery.attempt_log[0].status_code == 200
        assert delivery.attempt_log[0].response_body == "received by the SDK test"
        (event,) = inbox.events(hook.signing_secret, 1, timeout_s=10)
        assert event["test"] is True
        log = me.developer.webhook_deliveries(hook.endpoint.id)
        assert [d.id for d in log.deliveries] == [delivery.id]
        paused = me.developer.update_webhook_endpoint(hook.endpoint.id, active=False)
        assert paused.active is False

        audit = me.developer.audit_log(action="key.revoked")
        # Revoking ends the predecessor's grace too (issue 50): both revocations are audited.
        assert [e.object_id for e in audit.events] == [created.key.id, rotated.key.id]
        ledger = me.developer.ledger()
        assert [e.type for e in ledger.entries] == ["top_up"]
        assert me.developer.usage(group_by="day").groups == []

    # The SDK refuses before sending; the server refuses too (the spec's credential rule).
    with (
        AstroClient(api_key=api_key, base_url=api.base_url) as keyed,
        pytest.raises(astro_sdk.MissingCredentialError),
    ):
        keyed.developer.overview()
    refused = httpx.get(api.base_url + "/v1/developer/overview", headers={"X-API-Key": api_key})
    assert refused.status_code == 401
    assert "session token" in refused.json()["message"]
