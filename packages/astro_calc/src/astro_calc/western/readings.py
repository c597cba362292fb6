"""Western relationship and event interpretations in English and Thai: synastry, composite,
transits, progressions (secondary and solar arc) and returns. Texts live in
``data/western/readings/<language>/{relationship,events}.json``; the natal texts are
:mod:`astro_calc.western.interpretation` (the natal PDF's source).

Conventions:

* Only the five major aspects are interpreted (the calculations may list minor ones too).
* Synastry and composite: contacts between the Sun..Saturn and the Ascendant have a text per
  pair of points (36 pairs); Uranus, Neptune and Pluto are read only when they touch one of
  those (a contact between two outer planets is generational, shared by everyone born within
  years). House overlays are read for the Sun..Saturn of each partner.
* Transits: each exact aspect's span in orb is the contiguous stretch around that exact moment
  in which the transiting body stays within :data:`TRANSIT_ORB_DEG` (1 degree) of the exact
  longitude, retrograde loops included, found from the ephemeris (sampled at the transit
  module's step per body and refined by false position to a minute); searched up to
  :data:`WINDOW_SEARCH_DAYS` either side.
* Progressions and directions: the time in orb is ``2 * orb / rate`` years and the exact moment
  ``orb / rate`` years ahead (applying) or behind (separating), ``rate`` being the progressed
  body's speed in degrees per day of ephemeris time (= per year of life; the Moon about 13
  degrees a year), the directed points' solar arc per year for solar-arc directions, and for the
  progressed Ascendant and Midheaven the Naibod rate (0.9856 degrees a year: an approximation
  for the Ascendant, whose progressed speed varies with latitude).
* Returns: the return chart's Ascendant sign and the house of the returning body (the Sun for a
  solar return, the Moon for a lunar one); the period runs until the next return, about a
  tropical year (365.2422 days) or a sidereal month (27.3217 days) later.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.interpretations import (
    Basis,
    Interpretations,
    Item,
    Language,
    Level,
    check,
    fill,
    join_text,
)
from astro_calc.search import refine_root
from astro_calc.western.aspects import Aspect
from astro_calc.western.natal import PLANETS, NatalChart
from astro_calc.western.progressions import (
    NAIBOD_DEG_PER_YEAR,
    SecondaryProgressions,
    SolarArcDirections,
)
from astro_calc.western.relationship import CompositeChart, Synastry
from astro_calc.western.returns import ReturnChart
from astro_calc.western.subject import load_data
from astro_calc.western.transits import _STEP_DAYS, TransitEvent, TransitReport

MAJOR: Final = ("conjunction", "opposition", "trine", "square", "sextile")
#: Points with a text per pair in synastry and composite.
CORE_POINTS: Final = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "ascendant")
OUTER: Final = ("uranus", "neptune", "pluto")
OVERLAY_BODIES: Final = CORE_POINTS[:-1]
TRANSIT_ORB_DEG: Final = 1.0
WINDOW_SEARCH_DAYS: Final = 3 * 366.0
TROPICAL_YEAR_DAYS: Final = 365.2422
SIDEREAL_MONTH_DAYS: Final = 27.3217
_ORDER: Final = {name: i for i, name in enumerate(CORE_POINTS)}


@cache
def texts(language: Language) -> dict[str, dict[str, Any]]:
    """The relationship and event texts of a language, loaded once."""
    return {
        name: load_data("western", f"readings/{language}/{name}.json")
        for name in ("relationship", "events")
    }


def _pair_key(a: str, b: str) -> str:
    first, second = sorted((a, b), key=_ORDER.__getitem__)
    return f"{first}-{second}"


def _contact_text(a: str, b: str, data: dict[str, Any]) -> str | None:
    """The theme of a contact between points ``a`` and ``b``, or None when not interpreted."""
    if a in _ORDER and b in _ORDER:
        return str(data["pairs"][_pair_key(a, b)])
    outer, other = (a, b) if a in OUTER else (b, a)
    if outer in OUTER and other in _ORDER:
        return fill(data["outer"][outer], {"partner": data["names"]["points"][other]})
    return None


def _aspect_items(
    aspects: Iterable[Aspect],
    level: Level,
    data: dict[str, Any],
    title: Callable[[Aspect, dict[str, str]], str],
    key_prefix: str,
    section: str,
) -> list[Item]:
    """Major-aspect contacts with a text, tightest first; ``bodies`` is ``[body1, body2]`` (in
    synastry A's point, then B's)."""
    names = data["names"]
    items: list[Item] = []
    for a in sorted(aspects, key=lambda x: x.orb):
        if a.aspect not in MAJOR:
            continue
        theme = _contact_text(a.body1, a.body2, data)
        if theme is None:
            continue
        values = {
            "first": names["points"][a.body1],
            "second": names["points"][a.body2],
            "aspect": names["aspects"][a.aspect],
        }
        parts = [theme, data["natures"][a.aspect]]
        if level == "full":
            parts.append(data["roles"][a.body1])
            if a.body2 != a.body1:
                parts.append(data["roles"][a.body2])
        items.append(
            Item(
                f"{key_prefix}.{a.body1}.{a.body2}",
                section,
                title(a, values),
                join_text(*parts),
                Basis(
                    aspect=a.aspect,
                    bodies=(a.body1, a.body2),
                    orb=round(a.orb, 2),
                ),
            )
        )
    return items


def synastry_interpretation(
    result: Synastry, *, language: Language, level: Level
) -> Interpretations:
    """Inter-aspects (``body1`` is A's point, ``body2`` B's), tightest first; then the house
    overlays of each partner's Sun..Saturn; then the compatibility score's band. ``full`` adds
    what each point brings to a relationship and the score's method."""
    check(language, level)
    data = texts(language)["relationship"]
    names = data["names"]
    owners = names["owners"]

    def title(a: Aspect, values: dict[str, str]) -> str:
        return fill(
            data["titles"]["inter_aspect"],
            {**values, "first_owner": owners["a"], "second_owner": owners["b"]},
        )

    items = _aspect_items(result.aspects, level, data, title, "inter_aspect", "inter_aspects")
    for overlay in result.house_overlays:
        if overlay.body not in OVERLAY_BODIES:
            continue
        other = "b" if overlay.owner == "a" else "a"
        values = {
            "owner": owners[overlay.owner],
            "other": owners[other],
            "body": names["points"][overlay.body],
            "house": names["houses"][str(overlay.house)],
            "house_text": data["houses"][str(overlay.house)],
        }
        parts = [fill(data["overlay"], values)]
        if level == "full":
            parts.append(data["roles"][overlay.body])
        items.append(
            Item(
                f"overlay.{overlay.owner}.{overlay.body}",
                "house_overlays",
                fill(data["titles"]["overlay"], values),
                join_text(*parts),
                Basis(body=overlay.body, owner=overlay.owner, house=overlay.house),
            )
        )
    score = result.compatibility.score
    band = "high" if score >= 75 else "good" if score >= 55 else "mixed" if score >= 40 else "low"
    parts = [data["score"][band]]
    if level == "full":
        parts.append(data["score_method"])
    items.append(
        Item(
            "compatibility",
            "compatibility",
            fill(data["titles"]["score"], {"score": f"{score:.0f}"}),
            join_text(*parts),
            Basis(score=round(score, 1), max=100.0),
        )
    )
    return Interpretations(language, level, tuple(items))


