"""Social copy of campaign days: lengths counted in grapheme clusters (Thai marks do not count),
the exact copy for one fixed day in English and Thai, never a Thai word cut, stability, and the
bounds held for every sign and language over a month of real horoscopes.

Independent check of the counting: for Thai text, a character as people see it is a code point
that is neither a combining mark (general category Mn: tone marks, above and below vowels,
mai han-akat, thanthakhat) nor sara am (U+0E33, which UAX #29 classes as a SpacingMark joined to
the letter before it). ``unicodedata`` gives the categories; the counter under test uses the
``regex`` module's ``\\X`` (UAX #29 extended grapheme clusters).
"""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from datetime import date, timedelta
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astro_calc.horoscope import SIGNS, daily_horoscope
from astro_server.features.cultural.campaigns.social_copy import (
    CLAUSE_OPENERS,
    DANGLING_WORDS,
    LIMITS,
    campaign_copy,
    compose,
    grapheme_count,
    headline,
    highlight_line,
    lucky_line,
    thai_clauses,
    thai_words,
)

DAY = date(2025, 4, 13)  # Songkran, a Thai public holiday


def seen_characters(text: str) -> int:
    """Code points minus combining marks and sara am (see the module docstring)."""
    return sum(1 for ch in text if unicodedata.category(ch) not in ("Mn", "Me") and ch != "\u0e33")


def horoscope(sign: str, day: date, language: str) -> dict[str, object]:
    data: dict[str, object] = msgspec.to_builtins(daily_horoscope(sign, day, language))
    return data


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("น้ำใจ", 3),  # น้ำ is one: น + mai tho + sara am
        ("ความสำเร็จ", 8),  # สำ and ร็ are one each
        ("ดวงชะตากำเนิด", 11),
        ("ราศีสิงห์", 6),  # ศี, สิ and ห์ carry marks
        ("Leo", 3),
        ("e\u0301", 1),  # e + combining acute
        ("👍🏽", 1),  # emoji with a skin-tone modifier
    ],
)
def test_grapheme_count_counts_what_people_see(text: str, expected: int) -> None:
    assert grapheme_count(text) == expected
    if all("\u0e00" <= ch <= "\u0e7f" for ch in text):
        assert seen_characters(text) == expected


def test_the_copy_of_one_fixed_day_in_english() -> None:
    highlights = [highlight_line("Thailand", "Songkran (Thai New Year holidays)", "en")]
    copy = campaign_copy(horoscope("leo", DAY, "en"), highlights, "en")
    assert copy == {
        "long": "Leo · 13 Apr 2025: Early in the day the Moon is still in Libra, lighting your 3rd "
        "house of communication and short trips. Thailand: Songkran (Thai New Year holidays). "
        "Lucky colour red, number 14.",
        "medium": "Leo · 13 Apr 2025: Early in the day the Moon is still in Libra, lighting your "
        "3rd house of communication and short trips.",
        "short": "Leo · 13 Apr 2025: Early in the day the Moon is still in Libra…",
    }


