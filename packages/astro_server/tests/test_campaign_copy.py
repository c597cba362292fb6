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

import unicodedata
from datetime import date, timedelta

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astro_calc.horoscope import SIGNS, daily_horoscope
from astro_server.features.cultural.campaigns.social_copy import (
    LIMITS,
    campaign_copy,
    compose,
    grapheme_count,
    headline,
    highlight_line,
    lucky_line,
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
        "long": "Leo · 13 Apr 2025: With the Moon in Libra, the spotlight falls on your 3rd house "
        "of communication and short trips. Thailand: Songkran (Thai New Year holidays). Lucky "
        "colour red, number 14.",
        "medium": "Leo · 13 Apr 2025: With the Moon in Libra, the spotlight falls on your 3rd "
        "house of communication and short trips.",
        "short": "Leo · 13 Apr 2025: With the Moon in Libra, the spotlight falls on…",
    }


def test_the_copy_of_one_fixed_day_in_thai() -> None:
    highlights = [highlight_line("ไทย", "วันสงกรานต์", "th")]
    copy = campaign_copy(horoscope("leo", DAY, "th"), highlights, "th")
    assert copy["short"] == ("ราศีสิงห์ · 13 เม.ย. 2568: วันนี้ดาวจันทร์โคจรอยู่ในราศีตุลย์… ไทย: วันสงกรานต์")
    assert copy["medium"] == (
        "ราศีสิงห์ · 13 เม.ย. 2568: วันนี้ดาวจันทร์โคจรอยู่ในราศีตุลย์ ตรงกับเรือนที่ 3 ของคุณ… "
        "ไทย: วันสงกรานต์ สีมงคล: แดง · เลขมงคล: 14"
    )
    # 64 characters as seen, 79 code points: the Thai marks are not counted.
    assert (grapheme_count(copy["short"]), len(copy["short"])) == (64, 79)
    assert seen_characters(copy["short"]) == 64
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
            for name, limit in LIMITS.items():
                text = copy[name]
                assert grapheme_count(text) <= limit, (sign, day, name)
                # Every space-separated token is a whole token of its sources (an ellipsis
                # aside): a Thai word is never cut, an English one neither.
                for token in text.split(" "):
                    assert (
                        token.removesuffix("…") in tokens
                        or token.removesuffix("…").rstrip(",;:") + "," in tokens
                    ), (sign, day, name, token)


@settings(max_examples=200, deadline=None)
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
def test_thai_copy_of_any_phrases_fits_and_keeps_whole_phrases(
    phrases: list[str], limit: int
) -> None:
    body = " ".join(phrases)
    text = compose(limit, "ราศีสิงห์ · 1 ม.ค. 2569:", body, ["ไทย: วันสงกรานต์"], "th")
    assert grapheme_count(text) <= limit
    for token in text.removeprefix("ราศีสิงห์ · 1 ม.ค. 2569:").replace("…", "").split(" "):
        assert token in ("", *phrases, "ไทย:", "วันสงกรานต์"), token
