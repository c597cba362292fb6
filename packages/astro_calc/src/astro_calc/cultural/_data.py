"""Loading of the cultural data files (``astro_calc/data/cultural/*.json``), once each."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed data file ``data/cultural/<name>.json``."""
    path = resources.files("astro_calc.data").joinpath(f"cultural/{name}.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data