def test_the_copy_of_one_fixed_day_in_thai() -> None:
    highlights = [highlight_line("ไทย", "วันสงกรานต์", "th")]
    copy = campaign_copy(horoscope("leo", DAY, "th"), highlights, "th")
    assert copy["short"] == ("ราศีสิงห์ · 13 เม.ย. 2568: ดาวจันทร์เริ่มวันในราศีตุลย์… ไทย: วันสงกรานต์")
    assert copy["medium"] == (
        "ราศีสิงห์ · 13 เม.ย. 2568: ดาวจันทร์เริ่มวันในราศีตุลย์ ตรงกับเรือนที่ 3 ของคุณ… "
        "ไทย: วันสงกรานต์ สีมงคล: แดง · เลขมงคล: 14"
    )
    # 60 characters as seen, 73 code points: the Thai marks are not counted.
    assert (grapheme_count(copy["short"]), len(copy["short"])) == (60, 73)
    assert seen_characters(copy["short"]) == 60
    assert grapheme_count(copy["long"]) <= 280 < len(copy["long"])


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_sign_for_a_month_fits_and_never_cuts_a_thai_word(language: str) -> None:
    highlights = [
        highlight_line("ไทย" if language == "th" else "Thailand", "Loy Krathong", language)
    ]
    for offset in range(0, 30, 3):
        day = DAY + timedelta(days=offset)
        for sign in SIGNS:
            source = horoscope(sign, day, language)
            copy = campaign_copy(source, highlights, language)
            assert campaign_copy(source, highlights, language) == copy  # stable
            overall = str(source["overall"]["text"])  # type: ignore[index]
            pieces = [
                overall,
                headline(str(source["sign_name"]), day, language),
                lucky_line(str(source["lucky_colour"]), int(source["lucky_number"]), language),  # type: ignore[call-overload]
                *highlights,
            ]
            tokens = {token for piece in pieces for token in piece.split(" ")}
            head = headline(str(source["sign_name"]), day, language)
            for name, limit in LIMITS.items():
                text = copy[name]
                assert grapheme_count(text) <= limit, (sign, day, name)
                if language == "th":
                    # The Thai text ends at one of its clause ends (checked in detail below).
                    _thai_body(text, head, overall, pieces[2:])
                    continue
                # Every space-separated token is a whole token of its sources (an ellipsis
                # aside): an English word is never cut.
                for token in text.split(" "):
                    assert (
                        token.removesuffix("…") in tokens
                        or token.removesuffix("…").rstrip(",;:") + "," in tokens
                    ), (sign, day, name, token)


def _thai_body(text: str, head: str, body: str, extras: list[str]) -> tuple[str, bool]:
    """(the body part of a Thai copy, cut short or not), checking that it is the body's text up to
    one of its clause ends (:func:`thai_clauses`), followed by "…" when cut, then extras."""
    assert text.startswith(head)
    rest = text[len(head) :].lstrip(" ")
    clauses = thai_clauses(" ".join(body.split()))
    for k in range(len(clauses), -1, -1):
        part = "".join(clauses[:k]).strip()
        cut = 0 < k < len(clauses)
        shown = part + "…" if cut else part
        tail = rest[len(shown) :] if rest.startswith(shown) else None
        if tail is None:
            continue
        tail = tail.lstrip(" ")
        if not tail or any(tail.startswith(extra) for extra in extras):
            return part, cut
    raise AssertionError(f"not cut at a clause end: {text!r}")


def test_36_thai_posts_end_on_a_clause_boundary_checked_with_the_segmenter() -> None:
    """Issue 35: twelve signs, three lengths, in Thai: each post's text ends where PyThaiNLP's
    segmenter puts a word boundary (newmm, and the independent "longest" matching engine agrees
    at that point), at a space or before a clause-opening word, outside parentheses, not before
    a number and not after a word that needs a complement (the old copy ended "…เรือนที่…" and
    "ทำมุมฉาก (90…")."""
    from pythainlp.tokenize import word_tokenize

    highlights = [highlight_line("ไทย", "วันสงกรานต์", "th")]
    posts = cuts = 0
    for sign in SIGNS:
        source = horoscope(sign, DAY, "th")
        overall = " ".join(str(source["overall"]["text"]).split())  # type: ignore[index]
        head = headline(str(source["sign_name"]), DAY, "th")
        lucky = lucky_line(str(source["lucky_colour"]), int(source["lucky_number"]), "th")  # type: ignore[call-overload]
        copy = campaign_copy(source, highlights, "th")
        boundaries = {}
        for engine in ("newmm", "longest"):
            offsets, at = set(), 0
            for word in word_tokenize(overall, engine=engine, keep_whitespace=True):
                at += len(word)
                offsets.add(at)
            boundaries[engine] = offsets
        words = thai_words(overall)
        for name in LIMITS:
            posts += 1
            body, cut = _thai_body(copy[name], head, overall, [*highlights, lucky])
            if not body:
                continue
            end = len(body)
            assert overall.startswith(body)
            assert end in boundaries["newmm"], (sign, name, body)
            assert end in boundaries["longest"] or overall[end : end + 1] == " ", (sign, name)
            if not cut:
                continue
            cuts += 1
            following = overall[end:]
            assert body.count("(") == body.count(")"), (sign, name, body)
            assert not following.lstrip()[:1].isdigit(), (sign, name, body)
            assert not following.lstrip().startswith(")"), (sign, name, body)
            assert following.startswith(" ") or any(
                following.startswith(w) for w in CLAUSE_OPENERS
            ), (sign, name, body)
            consumed, last_word = 0, ""
            for w in words:
                consumed += len(w)
                if w.strip():
                    last_word = w.strip()
                if consumed == end:
                    break
            assert last_word, (sign, name, body)
            assert last_word not in DANGLING_WORDS, (sign, name, body)
            assert not last_word[:1].isdigit(), (sign, name, body)
    assert posts == 36
    assert cuts >= 12  # the short and medium posts are cut short


