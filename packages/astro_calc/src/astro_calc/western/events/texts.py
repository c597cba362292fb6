"""Titles and short interpretations (en/th) of sky events, planetary hours and forecast
transits, from ``data/western/events/<language>.json`` with the glossary's names."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from astro_calc import glossary
from astro_calc.errors import CalcInputError
from astro_calc.glossary import LANGUAGES, Language
from astro_calc.western.events.forecast import Transit
from astro_calc.western.events.hours import PlanetaryHour
from astro_calc.western.events.sky import (
    EclipseEvent,
    IngressEvent,
    LunationEvent,
    SkyEvent,
    StationEvent,
    VoidOfCourseEvent,
)
from astro_calc.western.subject import load_data

_PHASE_TERMS = {
    "new": "new_moon",
    "first_quarter": "first_quarter",
    "full": "full_moon",
    "last_quarter": "last_quarter",
}


class EventText(msgspec.Struct, frozen=True):
    title: str
    text: str


@cache
def _data(language: Language) -> dict[str, Any]:
    return load_data("western", f"events/{language}.json")


def _check(language: str) -> Language:
    if language not in LANGUAGES:
        raise CalcInputError("language", f"one of {', '.join(LANGUAGES)}")
    return language


def _planet(key: str, language: Language) -> str:
    return glossary.name("planet", key, language)


def _sign(key: str, language: Language) -> str:
    return glossary.name("sign", key, language)


def _point(key: str, language: Language) -> str:
    category = "point" if key in ("ascendant", "midheaven") else "planet"
    return glossary.name(category, key, language)


def describe(event: SkyEvent, language: str = "en") -> EventText:
    """The title and short text of a sky event in ``language`` (en or th)."""
    lang = _check(language)
    data = _data(lang)
    titles, texts = data["titles"], data["texts"]
    if isinstance(event, EclipseEvent):
        eclipse = glossary.name(
            "sky_event", "solar_eclipse" if event.body == "sun" else "lunar_eclipse", lang
        )
        kind = glossary.name("sky_event", event.eclipse_type, lang, short=True)
        title = titles["eclipse"].format(type=kind, eclipse=eclipse)
        if lang == "en":
            title = title[:1].upper() + title[1:]
        text = f"{texts['eclipse'][event.body]} {texts['eclipse_type'][event.eclipse_type]}"
        return EventText(title, text)
    if isinstance(event, LunationEvent):
        phase = glossary.name("sky_event", _PHASE_TERMS[event.phase], lang)
        title = titles["lunation"].format(phase=phase, sign=_sign(event.sign, lang))
        return EventText(title, texts["lunation"][event.phase])
    if isinstance(event, IngressEvent):
        key = "ingress_retrograde" if event.retrograde else "ingress"
        title = titles[key].format(body=_planet(event.body, lang), sign=_sign(event.sign, lang))
        return EventText(title, texts["ingress"][event.body])
    if isinstance(event, StationEvent):
        title = titles[f"station_{event.direction}"].format(
            body=_planet(event.body, lang), sign=_sign(event.sign, lang)
        )
        return EventText(title, texts["station"][event.direction])
    if isinstance(event, VoidOfCourseEvent):
        title = titles["void_of_course"].format(
            sign=_sign(event.sign, lang), next_sign=_sign(event.next_sign, lang)
        )
        return EventText(title, texts["void_of_course"])
    raise CalcInputError("event", f"not a sky event: {type(event).__name__}")


def describe_hour(hour: PlanetaryHour, language: str = "en") -> EventText:
    """The title and short text of a planetary hour."""
    lang = _check(language)
    data = _data(lang)
    ruler = _planet(hour.ruler, lang)
    return EventText(
        data["titles"]["planetary_hour"].format(ruler=ruler),
        data["texts"]["planetary_hour"][hour.ruler],
    )


def describe_transit(transit: Transit, language: str = "en") -> EventText:
    """The title and short text of a forecast transit."""
    lang = _check(language)
    data = _data(lang)
    title = data["titles"]["transit"].format(
        transiting=_planet(transit.transiting, lang),
        aspect=glossary.name("aspect", transit.aspect, lang),
        natal=_point(transit.natal, lang),
    )
    return EventText(title, data["texts"]["transit"][transit.aspect])
