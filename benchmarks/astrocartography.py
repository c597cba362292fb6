"""Astrocartography lines and place search, CPU time (issue 44).

Run: uv run python benchmarks/astrocartography.py [--charts 200] [--searches 2000] [--smoke]

* lines: ``astrocartography`` for 12 bodies (Sun..Pluto, mean node, mean Lilith), default
  step of 1 degree (every MC/IC/ASC/DSC line of every body), on random births; target <= 20 ms
  of CPU per chart. Also timed: with parans and local space, and the zodiacal lines.
* place search: ``search_places`` over a mix of Latin and Thai queries (short and long
  prefixes, substrings, misses, a country filter) after the index is built; target <= 2 ms of
  CPU per search. The one-off load of the gazetteer is printed too.
* the world map: SVG for one chart (the base map cached), and the 1600 px PNG.

CPU time of this process (``time.process_time``), best of three rounds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import date

from _services import add_smoke

from astro_calc import places
from astro_calc.western import BirthSubject
from astro_calc.western.astrocartography import astrocartography

BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
          "pluto", "mean_node", "mean_lilith")  # fmt: skip
QUERIES = ("bang", "london", "sao p", "new y", "zzzq", "ville", "kyo", "chiang", "กรุงเทพ",
           "เชียง", "ab", "san fr", "munich", "qx")  # fmt: skip


def _subjects(n: int) -> list[BirthSubject]:
    rng = random.Random(44)
    return [
        BirthSubject(
            date(rng.randint(1900, 2060), rng.randint(1, 12), rng.randint(1, 28)),
            f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            rng.uniform(-60, 60),
            rng.uniform(-180, 180),
            timezone_offset_minutes=0,
        )
        for _ in range(n)
    ]


def _best_ms(run: Callable[[], None], count: int, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, (time.process_time() - start) / count * 1000.0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--charts", type=int, default=200)
    parser.add_argument("--searches", type=int, default=2000)
    add_smoke(parser)
    args = parser.parse_args()
    charts = 10 if args.smoke else args.charts
    searches = 100 if args.smoke else args.searches
    subjects = _subjects(charts)
    astrocartography(subjects[0], bodies=BODIES)  # warm imports and caches

    def lines() -> None:
        for s in subjects:
            astrocartography(s, bodies=BODIES)

    def full() -> None:
        for s in subjects:
            astrocartography(s, bodies=BODIES, parans=True, local_space=True)

    def zodiacal() -> None:
        for s in subjects:
            astrocartography(s, bodies=BODIES, zodiacal=True)

    lines_ms = _best_ms(lines, charts)
    print(f"lines, 12 bodies: {lines_ms:.2f} ms CPU per chart (target <= 20 ms)")
    print(f"lines + parans + local space: {_best_ms(full, charts):.2f} ms CPU per chart")
    print(f"zodiacal lines: {_best_ms(zodiacal, charts):.2f} ms CPU per chart")

    start = time.process_time()
    places.warm()
    print(f"gazetteer load and index (once): {time.process_time() - start:.2f} s CPU")
    mix = [QUERIES[i % len(QUERIES)] for i in range(searches)]

    def search() -> None:
        for i, q in enumerate(mix):
            places.search_places(q, country="TH" if i % 7 == 0 else None)

    worst = 0.0
    for q in QUERIES:
        worst = max(worst, _best_ms(lambda q=q: [places.search_places(q) for _ in range(20)], 20))
    print(f"place search: {_best_ms(search, searches):.3f} ms CPU per search, "
          f"slowest query {worst:.3f} ms (target <= 2 ms)")  # fmt: skip

    try:
        from astro_server.drawing.png import svg_to_png
        from astro_server.drawing.world_map import astrocartography_map_svg, base_paths
    except ImportError:  # astro_calc alone
        return
    start = time.process_time()
    base_paths()
    print(f"world map base (once): {(time.process_time() - start) * 1000:.0f} ms CPU")
    acg = astrocartography(subjects[0], bodies=BODIES)

    def draw() -> None:
        astrocartography_map_svg(acg)

    svg_ms = _best_ms(draw, 1)
    print(f"world map SVG: {svg_ms:.1f} ms CPU")
    if not args.smoke:
        svg = astrocartography_map_svg(acg)

        def render() -> None:
            svg_to_png(svg, 1600)

        png_ms = _best_ms(render, 1, rounds=2)
        print(f"world map PNG 1600 px: {png_ms:.0f} ms CPU")


if __name__ == "__main__":
    main()
