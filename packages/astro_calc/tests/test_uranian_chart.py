"""The Uranian chart against pyswisseph and a brute-force picture search; interpretation coverage.

* Positions: direct pyswisseph calls (Hamburg bodies are Swiss Ephemeris ids 40..47) to 0.01
  degree; ascendant and midheaven from ``houses_ex``.
* Pictures: every ordered combination of factors is tried here with plain arithmetic (no code
  shared with the package), reduced to the documented canonical form, and compared as a set.
* Interpretations: every key the code can produce (all 231 pairs, all midpoint pictures, all sum
  pictures) has non-empty English and Thai text naming its factors.
"""

from __future__ import annotations

import itertools
import random
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import msgspec
import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.uranian import (
    DIALS,
    FACTORS,
    HAMBURG,
    uranian_chart,
    uranian_midpoints,
    uranian_planetary_pictures,
)
from astro_calc.uranian.chart import (
    midpoint_interpretation,
    picture_interpretation,
    picture_key,
    planetary_pictures,
)
from astro_calc.western.subject import load_data

IDS = {"sun": 0, "moon": 1, "mercury": 2, "venus": 3, "mars": 4, "jupiter": 5, "saturn": 6,
       "uranus": 7, "neptune": 8, "pluto": 9, "node": 10, "cupido": 40, "hades": 41, "zeus": 42,
       "kronos": 43, "apollon": 44, "admetos": 45, "vulkanus": 46, "poseidon": 47}  # fmt: skip
BIRTH = {"birth_date": date(1962, 9, 24), "birth_time": "16:05", "birth_lat": 53.55,
         "birth_lon": 9.99, "birth_place": "Hamburg"}  # fmt: skip
JD = swe.julday(1962, 9, 24, 15 + 5 / 60)  # CET (UTC+1) in 1962: no summer time in Germany


def _reference_longitudes() -> dict[str, float]:
    lons = {n: float(swe.calc_ut(JD, i, swe.FLG_MOSEPH)[0][0]) for n, i in IDS.items()}
    _, ascmc = swe.houses_ex(JD, 53.55, 9.99, b"P", swe.FLG_MOSEPH)
    lons["ascendant"], lons["midheaven"], lons["aries_point"] = ascmc[0], ascmc[1], 0.0
    return lons


def _close(a: float, b: float, tol: float = 0.01) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= tol


def test_positions_match_swisseph_and_flag_the_hamburg_bodies() -> None:
    c = uranian_chart(**BIRTH, timezone="Europe/Berlin")  # type: ignore[arg-type]
    assert c.meta.utc == datetime(1962, 9, 24, 15, 5, tzinfo=UTC)
    ref = _reference_longitudes()
    assert [p.name for p in c.positions] == list(FACTORS)
    for p in c.positions:
        assert _close(p.longitude, ref[p.name]), p.name
        assert p.dial_position == pytest.approx(p.longitude % 90.0)
        assert p.is_hamburg == (p.name in HAMBURG)
    assert len(HAMBURG) == 8


@pytest.mark.parametrize("dial", [90.0, 45.0, 22.5])
def test_dial_positions_reduce_modulo_the_dial(dial: float) -> None:
    c = uranian_chart(**BIRTH, dial_mode=dial, timezone="Europe/Berlin")  # type: ignore[arg-type]
    for p in c.positions:
        assert 0.0 <= p.dial_position < dial
        assert p.dial_position == pytest.approx(p.longitude % dial)


def test_all_midpoints_on_the_shorter_arc() -> None:
    c = uranian_chart(**BIRTH, timezone="Europe/Berlin")  # type: ignore[arg-type]
    assert len(c.midpoints) == len(FACTORS) * (len(FACTORS) - 1) // 2 == 231
    lons = {p.name: p.longitude for p in c.positions}
    for m in c.midpoints:
        a, b = (lons[n] for n in m.pair)
        # Equidistant from both, and less than 90 degrees from each: the shorter arc.
        da = abs((m.longitude - a + 180) % 360 - 180)
        db = abs((m.longitude - b + 180) % 360 - 180)
        assert da == pytest.approx(db, abs=1e-9)
        assert da <= 90.0 + 1e-9
        assert m.dial_position == pytest.approx(m.longitude % 90.0)


