"""Daily horoscopes for the twelve signs, written from the day's real sky.

Method (solar-sign horoscopy):

* Houses are whole-sign solar houses: the reader's sign is the 1st house, the next sign the 2nd,
  and so on. A body's house for a sign is ``(body's sign - reader's sign) mod 12 + 1``.
* Rulers are the traditional ones: Aries and Scorpio Mars, Taurus and Libra Venus, Gemini and
  Virgo Mercury, Cancer the Moon, Leo the Sun, Sagittarius and Pisces Jupiter, Capricorn and
  Aquarius Saturn.
* Sections and their significators: love (Venus, Mars; houses 5 and 7), career (Saturn, Sun;
  10 and 6), money (Jupiter, Venus; 2 and 8), health (Mars, Sun; 1 and 6).
* Rating of a section, from 3: +0.5 when the Moon (at 12:00 UTC) is in one of its houses, -0.5
  when the Moon is in the 12th; for each exact aspect of the day touching a significator, +1 if
  sextile or trine, -1 if square or opposition, +-0.5 for a conjunction with Venus or Jupiter
  (+) or Mars, Saturn or Pluto (-), the aspect total held within +-2; -0.5 if the first
  significator is retrograde and -0.5 if a significator stations that day. Rounded half up,
  held within 1..5. Overall: the mean of the four, +0.5 / -0.5 for a harmonious / challenging
  aspect to the sign's ruler, rounded and held within 1..5.
* The text opens with the Moon's sign at 12:00 UTC; on a day the Moon changes sign it opens
  with the sign the Moon leaves and then states the ingress (never "in X ... moves into X").
* Lucky planet: of the seven classical planets, the one in the reader's most fortunate solar
  house (in the order 5, 9, 1, 11, 10, 2, 7, 3, 4, 8, 6, 12; ties in the order Sun .. Saturn).
  Its colour is its Thai weekday colour (Sun red, Moon yellow, Mars pink, Mercury green, Jupiter
  orange, Venus light blue, Saturn purple); the lucky number is the planet's Thai number (Sun 1,
  Moon 2, Mars 3, Mercury 4, Jupiter 5, Venus 6, Saturn 7) followed by the digit root of the
  day of the month plus that house.

Every sentence comes from a template keyed by the fact it states; :class:`SkyFact` lists the
facts each horoscope rests on. Deterministic for (sign, date, language).
"""

from __future__ import annotations

import math
from datetime import date
from typing import Annotated, Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.horoscope.sky import (
    CHALLENGING,
    HARMONIOUS,
    SIGNS,
    DailySky,
    SkyEvent,
    daily_sky,
)
from astro_calc.horoscope.texts import (
    GENERATOR_VERSION,
    choose_variant,
    format_time,
    horoscope_texts,
    render,
)

SectionName = Literal["love", "career", "money", "health"]
SECTIONS: Final[tuple[SectionName, ...]] = ("love", "career", "money", "health")
RULERS: Final[dict[str, str]] = {
    "aries": "mars",
    "taurus": "venus",
    "gemini": "mercury",
    "cancer": "moon",
    "leo": "sun",
    "virgo": "mercury",
    "libra": "venus",
    "scorpio": "mars",
    "sagittarius": "jupiter",
    "capricorn": "saturn",
    "aquarius": "saturn",
    "pisces": "jupiter",
}
SIGNIFICATORS: Final[dict[str, tuple[str, str]]] = {
    "love": ("venus", "mars"),
    "career": ("saturn", "sun"),
    "money": ("jupiter", "venus"),
    "health": ("mars", "sun"),
}
SECTION_HOUSES: Final[dict[str, frozenset[int]]] = {
    "love": frozenset({5, 7}),
    "career": frozenset({10, 6}),
    "money": frozenset({2, 8}),
    "health": frozenset({1, 6}),
}
_LUCKY_HOUSE_ORDER: Final = (5, 9, 1, 11, 10, 2, 7, 3, 4, 8, 6, 12)
_CLASSICAL: Final = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn")
THAI_PLANET_NUMBERS: Final[dict[str, int]] = {
    "sun": 1,
    "moon": 2,
    "mars": 3,
    "mercury": 4,
    "jupiter": 5,
    "venus": 6,
    "saturn": 7,
}
_BENEFICS: Final = frozenset({"venus", "jupiter"})
_MALEFICS: Final = frozenset({"mars", "saturn", "pluto"})


