"""Rule-based Vedic remedies, each tied to the reason found in the chart.

Rules (each produces one remedy for one graha, with the reason and its detail):

* ``weak_planet``: one of the seven planets is debilitated or combust (see
  :mod:`astro_calc.vedic.chart` for dignity and combustion conventions).
* ``afflicted_planet``: one of the seven planets shares its sign with Rahu or Ketu.
* ``manglik``: Manglik dosha present and not cancelled (:func:`matching.manglik_status`).
* ``kaal_sarp``: all seven planets lie within the 180 degrees from Rahu to Ketu (or from Ketu
  to Rahu); remedies for Rahu and for Ketu.
* ``sade_sati``: a Sade Sati period is running at the given date; remedy for Saturn.
* ``dasha_lord``: the current mahadasha or antardasha lord is a natural malefic (Sun, Mars,
  Saturn, Rahu, Ketu) or weak by the first rule.

The remedy texts (gemstone, mantra, deity, charity, fasting day, colour) and reason texts live in
``astro_calc/data/vedic/remedies.json`` in English and Thai; a test proves every key these rules
can produce has both.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any, Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.vedic.chart import NodeType, SiderealChart, sidereal_chart_at
from astro_calc.vedic.dasha import vimshottari_from_moon
from astro_calc.vedic.matching import manglik_status
from astro_calc.vedic.sade_sati import sade_sati
from astro_calc.vedic.subject import BirthSubject, birth_moment

Language = Literal["en", "th"]
REMEDY_FIELDS: Final = ("gemstone", "mantra", "deity", "charity", "fasting_day", "colour")
REASONS: Final = (
    "weak_planet",
    "afflicted_planet",
    "manglik",
    "kaal_sarp",
    "sade_sati",
    "dasha_lord",
)
_MALEFICS: Final = frozenset({"sun", "mars", "saturn", "rahu", "ketu"})
_SEVEN: Final = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn")


class Remedy(msgspec.Struct, frozen=True):
    reason: str
    planet: str
    detail: str
    explanation: str
    gemstone: str
    mantra: str
    deity: str
    charity: str
    fasting_day: str
    colour: str


class RemedyReport(msgspec.Struct, frozen=True):
    language: str
    at: datetime
    remedies: tuple[Remedy, ...]


@lru_cache(maxsize=1)
def remedy_texts() -> dict[str, Any]:
    """The remedy data file (planets, reasons, details; each text with ``en`` and ``th``)."""
    raw = resources.files("astro_calc").joinpath("data", "vedic", "remedies.json")
    data: dict[str, Any] = json.loads(raw.read_text(encoding="utf-8"))
    return data


def _remedy(reason: str, planet: str, detail: str, language: Language) -> Remedy:
    texts = remedy_texts()
    p = texts["planets"][planet]
    detail_text = texts["details"].get(detail, {}).get(language, detail)
    explanation = texts["reasons"][reason][language].format(
        planet=texts["planet_names"][planet][language], detail=detail_text
    )
    return Remedy(
        reason,
        planet,
        detail,
        explanation,
        *(p[field][language] for field in REMEDY_FIELDS),
    )


def remedy_reasons(
    chart: SiderealChart,
    *,
    sade_sati_phase: str | None,
    mahadasha_lord: str | None,
    antardasha_lord: str | None,
) -> list[tuple[str, str, str]]:
    """The (reason, planet, detail) triples the rules find in a chart (module docstring)."""
    found: list[tuple[str, str, str]] = []
    weak: dict[str, str] = {}
    for name in _SEVEN:
        g = chart.graha(name)
        if g.dignity == "debilitated":
            weak[name] = "debilitated"
        elif g.combust:
            weak[name] = "combust"
    found.extend(("weak_planet", name, detail) for name, detail in weak.items())
    rahu, ketu = chart.graha("rahu"), chart.graha("ketu")
    for name in _SEVEN:
        g = chart.graha(name)
        if g.sign == rahu.sign:
            found.append(("afflicted_planet", name, "with_rahu"))
        elif g.sign == ketu.sign:
            found.append(("afflicted_planet", name, "with_ketu"))

    mars, moon, jup = chart.graha("mars"), chart.graha("moon"), chart.graha("jupiter")
    m = manglik_status(
        mars.longitude_deg, moon.longitude_deg, chart.lagna.longitude_deg, jup.longitude_deg
    )
    if m.present and not m.cancelled:
        found.append(("manglik", "mars", str(m.houses_from_lagna)))

    offsets = [(chart.graha(n).longitude_deg - rahu.longitude_deg) % 360.0 for n in _SEVEN]
    if all(o < 180.0 for o in offsets):
        found.extend([("kaal_sarp", "rahu", "rahu_to_ketu"), ("kaal_sarp", "ketu", "rahu_to_ketu")])
    elif all(o > 180.0 for o in offsets):
        found.extend([("kaal_sarp", "rahu", "ketu_to_rahu"), ("kaal_sarp", "ketu", "ketu_to_rahu")])

    if sade_sati_phase is not None:
        found.append(("sade_sati", "saturn", sade_sati_phase))
    for level, lord in (("mahadasha", mahadasha_lord), ("antardasha", antardasha_lord)):
        if lord is not None and (lord in _MALEFICS or lord in weak):
            found.append(("dasha_lord", lord, level))
    return found


def remedies(
    subject: BirthSubject,
    at: datetime,
    *,
    language: Language = "en",
    node: NodeType = "mean",
) -> RemedyReport:
    """Remedies for a birth subject at the date ``at`` (which decides Sade Sati and the running
    dasha lords), each tied to its reason (module docstring), in English or Thai."""
    if language not in ("en", "th"):
        raise CalcInputError("language", "must be 'en' or 'th'")
    moment = birth_moment(subject)
    at_jd = ephemeris.julian_day(at)
    chart = sidereal_chart_at(
        moment.jd_ut,
        subject.latitude,
        subject.longitude,
        ayanamsa=subject.ayanamsa,
        node=node,
        divisional_charts=("D1",),
    )
    moon_lon = chart.graha("moon").longitude_deg
    dasha = vimshottari_from_moon(moment.jd_ut, moon_lon, depth=1, at_jd_ut=at_jd)
    # Sade Sati lasts about 7.5 years: search a window around the date only.
    ss = sade_sati(moon_lon, at_jd - 9 * 365.25, years=18.0, ayanamsa=subject.ayanamsa)
    phase: str | None = None
    active = ss.active_at(ephemeris.datetime_from_jd(at_jd))
    if active is not None:
        now = ephemeris.datetime_from_jd(at_jd)
        for ph in active.phases:
            if ph.start <= now < ph.end:
                phase = ph.phase
    cur = dasha.current
    triples = remedy_reasons(
        chart,
        sade_sati_phase=phase,
        mahadasha_lord=cur.mahadasha if cur else None,
        antardasha_lord=cur.antardasha if cur else None,
    )
    return RemedyReport(
        language,
        ephemeris.datetime_from_jd(at_jd),
        tuple(_remedy(r, p, d, language) for r, p, d in triples),
    )
