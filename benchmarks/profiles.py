"""What ``{"profile_id": ...}`` adds to a calculation against the same call with the subject
inline (target: at most 0.3 ms per call).

Run: uv run python benchmarks/profiles.py [--requests N] [--postgres-server postgres://host/db]

One Quart app (embedded SQLite by default; with ``--postgres-server``, a throwaway database
created on that server and dropped afterwards), driven in process
by its test client with one request in flight. Two figures:

* **end to end**: ``POST /api/v3/western/natal`` with the subject inline and with a profile
  reference, in alternating rounds (the machine is shared: alternation keeps drift out of the
  difference); the best round of each, and the difference per call;
* **the step itself**: the time spent in ``services/profiles.resolve_references`` per call (one
  indexed query joining the profile and its data key, the unwrapped-key cache hit, AES-GCM
  decryption of the sealed fields, re-encoding the body), median and 95th percentile, with the
  process's reference cache warm (the usual case) and cleared before every call (a profile's
  first use in a process, or the first after any profile change).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _services import add_smoke, apply_smoke

from astro_server.app import create_app
from astro_server.features.profiles import service as profiles
from astro_server.platform import runtime
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.settings import Settings

SUBJECT = {"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5,
           "timezoneOffsetMinutes": 420}  # fmt: skip


async def measure(requests: int, rounds: int, database_url: str | None) -> None:
    data_dir = Path(tempfile.mkdtemp())
    settings = Settings(
        data_dir=data_dir, database_url=database_url, secret_key="k" * 32, log_level="WARNING"
    )
    settings = settings.with_overrides(
        rate_limits=dict.fromkeys(("free", "starter", "pro", "enterprise"), 10**9)
    )
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    step_times: list[float] = []
    cold_times: list[float] = []
    cold = False
    # The resolver every billable body goes through, as build_platform wired it.
    wired = runtime.current()
    original = wired.resolve_references

    async def timed(raw: bytes, **context: Any) -> bytes:
        if cold:
            profiles._references.clear()
        t0 = time.perf_counter()
        try:
            return await original(raw, **context)
        finally:
            if b"profile_id" in raw:
                (cold_times if cold else step_times).append(time.perf_counter() - t0)

    wired.resolve_references = timed
    async with app.test_app():
        client = app.test_client()
        _account, key = await accounts.create_account("bench", "pro", 10**9)
        headers = {"X-API-Key": key}
        made = await client.post(
            "/api/v3/profiles",
            json={"name": "Bench Person", "birth": SUBJECT, "tags": ["bench"]},
            headers=headers,
        )
        profile_id = (await made.get_json())["profile"]["id"]
        inline = {"subject": SUBJECT}
        by_ref = {"subject": {"profile_id": profile_id}}

        async def batch(body: dict[str, object]) -> float:
            t0 = time.perf_counter()
            for _ in range(requests):
                response = await client.post("/api/v3/western/natal", json=body, headers=headers)
                assert response.status_code == 200, await response.get_data(as_text=True)
                await response.get_data()
            return (time.perf_counter() - t0) / requests

        for body in (inline, by_ref):  # warm both paths
            for _ in range(20):
                await client.post("/api/v3/western/natal", json=body, headers=headers)
        step_times.clear()
        inline_times, ref_times = [], []
        for _ in range(rounds):
            inline_times.append(await batch(inline))
            ref_times.append(await batch(by_ref))
        cold = True
        cold_ref_times = [await batch(by_ref) for _ in range(rounds)]
    wired.resolve_references = original
    where = "PostgreSQL" if database_url else "SQLite"
    best_inline, best_ref = min(inline_times), min(ref_times)
    median_diff = statistics.median(r - i for r, i in zip(ref_times, inline_times, strict=True))
    step_times.sort()
    p50 = step_times[len(step_times) // 2]
    p95 = step_times[int(len(step_times) * 0.95)]
    print(f"{where}: {rounds} alternating rounds of {requests} requests each")
    print(f"natal, subject inline     best {best_inline * 1e3:7.3f} ms/call")
    print(f"natal, profile_id         best {best_ref * 1e3:7.3f} ms/call")
    print(f"added (best vs best)           {(best_ref - best_inline) * 1e3:7.3f} ms/call")
    print(f"added (median of rounds)       {median_diff * 1e3:7.3f} ms/call")
    print(f"resolve_references step   p50 {p50 * 1e3:7.3f} ms, p95 {p95 * 1e3:7.3f} ms "
          f"({len(step_times)} calls; target <= 0.3 ms added)")  # fmt: skip
    cold_times.sort()
    print(f"natal, profile_id, cache cleared before each call: best "
          f"{min(cold_ref_times) * 1e3:7.3f} ms/call; step p50 "
          f"{cold_times[len(cold_times) // 2] * 1e3:7.3f} ms, p95 "
          f"{cold_times[int(len(cold_times) * 0.95)] * 1e3:7.3f} ms")  # fmt: skip


async def _admin(server_url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def run(requests: int, rounds: int, server_url: str | None) -> None:
    if server_url is None:
        await measure(requests, rounds, None)
        return
    name = "astro_bench_" + secrets.token_hex(6)
    await _admin(server_url, f'CREATE DATABASE "{name}"')
    try:
        await measure(requests, rounds, f"{server_url.rsplit('/', 1)[0]}/{name}")
    finally:
        from astro_server.platform.db import close_db

        await close_db()
        await _admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--postgres-server",
        default=None,
        help="a PostgreSQL server URL (its maintenance database); a throwaway database is used",
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), requests=5, rounds=1)
    asyncio.run(run(args.requests, args.rounds, args.postgres_server))


if __name__ == "__main__":
    main()
