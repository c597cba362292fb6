"""The portal's chart layout (server-drawn SVG), the feature table of a reading page (class
codes shown as labels in English and Thai), the cost amounts and the dashboard's card."""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Any

import numpy as np
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

    rows = asyncio.run(render())
    assert [r["name"] for r in rows] == [
        "hand_type", "thumb", "lines.life", "lines.fate", "detected_hand", "fingers",
    ]  # fmt: skip
    by_name = {r["name"]: r for r in rows}
    assert (by_name["hand_type"]["value"], by_name["hand_type"]["confidence"]) == (
        "Earth hand", 87,
    )  # fmt: skip
    assert by_name["hand_type"]["code"] == "earth"  # the API's code stays beside the label
    assert by_name["thumb"]["confidence"] is None
    assert by_name["thumb"]["measures"] == [("length_to_palm", "0.61")]
    assert by_name["lines.life"]["label"] == "Lines · Life line"
    assert (by_name["lines.life"]["value"], by_name["lines.life"]["code"]) == ("Curved", "curved")
    assert by_name["lines.life"]["measures"] == [("found", "True")]
    assert (by_name["lines.fate"]["value"], by_name["lines.fate"]["confidence"]) == ("Not found", 0)
    assert by_name["lines.fate"]["code"] == "found: false"
    assert by_name["fingers"]["measures"] == [
        ("lengths_to_palm.index", "0.8"), ("lengths_to_palm.ring", "0.85"),
    ]  # fmt: skip
    assert (by_name["detected_hand"]["value"], by_name["detected_hand"]["code"]) == (
        "Right",
        None,
    )  # an unknown code (the detector says "right") is shown as it is, unlabelled


def _messages(language: str) -> dict[str, str]:
    """One language's own file (not merged with English: a Thai gap must show here)."""
    path = resources.files("astro_server.portal").joinpath(f"messages/{language}.json")
    loaded: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _line_texts() -> dict[str, set[str]]:
    """Each palm line's shapes with a text (``breaks`` is a sentence, not a line)."""
    from astro_server.features.visual.data import table

    lines = table("palm")["texts"]["lines"]
    return {line: set(texts) for line, texts in lines.items() if "missing" in texts}


def _produced_label_keys() -> set[str]:
    """Every class-code label the reading page can look up, from the code that makes them:
    ``measure_face`` and ``measure_hand`` run over 3,000 random landmark sets each (every class
    boundary is crossed: the run must reach all of the data files' classes, checked below);
    ``find_lines`` needs a photo, so its shapes are the line texts the writer requires
    (``data/palm.json``: one text per shape and ``missing``, found: false); the detector's
    hand is mediapipe's Left/Right lower-cased (``detect.py``)."""
    from astro_server.features.visual.face import measure_face
    from astro_server.features.visual.palm import measure_hand
    from astro_server.portal.visual import value_label_keys

    rng = np.random.default_rng(20261125)
    keys: set[str] = set()
    for _ in range(3000):
        keys |= value_label_keys(measure_face(rng.uniform(0, 100, (478, 2))))
        keys |= value_label_keys(measure_hand(rng.uniform(0, 100, (21, 2))))
    for line, shapes in _line_texts().items():
        keys |= value_label_keys({"lines": {line: {"found": False}}})
        for shape in shapes - {"missing"}:
            keys |= value_label_keys({"lines": {line: {"found": True, "shape": shape}}})
    for hand in ("left", "right"):
        keys |= value_label_keys({"detected_hand": hand})
    return keys


def test_every_class_code_has_a_label_in_english_and_thai() -> None:
    from astro_server.features.visual.data import table

    keys = _produced_label_keys()
    # The random run reached every class the data files name (texts and bands).
    face, palm = table("face"), table("palm")
    named = {f"vvalue.{f}.{c}" for f, texts in face["texts"].items() for c in texts}
    bands = {"brow_length": "eyebrows", "eye_spacing": "eyes", "nose_length": "nose"}
    bands["mouth_width"] = "mouth"
    named |= {f"vvalue.{f}.{c}" for b, f in bands.items() for _, c in face["thresholds"][b]}
    for feature in ("hand_type", "index_to_ring", "thumb"):
        named |= {f"vvalue.{feature}.{c}" for c in palm["texts"][feature]}
    named |= {f"vvalue.lines.{c}" for shapes in _line_texts().values() for c in shapes}
    assert named <= keys
    assert len(keys) == 38
    for language in ("en", "th"):
        messages = _messages(language)
        assert sorted(k for k in keys if k not in messages) == [], language
        # ... and no label is left for a code nothing produces any more.
        assert sorted(k for k in messages if k.startswith("vvalue.") and k not in keys) == []
    thai = _messages("th")
    assert all(any("\u0e00" <= c <= "\u0e7f" for c in thai[k]) for k in keys)  # Thai script


def _rows_in(language: str, features: dict[str, Any]) -> list[dict[str, Any]]:
    from quart import Quart, g

    from astro_server.portal import blueprint
    from astro_server.portal.visual import feature_rows

    app = Quart(__name__)
    app.register_blueprint(blueprint)

    async def render() -> list[dict[str, Any]]:
        async with app.test_request_context("/portal/visual"):
            g.portal_lang = language
            return feature_rows(features)

    return asyncio.run(render())


def test_a_face_reading_reads_in_thai_with_the_codes_kept() -> None:
    features = {
        "face_shape": {"value": "oval", "length_to_width": 1.2, "confidence": 0.9},
        "zones": {"dominant": "balanced", "upper": 0.3, "middle": 0.35, "lower": 0.35},
        "eyes": {"value": "balanced", "spacing_to_eye_width": 1.1},
        "mouth": {"value": "small", "width_to_nose": 1.2},
    }
    by_name = {r["name"]: r for r in _rows_in("th", features)}
    assert {n: (r["value"], r["code"]) for n, r in by_name.items()} == {
        "face_shape": ("รูปไข่", "oval"),
        "zones": ("ส่วนกลางและส่วนล่างสมดุล", "balanced"),
        "eyes": ("ห่างพอดี", "balanced"),  # the same code reads per feature
        "mouth": ("เล็ก", "small"),
    }
    english = {r["name"]: r["value"] for r in _rows_in("en", features)}
    assert english["zones"] == "Middle and lower balanced"
    assert english["eyes"] == "Evenly spaced"


def test_index_to_ring_shows_which_finger_is_longer_and_keeps_the_ratio() -> None:
    rows = _rows_in("en", {"index_to_ring": {"value": 0.968, "longer": "ring"}})
    assert (rows[0]["value"], rows[0]["code"]) == ("Ring finger longer", "ring")
    assert rows[0]["measures"] == [("value", "0.968")]


@pytest.mark.parametrize(
    ("micros", "shown"),
    [(0, "0.000000"), (13, "0.000013"), (999_999, "0.999999"), (1_000_000, "1.000000"),
     (2_500_001, "2.500001"), (1_234_567_890, "1,234.567890"), (-5, "-0.000005")],
)  # fmt: skip
def test_costs_are_micros_as_whole_units_with_every_digit(micros: int, shown: str) -> None:
    from astro_server.portal.visual import money

    assert money(micros) == shown
