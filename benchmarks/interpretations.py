"""Natal chart with interpretations against the bare natal chart, in-process.

Run: uv run python benchmarks/interpretations.py [--charts N] [--rounds R]

The same random births (1900-2100, latitudes 60S..60N, UTC offsets given) are computed as bare
natal charts, then as natal charts followed by :func:`natal_interpretation` at each level and
language. The texts are loaded once (the first call, outside the timing); the figure that
matters is the time added per chart by the interpretation, target at most 1 ms at level full.
Best of R rounds (CPU time of this process), per chart.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.interpretation import natal_interpretation


def births(n: int, seed: int = 1) -> list[BirthSubject]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    out = []
    for _ in range(n):
        moment = start + timedelta(seconds=rng.randrange(0, 200 * 365 * 86400))
        out.append(
            BirthSubject(
                moment.date(),
                moment.strftime("%H:%M:%S"),
                rng.uniform(-60, 60),
                rng.uniform(-180, 180),
                0,
            )
        )
    return out


def best(fn: Callable[[], None], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--charts", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    subjects = births(args.charts)
    charts = [natal_chart(s) for s in subjects]
    for language in ("en", "th"):  # load the texts once, outside the timing
        natal_interpretation(charts[0], language=language, level="full")

    def bare() -> None:
        for s in subjects:
            natal_chart(s)

    bare_s = best(bare, args.rounds)
    n = len(subjects)
    print(f"{n} charts, best of {args.rounds} rounds (CPU time)")
    print(f"bare natal chart:                 {bare_s / n * 1e3:7.3f} ms per chart")
    for language in ("en", "th"):
        for level in ("summary", "full"):

            def with_texts(language: str = language, level: str = level) -> None:
                for s in subjects:
                    natal_interpretation(natal_chart(s), language=language, level=level)  # type: ignore[arg-type]

            def texts_only(language: str = language, level: str = level) -> None:
                for c in charts:
                    natal_interpretation(c, language=language, level=level)  # type: ignore[arg-type]

            total = best(with_texts, args.rounds)
            only = best(texts_only, args.rounds)
            items = sum(
                len(natal_interpretation(c, language=language, level=level).items)  # type: ignore[arg-type]
                for c in charts
            )
            print(
                f"natal + interpretation {language} {level:7s}: {total / n * 1e3:7.3f} ms per chart"
                f"  (added {(total - bare_s) / n * 1e3:6.3f} ms; interpretation alone"
                f" {only / n * 1e3:6.3f} ms, {items / n:.1f} items)"
            )


if __name__ == "__main__":
    main()
