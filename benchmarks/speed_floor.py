"""How far above its own ephemeris calls a natal chart and a market's calendar year are, and
where the rest goes (issue 48): the figures that say whether a speed target can still be reached
in Python or needs fewer (or cheaper) Swiss Ephemeris calls.

* ``natal``: the natal chart's pure-Python cost per stage. pyswisseph's ``calc_ut`` and
  ``houses_ex2`` are replaced by a memo of their own results (computed once, before timing), so
  the stages time only our code; the same births as ``western_natal.py`` (seed 7). The stages
  repeat :func:`astro_calc.western.natal.natal_chart`'s path step by step (keep them in step
  with ``_chart``). Beside them, the real chart and the raw floor (13 ``calc_ut`` and one
  ``houses_ex2``), least CPU time of the rounds, interleaved.
* ``cultural``: per market, a cold year's calendar (CPU ms, like ``cultural.py``'s "best of more
  years"; recording adds one Python call per ephemeris call, well under 1%) and the replay of
  exactly the ephemeris calls that year made (``calc_ut``, ``rise_trans``, recorded during the
  run, replayed alone in the same order): the floor no Python work can go under without
  changing which instants are computed.

Run: uv run python benchmarks/speed_floor.py [--part natal,cultural] [--charts 300] [--rounds 8]
     [--years 3]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import swisseph as swe
from _services import add_smoke
from western_natal import BODIES, Birth, ours, raw_floor

from astro_calc import ephemeris
from astro_calc.western import BirthSubject
from astro_calc.western import aspects as aspects_module
from astro_calc.western import natal as natal_module
from astro_calc.western.subject import resolve_subject

STAGES = (
    "subject", "checks", "resolve", "bodies (memo)", "houses (memo)", "planets", "balance",
    "aspect points", "aspect search", "cusps + angles", "result structs",
)  # fmt: skip


def births_of(count: int) -> list[Birth]:
    rng = random.Random(7)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    return [
        (start + timedelta(minutes=rng.randrange(0, 200 * 525_600)), rng.uniform(-60, 60),
         rng.uniform(-180, 180))
        for _ in range(count)
    ]  # fmt: skip


def memoize_ephemeris() -> Callable[[], None]:
    """Serve ``calc_ut`` and ``houses_ex2`` from a memo; returns the undo."""
    calc, houses = swe.calc_ut, swe.houses_ex2
    memo: dict[tuple[Any, ...], Any] = {}

    def calc_ut(*args: Any) -> Any:
        value = memo.get(args)
        if value is None:
            value = memo[args] = calc(*args)
        return value

    def houses_ex2(*args: Any) -> Any:
        key = ("h", *args)
        value = memo.get(key)
        if value is None:
            value = memo[key] = houses(*args)
        return value

    swe.calc_ut, swe.houses_ex2 = calc_ut, houses_ex2

    def undo() -> None:
        swe.calc_ut, swe.houses_ex2 = calc, houses

    return undo


def natal_stages(births: list[Birth], rounds: int) -> dict[str, float]:
    """Least CPU microseconds per chart of each stage over the rounds (ephemeris memoized)."""
    clock = time.process_time_ns
    n = natal_module
    best = dict.fromkeys(STAGES, float("inf"))
    for _ in range(rounds + 1):  # the first round fills the memo
        spent = dict.fromkeys(STAGES, 0)
        for moment, lat, lon in births:
            marks = [clock()]
            subject = BirthSubject(
                moment.date(), moment.strftime("%H:%M"), lat, lon, timezone_offset_minutes=0
            )
            marks.append(clock())
            n.check_house_system("P")
            names = n.check_bodies(BODIES)
            definitions = aspects_module.aspect_set(None, None)
            marks.append(clock())
            echo = resolve_subject(subject)
            marks.append(clock())
            path = ephemeris.ephemeris_path()
            positions, used, warnings = n.cached_positions(echo.julian_day, names, path=path)
            marks.append(clock())
            h = ephemeris.houses(echo.julian_day, lat, lon, "P", path=path)
            marks.append(clock())
            planets = n.planet_positions(positions, h)
            marks.append(clock())
            elements, modalities = n.balance(planets)
            marks.append(clock())
            points = n.aspect_points(
                planets, h.ascendant, h.midheaven, ascendant_speed=h.ascendant_speed,
                midheaven_speed=h.midheaven_speed,
            )  # fmt: skip
            marks.append(clock())
            found = aspects_module.aspects_within(points, definitions, skip_pairs=n._NODE_PAIR)
            marks.append(clock())
            cusps = n.house_cusps(h.cusps)
            angles = n.angles_from(h.ascendant, h.midheaven, h.vertex)
            marks.append(clock())
            meta = n.ChartMeta(
                echo.utc, echo.local, echo.offset_minutes, echo.timezone, echo.time_source,
                echo.julian_day, lat, lon, h.system, "P", used, (*warnings, *h.warnings),
            )  # fmt: skip
            n.NatalChart(planets, cusps, angles, tuple(found), elements, modalities, meta)
            marks.append(clock())
            for k, stage in enumerate(STAGES):
                spent[stage] += marks[k + 1] - marks[k]
        for stage in STAGES:
            best[stage] = min(best[stage], spent[stage] / len(births) / 1000.0)
    return best


def natal_part(charts: int, rounds: int) -> None:
    births = births_of(charts)
    ours(births[:20], BODIES, False)
    floor = chart = float("inf")
    for _ in range(rounds):  # interleaved: both see the same moments of the shared machine
        t0 = time.process_time()
        raw_floor(births)
        t1 = time.process_time()
        ours(births, BODIES, False)
        t2 = time.process_time()
        floor, chart = min(floor, t1 - t0), min(chart, t2 - t1)
    floor_us, chart_us = floor / charts * 1e6, chart / charts * 1e6
    undo = memoize_ephemeris()
    try:
        stages = natal_stages(births, rounds)
        memo_chart = float("inf")
        for _ in range(rounds):
            t0 = time.process_time()
            ours(births, BODIES, False)
            memo_chart = min(memo_chart, time.process_time() - t0)
    finally:
        undo()
    total_us = sum(stages.values())
    print(f"natal, {charts} charts, least of {rounds} rounds (CPU us per chart)")
    print(f"  raw floor {floor_us:7.1f}   natal_chart {chart_us:7.1f}   ratio "
          f"{chart_us / floor_us:.3f} (target <= 1.25: at most {0.25 * floor_us:.1f} us above "
          f"the floor; now {chart_us - floor_us:.1f})")  # fmt: skip
    print(f"  natal_chart with the ephemeris memoized: {memo_chart / charts * 1e6:7.1f}")
    print(f"  its stages with the ephemeris memoized (total {total_us:.1f}; the two memo rows are")
    print("  our wrappers plus the memo's dict lookup standing in for the C call):")
    for stage, us in sorted(stages.items(), key=lambda item: -item[1]):
        print(f"    {stage:<16} {us:6.1f}  {100 * us / total_us:5.1f}%")


def _recording(
    function: Callable[..., Any],
    recorded: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]],
) -> Callable[..., Any]:
    """``function`` that also appends each call to ``recorded``."""

    def call(*args: Any, **kwargs: Any) -> Any:
        recorded.append((function, args, kwargs))
        return function(*args, **kwargs)

    return call


def cultural_part(years: int) -> None:
    import holidays

    from astro_calc.cultural.calendar import market_calendar

    for code in ("TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"):
        holidays.country_holidays(code, years=2030)
    market_calendar("US", date(2030, 1, 1), date(2030, 12, 31))  # data files, once
    calc, rise_trans = swe.calc_ut, swe.rise_trans
    print(f"cultural: a cold year per market, least of {years} years (CPU ms)")
    for offset, market in enumerate(("TH", "CN", "KR", "IN", "US", "SG")):
        best_year, best_replay, calls, rises = float("inf"), float("inf"), 0, 0
        for k in range(years):
            year = 2081 + offset + 6 * k  # years no other case touched: cold
            recorded: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
            swe.calc_ut = _recording(calc, recorded)
            swe.rise_trans = _recording(rise_trans, recorded)
            try:
                t0 = time.process_time()
                market_calendar(market, date(year, 1, 1), date(year, 12, 31))
                spent = time.process_time() - t0
            finally:
                swe.calc_ut, swe.rise_trans = calc, rise_trans
            t0 = time.process_time()
            for function, args, kwargs in recorded:
                with contextlib.suppress(swe.Error):  # as during the run (Chiron without files)
                    function(*args, **kwargs)
            replay = time.process_time() - t0
            best_year, best_replay = min(best_year, spent), min(best_replay, replay)
            calls = sum(1 for f, _a, _k in recorded if f is calc)
            rises = len(recorded) - calls
        print(f"  {market}: year {best_year * 1000:6.1f}   its ephemeris calls alone "
              f"{best_replay * 1000:6.1f} ({100 * best_replay / best_year:4.1f}%; {calls} calc_ut, "
              f"{rises} rise_trans)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--part", default="natal,cultural")
    parser.add_argument("--charts", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--years", type=int, default=3)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.charts, args.rounds, args.years = 20, 1, 1
    parts = args.part.split(",")
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))
    if "natal" in parts:
        natal_part(args.charts, args.rounds)
    if "cultural" in parts:
        cultural_part(args.years)
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))


if __name__ == "__main__":
    main()
