"""The natal chart report: one HTML document (cover, wheel, tables, interpretation chapters),
printed to PDF by :mod:`astro_server.features.reports.render.renderer` or handed out as a single
HTML file.

Contents, in the chosen locale (``en`` or ``th``; labels in ``labels/<locale>.json``):

1. Cover: the brand's logo, name and colour, the person's name, the birth data, generated-at.
2. The chart wheel (the drawing module's SVG, inline vector graphics) and the Big Three.
3. Tables: positions (sign, degree, house, motion, dignity), angles, house cusps, the major
   aspects (orb, applying or separating), element and modality balance.
4. Interpretation chapters (astro_calc's natal interpretation, level ``full``): the Big Three,
   each planet in its sign and house, the major aspects, chart patterns.
5. About this report.

Before the tables, when the given birth time lies within :data:`BIRTH_TIME_NOTE_MINUTES` (5)
minutes of a change of the Ascendant's sign, an "about your birth time" note says when the
Ascendant changes and to which sign (:func:`birth_time_note`, from
:func:`astro_calc.sensitivity.natal_sensitivity_at`, to 1 second). Beyond 60 degrees of
latitude that search leaves the angles out, and so there is no note.

The report uses the five major (Ptolemaic) aspects only, with astro_calc's default orbs.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from markupsafe import Markup

from astro_calc.glossary import date_text
from astro_calc.sensitivity import natal_sensitivity_at
from astro_calc.western import NatalChart
from astro_calc.western.interpretation import Basis, InterpretationItem, natal_interpretation
from astro_calc.western.subject import SubjectTime
from astro_server.drawing import natal_wheel_svg
from astro_server.features.reports.render.branding import ReportBrand
from astro_server.features.reports.render.html import (
    css_string,
    data_uri,
    environment,
    font_face_css,
    glyphs,
)
from astro_server.features.reports.render.html import labels as load_labels

Locale = Literal["en", "th"]
LOCALES: Final = ("en", "th")
REPORT_PLANETS: Final = (
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
)  # fmt: skip
REPORT_POINTS: Final = ("mean_node", "chiron")
ELEMENTS: Final = ("fire", "earth", "air", "water")
MODALITIES: Final = ("cardinal", "fixed", "mutable")
#: The note about the birth time appears when the Ascendant changes sign this close (minutes).
BIRTH_TIME_NOTE_MINUTES: Final = 5.0


@dataclass(frozen=True)
class ChapterItem:
    """One interpretation passage: a heading, its prose, and what in the chart it rests on."""

    title: str
    text: str
    basis: str = ""


@dataclass(frozen=True)
class Chapter:
    key: str
    title: str
    intro: str
    items: tuple[ChapterItem, ...]
    empty_note: str = ""


@dataclass(frozen=True)
class NatalReport:
    """Everything the template shows; built by :func:`natal_report_context`."""

    chart: NatalChart
    person_name: str
    locale: Locale
    brand: ReportBrand
    generated_at: dt.datetime
    wheel_svg: str
    chapters: tuple[Chapter, ...]
    extra: dict[str, Any] = field(default_factory=dict)
    #: A test key's report: a diagonal "TEST" mark on every page (issue 36).
    test_mode: bool = False


def format_degree(sign_degree: float) -> str:
    """Degrees and minutes within the sign, ``12°34′`` (minutes truncated, as ephemerides do)."""
    total = int(sign_degree * 60 + 1e-9)
    return f"{total // 60}°{total % 60:02d}′"


def format_orb(orb: float) -> str:
    total = round(abs(orb) * 60)
    return f"{total // 60}°{total % 60:02d}′"


def format_offset(minutes: int) -> str:
    # ASCII hyphen-minus, as ISO 8601 writes offsets: the bundled report faces are subsets
    # without U+2212, which printed as a missing-glyph box.
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def format_coordinates(latitude: float, longitude: float, words: dict[str, Any]) -> str:
    ns = words["north"] if latitude >= 0 else words["south"]
    ew = words["east"] if longitude >= 0 else words["west"]
    return f"{abs(latitude):.4f}° {ns}, {abs(longitude):.4f}° {ew}"


def format_date(day: dt.date, locale: Locale) -> str:
    """A date as the reader expects it: ISO in English; in Thai the day, the Thai month name and
    the Buddhist Era year (``13 เมษายน 2568``, :func:`astro_calc.glossary.date_text`)."""
    return date_text(day, "th") if locale == "th" else day.isoformat()


def format_generated(moment: dt.datetime, locale: Locale = "en") -> str:
    """When the report was made, in UTC: ``2026-11-24 09:30 UTC``; in Thai a Buddhist Era date
    and ``09:30 น. ตามเวลาสากล`` (no "(UTC)" in a Thai text)."""
    utc = moment.astimezone(dt.UTC)
    if locale == "th":
        return f"{format_date(utc.date(), locale)} {utc:%H:%M} น. ตามเวลาสากล"
    return utc.strftime("%Y-%m-%d %H:%M UTC")


def _brand_css(brand: ReportBrand) -> dict[str, str]:
    """The brand colour and the shades derived from it (for bands, rules and table stripes)."""
    red, green, blue = (int(brand.primary_color[i : i + 2], 16) for i in (1, 3, 5))

    def mix(weight: float) -> str:  # towards white
        parts = (round(c + (255 - c) * weight) for c in (red, green, blue))
        return "#" + "".join(f"{p:02x}" for p in parts)

    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return {
        "brand": brand.primary_color,
        "brand_soft": mix(0.88),
        "brand_faint": mix(0.95),
        "on_brand": "#ffffff" if luminance < 150 else "#1d1d1f",
    }


def _position_rows(chart: NatalChart, words: dict[str, Any]) -> list[dict[str, str]]:
    marks = glyphs()
    rows = []
    wanted = {*REPORT_PLANETS, *REPORT_POINTS}
    for planet in chart.planets:
        if planet.name not in wanted:
            continue
        rows.append(
            {
                "glyph": marks["bodies"].get(planet.name, ""),
                "body": words["bodies"][planet.name],
                "sign_glyph": marks["signs"][planet.sign],
                "sign": words["signs"][planet.sign],
                "degree": format_degree(planet.sign_degree),
                "house": str(planet.house),
                "retrograde": "℞" if planet.retrograde else "",
                "motion": words["retrograde"] if planet.retrograde else words["direct"],
                "dignity": ", ".join(words["dignities"][d] for d in planet.dignities) or "–",
                "element": _element_of(planet.sign),
            }
        )
    return rows


_SIGN_ORDER: Final = (
    "aries", "taurus", "gemini", "cancer", "leo", "virgo",
    "libra", "scorpio", "sagittarius", "capricorn", "aquarius", "pisces",
)  # fmt: skip


def _element_of(sign: str) -> str:
    return ELEMENTS[_SIGN_ORDER.index(sign) % 4]


def _aspect_rows(chart: NatalChart, words: dict[str, Any]) -> list[dict[str, str]]:
    marks = glyphs()
    shown = set(REPORT_PLANETS)
    rows = []
    majors = ("conjunction", "opposition", "trine", "square", "sextile")
    for aspect in sorted(chart.aspects, key=lambda a: a.orb):
        if aspect.aspect not in majors or not {aspect.body1, aspect.body2} <= shown:
            continue
        rows.append(
            {
                "glyph1": marks["bodies"][aspect.body1],
                "body1": words["bodies"][aspect.body1],
                "aspect_glyph": marks["aspects"][aspect.aspect],
                "aspect": words["aspect_names"][aspect.aspect],
                "glyph2": marks["bodies"][aspect.body2],
                "body2": words["bodies"][aspect.body2],
                "orb": format_orb(aspect.orb),
                "phase": words["applying"] if aspect.applying else words["separating"],
                "kind": aspect.aspect,
            }
        )
    return rows


def _house_rows(chart: NatalChart, words: dict[str, Any]) -> list[dict[str, str]]:
    marks = glyphs()
    return [
        {
            "number": str(house.number),
            "sign_glyph": marks["signs"][house.sign],
            "sign": words["signs"][house.sign],
            "degree": format_degree(house.sign_degree),
        }
        for house in chart.houses
    ]


def _balance(chart: NatalChart, words: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    colours = glyphs()["elements"]
    elements = [
        {"key": e, "label": words["elements"][e], "count": getattr(chart.elements, e)}
        for e in ELEMENTS
    ]
    modalities = [
        {"key": m, "label": words["modalities"][m], "count": getattr(chart.modalities, m)}
        for m in MODALITIES
    ]
    top = max(1, *(row["count"] for row in elements + modalities))
    for row in elements + modalities:
        row["percent"] = round(100 * row["count"] / top)
        row["colour"] = colours.get(row["key"], "")
    return {"elements": elements, "modalities": modalities}


def _big_three(chart: NatalChart, words: dict[str, Any]) -> list[dict[str, str]]:
    marks = glyphs()
    by_name = {p.name: p for p in chart.planets}
    rising = chart.angles.ascendant
    cards = []
    for key, sign, degree, glyph in (
        ("sun", by_name["sun"].sign, by_name["sun"].sign_degree, marks["bodies"]["sun"]),
        ("moon", by_name["moon"].sign, by_name["moon"].sign_degree, marks["bodies"]["moon"]),
        ("rising", rising.sign, rising.sign_degree, "AC"),
    ):
        cards.append(
            {
                "label": words[key],
                "glyph": glyph,
                "sign_glyph": marks["signs"][sign],
                "sign": words["signs"][sign],
                "degree": format_degree(degree),
            }
        )
    return cards


def _minutes_text(minutes: float, words: dict[str, Any]) -> str:
    whole = round(minutes)
    if whole < 1:
        return str(words["birth_time_less_than_a_minute"])
    return str(words["birth_time_minutes"][0 if whole == 1 else 1]).format(n=whole)


def birth_time_note(chart: NatalChart, words: dict[str, Any]) -> dict[str, str] | None:
    """The "about your birth time" note, or None: when the Ascendant changes sign within
    :data:`BIRTH_TIME_NOTE_MINUTES` of the given time (the nearer change if both are), its
    title and paragraphs in the labels' language: the sign now, the sign it changes to, the
    local clock time of the change (the birth's UTC offset) and how far it is."""
    meta = chart.meta
    echo = SubjectTime(
        meta.utc, meta.local, meta.offset_minutes, meta.timezone, meta.time_source, meta.julian_day
    )
    found = natal_sensitivity_at(
        echo, meta.latitude, meta.longitude, house_system=meta.house_system, bodies=("sun",)
    )
    ascendant = next((i for i in found.items if i.result == "ascendant.sign"), None)
    if ascendant is None:
        return None
    near = [
        (change, side)
        for change, side in (
            (ascendant.changes_before, "before"),
            (ascendant.changes_after, "after"),
        )
        if change is not None and change.minutes <= BIRTH_TIME_NOTE_MINUTES
    ]
    if not near:
        return None
    change, side = min(near, key=lambda pair: pair[0].minutes)
    clock = (change.at + dt.timedelta(minutes=meta.offset_minutes)).strftime("%H:%M")
    # Before the birth the Ascendant changed *into* the birth's sign: the earlier sign is
    # ``to``; after it, the birth's sign changes into ``to``.
    fields = {
        "ascendant": words["ascendant"],
        "sign": words["signs"][ascendant.value],
        "other": words["signs"][change.to],
        "at": clock,
        "birth": meta.local.strftime("%H:%M"),
        "distance": _minutes_text(change.minutes, words),
    }
    texts = words["birth_time_note"]
    return {
        "title": texts["title"],
        "change": texts[f"change_{side}"].format(**fields),
        "advice": texts["advice"],
    }


def _logo(brand: ReportBrand) -> str | None:
    if brand.logo is None or brand.logo_type is None:
        return None
    return data_uri(brand.logo, brand.logo_type)


def cover_context(
    *,
    chart: NatalChart,
    person_name: str,
    locale: Locale,
    brand: ReportBrand,
    generated_at: dt.datetime,
    inline_fonts: bool = True,
    logo: str | None = None,
) -> dict[str, Any]:
    """What the cover (``cover.html.j2``) and the stylesheet need: the report's own values, and
    the portal's brand preview's (:func:`cover_preview_html`), so both draw the same cover.
    ``logo``: an image address instead of the brand's stored logo (the preview's)."""
    words = load_labels(locale)
    meta = chart.meta
    brand_name = brand.name if brand.name is not None else words["default_brand_name"]
    generated = format_generated(generated_at, locale)
    page_prefix, page_middle = words["page_x_of_y"]
    return {
        # The report sets it from the key's mode; the brand preview is never a test print.
        "test_mode": False,
        "lang": locale,
        "title": f"{words['report_title']}: {person_name}",
        "words": words,
        "fonts_css": Markup(font_face_css(inline_fonts)),  # noqa: S704 (our own rules)
        "colours": _brand_css(brand),
        "brand_name": brand_name,
        "brand_is_default": brand.is_default,
        "logo": logo or _logo(brand),
        "contacts": brand.contacts(),
        "css": {
            "brand_name": css_string(brand_name),
            "contacts": css_string("  ·  ".join(brand.contacts())),
            "generated": css_string(f"{words['generated_at']} {generated}"),
            "page_prefix": css_string(page_prefix),
            "page_middle": css_string(page_middle),
        },
        "person_name": person_name,
        "generated": generated,
        "birth": {
            "date": format_date(meta.local.date(), locale),
            "time": meta.local.strftime("%H:%M"),
            "offset": format_offset(meta.offset_minutes),
            "timezone": meta.timezone or "",
            "place": format_coordinates(meta.latitude, meta.longitude, words),
            "house_system": words["house_systems"].get(
                meta.requested_house_system, meta.requested_house_system
            ),
        },
        "big_three": _big_three(chart, words),
    }


def cover_preview_html(
    chart: NatalChart,
    *,
    person_name: str,
    locale: Locale,
    brand: ReportBrand,
    generated_at: dt.datetime,
    logo_url: str | None = None,
    fonts_css: str = "",
    zoom: float = 0.4,
) -> str:
    """The report's cover alone, as one HTML document (``cover_preview.html.j2``: the same
    cover template and stylesheet as the report) at ``zoom`` of A4: the portal's live brand
    preview. ``fonts_css``: the ``@font-face`` rules of the report's families (the portal's
    name its served fonts; the report's own inline them, a megabyte per preview)."""
    context = cover_context(
        chart=chart,
        person_name=person_name,
        locale=locale,
        brand=brand,
        generated_at=generated_at,
        logo=logo_url,
    )
    context["fonts_css"] = Markup(fonts_css)  # noqa: S704 (the caller's own rules)
    context["zoom"] = f"{zoom:g}"
    return environment().get_template("cover_preview.html.j2").render(context)


def render_natal_html(report: NatalReport, *, inline_fonts: bool = True) -> str:
    """The whole report as one HTML document, images inlined; fonts inlined too unless
    ``inline_fonts`` is false (the PDF renderer has them locally)."""
    chart = report.chart
    words = load_labels(report.locale)
    context = {
        **cover_context(
            chart=chart,
            person_name=report.person_name,
            locale=report.locale,
            brand=report.brand,
            generated_at=report.generated_at,
            inline_fonts=inline_fonts,
        ),
        # Our own drawing (it escapes its texts): the one markup value not escaped here.
        "wheel_svg": Markup(report.wheel_svg),  # noqa: S704
        "positions": _position_rows(chart, words),
        "angles": [
            {
                "label": words["ascendant"],
                "sign_glyph": glyphs()["signs"][chart.angles.ascendant.sign],
                "sign": words["signs"][chart.angles.ascendant.sign],
                "degree": format_degree(chart.angles.ascendant.sign_degree),
            },
            {
                "label": words["midheaven"],
                "sign_glyph": glyphs()["signs"][chart.angles.midheaven.sign],
                "sign": words["signs"][chart.angles.midheaven.sign],
                "degree": format_degree(chart.angles.midheaven.sign_degree),
            },
        ],
        "houses": _house_rows(chart, words),
        "aspects": _aspect_rows(chart, words),
        "balance": _balance(chart, words),
        "chapters": report.chapters,
        "birth_time_note": birth_time_note(chart, words),
        "test_mode": report.test_mode,
    }
    return environment().get_template("natal.html.j2").render(context)


def _basis_text(basis: Basis, words: dict[str, Any]) -> str:
    """What an interpretation rests on, in words: ``Sun · Leo · House 5``, ``Sun Trine Moon ·
    orb 2°10′``."""
    parts: list[str] = []
    bodies = words["bodies"]
    if basis.bodies and basis.aspect:
        first, second = basis.bodies[0], basis.bodies[-1]
        parts.append(
            f"{bodies.get(first, first)} {words['aspect_names'][basis.aspect]} "
            f"{bodies.get(second, second)}"
        )
    elif basis.body:
        parts.append(bodies.get(basis.body, basis.body))
    elif basis.angle:
        parts.append(bodies.get(basis.angle, basis.angle))
    if basis.sign:
        parts.append(words["signs"][basis.sign])
    if basis.house is not None:
        parts.append(f"{words['house_label']} {basis.house}")
    if basis.orb is not None:
        parts.append(f"{words['col_orb']} {format_orb(basis.orb)}")
    return " · ".join(parts)


def _items(found: list[InterpretationItem], words: dict[str, Any]) -> tuple[ChapterItem, ...]:
    return tuple(ChapterItem(i.title, i.text, _basis_text(i.basis, words)) for i in found)


def interpretation_chapters(chart: NatalChart, locale: Locale) -> tuple[Chapter, ...]:
    """The report's chapters from astro_calc's natal interpretation (level ``full``): the Big
    Three; each planet in its sign then its house, and the Midheaven; the major aspects; the
    balance and the patterns."""
    words = load_labels(locale)
    reading = natal_interpretation(chart, language=locale, level="full")
    by_section: dict[str, list[InterpretationItem]] = {}
    for item in reading.items:
        by_section.setdefault(item.section, []).append(item)
    planets: list[InterpretationItem] = []
    for name in REPORT_PLANETS:
        for section in ("planet_sign", "planet_house"):
            planets.extend(i for i in by_section.get(section, []) if i.basis.body == name)
    planets.extend(by_section.get("angles", []))
    return (
        Chapter(
            "big_three",
            words["chapter_big_three"],
            words["chapter_big_three_intro"],
            _items(by_section.get("big_three", []), words),
        ),
        Chapter(
            "planets",
            words["chapter_planets"],
            words["chapter_planets_intro"],
            _items(planets, words),
        ),
        Chapter(
            "aspects",
            words["chapter_aspects"],
            words["chapter_aspects_intro"],
            _items(by_section.get("aspects", []), words),
            words["none"],
        ),
        Chapter(
            "patterns",
            words["chapter_patterns"],
            words["chapter_patterns_intro"],
            _items(by_section.get("balance", []) + by_section.get("patterns", []), words),
            words["no_patterns"],
        ),
    )


#: The wheel's width in the document's SVG units; the stylesheet scales it to 150 mm.
WHEEL_SIZE_PX: Final = 800


def natal_report_html(
    chart: NatalChart,
    *,
    person_name: str,
    locale: Locale,
    brand: ReportBrand,
    generated_at: dt.datetime,
    inline_fonts: bool = True,
    test_mode: bool = False,
) -> str:
    """The natal report of ``chart`` as one HTML document: the drawing module's wheel (in the
    brand's colour) and the interpretation chapters in ``locale``. Self-contained unless
    ``inline_fonts`` is false (for the PDF renderer, which has the fonts locally)."""
    wheel = natal_wheel_svg(
        chart,
        colors={"primary": brand.primary_color},
        language=locale,
        size_px=WHEEL_SIZE_PX,
    )
    report = NatalReport(
        chart=chart,
        person_name=person_name,
        locale=locale,
        brand=brand,
        generated_at=generated_at,
        wheel_svg=wheel,
        chapters=interpretation_chapters(chart, locale),
        test_mode=test_mode,
    )
    return render_natal_html(report, inline_fonts=inline_fonts)
