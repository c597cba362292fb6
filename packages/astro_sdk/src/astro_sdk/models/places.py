"""Models of the place search (``GET /api/v3/places``): the bundled GeoNames cities."""

from __future__ import annotations

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["Place", "PlaceSearch", "PlacesQuery"]


class PlacesQuery(RequestModel):
    q: str = Field(min_length=2, max_length=100)
    """The name typed, at least 2 characters, Latin or Thai script."""
    limit: int = Field(default=10, ge=1, le=50)
    country: str | None = Field(default=None, pattern=r"^[A-Za-z]{2}$")
    """ISO 3166-1 alpha-2 code: only that country's cities."""


class Place(ResponseModel):
    """A city: ``id`` (its GeoNames id, usable as a subject's ``place``), ``country`` (ISO
    3166-1 alpha-2), coordinates, IANA ``timezone``, ``population`` and ``names`` in other
    scripts (``th``)."""

    id: int
    name: str
    country: str
    latitude: float
    longitude: float
    timezone: str
    population: int
    names: dict[str, str]


class PlaceSearch(ResponseModel):
    places: list[Place]
