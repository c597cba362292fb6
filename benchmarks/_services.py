"""Helpers the benchmark scripts share: a throwaway PostgreSQL and Redis on loopback, ports, CPU.

The scripts run as ``uv run python benchmarks/<name>.py``, so this directory is first on
``sys.path`` and they import this module as ``_services``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

SMOKE_HELP = (
    "smoke mode: tiny sizes, a few seconds, the same code path and figure lines "
    "(tests/test_benchmarks_smoke.py runs it so a broken script fails the suite; "
    "the figures mean nothing)"
)


def add_smoke(parser: argparse.ArgumentParser) -> None:
    """The ``--smoke`` option every benchmark script has (see :func:`apply_smoke`)."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)


def apply_smoke(args: argparse.Namespace, **tiny: object) -> argparse.Namespace:
    """With ``--smoke``, replace the sizes named in ``tiny`` (whatever was given on the command
    line): the run then takes seconds and goes through the same code, printing the same lines."""
    if getattr(args, "smoke", False):
        for name, value in tiny.items():
            if not hasattr(args, name):
                raise AttributeError(f"no option {name!r} to shrink")
            setattr(args, name, value)
    return args


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_postgres(cmd: list[str]) -> list[str]:
    """Run ``cmd`` as the postgres user when we are root (initdb refuses to run as root)."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}")):
        return str(candidate)
    raise SystemExit(f"{name} not found (install PostgreSQL)")


def process_table(reaped: bool = False) -> dict[int, tuple[int, str, float]]:
    """Every process now: pid -> (parent pid, command name, user + system CPU seconds).

    ``reaped``: add each process's reaped children's CPU (``cutime``/``cstime``), so processes
    that came and went (Chromium's renderers) still count once their parent has waited."""
    table: dict[int, tuple[int, str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, _, rest = (entry / "stat").read_text().rpartition(")")
        except OSError:
            continue
        fields = rest.split()
        cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        if reaped:
            cpu += (int(fields[13]) + int(fields[14])) / CLOCK_TICKS
        table[int(entry.name)] = (int(fields[1]), head.partition("(")[2], cpu)
    return table


def process_tree_cpu_s(root_pid: int, reaped: bool = False) -> float:
    """CPU seconds of a process and its descendants (``reaped``: see :func:`process_table`)."""
    table = process_table(reaped)
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    total, stack = 0.0, [root_pid]
    while stack:
        pid = stack.pop()
        if pid in table:
            total += table[pid][2]
        stack.extend(children.get(pid, []))
    return total


def cpu_by_command(names: tuple[str, ...]) -> dict[str, float]:
    """CPU seconds of every process whose command name starts with one of ``names``."""
    totals = dict.fromkeys(names, 0.0)
    for _, comm, cpu in process_table().values():
        for name in names:
            if comm.startswith(name):
                totals[name] += cpu
    return totals


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def wait_for_port(port: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port} after {timeout_s} s")


def start_postgres_and_redis(
    stack: ExitStack,
    work: Path,
    *,
    max_connections: int = 300,
    shared_preload_libraries: str | None = None,
    unix_sockets: bool = False,
) -> tuple[str, str]:
    """A PostgreSQL cluster in ``work/pg`` and a Redis server in ``work``, on free loopback ports.

    Durability is off (fsync, synchronous_commit, no RDB/AOF): the data is thrown away. Both are
    stopped when ``stack`` unwinds; Redis writes its pid to ``work/redis.pid``. Returns the
    database URL and the Redis URL: TCP on loopback, or with ``unix_sockets`` the Unix-domain
    sockets both also listen on (the usual set-up when they run on the API's machine).
    """
    pg_dir = work / "pg"
    pg_dir.mkdir()
    if os.geteuid() == 0:
        shutil.chown(work, "postgres", "postgres")
        shutil.chown(pg_dir, "postgres", "postgres")
    pg_port, redis_port = free_port(), free_port()
    subprocess.run(
        as_postgres(
            [
                pg_bin("initdb"),
                "-D",
                str(pg_dir / "data"),
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
    options = (
        f"-p {pg_port} -k {pg_dir} -c listen_addresses=127.0.0.1 -c fsync=off "
        f"-c synchronous_commit=off -c max_connections={max_connections}"
    )
    if shared_preload_libraries:
        options += f" -c shared_preload_libraries={shared_preload_libraries}"
    # Registered before the start, so a cluster that half started is stopped too.
    stack.callback(
        subprocess.run,
        as_postgres(
            [pg_bin("pg_ctl"), "-D", str(pg_dir / "data"), "-m", "immediate", "-w", "stop"]
        ),
        capture_output=True,
    )
    subprocess.run(
        as_postgres(
            [
                pg_bin("pg_ctl"),
                "-D",
                str(pg_dir / "data"),
                "-l",
                str(pg_dir / "log"),
                "-w",
                "-o",
                options,
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(work),
            "--pidfile",
            str(work / "redis.pid"),
            "--unixsocket",
            str(work / "redis.sock"),
            "--unixsocketperm",
            "777",
        ],
        stdout=subprocess.DEVNULL,
    )
    stack.callback(redis.wait, 10)
    stack.callback(redis.terminate)
    wait_for_port(redis_port, 10)
    if unix_sockets:
        return (
            f"postgres://postgres@:{pg_port}/postgres?host={pg_dir}",
            f"unix://{work / 'redis.sock'}?db=0",
        )
    return (
        f"postgres://postgres@127.0.0.1:{pg_port}/postgres",
        f"redis://127.0.0.1:{redis_port}/0",
    )
