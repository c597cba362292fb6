"""10,000 horoscope feed subscriptions due in the same minute, delivered to a local HTTPS receiver.

Starts a throwaway PostgreSQL and Redis (as scripts/test.sh does), migrates, inserts the
subscriptions (all due at the first whole minute 40 s or more ahead), runs one scheduler and two
``astro-server worker`` processes, and a keep-alive asyncio HTTPS receiver in its own process.
Prints: time from the due instant to the last delivery, deliveries per second, how many were
delivered 30 s and 60 s after the due instant, the CPU seconds each part of the stack used (the
machine is shared: CPU time says more than wall time when others' tests run), the load average,
SQL statements per delivery (pg_stat_statements; a pipelined executemany counts once per row)
and the plans of the scheduler's due query and dispatch statement on PostgreSQL (EXPLAIN after
ANALYZE).

    uv run python benchmarks/delivery_10k.py [--count 10000] [--concurrency 4]
    uv run python benchmarks/delivery_10k.py --receiver-only   # the receiver alone, under load
    uv run python benchmarks/delivery_10k.py --profile DIR     # py-spy of a worker and scheduler

Needs PostgreSQL 15 binaries and redis-server (scripts/test.sh installs both when missing).
Target (issue 10): all delivered within 60 s on this machine with two worker processes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import multiprocessing
import os
import secrets
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import trustme
from _services import (
    add_smoke,
    apply_smoke,
    cpu_seconds,
    free_port,
    load_average,
    start_postgres_and_redis,
)


def postgres_pids(pg_data: Path) -> list[int]:
    """The postmaster and every backend it forked."""
    try:
        postmaster = int((pg_data / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return [postmaster, *children]


# --- the receiver (its own process) --------------------------------------------------------------


def run_receiver(
    port: int,
    cert_dir: str,
    counter: multiprocessing.Value,  # type: ignore[type-arg]
    last: multiprocessing.Value,  # type: ignore[type-arg]
    first: multiprocessing.Value,  # type: ignore[type-arg]
    connections: multiprocessing.Value,  # type: ignore[type-arg]
) -> None:
    """A keep-alive HTTPS/1.1 server answering every POST with 200 (one event loop)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(f"{cert_dir}/server.pem")

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with connections.get_lock():
            connections.value += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
                now = time.time()
                with counter.get_lock():
                    if counter.value == 0:
                        first.value = now
                    counter.value += 1
                    last.value = now
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", port, ssl=context, backlog=1024)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


# --- setup ------------------------------------------------------------------------------------


async def insert_subscriptions(
    db_url: str, secret_key: str, count: int, port: int, due_at: datetime
) -> None:
    from tortoise import Tortoise

    from astro_server.platform.delivery.secrets_box import SecretBox
    from astro_server.platform.delivery.signing import new_signing_secret
    from astro_server.platform.models.delivery import HoroscopeFeedSubscription

    await Tortoise.init(db_url=db_url, modules={"astro": ["astro_server.platform.models"]})
    box = SecretBox(secret_key)
    signs = [
        "aries",
        "taurus",
        "gemini",
        "cancer",
        "leo",
        "virgo",
        "libra",
        "scorpio",
        "sagittarius",
        "capricorn",
        "aquarius",
        "pisces",
    ]
    rows = []
    delivery_time = due_at.strftime("%H:%M")
    for i in range(count):
        sub_id = "hfs_" + secrets.token_hex(12)
        url = f"https://localhost:{port}/hooks/{i}"
        rows.append(
            HoroscopeFeedSubscription(
                id=sub_id,
                account_id="acct_bench",
                customer_id=f"cus_{i % 100}",
                destination_url=url,
                destination_hash=hashlib.sha256(url.encode()).hexdigest(),
                sign=signs[i % 12],
                language="en" if i % 2 else "th",
                timezone="UTC",
                delivery_time=delivery_time,
                secret_ciphertext=box.encrypt(new_signing_secret(), bound_to=sub_id),
                next_due_at=due_at,
            )
        )
    await HoroscopeFeedSubscription.bulk_create(rows, batch_size=1000)
    await Tortoise.close_connections()


async def explain(dsn: str) -> None:
    """EXPLAIN (not run) the scheduler's statements as the pipeline sends them."""
    import asyncpg

    from astro_server.platform.delivery import engine as feed_pipeline

    def numbered(sql: str) -> str:
        parts = sql.split("?")
        return "".join(f"{p}${i}" for i, p in enumerate(parts[:-1], start=1)) + parts[-1]

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "ANALYZE horoscope_feed_subscriptions; ANALYZE horoscope_feed_deliveries"
        )
        now = datetime.now(UTC)
        for title, sql, values in (
            (
                "scheduler due query (subscriptions)",
                "SELECT id, timezone, delivery_time, next_due_at FROM horoscope_feed_subscriptions"
                " WHERE next_due_at <= $1 AND active ORDER BY next_due_at LIMIT $2",
                [now, feed_pipeline.SCHEDULE_BATCH],
            ),
            (
                "dispatch statement (deliveries)",
                numbered(feed_pipeline.dispatch_sql("postgres")),
                [
                    "0" * 16,
                    now + feed_pipeline.DISPATCH_GRACE,
                    now,
                    feed_pipeline.DISPATCH_CHUNK,
                ],
            ),
        ):
            plan = await conn.fetch("EXPLAIN " + sql, *values)
            print(f"\n{title}:")
            for row in plan:
                print("   ", row[0])
    finally:
        await conn.close()


