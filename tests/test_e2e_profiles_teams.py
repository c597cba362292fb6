"""Encrypted client profiles and teams end to end through the SDK against live server processes,
on SQLite (embedded server) and on PostgreSQL + Redis: profiles in calculations, the raw database
read with its own driver (no personal field in clear anywhere), ``astro-server
rotate-master-key`` with a restart on the new key, ``astro-server crypto-shred``, and a team
invitation accepted and used."""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

import astro_sdk
from astro_sdk import AstroClient
from tests._support.stack import Stack

pytestmark = pytest.mark.slow

SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.7563, "longitude": 100.5018}
NAME, NOTES, EXTERNAL, TAG = "Malee Srisuk", "Asked about 2027 moves", "crm-99120", "gold-tier"


def cli_json(stack: Stack, *args: str) -> dict[str, Any]:
    out = stack.run_cli(*args, "--json")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture
def stack(
    database_url: str, stack_factory: Callable[..., Stack], request: pytest.FixtureRequest
) -> Stack:
    """SQLite: the embedded server (no database or Redis configured); PostgreSQL: with Redis."""
    if database_url.startswith("sqlite"):
        return stack_factory()
    redis_url: str = request.getfixturevalue("redis_namespace")
    return stack_factory(database_url=database_url, redis_url=redis_url)


def dump_database(stack: Stack) -> str:
    """Every row of every table, read with the database's own driver, as one text."""
    url = stack.env.get("ASTRO_DATABASE_URL")
    rows: list[Any] = []
    if url is None:
        path = stack.tmp / "var" / "astro.sqlite3"
        with sqlite3.connect(path) as conn:
            tables = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            for table in tables:
                rows.append([table, conn.execute(f'SELECT * FROM "{table}"').fetchall()])  # noqa: S608
    else:
        import asyncpg

        async def read() -> None:
            conn = await asyncpg.connect(url)
            try:
                tables = await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                )
                for record in tables:
                    name = record["tablename"]
                    found = await conn.fetch(f'SELECT * FROM "{name}"')  # noqa: S608
                    rows.append([name, [list(r.values()) for r in found]])
            finally:
                await conn.close()

        asyncio.run(read())
    return json.dumps(rows, default=lambda v: v.hex() if isinstance(v, bytes) else str(v))


def profile_tables(stack: Stack) -> str:
    text = dump_database(stack)
    document = json.loads(text)
    wanted = {"client_profiles", "client_profile_tags", "account_data_keys", "audit_log"}
    return json.dumps([t for t in document if t[0] in wanted])


def test_profiles_rotation_shredding_and_teams_through_the_sdk(stack: Stack) -> None:
    made = cli_json(
        stack, "create-account", "--name", "astrologer", "--tier", "enterprise", "--credits", "50"
    )
    account_id, key = made["account_id"], made["api_key"]
    stack.run_cli(
        "create-customer", "--account", account_id, "--email", "boss@example.test",
        "--password", "boss-password",
    )  # fmt: skip
    server = stack.server()
    with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
        prof = client.profiles.create(
            name=NAME, birth=SUBJECT, tags=[TAG], external_id=EXTERNAL, notes=NOTES
        )
        chart = client.western.natal(subject={"profile_id": prof.id})
        inline = client.western.natal(subject=SUBJECT)
        assert chart.model_dump() == inline.model_dump()
        assert chart.api_response.credits_charged == 1
        assert [p.id for p in client.profiles.list(tag=TAG).data] == [prof.id]
        assert client.profiles.export(prof.id).profile.notes == NOTES
    # No name, note, external id or tag anywhere in the database; no birth data in the profile
    # tables (calculation results and their replay copies echo a subject's instant and place,
    # inline or not).
    everything = dump_database(stack)
    for secret in (NAME, NOTES, EXTERNAL, TAG, "Malee"):
        assert secret not in everything
    for secret in ("1987-11-23", "13.7563", "100.5018"):
        assert secret not in profile_tables(stack)

    # Rotate the master key with the servers stopped, then start on the new key.
    server.stop()
    new_key = secrets.token_urlsafe(48)
    stack.env["ASTRO_NEW_SECRET_KEY"] = new_key
    rotated = cli_json(stack, "rotate-master-key")
    assert rotated["data_keys"] == 1
    old_key = stack.env["ASTRO_SECRET_KEY"]
    stack.env["ASTRO_SECRET_KEY"] = new_key
    server = stack.server()
    with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
        assert client.profiles.get(prof.id).name == NAME
        assert (
            client.western.natal(subject={"profile_id": prof.id}).model_dump()
            == inline.model_dump()
        )
    # A process still on the old key cannot open the data key: the profile reads as gone.
    stale = stack.server({"ASTRO_SECRET_KEY": old_key})
    with (
        AstroClient(api_key=key, base_url=stale.base_url, max_retries=0) as client,
        pytest.raises(astro_sdk.NotFoundError),
    ):
        client.profiles.get(prof.id)
    stale.stop()

    # Teams: an invitation accepted, a login as a viewer, the owner-only change refused.
    with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
        invitation = client.team.invite(email="reader@example.test", role="viewer")
        joined = client.auth.accept_invitation(token=invitation.token, password="reader-password")
        assert joined.member.role == "viewer"
        reader = client.auth.login("reader@example.test", "reader-password")
        assert {m.email for m in reader.team.list().members} == {
            "boss@example.test",
            "reader@example.test",
        }
        with pytest.raises(astro_sdk.PermissionDeniedError) as refused:
            reader.team.change_role(joined.member.id, role="owner")
        assert "'owner' role" in refused.value.message
        client.team.remove(joined.member.id)
        with pytest.raises(astro_sdk.AuthenticationError):
            reader.team.list()
        events = [e.action for e in client.audit_log.list(limit=50)]
        assert {"profile.created", "team.invited", "team.joined", "team.removed"} <= set(events)

    # Crypto-shred: the account's profiles are gone for the API at once.
    shred = cli_json(stack, "crypto-shred", "--account", account_id)
    assert shred["data_keys_destroyed"] == 1
    with AstroClient(api_key=key, base_url=server.base_url, max_retries=0) as client:
        with pytest.raises(astro_sdk.NotFoundError):
            client.profiles.get(prof.id)
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            client.western.natal(subject={"profile_id": prof.id})
        assert caught.value.details[0]["field"] == "subject.profile_id"
        assert client.profiles.list().data == []
        assert client.profiles.create(name="New", birth=SUBJECT).name == "New"  # a new data key
