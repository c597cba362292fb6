"""Vedic interpretations in English and Thai: grahas in rashi and bhava, yogas, dasha periods and
kundli matching. Texts live in ``data/vedic/interpretation/<language>/*.json``.

Yogas found (:func:`find_yogas`), all read from whole-sign positions (rashis counted from the
lagna and from the Moon, whatever house system the chart used), after B.V. Raman, *Three Hundred
Important Combinations* (the same sources PyJHora's ``yoga`` module encodes), in their simplest
sign-based form:

* ``gajakesari``: Jupiter in a kendra (1st, 4th, 7th or 10th rashi) from the Moon (Raman's
  first combination without his further conditions of a benefic aspect and Jupiter's dignity;
  the text says its strength depends on Jupiter's dignity).
* ``budha_aditya``: the Sun and Mercury in the same rashi.
* The five Mahapurusha yogas (Parashara; Raman nos. 19-23): ``ruchaka`` Mars, ``bhadra``
  Mercury, ``hamsa`` Jupiter, ``malavya`` Venus, ``sasa`` Saturn in its own sign or exaltation
  sign, and that sign a kendra from the lagna (Mars: Aries, Scorpio, Capricorn; Mercury:
  Gemini, Virgo; Jupiter: Sagittarius, Pisces, Cancer; Venus: Taurus, Libra, Pisces; Saturn:
  Capricorn, Aquarius, Libra).
* ``sunapha``, ``anapha``, ``durudhara``: one of Mars, Mercury, Jupiter, Venus, Saturn in the
  2nd rashi from the Moon, the 12th, both (durudhara is reported instead of the other two).
* ``kemadruma``: none of Mars, Mercury, Jupiter, Venus, Saturn in the 2nd or 12th rashi from
  the Moon (the Sun and the nodes do not count). Cancellations (reported, the yoga is kept with
  ``cancelled``): ``graha_with_moon`` (one of those five in the Moon's rashi),
  ``graha_in_kendra_from_lagna`` and ``graha_in_kendra_from_moon`` (one of the five in a kendra
  from the lagna / from the Moon). Raman's no. 5 reads the uncancelled yoga as: no planet but
  the Sun in the 1st, 2nd and 12th from the Moon, and no planet but the Moon in a kendra from
  the lagna; the difference is that he counts the Sun and the nodes in the kendras and the
  nodes beside the Moon.
* ``chandra_mangala``: the Moon and Mars in the same rashi.

Checked against PyJHora's ``jhora.horoscope.chart.yoga`` functions on its own positions in
``tests/test_interpretations_vedic.py`` (the definitions compared are stated there).
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any, Final

import msgspec

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
from astro_calc.vedic.chart import SiderealChart
from astro_calc.vedic.dasha import DashaPeriod, VimshottariDasha
from astro_calc.vedic.matching import KundliMatch
from astro_calc.vedic.zodiac import GRAHAS, SIGNS
from astro_calc.western.subject import load_data

YOGAS: Final = (
    "gajakesari",
    "budha_aditya",
    "ruchaka",
    "bhadra",
    "hamsa",
    "malavya",
    "sasa",
    "sunapha",
    "anapha",
    "durudhara",
    "kemadruma",
    "chandra_mangala",
)
#: Mahapurusha yoga -> (graha, its own and exaltation signs as indices 0 = Aries).
MAHAPURUSHA: Final[dict[str, tuple[str, frozenset[int]]]] = {
    "ruchaka": ("mars", frozenset({0, 7, 9})),
    "bhadra": ("mercury", frozenset({2, 5})),
    "hamsa": ("jupiter", frozenset({8, 11, 3})),
    "malavya": ("venus", frozenset({1, 6, 11})),
    "sasa": ("saturn", frozenset({9, 10, 6})),
}
#: The grahas that support the Moon (Sunapha, Anapha, Durudhara, Kemadruma).
TARA_GRAHAS: Final = ("mars", "mercury", "jupiter", "venus", "saturn")
KENDRAS: Final = (0, 3, 6, 9)
_FILES: Final = ("grahas", "yogas", "dasha", "matching")


class Yoga(msgspec.Struct, frozen=True):
    """A yoga found: its ``name`` (:data:`YOGAS`), the ``grahas`` that form it, and for
    Kemadruma whether it is ``cancelled`` and by which ``rules``."""

    name: str
    grahas: tuple[str, ...]
    cancelled: bool = False
    rules: tuple[str, ...] = ()


@cache
def texts(language: Language) -> dict[str, dict[str, Any]]:
    """Every Vedic text file of a language, loaded once."""
    return {name: load_data("vedic", f"interpretation/{language}/{name}.json") for name in _FILES}


def find_yogas(signs: dict[str, int], lagna: int) -> tuple[Yoga, ...]:
    """The yogas of :data:`YOGAS` present, from each graha's rashi index (0 = Aries) and the
    lagna's (definitions in the module docstring), in :data:`YOGAS` order."""
    moon = signs["moon"]
    out: list[Yoga] = []

    def from_moon(graha: str) -> int:
        return (signs[graha] - moon) % 12

    if from_moon("jupiter") in KENDRAS:
        out.append(Yoga("gajakesari", ("jupiter", "moon")))
    if signs["sun"] == signs["mercury"]:
        out.append(Yoga("budha_aditya", ("sun", "mercury")))
    for name, (graha, dignified) in MAHAPURUSHA.items():
        if signs[graha] in dignified and (signs[graha] - lagna) % 12 in KENDRAS:
            out.append(Yoga(name, (graha,)))
    second = tuple(g for g in TARA_GRAHAS if from_moon(g) == 1)
    twelfth = tuple(g for g in TARA_GRAHAS if from_moon(g) == 11)
    if second and twelfth:
        out.append(Yoga("durudhara", (*second, *twelfth)))
    elif second:
        out.append(Yoga("sunapha", second))
    elif twelfth:
        out.append(Yoga("anapha", twelfth))
    else:
        rules: list[str] = []
        if any(from_moon(g) == 0 for g in TARA_GRAHAS):
            rules.append("graha_with_moon")
        if any((signs[g] - lagna) % 12 in KENDRAS for g in TARA_GRAHAS):
            rules.append("graha_in_kendra_from_lagna")
        if any(from_moon(g) in KENDRAS for g in TARA_GRAHAS):
            rules.append("graha_in_kendra_from_moon")
        out.append(Yoga("kemadruma", ("moon",), bool(rules), tuple(rules)))
    if signs["moon"] == signs["mars"]:
        out.append(Yoga("chandra_mangala", ("moon", "mars")))
    order = {name: i for i, name in enumerate(YOGAS)}
    return tuple(sorted(out, key=lambda y: order[y.name]))


