"""Chart pictures per second: our natal wheel SVG and PNG (800 px) against kerykeion's SVG chart,
on the same random births.

Run: uv run python benchmarks/chart_pictures.py [--charts N] [--rounds R]

Births: 1900-2100, latitudes 60S..60N, UTC. Both sides draw from an already computed chart (the
drawing alone) and, separately, compute and draw (the whole picture request minus HTTP).
Ours: ``natal_wheel_svg`` of an ``astro_calc`` natal chart (13 bodies, Placidus houses, all
eleven aspect kinds), and ``svg_to_png`` of it at 800 x 800 (resvg, bundled fonts only).
kerykeion: ``ChartDrawer(ChartDataFactory.create_natal_chart_data(subject))
.generate_svg_string()`` (its default natal chart: wheel plus tables), subject from
``AstrologicalSubjectFactory.from_birth_data(..., online=False)``. Best of R rounds of N charts;
CPU milliseconds per picture (process time: the machine may be shared) and pictures per
CPU-second are printed. Targets: SVG <= 5 ms and faster
than kerykeion; PNG 800 px <= 100 ms.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from _services import add_smoke, apply_smoke

from astro_calc.western import BirthSubject, NatalChart, natal_chart
from astro_server.drawing import natal_wheel_svg, svg_to_png

Birth = tuple[datetime, float, float]


def births(count: int, seed: int = 7) -> list[Birth]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    span = (datetime(2100, 1, 1, tzinfo=UTC) - start).total_seconds()
    return [
        (
            (start + timedelta(seconds=rng.uniform(0, span))).replace(second=0, microsecond=0),
            rng.uniform(-60, 60),
            rng.uniform(-180, 180),
        )
        for _ in range(count)
    ]


def our_chart(birth: Birth) -> NatalChart:
    moment, lat, lon = birth
    return natal_chart(
        BirthSubject(moment.date(), moment.strftime("%H:%M"), lat, lon, timezone_offset_minutes=0)
    )


def kerykeion_data(birth: Birth) -> Any:
    from kerykeion import AstrologicalSubjectFactory, ChartDataFactory

    moment, lat, lon = birth
    subject = AstrologicalSubjectFactory.from_birth_data(
        "x", moment.year, moment.month, moment.day, moment.hour, moment.minute,
        lng=lon, lat=lat, tz_str="UTC", online=False, suppress_geonames_warning=True,
    )  # fmt: skip
    return ChartDataFactory.create_natal_chart_data(subject)


def kerykeion_svg(data: Any) -> str:
    from kerykeion import ChartDrawer

    svg: str = ChartDrawer(data).generate_svg_string()
    return svg


def best_ms(work: Callable[[], object], items: int, rounds: int) -> float:
    """CPU milliseconds per item (this process's CPU time, best round): on a shared machine the
    wall clock also counts the time other processes held the cores."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best / items * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--charts", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--png-charts", type=int, default=10)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), charts=2, rounds=1, png_charts=1)
    sample = births(args.charts)
    charts = [our_chart(b) for b in sample]
    k_data = [kerykeion_data(b) for b in sample]
    svgs = [natal_wheel_svg(c) for c in charts]
    svg_to_png(svgs[0], 800)  # warm-up (fonts, resvg)
    kerykeion_svg(k_data[0])

    rows = [
        ("ours: SVG natal wheel (drawing)", best_ms(
            lambda: [natal_wheel_svg(c) for c in charts], len(charts), args.rounds)),
        ("kerykeion: SVG natal chart (drawing)", best_ms(
            lambda: [kerykeion_svg(d) for d in k_data], len(k_data), args.rounds)),
        ("ours: chart + SVG", best_ms(
            lambda: [natal_wheel_svg(our_chart(b)) for b in sample], len(sample), args.rounds)),
        ("kerykeion: chart + SVG", best_ms(
            lambda: [kerykeion_svg(kerykeion_data(b)) for b in sample], len(sample),
            args.rounds)),
        ("ours: PNG 800 px from the SVG", best_ms(
            lambda: [svg_to_png(s, 800) for s in svgs[: args.png_charts]],
            min(args.png_charts, len(svgs)), args.rounds)),
    ]  # fmt: skip
    print(f"{args.charts} random births (PNG: {args.png_charts}), best of {args.rounds} rounds")
    for name, ms in rows:
        print(f"  {name:<40} {ms:8.2f} ms   {1000.0 / ms:8.1f} /s")
    ours_svg, theirs_svg, png = rows[0][1], rows[1][1], rows[4][1]
    print(f"  SVG: {theirs_svg / ours_svg:.1f}x kerykeion's speed; target <= 5 ms: "
          f"{'met' if ours_svg <= 5 else 'MISSED'}; PNG target <= 100 ms: "
          f"{'met' if png <= 100 else 'MISSED'}")  # fmt: skip
    sizes = sorted(len(s) for s in svgs)
    print(f"  SVG size: median {sizes[len(sizes) // 2] / 1024:.0f} KiB (fonts embedded)")


if __name__ == "__main__":
    main()
