"""Western relationship and event interpretations: texts complete in both languages and free of
slots, each item's basis read from the calculation, and the time in orb checked independently.

Oracles: the span in orb of a transit against a brute-force ten-minute scan with pyswisseph
(Moshier, apparent positions, as the transit module uses), tolerance 15 minutes; the exact
moment of a progressed aspect against the secondary progressions recomputed at that moment
(orb under 0.05 degree for the Moon, whose rate is what the estimate assumes constant).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from importlib.resources import files
from typing import Any

import pytest
import swisseph as swe

from astro_calc.western import (
    BirthSubject,
    composite_chart,
    lunar_return,
    secondary_progressions,
    solar_arc_directions,
    solar_return,
    synastry,
    transits,
)
from astro_calc.western.readings import (
    CORE_POINTS,
    MAJOR,
    OUTER,
    TRANSIT_ORB_DEG,
    composite_interpretation,
    orb_window,
    progressions_interpretation,
    returns_interpretation,
    synastry_interpretation,
    texts,
    transits_interpretation,
)
from astro_calc.western.subject import SIGNS

_SLOT = re.compile(r"\{[a-z_]*\}")
_THAI = re.compile(r"[\u0E00-\u0E7F]")
A = BirthSubject(dt.date(1990, 5, 17), "08:30", 13.75, 100.5, timezone="Asia/Bangkok")
B = BirthSubject(dt.date(1988, 11, 2), "19:05", 51.5, -0.12, timezone="Europe/London")
_SWE_ID = {"mars": swe.MARS, "jupiter": swe.JUPITER, "saturn": swe.SATURN, "sun": swe.SUN,
           "venus": swe.VENUS, "mercury": swe.MERCURY}  # fmt: skip


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def _keys(value: Any, prefix: str = "") -> set[str]:
    if isinstance(value, dict):
        return {k for key, v in value.items() for k in _keys(v, f"{prefix}.{key}")} | {prefix}
    return {prefix}


def test_every_pair_and_event_has_a_text_in_both_languages() -> None:
    en, th = texts("en"), texts("th")
    for name in ("relationship", "events"):
        assert _keys(en[name]) == _keys(th[name]), name
    for data in (en, th):
        rel, ev = data["relationship"], data["events"]
        for i, a in enumerate(CORE_POINTS):
            for b in CORE_POINTS[i:]:
                assert rel["pairs"][f"{a}-{b}"]
        for outer in OUTER:
            assert "{partner}" in rel["outer"][outer]
        for aspect in MAJOR:
            assert rel["natures"][aspect]
            assert ev["natures"][aspect]
        for house in range(1, 13):
            assert rel["houses"][str(house)]
            assert ev["houses"][str(house)]
        for sign in SIGNS:
            assert ev["signs"][sign]
    for name in ("relationship", "events"):
        for value in _strings({k: v for k, v in th[name].items() if k not in ("names", "titles")}):
            assert _THAI.search(value), value


def test_data_slots_are_only_the_filled_ones() -> None:
    allowed = {"{first}", "{second}", "{first_owner}", "{second_owner}", "{aspect}", "{owner}",
               "{other}", "{body}", "{house}", "{house_text}", "{score}", "{partner}", "{mover}",
               "{point}", "{sign}", "{kind}", "{orb}", "{start}", "{end}", "{days}", "{exact}",
               "{years}", "{when}", "{sign_text}"}  # fmt: skip
    for language in ("en", "th"):
        folder = files("astro_calc").joinpath("data", "western", "readings", language)
        for name in ("relationship", "events"):
            data = json.loads(folder.joinpath(f"{name}.json").read_text(encoding="utf-8"))
            for value in _strings(data):
                assert set(_SLOT.findall(value)) <= allowed, value


def _check_items(found: Any, language: str) -> None:
    assert found.items
    keys = [i.key for i in found.items]
    assert len(keys) == len(set(keys))
    for item in found.items:
        assert not _SLOT.search(item.title + item.text), item
        if language == "th":
            assert _THAI.search(item.text)


@pytest.mark.parametrize("language", ["en", "th"])
@pytest.mark.parametrize("level", ["summary", "full"])
def test_synastry_and_composite_read_their_contacts(language: str, level: str) -> None:
    result = synastry(A, B)
    found = synastry_interpretation(result, language=language, level=level)  # type: ignore[arg-type]
    _check_items(found, language)
    aspects = [i for i in found.items if i.section == "inter_aspects"]
    expected = [
        a for a in result.aspects
        if a.aspect in MAJOR
        and ((a.body1 in CORE_POINTS and a.body2 in CORE_POINTS)
             or (a.body1 in OUTER and a.body2 in CORE_POINTS)
             or (a.body2 in OUTER and a.body1 in CORE_POINTS))
    ]  # fmt: skip
    assert sorted((i.basis.bodies, i.basis.aspect) for i in aspects) == sorted(
        ((a.body1, a.body2), a.aspect) for a in expected
    )
    assert [i.basis.orb for i in aspects] == sorted(i.basis.orb or 0.0 for i in aspects)
    overlays = {(i.basis.owner, i.basis.body): i.basis.house for i in found.items
                if i.section == "house_overlays"}  # fmt: skip
    for o in result.house_overlays:
        if o.body in CORE_POINTS:
            assert overlays[(o.owner, o.body)] == o.house
    assert found.items[-1].basis.score == round(result.compatibility.score, 1)
    comp = composite_chart(A, B)
    c_found = composite_interpretation(comp, language=language, level=level)  # type: ignore[arg-type]
    _check_items(c_found, language)
    houses = {i.basis.body: i.basis.house for i in c_found.items if i.section == "composite_houses"}
    assert houses == {p.name: p.house for p in comp.planets if p.name in houses}
    assert len(houses) == 10


def _brute_force_window(body: str, target: float, jd_exact: float) -> tuple[float, float]:
    step = 10.0 / 1440.0

    def inside(jd: float) -> bool:
        lon = swe.calc_ut(jd, _SWE_ID[body], swe.FLG_MOSEPH)[0][0]
        return abs((lon - target + 180.0) % 360.0 - 180.0) <= TRANSIT_ORB_DEG

    lo = jd_exact
    while inside(lo - step):
        lo -= step
    hi = jd_exact
    while inside(hi + step):
        hi += step
    return lo, hi


def test_transit_span_in_orb_matches_a_brute_force_scan() -> None:
    report = transits(
        A,
        dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        dt.datetime(2026, 7, 1, tzinfo=dt.UTC),
        transiting_bodies=("sun", "mars", "saturn"),
    )
    checked = 0
    for event in report.events:
        if event.kind != "aspect" or event.transiting not in _SWE_ID:
            continue
        window = orb_window(event)
        assert window is not None
        lo, hi = _brute_force_window(event.transiting, event.longitude, event.julian_day)
        assert window[0] == pytest.approx(lo, abs=15 / 1440)
        assert window[1] == pytest.approx(hi, abs=15 / 1440)
        checked += 1
        if checked >= 12:
            break
    assert checked >= 6
    found = transits_interpretation(report, language="en", level="summary")
    _check_items(found, "en")
    first = next(i for i in found.items if i.basis.kind == "aspect")
    assert first.basis.orb_days is not None
    assert first.basis.orb_start is not None
    assert first.basis.orb_start < (first.basis.utc or "") < (first.basis.orb_end or "")


def test_progressed_moon_aspect_is_exact_when_the_text_says() -> None:
    # The first month from 2026 in which the progressed Moon is within a degree of a natal point.
    for month in range(36):
        target = dt.datetime(2026 + month // 12, month % 12 + 1, 1, tzinfo=dt.UTC)
        result = secondary_progressions(A, target, orb_deg=1.0)
        found = progressions_interpretation(result, orb_deg=1.0, language="en", level="full")
        moon = [i for i in found.items if i.basis.body == "moon"]
        if moon:
            break
    assert moon, "the progressed Moon (13 degrees a year) meets a natal point within 3 years"
    _check_items(found, "en")
    speed = next(p.speed for p in result.planets if p.name == "moon")
    for item in moon:
        aspect = next(
            a for a in result.aspects_to_natal
            if (a.body1, a.aspect, a.body2) == ("moon", item.basis.aspect, item.basis.natal_point)
        )  # fmt: skip
        assert item.basis.orb_years == pytest.approx(2.0 / abs(speed), abs=0.005)  # rounded
        years = aspect.orb / abs(speed) * (1 if aspect.applying else -1)
        exact = target + dt.timedelta(days=years * 365.2422)
        again = secondary_progressions(A, exact, orb_deg=1.0)
        orb_then = next(
            a.orb for a in again.aspects_to_natal
            if (a.body1, a.aspect, a.body2) == ("moon", aspect.aspect, aspect.body2)
        )  # fmt: skip
        assert orb_then < 0.05
    arc = solar_arc_directions(A, target)
    d_found = progressions_interpretation(arc, orb_deg=1.0, language="th", level="summary")
    assert {(i.basis.body, i.basis.aspect, i.basis.natal_point) for i in d_found.items} == {
        (a.body1, a.aspect, a.body2)
        for a in arc.aspects_to_natal
        if a.aspect in MAJOR and a.body1 in texts("th")["events"]["movers"]
    }


@pytest.mark.parametrize("language", ["en", "th"])
def test_returns_read_the_return_chart(language: str) -> None:
    solar = solar_return(A, 2026)
    found = returns_interpretation(solar, language=language, level="full")  # type: ignore[arg-type]
    _check_items(found, language)
    assert found.items[0].basis.sign == solar.chart.angles.ascendant.sign
    sun = next(p for p in solar.chart.planets if p.name == "sun")
    assert found.items[1].basis.body == "sun"
    assert found.items[1].basis.house == sun.house
    lunar = lunar_return(A, dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    summary = returns_interpretation(lunar, language=language, level="summary")  # type: ignore[arg-type]
    assert [i.basis.body for i in summary.items] == [None, "moon"]
    end = dt.datetime.fromisoformat(summary.items[0].basis.end or "")
    assert (end - lunar.return_utc).total_seconds() == pytest.approx(27.3217 * 86400)


def test_the_common_basis_holds_every_natal_basis_field() -> None:
    # The endpoints copy the natal items (the natal PDF's source) into the common shape field
    # by field: a field added to the natal basis must exist in the common one.
    import msgspec

    from astro_calc.interpretations import Basis
    from astro_calc.western.interpretation import Basis as NatalBasis

    assert set(NatalBasis.__struct_fields__) <= set(Basis.__struct_fields__)
    for field in msgspec.structs.fields(NatalBasis):
        common = next(f for f in msgspec.structs.fields(Basis) if f.name == field.name)
        assert common.type == field.type, field.name
