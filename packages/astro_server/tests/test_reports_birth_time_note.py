"""The natal report's "about your birth time" note (issue 34): shown when the given birth time
is within 5 minutes of a change of the Ascendant's sign, in English and Thai.

The births are placed from the natal chart itself (independently of the sensitivity search the
note uses): the Ascendant's change is located by brute force on :func:`natal_chart` (its sign one
second either side), then the birth is put 3 minutes before it, 3 minutes after it, or an hour
away. The PDFs are printed with the report's own renderer and read back with pdftotext.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from astro_calc.western import BirthSubject, natal_chart
from astro_server.features.reports.render.branding import ReportBrand
from astro_server.features.reports.render.html import labels
from astro_server.features.reports.render.natal import (
    BIRTH_TIME_NOTE_MINUTES,
    birth_time_note,
    natal_report_html,
)
from astro_server.features.reports.render.renderer import (
    close_renderer,
    missing_components,
    render_pdf,
)

PLACE = {"latitude": 13.75, "longitude": 100.5, "timezone": "Asia/Bangkok"}
DAY = dt.date(1990, 5, 1)
GENERATED = dt.datetime(2026, 11, 24, 9, 30, tzinfo=dt.UTC)
BRAND = ReportBrand(name="Lotus Star Readings", primary_color="#0E6E5C")
needs_printer = pytest.mark.skipif(
    bool(missing_components()) or shutil.which("pdftotext") is None,
    reason="needs Chromium, playwright and poppler-utils (scripts/test.sh installs them)",
)


def _subject(clock: dt.datetime, **place: Any) -> BirthSubject:
    where = {**PLACE, **place}
    return BirthSubject(date=clock.date(), time=clock.strftime("%H:%M:%S"), **where)


def _ascendant(clock: dt.datetime, **place: Any) -> str:
    return natal_chart(_subject(clock, **place)).angles.ascendant.sign


def _ascendant_change(after: dt.datetime) -> dt.datetime:
    """The local clock second at which the Ascendant changes sign, the first after ``after``:
    stepped by minutes, then bisected to the second on the natal chart itself."""
    start = _ascendant(after)
    lo = after
    hi = lo + dt.timedelta(minutes=1)
    while _ascendant(hi) == start:
        lo, hi = hi, hi + dt.timedelta(minutes=1)
    while hi - lo > dt.timedelta(seconds=1):
        mid = lo + (hi - lo) / 2
        mid = mid.replace(microsecond=0)
        if _ascendant(mid) == start:
            lo = mid
        else:
            hi = mid
    return hi  # the first whole second with the new sign


CHANGE = _ascendant_change(dt.datetime.combine(DAY, dt.time(7, 30)))
BEFORE = CHANGE - dt.timedelta(minutes=3)  # born 3 minutes before the change
AFTER = CHANGE + dt.timedelta(minutes=3)  # born 3 minutes after it
FAR = CHANGE - dt.timedelta(minutes=60)


def _html(clock: dt.datetime, locale: Any, **place: Any) -> str:
    return natal_report_html(
        natal_chart(_subject(clock, **place), include_minor=False),
        person_name="Somchai Jaidee",
        locale=locale,
        brand=BRAND,
        generated_at=GENERATED,
        inline_fonts=False,
    )


def test_the_births_are_where_the_test_says() -> None:
    assert _ascendant(CHANGE - dt.timedelta(seconds=1)) != _ascendant(CHANGE)
    assert _ascendant(BEFORE) == _ascendant(CHANGE - dt.timedelta(seconds=1))
    assert _ascendant(AFTER) == _ascendant(CHANGE)
    # An hour earlier the Ascendant is in the same sign (a sign rises in over an hour here)
    assert _ascendant(FAR) == _ascendant(BEFORE)


def test_the_note_names_the_change_3_minutes_after_the_birth() -> None:
    words = labels("en")
    note = birth_time_note(natal_chart(_subject(BEFORE)), words)
    assert note is not None
    sign, other = words["signs"][_ascendant(BEFORE)], words["signs"][_ascendant(CHANGE)]
    # The search's change (to 1 s, rounded) is the brute-force change within a second.
    clock = (CHANGE - dt.timedelta(seconds=1)).strftime("%H:%M"), CHANGE.strftime("%H:%M")
    assert note["title"] == "About your birth time"
    assert f"({BEFORE:%H:%M}) the Ascendant is in {sign}" in note["change"]
    assert f"moves into {other} at " in note["change"]
    assert any(f"at {c}, only 3 minutes later" in note["change"] for c in clock)


def test_the_note_names_the_change_3_minutes_before_the_birth() -> None:
    words = labels("th")
    note = birth_time_note(natal_chart(_subject(AFTER)), words)
    assert note is not None
    sign, other = words["signs"][_ascendant(AFTER)], words["signs"][_ascendant(BEFORE)]
    assert note["title"] == "เกี่ยวกับเวลาเกิดของเจ้าชะตา"
    assert f"ลัคนาอยู่ราศี{sign}" in note["change"]
    assert f"ลัคนาอยู่ราศี{other}" in note["change"]
    assert "3 นาที" in note["change"]


@pytest.mark.parametrize(
    ("minutes", "shown"),
    [(BIRTH_TIME_NOTE_MINUTES - 0.5, True), (BIRTH_TIME_NOTE_MINUTES + 0.5, False)],
)
def test_the_note_appears_within_five_minutes_only(minutes: float, shown: bool) -> None:
    clock = CHANGE - dt.timedelta(minutes=minutes)
    note = birth_time_note(natal_chart(_subject(clock)), labels("en"))
    assert (note is not None) is shown


def test_no_note_beyond_60_degrees_where_the_angles_are_left_out() -> None:
    # Tromsø: the search leaves the angles out there (docs/decisions.md), so no note either.
    clock = dt.datetime(1990, 5, 1, 7, 30)
    for offset in range(0, 240, 4):
        moment = clock + dt.timedelta(minutes=offset)
        chart = natal_chart(
            _subject(moment, latitude=69.65, longitude=18.96, timezone="Europe/Oslo")
        )
        assert birth_time_note(chart, labels("en")) is None


async def _print_all(documents: dict[str, str]) -> dict[str, bytes]:
    try:
        return {
            key: await render_pdf(html, author="t", creator="t") for key, html in documents.items()
        }
    finally:
        await close_renderer()


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    documents = {
        "near_en": _html(BEFORE, "en"),
        "near_th": _html(BEFORE, "th"),
        "far_en": _html(FAR, "en"),
        "far_th": _html(FAR, "th"),
    }
    printed = asyncio.run(_print_all(documents))
    folder = tmp_path_factory.mktemp("birth-time-pdfs")
    paths = {}
    for key, data in printed.items():
        paths[key] = folder / f"{key}.pdf"
        paths[key].write_bytes(data)
    return paths


def _text(path: Path) -> str:
    done = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@needs_printer
@pytest.mark.parametrize("locale", ["en", "th"])
def test_the_pdf_prints_the_note_near_a_change_and_not_far_from_it(
    pdfs: dict[str, Path], locale: str
) -> None:
    words = labels(locale)
    note = birth_time_note(natal_chart(_subject(BEFORE)), words)
    assert note is not None
    near = _squeeze(_text(pdfs[f"near_{locale}"]))
    far = _squeeze(_text(pdfs[f"far_{locale}"]))
    for text in (note["title"], note["change"], note["advice"]):
        assert _squeeze(text) in near
    assert _squeeze(note["title"]) not in far
    assert _squeeze(words["birth_time_note"]["advice"]) not in far
    # The note is its own page, right after the cover.
    pages = _text(pdfs[f"near_{locale}"]).split("\f")
    assert _squeeze(note["title"]) in _squeeze(pages[1])
