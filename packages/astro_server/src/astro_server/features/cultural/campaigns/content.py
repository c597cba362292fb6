"""One campaign day's content: for each sign and language, the published daily horoscope (the
same text ``GET /api/v3/horoscopes/daily`` serves: ``services.horoscopes.get_or_publish``), the
markets' cultural facts of that day (:func:`astro_calc.cultural.calendar.market_days`, rated
for ``campaign_start``), and the social copy built from both (:mod:`.social_copy`).

Stable: published horoscopes never change and the calendar and copy are pure functions of the
date, so the same request gives the same text. Items come in the campaign's sign order, then
its language order; ``cultural`` in language order, then market order.

CSV (``format=csv``): one row per (sign, language), a header row, RFC 4180 quoting and CRLF line
ends, UTF-8 **with a byte-order mark** so that Excel opens Thai text correctly (without it Excel
reads a CSV in the machine's ANSI code page).
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Sequence
from datetime import date
from functools import cache
from typing import Any, Final

import msgspec

from astro_calc.cultural.calendar import MarketDay, market_days, markets, public_holidays
from astro_server.features.cultural.campaigns.social_copy import campaign_copy, highlight_line
from astro_server.features.cultural.models import Campaign
from astro_server.features.horoscopes.service import get_or_publish

ACTIVITY: Final = "campaign_start"
CSV_COLUMNS: Final = (
    "date",
    "sign",
    "language",
    "copy_long",
    "copy_medium",
    "copy_short",
    "overall",
    "overall_rating",
    "lucky_colour",
    "lucky_number",
    "highlights",
    "market_ratings",
)


@cache
def _market_names(language: str) -> dict[str, str]:
    return {m.code: (m.name_th if language == "th" else m.name_en) for m in markets()}


def cultural_days(
    market_codes: Sequence[str], day: date, languages: Sequence[str]
) -> dict[str, list[tuple[str, MarketDay, str | None]]]:
    """Per language: (market, the market's day, its highlight line or None), in market order.

    A market's highlight is its first festival of the day, else its public holiday."""
    out: dict[str, list[tuple[str, MarketDay, str | None]]] = {}
    for language in languages:
        names = _market_names(language)
        rows: list[tuple[str, MarketDay, str | None]] = []
        for market in market_codes:
            (market_day,) = market_days(market, day, day, language, ACTIVITY)  # type: ignore[arg-type]
            text: str | None = None
            if market_day.festivals:
                text = market_day.festivals[0].text
            else:
                holidays = public_holidays(market, day, day, language)[0]  # type: ignore[arg-type]
                text = holidays.get(day)
            line = highlight_line(names[market], text, language) if text else None
            rows.append((market, market_day, line))
        out[language] = rows
    return out


async def day_content(campaign: Campaign, day: date) -> dict[str, Any]:
    """The content of ``day`` (a date of the campaign) as JSON data."""
    cultural = await asyncio.to_thread(cultural_days, campaign.markets, day, campaign.languages)
    items: list[dict[str, Any]] = []
    for sign in campaign.signs:
        for language in campaign.languages:
            # Times in the campaign's zone, as its readers live them (issue 35).
            horoscope = await get_or_publish(sign, day, language, campaign.timezone)
            highlights = [line for _, _, line in cultural[language] if line]
            items.append(
                {
                    "sign": sign,
                    "language": language,
                    "horoscope": horoscope,
                    "highlights": highlights,
                    "social_copy": campaign_copy(horoscope, highlights, language),
                }
            )
    return {
        "campaign_id": campaign.id,
        "date": day.isoformat(),
        "timezone": campaign.timezone,
        "cultural": [
            {"market": market, "language": language, "day": msgspec.to_builtins(market_day)}
            for language in campaign.languages
            for market, market_day, _ in cultural[language]
        ],
        "items": items,
    }


def content_csv(content: dict[str, Any]) -> bytes:
    """The day's content as CSV (UTF-8 with BOM), one row per (sign, language)."""
    ratings: dict[str, list[str]] = {}
    for entry in content["cultural"]:
        day = entry["day"]
        ratings.setdefault(entry["language"], []).append(
            f"{entry['market']} {day['rating']} {day['score']:+d}"
        )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for item in content["items"]:
        horoscope = item["horoscope"]
        writer.writerow(
            (
                content["date"],
                item["sign"],
                item["language"],
                item["social_copy"]["long"],
                item["social_copy"]["medium"],
                item["social_copy"]["short"],
                horoscope["overall"]["text"],
                horoscope["overall"]["rating"],
                horoscope["lucky_colour"],
                horoscope["lucky_number"],
                " | ".join(item["highlights"]),
                "; ".join(ratings.get(item["language"], [])),
            )
        )
    return buffer.getvalue().encode("utf-8-sig")


def delivery_data(content: dict[str, Any], campaign: Campaign) -> dict[str, Any]:
    """The ``campaign.content_ready`` event's data: the day's highlights per language, the
    social copy per sign and language, and the path of the full content (horoscopes and
    cultural facts). The largest campaign (12 signs, en and th, 9 markets) sends about
    26 KB."""
    highlights: dict[str, list[str]] = {}
    for item in content["items"]:
        highlights.setdefault(item["language"], item["highlights"])
    return {
        "campaign_id": campaign.id,
        "name": campaign.name,
        "date": content["date"],
        "timezone": campaign.timezone,
        "content_url": f"/api/v3/campaigns/{campaign.id}/content?date={content['date']}",
        "highlights": highlights,
        "items": [
            {"sign": item["sign"], "language": item["language"], "social_copy": item["social_copy"]}
            for item in content["items"]
        ],
    }
