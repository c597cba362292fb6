"""10,000 horoscope feed subscriptions due in the same minute, delivered to a local HTTPS receiver.

Starts a throwaway PostgreSQL and Redis (as scripts/test.sh does), migrates, inserts the
subscriptions (all due at the first whole minute 40 s or more ahead), runs one scheduler and two
``astro-server worker`` processes, and a keep-alive asyncio HTTPS receiver in its own process.
Prints: time from the due instant to the last delivery, deliveries per second, and the
scheduler's due-query plans on PostgreSQL (EXPLAIN after ANALYZE).

    uv run python benchmarks/delivery_10k.py [--count 10000] [--concurrency 64]

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
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import trustme


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}")):
        return str(candidate)
    raise SystemExit(f"{name} not found (install PostgreSQL)")


# --- the receiver (its own process) --------------------------------------------------------------


def run_receiver(
    port: int,
    cert_dir: str,
    counter: multiprocessing.Value,
    last: multiprocessing.Value,  # type: ignore[type-arg]
    first: multiprocessing.Value,
) -> None:  # type: ignore[type-arg]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(f"{cert_dir}/server.pem")

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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

    from astro_server.models.delivery import HoroscopeFeedSubscription
    from astro_server.services.delivery.secrets_box import SecretBox
    from astro_server.services.delivery.signing import new_signing_secret

    await Tortoise.init(db_url=db_url, modules={"astro": ["astro_server.models"]})
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
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "ANALYZE horoscope_feed_subscriptions; ANALYZE horoscope_feed_deliveries"
        )
        now = datetime.now(UTC)
        for title, sql in (
            (
                "scheduler due query (subscriptions)",
                "SELECT id, timezone, delivery_time, next_due_at FROM horoscope_feed_subscriptions"
                " WHERE next_due_at <= $1 AND active ORDER BY next_due_at LIMIT 5000",
            ),
            (
                "dispatch query (deliveries)",
                "SELECT id FROM horoscope_feed_deliveries WHERE next_attempt_at <= $1"
                " ORDER BY next_attempt_at LIMIT 20000",
            ),
        ):
            plan = await conn.fetch("EXPLAIN " + sql, now)
            print(f"\n{title}:")
            for row in plan:
                print("   ", row[0])
    finally:
        await conn.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=64, help="per worker process")
    parser.add_argument("--wait-s", type=float, default=300.0, help="give up after")
    parser.add_argument("--lead-s", type=float, default=40.0, help="min. lead of the due minute")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="astro-bench-"))
    os.chmod(work, 0o755)  # noqa: S103 - the postgres user must reach its data directory
    procs: list[subprocess.Popen[bytes]] = []
    pg_data = work / "pg"
    pg_port, redis_port, recv_port = free_port(), free_port(), free_port()
    try:
        if os.geteuid() == 0:
            subprocess.run(
                ["install", "-d", "-o", "postgres", "-g", "postgres", str(pg_data)], check=True
            )
        else:
            pg_data.mkdir()
        subprocess.run(
            as_postgres(
                [
                    pg_bin("initdb"),
                    "-D",
                    f"{pg_data}/data",
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C.UTF-8",
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
        )
        subprocess.run(
            as_postgres(
                [
                    pg_bin("pg_ctl"),
                    "-D",
                    f"{pg_data}/data",
                    "-l",
                    f"{pg_data}/log",
                    "-w",
                    "-o",
                    f"-p {pg_port} -k {pg_data} -c listen_addresses=127.0.0.1 "
                    "-c fsync=off -c synchronous_commit=off -c max_connections=300",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(redis_port),
                "--bind",
                "127.0.0.1",
                "--daemonize",
                "yes",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(work),
                "--pidfile",
                str(work / "redis.pid"),
            ],
            check=True,
            capture_output=True,
        )
        time.sleep(0.5)
        db_url = f"postgres://postgres@127.0.0.1:{pg_port}/postgres"
        ca = trustme.CA()
        ca.cert_pem.write_to_path(str(work / "ca.pem"))
        ca.issue_cert("localhost").private_key_and_cert_chain_pem.write_to_path(
            str(work / "server.pem")
        )
        secret_key = secrets.token_urlsafe(32)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
        env.update(
            {
                "ASTRO_DATA_DIR": str(work / "var"),
                "ASTRO_DATABASE_URL": db_url,
                "ASTRO_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
                "ASTRO_SECRET_KEY": secret_key,
                "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
                "ASTRO_WORKER_CONCURRENCY": str(args.concurrency),
                "ASTRO_LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
                "SSL_CERT_FILE": str(work / "ca.pem"),
            }
        )
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

        counter = multiprocessing.Value("i", 0)
        first = multiprocessing.Value("d", 0.0)
        last = multiprocessing.Value("d", 0.0)
        receiver = multiprocessing.Process(
            target=run_receiver, args=(recv_port, str(work), counter, last, first), daemon=True
        )
        receiver.start()
        logs = []
        for name in ("scheduler", "worker", "worker"):
            log = open(work / f"{name}-{len(logs)}.log", "wb")  # noqa: SIM115
            logs.append(log)
            procs.append(
                subprocess.Popen([*cli, name], env=env, stdout=log, stderr=subprocess.STDOUT)
            )

        deadline = due_at.timestamp() + args.wait_s
        while time.time() < deadline and counter.value < args.count:
            time.sleep(0.25)
        delivered = counter.value
        to_last = last.value - due_at.timestamp()
        span = max(last.value - first.value, 1e-9)
        print(f"\ndelivered {delivered} of {args.count}")
        if delivered:
            print(f"first delivery {first.value - due_at.timestamp():.2f} s after the due instant")
            print(f"last delivery  {to_last:.2f} s after the due instant")
            print(
                f"throughput     {delivered / span:.0f} deliveries/s (first to last), "
                f"{delivered / max(to_last, 1e-9):.0f}/s from the due instant"
            )
            print(
                "target: all within 60 s ->",
                "met" if delivered == args.count and to_last <= 60 else "NOT met",
            )
        asyncio.run(explain(db_url.replace("postgres://", "postgresql://", 1)))
        receiver.kill()
        if delivered < args.count:
            for log in logs:
                log.flush()
                print(f"--- {log.name}:\n" + Path(log.name).read_text(errors="replace")[-3000:])
        return 0 if delivered == args.count else 1
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait(10)
        subprocess.run(
            as_postgres(
                [pg_bin("pg_ctl"), "-D", f"{pg_data}/data", "-m", "immediate", "-w", "stop"]
            ),
            capture_output=True,
        )
        pid_file = work / "redis.pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().strip()), 15)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
