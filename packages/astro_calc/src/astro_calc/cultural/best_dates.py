"""Best dates for an activity across markets.

Each day of the range is rated in every market by :func:`astro_calc.cultural.calendar.market_days`
(the weights of :data:`astro_calc.cultural.calendar.WEIGHTS`); a day's score is the sum of its
markets' scores. Days are ranked by score (highest first), then by their worst market's score
(a date good everywhere beats one great in one market and poor in another), then by date. Each
date carries, per market, the facts that favoured it (``reasons``) and those that count against it
(``warnings``: a public holiday, the Chinese ghost month, Buddhist Lent, a day officer or Thai rule
that avoids the activity, Mercury retrograde, a void-of-course Moon in business hours).
"""

from __future__ import annotations

from datetime import date
from typing import Final

import msgspec

from astro_calc.cultural.calendar import (
    Fact,
    Language,
    check_range,
    market_days,
    public_holidays,
)
from astro_calc.errors import CalcInputError

MAX_MARKETS: Final = 9
MAX_COUNT: Final = 50


class MarketVerdict(msgspec.Struct, frozen=True):
    market: str
    score: int
    rating: str
    reasons: tuple[Fact, ...]
    warnings: tuple[Fact, ...]


class RankedDate(msgspec.Struct, frozen=True):
    date: date
    rank: int
    score: int
    worst_market_score: int
    markets: tuple[MarketVerdict, ...]


class BestDates(msgspec.Struct, frozen=True):
    activity: str
    markets: tuple[str, ...]
    start: date
    end: date
    days_examined: int
    scoring: str
    notes: tuple[str, ...]  # the public-holiday source's coverage warnings for these years
    dates: tuple[RankedDate, ...]


SCORING: Final = (
    "Sum over the markets of each market's day score (public holiday -3 for store openings and "
    "contract signings, -1 otherwise; Chinese almanac suits +2 / avoids -3; "
    "no-major-undertakings day (大事勿用) -3; yellow-road day +1; ghost month -2; Thai "
    "auspicious day +2, each Thai rule against it -1 (at most three); Buddhist Lent -2 for "
    "weddings and moving; Hindu tithi good +1, Rikta or Amavasya -2; Korean spirit-free moving "
    "day +2; Mercury retrograde -2 for launches, contracts and campaigns, -1 otherwise; "
    "void-of-course Moon in business hours -1). Ranked by "
    "score, then the worst market's score, then date."
)


def best_dates(
    markets: tuple[str, ...],
    start: date,
    end: date,
    activity: str,
    count: int = 10,
    language: Language = "en",
) -> BestDates:
    """The ``count`` best dates of ``start..end`` for ``activity`` across ``markets``."""
    if not 1 <= len(markets) <= MAX_MARKETS:
        raise CalcInputError("markets", f"give 1 to {MAX_MARKETS} markets")
    if len(set(markets)) != len(markets):
        raise CalcInputError("markets", "a market is listed twice")
    if not 1 <= count <= MAX_COUNT:
        raise CalcInputError("count", f"must be between 1 and {MAX_COUNT}")
    span = check_range(start, end)
    per_market = {}
    for i, market in enumerate(markets):
        try:
            per_market[market] = market_days(market, start, end, language, activity)
        except CalcInputError as exc:
            if exc.field == "market":
                raise CalcInputError(f"markets[{i}]", exc.message) from None
            raise
    rows = []
    for k in range(span):
        verdicts = tuple(
            MarketVerdict(
                market=m,
                score=days[k].score,
                rating=days[k].rating,
                reasons=tuple(f for f in days[k].facts if f.effect == "favour"),
                warnings=tuple(f for f in days[k].facts if f.effect == "avoid"),
            )
            for m, days in per_market.items()
        )
        total = sum(v.score for v in verdicts)
        worst = min(v.score for v in verdicts)
        rows.append((total, worst, per_market[markets[0]][k].date, verdicts))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    ranked = tuple(
        RankedDate(day, rank + 1, total, worst, verdicts)
        for rank, (total, worst, day, verdicts) in enumerate(rows[:count])
    )
    notes = tuple(n for m in markets for n in public_holidays(m, start, end, language)[1])
    return BestDates(activity, markets, start, end, span, SCORING, notes, ranked)
