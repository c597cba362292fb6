"""Places tag group: ``GET /api/v3/places``, the bundled GeoNames cities searched by name.

``q`` (at least 2 characters, Latin or Thai script; accents optional) matches a city's name by
prefix first, then anywhere in it, the most populous first
(:func:`astro_calc.places.search_places`);
``limit`` 1..50 (default 10); ``country`` an ISO 3166-1 alpha-2 code keeps that country's
cities. Each place carries its ``id``, which a birth ``subject`` (and the relocation's
destination, the map's ``cities``) may name as ``place`` instead of coordinates. Free (no
credits), authenticated with an API key and rate limited like any call; no scope is needed.
"""

from __future__ import annotations

from pydantic import BaseModel, Field
from quart import Blueprint

from astro_calc.places import DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY, MIN_QUERY, PlaceSearch
from astro_calc.places import search_places as search
from astro_server.features.common.calculation import calculations

blueprint = Blueprint("places", __name__)
TAG = ["Places"]
route = calculations(blueprint, tags=TAG)


class PlacesQuery(BaseModel):
    q: str = Field(
        min_length=MIN_QUERY,
        max_length=MAX_QUERY,
        description=f"The name typed, at least {MIN_QUERY} characters (Latin or Thai script)",
    )
    limit: int = Field(
        default=DEFAULT_LIMIT,
        ge=1,
        le=MAX_LIMIT,
        description=f"At most this many, 1 to {MAX_LIMIT}",
    )
    country: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z]{2}$",
        description="ISO 3166-1 alpha-2 code (TH, GB, ...): only that country's cities",
    )


@route("GET /api/v3/places", "searchPlaces", price=None, query=PlacesQuery, result=PlaceSearch)
def search_places(query: PlacesQuery) -> PlaceSearch:
    """Place search over the GeoNames cities of 15,000 people or more: names starting with
    ``q`` first, then containing it, the most populous first, each with its coordinates, IANA
    time zone, country and population (free). A place's ``id`` may stand for the coordinates
    of a birth ``subject`` (``{"place": 1609350, ...}``)."""
    return search(query.q, limit=query.limit, country=query.country)
