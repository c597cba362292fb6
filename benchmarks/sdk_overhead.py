"""SDK overhead per call: ``client.estimates.create(...)`` against the same request sent with raw
httpx (same pool settings, same headers and body, ``response.json()``), on a live server.

Prints, for the sync and the async client, the median and p99 latency of each and the ratio
SDK / raw (target: within 10%, ratio <= 1.10), and the client-side cost alone measured on an
``httpx.MockTransport`` (no network, no server), in microseconds per call.

    uv run python benchmarks/sdk_overhead.py [--calls 3000] [--rounds 30]
    uv run python benchmarks/sdk_overhead.py --base-url http://127.0.0.1:8000 --api-key ak_...

Without ``--base-url`` a server is started here (hypercorn, one worker) in a temporary data
directory: SQLite, or PostgreSQL and Redis when ``ASTRO_BENCH_DATABASE_URL`` and
``ASTRO_BENCH_REDIS_URL`` are set; its rate limit is lifted so the limiter does not dominate.
The route is authenticated (API key lookup, rate limiter) and free (no debit).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from _services import add_smoke, apply_smoke

from astro_sdk import AstroClient, AsyncAstroClient

OPERATION = "vedic.chart"
BODY = json.dumps({"operation": OPERATION}, separators=(",", ":")).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def local_server() -> Iterator[tuple[str, str]]:
    """A hypercorn API process with an enterprise account; yields (base_url, api_key)."""
    data_dir = Path(tempfile.mkdtemp(prefix="sdk-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update(
        {
            "ASTRO_DATA_DIR": str(data_dir),
            "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
            "ASTRO_RATE_LIMIT_ENTERPRISE": str(10**9),
            "ASTRO_LOG_LEVEL": "WARNING",
        }
    )
    if os.environ.get("ASTRO_BENCH_DATABASE_URL"):
        env["ASTRO_DATABASE_URL"] = os.environ["ASTRO_BENCH_DATABASE_URL"]
        env["ASTRO_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    if os.environ.get("ASTRO_BENCH_REDIS_URL"):
        env["ASTRO_REDIS_URL"] = os.environ["ASTRO_BENCH_REDIS_URL"]
    cli = [sys.executable, "-m", "astro_server.cli"]
    subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
    created = subprocess.run(
        [*cli, "create-account", "--name", "bench", "--tier", "enterprise", "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    api_key = json.loads(created.stdout.strip().splitlines()[-1])["api_key"]
    port = free_port()
    log = (data_dir / "server.log").open("wb")
    proc = subprocess.Popen(
        [*cli, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base_url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the benchmark server did not start")
            time.sleep(0.1)
        yield base_url, api_key
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def headers_for(api_key: str) -> dict[str, str]:
    return {
        "X-API-Key": api_key,
        "Accept": "application/json",
        "Content-Type": "application/json",
    }


def time_calls(call: Callable[[], object], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


async def time_calls_async(call: Callable[[], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return samples


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def report(label: str, raw: list[float], sdk: list[float]) -> float:
    raw_p50, raw_p99 = summary(raw)
    sdk_p50, sdk_p99 = summary(sdk)
    ratio = sdk_p50 / raw_p50
    print(
        f"{label:<28} raw p50 {raw_p50 * 1e3:7.3f} ms  p99 {raw_p99 * 1e3:7.3f} ms | "
        f"SDK p50 {sdk_p50 * 1e3:7.3f} ms  p99 {sdk_p99 * 1e3:7.3f} ms | "
        f"ratio {ratio:5.3f} ({'within' if ratio <= 1.10 else 'OVER'} 10%)"
    )
    return ratio


def bench_sync(base_url: str, api_key: str, calls: int, rounds: int) -> tuple[list[float], ...]:
    url = base_url + "/api/v3/estimates"
    headers = headers_for(api_key)
    raw_samples: list[float] = []
    sdk_samples: list[float] = []
    with httpx.Client() as raw_http, AstroClient(api_key=api_key, base_url=base_url) as sdk:

        def raw_call() -> object:
            response = raw_http.post(url, content=BODY, headers=headers)
            response.raise_for_status()
            return response.json()

        def sdk_call() -> object:
            return sdk.estimates.create(operation=OPERATION)

        time_calls(raw_call, 200)  # warm both pools and the server
        time_calls(sdk_call, 200)
        per_round = calls // rounds
        for index in range(rounds):
            # Alternate the order so neither side always runs on a warmer server.
            pair = [(raw_call, raw_samples), (sdk_call, sdk_samples)]
            for call, samples in pair if index % 2 == 0 else reversed(pair):
                samples.extend(time_calls(call, per_round))
    return raw_samples, sdk_samples


async def bench_async(
    base_url: str, api_key: str, calls: int, rounds: int
) -> tuple[list[float], ...]:
    url = base_url + "/api/v3/estimates"
    headers = headers_for(api_key)
    raw_samples: list[float] = []
    sdk_samples: list[float] = []
    async with (
        httpx.AsyncClient() as raw_http,
        AsyncAstroClient(api_key=api_key, base_url=base_url) as sdk,
    ):

        async def raw_call() -> object:
            response = await raw_http.post(url, content=BODY, headers=headers)
            response.raise_for_status()
            return response.json()

        async def sdk_call() -> object:
            return await sdk.estimates.create(operation=OPERATION)

        await time_calls_async(raw_call, 200)
        await time_calls_async(sdk_call, 200)
        per_round = calls // rounds
        for index in range(rounds):
            pair = [(raw_call, raw_samples), (sdk_call, sdk_samples)]
            for call, samples in pair if index % 2 == 0 else reversed(pair):
                samples.extend(await time_calls_async(call, per_round))
    return raw_samples, sdk_samples


def bench_client_side(calls: int) -> tuple[float, float]:
    """Microseconds per call spent in the client alone (MockTransport answers at once)."""
    estimate = {
        "operation": OPERATION,
        "eligible": True,
        "reasons": [],
        "tier_required": "free",
        "tier": "enterprise",
        "quantity": 1,
        "estimated_credits": 1,
        "balance": 0,
    }
    content = json.dumps(estimate).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=content, headers={"Content-Type": "application/json"})

    transport = httpx.MockTransport(answer)
    headers = headers_for("ak_test_bench")
    with (
        httpx.Client(transport=transport) as raw_http,
        AstroClient(
            api_key="ak_test_bench",
            base_url="http://bench.invalid",
            http_client=httpx.Client(transport=transport),
        ) as sdk,
    ):
        raw = time_calls(
            lambda: raw_http.post(
                "http://bench.invalid/api/v3/estimates", content=BODY, headers=headers
            ).json(),
            calls,
        )
        via_sdk = time_calls(lambda: sdk.estimates.create(operation=OPERATION), calls)
    return statistics.median(raw) * 1e6, statistics.median(via_sdk) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per side, per client")
    parser.add_argument("--rounds", type=int, default=30, help="alternating blocks per side")
    parser.add_argument("--base-url")
    parser.add_argument("--api-key")
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), calls=20, rounds=2)

    raw_us, sdk_us = bench_client_side(args.calls)
    print(
        f"client side only (MockTransport): raw httpx {raw_us:6.1f} us/call, "
        f"SDK {sdk_us:6.1f} us/call, SDK adds {sdk_us - raw_us:6.1f} us/call"
    )

    @contextmanager
    def target() -> Iterator[tuple[str, str]]:
        if args.base_url:
            if not args.api_key:
                parser.error("--api-key is needed with --base-url")
            yield args.base_url.rstrip("/"), args.api_key
        else:
            with local_server() as found:
                yield found

    with target() as (base_url, api_key):
        print(f"live server {base_url}: POST /api/v3/estimates, {args.calls} calls per side")
        ratios = [
            report("sync  (AstroClient)", *bench_sync(base_url, api_key, args.calls, args.rounds)),
            report(
                "async (AsyncAstroClient)",
                *asyncio.run(bench_async(base_url, api_key, args.calls, args.rounds)),
            ),
        ]
    return 0 if args.smoke or all(r <= 1.10 for r in ratios) else 1


if __name__ == "__main__":
    raise SystemExit(main())
