"""Invitations do not tell who has a login elsewhere (issue 36).

Inviting an e-mail that has a login in another account answers exactly like inviting a new
address (status, body keys and types, a pending invitation listed the same way); the login's
owner is told by e-mail (an aiosmtpd sink on loopback) with the accept link, and nothing is
mailed for a new address. Accepting needs that login's current password (another is 401 and
leaves the invitation usable); the login then moves to the inviting account with the invited
role and its sessions end; the last owner of an account cannot move (409 ``last_owner``).
"""

from __future__ import annotations

import asyncio
import email
import socket
from collections.abc import AsyncIterator, Iterator
from email import policy
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from aiosmtpd.controller import Controller
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.features.team import service as team
from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Customer, TeamInvitation

PASSWORD = "old-login-password-42"


class Sink:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Sink, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
async def app(tmp_path: Path, smtp: tuple[Sink, int]) -> AsyncIterator[Quart]:
    settings = settings_for(
        f"sqlite://{tmp_path / 'astro.sqlite3'}",
        tmp_path,
        smtp_url=f"smtp://127.0.0.1:{smtp[1]}",
        public_url="https://astro.test",
    )
    async with running_app(settings) as application:
        yield application


def _shape(value: Any) -> Any:
    """The answer with every value replaced by its type (keys and nesting kept)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


async def _invite(client: Client, key: str, address: str) -> tuple[int, dict[str, Any]]:
    response = await client.post(
        "/api/v3/team/members", json={"email": address, "role": "member"}, headers=key_headers(key)
    )
    return response.status_code, await response.get_json()


async def _settle() -> None:
    """Let the background notices reach the sink."""
    for _ in range(100):
        if not team._NOTICES:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.1)


async def test_an_existing_login_elsewhere_is_invited_like_a_new_address(
    app: Quart, smtp: tuple[Sink, int]
) -> None:
    sink, _ = smtp
    client = app.test_client()
    account_id, key = await new_account("enterprise", 0)
    other_account, _ = await new_account("enterprise", 0)
    await accounts.create_customer(other_account, "boss@other.test", "boss-password-77")
    taken = await accounts.create_customer(other_account, "taken@other.test", PASSWORD)

    new_status, new_answer = await _invite(client, key, "fresh@new.test")
    old_status, old_answer = await _invite(client, key, "Taken@Other.test")
    assert new_status == old_status == 201
    assert _shape(new_answer) == _shape(old_answer)
    assert old_answer["invitation"]["email"] == "taken@other.test"
    assert "already" not in str(old_answer)
    listing = await (await client.get("/api/v3/team/members", headers=key_headers(key))).get_json()
    assert {i["email"] for i in listing["invitations"]} == {"fresh@new.test", "taken@other.test"}

    # Only the login's owner is told, with the link; nothing for the new address.
    await _settle()
    assert [m["To"] for m in sink.messages] == ["taken@other.test"]
    body = sink.messages[0].get_content()
    token = old_answer["token"]
    assert f"https://astro.test/portal/accept-invitation?token={token}" in body
    assert "current password" in body.lower()

    # Accepting: a new password is refused (and the invitation stays usable) ...
    wrong = await client.post(
        "/auth/accept-invitation", json={"token": token, "password": "a-brand-new-password-1"}
    )
    assert wrong.status_code == 401
    assert (await Customer.get(id=taken.id)).account_id == other_account  # type: ignore[attr-defined]
    # ... the login's own password moves it here, with the invited role; its sessions end.
    login = await client.post(
        "/auth/login", json={"email": "taken@other.test", "password": PASSWORD}
    )
    assert login.status_code in (200, 201), await login.get_json()
    session = (await login.get_json())["token"]
    joined = await client.post(
        "/auth/accept-invitation", json={"token": token, "password": PASSWORD}
    )
    assert joined.status_code == 201, await joined.get_json()
    answer = await joined.get_json()
    assert answer["account_id"] == account_id
    assert answer["member"]["role"] == "member"
    moved = await Customer.get(id=taken.id)
    assert moved.account_id == account_id  # type: ignore[attr-defined]
    old_session = await client.get(
        "/v1/team/members", headers={"Authorization": f"Bearer {session}"}
    )
    assert old_session.status_code == 401
    assert (await TeamInvitation.get(id=old_answer["invitation"]["id"])).accepted_at is not None

    # A new address still accepts with a new password, as before.
    fresh = await client.post(
        "/auth/accept-invitation",
        json={"token": new_answer["token"], "password": "a-brand-new-password-1"},
    )
    assert fresh.status_code == 201


async def test_the_last_owner_of_an_account_cannot_move(app: Quart) -> None:
    client = app.test_client()
    _, key = await new_account("enterprise", 0)
    lonely_account, _ = await new_account("enterprise", 0)
    owner = await accounts.create_customer(lonely_account, "owner@lonely.test", PASSWORD)
    status, answer = await _invite(client, key, "owner@lonely.test")
    assert status == 201
    refused = await client.post(
        "/auth/accept-invitation", json={"token": answer["token"], "password": PASSWORD}
    )
    assert refused.status_code == 409
    assert (await refused.get_json())["code"] == "last_owner"
    assert (await Customer.get(id=owner.id)).account_id == lonely_account  # type: ignore[attr-defined]


async def test_an_address_already_in_this_team_is_still_a_conflict(app: Quart) -> None:
    client = app.test_client()
    account_id, key = await new_account("enterprise", 0)
    await accounts.create_customer(account_id, "me@team.test", PASSWORD)
    status, answer = await _invite(client, key, "me@team.test")
    assert status == 409
    assert answer["code"] == "email_taken"
