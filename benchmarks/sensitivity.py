"""What birth-time sensitivity adds to a chart, in CPU time per chart, against the targets.

Run: uv run python benchmarks/sensitivity.py [--charts N]

* Full natal chart (Placidus, the 14 default bodies; Chiron left out without Swiss files, as
  in the chart): ``natal_sensitivity`` for the same birth, 20 results, both sides, default
  780-minute horizon. Target: <= 3 ms added.
* BaZi chart: ``bazi_sensitivity`` (four pillars, both sides). Target: <= 1 ms added.

Times are process CPU time (``time.process_time``) per chart, so other load on the machine
slows the wall clock but not the figure much; the load average is printed beside it. Births
are random moments 1900-2100 at latitudes within +-55 degrees; the solar terms are computed
once before timing (they are cached per year in production too). The chart itself is timed
too, for scale.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from datetime import date, time, timedelta
from time import process_time

from _services import add_smoke, apply_smoke

from astro_calc.chinese.bazi import bazi_chart
from astro_calc.chinese.solar_terms import solar_terms
from astro_calc.sensitivity import bazi_sensitivity, natal_sensitivity
from astro_calc.western import BirthSubject, natal_chart


def cpu_ms_per_call(calls: list[Callable[[], object]]) -> float:
    t0 = process_time()
    for call in calls:
        call()
    return 1000.0 * (process_time() - t0) / len(calls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=500)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), charts=5)
    rng = random.Random(34)
    births = []
    for _ in range(args.charts):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = time(seconds // 3600, seconds // 60 % 60, seconds % 60)
        lon = rng.uniform(-180.0, 180.0)
        births.append((day, clock, rng.uniform(-55.0, 55.0), lon, round(lon / 15) * 60))
    subjects = [BirthSubject(d, t, lat, lon, offset) for d, t, lat, lon, offset in births]
    for year in range(1899, 2102):
        solar_terms(year)
    natal_chart(subjects[0])  # warm caches (house tables, dignities)

    chart_ms = cpu_ms_per_call([lambda s=s: natal_chart(s) for s in subjects])
    natal_ms = cpu_ms_per_call([lambda s=s: natal_sensitivity(s) for s in subjects])
    bazi_ms = cpu_ms_per_call(
        [
            lambda b=b: bazi_chart(b[0], b[1], latitude=b[2], longitude=b[3], offset_minutes=b[4])
            for b in births
        ]
    )
    bazi_sens_ms = cpu_ms_per_call(
        [
            lambda b=b: bazi_sensitivity(
                b[0], b[1], latitude=b[2], longitude=b[3], offset_minutes=b[4]
            )
            for b in births
        ]
    )
    load = os.getloadavg()
    cores = os.cpu_count()
    print(f"machine: {cores} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{args.charts} random births, CPU time per chart")
    print(f"natal chart                 {chart_ms:6.2f} ms")
    print(
        f"natal sensitivity (added)   {natal_ms:6.2f} ms   target <= 3 ms   "
        f"{'met' if natal_ms <= 3 else 'NOT met'}"
    )
    print(f"BaZi chart                  {bazi_ms:6.2f} ms")
    print(
        f"BaZi sensitivity (added)    {bazi_sens_ms:6.2f} ms   target <= 1 ms   "
        f"{'met' if bazi_sens_ms <= 1 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
