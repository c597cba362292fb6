"""The password policy (issue 36): at least 12 characters, not a common password, not only
spaces or two characters repeated, not the e-mail address; at accept-invitation (400 naming
``password``, the invitation stays usable) and at the operator's create-customer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Quart

from astro_server.platform.auth import accounts
from astro_server.platform.auth.passwords import MIN_LENGTH, common_passwords, password_problem


@pytest.mark.parametrize(
    ("password", "refused"),
    [
        ("a" * 11 + "b", True),  # 12 characters but only two different ones
        ("abcdefghij1", True),  # 11 characters
        ("abcdefghij12", False),  # 12 characters, not common
        ("12345678", True),
        ("password", True),
        (" " * 12, True),
        ("abababababab", True),
        ("Password1234", True),  # the common list, case-insensitively
        ("PASSWORDPASSWORD", True),
        ("correct horse battery", False),
        ("ana.lopez@example.test", True),  # the e-mail address
        ("ana.lopez123", False),
    ],
)
def test_password_rules(password: str, refused: bool) -> None:
    assert (password_problem(password, "Ana.Lopez@example.test") is not None) is refused


def test_the_common_list_is_loaded_and_every_entry_is_refused() -> None:
    listed = common_passwords()
    assert len(listed) >= 50
    for word in listed:
        assert len(word) >= MIN_LENGTH, word  # shorter ones are refused by length already
        assert password_problem(word) is not None


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    async with running_app(settings_for(database_url, tmp_path)) as application:
        yield application


async def test_accept_invitation_refuses_weak_passwords_and_keeps_the_invitation(
    app: Quart,
) -> None:
    client = app.test_client()
    _, key = await new_account("enterprise", 0)
    made = await client.post(
        "/api/v3/team/members",
        json={"email": "new@example.test", "role": "member"},
        headers=key_headers(key),
    )
    assert made.status_code == 201, await made.get_json()
    token = (await made.get_json())["token"]
    for weak in ("password", "12345678", " " * 8, "123456789012", "new@example.test"):
        answer = await client.post(
            "/auth/accept-invitation", json={"token": token, "password": weak}
        )
        assert answer.status_code == 400, weak
        assert (await answer.get_json())["details"][0]["field"] == "password"
    accepted = await client.post(
        "/auth/accept-invitation", json={"token": token, "password": "a sound passphrase"}
    )
    assert accepted.status_code == 201


async def test_create_customer_refuses_weak_passwords(app: Quart) -> None:
    account_id, _ = await new_account("free", 0)
    for weak in ("short", "passwordpassword", "x" * 12):
        with pytest.raises(ValueError, match="password"):
            await accounts.create_customer(account_id, "ana@example.test", weak)
    made = await accounts.create_customer(account_id, "ana@example.test", "a sound passphrase")
    assert made.id.startswith("cus_")