def chart_yogas(chart: SiderealChart) -> tuple[Yoga, ...]:
    """:func:`find_yogas` of a sidereal chart."""
    return find_yogas(
        {g.name: g.sign_number - 1 for g in chart.grahas}, chart.lagna.sign_number - 1
    )


def _names(data: dict[str, Any]) -> dict[str, Any]:
    names: dict[str, Any] = data["grahas"]["names"]
    return names


def _graha_items(chart: SiderealChart, level: Level, data: dict[str, Any]) -> list[Item]:
    g_data = data["grahas"]
    names = g_data["names"]
    items: list[Item] = []
    for g in chart.grahas:
        values = {
            "graha": names["grahas"][g.name],
            "rashi": names["rashis"][g.sign],
            "bhava": names["bhavas"][str(g.house)],
        }
        text = g_data["rashi"][g.name][g.sign]
        parts = [text]
        if level == "full":
            parts.insert(0, g_data["graha"][g.name])
            if g.dignity != "none":
                parts.append(fill(g_data["dignity"][g.dignity], values))
                if g.name in ("rahu", "ketu"):
                    parts.append(g_data["dignity"]["nodes_school"])
        items.append(
            Item(
                f"graha_rashi.{g.name}",
                "graha_rashi",
                fill(g_data["titles"]["rashi"], values),
                join_text(*parts),
                Basis(graha=g.name, sign=g.sign, dignity=g.dignity),
            )
        )
    for g in chart.grahas:
        values = {"graha": names["grahas"][g.name], "bhava": names["bhavas"][str(g.house)]}
        items.append(
            Item(
                f"graha_bhava.{g.name}",
                "graha_bhava",
                fill(g_data["titles"]["bhava"], values),
                join_text(
                    g_data["bhava"][g.name][str(g.house)],
                    g_data["bhava_meaning"][str(g.house)] if level == "full" else "",
                ),
                Basis(graha=g.name, sign=g.sign, house=g.house),
            )
        )
    return items


