"""Faults on the production shape, under load: what clients see, how long recovery takes, and
whether the money and the jobs stay right (issue 29).

Starts on loopback, in a temporary directory: PostgreSQL, Redis (no persistence at first),
``astro-server serve --workers 2`` (our supervisor), two ``worker`` processes and one
``scheduler``. A bounded load runs throughout: a few concurrent clients, each request one of
``GET /api/v3/account`` (unbilled), ``POST /api/v3/numerology/profile`` (1 credit, synchronous)
or ``POST /api/v3/vedic/kundli-matching/batch`` with one record (2 credits, a job), every request
with its own ``X-Request-Id`` (the ledger records it), no client retries. One fault per case:

    api-kill        kill -9 of the API process holding the most client connections (the
                    supervisor starts another)
    worker-kill     kill -9 of one job worker (started again after 1 s, as an orchestrator would)
    scheduler-kill  kill -9 of the scheduler (started again after 2 s)
    redis-restart   workers paused 1 s (jobs wait in the stream), Redis stopped (SIGKILL, no
                    persistence: the queued messages are lost) and started after 3 s
    redis-aof       the same with AOF on (``CONFIG SET appendonly yes`` first, SIGTERM, start)
    pg-fast         PostgreSQL ``pg_ctl stop -m fast``, started after 3 s
    pg-immediate    PostgreSQL ``pg_ctl stop -m immediate`` (crash recovery), started after 3 s
    pg-hang         PostgreSQL's postmaster and backends stopped (SIGSTOP) for 8 s: requests
                    must answer 503 within the deadlines (issue 52), not wait for the hang
    redis-hang      redis-server stopped (SIGSTOP) for 8 s, the same
    api-rolling-restart  SIGTERM to each API process in turn (the next once the previous one's
                    replacement serves): no request may fail

Printed per case: the status counts clients saw (transport errors by exception name), the time
to recovery (from the kill, or from the dependency being back, to the end of the last failed
request that started after it; 0 when nothing failed after it) and, after the jobs settled, the
invariants over everything so far: balance = ledger for every account; each billed 2xx exactly one
unrefunded debit with its request id and each answered non-2xx none (requests whose answer was
lost with a killed process are counted apart, with how many were charged); every job terminal;
each failed job refunded exactly once, no succeeded job refunded; and the slowest job of the
case from creation to its end (a lost message costs at most one lease). Also the server's
``unhandled error`` log lines (tracebacks) and outage lines.

    uv run python benchmarks/chaos.py [--cases api-kill,redis-restart,...] [--clients 6]
        [--before 3] [--after 10]

Lease 10 s and sweep interval 2 s (``ASTRO_JOB_LEASE_S``, ``ASTRO_SWEEP_INTERVAL_S``) keep the
run short; the targets scale with them (<= one lease for queued work). Stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from _services import (
    add_smoke,
    apply_smoke,
    as_postgres,
    free_port,
    load_average,
    pg_bin,
    wait_for_port,
)

CASES = (
    "api-kill",
    "worker-kill",
    "scheduler-kill",
    "redis-restart",
    "redis-aof",
    "pg-fast",
    "pg-immediate",
    "pg-hang",
    "redis-hang",
    "api-rolling-restart",
)
#: Seconds a hang case keeps the server's processes stopped (SIGSTOP): longer than every deadline.
HANG_S = 8.0
LEASE_S = 10
SWEEP_S = 2
NUMEROLOGY = {"name": "Ada Lovelace", "birth_date": "1815-12-10", "on_date": "2026-01-01"}
BOY = {
    "date": "1990-05-17",
    "time": "10:30",
    "latitude": 28.61,
    "longitude": 77.21,
    "timezoneOffsetMinutes": 330,
}
GIRL = {"date": "1992-08-02", "time": "06:15", "latitude": 19.07, "longitude": 72.88,
        "timezoneOffsetMinutes": 330}  # fmt: skip
BATCH = {"records": [{"id": "r0", "boy": BOY, "girl": GIRL}]}


@dataclass
class Sent:
    kind: str  # read | billed | job
    request_id: str
    started: float
    finished: float
    outcome: str  # "200", "503", ... or the transport exception's name


@dataclass
class Stack:
    work: Path
    env: dict[str, str]
    pg_data: Path
    pg_port: int
    redis_port: int
    api_port: int
    logs: Path
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    redis: subprocess.Popen[bytes] | None = None
    redis_aof: bool = False

    # PostgreSQL ------------------------------------------------------------------------------
    def pg_start(self) -> None:
        options = (
            f"-p {self.pg_port} -k {self.pg_data.parent} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=200"
        )
        # synchronous_commit stays on (unlike the other benchmarks): an immediate shutdown
        # loses the WAL not yet written, so commits already answered 2xx would vanish (a run
        # with it off showed 9 billed 2xx whose debits the crash recovery did not bring back).
        # fsync off is harmless here: the operating system does not crash.
        subprocess.run(
            as_postgres([pg_bin("pg_ctl"), "-D", str(self.pg_data), "-l",
                         str(self.pg_data.parent / "log"), "-w", "-t", "60", "-o", options,
                         "start"]),
            check=True, capture_output=True,
        )  # fmt: skip

    def pg_stop(self, mode: str) -> None:
        subprocess.run(
            as_postgres([pg_bin("pg_ctl"), "-D", str(self.pg_data), "-m", mode, "-w", "stop"]),
            capture_output=True,
        )  # fmt: skip

    # Redis -----------------------------------------------------------------------------------
    def redis_start(self) -> None:
        command = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                   "--save", "", "--dir", str(self.work),
                   "--appendonly", "yes" if self.redis_aof else "no"]  # fmt: skip
        self.redis = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for_port(self.redis_port, 10)

    def redis_stop(self, sig: int) -> None:
        if self.redis is not None:
            self.redis.send_signal(sig)
            self.redis.wait(15)
            self.redis = None

    # Our processes ---------------------------------------------------------------------------
    def start(self, name: str, *args: str) -> None:
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 (closed with the process)
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "astro_server.cli", *args],
            env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()

    def kill(self, name: str) -> None:
        process = self.procs[name]
        process.kill()
        process.wait(10)

    def stop_all(self) -> None:
        for process in self.procs.values():
            if process.poll() is None:
                process.terminate()
        for process in self.procs.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()

    def pg_processes(self) -> list[int]:
        """The postmaster and its children (the hang cases stop them all)."""
        postmaster = int((self.pg_data / "postmaster.pid").read_text().split()[0])
        found = [postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                if ppid == postmaster:
                    found.append(int(entry.name))
        return found

    def api_connections(self) -> dict[int, int]:
        """Each API process's established connections on the API port (socket inodes of its
        descriptors matched against /proc/net/tcp)."""
        inodes: set[str] = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError):
                for line in Path(table).read_text().splitlines()[1:]:
                    fields = line.split()
                    local_port = int(fields[1].rsplit(":", 1)[1], 16)
                    if local_port == self.api_port and fields[3] == "01":  # ESTABLISHED
                        inodes.add(fields[9])
        counts: dict[int, int] = {}
        for pid in self.api_children():
            held = 0
            with contextlib.suppress(OSError):
                for fd in Path(f"/proc/{pid}/fd").iterdir():
                    with contextlib.suppress(OSError):
                        target = os.readlink(fd)
                        if target.startswith("socket:[") and target[8:-1] in inodes:
                            held += 1
            counts[pid] = held
        return counts

    def api_children(self) -> set[int]:
        serve = self.procs["api"].pid
        found: set[int] = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                cmdline = (entry / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == serve and b"spawn_main" in cmdline:
                found.add(int(entry.name))
        return found


def build_stack(stack: ExitStack, work: Path) -> Stack:
    pg_dir = work / "pg"
    pg_dir.mkdir()
    if os.geteuid() == 0:
        shutil.chown(work, "postgres", "postgres")
        shutil.chown(pg_dir, "postgres", "postgres")
    subprocess.run(
        as_postgres([pg_bin("initdb"), "-D", str(pg_dir / "data"), "-U", "postgres", "-A",
                     "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
        check=True, capture_output=True,
    )  # fmt: skip
    logs = work / "logs"
    logs.mkdir()
    s = Stack(
        work=work,
        env={},
        pg_data=pg_dir / "data",
        pg_port=free_port(),
        redis_port=free_port(),
        api_port=free_port(),
        logs=logs,
    )
    stack.callback(s.pg_stop, "immediate")
    s.pg_start()
    stack.callback(lambda: s.redis_stop(signal.SIGKILL))
    s.redis_start()
    s.env = {
        **os.environ,
        "ASTRO_DATABASE_URL": f"postgres://postgres@127.0.0.1:{s.pg_port}/postgres",
        "ASTRO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "ASTRO_REDIS_URL": f"redis://127.0.0.1:{s.redis_port}/0",
        "ASTRO_DATA_DIR": str(work / "var"),
        "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
        "ASTRO_RATE_LIMIT_ENTERPRISE": "100000000",
        "ASTRO_JOB_LEASE_S": str(LEASE_S),
        "ASTRO_SWEEP_INTERVAL_S": str(SWEEP_S),
        "ASTRO_LOG_LEVEL": "INFO",
    }
    stack.callback(s.stop_all)
    return s


async def client_loop(
    http: httpx.AsyncClient, keys: list[str], stop: asyncio.Event, sent: list[Sent]
) -> None:
    rng = random.Random()
    while not stop.is_set():
        key = rng.choice(keys)
        request_id = "req_chaos_" + uuid.uuid4().hex[:20]
        headers = {"X-API-Key": key, "X-Request-Id": request_id}
        pick = rng.random()
        started = time.monotonic()
        try:
            if pick < 0.3:
                kind = "read"
                response = await http.get("/api/v3/account", headers=headers)
            elif pick < 0.8:
                kind = "billed"
                response = await http.post(
                    "/api/v3/numerology/profile", json=NUMEROLOGY, headers=headers
                )
            else:
                kind = "job"
                response = await http.post(
                    "/api/v3/vedic/kundli-matching/batch", json=BATCH, headers=headers
                )
            outcome = str(response.status_code)
        except httpx.HTTPError as exc:
            outcome = type(exc).__name__
        sent.append(Sent(kind, request_id, started, time.monotonic(), outcome))
        await asyncio.sleep(0.01)


async def wait_api(port: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=2) as http:
        while time.monotonic() < deadline:
            try:
                if (await http.get("/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise SystemExit(f"the API on port {port} is not ready after {timeout_s} s")


async def inject(s: Stack, case: str) -> tuple[float, str]:
    """Run the fault; returns (the moment recovery is measured from, a note)."""
    loop = asyncio.get_running_loop()

    def run(function: Any, *args: Any) -> Any:
        return loop.run_in_executor(None, function, *args)

    if case == "api-kill":
        before = s.api_children()
        # The process holding the clients' connections (the kernel may give them all to one).
        held = s.api_connections()
        victim = max(before, key=lambda pid: (held.get(pid, 0), -pid))
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        deadline = killed + 60
        while time.monotonic() < deadline:
            now = s.api_children()
            if victim not in now and len(now) == len(before):
                return killed, f"API process {victim} killed; replaced in " + (
                    f"{time.monotonic() - killed:.1f} s"
                )
            await asyncio.sleep(0.1)
        return killed, f"API process {victim} killed; NOT replaced within 60 s"
    if case in ("worker-kill", "scheduler-kill"):
        name = "worker1" if case == "worker-kill" else "scheduler"
        pid = s.procs[name].pid
        await run(s.kill, name)
        killed = time.monotonic()
        await asyncio.sleep(1.0 if name == "worker1" else 2.0)
        s.start(name, "worker" if name == "worker1" else "scheduler")
        return killed, f"{name} {pid} killed, started again"
    if case in ("redis-restart", "redis-aof"):
        # Workers paused for a second first, so jobs are waiting in the stream when it goes:
        # without AOF their messages are lost and the sweep must re-send them (<= one lease).
        paused = [s.procs[name].pid for name in ("worker1", "worker2")]
        for pid in paused:
            os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(1.0)
        if case == "redis-aof":
            import redis

            client = redis.Redis(port=s.redis_port)
            client.config_set("appendonly", "yes")
            await asyncio.sleep(1.5)  # the AOF rewrite of what is there now
            client.close()
            s.redis_aof = True
            await run(s.redis_stop, signal.SIGTERM)
        else:
            await run(s.redis_stop, signal.SIGKILL)
        await asyncio.sleep(3.0)
        await run(s.redis_start)
        for pid in paused:
            os.kill(pid, signal.SIGCONT)
        return time.monotonic(), "Redis down 3 s" + (" (AOF on)" if s.redis_aof else "")
    if case in ("pg-fast", "pg-immediate"):
        mode = case.removeprefix("pg-")
        await run(s.pg_stop, mode)
        await asyncio.sleep(3.0)
        await run(s.pg_start)
        return time.monotonic(), f"PostgreSQL stopped ({mode}) 3 s"
    if case == "pg-hang":
        stopped = s.pg_processes()
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(HANG_S)
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        return time.monotonic(), f"PostgreSQL hung (SIGSTOP) {HANG_S:.0f} s"
    if case == "redis-hang":
        assert s.redis is not None
        os.kill(s.redis.pid, signal.SIGSTOP)
        await asyncio.sleep(HANG_S)
        os.kill(s.redis.pid, signal.SIGCONT)
        return time.monotonic(), f"Redis hung (SIGSTOP) {HANG_S:.0f} s"
    if case == "api-rolling-restart":
        # SIGTERM to each API process in turn, the next once the replacement of the previous
        # serves: every in-flight request finishes, no transport error is expected.
        notes = []
        for victim in sorted(s.api_children()):
            before = s.api_children()
            os.kill(victim, signal.SIGTERM)
            signalled = time.monotonic()
            deadline = signalled + 120
            while time.monotonic() < deadline:
                now = s.api_children()
                if victim not in now and len(now) == len(before):
                    break
                await asyncio.sleep(0.1)
            await wait_api(s.api_port, 60)
            notes.append(f"{victim}: {time.monotonic() - signalled:.1f} s")
        return time.monotonic(), "API processes restarted one by one (" + ", ".join(notes) + ")"
    raise ValueError(case)


async def settle_jobs(db_url: str, timeout_s: float) -> tuple[int, float]:
    """Wait until no job is queued or running; returns (jobs not terminal, seconds waited)."""
    started = time.monotonic()
    left = -1
    while time.monotonic() - started < timeout_s:
        try:
            conn = await asyncpg.connect(db_url)
            try:
                left = await conn.fetchval(
                    "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')"
                )
            finally:
                await conn.close()
        except (OSError, asyncpg.PostgresError):
            left = -1
        if left == 0:
            break
        await asyncio.sleep(0.5)
    return left, time.monotonic() - started


async def db_now(db_url: str) -> Any:
    conn = await asyncpg.connect(db_url)
    try:
        return await conn.fetchval("SELECT now()")
    finally:
        await conn.close()


async def slowest_job_s(db_url: str, since: Any) -> float:
    """The longest wait from a job's creation to its end among jobs created since ``since``
    (a job whose message a Redis restart lost waits for the sweep: at most one lease)."""
    conn = await asyncpg.connect(db_url)
    try:
        value = await conn.fetchval(
            "SELECT max(extract(epoch FROM finished_at - created_at)) FROM jobs"
            " WHERE created_at >= $1",
            since,
        )
    finally:
        await conn.close()
    return float(value or 0.0)


async def invariants(db_url: str, sent: list[Sent]) -> dict[str, Any]:
    conn = await asyncpg.connect(db_url)
    try:
        mismatched = await conn.fetchval(
            "SELECT count(*) FROM accounts a WHERE a.credits <> COALESCE("
            "(SELECT sum(amount) FROM ledger_entries l WHERE l.account_id = a.id), 0)"
        )
        negative = await conn.fetchval("SELECT count(*) FROM accounts WHERE credits < 0")
        rows = await conn.fetch(
            "SELECT d.request_id, count(*) AS n FROM ledger_entries d WHERE d.kind = 'debit'"
            " AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.refund_of = d.id)"
            " AND d.request_id LIKE 'req_chaos_%' GROUP BY d.request_id"
        )
        job_rows = await conn.fetch(
            "SELECT j.status, j.credits_charged, j.credits_refunded,"
            " (SELECT count(*) FROM ledger_entries r WHERE r.refund_of = j.ledger_entry_id)"
            " AS refunds FROM jobs j"
        )
    finally:
        await conn.close()
    kept = {r["request_id"]: r["n"] for r in rows}
    billed = [x for x in sent if x.kind in ("billed", "job")]
    ok_wrong = sum(1 for x in billed if x.outcome.startswith("2") and kept.get(x.request_id) != 1)
    refused_charged = sum(
        1
        for x in billed
        if x.outcome.isdigit() and not x.outcome.startswith("2") and x.request_id in kept
    )
    lost = [x for x in billed if not x.outcome.isdigit()]
    lost_charged = sum(1 for x in lost if x.request_id in kept)
    jobs_open = sum(1 for r in job_rows if r["status"] in ("queued", "running"))
    failed = [r for r in job_rows if r["status"] in ("failed", "canceled")]
    failed_wrong = sum(
        1
        for r in failed
        if r["credits_charged"]
        and (r["refunds"] != 1 or r["credits_refunded"] != r["credits_charged"])
    )
    succeeded_refunded = sum(1 for r in job_rows if r["status"] == "succeeded" and r["refunds"])
    return {
        "balance=ledger": "ok" if mismatched == 0 else f"{mismatched} accounts differ",
        "negative balances": negative,
        "billed 2xx without exactly one debit": ok_wrong,
        "answered non-2xx yet charged": refused_charged,
        "answer lost (transport error) / of them charged": f"{len(lost)} / {lost_charged}",
        "jobs": f"{len(job_rows)} ({len(failed)} failed)",
        "jobs not terminal": jobs_open,
        "failed jobs not refunded exactly once": failed_wrong,
        "succeeded jobs refunded": succeeded_refunded,
    }


def log_counts(logs: Path, shown: set[str]) -> tuple[int, int, list[str]]:
    """Error lines (tracebacks: ``unhandled error`` and any other error-level line) and outage
    lines in our processes' logs so far, and each error line not reported before (its logger,
    message and the exception's last line)."""
    errors = outages = 0
    new: list[str] = []
    for path in sorted(logs.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if '"level":"error"' in line or '"level":"critical"' in line:
                errors += 1
                if line not in shown:
                    shown.add(line)
                    try:
                        record = json.loads(line)
                    except ValueError:
                        record = {"message": line[:200]}
                    last = str(record.get("exception", "")).strip().splitlines()[-1:] or [""]
                    new.append(f"  error line ({path.stem}): {record.get('logger')}: "
                               f"{record.get('message')} {last[0][:160]}")  # fmt: skip
            if '"astro_server.outages"' in line:
                outages += 1
    return errors, outages, new


def summarize(window: list[Sent], since: float) -> tuple[str, str]:
    counts = Counter(x.outcome for x in window)
    failed_after = [
        x.finished
        for x in window
        if x.started >= since and not (x.outcome.startswith("2") or x.outcome == "402")
    ]
    recovery = f"{max(failed_after) - since:.1f} s" if failed_after else "0 s"
    return ", ".join(f"{k} x {n}" for k, n in sorted(counts.items())), recovery


def prepare(stack: ExitStack, accounts: int) -> tuple[Stack, list[str]]:
    """The stack started, migrated, with ``accounts`` enterprise accounts (their API keys)."""
    work = Path(tempfile.mkdtemp(prefix="astro-chaos-"))
    stack.callback(shutil.rmtree, work, True)
    s = build_stack(stack, work)
    cli = [sys.executable, "-m", "astro_server.cli"]
    subprocess.run([*cli, "migrate"], env=s.env, check=True, capture_output=True)
    keys = []
    for i in range(accounts):
        created = subprocess.run(
            [*cli, "create-account", "--name", f"chaos{i}", "--tier", "enterprise",
             "--credits", "1000000", "--json"],
            env=s.env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        keys.append(json.loads(created.stdout)["api_key"])
    s.start("api", "serve", "--host", "127.0.0.1", "--port", str(s.api_port), "--workers", "2")
    s.start("worker1", "worker")
    s.start("worker2", "worker")
    s.start("scheduler", "scheduler")
    return s, keys


async def run(args: argparse.Namespace, s: Stack, keys: list[str]) -> int:
    db_url = s.env["ASTRO_DATABASE_URL"]
    await wait_api(s.api_port, 90)
    print(
        f"chaos: serve --workers 2, 2 workers, 1 scheduler, PostgreSQL + Redis on loopback; "
        f"{args.clients} clients, {args.accounts} accounts; lease {LEASE_S} s, sweep "
        f"{SWEEP_S} s; load average {load_average()}",
        flush=True,
    )
    sent: list[Sent] = []
    shown: set[str] = set()
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{s.api_port}", timeout=15, limits=limits
    ) as http:
        for case in args.cases:
            stop = asyncio.Event()
            first = len(sent)
            case_started = await db_now(db_url)
            clients = [
                asyncio.create_task(client_loop(http, keys, stop, sent))
                for _ in range(args.clients)
            ]
            await asyncio.sleep(args.before)
            since, note = await inject(s, case)
            await asyncio.sleep(args.after)
            stop.set()
            await asyncio.gather(*clients)
            window = sent[first:]
            counts, recovery = summarize(window, since)
            left, waited = await settle_jobs(db_url, LEASE_S * 4 + 30)
            checks = await invariants(db_url, sent)
            slowest = await slowest_job_s(db_url, case_started)
            tracebacks, outage_lines, new_errors = log_counts(s.logs, shown)
            print(f"\n[{case}] {note}", flush=True)
            print(f"  clients saw ({len(window)} requests): {counts}")
            print(f"  recovery: {recovery}; jobs settled in {waited:.1f} s ({left} open)")
            print(f"  slowest job of the case, created to finished: {slowest:.1f} s")
            print(f"  server logs so far: {tracebacks} error lines, {outage_lines} outage lines")
            for line in new_errors:
                print(line)
            for name, value in checks.items():
                print(f"  {name}: {value}")
            sys.stdout.flush()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--accounts", type=int, default=4)
    parser.add_argument("--before", type=float, default=3.0, help="seconds of load before")
    parser.add_argument("--after", type=float, default=10.0, help="seconds of load after")
    add_smoke(parser)
    args = apply_smoke(
        parser.parse_args(), cases="api-kill", clients=2, accounts=1, before=1.0, after=2.0
    )
    args.cases = [c for c in args.cases.split(",") if c]
    unknown = set(args.cases) - set(CASES)
    if unknown:
        parser.error(f"unknown cases {sorted(unknown)}; known: {', '.join(CASES)}")
    with ExitStack() as stack:
        s, keys = prepare(stack, args.accounts)
        return asyncio.run(run(args, s, keys))


if __name__ == "__main__":
    raise SystemExit(main())
