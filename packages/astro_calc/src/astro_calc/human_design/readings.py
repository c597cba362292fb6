"""Readings of a Human Design chart in English and Thai: type, strategy, inner authority,
profile, and each of the nine centres defined or open, in that order. Texts live in
``data/human_design/<language>.json`` (Thai in the glossary's terms, category ``human_design``,
addressing เจ้าชะตา as a chart reading does); ``summary`` gives one or two sentences per item,
``full`` adds the longer paragraph.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from astro_calc.human_design.chart import HumanDesignChart
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


@cache
def texts(language: Language) -> dict[str, Any]:
    """The Human Design texts and names of a language, loaded once."""
    return load_data("human_design", f"{language}.json")


def names(language: Language) -> dict[str, dict[str, str]]:
    """The display names (types, strategies, authorities, centres, profile lines, definitions,
    angles, signatures, not-self themes) in ``language``."""
    found: dict[str, dict[str, str]] = texts(language)["names"]
    return found


def _text(entry: dict[str, str], level: Level) -> str:
    return join_text(entry["summary"], entry["detail"] if level == "full" else "")


def chart_interpretation(
    chart: HumanDesignChart, *, language: Language, level: Level
) -> Interpretations:
    """Items ``type.<type>`` (section ``type``), ``strategy.<strategy>``, ``authority.<name>``,
    ``profile.<n/m>`` and ``center.<name>.defined`` / ``.open`` (section ``centers``, the nine
    in bodygraph order) for ``chart``; ``full`` adds each item's longer paragraph."""
    check(language, level)
    data = texts(language)
    n = data["names"]
    titles = data["titles"]
    first, second = chart.profile.split("/")
    values = {
        "type": n["types"][chart.type],
        "strategy": n["strategies"][chart.strategy],
        "authority": n["authorities"][chart.authority],
        "profile": chart.profile,
        "profile_name": f"{n['profile_lines'][first]} / {n['profile_lines'][second]}",
    }
    items = [
        Item(
            f"type.{chart.type}",
            "type",
            fill(titles["type"], values),
            _text(data["type"][chart.type], level),
            Basis(hd_type=chart.type),
        ),
        Item(
            f"strategy.{chart.strategy}",
            "strategy",
            fill(titles["strategy"], values),
            _text(data["strategy"][chart.strategy], level),
            Basis(hd_type=chart.type, strategy=chart.strategy),
        ),
        Item(
            f"authority.{chart.authority}",
            "authority",
            fill(titles["authority"], values),
            _text(data["authority"][chart.authority], level),
            Basis(authority=chart.authority),
        ),
        Item(
            f"profile.{chart.profile}",
            "profile",
            fill(titles["profile"], values),
            _text(data["profile"][chart.profile], level),
            Basis(profile=chart.profile),
        ),
    ]
    for centre in chart.centers:
        state = "defined" if centre.defined else "open"
        items.append(
            Item(
                f"center.{centre.name}.{state}",
                "centers",
                fill(titles[f"center_{state}"], {"center": n["centers"][centre.name]}),
                _text(data["center"][centre.name][state], level),
                Basis(center=centre.name, defined=centre.defined),
            )
        )
    return Interpretations(language, level, tuple(items))
