"""The aspect search's pair loop in a form mypyc compiles (optional; issue 48).

:func:`astro_calc.western.aspects.aspects_within` is the one definition of the search. This
module is the same loop, typed so that mypyc can turn it into C: compiled it takes the natal
chart's aspect search from about 32 to 10 microseconds (the chart from 1.36x to 1.24x the raw
pyswisseph floor, measured 2026-12-08 at load 5.3). Nothing compiles it by default; when a
compiled copy sits beside this file (Python imports the extension module before the source),
:mod:`astro_calc.western.aspects` uses it, else it keeps its own loop (this source run by the
interpreter is a little slower than that loop). Build it in place, with the project's mypy
(from ``packages/astro_calc/src``):

    uv run --with setuptools mypyc --config-file /dev/null astro_calc/western/_aspect_kernel.py
    rm -r build

(the empty config keeps the workspace's mypy plugins out of the build; ``build/`` holds the
generated C, which the workspace's mypy would otherwise check). It leaves two
``astro_calc/western/_aspect_kernel*.so`` files (ignored by git); delete them to go back to pure
Python. Results are identical either way (the same
arithmetic in the same order; ``tests/test_western_aspect_kernel.py`` compares this loop, as
source and compiled when built, with ``aspects_within`` on random charts and orbs, and
``tests/test_western_natal_equality.py`` runs whichever is in use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Point = tuple[str, float, float]  # name, longitude, speed (degrees/day)
Window = tuple[str, float, float]  # aspect name, exact angle, orb (degrees)


def scan_pairs(
    points: list[Point],
    skip_first: int,
    skip_second: int,
    by_degree: list[tuple[Window, ...]],
    inside: list[Window | None],
    make: Callable[..., Any],
) -> list[Any]:
    """``aspects_within``'s pair loop: every pair ``i < j`` of ``points`` except
    ``(skip_first, skip_second)``, ``by_degree``/``inside`` as the matcher's tables (as
    ``(name, angle, orb)`` rows), each aspect found built by ``make`` with ``Aspect``'s fields."""
    out: list[Any] = []
    n = len(points)
    for i in range(n - 1):
        p = points[i]
        p_name = p[0]
        p_lon = p[1]
        p_speed = p[2]
        for j in range(i + 1, n):
            if i == skip_first and j == skip_second:
                continue
            q = points[j]
            d = (q[1] - p_lon) % 360.0
            if d <= 180.0:
                separation = d
                rate = q[2] - p_speed
            else:
                separation = 360.0 - d
                rate = p_speed - q[2]
            degree = int(separation)
            window = inside[degree]
            best_name = ""
            best_angle = 0.0
            best_orb = 0.0
            if window is not None:
                best_name = window[0]
                best_angle = window[1]
                best_orb = separation - best_angle
                if best_orb < 0.0:
                    best_orb = -best_orb
            else:
                found = False
                for candidate in by_degree[degree]:
                    orb = separation - candidate[1]
                    if orb < 0.0:
                        orb = -orb
                    if orb <= candidate[2] and (not found or orb < best_orb):
                        found = True
                        best_name = candidate[0]
                        best_angle = candidate[1]
                        best_orb = orb
                if not found:
                    continue
            out.append(
                make(
                    p_name,
                    q[0],
                    best_name,
                    best_angle,
                    separation,
                    best_orb,
                    (rate if separation < best_angle else -rate) > 0 and best_orb > 0,
                )
            )
    return out
