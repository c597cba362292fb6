"""Kundli matching throughput: pairs per second.

Three figures, each the best of five runs:
* fast path: ``match_moons`` on two known sidereal Moon longitudes (table lookups only);
* with Moons: the two Moon longitudes computed from Julian days, then ``match_moons``
  (the target: one pair per millisecond or better including the two Moon computations);
* full: ``kundli_match`` on two birth subjects (time resolution, Moon, Mars, Jupiter, lagna for
  each, Manglik for both).

Run: ``uv run python benchmarks/vedic_matching.py [--pairs 2000] [--smoke]``
"""

from __future__ import annotations

import argparse
import time
from datetime import date, timedelta

from _services import add_smoke, apply_smoke

from astro_calc import ephemeris
from astro_calc.vedic import BirthSubject, kundli_match, match_moons

PAIRS = 2000


def _best(run: object, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=PAIRS)
    add_smoke(parser)
    pairs = apply_smoke(parser.parse_args(), pairs=40).pairs
    moons = [((i * 7.31) % 360.0, (i * 13.77 + 5.0) % 360.0) for i in range(pairs)]
    jds = [(2447000.5 + i * 3.17, 2447500.5 + i * 5.93) for i in range(pairs)]
    subjects = [
        (
            BirthSubject(date(1985, 1, 1) + timedelta(days=i * 3), "06:30", 13.75, 100.5, 420),
            BirthSubject(date(1988, 6, 1) + timedelta(days=i * 5), "18:45:10", 28.6, 77.2, 330),
        )
        for i in range(pairs // 4)
    ]

    def fast() -> None:
        for b, g in moons:
            match_moons(b, g)

    def with_moons() -> None:
        for jb, jg in jds:
            b = ephemeris.body_position(jb, "moon", ayanamsa="lahiri").longitude
            g = ephemeris.body_position(jg, "moon", ayanamsa="lahiri").longitude
            match_moons(b, g)

    def full() -> None:
        for b, g in subjects:
            kundli_match(b, g)

    for name, run, n in (
        ("match_moons (Moons known)", fast, pairs),
        ("two Moon positions + match_moons", with_moons, pairs),
        ("kundli_match (full, with Manglik)", full, len(subjects)),
    ):
        seconds = _best(run)
        print(f"{name:36s} {n / seconds:10.0f} pairs/s  {seconds / n * 1e6:8.1f} us/pair")


if __name__ == "__main__":
    main()
