"""Billed natal over HTTP against the open-source peer, Astrologer-API (FastAPI + kerykeion).

Issue 33's target: our billed ``POST /api/v3/western/natal`` (API key, rate limit, debit,
idempotency record, PostgreSQL and Redis; ``benchmarks/platform_throughput.py --endpoint
natal``) serves >= 5x the requests per second of the peer's ``POST
/api/v4/natal-aspects-data`` (the subject's positions and houses plus the natal aspects: the
closest of its endpoints to our natal chart; its own secret-header check, no billing, no
database), with p99 < 40 ms, two server processes each, the same load generator (``--concurrency``
keep-alive clients on loopback, raw HTTP/1.1).

The peer is not shipped here (AGPL, not a package): pass a checkout of its repository with
``--peer-dir``. It runs under ``uvicorn --workers 2`` in a throwaway environment made by
``uv run --no-project --with ...`` with the versions its Pipfile.lock pins (kerykeion 4.26.2,
FastAPI 0.115.12, uvicorn 0.34.2, pydantic-settings 2.9.1), in production mode (its
``X-RapidAPI-Proxy-Secret`` header required; a random secret here). The peer runs first, then
ours (``platform_throughput.py`` as a subprocess), one after the other on the same machine.

    uv run python benchmarks/peer_http.py --peer-dir PATH [--duration 10] [--concurrency 50]
        [--skip-ours]

``--smoke`` without ``--peer-dir`` (the peer is not installable offline) runs our side alone at
smoke size and prints the figure our side is compared by.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

from _services import add_smoke, apply_smoke, free_port, process_tree_cpu_s, wait_for_port
from platform_throughput import _request, load, summarize

PEER_PATH = "/api/v4/natal-aspects-data"
#: The same birth as platform_throughput.py's natal body (1990-05-01 07:30 at UTC+7, Bangkok).
PEER_BODY = {
    "subject": {
        "name": "Bench",
        "year": 1990,
        "month": 5,
        "day": 1,
        "hour": 7,
        "minute": 30,
        "longitude": 100.5,
        "latitude": 13.75,
        "city": "Bangkok",
        "nation": "TH",
        "timezone": "Asia/Bangkok",
        "geonames_username": None,
    }
}
PEER_PINS = (
    "fastapi==0.115.12",
    "uvicorn==0.34.2",
    "kerykeion==4.26.2",
    "pydantic==2.11.4",
    "pydantic-settings==2.9.1",
    "starlette==0.46.2",
    "pytz",
    "scour",
)


def run_peer(peer_dir: Path, args: argparse.Namespace) -> dict[str, float]:
    port = free_port()
    secret = secrets.token_urlsafe(24)
    env = {**os.environ, "ENV_TYPE": "production", "RAPID_API_SECRET_KEY": secret}
    command = ["uv", "run", "--no-project", "--python", "3.11"]
    for pin in PEER_PINS:
        command += ["--with", pin]
    command += ["uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", str(args.workers), "--log-level", "warning"]
    log = open(Path(peer_dir) / "bench-peer.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(command, cwd=peer_dir, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, 300)
        body = json.dumps(PEER_BODY).encode()
        headers = {"X-RapidAPI-Proxy-Secret": secret, "Content-Type": "application/json"}
        raw = _request("POST", PEER_PATH, headers, body)
        # One answer checked: 200 with aspects (the peer answers errors as 200 too, so look).
        probe = asyncio.run(load(port, lambda: raw, 1, 0.5))
        if set(probe[1]) != {200}:
            raise SystemExit(f"peer answered {probe[1]}: see {peer_dir}/bench-peer.log")
        asyncio.run(load(port, lambda: raw, args.concurrency, args.warmup))
        cpu_before = process_tree_cpu_s(server.pid)
        latencies, statuses = asyncio.run(load(port, lambda: raw, args.concurrency, args.duration))
        cpu = process_tree_cpu_s(server.pid) - cpu_before
        result = summarize(f"peer POST {PEER_PATH}", latencies, statuses, args.duration)
        print(f"{'':<34} ms CPU per request: peer processes {cpu * 1000 / len(latencies):.2f}")
        return result
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def run_ours(args: argparse.Namespace) -> dict[str, float] | None:
    here = Path(__file__).parent
    command = [sys.executable, str(here / "platform_throughput.py"), "--endpoint", "natal"]
    command += ["--duration", str(args.duration), "--concurrency", str(args.concurrency)]
    command += ["--workers", str(args.workers), "--warmup", str(args.warmup)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    print(out, end="")
    found = re.search(
        r"POST western/natal \(billable\)\s+\d+ req\s+(\d+) req/s\s+p50\s+([\d.]+) ms\s+"
        r"p99\s+([\d.]+) ms",
        out,
    )
    if found is None:
        return None
    return {"rps": float(found[1]), "p50": float(found[2]), "p99": float(found[3])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer-dir", type=Path, help="a checkout of Astrologer-API (required)")
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-ours", action="store_true")
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), duration=1.0, warmup=0.5, concurrency=4, workers=1)
    started = time.strftime("%H:%M:%S")
    load_before = os.getloadavg()[0]
    if args.peer_dir is None and not args.smoke:
        parser.error("--peer-dir is required (only --smoke runs without the peer)")
    if args.peer_dir is None:
        ours = run_ours(args)
        if ours is None:
            raise SystemExit("could not read our figure from platform_throughput.py")
        print(
            f"billed natal (no peer: smoke run): {ours['rps']:.0f} req/s, p50 {ours['p50']:.1f} "
            f"ms, p99 {ours['p99']:.1f} ms"
        )
        return 0
    peer = run_peer(args.peer_dir, args)
    if args.skip_ours:
        return 0
    ours = run_ours(args)
    if ours is None:
        raise SystemExit("could not read our figure from platform_throughput.py")
    print(
        f"billed natal vs peer: {ours['rps']:.0f} vs {peer['rps']:.0f} req/s = "
        f"{ours['rps'] / peer['rps']:.1f}x (target >= 5x); p99 {ours['p99']:.1f} ms (target "
        f"< 40 ms) vs {peer['p99']:.1f} ms; started {started}, load average "
        f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