class SkyFact(msgspec.Struct, frozen=True):
    """A fact of the day's sky that the text states. ``at`` is the exact UTC instant for events
    and the 12:00 UTC snapshot for placements; ``house`` is the reader's solar house."""

    kind: Literal[
        "moon_sign", "moon_phase", "placement", "aspect", "ingress", "station", "lunation"
    ]
    at: Annotated[str, msgspec.Meta(extra_json_schema={"format": "date-time"})]  # UTC, "Z"
    bodies: tuple[str, ...]
    sign: str | None = None
    house: int | None = None
    aspect: str | None = None
    direction: str | None = None
    phase: str | None = None
    retrograde: bool | None = None


class HoroscopeSection(msgspec.Struct, frozen=True):
    text: str
    rating: int  # 1..5


class DailyHoroscope(msgspec.Struct, frozen=True):
    sign: str
    sign_name: str
    date: date
    language: str
    overall: HoroscopeSection
    love: HoroscopeSection
    career: HoroscopeSection
    money: HoroscopeSection
    health: HoroscopeSection
    lucky_number: int
    lucky_colour: str
    lucky_planet: str
    moon_sign: str
    moon_phase: str
    moon_house: int
    ruler: str
    facts: tuple[SkyFact, ...]
    generator: str = GENERATOR_VERSION


def solar_house(body_sign: str, reader_sign: str) -> int:
    """Whole-sign solar house (1-12) of a body's sign for a reader's sign."""
    return (SIGNS.index(body_sign) - SIGNS.index(reader_sign)) % 12 + 1


def _iso(moment: object) -> str:
    text = moment.isoformat()  # type: ignore[attr-defined]
    return str(text).replace("+00:00", "Z")


def _round_rating(value: float) -> int:
    return max(1, min(5, math.floor(value + 0.5)))


def _band(rating: int) -> str:
    return "low" if rating <= 2 else "mid" if rating == 3 else "high"


def _aspect_nature(event: SkyEvent) -> str:
    assert event.aspect is not None
    if event.aspect in HARMONIOUS:
        return "harmonious"
    if event.aspect in CHALLENGING:
        return "challenging"
    return "conjunction"


def _aspect_score(event: SkyEvent, planet: str) -> float:
    nature = _aspect_nature(event)
    if nature == "harmonious":
        return 1.0
    if nature == "challenging":
        return -1.0
    other = next(b for b in event.bodies if b != planet)
    if other in _BENEFICS:
        return 0.5
    if other in _MALEFICS:
        return -0.5
    return 0.0


