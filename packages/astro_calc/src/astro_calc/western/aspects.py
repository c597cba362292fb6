"""Aspects between points: major (Ptolemaic) and minor, configurable orbs, applying or separating.

Convention: the separation of two points is the shorter arc between their longitudes (0..180).
An aspect holds when the separation is within the orb of its exact angle; when two aspects could
hold (only with widened orbs) the tighter one is taken. Default orbs and angles are in
``data/western/aspects.json``. An aspect is *applying* when the orb is shrinking given the two
points' longitude speeds (angles and other fixed points have speed 0), *separating* otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.western.subject import load_data


class AspectDefinition(msgspec.Struct, frozen=True):
    name: str
    angle: float
    orb: float
    major: bool
    nature: str  # "neutral", "soft", "hard"


class Aspect(msgspec.Struct, frozen=True):
    """``orb`` is the distance from exact in degrees; ``separation`` the shorter arc between the
    two longitudes."""

    body1: str
    body2: str
    aspect: str
    aspect_angle: float
    separation: float
    orb: float
    applying: bool


def _definitions() -> dict[str, AspectDefinition]:
    raw = load_data("western", "aspects.json")["aspects"]
    return {
        name: AspectDefinition(
            name, float(v["angle"]), float(v["orb"]), bool(v["major"]), v["nature"]
        )
        for name, v in raw.items()
    }


ASPECTS: Final[dict[str, AspectDefinition]] = _definitions()
MAJOR_ASPECTS: Final = tuple(n for n, d in ASPECTS.items() if d.major)
ALL_ASPECTS: Final = tuple(ASPECTS)


def aspect_set(
    names: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    *,
    include_minor: bool = True,
) -> tuple[AspectDefinition, ...]:
    """The aspects to look for: ``names`` (default all, or only major without ``include_minor``)
    with orbs overridden per aspect by ``orbs`` (degrees, 0..15)."""
    chosen = (
        tuple(names) if names is not None else (ALL_ASPECTS if include_minor else MAJOR_ASPECTS)
    )
    out = []
    for name in chosen:
        if name not in ASPECTS:
            raise CalcInputError("aspects", f"unknown aspect {name!r}; one of {', '.join(ASPECTS)}")
        out.append(ASPECTS[name])
    for name, orb in (orbs or {}).items():
        if name not in ASPECTS:
            raise CalcInputError("orbs", f"unknown aspect {name!r}; one of {', '.join(ASPECTS)}")
        if not 0.0 <= orb <= 15.0:
            raise CalcInputError("orbs", f"orb of {name} must be between 0 and 15 degrees")
    if orbs:
        out = [
            msgspec.structs.replace(d, orb=float(orbs[d.name])) if d.name in orbs else d
            for d in out
        ]
    return tuple(out)


class _Matcher:
    """Lookup by whole degree of separation -> the aspects whose orb window touches it, so a
    pair costs one subtraction and a short list scan."""

    def __init__(self, definitions: Sequence[AspectDefinition]) -> None:
        self.by_degree: list[tuple[AspectDefinition, ...]] = []
        for d in range(181):
            self.by_degree.append(
                tuple(a for a in definitions if a.angle - a.orb <= d + 1 and a.angle + a.orb >= d)
            )

    def match(self, separation: float) -> tuple[AspectDefinition, float] | None:
        best: tuple[AspectDefinition, float] | None = None
        for a in self.by_degree[int(separation)]:
            orb = abs(separation - a.angle)
            if orb <= a.orb and (best is None or orb < best[1]):
                best = (a, orb)
        return best


_MATCHERS: dict[tuple[AspectDefinition, ...], _Matcher] = {}


def matcher(definitions: tuple[AspectDefinition, ...]) -> _Matcher:
    m = _MATCHERS.get(definitions)
    if m is None:
        if len(_MATCHERS) > 64:
            _MATCHERS.clear()
        m = _MATCHERS[definitions] = _Matcher(definitions)
    return m


Point = tuple[str, float, float]  # name, longitude, speed (degrees/day)


def _scan(m: _Matcher, p: Point, q: Point, out: list[Aspect]) -> None:
    # Inlined for speed: a natal chart checks about a hundred pairs.
    d = (q[1] - p[1]) % 360.0
    forward = d <= 180.0
    separation = d if forward else 360.0 - d
    candidates = m.by_degree[int(separation)]
    if not candidates:
        return
    best: AspectDefinition | None = None
    best_orb = 0.0
    for a in candidates:
        orb = separation - a.angle
        if orb < 0.0:
            orb = -orb
        if orb <= a.orb and (best is None or orb < best_orb):
            best, best_orb = a, orb
    if best is None:
        return
    # d(separation)/dt = +-(speed_q - speed_p); the orb shrinks when the separation moves
    # toward the exact angle.
    rate = (q[2] - p[2]) if forward else (p[2] - q[2])
    toward = rate if separation < best.angle else -rate
    out.append(
        Aspect(p[0], q[0], best.name, best.angle, separation, best_orb, toward > 0 and best_orb > 0)
    )


def aspects_within(
    points: Sequence[Point],
    definitions: tuple[AspectDefinition, ...],
    *,
    skip_pairs: frozenset[frozenset[str]] = frozenset(),
) -> list[Aspect]:
    """Aspects among one set of points (each unordered pair once, in input order)."""
    m = matcher(definitions)
    out: list[Aspect] = []
    n = len(points)
    skip: set[tuple[int, int]] = set()
    if skip_pairs:
        index = {point[0]: k for k, point in enumerate(points)}
        for pair in skip_pairs:
            ks = sorted(index[name] for name in pair if name in index)
            if len(ks) == 2:
                skip.add((ks[0], ks[1]))
    by_degree = m.by_degree
    for i in range(n):
        p_name, p_lon, p_speed = points[i]
        for j in range(i + 1, n):
            if skip and (i, j) in skip:
                continue
            q_name, q_lon, q_speed = points[j]
            # Inlined copy of _scan: a natal chart checks about a hundred pairs.
            d = (q_lon - p_lon) % 360.0
            forward = d <= 180.0
            separation = d if forward else 360.0 - d
            candidates = by_degree[int(separation)]
            if not candidates:
                continue
            best: AspectDefinition | None = None
            best_orb = 0.0
            for a in candidates:
                orb = separation - a.angle
                if orb < 0.0:
                    orb = -orb
                if orb <= a.orb and (best is None or orb < best_orb):
                    best, best_orb = a, orb
            if best is None:
                continue
            rate = (q_speed - p_speed) if forward else (p_speed - q_speed)
            toward = rate if separation < best.angle else -rate
            out.append(
                Aspect(
                    p_name,
                    q_name,
                    best.name,
                    best.angle,
                    separation,
                    best_orb,
                    toward > 0 and best_orb > 0,
                )
            )
    return out


def aspects_between(
    first: Sequence[Point], second: Sequence[Point], definitions: tuple[AspectDefinition, ...]
) -> list[Aspect]:
    """Aspects from every point of ``first`` to every point of ``second`` (``body1`` is always
    from ``first``)."""
    m = matcher(definitions)
    out: list[Aspect] = []
    for p in first:
        for q in second:
            _scan(m, p, q, out)
    return out
