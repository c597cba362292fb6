"""Server-side texts a customer reads (issue 35): the visual-reading e-mails (bilingual, native
Thai subjects, the reading's disclaimer in both languages) and the llm writer's request (asked
in the reading's language, Thai in the คุณ register, every section sent, no slot left)."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any, cast

import pytest

from astro_calc.disclaimers import disclaimer
from astro_server.features.visual.writer import Written, chat_prompt
from astro_server.platform.delivery.mail import event_message, mail_texts
from astro_server.settings import Settings

SETTINGS = cast(
    Settings, SimpleNamespace(mail_from="readings@example.test", public_url="https://astro.test")
)


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return json.dumps({"id": "msg_1", "type": kind, "data": data}).encode()


def _plain(message: Any) -> str:
    return str(message.get_body(("plain",)).get_content())


@pytest.mark.parametrize("kind", ["face", "palm"])
def test_a_ready_reading_mail_is_bilingual_with_its_disclaimer(kind: str) -> None:
    body = _event(
        "visual_reading.succeeded",
        {"reading_id": "vr_1", "kind": kind, "summary": "ดูลายมือ: มือแบบธาตุดิน"},
    )
    message = event_message("reader@example.test", body, SETTINGS)
    assert message["Subject"] == "Your reading is ready / ผลการอ่านจากภาพของคุณพร้อมแล้ว"
    text = _plain(message)
    for language in ("en", "th"):
        assert disclaimer(f"{kind}_reading", language) in text
    assert "https://astro.test/v1/visual-readings/vr_1" in text
    assert "เปิดดูผลการอ่าน" in text
    html = str(message.get_body(("html",)).get_content())
    assert disclaimer(f"{kind}_reading", "th") in html


def test_a_rejected_photo_mail_names_the_problems_in_both_languages() -> None:
    body = _event("visual_upload.rejected", {"upload_id": "vu_1", "problems": ["too dark"]})
    message = event_message("reader@example.test", body, SETTINGS)
    assert message["Subject"] == "Your photo was not accepted / รูปภาพของคุณยังไม่ผ่านการตรวจสอบ"
    text = _plain(message)
    assert "What to change in the photo:" in text
    assert "สิ่งที่ควรแก้ในรูปภาพ" in text
    assert "- too dark" in text


def test_every_event_has_both_subjects() -> None:
    subjects = mail_texts()["subjects"]
    for event, pair in subjects.items():
        assert pair["en"], event
        assert re.search(r"[\u0e00-\u0e7f]", pair["th"]), event


@pytest.mark.parametrize("kind", ["face", "palm"])
@pytest.mark.parametrize("language", ["en", "th"])
def test_the_llm_request_is_in_the_readings_language(kind: str, language: str) -> None:
    base = Written(
        "summary",
        [
            {"feature": "a", "title": "เส้นชีวิต", "text": "เส้นชีวิตโค้งกว้าง"},
            {"feature": "b", "title": "เนินพฤหัสบดี", "text": "เนินพฤหัสบดีนูนเด่น"},
        ],
    )
    prompt = chat_prompt(kind, base, language)
    assert "{" not in prompt
    assert "}" not in prompt
    assert "เส้นชีวิต: เส้นชีวิตโค้งกว้าง\nเนินพฤหัสบดี: เนินพฤหัสบดีนูนเด่น" in prompt
    if language == "th":
        instruction = prompt.split("\n\n")[0]
        assert re.fullmatch(r"[\u0e00-\u0e7f\s\"().]+", instruction), instruction
        assert '"คุณ"' in instruction
        assert ("โหงวเฮ้ง" if kind == "face" else "การดูลายมือ") in instruction
    else:
        assert ("face reading" if kind == "face" else "palm reading") in prompt
        assert '"you"' in prompt


async def test_portal_instants_in_thai_are_buddhist_era_without_utc_brackets(app: Any) -> None:
    from quart import g

    from astro_server.portal import _when

    async with app.test_request_context("/portal/"):
        g.portal_lang = "th"
        assert _when("2026-11-24T22:53:10Z") == "24 พ.ย. 2569 22:53 น. ตามเวลาสากล"
        g.portal_lang = "en"
        assert _when("2026-11-24T22:53:10Z") == "2026-11-24 22:53 UTC"
        assert _when(None) == ""