async def statement_counts(dsn: str, delivered: int) -> None:
    """SQL statements run by the stack since the reset, per delivery, the most frequent first."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT calls, query FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat%'"
            " ORDER BY calls DESC"
        )
    finally:
        await conn.close()
    total = sum(int(r["calls"]) for r in rows)
    print(f"\nSQL statements: {total} ({total / max(delivered, 1):.2f} per delivery); most run:")
    for row in rows[:10]:
        query = " ".join(str(row["query"]).split())
        print(f"  {int(row['calls']):>7}  {query[:110]}")


def write_certs(work: Path) -> None:
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(work / "ca.pem"))
    ca.issue_cert("localhost").private_key_and_cert_chain_pem.write_to_path(
        str(work / "server.pem")
    )


# --- the receiver alone ----------------------------------------------------------------------


def run_load(port: int, ca_file: str, connections: int, duration_s: float, sent: Any) -> None:
    """``connections`` keep-alive TLS connections posting a delivery-sized body back to back."""
    body = b"x" * 1500
    request = (
        f"POST /hooks/0 HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    context = ssl.create_default_context(cafile=ca_file)

    async def one_connection(stop_at: float) -> int:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=context, server_hostname="localhost"
        )
        done = 0
        while time.monotonic() < stop_at:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
            await reader.readexactly(length)
            done += 1
        writer.close()
        return done

    async def main() -> int:
        stop_at = time.monotonic() + duration_s
        return sum(await asyncio.gather(*(one_connection(stop_at) for _ in range(connections))))

    count = asyncio.run(main())
    with sent.get_lock():
        sent.value += count


def receiver_alone(work: Path, duration_s: float = 10.0) -> int:
    """The benchmark's receiver under a load of 2 processes x 32 connections, nothing else."""
    write_certs(work)
    port = free_port()
    counter = multiprocessing.Value("i", 0)
    first = multiprocessing.Value("d", 0.0)
    last = multiprocessing.Value("d", 0.0)
    connections = multiprocessing.Value("i", 0)
    receiver = multiprocessing.Process(
        target=run_receiver,
        args=(port, str(work), counter, last, first, connections),
        daemon=True,
    )
    receiver.start()
    time.sleep(1.0)
    assert receiver.pid is not None
    cpu_before = cpu_seconds(receiver.pid)
    sent = multiprocessing.Value("i", 0)
    loads = [
        multiprocessing.Process(
            target=run_load, args=(port, str(work / "ca.pem"), 32, duration_s, sent)
        )
        for _ in range(2)
    ]
    started = time.perf_counter()
    for load in loads:
        load.start()
    for load in loads:
        load.join()
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(receiver.pid) - cpu_before
    receiver.kill()
    print(f"load average {load_average()}")
    print(
        f"receiver alone: {counter.value} requests in {elapsed:.1f} s on {connections.value} "
        f"connections = {counter.value / elapsed:.0f} requests/s (load generator on the same "
        f"2 cores); receiver CPU {cpu:.2f} s = {cpu / max(counter.value, 1) * 1e6:.0f} us/request"
    )
    return 0