def _dial_dist(x: float, dial: float) -> float:
    d = x % dial
    return min(d, dial - d)


def _brute_pictures(lons: dict[str, float], dial: float, orb: float) -> dict[str, float]:
    rank = {n: i for i, n in enumerate(FACTORS)}
    found: dict[str, float] = {}
    for a, b, c in itertools.permutations(FACTORS, 3):
        if rank[a] < rank[b]:
            # C on A/B: 2C - A - B = 0 (mod 2*dial) is the same as C = A/B on the dial.
            mid = (lons[a] + ((lons[b] - lons[a] + 180) % 360 - 180) / 2) % 360
            d = _dial_dist(lons[c] - mid, dial)
            if d <= orb:
                found[f"{a}/{b}={c}"] = d
    for a, b, c, d in itertools.permutations(FACTORS, 4):
        if rank[a] < rank[b] and rank[c] < rank[d] and (rank[a], rank[b]) < (rank[c], rank[d]):
            dev = _dial_dist(lons[a] + lons[b] - lons[c] - lons[d], dial)
            if dev <= orb:
                found[f"{a}+{b}-{c}={d}"] = dev
    return found


@pytest.mark.parametrize(("dial", "orb"), [(90.0, 1.0), (45.0, 0.25), (22.5, 0.5)])
def test_planetary_pictures_match_a_brute_force_enumeration(dial: float, orb: float) -> None:
    c = uranian_chart(**BIRTH, dial_mode=dial, orb_max=orb, timezone="Europe/Berlin")  # type: ignore[arg-type]
    lons = {p.name: p.longitude for p in c.positions}
    expected = _brute_pictures(lons, dial, orb)
    ours = {p.interpretation_key: p.orb_total for p in c.planetary_pictures}
    assert len(ours) == len(c.planetary_pictures)  # each picture once
    assert set(ours) == set(expected)
    for key, value in ours.items():
        assert value == pytest.approx(expected[key], abs=1e-5)
        assert value <= orb
    assert any(len(p.factors) == 3 for p in c.planetary_pictures)
    assert any(len(p.factors) == 4 for p in c.planetary_pictures)
    orbs = [p.orb_total for p in c.planetary_pictures]
    assert orbs == sorted(orbs)


def _reference_search(
    lons: dict[str, float], dial: float, orb: float
) -> list[tuple[str, float, float]]:
    """The planetary pictures by the definition, straight from every combination: (key, exact
    orb, dial position), unrounded and unordered. No code shared with the package."""
    out = []
    pairs = list(itertools.combinations(FACTORS, 2))  # canonical order
    for a, b in pairs:
        gap = (lons[b] - lons[a]) % 360.0
        mid = (lons[a] + (gap if gap <= 180.0 else gap - 360.0) / 2.0) % 360.0
        for c in FACTORS:
            if c not in (a, b) and _dial_dist(lons[c] - mid, dial) <= orb:
                out.append((f"{a}/{b}={c}", _dial_dist(lons[c] - mid, dial), mid % dial))
    for (a, b), (c, d) in itertools.combinations(pairs, 2):  # the earlier pair leads
        if not {a, b} & {c, d}:
            sensitive = lons[a] + lons[b] - lons[c]
            dev = _dial_dist(sensitive - lons[d], dial)
            if dev <= orb:
                out.append((f"{a}+{b}-{c}={d}", dev, sensitive % dial))
    return out


def _micro(orb: float) -> int:
    return round(Decimal(orb) * 1_000_000)  # exact decimal rounding (half even) of the double


def _random_longitudes(rng: random.Random, clustered: bool) -> dict[str, float]:
    lons = {name: rng.uniform(0.0, 360.0) for name in FACTORS}
    if clustered:
        # Exact coincidences and oppositions: equal sums, ties in the sort, midpoints of exact
        # oppositions, factors exactly on a dial boundary.
        base = rng.choice([0.0, 45.0, rng.uniform(0.0, 360.0)])
        for name in rng.sample(FACTORS, 9):
            lons[name] = (base + rng.choice([0.0, 22.5, 45.0, 90.0, 180.0, 270.0])) % 360.0
    lons["aries_point"] = 0.0
    return lons


