"""Sky events and the personal forecast: CPU time against the issue 45 budgets.

* one year of every sky event kind for every body (the Moon's ingresses, the modern
  void-of-course rule: the most work a request can ask for): target <= 300 ms CPU;
* a month's personal forecast (Sun..Pluto to the eleven natal points): target <= 100 ms CPU;
* one day of planetary hours (no target; for the record).

Each figure is the least CPU time (``time.process_time``) of ``--rounds`` rounds, each on a
different year or month (no cache is shared between calls: nothing is cached).

    uv run python benchmarks/sky_events.py [--rounds 5] [--smoke]
"""

from __future__ import annotations

import argparse
import time
from datetime import date

from _services import add_smoke

from astro_calc.western.events.forecast import forecast
from astro_calc.western.events.hours import planetary_hours
from astro_calc.western.events.sky import ALLOWED_BODIES, sky_events
from astro_calc.western.subject import BirthSubject

YEAR_TARGET_MS = 300.0
MONTH_TARGET_MS = 100.0


def _best(fn, rounds: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for i in range(rounds):
        start = time.process_time()
        fn(i)
        best = min(best, time.process_time() - start)
    return best * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    add_smoke(parser)
    args = parser.parse_args()
    rounds = 1 if args.smoke else args.rounds
    subject = BirthSubject(date=date(1990, 5, 1), time="07:30", latitude=13.75, longitude=100.5)
    forecast(subject, date(2026, 1, 1), date(2026, 1, 31))  # imports and first-use set-up

    def year(i: int) -> None:
        sky_events(
            date(2025 + i, 1, 1),
            date(2025 + i, 12, 31),
            bodies=ALLOWED_BODIES,
            void_of_course_rule="modern",
        )

    def month(i: int) -> None:
        forecast(subject, date(2026, 1 + i % 12, 1), date(2026, 1 + i % 12, 28))

    def day(i: int) -> None:
        planetary_hours(date(2026, 6, 1 + i), 13.75, 100.5, "Asia/Bangkok")

    year_ms = _best(year, rounds)
    month_ms = _best(month, rounds)
    day_ms = _best(day, rounds)
    print(
        "sky events, one year, all kinds and bodies: "
        f"{year_ms:.1f} ms CPU (target <= {YEAR_TARGET_MS:g})"
    )
    print(f"forecast, one month: {month_ms:.1f} ms CPU (target <= {MONTH_TARGET_MS:g})")
    print(f"planetary hours, one day: {day_ms:.1f} ms CPU")
    ok = year_ms <= YEAR_TARGET_MS and month_ms <= MONTH_TARGET_MS
    print("PASS" if ok else "FAIL")


if __name__ == "__main__":
    main()
