"""Cultural Intelligence speed: a year's calendar for one market (target <= 200 ms, <= 120 ms for
TH: issue 33), the best dates over a year for three markets (target <= 1 s), and one campaign
content day for 12 signs x
2 languages x 3 markets (the server's ``day_content``: 24 published horoscopes, 6 market days,
24 x 3 social copies; on an in-memory SQLite database, so "cold" includes publishing the 24
horoscopes and "warm" reads them back).

Each case is timed twice in one process: "cold" is the first request touching a year (the Moon's
void-of-course periods and Mercury's stations for the year's months, the Hindu sunrises and
festivals, the Thai tables are computed and cached); "warm" is a repeat (a server process keeps
these caches, so every later request for the same months is warm). Each case uses its own year so
that one case's caches do not warm another's. Imports (the holidays package's country modules)
are loaded before timing, as a running server has them.

The machine is shared, so a cold year is also measured on three more years of its own per market
(``--cold-years``, default 3; years nobody asked before, so each is cold) and the least CPU time
of those is printed beside the first: CPU time leaves out the waiting other jobs cause, and the
least of several is the least disturbed. The first cold figure also carries what a process does
once (data files, the Tong Shu spirit table), the later ones only what a new year costs.

Run: uv run python benchmarks/cultural.py [--cold-years N]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from datetime import date

import holidays
from _services import add_smoke, apply_smoke
from tortoise import Tortoise

from astro_calc.cultural.best_dates import best_dates
from astro_calc.cultural.calendar import market_calendar
from astro_calc.horoscope import SIGNS
from astro_server.features.cultural.campaigns.content import day_content
from astro_server.features.cultural.models import Campaign
from astro_server.registry import MODEL_MODULES


def _ms(call: Callable[[], object]) -> str:
    """Wall and CPU milliseconds of one call (the CPU time shows the cost without the waiting a
    shared machine adds)."""
    t0, c0 = time.perf_counter(), time.process_time()
    call()
    wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    return f"{wall:7.1f} ms (cpu {cpu:6.1f})"


def _best_of(call: Callable[[], object], runs: int = 3) -> str:
    return min((_ms(call) for _ in range(runs)), key=lambda text: float(text.split()[0]))


def _cpu_ms(call: Callable[[], object]) -> float:
    c0 = time.process_time()
    call()
    return (time.process_time() - c0) * 1000


#: Issue 33's targets for a cold year of a market's calendar, in milliseconds.
CALENDAR_TARGET_MS = {"TH": 120}
CALENDAR_DEFAULT_TARGET_MS = 200


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold-years", type=int, default=3)
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), cold_years=1)
    for code in ("TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"):
        holidays.country_holidays(code, years=2030)  # load the country modules
    markets = ("TH", "CN", "KR", "IN", "US", "SG")
    for offset, market in enumerate(markets):
        year = 2031 + offset
        start, end = date(year, 1, 1), date(year, 12, 31)
        cold = _ms(lambda m=market, s=start, e=end: market_calendar(m, s, e))
        warm = _best_of(lambda m=market, s=start, e=end: market_calendar(m, s, e))
        # Years of this market's own, cold too: 2051.. in steps of len(markets) (no other case
        # touches them).
        more = [2051 + offset + len(markets) * k for k in range(args.cold_years)]
        best = min(
            (_cpu_ms(lambda m=market, y=y: market_calendar(m, date(y, 1, 1), date(y, 12, 31)))
             for y in more),
            default=float("nan"),
        )  # fmt: skip
        target = CALENDAR_TARGET_MS.get(market, CALENDAR_DEFAULT_TARGET_MS)
        print(
            f"calendar {market} {year}: cold {cold}, warm {warm}; cold cpu best of "
            f"{len(more)} more years {best:6.1f} ms (target <= {target} ms)"
        )
    for offset, trio in enumerate((("TH", "CN", "IN"), ("SG", "MY", "KR"))):
        year = 2040 + offset
        start, end = date(year, 1, 1), date(year, 12, 31)

        def run(t: tuple[str, ...] = trio, s: date = start, e: date = end) -> object:
            return best_dates(t, s, e, "store_opening", 10)

        cold = _ms(run)
        warm = _best_of(run)
        names = "+".join(trio)
        print(f"best dates {names} {year}: cold {cold}, warm {warm} (target 1000 ms)")

    asyncio.run(campaign_day())


async def _ms_async(call: Callable[[], object]) -> str:
    t0, c0 = time.perf_counter(), time.process_time()
    await call()  # type: ignore[misc]
    wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    return f"{wall:7.1f} ms (cpu {cpu:6.1f})"


async def campaign_day() -> None:
    await Tortoise.init(
        db_url="sqlite://:memory:", modules={"astro": [m.__name__ for m in MODEL_MODULES]}
    )
    await Tortoise.generate_schemas()
    try:
        campaign = Campaign(
            id="cmp_" + "0" * 24, account_id="acct_bench", name="bench",
            start=date(2045, 1, 1), end=date(2045, 3, 31), signs=list(SIGNS),
            languages=["en", "th"], markets=["TH", "CN", "IN"], timezone="Asia/Bangkok",
        )  # fmt: skip
        for day in (date(2045, 2, 17), date(2045, 2, 18)):
            cold = await _ms_async(lambda d=day: day_content(campaign, d))
            warm = min(
                [await _ms_async(lambda d=day: day_content(campaign, d)) for _ in range(3)],
                key=lambda text: float(text.split()[0]),
            )
            print(f"campaign day {day} (12 signs x en,th x TH,CN,IN): cold {cold}, warm {warm}")
    finally:
        await Tortoise.close_connections()


if __name__ == "__main__":
    main()