@pytest.mark.parametrize("seed", range(6))
def test_fast_picture_search_equals_a_brute_force_reference_on_random_charts(seed: int) -> None:
    """The vectorised search against the definition over random charts, every dial and orbs
    across the allowed range: the same pictures in the same order (orb, then key), each orb the
    exact decimal rounding to 1e-6 of the reference orb (to 1e-9), dial positions within 1e-9
    degree. Only a reference orb within 1e-12 degree of a rounding half-way point (where the
    last bits of the two computations decide) may round either way."""
    rng = random.Random(seed)
    for trial in range(20):
        lons = _random_longitudes(rng, clustered=trial % 4 == 0)
        dial = DIALS[trial % 3]
        orb = rng.choice([0.25, 3.0, rng.uniform(0.25, 3.0)])
        pictures = planetary_pictures(lons, dial, orb)
        ours = {p.interpretation_key: round(p.orb_total * 1e6) for p in pictures}
        expected = []
        for key, dev, position in _reference_search(lons, dial, orb):
            micro = _micro(dev)
            if abs(dev * 1e6 % 1.0 - 0.5) < 1e-6 and ours.get(key) in (micro - 1, micro, micro + 1):
                micro = ours[key]
            expected.append((micro, key, position))
        expected.sort()
        assert [p.interpretation_key for p in pictures] == [key for _m, key, _p in expected]
        for p, (micro, key, position) in zip(pictures, expected, strict=True):
            assert abs(p.orb_total - micro / 1e6) <= 1e-9, key
            assert p.orb_total <= orb
            assert _dial_dist(p.dial_position - position, dial) <= 1e-9, key
            assert 0.0 <= p.dial_position < dial
            assert p.factors == _factors_of(key)


def _factors_of(key: str) -> tuple[str, ...]:
    return tuple(re.split(r"[/=+-]", key))


def test_sum_picture_dial_position_is_the_sensitive_point() -> None:
    c = uranian_chart(**BIRTH, timezone="Europe/Berlin")  # type: ignore[arg-type]
    lons = {p.name: p.longitude for p in c.positions}
    for p in c.planetary_pictures:
        if len(p.factors) == 4:
            a, b, cc, _d = p.factors
            assert p.dial_position == pytest.approx((lons[a] + lons[b] - lons[cc]) % 90.0)


def test_response_has_exactly_the_spec_fields() -> None:
    c = uranian_chart(
        **BIRTH,
        timezone="Europe/Berlin",
        computed_at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),  # type: ignore[arg-type]
    )
    doc = msgspec.json.decode(msgspec.json.encode(c))
    assert set(doc) == {"birth_place", "meta", "positions", "midpoints", "planetary_pictures"}
    assert doc["birth_place"] == "Hamburg"
    assert doc["meta"]["orb_max"] == 1.0
    assert doc["meta"]["computed_at"] == "2025-01-02T03:04:05Z"
    assert doc["meta"]["utc"] == "1962-09-24T15:05:00Z"
    assert doc["meta"]["offset_minutes"] == 60
    assert set(doc["positions"][0]) == {"name", "longitude", "dial_position", "is_hamburg"}
    assert set(doc["midpoints"][0]) == {
        "pair", "longitude", "dial_position", "interpretation_en", "interpretation_th",
    }  # fmt: skip
    assert len(doc["midpoints"][0]["pair"]) == 2
    assert set(doc["planetary_pictures"][0]) == {
        "factors", "dial_position", "orb_total", "interpretation_key", "interpretation_en",
        "interpretation_th",
    }  # fmt: skip


def test_midpoints_and_pictures_variants_agree_with_the_chart() -> None:
    kwargs = {**BIRTH, "timezone": "Europe/Berlin", "dial_mode": 45.0, "orb_max": 0.5}
    c = uranian_chart(**kwargs)  # type: ignore[arg-type]
    assert uranian_midpoints(**kwargs).midpoints == c.midpoints  # type: ignore[arg-type]
    assert uranian_planetary_pictures(**kwargs).planetary_pictures == c.planetary_pictures  # type: ignore[arg-type]


