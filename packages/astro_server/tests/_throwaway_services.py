"""A Redis and a PostgreSQL of a test's own, on free loopback ports, that the test may stop and
start again (the outage tests: what the shared servers of scripts/test.sh must never see).

Both are skipped when their binaries are missing (``redis-server``; ``initdb``/``pg_ctl``), and
stopped when the test ends. Durability is off: the data is thrown away.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {timeout_s} s")


class ThrowawayRedis:
    def __init__(self, work: Path) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed")
        self.work = work
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.work)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(self.port)

    def pause(self) -> None:
        """A hang: the process stopped (SIGSTOP); connections stay open, nothing answers."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None:
            self.resume()
            self.process.kill()  # as a crash: no goodbye to the clients
            self.process.wait(10)
            self.process = None


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}")):
        return str(candidate)
    return None


class ThrowawayPostgres:
    def __init__(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
        self.pg_ctl = pg_ctl
        # Its own directory under the system's temporary one: pytest's tmp_path sits under a
        # directory only our user may enter, and initdb runs as postgres when we are root.
        self.dir = Path(tempfile.mkdtemp(prefix="astro-test-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        subprocess.run(
            self._as_pg([initdb, "-D", str(self.dir / "data"), "-U", "postgres", "-A", "trust",
                         "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
            check=True, capture_output=True,
        )  # fmt: skip

    @staticmethod
    def _as_pg(cmd: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c max_connections=50"
        )
        subprocess.run(
            self._as_pg([self.pg_ctl, "-D", str(self.dir / "data"), "-l", str(self.dir / "log"),
                         "-w", "-t", "30", "-o", options, "start"]),
            check=True, capture_output=True,
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            self._as_pg([self.pg_ctl, "-D", str(self.dir / "data"), "-m", mode, "-w", "stop"]),
            capture_output=True,
        )  # fmt: skip

    def _processes(self) -> list[int]:
        """The postmaster and its children (backends and auxiliary processes)."""
        pid_file = self.dir / "data" / "postmaster.pid"
        postmaster = int(pid_file.read_text().split()[0])
        pids = [postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == postmaster:
                    pids.append(int(entry.name))
        return pids

    def pause(self) -> None:
        """A hang: the postmaster and every backend stopped (SIGSTOP); sockets stay open."""
        self._paused = self._processes()
        for pid in self._paused:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in getattr(self, "_paused", []):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self._paused = []

    def remove(self) -> None:
        """Stop the server (if running) and delete its files."""
        self.resume()
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
