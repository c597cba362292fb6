"""The portal's Developers area rendered on the server with a big account (issue 31): 100,000
ledger rows over 90 days and 50 API keys; target p50 <= 100 ms for the dashboard.

Run: uv run python benchmarks/portal_dashboard.py [--rows 100000] [--keys 50] [--requests 40]
     [--postgres-server postgres://host/db]

One Quart app (embedded SQLite by default; with ``--postgres-server``, a throwaway database
made on that server and dropped afterwards), driven in process by its test client with one
request in flight, signed in with a portal session cookie (a customer of an enterprise account,
so the team lookup of every page runs too). Each page is one portal request, which makes its
API calls in-process as the portal always does:

* ``/portal/developers``: the overview (balance, tier, this month's spend, key and endpoint
  counts) and usage over the default 30-day window by operation and by day, both charts and
  tables drawn;
* ``/portal/developers/ledger``: the first page (50 rows, each with its job and report lookup);
* ``/portal/developers/keys``: the 50 keys of live mode;
* ``/portal/feeds`` with no feed, as the floor: what any portal page costs on this database and
  machine (the session check and team lookup of its API calls), timed in the same rotation.

The first request of each page is a warm-up (the usage roll-up of closed days runs once, as the
scheduler would have done); then ``--requests`` timed requests per page, in rotation. Reported:
p50 and p95 wall time per page and the CPU time of this process per request, with the load
average beside them (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from _services import add_smoke, apply_smoke
from tortoise import connections

from astro_server.app import create_app
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.portal import SESSION_COOKIE, WHO_COOKIE
from astro_server.settings import Settings

PASSWORD = "correct horse battery staple"  # noqa: S105 - a throwaway login
EMAIL = "bench@example.com"
TARGET_MS = 100.0
PAGES = ("/portal/developers", "/portal/developers/ledger", "/portal/developers/keys")
#: The floor: an existing portal page with nothing to list (sign-in check, team lookup, one
#: empty list call), timed in the same rotation.
FLOOR = "/portal/feeds"
OPERATIONS = (
    "western.natal", "western.transits", "vedic.chart", "vedic.kundli_matching",
    "thai.calendar", "chinese.bazi", "reports.natal", "tarot.draw", "uranian.chart",
    "horoscopes.daily",
)  # fmt: skip


async def fill(account_id: str, rows: int, days: int) -> float:
    """``rows`` debits (and a refund every 20th) spread evenly over the last ``days`` days."""
    started = time.perf_counter()
    conn = connections.get("default")
    postgres = conn.capabilities.dialect == "postgres"
    now = datetime.now(UTC)
    rng = random.Random(31)
    batch: list[list[object]] = []
    columns = "INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at) "
    sql = columns + ("VALUES ($1, $2, $3, $4, $5)" if postgres else "VALUES (?, ?, ?, ?, ?)")
    for i in range(rows):
        moment = now - timedelta(seconds=days * 86400 * (rows - i) / rows)
        kind, amount = ("refund", 2) if i % 20 == 19 else ("debit", -rng.choice((1, 2, 3, 5)))
        when: object = moment if postgres else moment.isoformat(" ")
        batch.append([account_id, kind, amount, rng.choice(OPERATIONS), when])
        if len(batch) == 5000:
            await conn.execute_many(sql, batch)
            batch = []
    if batch:
        await conn.execute_many(sql, batch)
    return time.perf_counter() - started


def load_average() -> list[str]:
    loadavg = Path("/proc/loadavg")
    return loadavg.read_text().split()[:3] if loadavg.exists() else []


async def measure(rows: int, keys: int, requests: int, database_url: str | None) -> int:
    data_dir = Path(tempfile.mkdtemp())
    settings = Settings(
        data_dir=data_dir, database_url=database_url, secret_key="k" * 32, log_level="WARNING"
    ).with_overrides(rate_limits=dict.fromkeys(("free", "starter", "pro", "enterprise"), 10**9))
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    async with app.test_app():
        account, _ = await accounts.create_account("bench", "enterprise", 1_000_000)
        for n in range(keys - 1):  # the account's first key is made with it
            await accounts.create_api_key(account.id, "live" if n % 5 else "test")
        await accounts.create_customer(account.id, EMAIL, PASSWORD)
        filled_s = await fill(account.id, rows, 90)
        print(f"filled {rows:,} ledger rows in {filled_s:.1f} s; {keys} keys")
        client = app.test_client()
        login = await client.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
        token = (await login.get_json())["token"]
        headers = {"Cookie": f"{SESSION_COOKIE}={token}; {WHO_COOKIE}={EMAIL}"}

        async def get(path: str) -> float:
            t0 = time.perf_counter()
            response = await client.get(path, headers=headers)
            body = await response.get_data()
            elapsed = time.perf_counter() - t0
            assert response.status_code == 200, (path, response.status_code, body[:300])
            return elapsed

        pages = (*PAGES, FLOOR)
        for path in pages:  # warm-up: templates compiled, closed days summed once
            await get(path)
        walls: dict[str, list[float]] = {p: [] for p in pages}
        cpu0 = time.process_time()
        for _ in range(requests):
            for path in pages:
                walls[path].append(await get(path))
        cpu = (time.process_time() - cpu0) / (requests * len(pages))
    load = load_average()
    backend = "PostgreSQL" if database_url else "SQLite (embedded)"
    print(f"{backend}; {requests} requests per page; load average {' '.join(load)}")
    print(f"{'page':32} {'p50 ms':>8} {'p95 ms':>8}   target")
    verdict = 0
    for path, times in walls.items():
        ordered = sorted(times)
        p50 = statistics.median(ordered) * 1000
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000
        if path == FLOOR:
            print(f"{path + ' (floor)':32} {p50:8.1f} {p95:8.1f}")
            continue
        target = f"p50 <= {TARGET_MS:.0f} ms: {'met' if p50 <= TARGET_MS else 'MISSED'}"
        print(f"{path:32} {p50:8.1f} {p95:8.1f}   {target}")
        if p50 > TARGET_MS:
            verdict = 1
    print(f"CPU of this process per request (all pages): {cpu * 1000:.1f} ms")
    return verdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=50)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument(
        "--postgres-server", help="a PostgreSQL server URL; a throwaway database is made on it"
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), rows=300, keys=3, requests=2)
    if not args.postgres_server:
        verdict = asyncio.run(measure(args.rows, args.keys, args.requests, None))
        return 0 if args.smoke else verdict
    import asyncpg

    name = "astro_bench_" + secrets.token_hex(6)
    server = args.postgres_server.replace("postgres://", "postgresql://", 1)

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        url = args.postgres_server.rsplit("/", 1)[0] + "/" + name
        verdict = asyncio.run(measure(args.rows, args.keys, args.requests, url))
        return 0 if args.smoke else verdict
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    raise SystemExit(main())