def _yoga_items(yogas: tuple[Yoga, ...], level: Level, data: dict[str, Any]) -> list[Item]:
    y_data = data["yogas"]
    items: list[Item] = []
    for yoga in yogas:
        entry = y_data["yogas"][yoga.name]
        title_key = "yoga_cancelled" if yoga.cancelled else "yoga"
        parts = [entry["summary"]]
        parts.extend(y_data["kemadruma_cancellations"][r] for r in yoga.rules[:1])
        if level == "full":
            parts.append(entry["detail"])
            parts.extend(y_data["kemadruma_cancellations"][r] for r in yoga.rules[1:])
            parts.append(y_data["school"])
        items.append(
            Item(
                f"yoga.{yoga.name}",
                "yogas",
                fill(y_data["titles"][title_key], {"yoga": entry["name"]}),
                join_text(*parts),
                Basis(
                    yoga=yoga.name,
                    bodies=yoga.grahas,
                    cancelled=yoga.cancelled if yoga.name == "kemadruma" else None,
                    rules=yoga.rules or None,
                ),
            )
        )
    return items


def chart_interpretation(
    chart: SiderealChart, *, language: Language, level: Level
) -> Interpretations:
    """Each graha in its rashi (section ``graha_rashi``) and bhava (``graha_bhava``, the chart's
    houses), then the yogas found (``yogas``). ``full`` adds each graha's significations, its
    dignity (exalted, moolatrikona, own, debilitated), what each bhava governs and each yoga's
    longer paragraph."""
    check(language, level)
    data = texts(language)
    items = _graha_items(chart, level, data)
    items.extend(_yoga_items(chart_yogas(chart), level, data))
    return Interpretations(language, level, tuple(items))


def _day(moment: dt.datetime) -> str:
    return moment.date().isoformat()


def dasha_interpretation(
    dasha: VimshottariDasha, chart: SiderealChart, *, language: Language, level: Level
) -> Interpretations:
    """Each mahadasha's lord in its natal placement (``chart``: the same birth), then the running
    antardasha and pratyantardasha (when ``dasha.current`` is set). ``full`` adds the lord's
    rashi and bhava texts."""
    check(language, level)
    data = texts(language)
    d_data = data["dasha"]
    g_data = data["grahas"]
    names = g_data["names"]
    placed = {g.name: g for g in chart.grahas}
    current = dasha.current

    def item(period: DashaPeriod, key: str, title: str, extra: list[str]) -> Item:
        g = placed[period.lord]
        values = {
            "rashi": names["rashis"][g.sign],
            "bhava": names["bhavas"][str(g.house)],
        }
        parts = [*extra, d_data["lords"][period.lord], fill(d_data["placement"], values)]
        if level == "full":
            parts.append(g_data["rashi"][g.name][g.sign])
            parts.append(g_data["bhava"][g.name][str(g.house)])
        return Item(
            key,
            "dasha",
            title,
            join_text(*parts),
            Basis(
                lord=period.lord,
                level=period.level,
                start=period.start.isoformat(),
                end=period.end.isoformat(),
                sign=g.sign,
                house=g.house,
            ),
        )

    items: list[Item] = []
    for maha in dasha.mahadashas:
        running = current is not None and current.mahadasha == maha.lord
        running = running and maha.start <= current.at < maha.end  # type: ignore[union-attr]
        values = {
            "lord": names["grahas"][maha.lord],
            "start": _day(maha.start),
            "end": _day(maha.end),
        }
        items.append(
            item(
                maha,
                f"mahadasha.{maha.start.year}.{maha.lord}",
                fill(d_data["titles"]["mahadasha"], values),
                [d_data["current"]] if running else [],
            )
        )
        if running and current is not None:
            for antar in maha.sub_periods:
                if not antar.start <= current.at < antar.end:
                    continue
                values_a = {
                    "lord": names["grahas"][antar.lord],
                    "maha": names["grahas"][maha.lord],
                    "start": _day(antar.start),
                    "end": _day(antar.end),
                }
                items.append(
                    item(
                        antar,
                        f"antardasha.{antar.lord}",
                        fill(d_data["titles"]["antardasha"], values_a),
                        [d_data["current"], d_data["sub_period"]],
                    )
                )
                for pratyantar in antar.sub_periods:
                    if not pratyantar.start <= current.at < pratyantar.end:
                        continue
                    values_p = {
                        "lord": names["grahas"][pratyantar.lord],
                        "start": _day(pratyantar.start),
                        "end": _day(pratyantar.end),
                    }
                    items.append(
                        item(
                            pratyantar,
                            f"pratyantardasha.{pratyantar.lord}",
                            fill(d_data["titles"]["pratyantardasha"], values_p),
                            [d_data["current"], d_data["sub_period"]],
                        )
                    )
    return Interpretations(language, level, tuple(items))


