"""Not a drill: runs test nodes of the suite as a drill, at full volume, on services of their own.

A drill script calls :func:`main` with the test nodes it runs (``tests/test_x.py::test_y``). This
starts, on loopback in a temporary directory, what ``scripts/test.sh`` starts for the suite (a
throwaway PostgreSQL cluster and Redis server, and the S3 server moto), exports the same
``ASTRO_TEST_*`` variables plus ``ASTRO_TEST_DRILL=1`` (``tests/_support/drill.py``: the tests
take their drill size), runs pytest on the nodes in one process, prints each test's outcome and
wall time with the load average beside it, stops the services and exits 0 only when every test
passed. Extra command-line arguments go to pytest (``-k``, ``-x``, ``--timeout``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _services import (  # noqa: E402 (the benchmarks folder is put on the path above)
    free_port,
    load_average,
    pg_bin,
    start_postgres_and_redis,
)


def _start_moto(stack: ExitStack, work: Path) -> str:
    moto = shutil.which("moto_server") or str(Path(sys.executable).parent / "moto_server")
    if not os.access(moto, os.X_OK):
        raise SystemExit("moto_server not found (moto[server] is a dev dependency)")
    port = free_port()
    log = (work / "moto.log").open("wb")
    stack.callback(log.close)
    proc = subprocess.Popen(
        [moto, "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT
    )
    stack.callback(proc.wait, 10)
    stack.callback(proc.terminate)
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(endpoint + "/", timeout=1)  # noqa: S310 (loopback, http)
            return endpoint
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the S3 server (moto) did not start")


def main(title: str, nodes: list[str]) -> int:
    """Run ``nodes`` (paths relative to the repository root) as the drill ``title``."""
    extra = sys.argv[1:]
    with ExitStack() as stack:
        work = Path(tempfile.mkdtemp(prefix="astro-drill-"))
        stack.callback(shutil.rmtree, work, True)
        database_url, redis_url = start_postgres_and_redis(stack, work)
        endpoint = _start_moto(stack, work)
        env = {
            **os.environ,
            "ASTRO_TEST_DATABASE_URL": database_url,
            "ASTRO_TEST_REDIS_URL": redis_url,
            "ASTRO_TEST_S3_ENDPOINT": endpoint,
            "ASTRO_TEST_PG_BIN": str(Path(pg_bin("pg_ctl")).parent),
            "ASTRO_TEST_REQUIRE_SERVICES": "1",
            "ASTRO_TEST_DRILL": "1",
        }
        report = work / "junit.xml"
        print(f"{title}: {len(nodes)} test node(s), load average {load_average()}", flush=True)
        started = time.monotonic()
        run = subprocess.run(
            [
                sys.executable, "-m", "pytest", *nodes,
                "-p", "no:cacheprovider", "-q", "--no-header", f"--junitxml={report}",
                *extra,
            ],
            cwd=ROOT, env=env, check=False,
        )  # fmt: skip
        wall = time.monotonic() - started
        failed = run.returncode != 0
        if report.exists():
            for case in ET.parse(report).getroot().iter("testcase"):  # noqa: S314 (our own report)
                outcome = "PASS"
                if case.find("failure") is not None or case.find("error") is not None:
                    outcome = "FAIL"
                elif case.find("skipped") is not None:
                    outcome = "SKIP"
                    failed = True  # a drill that could not run has not passed
                name = case.get("name", "?")
                print(f"{outcome}  {float(case.get('time', 0)):7.1f} s  {name}")
        print(
            f"{title}: {'FAILED' if failed else 'passed'} in {wall:.0f} s "
            f"(load average {load_average()})"
        )
        return 1 if failed else 0
