"""The suite's size of a check against its drill's: a few tests run at full volume only as drills.

``benchmarks/drills/*.py`` run test modules of the suite with ``ASTRO_TEST_DRILL=1`` (and their
own throwaway PostgreSQL, Redis and S3 server): there a fault drill kills a worker in the middle
of twelve jobs instead of three, the fuzzer sends 25 examples per operation instead of 5, the
backup/restore drill runs on both file stores. The suite runs the same code at the smaller size,
so it still proves the property on every run; the drill adds the volume.
"""

from __future__ import annotations

import os

DRILL = os.environ.get("ASTRO_TEST_DRILL") == "1"


def volume(suite: int, drill: int) -> int:
    """``drill`` under ``ASTRO_TEST_DRILL=1`` (benchmarks/drills/), else ``suite``."""
    return drill if DRILL else suite
