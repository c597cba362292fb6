"""Wheel geometry: where a longitude sits on the picture, and spreading crowded glyphs apart.

Conventions (the astrologers' usual wheel): the ascendant at 9 o'clock, the zodiac running
counter-clockwise. A longitude ``lon`` is drawn at the screen angle
``180 + (lon - ascendant)`` degrees, counted counter-clockwise from 3 o'clock; SVG's y axis
points down, so a point at radius ``r`` is ``(cx + r cos a, cy - r sin a)``. A dial of ``dial``
degrees (the Uranian 90, 45 or 22.5) puts 0 at 12 o'clock and runs counter-clockwise, one turn
per ``dial`` degrees: ``90 + position * 360 / dial``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

_RAD: Final = math.pi / 180.0


def wheel_angle(longitude: float, ascendant: float) -> float:
    """Screen angle (degrees, counter-clockwise from 3 o'clock) of an ecliptic longitude."""
    return (180.0 + longitude - ascendant) % 360.0


def dial_angle(position: float, dial: float) -> float:
    """Screen angle of a dial position (0 at 12 o'clock, counter-clockwise)."""
    return (90.0 + (position % dial) * 360.0 / dial) % 360.0


def point(cx: float, cy: float, radius: float, angle: float) -> tuple[float, float]:
    """The point at ``radius`` and screen ``angle`` (degrees) around (cx, cy)."""
    a = angle * _RAD
    return cx + radius * math.cos(a), cy - radius * math.sin(a)


def spread(angles: Sequence[float], min_gap: float) -> list[float]:
    """Screen angles moved apart so neighbours are at least ``min_gap`` degrees apart, each
    crowd centred on the mean of its members' true angles (order kept).

    The circle is cut at its widest empty gap; on that line, crowds are merged left to right
    (a crowd that would overlap the previous one joins it and both re-centre), which moves the
    glyphs as little as possible. ``min_gap`` shrinks when the glyphs would not fit at all.
    """
    n = len(angles)
    if n < 2:
        return [a % 360.0 for a in angles]
    min_gap = min(min_gap, 350.0 / n)
    order = sorted(range(n), key=lambda i: angles[i] % 360.0)
    ordered = [angles[i] % 360.0 for i in order]
    gaps = [(ordered[(k + 1) % n] - ordered[k]) % 360.0 for k in range(n)]
    widest = max(range(n), key=lambda k: gaps[k])
    start = (widest + 1) % n
    line: list[float] = []
    for k in range(n):
        value = ordered[(start + k) % n]
        if line and value < line[-1]:
            value += 360.0
        line.append(value)
    crowds: list[list[float]] = []  # [mean of true angles, member count]
    for value in line:
        crowds.append([value, 1.0])
        while len(crowds) > 1:
            (m1, c1), (m2, c2) = crowds[-2], crowds[-1]
            if (m2 - (c2 - 1) * min_gap / 2) - (m1 + (c1 - 1) * min_gap / 2) >= min_gap - 1e-9:
                break
            crowds[-2:] = [[(m1 * c1 + m2 * c2) / (c1 + c2), c1 + c2]]
    placed: list[float] = []
    for mean, count in crowds:
        first = mean - (count - 1) * min_gap / 2
        placed.extend(first + k * min_gap for k in range(int(count)))
    out = [0.0] * n
    for k, value in enumerate(placed):
        out[order[(start + k) % n]] = value % 360.0
    return out


def angular_distance(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d