def _score(value: float) -> str:
    return f"{value:g}"


def _recommendation_item(match: KundliMatch, m_data: dict[str, Any]) -> Item:
    """The verdict's ``recommended`` in words, with its ``reasons``: a total in the good band
    with an uncancelled dosha reads "good band, yet not recommended" (issue 47), never a bare
    "good" beside ``recommended: false``."""
    words = m_data["recommendation"]
    verdict = match.verdict
    if verdict.recommended:
        text = words["recommended"]
    else:
        reasons = str(words["joiner"]).join(words["reasons"][r] for r in verdict.reasons)
        key = "not_recommended" if verdict.band == "not_recommended" else "despite_band"
        band = words["bands"].get(verdict.band, "")
        text = fill(words[key], {"reasons": reasons, "band": band})
    return Item(
        "verdict.recommendation",
        "kootas",
        words["title"],
        text,
        Basis(score=match.total, max=match.max, rules=verdict.reasons or None),
    )


def matching_interpretation(
    match: KundliMatch, *, language: Language, level: Level
) -> Interpretations:
    """What each koota's score means (full, partial or no points), the total's band, and each
    dosha present with its cancellations in words. ``full`` adds what each koota measures."""
    check(language, level)
    m_data = texts(language)["matching"]
    names = m_data["names"]
    items: list[Item] = []
    for k in match.kootas:
        entry = m_data["kootas"][k.name]
        band = "full" if k.score >= k.max else "none" if k.score <= 0 else "partial"
        parts = [entry[band]]
        if level == "full":
            parts.insert(0, entry["meaning"])
        values = {"koota": names["kootas"][k.name], "score": _score(k.score), "max": _score(k.max)}
        items.append(
            Item(
                f"koota.{k.name}",
                "kootas",
                fill(m_data["titles"]["koota"], values),
                join_text(*parts),
                Basis(koota=k.name, score=k.score, max=k.max),
            )
        )
    items.append(
        Item(
            "koota.total",
            "kootas",
            fill(
                m_data["titles"]["total"], {"score": _score(match.total), "max": _score(match.max)}
            ),
            m_data["total"][match.verdict.band],
            Basis(score=match.total, max=match.max),
        )
    )
    items.append(_recommendation_item(match, m_data))
    rules: dict[tuple[str, str], list[str]] = {}
    for c in match.cancellations:
        rules.setdefault((c.dosha, c.person), []).append(c.rule)
    present = [d for d in match.doshas if d.present]
    for d in present:
        found = rules.get((d.name, d.person), [])
        values = {"dosha": names["doshas"][d.name], "person": names["persons"][d.person]}
        parts = [fill(m_data["doshas"][d.name], values)]
        parts.extend(m_data["cancellations"][r] for r in (found if level == "full" else found[:1]))
        items.append(
            Item(
                f"dosha.{d.name}.{d.person}",
                "doshas",
                fill(m_data["titles"]["dosha_cancelled" if d.cancelled else "dosha"], values),
                join_text(*parts),
                Basis(
                    dosha=d.name,
                    person=d.person,
                    cancelled=d.cancelled,
                    rules=tuple(found) or None,
                ),
            )
        )
    if all(d.cancelled for d in present):
        items.append(
            Item("dosha.none", "doshas", m_data["titles"]["no_dosha"], m_data["absent"], Basis())
        )
    return Interpretations(language, level, tuple(items))


__all__ = [
    "GRAHAS",
    "MAHAPURUSHA",
    "SIGNS",
    "YOGAS",
    "Yoga",
    "chart_interpretation",
    "chart_yogas",
    "dasha_interpretation",
    "find_yogas",
    "matching_interpretation",
]
