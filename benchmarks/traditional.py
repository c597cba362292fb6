"""Zodiacal releasing to level 4 over 90 years, and the other traditional techniques, in CPU time.

Run: uv run python benchmarks/traditional.py [--births N] [--rounds R] [--smoke]

Target (issue 46): releasing from Spirit to level 4 over a 90-year window in at most 20 ms of
CPU (``time.process_time``; best round of the median over the births). Three figures for it:
the whole call (``zodiacal_releasing``: time resolution, ephemeris, lots, the periods), the
periods alone (``releasing_periods`` from a computed birth, the part that grows with the window
and the level), and the number of periods produced. Also timed: the traditional chart,
profections, firdaria, and the birth-time sensitivity of the traditional results.
``--smoke`` runs two births, one round (a couple of seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from _services import add_smoke

from astro_calc.sensitivity.traditional import traditional_sensitivity
from astro_calc.western.subject import BirthSubject
from astro_calc.western.traditional import (
    firdaria,
    profections,
    traditional_chart,
    zodiacal_releasing,
)
from astro_calc.western.traditional.chart import lot_longitudes, sign_index
from astro_calc.western.traditional.timing import birth_basics, releasing_periods

TARGET_MS = 20.0


def births(n: int) -> list[BirthSubject]:
    rng = random.Random(46)
    out = []
    for _ in range(n):
        moment = datetime(1930, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(80 * 525960))
        out.append(
            BirthSubject(
                moment.date(),
                moment.strftime("%H:%M"),
                round(rng.uniform(-60, 60), 3),
                round(rng.uniform(-180, 180), 3),
                timezone_offset_minutes=0,
            )
        )
    return out


def best_median_ms(
    work: Callable[[BirthSubject], object], subjects: list[BirthSubject], rounds: int
) -> float:
    best = float("inf")
    for _ in range(rounds):
        times = []
        for subject in subjects:
            t0 = time.process_time()
            work(subject)
            times.append(time.process_time() - t0)
        best = min(best, statistics.median(times))
    return best * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--births", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    add_smoke(parser)
    args = parser.parse_args()
    n, rounds = (2, 1) if args.smoke else (args.births, args.rounds)
    subjects = births(n)
    # Warm the caches (data files, time zone tables) once, outside the measurement.
    zodiacal_releasing(subjects[0], levels=4)

    def whole(subject: BirthSubject) -> object:
        return zodiacal_releasing(subject, lot="spirit", levels=4)

    basics = {id(s): birth_basics(s) for s in subjects}

    def periods_only(subject: BirthSubject) -> object:
        b = basics[id(subject)]
        lots = lot_longitudes(b.ascendant, b.positions, b.sect)
        birth = b.echo.utc.astimezone(UTC)
        return releasing_periods(
            birth,
            sign_index(lots["spirit"]),
            sign_index(lots["fortune"]),
            levels=4,
            year_length_days=360.0,
            window=(birth, birth + timedelta(days=90 * 365.25)),
        )

    count = statistics.median(len(zodiacal_releasing(s, levels=4).periods) for s in subjects)
    whole_ms = best_median_ms(whole, subjects, rounds)
    periods_ms = best_median_ms(periods_only, subjects, rounds)
    print(f"releasing level 4, 90 years: periods per birth (median)      {count:.0f}")
    print(
        f"releasing level 4, 90 years: whole call CPU ms (median, best) {whole_ms:.2f}"
        f"  target <= {TARGET_MS:g}  {'OK' if whole_ms <= TARGET_MS else 'OVER'}"
    )
    print(f"releasing level 4, 90 years: periods alone CPU ms             {periods_ms:.2f}")
    on = date(2026, 12, 7)
    for label, work in (
        ("traditional chart", lambda s: traditional_chart(s)),
        ("profections", lambda s: profections(s, on)),
        ("firdaria", lambda s: firdaria(s, on_date=on)),
        ("sensitivity (sect, ascendant, 7 lots)", lambda s: traditional_sensitivity(s)),
    ):
        print(f"{label}: CPU ms (median, best) {best_median_ms(work, subjects, rounds):.2f}")


if __name__ == "__main__":
    main()
