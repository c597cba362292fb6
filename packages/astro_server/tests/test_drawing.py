"""Chart pictures drawn from calculation results: geometry read back from the SVG, glyph
spreading, well-formed XML, PNG pixels (size, not blank, theme and custom colours), Thai labels.

Geometry convention checked (see astro_server.drawing.geometry): a longitude is drawn at the
screen angle ``180 + (longitude - ascendant)`` counter-clockwise from 3 o'clock (ascendant at
9 o'clock, zodiac counter-clockwise); a dial position at ``90 + position * 360 / dial``. Each
body's true-position tick is read back from the SVG and compared with the longitude the
calculation returned (the reference is astro_calc's own result, itself checked against
pyswisseph and kerykeion in astro_calc's tests), within 0.1 degree.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest
import resvg_py
from fontTools.ttLib import TTFont
from PIL import Image

from astro_calc.thai import taksa_wheel
from astro_calc.uranian import midpoints, uranian_factors, uranian_positions
from astro_calc.vedic import BirthSubject as VedicSubject
from astro_calc.vedic import sidereal_chart
from astro_calc.vedic.varga import VARGAS
from astro_calc.western import BirthSubject, NatalChart, natal_chart, synastry
from astro_server.drawing import bi_wheel_svg, natal_wheel_svg, svg_to_png
from astro_server.drawing.dial import uranian_dial_svg
from astro_server.drawing.geometry import angular_distance, spread
from astro_server.drawing.glyphs import THAI_FAMILY, font_files
from astro_server.drawing.taksa import taksa_wheel_svg
from astro_server.drawing.vedic import vedic_chart_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
CENTRE = 500.0
HOUSE_SYSTEMS = ("P", "K", "W", "E", "O", "R", "C", "B", "A", "M", "T", "X")


def random_subject(rng: random.Random) -> BirthSubject:
    return BirthSubject(
        date=dt.date(rng.randint(1900, 2099), rng.randint(1, 12), rng.randint(1, 28)),
        time=f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        latitude=round(rng.uniform(-60, 60), 3),
        longitude=round(rng.uniform(-180, 180), 3),
        timezone_offset_minutes=0,
    )


def random_chart(seed: int) -> NatalChart:
    rng = random.Random(seed)
    return natal_chart(random_subject(rng), house_system=rng.choice(HOUSE_SYSTEMS))


def parse(svg: str) -> ET.Element:
    # Our own output, not untrusted input; raises on anything that is not well-formed XML.
    return ET.fromstring(svg)  # noqa: S314


def screen_angle(x: float, y: float) -> float:
    return math.degrees(math.atan2(CENTRE - y, x - CENTRE)) % 360.0


def line_angle(line: ET.Element) -> float:
    return screen_angle(float(line.get("x1", "nan")), float(line.get("y1", "nan")))


def body_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "body"]


def glyph_centres(group: ET.Element) -> tuple[float, float, float]:
    mark = next(g for g in group.iter(f"{SVG_NS}g") if g.get("class") == "glyph")
    return (
        float(mark.get("data-x", "0")),
        float(mark.get("data-y", "0")),
        float(mark.get("data-size", "0")),
    )


@pytest.mark.parametrize("seed", range(25))
def test_natal_bodies_and_cusps_sit_at_their_longitudes(seed: int) -> None:
    chart = random_chart(seed)
    root = parse(natal_wheel_svg(chart))
    asc = chart.angles.ascendant.longitude
    groups = {g.get("data-body"): g for g in body_groups(root)}
    assert set(groups) == {p.name for p in chart.planets}
    for planet in chart.planets:
        group = groups[planet.name]
        assert float(group.get("data-longitude", "nan")) == planet.longitude  # exact echo
        tick = next(
            line for line in group.iter(f"{SVG_NS}line") if line.get("class") == "true-position"
        )
        expected = (180.0 + planet.longitude - asc) % 360.0
        assert angular_distance(line_angle(tick), expected) < 0.1
    cusps = [line for line in root.iter(f"{SVG_NS}line") if line.get("data-cusp")]
    assert [int(c.get("data-cusp", "0")) for c in cusps] == list(range(1, 13))
    for line, house in zip(cusps, chart.houses, strict=True):
        assert float(line.get("data-longitude", "nan")) == house.cusp
        expected = (180.0 + house.cusp - asc) % 360.0
        assert angular_distance(line_angle(line), expected) < 0.1
    ascendant_line = next(
        line for line in root.iter(f"{SVG_NS}line") if line.get("data-angle") == "ascendant"
    )
    assert angular_distance(line_angle(ascendant_line), 180.0) < 0.1  # 9 o'clock


@pytest.mark.parametrize("seed", range(25))
def test_no_two_glyphs_overlap_after_spreading(seed: int) -> None:
    chart = random_chart(seed)
    groups = body_groups(parse(natal_wheel_svg(chart)))
    centres = [glyph_centres(g) for g in groups]
    for i, (x1, y1, size) in enumerate(centres):
        for x2, y2, _ in centres[i + 1 :]:
            assert math.hypot(x1 - x2, y1 - y2) >= size, (x1, y1, x2, y2)


def test_a_stellium_is_spread_and_keeps_its_order() -> None:
    angles = [100.0, 100.5, 101.0, 101.2, 250.0, 359.0, 0.5]
    placed = spread(angles, 6.0)
    order = sorted(range(4), key=lambda i: angles[i])
    assert sorted(range(4), key=lambda i: placed[i]) == order
    for i in range(len(placed)):
        for j in range(i + 1, len(placed)):
            assert angular_distance(placed[i], placed[j]) >= 6.0 - 1e-9
    assert abs(sum(placed[:4]) / 4 - sum(angles[:4]) / 4) < 1e-9  # the crowd stays centred
    assert angular_distance(placed[4], 250.0) < 1e-9  # a lone body does not move


@pytest.mark.parametrize("seed", range(10))
def test_bi_wheel_rings_sit_at_their_longitudes(seed: int) -> None:
    rng = random.Random(1000 + seed)
    result = synastry(random_subject(rng), random_subject(rng), include_minor=True)
    root = parse(bi_wheel_svg(result.chart_a, result.chart_b, result.aspects))
    asc = result.chart_a.angles.ascendant.longitude
    rings = {g.get("data-ring"): g for g in root.iter(f"{SVG_NS}g") if g.get("data-ring")}
    for ring, chart in (("inner", result.chart_a), ("outer", result.chart_b)):
        groups = body_groups(rings[ring])
        assert [g.get("data-body") for g in groups] == [p.name for p in chart.planets]
        for group, planet in zip(groups, chart.planets, strict=True):
            tick = next(iter(group.iter(f"{SVG_NS}line")))
            expected = (180.0 + planet.longitude - asc) % 360.0
            assert angular_distance(line_angle(tick), expected) < 0.1
        centres = [glyph_centres(g) for g in groups]
        for i, (x1, y1, size) in enumerate(centres):
            for x2, y2, _ in centres[i + 1 :]:
                assert math.hypot(x1 - x2, y1 - y2) >= size
    drawn = [line for line in root.iter(f"{SVG_NS}line") if line.get("class") == "aspect"]
    assert len(drawn) == sum(1 for a in result.aspects if a.aspect != "conjunction")


@pytest.mark.parametrize("dial", [90.0, 45.0, 22.5])
def test_dial_positions_are_longitudes_modulo_the_dial(dial: float) -> None:
    rng = random.Random(int(dial * 10))
    for _ in range(4):
        factors = uranian_factors(
            dt.date(rng.randint(1900, 2099), rng.randint(1, 12), rng.randint(1, 28)),
            f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            rng.uniform(-60, 60),
            rng.uniform(-180, 180),
            "Somewhere",
            dial_mode=dial,
            timezone_offset_minutes=0,
        )
        lons = factors.longitudes
        pointer = rng.uniform(0, 360)
        root = parse(
            uranian_dial_svg(
                uranian_positions(lons, dial),
                midpoints(lons, dial),
                dial=dial,
                orb_max=1.0,
                pointer_deg=pointer,
            )
        )
        groups = body_groups(root)
        assert len(groups) == 22
        for group in groups:
            longitude = float(group.get("data-longitude", "nan"))
            tick = next(iter(group.iter(f"{SVG_NS}line")))
            drawn = ((line_angle(tick) - 90.0) % 360.0) * dial / 360.0
            expected = longitude % dial
            gap = abs(drawn - expected) % dial
            assert min(gap, dial - gap) < 0.1 * dial / 360.0 * 4  # 0.1° of the drawn circle
            # highlighted exactly when within orb_max of the pointer on the dial
            d = abs(expected - pointer % dial) % dial
            hit = min(d, dial - d) <= 1.0
            glyph = next(g for g in group.iter(f"{SVG_NS}g") if g.get("class") == "glyph")
            fills = {e.get("fill") for e in glyph.iter() if e.get("fill")}
            assert ("#4B3F9E" in fills) == hit, (group.get("data-body"), d)
        touched = [c for c in root.iter(f"{SVG_NS}circle") if c.get("class") == "midpoint"]
        for circle in touched:
            mp = float(circle.get("data-longitude", "nan")) % dial
            d = abs(mp - pointer % dial) % dial
            assert min(d, dial - d) <= 1.0


def vedic_chart() -> Any:
    return sidereal_chart(
        VedicSubject(dt.date(1990, 7, 15), "14:30", 13.75, 100.5, None, "lahiri", "Asia/Bangkok")
    )


@pytest.mark.parametrize("varga", VARGAS)
def test_vedic_south_chart_puts_each_graha_in_its_varga_sign(varga: str) -> None:
    chart = vedic_chart()
    root = parse(vedic_chart_svg(chart, style="south", varga=varga))
    placement = chart.divisional_charts[varga]
    groups = body_groups(root)
    assert {g.get("data-body"): g.get("data-sign") for g in groups} == placement


def test_vedic_north_chart_counts_houses_from_the_lagna() -> None:
    chart = vedic_chart()
    root = parse(vedic_chart_svg(chart, style="north", varga="D1", language="th"))
    houses = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "house"]
    signs = ("aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio",
             "sagittarius", "capricorn", "aquarius", "pisces")  # fmt: skip
    first = chart.lagna.sign_number - 1
    assert [h.get("data-sign") for h in houses] == [signs[(first + k) % 12] for k in range(12)]
    svg = vedic_chart_svg(chart, style="north", varga="D1", language="th")
    assert "พฤ" in svg
    assert "ลั" in svg


def test_taksa_wheel_places_each_planet_in_its_direction() -> None:
    wheel = taksa_wheel(dt.date(1990, 5, 16), dt.time(19, 30), on_date=dt.date(2025, 6, 1))
    svg = taksa_wheel_svg(wheel, language="th")
    root = parse(svg)
    sectors = {g.get("data-planet"): g.get("data-position") for g in root.iter(f"{SVG_NS}g")
               if g.get("class") == "taksa"}  # fmt: skip
    assert sectors == {p.planet: p.position for p in wheel.positions}
    assert "กาลกิณี" in svg
    assert "บูรพา" in svg
    assert "วันพุธกลางคืน" in svg


def png_image(svg: str, size: int) -> Image.Image:
    image = Image.open(io.BytesIO(svg_to_png(svg, size)))
    image.load()
    return image.convert("RGB")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in image.getcolors(maxcolors=1 << 20) or []}


@pytest.mark.parametrize("size", [200, 801, 2000])
def test_png_has_the_requested_size_and_is_not_blank(size: int) -> None:
    image = png_image(natal_wheel_svg(random_chart(1)), size)
    assert image.size == (size, size)
    assert len(colours(image)) > 50


def test_png_sizes_outside_the_range_are_refused() -> None:
    svg = natal_wheel_svg(random_chart(1))
    for size in (199, 2001):
        with pytest.raises(ValueError, match="size_px"):
            svg_to_png(svg, size)


def test_themes_and_custom_colours_appear_in_the_pixels() -> None:
    chart = random_chart(2)
    light = png_image(natal_wheel_svg(chart, theme="light"), 300)
    dark = png_image(natal_wheel_svg(chart, theme="dark"), 300)
    assert light.getpixel((2, 2)) == (255, 255, 255)
    assert dark.getpixel((2, 2)) == (0x14, 0x16, 0x1F)
    custom = png_image(
        natal_wheel_svg(
            chart, colors={"primary": "#00A0FF", "background": "#FFF5E0", "foreground": "#502000"}
        ),
        400,
    )
    seen = colours(custom)
    assert custom.getpixel((2, 2)) == (0xFF, 0xF5, 0xE0)
    assert (0x00, 0xA0, 0xFF) in seen  # the angles' axes
    assert (0x50, 0x20, 0x00) in seen  # the rings


def test_thai_labels_are_in_the_svg_and_rendered_without_missing_glyph_boxes() -> None:
    wheel = taksa_wheel(dt.date(1990, 5, 16), dt.time(19, 30))
    svg = taksa_wheel_svg(wheel, language="th")
    assert "ศุกร์" in svg
    assert "มนตรี" in svg
    # Every Thai character drawn is in the bundled Thai font, so no .notdef box can be chosen;
    # and resvg, given the bundled fonts, draws the Thai label differently from what it draws
    # when the Thai font is withheld (then every Thai character is the Latin font's .notdef
    # box): the label is glyphs, not boxes.
    cmap = TTFont(font_files()[1]).getBestCmap()
    texts = re.findall(r">([^<>]+)</text>", svg)
    thai = {ch for text in texts for ch in text if "\u0e00" <= ch <= "\u0e7f"}
    assert thai
    assert all(ord(ch) in cmap for ch in thai)
    label = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200" viewBox="0 0 600 200">'
        '<rect width="600" height="200" fill="#FFFFFF"/><text x="20" y="120" font-size="60" '
        f"font-family=\"'{THAI_FAMILY}','Noto Sans'\" fill=\"#000000\">ศุกร์ มนตรี</text></svg>"
    )
    shaped = ink_mask(label, font_files())
    boxes = ink_mask(label, font_files()[:1])
    assert shaped.sum() > 1500
    assert (shaped != boxes).sum() > 0.5 * shaped.sum()


def ink_mask(svg: str, fonts: list[str]) -> Any:
    png = resvg_py.svg_to_bytes(svg_string=svg, font_files=fonts, skip_system_fonts=True)
    pixels = np.asarray(Image.open(io.BytesIO(bytes(png))).convert("L"))
    return pixels < 128


def test_every_picture_is_well_formed_and_self_contained() -> None:
    chart = random_chart(3)
    wheel = taksa_wheel(dt.date(1990, 5, 16), dt.time(19, 30))
    for svg in (
        natal_wheel_svg(chart, language="th"),
        taksa_wheel_svg(wheel),
        vedic_chart_svg(vedic_chart(), style="south"),
    ):
        root = parse(svg)
        assert root.tag == f"{SVG_NS}svg"
        assert "@font-face" in svg
        assert "data:font/ttf;base64," in svg
        assert "http://" not in svg.replace("http://www.w3.org/2000/svg", "")
        assert "href" not in svg  # nothing to fetch
