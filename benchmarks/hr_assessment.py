"""HR talent assessments: per second in-process without the PDF, p50 over HTTP, p50 with the PDF.

Run: uv run python benchmarks/hr_assessment.py [--assessments N] [--requests N] [--pdfs N]

1. In-process: :func:`astro_calc.hr.hr_assessment` (BaZi profile, three Taksa outlook years,
   company fit, position match, both narratives and factors) plus msgspec encoding, for random
   births 1950-2005 and a rotating set of positions (English, Thai, and one matching nothing).
   Target >= 200/s on one core.
2. Over HTTP: ``astro-server serve`` (hypercorn, embedded mode on SQLite) on a loopback port,
   driven by one httpx client with one request in flight; p50 and p99 of
   ``POST /api/v3/reports/hr-screening`` (auth, rate limit, validation, the credit debit, the
   assessment, encoding, the HTTP round trip). Target p50 <= 20 ms.
3. With ``include_pdf``: the same server prints the PDF with Chromium in-process (embedded mode
   runs the job in the API process), stores it and signs its URL; p50 of the whole request.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import msgspec
from _services import add_smoke, apply_smoke, free_port

from astro_calc.hr import CompanyFounding, hr_assessment

POSITIONS = (
    "Senior software engineer",
    "ผู้จัดการฝ่ายขาย",
    "Accountant",
    "นักออกแบบกราฟิก",
    "Lighthouse keeper",
    "Registered nurse",
)


def in_process(count: int) -> None:
    rng = random.Random(20)
    encoder = msgspec.json.Encoder()
    births = [
        dt.datetime(1950, 1, 1) + dt.timedelta(minutes=rng.randrange(0, 55 * 525_600))
        for _ in range(count)
    ]
    company = CompanyFounding("Acme", dt.date(2001, 3, 1))
    hr_assessment(  # warm the caches (data files, solar terms of the first year)
        name="warm", birth_date=dt.date(1990, 1, 1), birth_time=dt.time(12), latitude=13.75,
        longitude=100.5, offset_minutes=420, position="x", as_of=dt.date(2026, 1, 1),
    )  # fmt: skip
    t0 = time.perf_counter()
    for i, birth in enumerate(births):
        result = hr_assessment(
            name="Candidate",
            birth_date=birth.date(),
            birth_time=birth.time() if i % 5 else None,
            latitude=13.75,
            longitude=100.5,
            offset_minutes=420,
            position=POSITIONS[i % len(POSITIONS)],
            as_of=dt.date(2026, 11, 24),
            outlook_years=3,
            company=company if i % 2 else None,
        )
        encoder.encode(result)
    elapsed = time.perf_counter() - t0
    print(
        f"in-process: {count} assessments (3 outlook years, encoded) in {elapsed:.2f} s: "
        f"{count / elapsed:,.0f}/s, {1e3 * elapsed / count:.2f} ms each (target >= 200/s)"
    )


def _server(data_dir: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    env = {
        **os.environ,
        "ASTRO_DATA_DIR": str(data_dir),
        "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
        "ASTRO_LOG_LEVEL": "WARNING",
        "ASTRO_RATE_LIMIT_PRO": "1000000",
    }
    env.pop("ASTRO_DATABASE_URL", None)
    env.pop("ASTRO_REDIS_URL", None)
    cli = [sys.executable, "-m", "astro_server.cli"]
    subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
    made = subprocess.run(
        [*cli, "create-account", "--name", "bench", "--tier", "pro", "--credits", "10000000",
         "--json"],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    api_key = json.loads(made.stdout.strip().splitlines()[-1])["api_key"]
    port = free_port()
    process = subprocess.Popen(
        [*cli, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                return process, base_url, api_key
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"p50 {1e3 * statistics.median(ordered):.1f} ms, p99 {1e3 * p99:.1f} ms"


def over_http(requests: int, pdfs: int) -> None:
    process, base_url, api_key = _server(Path(tempfile.mkdtemp()))
    try:
        with httpx.Client(base_url=base_url, headers={"X-API-Key": api_key}, timeout=120) as c:
            body = {
                "candidate": {"name": "Candidate", "birth_date": "1990-05-17",
                              "birth_time": "14:30", "timezoneOffsetMinutes": 420,
                              "latitude": 13.75, "longitude": 100.5},
                "position": "Senior software engineer",
                "outlook_years": 3,
                "as_of": "2026-11-24",
                "company": {"name": "Acme", "founded_date": "2001-03-01"},
            }  # fmt: skip
            for _ in range(20):  # warm up
                assert c.post("/api/v3/reports/hr-screening", json=body).status_code == 200
            samples = []
            for i in range(requests):
                body["position"] = POSITIONS[i % len(POSITIONS)]
                t0 = time.perf_counter()
                response = c.post("/api/v3/reports/hr-screening", json=body)
                samples.append(time.perf_counter() - t0)
                assert response.status_code == 200, response.text
            print(f"over HTTP, no PDF ({requests} requests): {_percentiles(samples)} "
                  "(target p50 <= 20 ms)")  # fmt: skip
            pdf_samples = []
            for i in range(pdfs + 1):
                payload = {**body, "include_pdf": True, "locale": "th" if i % 2 else "en"}
                t0 = time.perf_counter()
                response = c.post("/api/v3/reports/hr-screening", json=payload)
                elapsed = time.perf_counter() - t0
                assert response.status_code == 200, response.text
                if i:  # the first one launches Chromium
                    pdf_samples.append(elapsed)
            print(f"over HTTP, with the PDF ({pdfs} requests, en and th, Chromium warm): "
                  f"{_percentiles(pdf_samples)}")  # fmt: skip
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--assessments", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--pdfs", type=int, default=10)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), assessments=20, requests=5, pdfs=1)
    in_process(args.assessments)
    over_http(args.requests, args.pdfs)


if __name__ == "__main__":
    main()
