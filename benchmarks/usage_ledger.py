"""``GET /api/v3/usage`` over a ledger of one million rows on PostgreSQL (issue 22).

One account holds ``--rows`` ledger rows (default 1,000,000: debits of 40 operations spread over
the last 365 days, one refund in 50), beside ``--other-rows`` rows of 100 other accounts. The
script starts a production-mode server (hypercorn, PostgreSQL, Redis), calls the usage endpoint
``--requests`` times one after another per case and prints p50/p95/p99 latency, then prints the
``EXPLAIN (ANALYZE, BUFFERS)`` of the endpoint's queries: index-only range scans of
``usage_daily_range`` ((account_id, day) INCLUDE (operation, kind, calls, credits)) for the
closed days and of ``ledger_entries_usage`` ((account_id, created_at) INCLUDE (kind, operation,
amount)) for the open day, never a scan of the table. Before the requests the scheduler
(``astro-server scheduler``, its ``usage.roll_up`` task) sums the closed days, as it does soon
after each day closes; ``--no-scheduler`` leaves that to the first request instead. Target:
p50 <= 50 ms, for the default window (the last 30 days) and for a year.

    uv run python benchmarks/usage_ledger.py [--rows 1000000] [--requests 100] [--no-scheduler]

PostgreSQL and Redis come from ``ASTRO_BENCH_DATABASE_URL`` / ``ASTRO_BENCH_REDIS_URL``, or are
started here in a temporary directory and stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, timedelta
from pathlib import Path

import asyncpg
import httpx
from _services import add_smoke, apply_smoke, free_port, start_postgres_and_redis, wait_for_port

FILL = """
INSERT INTO ledger_entries (account_id, kind, amount, operation, credential_id, request_id,
                            created_at, balance_after)
SELECT $1,
       CASE WHEN i % 50 = 0 THEN 'refund' ELSE 'debit' END,
       CASE WHEN i % 50 = 0 THEN 1 + i % 3 ELSE -(1 + i % 3) END,
       'op.' || (i % 40),
       'key_bench',
       'req_' || i,
       now() - (i::double precision / $2) * interval '365 days',
       1000000000 - i
FROM generate_series(1, $2) AS i
"""
FILL_OTHERS = """
INSERT INTO ledger_entries (account_id, kind, amount, operation, created_at, balance_after)
SELECT 'acct_other_' || (i % 100), 'debit', -1, 'op.' || (i % 40),
       now() - (i::double precision / $1) * interval '365 days', 0
