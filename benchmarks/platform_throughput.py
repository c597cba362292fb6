"""Platform overhead: an authenticated, billable, idempotency-keyed call against ``/healthz``.

Both run on the same production-mode server (hypercorn, PostgreSQL, Redis) at the same number of
concurrent keep-alive clients; the script prints requests per second and p50/p99 latency of each
and their ratio. Target (issue 3, 2-core machine): the billable call keeps >= 60% of the
``/healthz`` throughput with p99 under 50 ms.

The billable call is ``POST /api/v3/numerology/profile`` (1 credit; the cheapest real billable
calculation, so the figure is dominated by the platform: key lookup (cached per process for
``ASTRO_API_KEY_CACHE_S``, default 5 s), Redis rate limit (concurrent hits pipelined), the debit
statement with its idempotency record and ledger row, the stored replay (group commit)) with a
new ``Idempotency-Key`` per request.

    uv run python benchmarks/platform_throughput.py [--duration 10] [--concurrency 50]
        [--endpoint numerology|estimate|natal|uranian ...] [--unix-sockets]

``--endpoint natal`` / ``uranian`` measure issue 5's "the natal and Uranian endpoints keep at
least half of /healthz throughput" on the same production stack. ``--endpoint estimate`` is a
reference point, not a billable call: ``POST /api/v3/estimates`` is authenticated, rate limited,
has a JSON body and reads the balance, but debits nothing and writes no idempotency record; what
it costs above ``/healthz`` is the price of being an API call at all on this stack. Several
endpoints may be named; each is measured against the same ``/healthz`` run.

PostgreSQL and Redis come from ``ASTRO_BENCH_DATABASE_URL`` / ``ASTRO_BENCH_REDIS_URL``, or are
started here in a temporary directory (as ``scripts/test.sh`` does) and stopped at the end.
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
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from _services import (
    add_smoke,
    apply_smoke,
    cpu_by_command,
    free_port,
    process_tree_cpu_s,
    start_postgres_and_redis,
    wait_for_port,
)

#: ``--endpoint``: the billable call to measure (path, body). ``numerology`` is the platform
#: figure of issue 3; ``natal`` and ``uranian`` are issue 5's "endpoints keep half of /healthz".
ENDPOINTS = {
    "numerology": (
        "/api/v3/numerology/profile",
        {"name": "Ada Lovelace", "birth_date": "1815-12-10", "on_date": "2026-01-01"},
    ),
    "natal": (
        "/api/v3/western/natal",
        {"subject": {"date": "1990-05-01", "time": "07:30", "latitude": 13.75,
                     "longitude": 100.5, "timezoneOffsetMinutes": 420}},
    ),
    "estimate": (
        "/api/v3/estimates",
        {"operation": "numerology.profile", "params": {}},
    ),
    "uranian": (
        "/api/v3/uranian/chart",
        {"birth_date": "1962-09-24", "birth_time": "16:05", "birth_lat": 53.55,
         "birth_lon": 9.99, "birth_place": "Hamburg", "timezoneOffsetMinutes": 60},
    ),
}  # fmt: skip


def _request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return status


async def load(
    port: int, make_request: object, concurrency: int, duration_s: float
) -> tuple[list[float], dict[int, int]]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    deadline = time.perf_counter() + duration_s

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < deadline:
                raw = make_request()  # type: ignore[operator]
                started = time.perf_counter()
                try:
                    status = await _one(reader, writer, raw)
                except (asyncio.IncompleteReadError, ConnectionError):
                    # The server closed the keep-alive connection: count it, reconnect.
                    statuses[0] = statuses.get(0, 0) + 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                latencies.append(time.perf_counter() - started)
                statuses[status] = statuses.get(status, 0) + 1
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies, statuses


def summarize(
    name: str, latencies: list[float], statuses: dict[int, int], duration_s: float
) -> dict[str, float]:
    ordered = sorted(latencies)
    rps = len(ordered) / duration_s
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
    print(
        f"{name:<34} {len(ordered):>8} req  {rps:>8.0f} req/s  p50 {p50:6.1f} ms  "
        f"p99 {p99:6.1f} ms  statuses {dict(sorted(statuses.items()))}"
    )
    return {"rps": rps, "p50": p50, "p99": p99}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="hypercorn worker processes")
    parser.add_argument("--endpoint", choices=sorted(ENDPOINTS), nargs="+", default=["numerology"])
    parser.add_argument(
        "--no-idempotency-key",
        action="store_true",
        help="send the billable call without Idempotency-Key (no replay record is written)",
    )
    parser.add_argument(
        "--unix-sockets",
        action="store_true",
        help="reach PostgreSQL and Redis over Unix-domain sockets instead of loopback TCP",
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), duration=1.0, warmup=0.5, concurrency=4, workers=1)

    with ExitStack() as stack:
        db_url = os.environ.get("ASTRO_BENCH_DATABASE_URL")
        redis_url = os.environ.get("ASTRO_BENCH_REDIS_URL")
        if not (db_url and redis_url):
            work = Path(tempfile.mkdtemp(prefix="astro-bench-"))
            stack.callback(shutil.rmtree, work, ignore_errors=True)
            db_url, redis_url = start_postgres_and_redis(
                stack, work, unix_sockets=args.unix_sockets
            )
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
                [
                    *cli,
                    "create-account",
                    "--name",
                    "bench",
                    "--tier",
                    "enterprise",
                    "--credits",
                    "100000000",
                    "--json",
                ],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        port = free_port()
        log = open(data_dir / "server.log", "wb")  # noqa: SIM115
        stack.callback(log.close)
        server = subprocess.Popen(
            [
                *cli,
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(args.workers),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        stack.callback(server.wait, 15)
        stack.callback(server.terminate)
        wait_for_port(port, 120)  # a loaded 2-core machine takes 30 s and more to start 2 workers

        healthz = _request("GET", "/healthz", {})
        key = created["api_key"]

        def caller(endpoint: str) -> Callable[[], bytes]:
            path, payload = ENDPOINTS[endpoint]
            body = json.dumps(payload).encode()

            def make() -> bytes:
                headers = {"X-API-Key": key, "Content-Type": "application/json"}
                if not args.no_idempotency_key and endpoint != "estimate":
                    headers["Idempotency-Key"] = uuid.uuid4().hex
                return _request("POST", path, headers, body)

            return make

        runs: list[tuple[str, Callable[[], bytes]]] = [("GET /healthz", lambda: healthz)]
        for endpoint in args.endpoint:
            path = ENDPOINTS[endpoint][0].removeprefix("/api/v3/")
            kind = "free reference" if endpoint == "estimate" else "billable"
            runs.append((f"POST {path} ({kind})", caller(endpoint)))

        print(
            f"{args.concurrency} concurrent keep-alive clients, {args.duration:.0f} s each, "
            f"hypercorn --workers {args.workers}, PostgreSQL + Redis, {os.cpu_count()} CPUs"
        )
        results = {}
        for name, make in runs:
            asyncio.run(load(port, make, args.concurrency, args.warmup))
            cpu_before = process_tree_cpu_s(server.pid)
            services_before = cpu_by_command(("postgres", "redis-server"))
            own_before = sum(os.times()[:2])
            latencies, statuses = asyncio.run(load(port, make, args.concurrency, args.duration))
            cpu_s = process_tree_cpu_s(server.pid) - cpu_before
            services_after = cpu_by_command(("postgres", "redis-server"))
            own_s = sum(os.times()[:2]) - own_before
            results[name] = summarize(name, latencies, statuses, args.duration)
            # Independent of other load on the machine: CPU per request, by component.
            count = max(1, len(latencies))
            results[name]["cpu_ms"] = cpu_s * 1000 / count
            pg_ms = (services_after["postgres"] - services_before["postgres"]) * 1000 / count
            redis_ms = (
                (services_after["redis-server"] - services_before["redis-server"]) * 1000 / count
            )
            print(
                f"{'':<34} ms CPU per request: API processes {results[name]['cpu_ms']:.2f}, "
                f"PostgreSQL {pg_ms:.2f}, Redis {redis_ms:.2f}, load generator "
                f"{own_s * 1000 / count:.2f}"
            )
        base = results["GET /healthz"]
        for name, _ in runs[1:]:
            paid = results[name]
            print(
                f"{name}: {paid['rps'] / base['rps']:.0%} of /healthz throughput "
                f"(targets: numerology >= 60% and p99 < 50 ms, natal and uranian >= 50%); "
                f"p99 {paid['p99']:.1f} ms"
            )
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