# --- interpretations: every producible key ---------------------------------------------------

_THAI = re.compile(r"[\u0E00-\u0E7F]")


def test_every_factor_has_english_and_thai_text() -> None:
    factors = load_data("uranian", "factors.json")["factors"]
    assert set(factors) == set(FACTORS)
    for name in FACTORS:
        for lang in ("en", "th"):
            assert factors[name][lang]["name"].strip()
            assert factors[name][lang]["meaning"].strip()
        assert _THAI.search(factors[name]["th"]["meaning"])


def test_every_midpoint_text_exists_in_both_languages() -> None:
    factors = load_data("uranian", "factors.json")["factors"]
    for a, b in itertools.combinations(FACTORS, 2):
        for lang in ("en", "th"):
            text = midpoint_interpretation(a, b, lang)
            assert factors[a][lang]["meaning"] in text
            assert factors[b][lang]["meaning"] in text
            assert "{" not in text


def test_every_picture_key_has_text_in_both_languages() -> None:
    names = {n: load_data("uranian", "factors.json")["factors"][n] for n in FACTORS}
    pairs = list(itertools.combinations(FACTORS, 2))
    keys = 0
    for a, b in pairs:
        for c in FACTORS:
            if c not in (a, b):
                for lang in ("en", "th"):
                    text = picture_interpretation((a, b, c), lang)
                    assert text.startswith(names[c][lang]["name"])
                    assert "{" not in text
                keys += 1
    for (a, b), (c, d) in itertools.combinations(pairs, 2):
        if {a, b} & {c, d}:
            continue
        factors = (a, b, c, d)
        assert picture_key(factors) == f"{a}+{b}-{c}={d}"
        for lang in ("en", "th"):
            text = picture_interpretation(factors, lang)
            assert all(names[f][lang]["meaning"] in text for f in factors)
            assert "{" not in text
        keys += 1
    assert keys == 231 * 20 + 231 * 190 // 2


# --- bounds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"birth_lat": 90.0001}, "birth_lat"),
        ({"birth_lat": -90.5}, "birth_lat"),
        ({"birth_lon": 180.01}, "birth_lon"),
        ({"birth_lon": -181.0}, "birth_lon"),
        ({"birth_place": ""}, "birth_place"),
        ({"birth_place": "x" * 201}, "birth_place"),
        ({"birth_time": "7:30"}, "birth_time"),
        ({"dial_mode": 30.0}, "dial_mode"),
        ({"orb_max": 0.24}, "orb_max"),
        ({"orb_max": 3.01}, "orb_max"),
    ],
)
def test_out_of_bounds_inputs_name_their_field(override: dict[str, object], field: str) -> None:
    kwargs = {**BIRTH, "timezone": "Europe/Berlin", **override}
    with pytest.raises(CalcInputError) as info:
        uranian_chart(**kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


@pytest.mark.parametrize(
    "override",
    [
        {"birth_lat": 90.0}, {"birth_lat": -90.0}, {"birth_lon": 180.0}, {"birth_lon": -180.0},
        {"birth_place": "x"}, {"birth_place": "x" * 200}, {"orb_max": 0.25}, {"orb_max": 3.0},
        {"dial_mode": 22.5},
    ],
)  # fmt: skip
def test_inputs_on_the_bounds_are_accepted(override: dict[str, object]) -> None:
    kwargs = {**BIRTH, "timezone_offset_minutes": 60, **override}
    c = uranian_chart(**kwargs)  # type: ignore[arg-type]
    assert len(c.positions) == 22


def test_at_a_pole_the_undefined_ascendant_comes_with_a_warning() -> None:
    chart = uranian_chart(
        date(1990, 1, 1), "12:00", 90.0, 0.0, "North Pole", timezone_offset_minutes=0
    )
    assert any("ascendant is undefined" in w for w in chart.meta.warnings)
    assert not uranian_chart(
        date(1990, 1, 1), "12:00", 89.0, 0.0, "Near the pole", timezone_offset_minutes=0
    ).meta.warnings
