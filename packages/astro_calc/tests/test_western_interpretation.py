"""Natal interpretations: texts, basis, patterns and dignities.

* Every text combination (planet x sign, planet x house, Ascendant and Midheaven x sign, each
  aspect pair x each major aspect, every balance case, every pattern kind) is produced through
  :func:`natal_interpretation` on charts built for it, in English and Thai, at both levels, and
  must be non-empty, free of slots (``{``/``}``) and, in Thai, written in Thai.
* The ``basis`` of every item of 200 random charts is checked against the chart itself.
* Patterns are compared with an independent finder written here from the chart's aspect list
  (brute force over every 3 and 4 planet subset, counting aspect kinds), on random charts with
  default and widened orbs: none invented, none missed.
* A real grand trine: 27 November 2004, 12:00 UT, London (51.5N, 0.12W): Moon, Jupiter and
  Neptune mutually trine; checked with direct pyswisseph longitudes (each separation within
  1 degree of 120).
* Dignities against Lilly's table of essential dignities (*Christian Astrology*, 1647, p. 104;
  rulership, exaltation, detriment, fall) typed in here from the book, plus the modern rulers
  Uranus/Aquarius, Neptune/Pisces, Pluto/Scorpio and their detriments.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from itertools import combinations

import msgspec
import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.aspects import Aspect
from astro_calc.western.interpretation import (
    ASPECT_PAIRS,
    BALANCE_WEIGHTS,
    ELEMENT_DOMINANT_MIN,
    INTERPRETED_ASPECTS,
    LANGUAGES,
    MODALITY_DOMINANT_MIN,
    SECTIONS,
    Language,
    NatalInterpretation,
    balance_score,
    localized_names,
    natal_interpretation,
    planet_dignity,
    texts,
)
from astro_calc.western.natal import PLANETS, AnglePoint, NatalChart
from astro_calc.western.patterns import find_patterns
from astro_calc.western.subject import SIGNS, element_of, modality_of

THAI = re.compile(r"[\u0E00-\u0E7F]")
LATIN_WORD = re.compile(r"[A-Za-z]+")
ASPECT_ANGLE = {"conjunction": 0.0, "opposition": 180.0, "trine": 120.0, "square": 90.0,
                "sextile": 60.0, "quincunx": 150.0}  # fmt: skip


def _subject(moment: datetime, lat: float, lon: float) -> BirthSubject:
    return BirthSubject(moment.date(), moment.strftime("%H:%M:%S"), lat, lon, 0)


def _random_chart(rng: random.Random, **kwargs: object) -> NatalChart:
    moment = datetime(1900, 1, 1, tzinfo=UTC) + timedelta(
        seconds=rng.randrange(0, 200 * 365 * 86400)
    )
    return natal_chart(
        _subject(moment, rng.uniform(-60, 60), rng.uniform(-180, 180)),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def base() -> NatalChart:
    return natal_chart(BirthSubject(date(1990, 5, 17), "14:30", 13.75, 100.5, 420))


def _check_text(text: str, language: str) -> None:
    assert text.strip(), "empty text"
    assert "{" not in text, text
    assert "}" not in text, text
    assert "None" not in text, text
    assert "  " not in text, text
    if language == "th":
        assert THAI.search(text), text
        # Thai prose: no English words except the Midheaven's abbreviation.
        assert set(LATIN_WORD.findall(text)) <= {"MC"}, text
    else:
        assert not THAI.search(text), text
        assert text[-1] in ".!", text


def _check(result: NatalInterpretation) -> None:
    for item in result.items:
        assert item.title
        assert "{" not in item.title
        assert "}" not in item.title
        if result.language == "th":
            _check_text(item.title, "th")
        _check_text(item.text, result.language)


def _with_positions(chart: NatalChart, offset: int, house_offset: int) -> NatalChart:
    """Planet i in sign (i + offset) % 12 and house (i + house_offset) % 12 + 1, the angles in
    sign ``offset``; no aspects."""
    planets = []
    for _i, p in enumerate(chart.planets):
        if p.name in PLANETS:
            k = PLANETS.index(p.name)
            sign = SIGNS[(k + offset) % 12]
            p = msgspec.structs.replace(p, sign=sign, house=(k + house_offset) % 12 + 1)
        planets.append(p)
    point = AnglePoint(offset * 30.0 + 1.0, SIGNS[offset], 1.0)
    angles = msgspec.structs.replace(chart.angles, ascendant=point, midheaven=point)
    return msgspec.structs.replace(chart, planets=tuple(planets), angles=angles, aspects=())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sign_house_and_angle_text(base: NatalChart, language: str) -> None:
    seen: set[tuple[str, str | None, int | None]] = set()
    for offset in range(12):
        chart = _with_positions(base, offset, offset * 5)
        for level in ("summary", "full"):
            result = natal_interpretation(chart, language=language, level=level)  # type: ignore[arg-type]
            _check(result)
            for item in result.items:
                b = item.basis
                if b.body and item.section in ("big_three", "planet_sign"):
                    seen.add((b.body, b.sign, None))
                elif b.body:
                    seen.add((b.body, None, b.house))
                elif b.angle:
                    seen.add((b.angle, b.sign, None))
    assert {(p, s, None) for p in PLANETS for s in SIGNS} <= seen
    assert {(p, None, h) for p in PLANETS for h in range(1, 13)} <= seen
    assert {(a, s, None) for a in ("ascendant", "midheaven") for s in SIGNS} <= seen


def _aspect(first: str, second: str, kind: str) -> Aspect:
    angle = ASPECT_ANGLE[kind]
    return Aspect(first, second, kind, angle, angle, 0.5, True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_aspect_text(base: NatalChart, language: str) -> None:
    aspects = tuple(_aspect(a, b, k) for a, b in ASPECT_PAIRS for k in INTERPRETED_ASPECTS)
    chart = msgspec.structs.replace(base, aspects=aspects)
    full = natal_interpretation(chart, language=language, level="full")  # type: ignore[arg-type]
    summary = natal_interpretation(chart, language=language, level="summary")  # type: ignore[arg-type]
    _check(full)
    _check(summary)
    found = [i for i in full.items if i.section == "aspects"]
    assert len(found) == len(ASPECT_PAIRS) * len(INTERPRETED_ASPECTS)
    assert {(i.basis.bodies, i.basis.aspect) for i in found} == {
        ((a, b), k) for a, b in ASPECT_PAIRS for k in INTERPRETED_ASPECTS
    }
    # Each of the five aspects reads differently for the same pair at level full (one pair's
    # aspects per chart: a chart with every pair in every aspect uses up the closings, issue 47).
    for a, b in ASPECT_PAIRS:
        one_pair = msgspec.structs.replace(
            base, aspects=tuple(_aspect(a, b, k) for k in INTERPRETED_ASPECTS)
        )
        reading = natal_interpretation(one_pair, language=language, level="full")  # type: ignore[arg-type]
        texts_of_pair = {i.text for i in reading.items if i.section == "aspects"}
        assert len(texts_of_pair) == 5, (a, b)


def test_aspects_reversed_order_and_minor_skipped(base: NatalChart) -> None:
    chart = msgspec.structs.replace(
        base,
        aspects=(_aspect("moon", "sun", "trine"), _aspect("sun", "moon", "quincunx")),
    )
    items = [
        i
        for i in natal_interpretation(chart, language="en", level="summary").items
        if i.section == "aspects"
    ]
    assert [(i.key, i.basis.bodies, i.basis.aspect) for i in items] == [
        ("aspect.sun.moon", ("sun", "moon"), "trine")
    ]


def _all_in(chart: NatalChart, signs: dict[str, str], asc: str) -> NatalChart:
    planets = tuple(
        msgspec.structs.replace(p, sign=signs[p.name]) if p.name in signs else p
        for p in chart.planets
    )
    point = AnglePoint(SIGNS.index(asc) * 30.0, asc, 0.0)
    return msgspec.structs.replace(
        chart,
        planets=planets,
        angles=msgspec.structs.replace(chart.angles, ascendant=point),
        aspects=(),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_balance_text(base: NatalChart, language: str) -> None:
    keys: set[str] = set()
    # Everything in one sign: that element and modality dominate, the rest lack.
    for sign in SIGNS:
        chart = _all_in(base, dict.fromkeys(PLANETS, sign), sign)
        for level in ("summary", "full"):
            result = natal_interpretation(chart, language=language, level=level)  # type: ignore[arg-type]
            _check(result)
            keys |= {i.key for i in result.items if i.section == "balance"}
    # A spread chart: balanced elements and modalities.
    spread = {"sun": "aries", "moon": "taurus", "mercury": "cancer", "venus": "leo",
              "mars": "virgo", "jupiter": "libra", "saturn": "scorpio"}  # fmt: skip
    chart = _all_in(base, spread, "gemini")
    score = balance_score(chart)
    assert max(score.elements.values()) < ELEMENT_DOMINANT_MIN
    assert max(score.modalities.values()) < MODALITY_DOMINANT_MIN
    result = natal_interpretation(chart, language=language, level="full")  # type: ignore[arg-type]
    _check(result)
    keys |= {i.key for i in result.items if i.section == "balance"}
    expected = {f"balance.element.{k}.{e}" for k in ("dominant", "lacking") for e in
                ("fire", "earth", "air", "water")}  # fmt: skip
    expected |= {f"balance.modality.{k}.{m}" for k in ("dominant", "lacking") for m in
                 ("cardinal", "fixed", "mutable")}  # fmt: skip
    expected |= {"balance.element.balanced", "balance.modality.balanced"}
    assert expected == keys


def test_balance_weights_and_rules() -> None:
    rng = random.Random(11)
    for _ in range(50):
        chart = _random_chart(rng)
        score = balance_score(chart)
        elements = dict.fromkeys(("fire", "earth", "air", "water"), 0)
        modalities = dict.fromkeys(("cardinal", "fixed", "mutable"), 0)
        points = [(p.name, p.sign) for p in chart.planets if p.name in PLANETS]
        points.append(("ascendant", chart.angles.ascendant.sign))
        for name, sign in points:
            elements[element_of(sign)] += BALANCE_WEIGHTS[name]
            modalities[modality_of(sign)] += BALANCE_WEIGHTS[name]
        assert score.elements == elements
        assert score.modalities == modalities
        assert sum(elements.values()) == 17
        items = natal_interpretation(chart, language="en", level="summary").items
        dominant = {i.basis.dominant for i in items if i.basis.dominant}
        top = max(elements.values())
        expect = {e for e, v in elements.items() if v == top and v >= ELEMENT_DOMINANT_MIN}
        top_m = max(modalities.values())
        expect |= {m for m, v in modalities.items() if v == top_m and v >= MODALITY_DOMINANT_MIN}
        assert dominant == expect
        lacking = {i.basis.lacking for i in items if i.basis.lacking}
        assert lacking == {k for k, v in (elements | modalities).items() if v == 0}


def _independent_patterns(chart: NatalChart) -> set[tuple[object, ...]]:
    """Brute force from the aspect list: every subset of 3 or 4 planets, its pairs' aspects
    counted. Stellium: four or more planets in one sign, and in one house."""
    present = [p.name for p in chart.planets if p.name in PLANETS]
    kind_of = {
        frozenset((a.body1, a.body2)): a.aspect
        for a in chart.aspects
        if a.body1 in PLANETS and a.body2 in PLANETS
    }
    out: set[tuple[object, ...]] = set()
    crosses = []
    for four in combinations(present, 4):
        kinds = Counter(kind_of.get(frozenset(pair)) for pair in combinations(four, 2))
        if kinds["opposition"] == 2 and kinds["square"] == 4:
            crosses.append(set(four))
            out.add(("grand_cross", frozenset(four), None, None, None))
    for three in combinations(present, 3):
        pairs = {frozenset(pair): kind_of.get(frozenset(pair)) for pair in combinations(three, 2)}
        sorted_kinds = sorted(str(k) for k in pairs.values())
        if sorted_kinds == ["trine"] * 3:
            out.add(("grand_trine", frozenset(three), None, None, None))
        if sorted_kinds == ["opposition", "square", "square"] and not any(
            set(three) <= c for c in crosses
        ):
            (base_pair,) = [p for p, k in pairs.items() if k == "opposition"]
            (apex,) = set(three) - base_pair
            out.add(("t_square", frozenset(three), apex, None, None))
        if sorted_kinds == ["quincunx", "quincunx", "sextile"]:
            (base_pair,) = [p for p, k in pairs.items() if k == "sextile"]
            (apex,) = set(three) - base_pair
            out.add(("yod", frozenset(three), apex, None, None))
    signs = Counter(p.sign for p in chart.planets if p.name in PLANETS)
    houses = Counter(p.house for p in chart.planets if p.name in PLANETS)
    for sign, n in signs.items():
        if n >= 4:
            names = frozenset(p.name for p in chart.planets if p.name in PLANETS and p.sign == sign)
            out.add(("stellium", names, None, sign, None))
    for house, n in houses.items():
        if n >= 4:
            names = frozenset(
                p.name for p in chart.planets if p.name in PLANETS and p.house == house
            )
            out.add(("stellium", names, None, None, house))
    return out


def _as_set(chart: NatalChart) -> set[tuple[object, ...]]:
    found = find_patterns(chart)
    as_set: set[tuple[object, ...]] = {
        (p.kind, frozenset(p.bodies), p.apex, p.sign, p.house) for p in found
    }
    assert len(as_set) == len(found), "a pattern listed twice"
    return as_set


def test_patterns_match_an_independent_finder() -> None:
    rng = random.Random(2024)
    kinds: Counter[str] = Counter()
    wide = {"conjunction": 10.0, "opposition": 10.0, "trine": 10.0, "square": 10.0,
            "sextile": 8.0, "quincunx": 5.0}  # fmt: skip
    for n in range(400):
        chart = _random_chart(rng, orbs=wide) if n % 2 else _random_chart(rng)
        expected = _independent_patterns(chart)
        assert _as_set(chart) == expected
        kinds.update(str(k[0]) for k in expected)
        # Items: one per pattern, basis as found.
        items = [
            i
            for i in natal_interpretation(chart, language="th", level="full").items
            if i.section == "patterns"
        ]
        assert {(i.basis.pattern, frozenset(i.basis.bodies or ())) for i in items} == {
            (str(k[0]), k[1]) for k in expected
        }
    # The sample exercises every kind (seeded, so this cannot flake).
    assert set(kinds) == {"grand_trine", "grand_cross", "t_square", "yod", "stellium"}, kinds


def test_no_minor_aspects_no_yod_and_no_invented_patterns() -> None:
    rng = random.Random(7)
    for _ in range(100):
        chart = _random_chart(rng, include_minor=False)
        found = _as_set(chart)
        assert not any(k[0] == "yod" for k in found)
        assert found == _independent_patterns(chart)
    # A chart with no aspects at all and planets spread out has no pattern.
    base = _random_chart(rng)
    spread = msgspec.structs.replace(
        base,
        aspects=(),
        planets=tuple(
            msgspec.structs.replace(p, sign=SIGNS[i % 12], house=i % 12 + 1)
            for i, p in enumerate(base.planets)
        ),
    )
    assert find_patterns(spread) == ()
    assert not [
        i
        for i in natal_interpretation(spread, language="en", level="full").items
        if i.section == "patterns"
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pattern_text(base: NatalChart, language: str) -> None:
    aspects = (
        _aspect("sun", "jupiter", "trine"), _aspect("jupiter", "neptune", "trine"),
        _aspect("sun", "neptune", "trine"),
        _aspect("moon", "mars", "opposition"), _aspect("venus", "saturn", "opposition"),
        _aspect("moon", "venus", "square"), _aspect("moon", "saturn", "square"),
        _aspect("mars", "venus", "square"), _aspect("mars", "saturn", "square"),
        _aspect("mercury", "uranus", "opposition"), _aspect("mercury", "pluto", "square"),
        _aspect("uranus", "pluto", "square"),
        _aspect("mercury", "jupiter", "sextile"), _aspect("mercury", "moon", "quincunx"),
        _aspect("jupiter", "moon", "quincunx"),
    )  # fmt: skip
    planets = tuple(
        msgspec.structs.replace(p, sign="leo", house=5)
        if p.name in ("sun", "moon", "mercury", "venus")
        else msgspec.structs.replace(p, sign="aries", house=1)
        for p in base.planets
    )
    chart = msgspec.structs.replace(base, aspects=aspects, planets=planets)
    assert _as_set(chart) == _independent_patterns(chart)
    for level in ("summary", "full"):
        result = natal_interpretation(chart, language=language, level=level)  # type: ignore[arg-type]
        _check(result)
        kinds = Counter(i.basis.pattern for i in result.items if i.section == "patterns")
        assert kinds == {"grand_trine": 1, "grand_cross": 1, "t_square": 1, "yod": 1,
                         "stellium": 4}, kinds  # fmt: skip
    t_square = next(p for p in find_patterns(chart) if p.kind == "t_square")
    assert t_square.bodies == ("mercury", "uranus", "pluto")
    assert t_square.apex == "pluto"
    yod = next(p for p in find_patterns(chart) if p.kind == "yod")
    assert yod.apex == "moon"


def test_a_real_grand_trine() -> None:
    chart = natal_chart(BirthSubject(date(2004, 11, 27), "12:00", 51.5, -0.12, 0))
    trines = [p for p in find_patterns(chart) if p.kind == "grand_trine"]
    assert [p.bodies for p in trines] == [("moon", "jupiter", "neptune")]
    # Independent longitudes straight from pyswisseph (Moshier, apparent, tropical).
    jd = swe.julday(2004, 11, 27, 12.0)
    lon = {
        name: swe.calc_ut(jd, ipl, swe.FLG_MOSEPH)[0][0]
        for name, ipl in (("moon", 1), ("jupiter", 5), ("neptune", 8))
    }
    for a, b in combinations(lon, 2):
        separation = abs((lon[a] - lon[b] + 180.0) % 360.0 - 180.0)
        assert abs(separation - 120.0) < 1.0, (a, b, separation)
    items = natal_interpretation(chart, language="en", level="full").items
    (item,) = [i for i in items if i.basis.pattern == "grand_trine"]
    assert item.basis.bodies == ("moon", "jupiter", "neptune")
    assert item.text.startswith("The Moon, Jupiter and Neptune form a grand trine")
    th = natal_interpretation(chart, language="th", level="full").items
    (item_th,) = [i for i in th if i.basis.pattern == "grand_trine"]
    assert item_th.text.startswith("ดาวจันทร์ ดาวพฤหัสบดี และดาวเนปจูน")


def test_basis_matches_the_chart() -> None:
    rng = random.Random(99)
    for n in range(200):
        chart = _random_chart(rng)
        language = LANGUAGES[n % 2]
        result = natal_interpretation(chart, language=language, level="full")
        planets = {p.name: p for p in chart.planets}
        aspects = {(a.body1, a.body2, a.aspect): a for a in chart.aspects}
        sections = [i.section for i in result.items]
        assert sections == sorted(sections, key=SECTIONS.index)
        assert len({i.key for i in result.items}) == len(result.items)
        for item in result.items:
            b = item.basis
            if b.body:
                assert b.sign == planets[b.body].sign
                if item.section == "planet_house":
                    assert b.house == planets[b.body].house
                assert item.key.endswith(b.body)
            elif b.angle:
                assert b.sign == getattr(chart.angles, b.angle).sign
            elif b.aspect:
                assert b.bodies is not None
                first, second = b.bodies
                a = aspects.get((first, second, b.aspect)) or aspects[(second, first, b.aspect)]
                assert b.orb == round(a.orb, 2)
        # Every major aspect between two planets or a planet and an angle has its item.
        expected = {
            frozenset((a.body1, a.body2, a.aspect))
            for a in chart.aspects
            if a.aspect in INTERPRETED_ASPECTS
            and {a.body1, a.body2} <= {*PLANETS, "ascendant", "midheaven"}
            and {a.body1, a.body2} & set(PLANETS)
        }
        got = {
            frozenset((*i.basis.bodies, i.basis.aspect))
            for i in result.items
            if i.basis.aspect and i.basis.bodies
        }
        assert got == expected
        orbs = [i.basis.orb for i in result.items if i.basis.aspect]
        assert orbs == sorted(orbs)  # type: ignore[type-var]
        counted = Counter(i.section for i in result.items)
        assert counted["big_three"] == 3
        assert counted["planet_sign"] == 8
        assert counted["planet_house"] == 10
        assert counted["angles"] == 1


def test_summary_and_full(base: NatalChart) -> None:
    for language in LANGUAGES:
        summary = natal_interpretation(base, language=language, level="summary")
        full = natal_interpretation(base, language=language, level="full")
        assert [(i.key, i.title, i.basis) for i in summary.items] == [
            (i.key, i.title, i.basis) for i in full.items
        ]
        for s, f in zip(summary.items, full.items, strict=True):
            assert f.text.startswith(s.text + " ")
            assert len(f.text) > len(s.text) + 40
        assert summary.patterns == full.patterns
        assert summary.balance == full.balance


def test_summary_sentence_counts() -> None:
    """English: a summary is one or two sentences; a full text three to six (the dignity
    remark may add one)."""
    data = texts("en")
    for section in ("planet_sign", "planet_house"):
        for planet in PLANETS:
            for key, entry in data[section][planet].items():
                s = len(re.findall(r"[.!?](\s|$)", entry["summary"]))
                d = len(re.findall(r"[.!?](\s|$)", entry["detail"]))
                assert 1 <= s <= 2, (section, planet, key)
                assert 2 <= d <= 4, (section, planet, key)
                assert 3 <= s + d <= 5, (section, planet, key)


def test_thai_texts_are_distinct_from_english_and_cover_the_same_keys() -> None:
    en, th = texts("en"), texts("th")
    for section in ("planet_sign", "planet_house", "angles", "balance", "patterns", "names"):
        assert _shape(en[section]) == _shape(th[section]), section
    assert _shape(en["aspects"]) == _shape(th["aspects"])


def _shape(value: object) -> object:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k != "_comment"}
    return type(value).__name__


def test_determinism(base: NatalChart) -> None:
    for language in LANGUAGES:
        a = natal_interpretation(base, language=language, level="full")
        b = natal_interpretation(base, language=language, level="full")
        assert msgspec.json.encode(a) == msgspec.json.encode(b)


def test_basis_encodes_without_empty_fields(base: NatalChart) -> None:
    result = natal_interpretation(base, language="en", level="summary")
    encoded = msgspec.to_builtins(result.items[0])
    assert encoded["basis"] == {"body": "sun", "sign": base.planet("sun").sign}


def test_bad_language_and_level(base: NatalChart) -> None:
    with pytest.raises(CalcInputError) as e:
        natal_interpretation(base, language="fr", level="full")  # type: ignore[arg-type]
    assert e.value.field == "language"
    with pytest.raises(CalcInputError) as e:
        natal_interpretation(base, language="en", level="long")  # type: ignore[arg-type]
    assert e.value.field == "level"


def test_missing_bodies_are_skipped() -> None:
    chart = natal_chart(
        BirthSubject(date(1990, 5, 17), "14:30", 13.75, 100.5, 420), bodies=("sun", "mars")
    )
    result = natal_interpretation(chart, language="th", level="summary")
    bodies = {i.basis.body for i in result.items if i.basis.body}
    assert bodies == {"sun", "mars"}
    _check(result)


# Lilly, Christian Astrology (1647), p. 104, "A Table of the Essential Dignities of the
# Planets": houses (domiciles), exaltation, detriment, fall. Modern rulers added below.
LILLY = {
    "sun": (("leo",), "aries", ("aquarius",), "libra"),
    "moon": (("cancer",), "taurus", ("capricorn",), "scorpio"),
    "mercury": (("gemini", "virgo"), "virgo", ("sagittarius", "pisces"), "pisces"),
    "venus": (("taurus", "libra"), "pisces", ("scorpio", "aries"), "virgo"),
    "mars": (("aries", "scorpio"), "capricorn", ("libra", "taurus"), "cancer"),
    "jupiter": (("sagittarius", "pisces"), "cancer", ("gemini", "virgo"), "capricorn"),
    "saturn": (("capricorn", "aquarius"), "libra", ("cancer", "leo"), "aries"),
    "uranus": (("aquarius",), None, ("leo",), None),
    "neptune": (("pisces",), None, ("virgo",), None),
    "pluto": (("scorpio",), None, ("taurus",), None),
}


def test_dignities_against_lilly() -> None:
    points = {"domicile": 5, "exaltation": 4, "detriment": -5, "fall": -4}
    for planet, (homes, exaltation, detriments, fall) in LILLY.items():
        for sign in SIGNS:
            expected = []
            if sign in homes:
                expected.append("domicile")
            if sign == exaltation:
                expected.append("exaltation")
            if sign in detriments:
                expected.append("detriment")
            if sign == fall:
                expected.append("fall")
            d = planet_dignity(planet, sign)
            assert d.dignities == tuple(expected), (planet, sign)
            assert d.state == (expected[0] if expected else "peregrine")
            assert d.score == sum(points[x] for x in expected)
    assert planet_dignity("mars", "scorpio").school == "traditional"
    assert planet_dignity("pluto", "scorpio").school == "modern"
    assert planet_dignity("pluto", "taurus").school == "modern"
    assert planet_dignity("venus", "aries").school == "both"
    assert planet_dignity("sun", "aries").school is None
    assert planet_dignity("saturn", "aquarius", "th").label == "เกษตร"
    assert planet_dignity("saturn", "aries", "th").label == "นิจ"
    assert planet_dignity("moon", "taurus", "en").label == "exaltation"
    with pytest.raises(CalcInputError):
        planet_dignity("sun", "ophiuchus")


def test_dignity_remark_names_the_school(base: NatalChart) -> None:
    def with_sign(planet: str, sign: str) -> NatalChart:
        return msgspec.structs.replace(
            base,
            planets=tuple(
                msgspec.structs.replace(p, sign=sign) if p.name == planet else p
                for p in base.planets
            ),
        )

    def text(planet: str, sign: str, language: str) -> str:
        items = natal_interpretation(
            with_sign(planet, sign),
            language=language,  # type: ignore[arg-type]
            level="full",
        ).items
        return next(i.text for i in items if i.basis.body == planet and i.basis.house is None)

    assert "traditional ruler of Scorpio" in text("mars", "scorpio", "en")
    assert "modern astrology gives the sign to Pluto" in text("mars", "scorpio", "en")
    assert "modern astrology Pluto rules Scorpio" in text("pluto", "scorpio", "en")
    assert "the traditional ruler is Mars" in text("pluto", "scorpio", "en")
    assert "opposite Scorpio" in text("pluto", "taurus", "en")
    assert "The Moon rules Cancer" in text("moon", "cancer", "en")
    assert "ให้ดาวพลูโตครอง" in text("mars", "scorpio", "th")
    assert "both rules Virgo and is exalted" in text("mercury", "virgo", "en")
    assert "both in detriment and in its fall in Pisces" in text("mercury", "pisces", "en")
    assert "ทั้งเป็นประและตกนิจ" in text("mercury", "pisces", "th")
    assert "ตำราดั้งเดิม" in text("mars", "scorpio", "th")
    assert "สมัยใหม่" in text("pluto", "scorpio", "th")
    assert "exalted" in text("moon", "taurus", "en")
    assert "อุจจ์" in text("moon", "taurus", "th")
    peregrine = text("mars", "gemini", "en")
    assert not any(w in peregrine for w in ("rules", "exalted", "detriment", "fall"))


def test_localized_names() -> None:
    en, th = localized_names("en"), localized_names("th")
    assert en.sections.keys() == th.sections.keys() == set(SECTIONS)
    assert th.planets["jupiter"] == "ดาวพฤหัสบดี"
    assert th.signs["libra"] == "ตุลย์"
    assert th.aspects == {"conjunction": "กุม", "opposition": "เล็ง", "trine": "ตรีโกณ",
                          "square": "จตุเกณฑ์", "sextile": "โยค"}  # fmt: skip
    assert en.dignities["domicile"] == "domicile"
    assert set(en.planets) == set(PLANETS)
    assert set(en.signs) == set(SIGNS)
    for names in (en, th):
        for mapping in msgspec.structs.astuple(names):
            assert all(v.strip() for v in mapping.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_placement_has_its_own_text(language: Language) -> None:
    """No two placements share a summary or a paragraph, and no two aspect sentences match."""
    data = texts(language)
    for section in ("planet_sign", "planet_house", "angles"):
        for field in ("summary", "detail"):
            values = [
                entry[field]
                for key, by_planet in data[section].items()
                if key != "_comment"
                for entry in by_planet.values()
            ]
            assert len(values) == len(set(values)), (section, field)
    sentences = [t for pair in data["aspects"]["pairs"].values() for t in pair.values()]
    assert len(sentences) == len(set(sentences))


# --- repetition in one reading -------------------------------------------------------------------

# English sentences end with . ! or ?; Thai marks a sentence (and often a clause) with a space,
# so a Thai "sentence" here is a space-separated run of at least THAI_MIN_CHARS characters (short
# runs such as "ทำงานได้ดี" may rightly recur).
ENGLISH_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
THAI_MIN_CHARS = 25


def _sentences(text: str, language: str) -> list[str]:
    if language == "en":
        return [s.strip() for s in ENGLISH_SENTENCE_END.split(text) if s.strip()]
    return [s for s in text.split() if len(s) >= THAI_MIN_CHARS]


@pytest.mark.parametrize("language", ["en", "th"])
def test_no_sentence_appears_more_than_twice_in_a_full_reading(language: str) -> None:
    rng = random.Random(35)
    for _ in range(50):
        chart = _random_chart(rng)
        reading = natal_interpretation(chart, language=language, level="full")  # type: ignore[arg-type]
        counts = Counter(s for item in reading.items for s in _sentences(item.text, language))
        repeated = {s: n for s, n in counts.items() if n > 2}
        assert not repeated, repeated


# Issue 47: the stricter count: a clause (English: ends at , ; : . ! or ?; Thai: a space-separated
# run) of 12 characters or more is read at most twice in one full reading.
CLAUSE_MIN_CHARS = 12
ENGLISH_CLAUSE_END = re.compile(r"(?<=[.!?;:,])\s+")


@pytest.mark.parametrize("language", ["en", "th"])
def test_no_clause_of_12_characters_is_read_more_than_twice_in_a_full_reading(
    language: str,
) -> None:
    rng = random.Random(47)
    for _ in range(30):
        chart = _random_chart(rng)
        reading = natal_interpretation(chart, language=language, level="full")  # type: ignore[arg-type]
        text = " ".join(item.text for item in reading.items)
        parts = ENGLISH_CLAUSE_END.split(text) if language == "en" else text.split()
        counts = Counter(p for p in parts if len(p) >= CLAUSE_MIN_CHARS)
        repeated = {c: n for c, n in counts.items() if n > 2}
        assert not repeated, repeated
