"""The zodiacal releasing timeline picture: well-formed SVG, one data-tagged box per period in the
window, peaks and the loosing of the bond marked, en and th titles from the glossary, a PNG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date

import pytest

from astro_calc.western.subject import BirthSubject
from astro_calc.western.traditional import zodiacal_releasing
from astro_server.drawing.png import svg_to_png
from astro_server.drawing.releasing import releasing_timeline_svg

NS = "{http://www.w3.org/2000/svg}"
AKIHITO = BirthSubject(date(1933, 12, 23), "06:39", 35.6895, 139.6917, timezone_offset_minutes=540)


@pytest.fixture(scope="module")
def releasing():  # type: ignore[no-untyped-def]
    return zodiacal_releasing(AKIHITO, levels=2, start=date(1933, 12, 23), end=date(2019, 4, 30))


def test_every_period_is_a_tagged_box(releasing) -> None:  # type: ignore[no-untyped-def]
    root = ET.fromstring(releasing_timeline_svg(releasing))  # noqa: S314 (our own SVG)
    boxes = [r for r in root.iter(f"{NS}rect") if r.get("data-level")]
    assert len(boxes) == len(releasing.periods)
    first = boxes[0]
    assert (first.get("data-level"), first.get("data-sign")) == ("1", "pisces")
    # The birth was 21:39 UTC on 22 December: the window (from 23 December) clips the start.
    assert first.get("data-start") == "1933-12-23T00:00:00Z"
    peaks = {
        r.get("data-sign")
        for r in boxes
        if r.get("data-level") == "1" and r.get("data-peak") == "true"
    }
    assert peaks == {"aries", "cancer"}  # 7th and 10th from Fortune in Libra
    loosed = [r for r in boxes if r.get("data-loosing") == "true"]
    assert loosed
    assert all(r.get("data-level") == "2" for r in loosed)


@pytest.mark.parametrize(("language", "title"), [("en", "Zodiacal"), ("th", "ล็อตแห่งจิตวิญญาณ")])
def test_titles_come_from_the_glossary(releasing, language: str, title: str) -> None:  # type: ignore[no-untyped-def]
    root = ET.fromstring(releasing_timeline_svg(releasing, language=language))  # type: ignore[arg-type]  # noqa: S314
    found = root.find(f"{NS}title")
    assert found is not None
    assert title in (found.text or "")


def test_the_png_renders(releasing) -> None:  # type: ignore[no-untyped-def]
    png = svg_to_png(releasing_timeline_svg(releasing, theme="dark"), 400)
    assert png.startswith(b"\x89PNG")
