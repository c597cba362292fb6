"""English and Thai readings of a BaZi (or Saju) chart, from ``data/chinese/readings.json``.

Topics, in order: the day master (its stem), its strength, the dominant element and any missing
element of the weighted balance, the heaviest ten god (the day master excluded), and the ten god
of the current luck pillar's stem when the chart has one.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Final, Literal

import msgspec

from astro_calc.chinese.bazi import BaziChart
from astro_calc.chinese.symbols import ELEMENTS, TEN_GOD_KEYS

Topic = Literal["day_master", "strength", "element_balance", "ten_god_emphasis", "luck_pillar"]

_STEM_KEYS: Final = ("jia", "yi", "bing", "ding", "wu", "ji", "geng", "xin", "ren", "gui")


class Reading(msgspec.Struct, frozen=True):
    topic: Topic
    key: str
    en: str
    th: str


def _load() -> dict[str, dict[str, str]]:
    path = resources.files("astro_calc").joinpath("data/chinese/readings.json")
    data: dict[str, dict[str, str]] = json.loads(path.read_text("utf-8"))
    data.pop("_about", None)
    return data


TEXTS: Final = _load()


def producible_keys() -> frozenset[str]:
    """Every key :func:`bazi_readings` can produce."""
    keys = {f"day_master.{k}" for k in _STEM_KEYS}
    keys |= {f"strength.{v}" for v in ("strong", "balanced", "weak")}
    keys |= {f"element.{kind}.{e}" for kind in ("dominant", "missing") for e in ELEMENTS}
    keys |= {f"{prefix}.{t}" for prefix in ("ten_god", "luck") for t in TEN_GOD_KEYS}
    return frozenset(keys)


def _reading(topic: Topic, key: str) -> Reading:
    text = TEXTS[key]
    return Reading(topic, key, text["en"], text["th"])


def bazi_readings(chart: BaziChart) -> tuple[Reading, ...]:
    """Readings for a chart in both languages (texts written for this project)."""
    out = [
        _reading("day_master", f"day_master.{_STEM_KEYS[chart.day_master.index]}"),
        _reading("strength", f"strength.{chart.strength.verdict}"),
        _reading("element_balance", f"element.dominant.{chart.element_balance.dominant}"),
    ]
    out.extend(
        _reading("element_balance", f"element.missing.{e}") for e in chart.element_balance.missing
    )
    out.append(_reading("ten_god_emphasis", f"ten_god.{chart.ten_gods[0].ten_god.key}"))
    current = chart.current_luck_pillar
    if current is not None and current.pillar.stem_ten_god is not None:
        out.append(_reading("luck_pillar", f"luck.{current.pillar.stem_ten_god.key}"))
    return tuple(out)
