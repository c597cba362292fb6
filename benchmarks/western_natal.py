"""Full Western natal charts per second: astro_calc vs the raw pyswisseph floor vs kerykeion.

Run: uv run python benchmarks/western_natal.py [--charts N] [--rounds R]

Every contender gets the same random births (1900-2100, latitudes 60S..60N, UTC offsets given)
and computes a full chart: Sun..Pluto, mean and true node, mean Lilith, Placidus houses and
aspects. The "raw floor" is the same pyswisseph calls with nothing else (13 calc_ut and one
houses_ex); astro_calc adds time resolution, signs, houses of bodies, dignities, eleven aspect
kinds with applying/separating, element and modality balance and the result structs (the
default chart also tries Chiron, which without asteroid files costs one refused call and a
warning). kerykeion: AstrologicalSubjectFactory offline plus AspectsFactory.single_chart_aspects.
immanuel is not measured: it cannot be installed beside our timezonefinder pin.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import msgspec
import swisseph as swe

from astro_calc.western import BirthSubject, natal_chart

BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
          "pluto", "mean_node", "true_node", "mean_lilith")  # fmt: skip

Birth = tuple[datetime, float, float]


def raw_floor(births: list[Birth]) -> None:
    flags = swe.FLG_MOSEPH | swe.FLG_SPEED
    for moment, lat, lon in births:
        jd = swe.julday(moment.year, moment.month, moment.day, moment.hour + moment.minute / 60)
        for ipl in range(13):
            swe.calc_ut(jd, ipl, flags)
        swe.houses_ex(jd, lat, lon, b"P", swe.FLG_MOSEPH)


def ours(births: list[Birth], bodies: tuple[str, ...] | None, encode: bool) -> None:
    encoder = msgspec.json.Encoder()
    for moment, lat, lon in births:
        subject = BirthSubject(
            moment.date(), moment.strftime("%H:%M"), lat, lon, timezone_offset_minutes=0
        )
        chart = natal_chart(subject) if bodies is None else natal_chart(subject, bodies=bodies)
        if encode:
            encoder.encode(chart)


def kerykeion_charts(births: list[Birth]) -> None:
    from kerykeion import AspectsFactory, AstrologicalSubjectFactory

    for moment, lat, lon in births:
        subject = AstrologicalSubjectFactory.from_birth_data(
            "x", moment.year, moment.month, moment.day, moment.hour, moment.minute,
            lng=lon, lat=lat, tz_str="UTC", online=False, suppress_geonames_warning=True,
        )  # fmt: skip
        AspectsFactory.single_chart_aspects(subject)


def timed(run: Callable[[list[Birth]], None], births: list[Birth]) -> float:
    """CPU seconds of this process: other jobs on the shared machine do not count against it."""
    t0 = time.process_time()
    run(births)
    return time.process_time() - t0


def show(label: str, per_s: float) -> None:
    print(f"{label:<46} {per_s:>9.0f} charts/CPU-s  {1e6 / per_s:>8.0f} us/chart")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(7)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    births = [
        (start + timedelta(minutes=rng.randrange(0, 200 * 525_600)), rng.uniform(-60, 60),
         rng.uniform(-180, 180))
        for _ in range(args.charts)
    ]  # fmt: skip
    contenders: dict[str, tuple[Callable[[list[Birth]], None], list[Birth]]] = {
        "raw pyswisseph floor (13 bodies + houses)": (raw_floor, births),
        "astro_calc natal_chart, 13 bodies": (lambda b: ours(b, BODIES, False), births),
        "astro_calc natal_chart, default (+chiron)": (lambda b: ours(b, None, False), births),
        "astro_calc 13 bodies + JSON encode": (lambda b: ours(b, BODIES, True), births),
        "kerykeion subject + aspects": (kerykeion_charts, births[: max(50, len(births) // 5)]),
    }
    for run, sample in contenders.values():
        run(sample[:20])  # warm up imports and caches
    # The machine is shared: every round runs all contenders back to back, and each figure is
    # the best round (the least disturbed); ratios are also given per round, as a median.
    best = dict.fromkeys(contenders, float("inf"))
    ratios: list[float] = []
    for _ in range(args.rounds):
        round_times = {}
        for label, (run, sample) in contenders.items():
            elapsed = timed(run, sample) / len(sample)
            round_times[label] = elapsed
            best[label] = min(best[label], elapsed)
        labels = list(contenders)
        ratios.append(round_times[labels[1]] / round_times[labels[0]])
    for label, per_chart in best.items():
        show(label, 1.0 / per_chart)
    labels = list(contenders)
    floor, lean, full, enc, ky = (1.0 / best[label] for label in labels)
    swe.set_ephe_path(None)
    print()
    print(
        f"astro_calc (13 bodies) / raw floor time: {floor / lean:.2f}x best rounds, "
        f"{statistics.median(ratios):.2f}x median of paired rounds (target <= 1.5x)"
    )
    print(f"astro_calc (default)   / raw floor time: {floor / full:.2f}x")
    print(f"astro_calc with encode / raw floor time: {floor / enc:.2f}x")
    print(f"astro_calc vs kerykeion throughput:      {lean / ky:.1f}x (target >= 3x)")
    print("immanuel: not measured (not installable beside our timezonefinder pin)")


if __name__ == "__main__":
    main()
