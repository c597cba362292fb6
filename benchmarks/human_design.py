"""Human Design charts: CPU per chart in astro_calc (target <= 3 ms, issue 43), and the extras.

Run: uv run python benchmarks/human_design.py [--charts 2000] [--rounds 5] [--smoke]

Births are random whole minutes 1900-2100 at fixed offsets (the time resolution is part of the
cost, as in a request). Figures are CPU time of this process (``time.process_time``), the best
of ``--rounds`` rounds: a full chart (26 activations, the design moment by Newton's method,
channels, centres, type, authority, profile, definition, cross), the chart with its readings
(level full), a composite of two charts, transits against a chart, and the birth-time
sensitivity (once per birth; it computes a few hundred charts). ``--smoke`` runs a tiny size.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from _services import add_smoke

from astro_calc.human_design import (
    chart_interpretation,
    composite,
    human_design_chart,
    transits,
)
from astro_calc.sensitivity import human_design_sensitivity
from astro_calc.western import BirthSubject


def _births(n: int, rng: random.Random) -> list[BirthSubject]:
    out = []
    for _ in range(n):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        minute = rng.randrange(0, 1440)
        out.append(
            BirthSubject(
                date=day,
                time=f"{minute // 60:02d}:{minute % 60:02d}",
                latitude=rng.uniform(-60, 60),
                longitude=rng.uniform(-180, 180),
                timezone_offset_minutes=rng.choice((-300, 0, 60, 420, 540)),
            )
        )
    return out


def _best(rounds: int, n: int, work: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        work()
        best = min(best, time.process_time() - t0)
    return 1000.0 * best / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sensitivity", type=int, default=20)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.charts, args.rounds, args.sensitivity = 50, 2, 2
    births = _births(args.charts, random.Random(43))
    human_design_chart(births[0])  # warm the zone finder and the tables

    def charts() -> None:
        for b in births:
            human_design_chart(b)

    per_chart = _best(args.rounds, len(births), charts)
    print(
        f"chart: {per_chart:.3f} ms CPU per chart (best of {args.rounds} x {len(births)}; "
        f"target <= 3 ms): {'PASS' if per_chart <= 3.0 else 'FAIL'}"
    )

    made = [human_design_chart(b) for b in births]

    def readings() -> None:
        for c in made:
            chart_interpretation(c, language="th", level="full")

    print(f"readings (th, full) on top: {_best(args.rounds, len(made), readings):.3f} ms each")

    def composites() -> None:
        for a, b in zip(made[::2], made[1::2], strict=False):
            composite(a, b)

    pairs = max(1, len(made) // 2)
    print(f"composite of two charts: {_best(args.rounds, pairs, composites):.3f} ms each")
    moment = datetime(2026, 12, 8, tzinfo=UTC)

    def transit() -> None:
        for c in made:
            transits(c, moment)

    print(f"transits against a chart: {_best(args.rounds, len(made), transit):.3f} ms each")
    t0 = time.process_time()
    for b in births[: args.sensitivity]:
        human_design_sensitivity(b, uncertainty_minutes=60)
    per = 1000.0 * (time.process_time() - t0) / args.sensitivity
    print(f"birth-time sensitivity (780-minute horizon): {per:.0f} ms CPU each")


if __name__ == "__main__":
    main()
