"""x-iztro 0.6.1 (iztro 2.6.1, MIT; test dependency only) as the reference for our Zi Wei charts:
its JSON mapped to our keys, so a test compares the two field by field."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from x_iztro import Astro

_ASTRO = Astro()
_PALACE = {
    "soulPalace": "life",
    "siblingsPalace": "siblings",
    "spousePalace": "spouse",
    "childrenPalace": "children",
    "wealthPalace": "wealth",
    "healthPalace": "health",
    "surfacePalace": "travel",
    "friendsPalace": "friends",
    "careerPalace": "career",
    "propertyPalace": "property",
    "spiritPalace": "fortune",
    "parentsPalace": "parents",
}
_MUTAGEN = {"sihuaLu": "lu", "sihuaQuan": "quan", "sihuaKe": "ke", "sihuaJi": "ji"}
_CLASS = {
    "water2nd": ("water", 2),
    "wood3rd": ("wood", 3),
    "metal4th": ("metal", 4),
    "earth5th": ("earth", 5),
    "fire6th": ("fire", 6),
}


def strip(key: str) -> str:
    for suffix in ("Maj", "Min", "Heavenly", "Earthly"):
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key


def _star(s: dict[str, Any], with_marks: bool) -> tuple[Any, ...]:
    if not with_marks:
        return (strip(s["key"]),)
    return (strip(s["key"]), s.get("brightnessKey") or None, _MUTAGEN.get(s.get("mutagenKey", "")))


def reference_chart(
    birth: date, hour_index: int, gender: str, fix_leap: bool = True
) -> dict[str, Any]:
    """Our chart's shape (keys as ours) from x-iztro."""
    c = json.loads(
        _ASTRO.by_solar(
            f"{birth.year}-{birth.month}-{birth.day}", hour_index, gender, fix_leap=fix_leap
        ).to_json()
    )
    raw = c["rawDates"]["lunarDate"]
    palaces = {}
    for p in c["palaces"]:
        palaces[_PALACE[p["nameKey"]]] = {
            "stem": strip(p["heavenlyStemKey"]),
            "branch": strip(p["earthlyBranchKey"]),
            "is_body_palace": p["isBodyPalace"],
            "major_stars": [_star(s, True) for s in p["majorStars"]],
            "minor_stars": [_star(s, True) for s in p["minorStars"]],
            "adjective_stars": [_star(s, False) for s in p["adjectiveStars"]],
            "decadal": tuple(p["decadal"]["range"]),
        }
    return {
        "lunar_date": (raw["lunarYear"], raw["lunarMonth"], raw["lunarDay"], raw["isLeap"]),
        "five_elements_class": _CLASS[c["fiveElementsClassKey"]],
        "soul_star": strip(c["soulKey"]),
        "body_star": strip(c["bodyKey"]),
        "life_palace_branch": strip(c["earthlyBranchOfSoulPalaceKey"]),
        "body_palace_branch": strip(c["earthlyBranchOfBodyPalaceKey"]),
        "palaces": palaces,
    }


def reference_horoscope(birth: date, hour_index: int, gender: str, on: date) -> dict[str, Any]:
    c = _ASTRO.by_solar(f"{birth.year}-{birth.month}-{birth.day}", hour_index, gender)
    h = json.loads(c.horoscope(f"{on.year}-{on.month}-{on.day}", 0).to_json())
    out: dict[str, Any] = {"nominal_age": h["age"]["nominalAge"]}
    for level in ("decadal", "yearly", "monthly"):
        x = h[level]
        out[level] = (
            None
            if x["index"] < 0
            else {
                "palace_branch": strip(_branch_of_index(x["index"])),
                "stem": strip(x["heavenlyStemKey"]),
                "branch": strip(x["earthlyBranchKey"]),
                "stars": tuple(strip(k) for k in x["mutagenStarKeys"]),
            }
        )
    return out


_YIN_FIRST = ("yin", "mao", "chen", "si", "wu", "wei", "shen", "you", "xu", "hai", "zi", "chou")


def _branch_of_index(index: int) -> str:
    return _YIN_FIRST[index]


def ours(chart: Any) -> dict[str, Any]:
    """Our chart in the same shape."""
    palaces = {}
    for p in chart.palaces:
        palaces[p.name] = {
            "stem": p.stem,
            "branch": p.branch,
            "is_body_palace": p.is_body_palace,
            "major_stars": [(s.name, s.brightness, s.transformation) for s in p.major_stars],
            "minor_stars": [(s.name, s.brightness, s.transformation) for s in p.minor_stars],
            "adjective_stars": [(s.name,) for s in p.adjective_stars],
            "decadal": (p.decadal.start_age, p.decadal.end_age),
        }
    ld = chart.lunar_date
    return {
        "lunar_date": (ld.year, ld.month, ld.day, ld.leap),
        "five_elements_class": (
            chart.five_elements_class.element,
            chart.five_elements_class.number,
        ),
        "soul_star": chart.soul_star,
        "body_star": chart.body_star,
        "life_palace_branch": chart.life_palace_branch,
        "body_palace_branch": chart.body_palace_branch,
        "palaces": palaces,
    }
