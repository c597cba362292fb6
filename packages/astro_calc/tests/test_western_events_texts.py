"""Texts of the sky events: every kind, phase, type, body and direction has an English and a
Thai title and text, built from the glossary's names."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from astro_calc import glossary
from astro_calc.errors import CalcInputError
from astro_calc.western import events
from astro_calc.western.events import (
    EclipseEvent,
    IngressEvent,
    LastAspect,
    LunationEvent,
    StationEvent,
    VoidOfCourseEvent,
    describe,
    describe_hour,
    describe_transit,
)

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _all_variants() -> list[object]:
    out: list[object] = []
    for body in ("sun", "moon"):
        for kind in ("total", "annular", "hybrid", "partial", "penumbral"):
            out.append(EclipseEvent(AT, body, kind, 1.0, 0.0))  # type: ignore[arg-type]
    for phase in ("new", "first_quarter", "full", "last_quarter"):
        out.append(LunationEvent(AT, phase, "leo", 130.0))
    for body in events.ALLOWED_BODIES:
        out.append(IngressEvent(AT, body, "gemini", False))
        out.append(IngressEvent(AT, body, "gemini", True))
    for body in events.ALLOWED_BODIES[2:]:
        for direction in ("retrograde", "direct"):
            out.append(StationEvent(AT, body, direction, 1.0, "aries", None, None))  # type: ignore[arg-type]
    out.append(VoidOfCourseEvent(AT, AT, LastAspect("sun", "trine"), "leo", "virgo"))
    return out


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_event_variant_has_a_title_and_a_text(language: str) -> None:
    for event in _all_variants():
        text = describe(event, language)  # type: ignore[arg-type]
        assert text.title.strip()
        assert text.text.strip()
        assert not glossary.find_forbidden(text.title + text.text)


def test_titles_use_the_glossary_names() -> None:
    event = StationEvent(AT, "mercury", "retrograde", 27.2, "aries", None, None)
    assert describe(event, "th").title == "ดาวพุธหยุดนิ่งก่อนเดินพักร์ในราศีเมษ"
    assert describe(event, "en").title == "Mercury stations retrograde in Aries"
    eclipse = EclipseEvent(AT, "sun", "total", 1.05, 0.34)
    assert describe(eclipse, "en").title == "Total solar eclipse"
    assert describe(eclipse, "th").title == "สุริยุปราคาเต็มดวง"


def test_hours_and_transits_have_texts() -> None:
    hours = events.planetary_hours(date(2026, 6, 1), 13.75, 100.5, "Asia/Bangkok")
    assert describe_hour(hours.hours[0], "th").title == "ชั่วโมงของดาวจันทร์"  # a Monday
    transit = events.Transit("saturn", "sun", "square", 40.0, None, (), None)
    assert describe_transit(transit, "th").title == "ดาวเสาร์จรจตุเกณฑ์ดาวอาทิตย์กำเนิด"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(CalcInputError) as err:
        describe(LunationEvent(AT, "new", "leo", 130.0), "fr")
    assert err.value.field == "language"
