"""The portal's chart layout (server-drawn SVG) and the feature table of a reading page."""

from __future__ import annotations

import pytest

from astro_server.portal import charts


@pytest.mark.parametrize(
    ("value", "top"),
    [(0, 1), (0.3, 0.5), (1, 1), (1.01, 2), (2, 2), (2.5, 5), (7, 10), (10, 10), (11, 20),
     (499, 500), (501, 1000)],
)  # fmt: skip
def test_the_axis_top_is_the_next_1_2_5_step(value: float, top: float) -> None:
    assert charts.nice_top(value) == pytest.approx(top)


def test_bars_are_proportional_and_grouped_per_category() -> None:
    days = ["2026-11-23", "2026-11-24", "2026-11-25"]
    chart = charts.bars(
        days, [("palm", [0, 2, 1]), ("face", [4, 0, 3])], short={d: d[5:] for d in days}
    )
    left, top, right, bottom = chart.plot
    assert [t.label for t in chart.ticks] == ["0", "2.5", "5"]  # 4 -> axis top 5
    heights = [b.height for b in chart.bars]
    span = bottom - top
    assert heights == pytest.approx([0, span * 4 / 5, span * 2 / 5, 0, span / 5, span * 3 / 5])
    assert all(b.y + b.height == pytest.approx(bottom) for b in chart.bars)  # from the baseline
    # Each day's pair sits inside its own band, in series order.
    band = (right - left) / 3
    for i in range(3):
        pair = chart.bars[2 * i : 2 * i + 2]
        assert left + band * i <= pair[0].x < pair[1].x < left + band * (i + 1)
    assert chart.bars[3].label == "2026-11-24, face: 0"
    assert [t.label for t in chart.labels] == ["11-23", "11-24", "11-25"]
    assert [name for _, name in chart.legend] == ["palm", "face"]


def test_counts_get_whole_gridlines_and_long_windows_fewer_labels() -> None:
    days = [f"d{i}" for i in range(30)]
    chart = charts.bars(days, [("jobs", [0.0] * 29 + [1.0])])
    assert [t.label for t in chart.ticks] == ["0", "1", "2"]
    assert len(chart.labels) <= charts.MAX_X_LABELS


def test_horizontal_bars_write_their_values() -> None:
    chart = charts.hbars(["Palm", "Face"], [("jobs", [0, 1]), ("credits", [0, 5])])
    left, _, right, _ = chart.plot
    assert [b.value for b in chart.bars] == ["0", "0", "1", "5"]
    assert chart.bars[3].width == pytest.approx(right - left)
    assert chart.bars[2].width == pytest.approx((right - left) / 5)


def test_feature_rows_follow_the_sections_and_split_groups() -> None:
    from quart import Quart

    from astro_server.portal import blueprint
    from astro_server.portal.visual import feature_rows

    app = Quart(__name__)
    app.register_blueprint(blueprint)
    features = {
        "thumb": {"class": "long", "length_to_palm": 0.61},
        "hand_type": {"value": "earth", "confidence": 0.87},
        "lines": {
            "life": {"found": True, "shape": "curved", "confidence": 0.5},
            "fate": {"found": False, "confidence": 0.0},
        },
        "fingers": {"lengths_to_palm": {"index": 0.8, "ring": 0.85}, "class": "short"},
        "detected_hand": "Right",
    }
    order = ["hand_type", "thumb", "lines.life", "lines.fate"]

    async def render() -> list[dict[str, object]]:
        async with app.test_request_context("/portal/visual"):
            return feature_rows(features, order)

    import asyncio

    rows = asyncio.run(render())
    assert [r["name"] for r in rows] == [
        "hand_type", "thumb", "lines.life", "lines.fate", "detected_hand", "fingers",
    ]  # fmt: skip
    by_name = {r["name"]: r for r in rows}
    assert (by_name["hand_type"]["value"], by_name["hand_type"]["confidence"]) == ("earth", 87)
    assert by_name["thumb"]["confidence"] is None
    assert by_name["thumb"]["measures"] == [("length_to_palm", "0.61")]
    assert by_name["lines.life"]["label"] == "Lines · Life line"
    assert by_name["lines.life"]["value"] == "curved"  # the class before "found"
    assert by_name["lines.life"]["measures"] == [("found", "True")]
    assert (by_name["lines.fate"]["value"], by_name["lines.fate"]["confidence"]) == ("False", 0)
    assert by_name["fingers"]["measures"] == [
        ("lengths_to_palm.index", "0.8"), ("lengths_to_palm.ring", "0.85"),
    ]  # fmt: skip
    assert by_name["detected_hand"]["value"] == "Right"
