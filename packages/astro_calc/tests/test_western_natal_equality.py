"""The fast natal path against a plain reference kept here, on 1,000 random charts: every value
must be identical (``==`` on floats, not a tolerance).

The chart path is tuned for speed (the ephemeris path read once per chart, per-degree aspect
windows, cached sign rows, bisection for houses); the reference below computes the same chart
the plain way, straight from pyswisseph and the definitions in the module docstrings:

* bodies: ``calc_ut`` with Moshier and speeds, longitude mod 360; Chiron (no asteroid files)
  left out with its warning;
* houses: ``houses_ex2``; Placidus and Koch refused inside the polar circles fall back to
  Porphyry; a body's house is the cusp span holding it when the cusps run in zodiac order, else
  ``house_pos`` on the house circles (ARMC, latitude, true obliquity);
* aspects: every pair of points once (bodies, then ascendant and midheaven; the mean/true node
  pair skipped), every aspect definition tried, the tightest within its orb taken (the first on
  a tie), applying when the orb shrinks at the points' longitude speeds;
* signs, dignities (the dignity table), element and modality counts of the ten planets.

The same arithmetic on the same inputs gives the same bits, so any change of result made by a
speed-up fails here. Convention for the random charts: dates 1600-2400 UT with UTC offsets
(time-zone lookup is not part of the chart path), latitudes -89.9..89.9 plus a few exact poles
and polar-circle edges, all twelve house systems, random body and aspect subsets and orbs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
import swisseph as swe

from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.aspects import ASPECTS, AspectDefinition
from astro_calc.western.dignity import dignities_with_score
from astro_calc.western.natal import DEFAULT_BODIES, PLANETS
from astro_calc.western.subject import SIGNS

IDS = {name: i for i, name in enumerate(DEFAULT_BODIES[:13])} | {"chiron": swe.CHIRON}
SYSTEMS = "PPPPKWEORCBAMTX"
ELEMENTS = ("fire", "earth", "air", "water")
MODALITIES = ("cardinal", "fixed", "mutable")
CHIRON_WARNING = "chiron omitted: needs Swiss Ephemeris asteroid files (ASTRO_EPHE_PATH)"


@pytest.fixture(autouse=True)
def moshier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)


def _sign(lon: float) -> tuple[str, float]:
    return SIGNS[int(lon // 30.0) % 12], lon % 30.0


def _point(lon: float) -> dict[str, Any]:
    lon %= 360.0
    sign, degree = _sign(lon)
    return {"longitude": lon, "sign": sign, "sign_degree": degree}


def _house(lon: float, cusps: list[float], circles: tuple[float, float, float, bytes]) -> int:
    ordered = (
        all((cusps[k] - cusps[0]) % 360.0 > (cusps[k - 1] - cusps[0]) % 360.0 for k in range(2, 12))
        and cusps[1] != cusps[0]
    )
    if not ordered:
        armc, latitude, eps, system = circles
        return min(12, max(1, int(swe.house_pos(armc, latitude, eps, (lon, 0.0), system))))
    for k in range(12):
        span = (cusps[(k + 1) % 12] - cusps[k]) % 360.0
        if (lon - cusps[k]) % 360.0 < span:
            return k + 1
    raise AssertionError("no house")


def _aspect(
    p: tuple[str, float, float], q: tuple[str, float, float], kinds: list[AspectDefinition]
) -> dict[str, Any] | None:
    d = (q[1] - p[1]) % 360.0
    separation = d if d <= 180.0 else 360.0 - d
    rate = q[2] - p[2] if d <= 180.0 else p[2] - q[2]
    best: tuple[float, AspectDefinition] | None = None
    for kind in kinds:
        orb = abs(separation - kind.angle)
        if orb <= kind.orb and (best is None or orb < best[0]):
            best = (orb, kind)
    if best is None:
        return None
    orb, kind = best
    toward = rate if separation < kind.angle else -rate
    return {
        "body1": p[0],
        "body2": q[0],
        "aspect": kind.name,
        "aspect_angle": kind.angle,
        "separation": separation,
        "orb": orb,
        "applying": toward > 0 and orb > 0,
    }


def _reference(
    moment: datetime,
    lat: float,
    lon: float,
    system: str,
    bodies: tuple[str, ...],
    kinds: list[AspectDefinition],
) -> dict[str, Any]:
    hour = moment.hour + moment.minute / 60 + (moment.second + moment.microsecond / 1e6) / 3600
    jd = swe.julday(moment.year, moment.month, moment.day, hour, swe.GREG_CAL)
    flags = swe.FLG_MOSEPH | swe.FLG_SPEED
    raw = {}
    warnings = []
    for name in bodies:
        try:
            raw[name] = swe.calc_ut(jd, IDS[name], flags)[0]
        except swe.Error:
            warnings.append(CHIRON_WARNING)
    used = system
    try:
        cusps, ascmc, _s, ascmc_speed = swe.houses_ex2(
            jd, lat, lon, system.encode(), swe.FLG_MOSEPH
        )
    except swe.Error:
        used = "O"
        name = {"P": "placidus", "K": "koch"}[system]
        warnings.append(f"{name} houses are undefined at latitude {lat:.2f}; Porphyry used instead")
        cusps, ascmc, _s, ascmc_speed = swe.houses_ex2(jd, lat, lon, b"O", swe.FLG_MOSEPH)
    if abs(lat) == 90.0:
        warnings.append(
            "at a geographic pole the horizon is the equator and the ascendant is undefined: "
            "Swiss Ephemeris gives 0 Aries, and the houses follow it"
        )
    cusps = [c % 360.0 for c in cusps[:12]]
    eps = swe.calc_ut(jd, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    circles = (ascmc[2] % 360.0, lat, eps, used.encode())
    planets = []
    for name, values in raw.items():
        longitude = values[0] % 360.0
        sign, degree = _sign(longitude)
        dignities, score = dignities_with_score(name, sign)
        planets.append(
            {
                "name": name,
                "longitude": longitude,
                "latitude": values[1],
                "speed": values[3],
                "sign": sign,
                "sign_degree": degree,
                "house": _house(longitude, cusps, circles),
                "retrograde": values[3] < 0,
                "dignities": list(dignities),
                "dignity_score": score,
            }
        )
    points = [(p["name"], p["longitude"], p["speed"]) for p in planets]
    points += [
        ("ascendant", ascmc[0] % 360.0, ascmc_speed[0]),
        ("midheaven", ascmc[1] % 360.0, ascmc_speed[1]),
    ]
    aspects = []
    for i, p in enumerate(points):
        for q in points[i + 1 :]:
            if {p[0], q[0]} == {"mean_node", "true_node"}:
                continue
            found = _aspect(p, q, kinds)
            if found is not None:
                aspects.append(found)
    elements = dict.fromkeys(ELEMENTS, 0)
    modalities = dict.fromkeys(MODALITIES, 0)
    for p in planets:
        if p["name"] in PLANETS:
            elements[ELEMENTS[SIGNS.index(p["sign"]) % 4]] += 1
            modalities[MODALITIES[SIGNS.index(p["sign"]) % 3]] += 1
    return {
        "planets": planets,
        "houses": [
            {"number": k + 1, "cusp": c, "sign": _sign(c)[0], "sign_degree": c % 30.0}
            for k, c in enumerate(cusps)
        ],
        "angles": {
            "ascendant": _point(ascmc[0]),
            "midheaven": _point(ascmc[1]),
            "descendant": _point(ascmc[0] % 360.0 + 180.0),
            "imum_coeli": _point(ascmc[1] % 360.0 + 180.0),
            "vertex": _point(ascmc[3]),
        },
        "aspects": aspects,
        "elements": elements,
        "modalities": modalities,
        "meta": {
            "julian_day": jd,
            "house_system": used,
            "requested_house_system": system,
            "ephemeris": "moshier",
            "warnings": warnings,
        },
    }


def _cases(n: int, seed: int) -> Iterator[tuple[BirthSubject, dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    start = datetime(1600, 1, 1, tzinfo=UTC)
    for _ in range(n):
        local = start + timedelta(seconds=rng.randrange(0, 800 * 365 * 86400))
        offset = rng.randrange(-720, 841, 15)
        roll = rng.random()
        lat = (
            rng.choice([90.0, -90.0, 66.56, -66.56, 0.0])
            if roll < 0.03
            else rng.uniform(-89.9, 89.9)
            if roll < 0.3
            else rng.uniform(-66.0, 66.0)
        )
        lon = rng.uniform(-180.0, 180.0)
        kwargs: dict[str, Any] = {"house_system": rng.choice(SYSTEMS)}
        roll = rng.random()
        if roll < 0.3:
            kwargs["bodies"] = tuple(rng.sample(DEFAULT_BODIES, rng.randint(1, 14)))
        elif roll < 0.6:
            kwargs["bodies"] = DEFAULT_BODIES[:13]
        names = list(ASPECTS)
        roll = rng.random()
        if roll < 0.15:
            kwargs["include_minor"] = False
            names = [a for a in names if ASPECTS[a].major]
        elif roll < 0.3:
            names = rng.sample(names, rng.randint(0, len(names)))
            kwargs["aspects"] = tuple(names)
        orbs: dict[str, float] = {}
        if rng.random() < 0.2:
            orbs = {a: round(rng.uniform(0.0, 15.0), 3) for a in rng.sample(list(ASPECTS), 3)}
            kwargs["orbs"] = orbs
        kinds = [
            msgspec.structs.replace(ASPECTS[a], orb=orbs[a]) if a in orbs else ASPECTS[a]
            for a in names
        ]
        subject = BirthSubject(
            local.date(), local.strftime("%H:%M:%S"), lat, lon, timezone_offset_minutes=offset
        )
        utc = local.replace(tzinfo=None) - timedelta(minutes=offset)
        expected = _reference(
            utc, lat, lon, kwargs["house_system"], kwargs.get("bodies", DEFAULT_BODIES), kinds
        )
        yield subject, kwargs, expected


def test_natal_chart_equals_the_plain_reference_on_1000_random_charts() -> None:
    checked = aspects = polar = 0
    for subject, kwargs, expected in _cases(1000, 20261127):
        # Through JSON (exact for floats: shortest round-trip form) to get lists and dicts.
        got = msgspec.json.decode(msgspec.json.encode(natal_chart(subject, **kwargs)))
        meta = {k: got["meta"][k] for k in expected["meta"]}
        assert {**{k: got[k] for k in expected if k != "meta"}, "meta": meta} == expected, (
            subject,
            kwargs,
        )
        checked += 1
        aspects += len(expected["aspects"])
        polar += expected["meta"]["house_system"] != expected["meta"]["requested_house_system"]
    # The random charts did reach the cases they are meant to cover.
    assert checked == 1000
    assert aspects > 20_000
    assert polar > 10