def test_clause_ends_never_inside_parentheses_before_a_number_or_without_a_verb() -> None:
    text = "ดาวอังคารทำมุมฉากกับดาวเสาร์ (90 องศา) ตรงกับเรือนที่ 3 ของคุณ ซึ่งเป็นเรือนที่ 9"
    clauses = thai_clauses(text)
    assert "".join(clauses) == text
    assert clauses == [
        "ดาวอังคารทำมุมฉากกับดาวเสาร์ (90 องศา)",
        " ตรงกับเรือนที่ 3 ของคุณ",
        " ซึ่งเป็นเรือนที่ 9",
    ]
    # An apposition without a verb is no clause: "ดาวอาทิตย์…" alone is never a post's end.
    assert thai_clauses("ดาวอาทิตย์ ดาวเจ้าราศีของคุณ อยู่ในราศีพฤษภ แรงส่งอยู่ข้างคุณ")[0] == (
        "ดาวอาทิตย์ ดาวเจ้าราศีของคุณ อยู่ในราศีพฤษภ"
    )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.sampled_from(list("กขคงจฉชซดตถทนบปผพฟมยรลวสหอะาำิีึืุู่้๊๋็์ัเแโใไ")),
            min_size=1,
            max_size=30,
        ),
        min_size=1,
        max_size=20,
    ),
    st.sampled_from(sorted(LIMITS.values())),
)
def test_thai_copy_of_any_text_fits_and_ends_at_a_clause_end(
    phrases: list[str], limit: int
) -> None:
    body = " ".join(phrases)
    head = "ราศีสิงห์ · 1 ม.ค. 2569:"
    text = compose(limit, head, body, ["ไทย: วันสงกรานต์"], "th")
    assert grapheme_count(text) <= limit
    _thai_body(text, head, body, ["ไทย: วันสงกรานต์"])


def test_the_segmenter_needs_no_download_and_writes_nothing(tmp_path: Path) -> None:
    """PyThaiNLP's dictionary and tagger model ship in the package: in a fresh process whose home
    directory does not exist (as on a read-only root file system), cutting works and nothing is
    created (no ~/pythainlp-data) or fetched."""
    home = tmp_path / "no-home"
    script = (
        "from astro_server.features.cultural.campaigns.social_copy import thai_clauses\n"
        "print(thai_clauses('ดาวอาทิตย์ ดาวเจ้าราศีของคุณ อยู่ในราศีพฤษภ แรงส่งอยู่ข้างคุณ'))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHAINLP")}
    # Any download would go to a closed loopback port and fail.
    env.update(
        {"HOME": str(home), "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "ดาวอาทิตย์ ดาวเจ้าราศีของคุณ อยู่ในราศีพฤษภ" in done.stdout
    assert not home.exists()
