"""Aspects between points: major (Ptolemaic) and minor, configurable orbs, applying or separating.

Convention: the separation of two points is the shorter arc between their longitudes (0..180).
An aspect holds when the separation is within the orb of its exact angle; when two aspects could
hold (only with widened orbs) the tighter one is taken. Default orbs and angles are in
``data/western/aspects.json``. An aspect is *applying* when the orb is shrinking given the two
points' longitude speeds, *separating* otherwise. In a natal (or return) chart the ascendant and
midheaven move with the Earth's rotation (about a degree every four minutes; their speeds come
from Swiss Ephemeris), so an aspect to an angle applies or separates mostly by the angle's own
motion; in synastry, composite and directed charts the angles are taken as standing still.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.western import _aspect_kernel
from astro_calc.western.subject import load_data


class AspectDefinition(msgspec.Struct, frozen=True):
    name: str
    angle: float
    orb: float
    major: bool
    nature: str  # "neutral", "soft", "hard"


class Aspect(msgspec.Struct, frozen=True, gc=False):
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
_ALL_DEFINITIONS: Final = tuple(ASPECTS.values())
_MAJOR_DEFINITIONS: Final = tuple(ASPECTS[name] for name in MAJOR_ASPECTS)


def aspect_set(
    names: Iterable[str] | None = None,
    orbs: Mapping[str, float] | None = None,
    *,
    include_minor: bool = True,
) -> tuple[AspectDefinition, ...]:
    """The aspects to look for: ``names`` (default all, or only major without ``include_minor``)
    with orbs overridden per aspect by ``orbs`` (degrees, 0..15)."""
    if names is None and not orbs:
        return _ALL_DEFINITIONS if include_minor else _MAJOR_DEFINITIONS
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
    pair costs one subtraction and a short list scan; ``inside[d]`` is the one aspect whose
    window holds the whole degree [d, d + 1] with room to spare while no other window touches
    it (there the aspect and its orb need no comparison), else None."""

    def __init__(self, definitions: Sequence[AspectDefinition]) -> None:
        self.by_degree: list[tuple[AspectDefinition, ...]] = []
        self.inside: list[AspectDefinition | None] = []
        for d in range(181):
            touching = tuple(
                a for a in definitions if a.angle - a.orb <= d + 1 and a.angle + a.orb >= d
            )
            self.by_degree.append(touching)
            holds = len(touching) == 1 and (
                touching[0].angle - touching[0].orb < d - _MARGIN
                and touching[0].angle + touching[0].orb > d + 1 + _MARGIN
            )
            self.inside.append(touching[0] if holds else None)
        # The same tables as (name, angle, orb) rows, for the compiled pair loop.
        self.window_rows: list[tuple[tuple[str, float, float], ...]] = [
            tuple((a.name, a.angle, a.orb) for a in row) for row in self.by_degree
        ]
        self.inside_rows: list[tuple[str, float, float] | None] = [
            None if a is None else (a.name, a.angle, a.orb) for a in self.inside
        ]

    def match(self, separation: float) -> tuple[AspectDefinition, float] | None:
        best: tuple[AspectDefinition, float] | None = None
        for a in self.by_degree[int(separation)]:
            orb = abs(separation - a.angle)
            if orb <= a.orb and (best is None or orb < best[1]):
                best = (a, orb)
        return best


# Far above the rounding of a separation minus an angle (< 1e-13 degree): a degree counts as
# inside a window only when no rounding can take a separation in it out of the window.
_MARGIN: Final = 1e-6


_MATCHERS: dict[tuple[AspectDefinition, ...], _Matcher] = {}
# The last set asked for and its matcher: a chart asks for the same set over and over, and an
# identity check is cheaper than hashing eleven definitions for the dict.
_last: tuple[tuple[AspectDefinition, ...], _Matcher] | None = None