FROM generate_series(1, $1) AS i
"""
# The endpoint's statements (platform/billing/usage.py), as PostgreSQL receives them: the ledger
# for the
# open days and partial edges, usage_daily for the closed days.
ROLLUP_SQL = (
    "SELECT operation AS grp, kind, sum(calls) AS n, sum(credits) AS credits FROM usage_daily "
    "WHERE account_id = $1 AND day >= $2 AND day < $3 GROUP BY 1, 2"
)
USAGE_SQL = {
    "operation": "SELECT operation AS grp, kind, count(*) AS n, sum(amount) AS credits "
    "FROM ledger_entries WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 "
    "AND kind IN ('debit', 'refund') GROUP BY 1, 2",
    "day": "SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS grp, kind, "
    "count(*) AS n, sum(amount) AS credits FROM ledger_entries WHERE account_id = $1 "
    "AND created_at >= $2 AND created_at < $3 AND kind IN ('debit', 'refund') GROUP BY 1, 2",
}


async def fill(db_url: str, account_id: str, rows: int, other_rows: int) -> float:
    conn = await asyncpg.connect(db_url)
    try:
        started = time.perf_counter()
        await conn.execute(FILL, account_id, rows)
        if other_rows:
            await conn.execute(FILL_OTHERS, other_rows)
        await conn.execute("VACUUM ANALYZE ledger_entries")
        return time.perf_counter() - started
    finally:
        await conn.close()


def roll_up_by_scheduler(
    cli: list[str], env: dict[str, str], db_url: str, account_id: str
) -> float:
    """Start ``astro-server scheduler``, wait until its ``usage.roll_up`` has summed the
    account's closed days, stop it; returns the seconds that took."""

    async def summed() -> bool:
        conn = await asyncpg.connect(db_url)
        try:
            return bool(
                await conn.fetchval(
                    "SELECT count(*) FROM usage_rollups WHERE account_id = $1", account_id
                )
            )
        finally:
            await conn.close()

    started = time.perf_counter()
    scheduler = subprocess.Popen(
        [*cli, "scheduler"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while not asyncio.run(summed()):
            if time.perf_counter() - started > 120 or scheduler.poll() is not None:
                raise SystemExit("the scheduler did not sum the closed days")
            time.sleep(0.1)
        return time.perf_counter() - started
    finally:
        scheduler.terminate()
        scheduler.wait(15)


SUM_OTHERS = """
INSERT INTO usage_daily (account_id, day, operation, kind, calls, credits)
SELECT account_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), operation, kind,
       count(*), sum(amount)
FROM ledger_entries WHERE account_id LIKE 'acct_other_%' AND created_at < $1
GROUP BY 1, 2, 3, 4
"""


async def sum_others(db_url: str) -> None:
    """The other accounts' closed days in usage_daily too, as in a shared table, so the plan
    shown is the one of many accounts (a table of one account is read whole)."""
    conn = await asyncpg.connect(db_url)
    try:
        until = await conn.fetchval("SELECT date_trunc('day', now() AT TIME ZONE 'UTC')")
        await conn.execute(SUM_OTHERS, until.replace(tzinfo=UTC))
        await conn.execute("VACUUM ANALYZE usage_daily")
    finally:
        await conn.close()


async def explain(db_url: str, account_id: str, days: int) -> str:
    """The plans of the closed days' sums and of one open day from the ledger."""
    conn = await asyncpg.connect(db_url)
    try:
        now = await conn.fetchval("SELECT now()")
        first = (now - timedelta(days=days)).date().isoformat()
        rolled = await conn.fetch(
            "EXPLAIN (ANALYZE, BUFFERS) " + ROLLUP_SQL, account_id, first, now.date().isoformat()
        )
        live = await conn.fetch(
            "EXPLAIN (ANALYZE, BUFFERS) " + USAGE_SQL["operation"],
            account_id,
            now - timedelta(days=1),
            now,
        )
        return "\n".join(r[0] for r in [*rolled, *live])
    finally:
        await conn.close()


def measure(
    base_url: str, key: str, params: dict[str, str], requests: int
) -> tuple[float, list[float]]:
    """(the first call's ms, which may sum closed days into usage_daily; the next calls' ms)."""
    timings: list[float] = []
    with httpx.Client(base_url=base_url, headers={"X-API-Key": key}, timeout=120) as client:
        started = time.perf_counter()
        client.get("/api/v3/usage", params=params).raise_for_status()
        first_ms = (time.perf_counter() - started) * 1000
        for _ in range(2):  # warm the connection
            client.get("/api/v3/usage", params=params).raise_for_status()
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get("/api/v3/usage", params=params)
            timings.append((time.perf_counter() - started) * 1000)
            response.raise_for_status()
    return first_ms, timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--other-rows", type=int, default=200_000)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument(
        "--no-scheduler",
        action="store_true",
        help="leave summing the closed days to the first request (no scheduler run first)",
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), rows=1000, other_rows=200, requests=3)
    with ExitStack() as stack:
        db_url = os.environ.get("ASTRO_BENCH_DATABASE_URL")
        redis_url = os.environ.get("ASTRO_BENCH_REDIS_URL")
        if not (db_url and redis_url):
            work = Path(tempfile.mkdtemp(prefix="astro-bench-"))
            stack.callback(shutil.rmtree, work, ignore_errors=True)
            db_url, redis_url = start_postgres_and_redis(stack, work)
        data_dir = Path(tempfile.mkdtemp(prefix="astro-bench-var-"))
        stack.callback(shutil.rmtree, data_dir, ignore_errors=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
        env.update(
            {
                "ASTRO_DATABASE_URL": db_url,
                "ASTRO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "ASTRO_REDIS_URL": redis_url,
                "ASTRO_DATA_DIR": str(data_dir),
                "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
                "ASTRO_RATE_LIMIT_ENTERPRISE": "100000000",
            }
        )
        cli = [sys.executable, "-m", "astro_server.cli"]
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
        created = json.loads(
            subprocess.run(
                [*cli, "create-account", "--name", "bench", "--tier", "enterprise", "--json"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        account_id, key = created["account_id"], created["api_key"]
        fill_s = asyncio.run(fill(db_url, account_id, args.rows, args.other_rows))
        print(
            f"ledger: {args.rows:,} rows of the account + {args.other_rows:,} of others "
            f"(filled and vacuumed in {fill_s:.1f} s)"
        )
        if not args.no_scheduler:
            rolled_s = roll_up_by_scheduler(cli, env, db_url, account_id)
            print(f"scheduler: closed days summed into usage_daily {rolled_s:.1f} s after start")
        asyncio.run(sum_others(db_url))
        port = free_port()
        log = open(data_dir / "server.log", "wb")  # noqa: SIM115
        stack.callback(log.close)
        server = subprocess.Popen(
            [*cli, "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        stack.callback(server.wait, 15)
        stack.callback(server.terminate)
        wait_for_port(port, 120)  # a loaded machine: the server's imports take a while
        base_url = f"http://127.0.0.1:{port}"
        cases = [
            ("30 days by operation (default)", 30, "operation"),
            ("30 days by day", 30, "day"),
            ("365 days by operation", 365, "operation"),
            ("365 days by day", 365, "day"),
        ]
        now = time.time()
        print(f"{'case':34} {'rows':>9} {'first ms':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
        for name, days, group_by in cases:
            params = {
                "from": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - days * 86400)),
                "to": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 60)),
                "group_by": group_by,
            }
            first_ms, timings = measure(base_url, key, params, args.requests)
            timings.sort()
            with httpx.Client(base_url=base_url, headers={"X-API-Key": key}) as client:
                groups = client.get("/api/v3/usage", params=params).json()["groups"]
            counted = sum(g["calls"] + g["refunds"] for g in groups)
            p50 = statistics.median(timings)
            p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
            p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
            print(f"{name:34} {counted:>9,} {first_ms:>9.1f} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f}")
        print("\nEXPLAIN (ANALYZE, BUFFERS): 365 closed days from usage_daily, one open day from")
        print("the ledger:")
        print(asyncio.run(explain(db_url, account_id, 365)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