# --- the run ---------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="taskiq messages per worker process at once (ASTRO_WORKER_CONCURRENCY)",
    )
    parser.add_argument("--wait-s", type=float, default=300.0, help="give up after")
    parser.add_argument("--lead-s", type=float, default=40.0, help="min. lead of the due minute")
    parser.add_argument("--receiver-only", action="store_true", help="measure the receiver alone")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record one worker and the scheduler with py-spy for 60 s from the due instant",
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), count=20, lead_s=2.0, wait_s=120.0)

    work = Path(tempfile.mkdtemp(prefix="astro-bench-"))
    os.chmod(work, 0o755)  # noqa: S103 - the postgres user must reach its data directory
    if args.receiver_only:
        try:
            return receiver_alone(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    procs: list[subprocess.Popen[bytes]] = []
    profilers: list[subprocess.Popen[bytes]] = []
    pg_data = work / "pg"
    recv_port = free_port()
    stack = ExitStack()
    stack.callback(shutil.rmtree, work, ignore_errors=True)
    try:
        db_url, redis_url = start_postgres_and_redis(
            stack, work, shared_preload_libraries="pg_stat_statements"
        )
        dsn = db_url.replace("postgres://", "postgresql://", 1)
        write_certs(work)
        secret_key = secrets.token_urlsafe(48)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
        env.update(
            {
                "ASTRO_DATA_DIR": str(work / "var"),
                "ASTRO_DATABASE_URL": db_url,
                "ASTRO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "ASTRO_REDIS_URL": redis_url,
                "ASTRO_SECRET_KEY": secret_key,
                "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
                "ASTRO_LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
                "SSL_CERT_FILE": str(work / "ca.pem"),
            }
        )
        if args.concurrency is not None:
            env["ASTRO_WORKER_CONCURRENCY"] = str(args.concurrency)
        cli = [sys.executable, "-m", "astro_server.cli"]
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)

        # Delivery times are whole minutes: the first whole minute at least lead_s ahead.
        earliest = datetime.now(UTC) + timedelta(seconds=args.lead_s)
        due_at = earliest.replace(second=0, microsecond=0) + timedelta(minutes=1)
        started = time.perf_counter()
        asyncio.run(insert_subscriptions(db_url, secret_key, args.count, recv_port, due_at))
        print(
            f"inserted {args.count} subscriptions in {time.perf_counter() - started:.1f} s; "
            f"all due at {due_at:%H:%M:%S} UTC"
        )

        async def reset_statements() -> None:
            import asyncpg

            conn = await asyncpg.connect(dsn)
            await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            await conn.execute("SELECT pg_stat_statements_reset()")
            await conn.close()

        asyncio.run(reset_statements())
        counter = multiprocessing.Value("i", 0)
        first = multiprocessing.Value("d", 0.0)
        last = multiprocessing.Value("d", 0.0)
        connections = multiprocessing.Value("i", 0)
        receiver = multiprocessing.Process(
            target=run_receiver,
            args=(recv_port, str(work), counter, last, first, connections),
            daemon=True,
        )
        receiver.start()
        logs = []
        for name in ("scheduler", "worker", "worker"):
            log = open(work / f"{name}-{len(logs)}.log", "wb")  # noqa: SIM115
            logs.append(log)
            procs.append(
                subprocess.Popen([*cli, name], env=env, stdout=log, stderr=subprocess.STDOUT)
            )

        # CPU time from the due instant on (start-up and horoscope publishing are before it).
        while time.time() < due_at.timestamp():
            time.sleep(0.05)
        load_at_due = load_average()
        parts: dict[str, list[int]] = {
            "scheduler": [procs[0].pid],
            "workers": [procs[1].pid, procs[2].pid],
            "receiver": [receiver.pid or 0],
            "postgres": postgres_pids(pg_data),
            "redis": [int((work / "redis.pid").read_text().strip())],
        }
        cpu_at_due = {name: sum(map(cpu_seconds, pids)) for name, pids in parts.items()}
        if args.profile:
            py_spy = shutil.which("py-spy") or str(Path.home() / ".local/bin/py-spy")
            for name, pid in (("worker", procs[1].pid), ("scheduler", procs[0].pid)):
                out = Path(args.profile) / f"{name}.txt"
                record = ["record", "-p", str(pid), "-d", "60", "-r", "50", "-f", "raw"]
                profilers.append(
                    subprocess.Popen(
                        [py_spy, *record, "--nonblocking", "-o", str(out)],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
        checkpoints: dict[int, int] = {}
        deadline = due_at.timestamp() + args.wait_s
        while time.time() < deadline and counter.value < args.count:
            for mark in (30, 60):
                if mark not in checkpoints and time.time() >= due_at.timestamp() + mark:
                    checkpoints[mark] = counter.value
            time.sleep(0.1)
        delivered = counter.value
        parts["postgres"] = postgres_pids(pg_data)  # backends opened after the due instant
        cpu_used = {
            name: sum(map(cpu_seconds, pids)) - cpu_at_due.get(name, 0.0)
            for name, pids in parts.items()
        }
        to_last = last.value - due_at.timestamp()
        span = max(last.value - first.value, 1e-9)
        print(f"\nload average at the due instant {load_at_due}, at the end {load_average()}")
        print(f"delivered {delivered} of {args.count}")
        if delivered:
            print(f"first delivery {first.value - due_at.timestamp():.2f} s after the due instant")
            print(f"last delivery  {to_last:.2f} s after the due instant")
            for mark in (30, 60):
                print(f"delivered {checkpoints.get(mark, delivered)} within {mark} s")
            print(
                f"throughput     {delivered / span:.0f} deliveries/s (first to last), "
                f"{delivered / max(to_last, 1e-9):.0f}/s from the due instant"
            )
            print(f"receiver       {connections.value} TLS connections accepted")
            print(
                "target: all within 60 s ->",
                "met" if delivered == args.count and to_last <= 60 else "NOT met",
            )
        print("CPU seconds from the due instant (2 cores shared with the rest of the machine):")
        for name, seconds in cpu_used.items():
            print(
                f"  {name:<10} {seconds:6.1f} s  "
                f"({seconds / max(delivered, 1) * 1e3:.2f} ms per delivery)"
            )
        asyncio.run(statement_counts(dsn, delivered))
        asyncio.run(explain(dsn))
        receiver.kill()
        if delivered < args.count:
            for log in logs:
                log.flush()
                print(f"--- {log.name}:\n" + Path(log.name).read_text(errors="replace")[-3000:])
        return 0 if delivered == args.count else 1
    finally:
        for profiler in profilers:
            profiler.wait(90)
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait(10)
        stack.close()


if __name__ == "__main__":
    sys.exit(main())