class _Writer:
    """Builds one sign's horoscope: picks phrasings, fills slots, records the facts used."""

    def __init__(self, sky: DailySky, sign: str, language: str) -> None:
        self.sky = sky
        self.sign = sign
        self.language = language
        self.texts = horoscope_texts(language)
        self.names = self.texts["names"]
        self.facts: list[SkyFact] = []
        self.mentioned_houses: set[int] = set()
        self.moon_house = solar_house(sky.moon_sign, sign)
        self.base_slots: dict[str, object] = {
            "sign": self.names["signs"][sign],
            "moon_sign": self.names["signs"][sky.moon_sign],
            "moon_house": self.moon_house,
            "moon_house_ord": self.names["ordinals"][str(self.moon_house)],
            "moon_house_topic": self.names["houses"][str(self.moon_house)],
            "phase": self.names["phases"][sky.moon_phase],
        }

    def sentence(self, key: str, **slots: object) -> str:
        variants: list[str] = self.texts["templates"][key]
        index = choose_variant(
            len(variants), sign=self.sign, day=self.sky.date, language=self.language, key=key
        )
        template = variants[index]
        merged = {**self.base_slots, **slots}
        # A house's topic is written in full at its first mention in the reading and by its
        # short name after that (the glossary's rule for repeat mentions), so a long topic such
        # as "love, creativity and play" is not read three times in one horoscope.
        for prefix in ("", "moon_", "ruler_"):
            topic, house = f"{prefix}house_topic", merged.get(f"{prefix}house")
            if "{" + topic + "}" not in template or house is None:
                continue
            if house in self.mentioned_houses:
                merged[topic] = self.names["houses_short"][str(house)]
            else:
                self.mentioned_houses.add(int(str(house)))
        return render(template, merged, self.language)

    def planet(self, body: str) -> str:
        name: str = self.names["planets"][body]
        return name

    def house_slots(self, sign: str, prefix: str = "") -> dict[str, object]:
        house = solar_house(sign, self.sign)
        return {
            f"{prefix}house": house,
            f"{prefix}house_ord": self.names["ordinals"][str(house)],
            f"{prefix}house_topic": self.names["houses"][str(house)],
        }

    def aspect_slots(self, event: SkyEvent, planet: str) -> dict[str, object]:
        assert event.aspect is not None
        other = next(b for b in event.bodies if b != planet)
        return {
            "planet": self.planet(planet),
            "other": self.planet(other),
            "aspect": self.names["aspects"][event.aspect],
            "aspect_phrase": self.names["aspect_phrases"][event.aspect],
            "time": format_time(event.at, self.language),
        }

    def record_event(self, event: SkyEvent) -> None:
        house = None
        if event.sign is not None:
            house = solar_house(event.sign, self.sign)
        fact = SkyFact(
            kind=event.kind,
            at=_iso(event.at),
            bodies=event.bodies,
            sign=event.sign,
            house=house,
            aspect=event.aspect,
            direction=event.direction,
            phase=event.lunation,
        )
        if fact not in self.facts:
            self.facts.append(fact)

    def record_placement(self, body: str) -> None:
        placement = self.sky.placement(body)
        fact = SkyFact(
            kind="placement",
            at=_iso(self.sky.snapshot_utc),
            bodies=(body,),
            sign=placement.sign,
            house=solar_house(placement.sign, self.sign),
            retrograde=placement.retrograde,
        )
        if fact not in self.facts:
            self.facts.append(fact)


def _aspects_touching(sky: DailySky, bodies: tuple[str, ...]) -> list[SkyEvent]:
    return [e for e in sky.events if e.kind == "aspect" and any(b in e.bodies for b in bodies)]


def _pick_aspect(events: list[SkyEvent], prefer: str) -> SkyEvent | None:
    """The aspect to write about: one touching ``prefer`` first, harmonious/challenging before
    conjunctions, slower partners (rarer aspects) before the Moon's, then the earliest."""
    if not events:
        return None

    def key(e: SkyEvent) -> tuple[int, int, int, str]:
        return (
            0 if prefer in e.bodies else 1,
            0 if e.aspect != "conjunction" else 1,
            1 if "moon" in e.bodies else 0,
            e.at.isoformat(),
        )

    return min(events, key=key)