def matcher(definitions: tuple[AspectDefinition, ...]) -> _Matcher:
    global _last
    last = _last
    if last is not None and last[0] is definitions:
        return last[1]
    m = _MATCHERS.get(definitions)
    if m is None:
        if len(_MATCHERS) > 64:
            _MATCHERS.clear()
        m = _MATCHERS[definitions] = _Matcher(definitions)
    _last = (definitions, m)
    return m


Point = tuple[str, float, float]  # name, longitude, speed (degrees/day)

#: Whether :mod:`astro_calc.western._aspect_kernel` was compiled (mypyc; see its docstring): only
#: then does :func:`aspects_within` hand its pair loop over (the source is slower than its own).
KERNEL_COMPILED: Final = not str(_aspect_kernel.__file__).endswith(".py")


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
    if KERNEL_COMPILED:
        skip = _one_skipped_pair(points, skip_pairs)
        if skip is not None:
            return _aspect_kernel.scan_pairs(
                points if isinstance(points, list) else list(points),
                skip[0],
                skip[1],
                m.window_rows,
                m.inside_rows,
                Aspect,
            )
    by_degree, inside = m.by_degree, m.inside
    # partners[i]: the points after i that i is paired with (all of them unless a pair is
    # skipped), so the pair loop below has no per-pair skip test.
    partners = [points[i + 1 :] for i in range(len(points) - 1)]
    if skip_pairs:
        names = [point[0] for point in points]
        for pair in skip_pairs:
            ks = sorted(names.index(name) for name in pair if name in names)
            if len(ks) == 2:
                first, second = ks
                partners[first] = [
                    q for k, q in enumerate(points[first + 1 :], first + 1) if k != second
                ]
    out: list[Aspect] = []
    append = out.append
    # Inlined copy of _scan: a natal chart checks about a hundred pairs.
    for (p_name, p_lon, p_speed), rest in zip(points, partners, strict=False):
        for q_name, q_lon, q_speed in rest:
            d = (q_lon - p_lon) % 360.0
            if d <= 180.0:
                separation = d
                rate = q_speed - p_speed
            else:
                separation = 360.0 - d
                rate = p_speed - q_speed
            degree = int(separation)
            best = inside[degree]
            if best is not None:
                best_orb = separation - best.angle
                if best_orb < 0.0:
                    best_orb = -best_orb
            else:
                best_orb = 0.0
                for a in by_degree[degree]:
                    orb = separation - a.angle
                    if orb < 0.0:
                        orb = -orb
                    if orb <= a.orb and (best is None or orb < best_orb):
                        best, best_orb = a, orb
                if best is None:
                    continue
            angle = best.angle
            append(
                Aspect(
                    p_name,
                    q_name,
                    best.name,
                    angle,
                    separation,
                    best_orb,
                    (rate if separation < angle else -rate) > 0 and best_orb > 0,
                )
            )
    return out


#: :func:`_one_skipped_pair` by (point names, pairs): a chart asks with the same names each time.
_SKIPPED: dict[tuple[tuple[str, ...], frozenset[frozenset[str]]], tuple[int, int] | None] = {}


def _one_skipped_pair(
    points: Sequence[Point], skip_pairs: frozenset[frozenset[str]]
) -> tuple[int, int] | None:
    """The positions (first, second) of the one pair to skip, (-1, -1) when none is among the
    points, None when more than one is (the compiled loop skips one pair)."""
    if not skip_pairs:
        return (-1, -1)
    names = tuple([point[0] for point in points])
    key = (names, skip_pairs)
    if key in _SKIPPED:
        return _SKIPPED[key]
    found: tuple[int, int] | None = (-1, -1)
    for pair in skip_pairs:
        ks = sorted(names.index(name) for name in pair if name in names)
        if len(ks) == 2:
            if found != (-1, -1):
                found = None
                break
            found = (ks[0], ks[1])
    if len(_SKIPPED) > 256:
        _SKIPPED.clear()
    _SKIPPED[key] = found
    return found


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
