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


def best_rate(run: Callable[[list[Birth]], None], births: list[Birth], rounds: int) -> float:
    """Charts per second of the fastest of ``rounds`` passes (the machine is shared; the best
    pass is the least disturbed one)."""
    run(births[:50])  # warm up imports and caches
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        run(births)
        best = min(best, time.perf_counter() - t0)
    return len(births) / best


def show(label: str, per_s: float) -> None:
    print(f"{label:<46} {per_s:>9.0f} charts/s  {1e6 / per_s:>8.0f} us/chart")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(7)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    births = [
        (start + timedelta(minutes=rng.randrange(0, 200 * 525_600)), rng.uniform(-60, 60),
         rng.uniform(-180, 180))
        for _ in range(args.charts)
    ]  # fmt: skip
    rounds = args.rounds
    floor = best_rate(raw_floor, births, rounds)
    show("raw pyswisseph floor (13 bodies + houses)", floor)
    lean = best_rate(lambda b: ours(b, BODIES, False), births, rounds)
    show("astro_calc natal_chart, 13 bodies", lean)
    full = best_rate(lambda b: ours(b, None, False), births, rounds)
    show("astro_calc natal_chart, default (+chiron try)", full)
    enc = best_rate(lambda b: ours(b, BODIES, True), births, rounds)
    show("astro_calc 13 bodies + JSON encode", enc)
    ky = best_rate(kerykeion_charts, births[: max(100, len(births) // 5)], rounds)
    show("kerykeion subject + aspects", ky)
    swe.set_ephe_path(None)
    print()
    print(f"astro_calc (13 bodies) / raw floor time: {floor / lean:.2f}x (target <= 1.5x)")
    print(f"astro_calc (default)   / raw floor time: {floor / full:.2f}x")
    print(f"astro_calc with encode / raw floor time: {floor / enc:.2f}x")
    print(f"astro_calc vs kerykeion throughput:      {lean / ky:.1f}x (target >= 3x)")
    print("immanuel: not measured (not installable beside our timezonefinder pin)")


if __name__ == "__main__":
    main()
