"""Disclaimers (astro_calc/data/disclaimers.json) and the safety wording of the Vedic texts."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from astro_calc.disclaimers import CODES, KINDS, DisclaimerNote, disclaimer, disclaimer_for
from astro_calc.errors import CalcInputError
from astro_calc.vedic.remedies import remedy_texts

THAI = re.compile(r"[\u0e00-\u0e7f]")


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_says_entertainment_and_not_advice_in_both_languages(kind: str) -> None:
    en = disclaimer(kind, "en")
    th = disclaimer(kind, "th")
    assert "entertainment" in en or "reflection" in en
    assert "not medical, legal" in en
    assert "ไม่ใช่คำแนะนำทางการแพทย์ กฎหมาย" in th
    assert "การทบทวนตนเอง" in th
    assert THAI.search(th)
    assert not THAI.search(en)


def test_every_code_issue_47_names_has_a_disclaimer() -> None:
    routes = {
        "horoscope", "vedic_remedies", "kundli_matching", "tarot", "auspicious_dates",
        "numerology", "campaign_post", "natal", "vedic", "ziwei", "human_design",
        "astrocartography", "sky_events", "traditional_timing",
    }  # fmt: skip
    assert routes <= set(CODES)
    data = json.loads(
        resources.files("astro_calc").joinpath("data/disclaimers.json").read_text("utf-8")
    )
    assert set(data["disclaimers"]) == set(CODES)


@pytest.mark.parametrize("language", ["en", "th"])
def test_disclaimer_for_returns_the_code_and_the_text_in_the_answers_language(
    language: str,
) -> None:
    note = disclaimer_for("tarot", language)
    assert note == DisclaimerNote(code="tarot", text=disclaimer("tarot", language))
    assert bool(THAI.search(note.text)) == (language == "th")


def test_disclaimer_for_an_unknown_code_or_language_names_the_field() -> None:
    with pytest.raises(CalcInputError) as error:
        disclaimer_for("palmistry", "en")
    assert error.value.field == "code"
    with pytest.raises(CalcInputError) as error:
        disclaimer_for("tarot", "fr")
    assert error.value.field == "language"


def test_tarot_numerology_and_maps_say_what_the_answer_is_not() -> None:
    assert "not an answer to rely on" in disclaimer("tarot", "en")
    assert "decides nothing by itself" in disclaimer("numerology", "en")
    assert "do not choose where to live, work or travel by it alone" in disclaimer(
        "astrocartography", "en"
    )


def test_readings_that_touch_health_or_hiring_name_hiring_advice() -> None:
    for kind in ("horoscope", "face_reading", "palm_reading"):
        assert "hiring" in disclaimer(kind, "en")
        assert "การจ้างงาน" in disclaimer(kind, "th")


def test_remedies_and_matching_carry_their_own_warnings() -> None:
    assert "never let a remedy replace medical care" in disclaimer("vedic_remedies", "en")
    assert "ไม่ควรใช้แทนการรักษาทางการแพทย์" in disclaimer("vedic_remedies", "th")
    assert "not a judgement of anyone's worth as a partner" in disclaimer("kundli_matching", "en")


def test_gemstones_and_fasting_carry_a_consult_a_professional_note() -> None:
    notes = remedy_texts()["notes"]
    assert set(notes) == {"gemstone", "fasting_day"}
    for note in notes.values():
        assert "never let" in note["en"]
        assert "replace medical care" in note["en"]
        assert "ไม่ควรใช้แทนการรักษาทางการแพทย์" in note["th"]


def test_no_vedic_text_ties_a_mars_placement_to_marriage_stigma() -> None:
    stigma = (
        "source of friction in marriage",
        "before marriage",
        "Manglik position",
        "ก่อนแต่งงาน",
        "ต้นเหตุของความกระทบกระทั่งในชีวิตคู่",
        "ตำแหน่งมังคลิก",
    )
    root = resources.files("astro_calc").joinpath("data/vedic")
    texts = [root.joinpath("remedies.json").read_text("utf-8")]
    for language in ("en", "th"):
        for name in ("grahas", "matching"):
            path = root.joinpath(f"interpretation/{language}/{name}.json")
            texts.append(json.dumps(json.loads(path.read_text("utf-8")), ensure_ascii=False))
    for text in texts:
        for phrase in stigma:
            assert phrase not in text


def test_an_unknown_kind_or_language_names_the_field() -> None:
    with pytest.raises(CalcInputError) as unknown_kind:
        disclaimer("astrology", "en")
    assert unknown_kind.value.field == "kind"
    with pytest.raises(CalcInputError) as unknown_language:
        disclaimer("horoscope", "fr")
    assert unknown_language.value.field == "language"