def _section(writer: _Writer, section: SectionName) -> HoroscopeSection:
    sky = writer.sky
    primary, secondary = SIGNIFICATORS[section]
    placement = sky.placement(primary)
    writer.record_placement(primary)
    sentences: list[str] = []
    slots = {
        "planet": writer.planet(primary),
        "planet_sign": writer.names["signs"][placement.sign],
        **writer.house_slots(placement.sign),
    }
    key = f"{section}.planet_retrograde" if placement.retrograde else f"{section}.planet"
    sentences.append(writer.sentence(key, **slots))

    touching = _aspects_touching(sky, (primary, secondary))
    chosen = _pick_aspect(touching, primary)
    if chosen is None:
        sentences.append(writer.sentence(f"{section}.quiet", planet=writer.planet(primary)))
    else:
        focus = primary if primary in chosen.bodies else secondary
        writer.record_event(chosen)
        sentences.append(
            writer.sentence(
                f"{section}.{_aspect_nature(chosen)}", **writer.aspect_slots(chosen, focus)
            )
        )

    score = 3.0
    if writer.moon_house in SECTION_HOUSES[section]:
        score += 0.5
    if writer.moon_house == 12:
        score -= 0.5
    aspect_total = 0.0
    for event in touching:
        focus = primary if primary in event.bodies else secondary
        aspect_total += _aspect_score(event, focus)
    score += max(-2.0, min(2.0, aspect_total))
    if placement.retrograde:
        score -= 0.5
    if any(e.kind == "station" and e.bodies[0] in (primary, secondary) for e in sky.events):
        score -= 0.5
    rating = _round_rating(score)
    # The closing advice names the house of the section's significator (or the reader's sign),
    # so one line is not repeated across the month (issue 47).
    sentences.append(
        writer.sentence(f"{section}.close.{_band(rating)}", **writer.house_slots(placement.sign))
    )
    return HoroscopeSection(text=" ".join(sentences), rating=rating)


def _overall(writer: _Writer) -> tuple[list[str], float]:
    """The overall section's sentences but its closing line, and the ruler's rating modifier;
    written before the other sections because it is read first (first mentions, above)."""
    sky = writer.sky
    moon_ingress = [e for e in sky.events if e.kind == "ingress" and e.bodies == ("moon",)]
    if moon_ingress:
        # The Moon changes sign today: open with the sign it starts the day in, so the text
        # never says it is in a sign and then moves into that same sign (issue 47).
        assert moon_ingress[0].sign is not None
        start_sign = SIGNS[(SIGNS.index(moon_ingress[0].sign) - 1) % 12]
        start_house = solar_house(start_sign, writer.sign)
        opening = writer.sentence(
            "overall.moon_leaving",
            moon_sign=writer.names["signs"][start_sign],
            moon_house=start_house,
            moon_house_ord=writer.names["ordinals"][str(start_house)],
            moon_house_topic=writer.names["houses"][str(start_house)],
        )
    else:
        opening = writer.sentence("overall.moon")
    sentences = [opening]
    writer.facts.insert(
        0,
        SkyFact(
            kind="moon_sign",
            at=_iso(sky.snapshot_utc),
            bodies=("moon",),
            sign=sky.moon_sign,
            house=writer.moon_house,
        ),
    )
    writer.facts.insert(
        1,
        SkyFact(
            kind="moon_phase", at=_iso(sky.snapshot_utc), bodies=("moon",), phase=sky.moon_phase
        ),
    )
    lunations = [e for e in sky.events if e.kind == "lunation"]
    if lunations:
        event = lunations[0]
        assert event.sign is not None
        writer.record_event(event)
        sentences.append(
            writer.sentence(
                f"overall.lunation.{event.lunation}",
                time=format_time(event.at, writer.language),
                event_sign=writer.names["signs"][event.sign],
                **writer.house_slots(event.sign),
            )
        )
    else:
        group = sky.moon_phase.split("_")[0]
        group = {"new": "new", "full": "full", "first": "waxing", "last": "waning"}.get(
            group, group
        )
        sentences.append(writer.sentence(f"overall.phase.{group}"))

    if moon_ingress:
        event = moon_ingress[0]
        assert event.sign is not None
        writer.record_event(event)
        sentences.append(
            writer.sentence(
                "overall.moon_ingress",
                time=format_time(event.at, writer.language),
                event_sign=writer.names["signs"][event.sign],
                **writer.house_slots(event.sign),
            )
        )
    headline = next((e for e in sky.events if e.kind == "station"), None) or next(
        (e for e in sky.events if e.kind == "ingress" and e.bodies != ("moon",)), None
    )
    if headline is not None:
        assert headline.sign is not None
        writer.record_event(headline)
        key = (
            f"overall.station.{headline.direction}"
            if headline.kind == "station"
            else "overall.ingress"
        )
        sentences.append(
            writer.sentence(
                key,
                planet=writer.planet(headline.bodies[0]),
                time=format_time(headline.at, writer.language),
                event_sign=writer.names["signs"][headline.sign],
                **writer.house_slots(headline.sign),
            )
        )

    ruler = RULERS[writer.sign]
    ruler_aspect = _pick_aspect(_aspects_touching(sky, (ruler,)), ruler)
    modifier = 0.0
    if ruler_aspect is None:
        placement = sky.placement(ruler)
        writer.record_placement(ruler)
        sentences.append(
            writer.sentence(
                "overall.ruler.quiet",
                ruler=writer.planet(ruler),
                ruler_sign=writer.names["signs"][placement.sign],
                **writer.house_slots(placement.sign, prefix="ruler_"),
            )
        )
    else:
        writer.record_event(ruler_aspect)
        nature = _aspect_nature(ruler_aspect)
        modifier = {"harmonious": 0.5, "challenging": -0.5}.get(nature, 0.0)
        slots = writer.aspect_slots(ruler_aspect, ruler)
        slots["ruler"] = slots.pop("planet")
        sentences.append(writer.sentence(f"overall.ruler.{nature}", **slots))
    return sentences, modifier


