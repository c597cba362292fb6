"""The Zi Wei chart picture (astro_server.drawing.ziwei): a well-formed SVG with one group per
palace and one mark per star carrying its data, the chart's labels in its language, the bundled
fonts (the CJK subset only for Chinese), and a PNG of the asked size."""

from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET
from datetime import date, time

import pytest

from astro_calc.chinese.ziwei import ZiweiChart, ziwei_chart
from astro_server.drawing.ziwei import CJK_FAMILY, cjk_font_file, ziwei_chart_png, ziwei_chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 (our own picture)


def _chart(language: str = "en") -> ZiweiChart:
    return ziwei_chart(
        date(2000, 8, 16),
        time(4, 0),
        "female",
        on_date=date(2026, 12, 8),
        language=language,  # type: ignore[arg-type]
    )


def test_every_palace_and_star_is_marked_with_its_data() -> None:
    chart = _chart()
    root = _parse(ziwei_chart_svg(chart))
    groups = root.findall(f"{SVG}g[@data-palace]")
    assert sorted(g.get("data-palace") for g in groups) == sorted(p.name for p in chart.palaces)
    for group, palace in zip(
        sorted(groups, key=lambda g: g.get("data-palace") or ""),
        sorted(chart.palaces, key=lambda p: p.name),
        strict=True,
    ):
        assert (group.get("data-branch"), group.get("data-stem")) == (palace.branch, palace.stem)
        marks = [
            (t.get("data-star"), t.get("data-kind"))
            for t in group.iter(f"{SVG}text")
            if t.get("data-star")
        ]
        expected = [
            *((s.name, "major") for s in palace.major_stars),
            *((s.name, "minor") for s in palace.minor_stars),
            *((s.name, "adjective") for s in palace.adjective_stars),
        ]
        assert marks == expected
    ziwei = root.find(f".//{SVG}text[@data-star='ziwei']")
    assert ziwei is not None
    assert (ziwei.get("data-brightness"), ziwei.get("data-transformation")) == ("miao", "")
    sun = root.find(f".//{SVG}text[@data-star='taiyang']")
    assert sun is not None
    assert sun.get("data-transformation") == "lu"
    assert (root.get("data-life-palace"), root.get("data-body-palace")) == ("wu", "xu")


@pytest.mark.parametrize(
    ("language", "life", "title"),
    [("en", "Life", "Zi Wei Dou Shu"), ("th", "วังชีวิต", "จื่อเวยโต้วซู่"), ("zh", "命宫", "紫微斗数"),
     ("zh-Hant", "命宮", "紫微斗數")],
)  # fmt: skip
def test_labels_are_in_the_chart_language_with_the_fonts_it_needs(
    language: str, life: str, title: str
) -> None:
    svg = ziwei_chart_svg(_chart(language))
    root = _parse(svg)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert life in texts
    assert title in texts
    assert (CJK_FAMILY in svg) == language.startswith("zh")
    assert ("Noto Looped Thai" in svg.split("</style>")[0]) == (language == "th")


def test_the_cjk_subset_covers_every_chinese_character_the_picture_writes() -> None:
    from fontTools.ttLib import TTFont

    cmap = TTFont(cjk_font_file()).getBestCmap()
    for language in ("zh", "zh-Hant"):
        root = _parse(ziwei_chart_svg(_chart(language)))
        written = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
        missing = {c for c in written if not c.isascii() and ord(c) not in cmap}
        assert missing == set(), language


def test_the_png_is_the_asked_size() -> None:
    png = ziwei_chart_png(_chart("zh"), size_px=800)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", io.BytesIO(png).getbuffer()[16:24])
    assert (width, height) == (800, 800)


def test_a_chart_without_horoscope_and_a_dark_theme_draw() -> None:
    chart = ziwei_chart(date(1984, 2, 2), time(23, 30), "male", language="th")
    root = _parse(ziwei_chart_svg(chart, theme="dark", colors={"primary": "#AA3366"}))
    assert len(root.findall(f"{SVG}g[@data-palace]")) == 12
    with pytest.raises(ValueError, match="primary"):
        ziwei_chart_svg(chart, colors={"primary": "red"})
