"""Zi Wei Dou Shu charts with their decadal, yearly and monthly horoscopes: CPU per chart in
astro_calc (issue 42: at most 2 ms).

Run: uv run python benchmarks/ziwei.py [--charts N] [--rounds R] [--smoke]

Births are random local dates 1900-2100 with random hours and genders, each with a horoscope date
within its first eighty years; the lunar calendar's months are computed once for every year
before timing (they are cached per year in production too), so the figures are the steady-state
cost of one chart: lunar date, palaces, all 66 stars with brightness and transformations, the
decades and the three horoscope levels, then the same plus JSON encoding with msgspec. CPU time of
this process (``time.process_time``), best of ``--rounds``. The cold cost of a year's calendar
(new moons and solar terms for a year never seen) is printed too.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import date, timedelta
from datetime import time as clock

import msgspec
from _services import add_smoke

from astro_calc.chinese.calendar import chinese_date
from astro_calc.chinese.ziwei import MAX_DATE, MIN_DATE, ziwei_chart

BUDGET_MS = 2.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=5)
    add_smoke(parser)
    args = parser.parse_args()
    charts, rounds = (200, 1) if args.smoke else (args.charts, args.rounds)
    rng = random.Random(42)
    span = (MAX_DATE - MIN_DATE).days - 30_000
    births = []
    for _ in range(charts):
        birth = MIN_DATE + timedelta(days=rng.randrange(span))
        on = birth + timedelta(days=rng.randrange(29_000))
        births.append(
            (birth, clock(rng.randrange(24), rng.randrange(60)), rng.choice(("male", "female")), on)
        )
    t0 = time.process_time()
    first_years = (1950, 1951) if args.smoke else range(MIN_DATE.year, MAX_DATE.year + 1)
    for year in first_years:
        chinese_date(date(year, 6, 1))
    cold_s = (time.process_time() - t0) / len(first_years)
    if args.smoke:  # warm only the years the smoke sample uses
        for birth, _, _, on in births:
            chinese_date(birth)
            chinese_date(on)
    encoder = msgspec.json.Encoder()
    for encode in (False, True):
        best = float("inf")
        for _ in range(rounds):
            t0 = time.process_time()
            for birth, at, gender, on in births:
                chart = ziwei_chart(birth, at, gender, on_date=on)  # type: ignore[arg-type]
                if encode:
                    encoder.encode(chart)
            best = min(best, time.process_time() - t0)
        per_ms = 1e3 * best / charts
        what = "chart with horoscopes + JSON" if encode else "chart with horoscopes"
        verdict = "within" if per_ms <= BUDGET_MS else "OVER"
        print(
            f"ziwei {what}: {per_ms:.3f} ms CPU per chart (best of {rounds} x {charts}); "
            f"budget {BUDGET_MS} ms: {verdict}"
        )
    print(f"ziwei cold lunar year (calendar months computed once per year): {1e3 * cold_s:.1f} ms")


if __name__ == "__main__":
    main()