def composite_interpretation(
    chart: CompositeChart, *, language: Language, level: Level
) -> Interpretations:
    """The composite Sun..Pluto in their houses, then the composite's major aspects between
    interpreted points (tightest first). ``full`` adds what each point brings."""
    check(language, level)
    data = texts(language)["relationship"]
    life_areas = texts(language)["events"]["houses"]
    names = data["names"]
    items: list[Item] = []
    for p in chart.planets:
        if p.name not in PLANETS:
            continue
        values = {
            "body": names["points"][p.name],
            "house": names["houses"][str(p.house)],
            "house_text": life_areas[str(p.house)],
        }
        parts = [fill(data["composite"], values)]
        if level == "full":
            parts.append(data["roles"][p.name])
        items.append(
            Item(
                f"composite_house.{p.name}",
                "composite_houses",
                fill(data["titles"]["composite_house"], values),
                join_text(*parts),
                Basis(body=p.name, sign=p.sign, house=p.house),
            )
        )

    def title(a: Aspect, values: dict[str, str]) -> str:
        return fill(data["titles"]["composite_aspect"], values)

    items.extend(
        _aspect_items(chart.aspects, level, data, title, "composite_aspect", "composite_aspects")
    )
    return Interpretations(language, level, tuple(items))


def _day(moment: dt.datetime) -> str:
    return moment.date().isoformat()


