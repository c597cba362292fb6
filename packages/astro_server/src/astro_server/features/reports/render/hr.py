"""The HR talent assessment report: one HTML document printed to PDF by the natal report's
renderer (same fonts, page layout, running header and footer, brand and white label).

Contents, in the chosen locale (labels in ``labels/hr_<locale>.json``, the prose from
:mod:`astro_calc.hr`):

1. Cover: the disclaimer first (entertainment only; not to decide employment), the brand, the
   candidate, the position, the birth data and the consent line (the candidate agreed to the
   reading). No score or verdict on the cover and no age anywhere (issue 35): the score and the
   verdict (worded as an alignment: strong alignment / consider / explore further / low
   alignment) are printed at body size with the score's components. Thai dates are Buddhist
   Era with Thai month names.
2. The narrative (opening with the disclaimer again), the recommendation factors and the score's
   components.
3. The BaZi profile (pillars by pinyin and element, since the bundled fonts carry no Chinese
   characters), the element balance and the Taksa outlook with the birth day's roles.
4. The company fit and the position match.

The input is the assessment body (the JSON the endpoint answers), so the job that prints it needs
nothing else.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final

from markupsafe import Markup

from astro_calc.hr import PARAGRAPHS
from astro_calc.hr.narrative import words as hr_words
from astro_server.features.reports.render.branding import ReportBrand
from astro_server.features.reports.render.html import css_string, environment, font_face_css
from astro_server.features.reports.render.html import labels as load_labels
from astro_server.features.reports.render.natal import (
    Locale,
    _brand_css,
    _logo,
    format_coordinates,
    format_date,
    format_generated,
    format_offset,
)

_PILLARS: Final = ("year", "month", "day", "hour")


def hr_labels(locale: Locale) -> dict[str, Any]:
    return load_labels(f"hr_{locale}")


def _stem(stem: dict[str, Any], locale: Locale) -> str:
    w = hr_words(locale)
    element = w["elements"][stem["element"]]
    polarity = w["polarity"][stem["polarity"]]
    name = f"{polarity} {element}" if locale == "en" else f"{element}{polarity}"
    return f"{stem['pinyin']} · {name}"


def _branch(branch: dict[str, Any], locale: Locale) -> str:
    w = hr_words(locale)
    return f"{branch['pinyin']} · {w['animals'][branch['animal']]}"


def _day(iso: str, locale: Locale) -> str:
    """An ISO date of the assessment body as the reader expects it (Buddhist Era in Thai)."""
    return format_date(dt.date.fromisoformat(iso), locale)


def hr_report_html(
    assessment: dict[str, Any],
    *,
    locale: Locale,
    brand: ReportBrand,
    generated_at: dt.datetime,
    test_mode: bool = False,
) -> str:
    """The whole report as one self-contained HTML document (fonts and logo inlined)."""
    words = hr_labels(locale)
    texts = hr_words(locale)
    th = locale == "th"
    summary = assessment["candidate_summary"]
    profile = assessment["bazi_profile"]
    outlook = assessment["thaksa_outlook"]
    brand_name = brand.name if brand.name is not None else words["default_brand_name"]
    generated = format_generated(generated_at, locale)
    page_prefix, page_middle = words["page_x_of_y"]
    narrative = assessment["hr_narrative_th" if th else "hr_narrative_en"].split("\n\n")
    factors = [
        line.removeprefix("- ")
        for line in assessment["recommendation_factors_th" if th else "recommendation_factors_en"]
        .strip()
        .split("\n")
    ]
    pillars = []
    for name in _PILLARS:
        pillar = profile["pillars"][name]
        if pillar is None:
            pillars.append(
                {
                    "label": words["pillars"][name],
                    "stem": words["not_given"],
                    "branch": "–",
                    "ten_god": "–",
                }
            )
            continue
        god = pillar["stem_ten_god"]
        pillars.append(
            {
                "label": words["pillars"][name],
                "stem": _stem(pillar["stem"], locale),
                "branch": _branch(pillar["branch"], locale),
                "ten_god": texts["ten_gods"][god["key"]] if god else words["day_master"],
            }
        )
    scores = profile["element_balance"]["scores"]
    top = max(1.0, *(s["percent"] for s in scores))
    balance = [
        {
            "label": texts["elements"][s["element"]],
            "percent": f"{s['percent']:g}",
            "width": round(100 * s["percent"] / top),
        }
        for s in scores
    ]

    def element_list(keys: list[str]) -> str:
        return ", ".join(texts["elements"][k] for k in keys) or texts["none"]

    strength = profile["strength"]
    outlook_rows = [
        {
            "number": year["number"],
            "dates": f"{_day(year['from_date'], locale)} – {_day(year['to_date'], locale)}",
            "position": year["position_th" if th else "position_en"],
            "planet": year["planet_th" if th else "planet_en"],
            "reading": texts["readings"][year["reading"]],
            "reading_key": year["reading"],
        }
        for year in outlook["years"]
    ]
    roles = [
        {
            "position": role["position_th" if th else "position_en"],
            "planet": role["planet_th" if th else "planet_en"],
            "meaning": role["meaning_th" if th else "meaning_en"],
        }
        for role in outlook["roles"]
    ]
    archetypes = [
        {
            "name": a["name_th" if th else "name_en"],
            "keywords": ", ".join(a["matched_keywords"]),
            "elements": element_list(a["favoured_elements"]),
            "share": f"{a['ten_god_share_percent']:g}",
            "score": a["score"],
        }
        for a in assessment["position_match"]["archetypes"]
    ]
    breakdown = assessment["score_breakdown"]
    components = [
        {
            "label": words["components"][key],
            "weight": round(breakdown[key]["weight"] * 100),
            "score": breakdown[key]["score"],
        }
        for key in ("position_match", "thaksa_outlook", "company_fit", "chart_balance")
    ]
    birth_words = {**load_labels(locale), **words}
    context = {
        "test_mode": test_mode,  # a test key's report: the diagonal "TEST" mark
        "lang": locale,
        "title": f"{words['report_title']}: {summary['name']}",
        "words": words,
        "fonts_css": Markup(font_face_css()),  # noqa: S704 (our fonts' data URIs)
        "colours": _brand_css(brand),
        "brand_name": brand_name,
        "logo": _logo(brand),
        "contacts": brand.contacts(),
        "css": {
            "brand_name": css_string(brand_name),
            "contacts": css_string("  ·  ".join(brand.contacts())),
            "generated": css_string(f"{words['generated_at']} {generated}"),
            "page_prefix": css_string(page_prefix),
            "page_middle": css_string(page_middle),
        },
        "disclaimer": assessment["disclaimer_th" if th else "disclaimer_en"],
        "person_name": summary["name"],
        "position": assessment["position"],
        "as_of": _day(summary["as_of"], locale),
        "generated": generated,
        "birth": {
            "date": _day(summary["birth_date"], locale),
            "time": summary["birth_time"] or words["birth_time_unknown"],
            "offset": format_offset(summary["offset_minutes"]),
            "place": format_coordinates(summary["latitude"], summary["longitude"], birth_words),
        },
        "score": assessment["recommendation_score"],
        "verdict": texts["verdicts"][assessment["verdict"]],
        "narrative": narrative,
        "factors": factors,
        "components": components,
        "pillars": pillars,
        "balance": balance,
        "strength": f"{texts['strength'][strength['verdict']]} ({strength['support_percent']:g}%)",
        "favourable": element_list(profile["favourable_elements"]),
        "unfavourable": element_list(profile["unfavourable_elements"]),
        "outlook": outlook_rows,
        "roles": roles,
        "company_text": narrative[PARAGRAPHS.index("company")],
        "position_text": narrative[PARAGRAPHS.index("position")],
        "archetypes": archetypes,
    }
    return environment().get_template("hr.html.j2").render(context)
