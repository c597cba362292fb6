"""The relocated chart: the natal chart's instant cast for another place, and what moved.

Conventions
-----------
* The instant is the birth's (resolved from the subject's local time at the birth place); only
  the place changes, so the bodies' longitudes, signs and aspects between bodies stay as they
  were, and the angles, house cusps and the bodies' houses move (the chart is
  :func:`astro_calc.western.natal.chart_for_instant` at the new place, with the zone found from
  the new coordinates for its local clock).
* ``angles``: the four angles at birth and relocated, with the shift (relocated minus natal,
  degrees of longitude, -180..180) and whether the sign changed.
* ``house_changes``: the bodies whose house differs (same house system).
* ``lines``: the astrocartography lines (in mundo, :mod:`astro_calc.western.astrocartography`)
  passing within ``line_orb_km`` of the new place, nearest first; the distance is the shortest
  distance on the sphere (mean radius 6371.0088 km) from the place to the line.
* Interpretations (``language`` en/th): each near line ("Venus on the Descendant line"), the
  relocated Ascendant and Midheaven signs (the natal texts of those signs), and each planet
  that changed house (the natal texts of the new house).

Checked against: the natal chart cast directly at the new place (``natal_chart`` with the
same UTC instant), body for body and cusp for cusp, in ``tests/test_western_relocation.py``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from functools import cache
from typing import Any, Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.interpretations import Basis, Interpretations, Item, Language, Level, check, fill
from astro_calc.western import interpretation as natal_texts
from astro_calc.western.astrocartography import (
    DEFAULT_ACG_BODIES,
    AcgLine,
    AngleName,
    Astrocartography,
    astrocartography_at,
)
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    PLANETS,
    AnglePoint,
    NatalChart,
    chart_at,
    check_house_system,
)
from astro_calc.western.subject import (
    BirthSubject,
    check_location,
    instant_time,
    load_data,
    resolve_subject,
)

EARTH_RADIUS_KM: Final = 6371.0088
DEFAULT_LINE_ORB_KM: Final = 700.0
MAX_LINE_ORB_KM: Final = 2000.0
AngleField = Literal["ascendant", "midheaven", "descendant", "imum_coeli"]
ANGLE_FIELDS: Final[tuple[AngleField, ...]] = (
    "ascendant",
    "midheaven",
    "descendant",
    "imum_coeli",
)
_TEXT_BODY: Final = {"mean_node": "node", "true_node": "node"}


class AngleShift(msgspec.Struct, frozen=True, gc=False):
    angle: AngleField
    natal: AnglePoint
    relocated: AnglePoint
    shift_deg: float
    sign_changed: bool


class HouseChange(msgspec.Struct, frozen=True, gc=False):
    body: str
    natal_house: int
    relocated_house: int


class NearLine(msgspec.Struct, frozen=True, gc=False):
    """An astrocartography line near the new place: ``distance_km`` from it, the nearest point
    of the line."""

    body: str
    angle: AngleName
    distance_km: float
    nearest: tuple[float, float]


class Relocation(msgspec.Struct, frozen=True):
    """``chart``: the natal chart's answer cast at the new place; the natal place and what moved;
    ``interpretations`` when a language was asked for."""

    chart: NatalChart
    natal_latitude: float
    natal_longitude: float
    angles: tuple[AngleShift, ...]
    house_changes: tuple[HouseChange, ...]
    lines: tuple[NearLine, ...]
    interpretations: Interpretations | None = None


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Distance on the sphere (haversine) in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2.0 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def _to_vector(lat: float, lon: float) -> tuple[float, float, float]:
    p, lam = math.radians(lat), math.radians(lon)
    return (math.cos(p) * math.cos(lam), math.cos(p) * math.sin(lam), math.sin(p))


def distance_to_line_km(
    latitude: float, longitude: float, line: AcgLine
) -> tuple[float, float, float]:
    """Shortest distance from a place to a line (each piece between two points taken as the
    great-circle arc joining them, under 2 degrees long), and the nearest point."""
    best = (math.inf, 0.0, 0.0)
    px, py, pz = _to_vector(latitude, longitude)
    pts = line.points
    for a, b in itertools.pairwise(pts):
        ax, ay, az = _to_vector(a.latitude, a.longitude)
        bx, by, bz = _to_vector(b.latitude, b.longitude)
        # normal of the arc's great circle
        nx, ny, nz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        norm = math.sqrt(nx * nx + ny * ny + nz * nz)
        candidates = [(a.latitude, a.longitude), (b.latitude, b.longitude)]
        if norm > 1e-15:
            nx, ny, nz = nx / norm, ny / norm, nz / norm
            d = px * nx + py * ny + pz * nz
            qx, qy, qz = px - d * nx, py - d * ny, pz - d * nz
            q = math.sqrt(qx * qx + qy * qy + qz * qz)
            if q > 1e-15:
                qx, qy, qz = qx / q, qy / q, qz / q
                # q lies on the arc when it is between a and b
                ab = ax * bx + ay * by + az * bz
                if ax * qx + ay * qy + az * qz >= ab and bx * qx + by * qy + bz * qz >= ab:
                    candidates.append(
                        (math.degrees(math.asin(max(-1.0, min(1.0, qz)))),
                         math.degrees(math.atan2(qy, qx)))
                    )  # fmt: skip
        for lat, lon in candidates:
            dist = great_circle_km(latitude, longitude, lat, lon)
            if dist < best[0]:
                best = (dist, lat, lon)
    return best


@cache
def texts(language: Language) -> dict[str, Any]:
    """The astrocartography texts of a language (``data/western/astrocartography/<lang>.json``)."""
    return load_data("western", f"astrocartography/{language}.json")


def _line_item(body: str, angle: str, title: str, language: Language, level: Level) -> Item | None:
    data = texts(language)
    key_body = _TEXT_BODY.get(body, body)
    entry = data["lines"].get(key_body, {}).get(angle)
    if entry is None:
        return None
    text = entry["summary"] if level == "summary" else f"{entry['summary']} {entry['detail']}"
    return Item(f"acg_line.{body}.{angle}", "lines", title, text, Basis(body=body, angle=angle))


def line_interpretations(
    acg: Astrocartography, *, language: Language = "en", level: Level = "summary"
) -> Interpretations:
    """One text per body and angle of an astrocartography result ("Venus on the Descendant
    line": what living or travelling near that line brings), in the result's line order; bodies
    without a text (Lilith, Chiron) are skipped. Keys ``acg_line.<body>.<angle>``."""
    check(language, level)
    data = texts(language)
    items: list[Item] = []
    seen: set[tuple[str, str]] = set()
    for line in acg.lines:
        if (line.body, line.angle) in seen:
            continue
        seen.add((line.body, line.angle))
        key_body = _TEXT_BODY.get(line.body, line.body)
        if key_body not in data["bodies"]:
            continue
        title = fill(
            data["titles"]["line_plain"],
            {"body": data["bodies"][key_body], "angle": data["angles"][line.angle]},
        )
        item = _line_item(line.body, line.angle, title, language, level)
        if item is not None:
            items.append(item)
    return Interpretations(language, level, tuple(items))


def _angle_shift(field: AngleField, natal: NatalChart, moved: NatalChart) -> AngleShift:
    a: AnglePoint = getattr(natal.angles, field)
    b: AnglePoint = getattr(moved.angles, field)
    return AngleShift(field, a, b, ephemeris.angle_diff(b.longitude, a.longitude), a.sign != b.sign)


def _items(
    lines: Iterable[NearLine],
    moved: NatalChart,
    changes: Iterable[HouseChange],
    language: Language,
    level: Level,
) -> tuple[Item, ...]:
    data = texts(language)
    natal_data = natal_texts.texts(language)
    names = natal_data["names"]
    items: list[Item] = []
    for line in lines:
        key_body = _TEXT_BODY.get(line.body, line.body)
        if key_body not in data["bodies"]:
            continue
        values = {
            "body": data["bodies"][key_body],
            "angle": data["angles"][line.angle],
            "distance_km": f"{line.distance_km:.0f}",
        }
        title = fill(data["titles"]["line"], values)
        item = _line_item(line.body, line.angle, title, language, level)
        if item is not None:
            items.append(item)
    for field in ("ascendant", "midheaven"):
        sign = getattr(moved.angles, field).sign
        entry = natal_data["angles"][field][sign]
        text = entry["summary"] if level == "summary" else f"{entry['summary']} {entry['detail']}"
        items.append(
            Item(
                f"relocated_angle.{field}",
                "angles",
                fill(data["titles"][field], {"sign": names["signs"][sign]}),
                text,
                Basis(angle=field, sign=sign),
            )
        )
    for change in changes:
        if change.body not in PLANETS:
            continue
        entry = natal_data["planet_house"][change.body][str(change.relocated_house)]
        values = {
            "planet": names["planets"][change.body],
            "house": names["houses"][str(change.relocated_house)],
        }
        summary = fill(entry["summary"], values)
        text = summary if level == "summary" else f"{summary} {fill(entry['detail'], values)}"
        items.append(
            Item(
                f"relocated_house.{change.body}",
                "houses",
                fill(
                    data["titles"]["house"],
                    {
                        "body": data["bodies"][change.body],
                        "natal_house": names["houses"][str(change.natal_house)],
                        "house": names["houses"][str(change.relocated_house)],
                    },
                ),
                text,
                Basis(body=change.body, house=change.relocated_house),
            )
        )
    return tuple(items)


def relocation(
    subject: BirthSubject,
    latitude: float,
    longitude: float,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    line_bodies: Iterable[str] | None = None,
    line_orb_km: float = DEFAULT_LINE_ORB_KM,
    language: Language | None = None,
    level: Level = "summary",
) -> Relocation:
    """The natal chart of ``subject`` cast for (``latitude``, ``longitude``) at the same
    instant, with what moved (see the module docstring). ``line_bodies`` are the bodies whose
    astrocartography lines are looked for near the place (default
    :data:`astro_calc.western.astrocartography.DEFAULT_ACG_BODIES`), within ``line_orb_km``
    (0..2000, default 700). ``language`` (en/th) adds the interpretations at ``level``."""
    check_location(latitude, longitude)
    check_house_system(house_system)
    if not 0.0 <= line_orb_km <= MAX_LINE_ORB_KM:
        raise CalcInputError("line_orb_km", f"must be between 0 and {MAX_LINE_ORB_KM:g}")
    if language is not None:
        check(language, level)
    echo = resolve_subject(subject)
    chosen = tuple(bodies)
    natal = chart_at(
        echo, subject.latitude, subject.longitude, house_system=house_system, bodies=chosen
    )
    moved_echo = instant_time(echo.utc, latitude, longitude)
    moved = chart_at(moved_echo, latitude, longitude, house_system=house_system, bodies=chosen)
    angles = tuple(_angle_shift(f, natal, moved) for f in ANGLE_FIELDS)
    natal_houses = {p.name: p.house for p in natal.planets}
    changes = tuple(
        HouseChange(p.name, natal_houses[p.name], p.house)
        for p in moved.planets
        if natal_houses.get(p.name) not in (None, p.house)
    )
    acg = astrocartography_at(
        echo,
        subject.latitude,
        subject.longitude,
        bodies=DEFAULT_ACG_BODIES if line_bodies is None else line_bodies,
    )
    nearest: dict[tuple[str, str], NearLine] = {}
    for line in acg.lines:
        dist, lat, lon = distance_to_line_km(latitude, longitude, line)
        key = (line.body, line.angle)
        if dist <= line_orb_km and (key not in nearest or dist < nearest[key].distance_km):
            nearest[key] = NearLine(line.body, line.angle, dist, (lat, lon))
    near = tuple(sorted(nearest.values(), key=lambda n: n.distance_km))
    interpretations = None
    if language is not None:
        interpretations = Interpretations(
            language, level, _items(near, moved, changes, language, level)
        )
    return Relocation(
        chart=moved,
        natal_latitude=subject.latitude,
        natal_longitude=subject.longitude,
        angles=angles,
        house_changes=changes,
        lines=near,
        interpretations=interpretations,
    )