def orb_window(event: TransitEvent, orb: float = TRANSIT_ORB_DEG) -> tuple[float, float] | None:
    """The Julian days (UT) at which the transiting body enters and leaves ``orb`` of the exact
    longitude around an exact ``aspect`` event (module docstring), or None when a side lies
    beyond :data:`WINDOW_SEARCH_DAYS` or the ephemeris span."""
    target = event.longitude  # the exact longitude (natal point plus the aspect's angle)
    body = event.transiting
    step = _STEP_DAYS.get(body, 1.0)

    def off(jd: float) -> float:
        diff = ephemeris.angle_diff(ephemeris.body_position(jd, body).longitude, target)
        return abs(diff) - orb

    ends: list[float] = []
    for direction in (-1.0, 1.0):
        inside = event.julian_day
        travelled = 0.0
        found = None
        try:
            while travelled < WINDOW_SEARCH_DAYS:
                travelled += step
                probe = event.julian_day + direction * travelled
                if off(probe) > 0.0:
                    lo, hi = sorted((inside, probe))
                    found = refine_root(off, lo, hi, tolerance_s=60.0)
                    break
                inside = probe
        except CalcInputError:  # past the ephemeris span: that side is open
            return None
        if found is None:
            return None
        ends.append(found)
    return ends[0], ends[1]


def transits_interpretation(
    report: TransitReport, *, language: Language, level: Level
) -> Interpretations:
    """Each event in time order: an aspect (the natal point, what the transiting body brings,
    the aspect's nature, the span in orb), an ingress (the new sign's colour) or a station.
    ``full`` adds the sign the transiting body is in and, for ingresses and stations, the
    body's theme."""
    check(language, level)
    data = texts(language)["events"]
    names = data["names"]
    items: list[Item] = []
    for i, e in enumerate(report.events):
        mover = names["points"][e.transiting]
        if e.kind == "aspect" and e.aspect in MAJOR and e.natal_point is not None:
            values = {
                "mover": mover,
                "point": names["points"][e.natal_point],
                "aspect": names["aspects"][e.aspect],
                "orb": f"{TRANSIT_ORB_DEG:g}",
                "exact": _day(e.utc),
            }
            window = orb_window(e)
            basis_extra: dict[str, Any] = {}
            if window is None:
                when = fill(data["orb_transit_open"], values)
            else:
                start, end = (ephemeris.datetime_from_jd(jd) for jd in window)
                days = window[1] - window[0]
                when = fill(
                    data["orb_transit"],
                    {**values, "start": _day(start), "end": _day(end), "days": f"{days:.0f}"},
                )
                basis_extra = {
                    "orb_start": start.isoformat(),
                    "orb_end": end.isoformat(),
                    "orb_days": round(days, 2),
                }
            parts = [
                data["points"][e.natal_point],
                data["movers"][e.transiting],
                data["natures"][e.aspect],
                when,
            ]
            if level == "full":
                parts.insert(2, data["signs"][e.sign])
            items.append(
                Item(
                    f"transit.{i}.{e.transiting}.{e.aspect}.{e.natal_point}",
                    "transits",
                    fill(data["titles"]["transit"], values),
                    join_text(*parts),
                    Basis(
                        kind="aspect",
                        body=e.transiting,
                        aspect=e.aspect,
                        natal_point=e.natal_point,
                        utc=e.utc.isoformat(),
                        orb=TRANSIT_ORB_DEG,
                        **basis_extra,
                    ),
                )
            )
        elif e.kind == "ingress":
            values = {"mover": mover, "sign": names["signs"][e.sign]}
            parts = [data["signs"][e.sign]]
            if level == "full":
                parts.append(data["movers"][e.transiting])
            items.append(
                Item(
                    f"ingress.{i}.{e.transiting}.{e.sign}",
                    "ingresses",
                    fill(data["titles"]["ingress"], values),
                    join_text(*parts),
                    Basis(kind="ingress", body=e.transiting, sign=e.sign, utc=e.utc.isoformat()),
                )
            )
        elif e.kind == "station" and e.station in ("retrograde", "direct"):
            values = {"mover": mover, "sign": names["signs"][e.sign]}
            parts = [data["stations"][e.station]]
            if level == "full":
                parts.append(data["movers"][e.transiting])
            items.append(
                Item(
                    f"station.{i}.{e.transiting}.{e.station}",
                    "stations",
                    fill(data["titles"]["station"][e.station], values),
                    join_text(*parts),
                    Basis(kind="station", body=e.transiting, sign=e.sign, utc=e.utc.isoformat()),
                )
            )
    return Interpretations(language, level, tuple(items))