def _overall_close(
    writer: _Writer, sentences: list[str], modifier: float, section_ratings: list[int]
) -> HoroscopeSection:
    rating = _round_rating(sum(section_ratings) / len(section_ratings) + modifier)
    sentences = [*sentences, writer.sentence(f"overall.close.{_band(rating)}")]
    return HoroscopeSection(text=" ".join(sentences), rating=rating)


def _lucky(sky: DailySky, sign: str) -> tuple[str, int]:
    def rank(body: str) -> tuple[int, int]:
        house = solar_house(sky.placement(body).sign, sign)
        return (_LUCKY_HOUSE_ORDER.index(house), _CLASSICAL.index(body))

    planet = min(_CLASSICAL, key=rank)
    house = solar_house(sky.placement(planet).sign, sign)
    digit = (sky.date.day + house - 1) % 9 + 1
    return planet, THAI_PLANET_NUMBERS[planet] * 10 + digit


def _check_sign(sign: str) -> str:
    if sign not in SIGNS:
        raise CalcInputError("sign", f"unknown sign {sign!r}; one of {', '.join(SIGNS)}")
    return sign


def daily_horoscope(sign: str, day: date, language: str = "en") -> DailyHoroscope:
    """The daily horoscope of one sign for one UTC date, in ``en`` or ``th``.

    Written from :func:`astro_calc.horoscope.sky.daily_sky` (cached per date); method in the
    module docstring. Checked in tests: the Moon sign and every event time stated match the
    ephemeris (kerykeion and an independent 10-minute scan); same inputs give the same text."""
    _check_sign(sign)
    horoscope_texts(language)
    sky = daily_sky(day)
    writer = _Writer(sky, sign, language)
    overall_sentences, modifier = _overall(writer)
    sections = {name: _section(writer, name) for name in SECTIONS}
    overall = _overall_close(
        writer, overall_sentences, modifier, [s.rating for s in sections.values()]
    )
    lucky_planet, lucky_number = _lucky(sky, sign)
    return DailyHoroscope(
        sign=sign,
        sign_name=writer.names["signs"][sign],
        date=day,
        language=language,
        overall=overall,
        love=sections["love"],
        career=sections["career"],
        money=sections["money"],
        health=sections["health"],
        lucky_number=lucky_number,
        lucky_colour=writer.names["colours"][lucky_planet],
        lucky_planet=lucky_planet,
        moon_sign=sky.moon_sign,
        moon_phase=sky.moon_phase,
        moon_house=writer.moon_house,
        ruler=RULERS[sign],
        facts=tuple(writer.facts),
    )


def daily_horoscopes(day: date, language: str = "en") -> tuple[DailyHoroscope, ...]:
    """All twelve signs for one date, Aries first, from one computation of the sky."""
    return tuple(daily_horoscope(sign, day, language) for sign in SIGNS)
