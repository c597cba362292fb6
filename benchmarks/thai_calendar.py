"""Thai calendar speed: a lunar date lookup and a 366-day auspicious search (the default almanac
year types), and the tables by the Suriyayatra rule.

Run: uv run python benchmarks/thai_calendar.py [--smoke]
"""

from __future__ import annotations

import argparse
import time
from datetime import date, timedelta

from _services import add_smoke

from astro_calc.thai.auspicious import auspicious_times
from astro_calc.thai.calendar import lunar_year_table, thai_lunar_date


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_smoke(parser)  # the full run takes about a second already: the smoke run is the same
    parser.parse_args()
    t0 = time.perf_counter()
    for year in range(1900, 2201):
        lunar_year_table(year)
    build_ms = (time.perf_counter() - t0) * 1000
    print(f"tables 1900-2200 built once: {build_ms:.1f} ms ({build_ms / 301:.2f} ms per year)")

    days = [date(1900, 1, 1) + timedelta(days=i) for i in range(0, 109_900, 7)]
    t0 = time.perf_counter()
    for d in days:
        thai_lunar_date(d)
    per_us = (time.perf_counter() - t0) / len(days) * 1e6
    print(f"thai_lunar_date (cached year): {per_us:.2f} us per day over {len(days)} days")

    start = date(2031, 1, 1)
    end = start + timedelta(days=365)
    auspicious_times(start, end, "wedding")  # warm the per-year tables
    runs = 20
    t0 = time.perf_counter()
    for purpose in ("wedding", "business_opening", "moving_house", "travel", "ordination") * 4:
        auspicious_times(start, end, purpose)
    warm_ms = (time.perf_counter() - t0) / runs * 1000
    print(f"366-day auspicious search: {warm_ms:.2f} ms (mean of {runs}, target < 50 ms)")

    t0 = time.perf_counter()
    for year in range(1900, 2201):
        lunar_year_table(year, "rule")
    rule_ms = (time.perf_counter() - t0) * 1000
    print(f"tables 1900-2200 by the Suriyayatra rule (year_type_source=rule): {rule_ms:.1f} ms")


if __name__ == "__main__":
    main()
