"""Interpretations (en/th) of the lord of the year and of the zodiacal releasing periods.

Texts live in ``data/western/traditional/<language>.json``: the lord of the year by planet
(summary, and a detail paragraph at level ``full``), the topics of the profected whole-sign
house, each releasing period read through its sign's domicile lord from the Lot of Spirit
(action, career) or of Fortune (body, circumstances) after Valens IV.4-10 and Brennan 2017
ch. 17, the peaks (signs angular to Fortune) and the loosing of the bond. Names come from the
glossary (:mod:`astro_calc.glossary`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from astro_calc import glossary
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
from astro_calc.western.subject import load_data
from astro_calc.western.traditional.timing import Profections, ZodiacalReleasing


def _texts(language: str) -> dict[str, Any]:
    return load_data("western", f"traditional/{language}.json")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def profection_interpretation(
    found: Profections, language: Language = "en", level: Level = "summary"
) -> Interpretations:
    """The lord of the year and the profected house of :func:`profections`' answer."""
    check(language, level)
    data = _texts(language)
    lord = glossary.name("planet", found.lord_of_year, language)
    sign = glossary.name("sign", found.sign, language)
    values = {"lord": lord, "sign": sign, "house": str(found.house), "age": str(found.age)}
    entry = data["lord_of_year"][found.lord_of_year]
    text = entry["summary"] if level == "summary" else join_text(entry["summary"], entry["detail"])
    items = (
        Item(
            key=f"lord_of_year.{found.lord_of_year}",
            section="lord_of_year",
            title=fill(data["titles"]["lord_of_year"], values),
            text=fill(text, values),
            basis=Basis(lord=found.lord_of_year, sign=found.sign, house=found.house),
        ),
        Item(
            key=f"profection_house.{found.house}",
            section="profection_house",
            title=fill(data["titles"]["profection_house"], values),
            text=fill(data["profection_house"][str(found.house)], values),
            basis=Basis(sign=found.sign, house=found.house),
        ),
    )
    return Interpretations(language, level, items)


def releasing_interpretation(
    found: ZodiacalReleasing,
    at: datetime | None = None,
    language: Language = "en",
    level: Level = "summary",
) -> Interpretations:
    """The releasing periods running at ``at`` (an aware instant; default the window's start),
    one item per level, each followed by a peak or loosing-of-the-bond item when it is one."""
    check(language, level)
    data = _texts(language)
    moment = found.start if at is None else at.astimezone(UTC)
    items: list[Item] = []
    for period in found.periods:
        if not period.start <= moment < period.end:
            continue
        values = {
            "lord": glossary.name("planet", period.ruler, language),
            "sign": glossary.name("sign", period.sign, language),
            "level": str(period.level),
        }
        basis = Basis(
            lord=period.ruler,
            sign=period.sign,
            level=period.level,
            start=_iso(period.start),
            end=_iso(period.end),
        )
        items.append(
            Item(
                key=f"releasing.{found.lot}.{period.ruler}",
                section=f"releasing_level_{period.level}",
                title=fill(data["titles"]["releasing"], values),
                text=fill(data["releasing"][found.lot][period.ruler], values),
                basis=basis,
            )
        )
        if period.peak:
            items.append(
                Item(
                    key=f"peak.{period.house_from_fortune}",
                    section=f"releasing_level_{period.level}",
                    title=data["titles"]["peak"],
                    text=data["peak"][str(period.house_from_fortune)],
                    basis=basis,
                )
            )
        if period.loosing_of_the_bond:
            items.append(
                Item(
                    key="loosing_of_the_bond",
                    section=f"releasing_level_{period.level}",
                    title=data["titles"]["loosing_of_the_bond"],
                    text=data["loosing_of_the_bond"],
                    basis=basis,
                )
            )
    return Interpretations(language, level, tuple(items))