def _progression_items(
    aspects: Iterable[Aspect],
    rate_of: Callable[[str], float],
    sign_of: Callable[[str], str | None],
    orb_deg: float,
    title_key: str,
    section: str,
    level: Level,
    data: dict[str, Any],
) -> list[Item]:
    names = data["names"]
    items: list[Item] = []
    for a in sorted(aspects, key=lambda x: x.orb):
        if a.aspect not in MAJOR or a.body1 not in data["movers"] or a.body2 not in data["points"]:
            continue
        rate = abs(rate_of(a.body1))
        values = {
            "mover": names["points"][a.body1],
            "point": names["points"][a.body2],
            "aspect": names["aspects"][a.aspect],
            "orb": f"{orb_deg:g}",
        }
        years_in_orb = 2.0 * orb_deg / rate if rate > 0 else None
        parts = [data["points"][a.body2], data["movers"][a.body1], data["natures"][a.aspect]]
        if years_in_orb is not None:
            to_exact = a.orb / rate
            if to_exact < 0.05:
                when = data["exact_now"]
            else:
                key = "exact_future" if a.applying else "exact_past"
                when = fill(data[key], {"years": _years(to_exact)})
            parts.append(
                fill(
                    data["orb_progression"], {**values, "years": _years(years_in_orb), "when": when}
                )
            )
        sign = sign_of(a.body1)
        if level == "full" and sign is not None:
            parts.insert(2, data["signs"][sign])
        items.append(
            Item(
                f"{section}.{a.body1}.{a.aspect}.{a.body2}",
                section,
                fill(data["titles"][title_key], values),
                join_text(*parts),
                Basis(
                    kind="aspect",
                    body=a.body1,
                    aspect=a.aspect,
                    natal_point=a.body2,
                    orb=round(a.orb, 2),
                    orb_years=round(years_in_orb, 2) if years_in_orb is not None else None,
                ),
            )
        )
    return items


def _years(value: float) -> str:
    return f"{value:.1f}" if value < 10 else f"{value:.0f}"


def progressions_interpretation(
    result: SecondaryProgressions | SolarArcDirections,
    *,
    orb_deg: float,
    language: Language,
    level: Level,
) -> Interpretations:
    """Each progressed (or solar-arc directed) point's major aspect to a natal point, tightest
    first, with its time in orb (module docstring). ``full`` adds the moving point's sign."""
    check(language, level)
    data = texts(language)["events"]
    if isinstance(result, SecondaryProgressions):
        speeds = {p.name: p.speed for p in result.planets}

        def rate(name: str) -> float:
            return speeds.get(name, NAIBOD_DEG_PER_YEAR)

        signs = {p.name: p.sign for p in result.planets}
        signs["ascendant"] = result.angles.ascendant.sign
        signs["midheaven"] = result.angles.midheaven.sign
        items = _progression_items(
            result.aspects_to_natal,
            rate,
            signs.get,
            orb_deg,
            "progression",
            "progressions",
            level,
            data,
        )
    else:
        age = result.meta.age_years
        arc_rate = result.solar_arc / age if age > 0 else NAIBOD_DEG_PER_YEAR

        def arc(name: str) -> float:
            return arc_rate

        directed = {p.name: p.sign for p in result.points}
        items = _progression_items(
            result.aspects_to_natal,
            arc,
            directed.get,
            result.meta.orb_deg,
            "direction",
            "directions",
            level,
            data,
        )
    return Interpretations(language, level, tuple(items))


def returns_interpretation(
    result: ReturnChart, *, language: Language, level: Level
) -> Interpretations:
    """The return's Ascendant sign with the period it covers, and the returning body's house
    (module docstring). ``full`` adds the house's topics for the other luminary too."""
    check(language, level)
    data = texts(language)["events"]
    names = data["names"]
    chart: NatalChart = result.chart
    kind_name = data["kinds"][result.kind]
    period = SIDEREAL_MONTH_DAYS if result.kind == "lunar" else TROPICAL_YEAR_DAYS
    end = result.return_utc + dt.timedelta(days=period)
    asc = chart.angles.ascendant.sign
    values = {
        "kind": kind_name,
        "sign": names["signs"][asc],
        "sign_text": data["signs"][asc],
        "start": _day(result.return_utc),
        "end": _day(end),
    }
    items = [
        Item(
            "return.ascendant",
            "returns",
            fill(data["titles"]["return_ascendant"], values),
            join_text(fill(data["return_ascendant"], values), fill(data["return_period"], values)),
            Basis(
                kind="return",
                angle="ascendant",
                sign=asc,
                start=result.return_utc.isoformat(),
                end=end.isoformat(),
            ),
        )
    ]
    bodies = ["sun", "moon"] if result.kind == "solar" else ["moon", "sun"]
    if level == "summary":
        bodies = bodies[:1]
    planets = {p.name: p for p in chart.planets}
    for body in bodies:
        p = planets.get(body)
        if p is None:
            continue
        house_values = {
            "kind": kind_name,
            "body": names["points"][body],
            "house": names["houses"][str(p.house)],
            "house_text": data["houses"][str(p.house)],
        }
        items.append(
            Item(
                f"return.{body}_house",
                "returns",
                fill(data["titles"]["return_house"], house_values),
                fill(data["return_house"], house_values),
                Basis(kind="return", body=body, sign=p.sign, house=p.house),
            )
        )
    return Interpretations(language, level, tuple(items))
