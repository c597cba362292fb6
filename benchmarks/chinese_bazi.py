"""BaZi charts with luck pillars per second on one core (solar terms cached per year).

Run: uv run python benchmarks/chinese_bazi.py [--charts N]

Births are random moments 1900-2100 at fixed UTC+8 offsets; the solar terms of every year are
computed once before timing (they are cached per year in production too), so the figure is the
steady-state cost of one chart: time resolution, pillars, symbols, balance, strength, eight luck
pillars and ten annual pillars, plus encoding to JSON with msgspec.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import date, datetime, timedelta

import msgspec
from _services import add_smoke, apply_smoke

from astro_calc.chinese.bazi import bazi_chart
from astro_calc.chinese.solar_terms import solar_terms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=20_000)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), charts=50)
    rng = random.Random(2024)
    start = datetime(1900, 1, 1)
    births = [
        start + timedelta(minutes=rng.randrange(0, 201 * 525_600)) for _ in range(args.charts)
    ]
    t0 = time.perf_counter()
    for year in range(1899, 2102):
        solar_terms(year)
    warm = time.perf_counter() - t0
    encoder = msgspec.json.Encoder()
    for encode in (False, True):
        t0 = time.perf_counter()
        for i, b in enumerate(births):
            chart = bazi_chart(
                b.date(),
                b.time(),
                latitude=31.23,
                longitude=121.47,
                offset_minutes=480,
                gender="male" if i % 2 else "female",
                annual_years=(2025, 2034),
                reference_date=date(2025, 1, 1),
            )
            if encode:
                encoder.encode(chart)
        elapsed = time.perf_counter() - t0
        label = "with JSON encoding" if encode else "chart only"
        print(
            f"{args.charts} BaZi charts with 8 luck and 10 annual pillars ({label}): "
            f"{elapsed:.2f} s, {args.charts / elapsed:,.0f} charts/s, "
            f"{1e6 * elapsed / args.charts:.0f} us/chart"
        )
    print(f"solar terms 1899-2101 computed once in {warm:.2f} s")


if __name__ == "__main__":
    main()
