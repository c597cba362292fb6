"""Interpretation texts and thresholds of the visual readings (JSON, en and th)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def table(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath(f"{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
