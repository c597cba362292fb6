"""Requests per second of the natal and Uranian endpoints against ``/healthz``, in-process.

Run: uv run python benchmarks/western_endpoints.py [--requests N]

One Quart app on a fresh SQLite database (embedded mode), driven by its test client with one
request in flight: the figure is the server's own cost per request (routing, auth, rate limit,
validation, the credit debit, the calculation, encoding), without a network or HTTP parser. The
Uranian chart is asked with the spec's example dial (90) and orb 1.0, and with the largest
response (dial 22.5, orb 3).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from _services import add_smoke, apply_smoke

from astro_server.app import create_app
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.settings import Settings

NATAL = {"subject": {"date": "1990-05-01", "time": "07:30", "latitude": 13.75,
                     "longitude": 100.5, "timezoneOffsetMinutes": 420}}  # fmt: skip
URANIAN = {"birth_date": "1962-09-24", "birth_time": "16:05", "birth_lat": 53.55,
           "birth_lon": 9.99, "birth_place": "Hamburg", "timezoneOffsetMinutes": 60}  # fmt: skip


async def measure(requests: int) -> None:
    data_dir = Path(tempfile.mkdtemp())
    settings = Settings(data_dir=data_dir, secret_key="k" * 32, log_level="WARNING")
    settings = settings.with_overrides(
        rate_limits=dict.fromkeys(("free", "starter", "pro", "enterprise"), 10**9)
    )
    app = create_app(settings)  # builds the process's platform, which migrate_db reads
    await migrate_db(settings)
    async with app.test_app():
        client = app.test_client()
        _account, key = await accounts.create_account("bench", "free", 10**9)
        headers = {"X-API-Key": key}

        async def rate(label: str, method: str, path: str, body: Any = None) -> float:
            async def one() -> None:
                if method == "GET":
                    response = await client.get(path)
                else:
                    response = await client.post(path, json=body, headers=headers)
                assert response.status_code == 200, await response.get_data(as_text=True)
                await response.get_data()

            for _ in range(20):
                await one()
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                for _ in range(requests):
                    await one()
                best = min(best, time.perf_counter() - t0)
            per_s = requests / best
            print(f"{label:<44} {per_s:>8.0f} req/s  {1e3 / per_s:>7.2f} ms/req")
            return per_s

        health = await rate("GET /healthz", "GET", "/healthz")
        natal = await rate("POST /api/v3/western/natal", "POST", "/api/v3/western/natal", NATAL)
        uranian = await rate("POST /api/v3/uranian/chart (dial 90, orb 1)", "POST",
                             "/api/v3/uranian/chart", URANIAN)  # fmt: skip
        worst = await rate("POST /api/v3/uranian/chart (dial 22.5, orb 3)", "POST",
                           "/api/v3/uranian/chart",
                           {**URANIAN, "dial_mode": 22.5, "orb_max": 3})  # fmt: skip
        print()
        print(f"natal / healthz:   {natal / health:.2f} (target >= 0.5)")
        print(f"uranian / healthz: {uranian / health:.2f} (target >= 0.5)")
        print(f"uranian worst case / healthz: {worst / health:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), requests=5)
    asyncio.run(measure(args.requests))


if __name__ == "__main__":
    main()
