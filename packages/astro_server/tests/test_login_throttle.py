"""Login throttling per e-mail slows instead of locking out (issue 36): the first
``ASTRO_LOGIN_RATE_LIMIT`` attempts for an e-mail go through, then attempts are spaced 1, 2, 4,
... seconds apart up to 32 s, counted across addresses over 15 minutes. A guesser hammering one
e-mail gets about one try per 32 s; once it stops, the owner is in within 32 s (before: locked
out for the rest of the minute from every address, and again each minute)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from itertools import pairwise
from pathlib import Path

import pytest
from _platform_support import new_account, running_app, settings_for
from quart import Quart

from astro_server.platform import ratelimit
from astro_server.platform.auth import accounts
from astro_server.platform.auth.guards import LOGIN_DELAY_CAP_S, email_login_slot, login_delay_s

PASSWORD = "correct horse battery"


class FakeClock:
    def __init__(self, start: float) -> None:
        self.now = start

    def time(self) -> float:
        return self.now


@pytest.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(database_url, tmp_path, login_rate_limit=3)
    async with running_app(settings) as application:
        yield application


def test_the_spacing_doubles_up_to_the_cap() -> None:
    assert [login_delay_s(n, 3) for n in range(1, 12)] == [0, 0, 0, 1, 2, 4, 8, 16, 32, 32, 32]


async def test_a_guesser_is_slowed_and_the_owner_gets_in_once_it_stops(
    app: Quart, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock(1_800_000_000.0)
    monkeypatch.setattr(ratelimit, "time", clock)
    async with app.app_context():
        admitted = []
        # A guesser from many addresses, 10 attempts a second for 5 minutes.
        for tick in range(3000):
            clock.now = 1_800_000_000.0 + tick / 10
            if (await email_login_slot("ana@example.com", 3)).allowed:
                admitted.append(tick / 10)
        # The 3 free ones, the first past them, then at most one per slot: 1, 2, 4, ... 32 s.
        assert len(admitted) <= 3 + 1 + 6 + 300 // LOGIN_DELAY_CAP_S
        assert len(admitted) >= 300 // LOGIN_DELAY_CAP_S  # slowed, not stopped
        late = [t for t in admitted if t >= 100]
        assert all(b - a >= LOGIN_DELAY_CAP_S - 0.1 for a, b in pairwise(late))
        # The guesser stops; the owner's next try, at most 32 s later, is checked.
        stop = clock.now
        for wait in range(LOGIN_DELAY_CAP_S + 1):
            clock.now = stop + wait
            decision = await email_login_slot("ana@example.com", 3)
            if decision.allowed:
                break
            assert decision.reset_s <= LOGIN_DELAY_CAP_S
        else:
            raise AssertionError("the owner was locked out")


async def test_the_http_answer_is_429_with_a_short_retry_after(app: Quart) -> None:
    account_id, _ = await new_account()
    await accounts.create_customer(account_id, "ana@example.com", PASSWORD)
    client = app.test_client()
    answers = []
    for n in range(8):  # each from another address: the per-address limit is not what stops it
        response = await client.post(
            "/auth/login",
            json={"email": "ana@example.com", "password": "wrong"},
            scope_base={"client": (f"10.0.0.{n + 1}", 40000)},
        )
        answers.append(response)
    statuses = [a.status_code for a in answers]
    assert statuses[:3] == [401] * 3
    assert 429 in statuses
    for answer in answers:
        if answer.status_code == 429:
            assert 1 <= int(answer.headers["Retry-After"]) <= LOGIN_DELAY_CAP_S
