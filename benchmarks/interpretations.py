"""Natal and Vedic charts with interpretations against the bare charts, in-process.

Run: uv run python benchmarks/interpretations.py [--charts N] [--rounds R]

The same random births (1900-2100, latitudes 60S..60N, UTC offsets given) are computed as bare
natal charts, then as natal charts followed by :func:`natal_interpretation` at each level and
language. The texts are loaded once (the first call, outside the timing); the figure that
matters is the time added per chart by the interpretation, target at most 1 ms at level full.
Best of R rounds (CPU time of this process), per chart.

Also measured: what the server adds on top for ``interpretations=full`` (the natal items in the
common shape, :func:`astro_server.features.common.interpretations.natal_items`, and their JSON
encoding),
and the Vedic chart (:func:`astro_calc.vedic.sidereal_chart_at`, no vargas, as the
interpretation needs) against the same chart plus :func:`chart_interpretation` (grahas in rashi
and bhava, yogas). Target at most 1 ms added per chart for both.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import msgspec
from _services import add_smoke, apply_smoke

from astro_calc import ephemeris
from astro_calc.vedic import sidereal_chart_at
from astro_calc.vedic.readings import chart_interpretation
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.interpretation import natal_interpretation
from astro_server.features.common.interpretations import natal_items


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
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), charts=5, rounds=1)
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
            items = 0
            for c in charts:
                items += len(natal_interpretation(c, language=language, level=level).items)  # type: ignore[arg-type]
            print(
                f"natal + interpretation {language} {level:7s}: {total / n * 1e3:7.3f} ms per chart"
                f"  (added {(total - bare_s) / n * 1e3:6.3f} ms; interpretation alone"
                f" {only / n * 1e3:6.3f} ms, {items / n:.1f} items)"
            )

    encoder = msgspec.json.Encoder()
    for language in ("en", "th"):

        def served(language: str = language) -> None:
            for c in charts:
                encoder.encode(natal_items(c, language, "full"))  # type: ignore[arg-type]

        added = best(served, args.rounds)
        print(f"server's natal items + JSON, {language} full: {added / n * 1e3:6.3f} ms per chart")

    moments = [
        (ephemeris.julian_day(datetime.combine(s.date, datetime.min.time(), UTC)), s)
        for s in subjects
    ]

    def vedic_bare() -> None:
        for jd, s in moments:
            sidereal_chart_at(jd, s.latitude, s.longitude, divisional_charts=())

    vedic_charts = [
        sidereal_chart_at(jd, s.latitude, s.longitude, divisional_charts=()) for jd, s in moments
    ]
    for language in ("en", "th"):
        chart_interpretation(vedic_charts[0], language=language, level="full")  # type: ignore[arg-type]
    v_bare = best(vedic_bare, args.rounds)
    print(f"bare Vedic chart:                 {v_bare / n * 1e3:7.3f} ms per chart")
    for language in ("en", "th"):
        for level in ("summary", "full"):

            def v_with(language: str = language, level: str = level) -> None:
                for jd, s in moments:
                    chart = sidereal_chart_at(jd, s.latitude, s.longitude, divisional_charts=())
                    chart_interpretation(chart, language=language, level=level)  # type: ignore[arg-type]

            def v_only(language: str = language, level: str = level) -> None:
                for c in vedic_charts:
                    chart_interpretation(c, language=language, level=level)  # type: ignore[arg-type]

            total = best(v_with, args.rounds)
            only = best(v_only, args.rounds)
            print(
                f"Vedic + interpretation {language} {level:7s}: {total / n * 1e3:7.3f} ms per chart"
                f"  (added {(total - v_bare) / n * 1e3:6.3f} ms; interpretation alone"
                f" {only / n * 1e3:6.3f} ms)"
            )


if __name__ == "__main__":
    main()
