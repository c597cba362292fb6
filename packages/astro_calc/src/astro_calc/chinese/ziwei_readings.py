"""English and Thai readings of a Zi Wei Dou Shu chart, from ``data/chinese/ziwei_readings.json``
(texts written for this project in the glossary's terms; register เจ้าชะตา).

Topics, in order: the life palace (one reading per major star there, or the empty-palace reading
when it has none), the four birth-year transformations (the star, the natal palace holding it and
that palace's domain), and the palace where the body palace falls.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Final, Literal

import msgspec

from astro_calc.chinese.ziwei import MAJOR_KEYS, PALACE_KEYS, TRANSFORMATIONS, ZiweiChart, label

ZiweiTopic = Literal["life_palace", "transformation", "body_palace"]
#: The palaces the body palace can share (the hour moves it in steps of two from the life palace).
BODY_PALACES: Final = ("life", "spouse", "wealth", "travel", "career", "fortune")


class ZiweiReading(msgspec.Struct, frozen=True):
    topic: ZiweiTopic
    key: str
    en: str
    th: str


def _load() -> dict[str, dict[str, str]]:
    path = resources.files("astro_calc").joinpath("data/chinese/ziwei_readings.json")
    data: dict[str, dict[str, str]] = json.loads(path.read_text("utf-8"))
    data.pop("_about", None)
    return data


TEXTS: Final = _load()


def producible_keys() -> frozenset[str]:
    """Every text key :func:`ziwei_readings` can use."""
    keys = {f"life.{k}" for k in MAJOR_KEYS} | {"life.empty"}
    keys |= {f"transformation.{k}" for k in TRANSFORMATIONS}
    keys |= {f"area.{p}" for p in PALACE_KEYS}
    keys |= {f"body.{p}" for p in BODY_PALACES}
    return frozenset(keys)


def _short(name: str) -> str:
    return name.split(" (", 1)[0]


def ziwei_readings(chart: ZiweiChart) -> tuple[ZiweiReading, ...]:
    """The readings of a chart in both languages (see the module docstring)."""
    life = chart.palaces[0]
    out = [
        ZiweiReading("life_palace", f"life.{s.name}", **TEXTS[f"life.{s.name}"])
        for s in life.major_stars
    ]
    if not life.major_stars:
        out.append(ZiweiReading("life_palace", "life.empty", **TEXTS["life.empty"]))
    found = {
        s.transformation: (palace.name, s.name, kind)
        for palace in chart.palaces
        for kind, stars in (("major", palace.major_stars), ("minor", palace.minor_stars))
        for s in stars
        if s.transformation
    }
    for kind in TRANSFORMATIONS:
        palace, star, star_kind = found[kind]
        key = f"transformation.{kind}"
        text = {
            lang: TEXTS[key][lang].format(
                star=_short(label("stars", star, lang, star_kind)),
                palace=label("palaces", palace, lang),
                area=TEXTS[f"area.{palace}"][lang],
            )
            for lang in ("en", "th")
        }
        out.append(ZiweiReading("transformation", f"{key}.{star}.{palace}", **text))
    body = next(p.name for p in chart.palaces if p.is_body_palace)
    out.append(ZiweiReading("body_palace", f"body.{body}", **TEXTS[f"body.{body}"]))
    return tuple(out)
