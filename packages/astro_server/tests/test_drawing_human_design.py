"""The Human Design bodygraph picture: well-formed SVG whose data-* attributes say what the
chart says (defined centres, defined channels, each gate's activation, both columns), and a PNG
of the requested size that is not blank, in English and Thai, light and dark."""

from __future__ import annotations

import datetime as dt
import io
import random
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from astro_calc.human_design import CHANNELS, HumanDesignChart, chart_at, human_design_chart
from astro_calc.western import BirthSubject
from astro_server.drawing import svg_to_png
from astro_server.drawing.bodygraph import GATE_XY, bodygraph_svg

SVG_NS = "{http://www.w3.org/2000/svg}"


def _groups(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # noqa: S314 (our own SVG)
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == cls]


def _founder() -> HumanDesignChart:
    return human_design_chart(
        BirthSubject(
            date=dt.date(1948, 4, 9),
            time="00:14",
            latitude=45.5,
            longitude=-73.57,
            timezone="America/Montreal",
        )
    )


def test_every_gate_has_a_place_and_every_channel_is_drawn() -> None:
    assert sorted(GATE_XY) == list(range(1, 65))
    svg = bodygraph_svg(_founder())
    drawn = {g.get("data-channel") for g in _groups(svg, "channel")}
    assert drawn == {f"{a}-{b}" for a, b in CHANNELS}


@pytest.mark.parametrize("seed", range(20))
def test_the_data_attributes_say_what_the_chart_says(seed: int) -> None:
    chart = chart_at(2415020.5 + random.Random(seed).uniform(0, 73_000))
    svg = bodygraph_svg(chart)
    centres = {g.get("data-center"): g.get("data-defined") for g in _groups(svg, "center")}
    assert centres == {c.name: "true" if c.defined else "false" for c in chart.centers}
    defined = {g.get("data-channel") for g in _groups(svg, "channel")
               if g.get("data-defined") == "true"}  # fmt: skip
    assert defined == set(chart.channels)
    personality = {a.gate for a in chart.activations.personality}
    design = {a.gate for a in chart.activations.design}
    for g in _groups(svg, "gate"):
        gate = int(g.get("data-gate", "0"))
        expected = (
            "both"
            if gate in personality and gate in design
            else "personality"
            if gate in personality
            else "design"
            if gate in design
            else "none"
        )
        assert g.get("data-activation") == expected, gate
    rows = [(g.get("data-side"), g.get("data-body"), g.get("data-gate"), g.get("data-line"))
            for g in _groups(svg, "activation")]  # fmt: skip
    expected_rows = [
        (side, a.body, str(a.gate), str(a.line))
        for side in ("design", "personality")
        for a in getattr(chart.activations, side)
    ]
    assert rows == expected_rows


@pytest.mark.parametrize(("language", "theme"), [("en", "light"), ("th", "dark")])
def test_png_renders_at_the_size_asked_and_is_not_blank(language: str, theme: str) -> None:
    svg = bodygraph_svg(_founder(), language=language, theme=theme)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(svg_to_png(svg, 800))).convert("RGB")
    assert image.size == (800, 800)
    assert len(image.getcolors(maxcolors=1 << 20) or []) > 50
    if language == "th":
        assert "แมนิเฟสเตอร์" in svg
        assert "บุคลิกภาพ" in svg
    else:
        assert "Manifestor 5/1" in svg
        assert "Left Angle Cross of the Clarion 1" in svg


def test_custom_colours_are_used() -> None:
    svg = bodygraph_svg(_founder(), colors={"background": "#102030"})
    assert 'fill="#102030"' in svg
