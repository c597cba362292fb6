"""Horoscope templates: loading, deterministic choice of phrasing, and slot filling.

Templates live in ``data/horoscope/<language>.json`` as lists of phrasings per key, with named
``{slots}``. The phrasing for a key is the sign's place in the zodiac (Aries 0 .. Pisces 11) plus
an offset from SHA-256 of (generator version, date, language, key), modulo the number of
phrasings: a (sign, date, language) always reads the same, the offset moves from day to day, and
on one day neighbouring signs never share a phrasing (twelve signs spread evenly over the
phrasings instead of clustering by chance, issue 47). Rendering fails loudly on a missing slot
(``KeyError``); the test suite renders every template in both languages.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, date, datetime, time
from functools import cache
from importlib import resources
from typing import Any, Final
from zoneinfo import ZoneInfo

from astro_calc.errors import CalcInputError
from astro_calc.zodiac import SIGNS

LANGUAGES: Final[tuple[str, ...]] = ("en", "th")
#: Bump when templates or composition change, so stored horoscopes are traceable to a generator.
GENERATOR_VERSION: Final = "horoscope/2"


@cache
def horoscope_texts(language: str) -> dict[str, Any]:
    if language not in LANGUAGES:
        raise CalcInputError("language", f"unknown language {language!r}; one of en, th")
    path = resources.files("astro_calc").joinpath("data", "horoscope", f"{language}.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def choose_variant(count: int, *, sign: str, day: date, language: str, key: str) -> int:
    """Index of the phrasing of ``key`` for ``sign`` on ``day`` (module docstring)."""
    digest = hashlib.sha256(
        f"{GENERATOR_VERSION}|{day.isoformat()}|{language}|{key}".encode()
    ).digest()
    return (int.from_bytes(digest[:8], "big") + SIGNS.index(sign)) % count


def render(template: str, slots: dict[str, object], language: str) -> str:
    text = template.format_map(slots)
    if language == "en" and text:
        text = text[0].upper() + text[1:]
    return text


def format_time(moment: datetime, language: str) -> str:
    fmt: str = horoscope_texts(language)["names"]["time_format"]
    return fmt.format(hh=moment.hour, mm=moment.minute)


#: Zone names that are UTC itself (the texts then say "UTC" / "ตามเวลาสากล").
UTC_ZONE_NAMES: Final = frozenset({"UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/UCT", "Etc/Zulu"})

#: The UTC times the writer prints (``time_format``), and the forms Thai texts published before
#: carry ("06:54 น. (UTC)" before issue 35, "06:54 น. ตามเวลาสากล" before issue 47, when Thai
#: times took the Royal Institute's dot, "06.54 น."): :func:`localize_times` reads all three.
_UTC_TIMES: Final[dict[str, re.Pattern[str]]] = {
    "en": re.compile(r"\b(\d{2}):(\d{2}) UTC\b"),
    "th": re.compile(r"(\d{2})[:.](\d{2}) น\. (?:\(UTC\)|ตามเวลาสากล)"),
}


def localize_times(text: str, day: date, language: str, zone: ZoneInfo) -> str:
    """``text`` (a horoscope of the UTC date ``day``) with every time it states in ``zone``.

    The writer prints each event's UTC time (``time_format``: "06:54 UTC", "06.54 น.
    ตามเวลาสากล"); every event of a horoscope falls within its UTC day, so the time and ``day``
    give the instant. In ``zone`` (other than UTC) the time is printed without a zone label
    (``time_format_local``: "13:54", "13.54 น."), and with the local day and month when the
    local date is not ``day`` (``time_format_other_day``: "06:10 on 16 Mar", "06.10 น. ของวันที่
    16 มี.ค."). In UTC the text is returned in the current UTC form (a Thai text published with
    "(UTC)" reads "ตามเวลาสากล"). The published text itself is never changed: this is a view.
    """
    from astro_calc.glossary import term  # the Thai month abbreviations

    names = horoscope_texts(language)["names"]
    utc = zone.key in UTC_ZONE_NAMES

    def local(match: re.Match[str]) -> str:
        instant = datetime.combine(day, time(int(match[1]), int(match[2])), UTC)
        if utc:
            return str(names["time_format"]).format(hh=instant.hour, mm=instant.minute)
        moment = instant.astimezone(zone)
        clock = str(names["time_format_local"]).format(hh=moment.hour, mm=moment.minute)
        if moment.date() == day:
            return clock
        month = term("month", str(moment.month))
        month_name = month.name("th", short=True) if language == "th" else month.en[:3]
        return str(names["time_format_other_day"]).format(
            time=clock, day=moment.day, month=month_name
        )

    return _UTC_TIMES[language].sub(local, text)


#: The sections whose text states times.
TEXT_SECTIONS: Final = ("overall", "love", "career", "money", "health")


def localized_content(content: dict[str, Any], zone: ZoneInfo) -> dict[str, Any]:
    """A published horoscope's JSON data (``date``, ``language`` and the sections' ``text``)
    with every section's times in ``zone`` (:func:`localize_times`); the rest unchanged (the
    facts keep their UTC instants)."""
    day = date.fromisoformat(str(content["date"]))
    language = str(content["language"])
    out = dict(content)
    for name in TEXT_SECTIONS:
        section = dict(out[name])
        section["text"] = localize_times(str(section["text"]), day, language, zone)
        out[name] = section
    return out
