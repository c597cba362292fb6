"""Tarot, numerology and published horoscopes through the SDK against the live stack (hypercorn on
PostgreSQL + Redis, with the worker and the scheduler running).

Each call goes SDK -> live server -> astro_calc (and the published-horoscope table) and back.
References: a seeded draw computed in this process (the same seed must give the same cards in
every process); numerology examples published by Hans Decoz and cosmic-copilot.com (cited below,
the ones the calc tests use); the Full Moon of 2024-03-25 at 07:00 UTC in Libra (USNO, "Phases of
the Moon 2024"); the Moon's sign at 12:00 UTC from the ephemeris in this process.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import astro_sdk
from astro_calc.ephemeris import body_position, julian_day
from astro_calc.tarot import draw_tarot
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.models.horoscopes import HoroscopeRangeQuery
from astro_sdk.models.tarot import TarotCardsQuery
from astro_sdk.resources.horoscopes import RANGE
from astro_sdk.resources.tarot import LIST_CARDS
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SIGNS = ("aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio",
         "sagittarius", "capricorn", "aquarius", "pisces")  # fmt: skip


def _moon_sign_at_noon(day: dt.date) -> str:
    noon = dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC)
    return SIGNS[int(body_position(julian_day(noon), "moon").longitude // 30)]


def test_tarot_seeded_draw_is_stable_and_the_deck_is_complete(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="horoscopes")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        first = client.tarot.draw(spread="celtic_cross", seed="e2e-reading-42")
        second = client.tarot.draw(spread="celtic_cross", seed="e2e-reading-42", language="th")
        secure = client.tarot.draw(spread="three_card", reversals=False)
        deck = client.tarot.list_cards()
        fool = client.tarot.get_card(0, language="th")
        ace = client.tarot.get_card("ace_of_cups")
        with pytest.raises(astro_sdk.NotFoundError):
            client.tarot.get_card("the_joker")
        with pytest.raises(astro_sdk.RequestValidationError):
            client.tarot.list_cards(language="fr")  # type: ignore[arg-type]
        # Sent anyway (bypassing the SDK's check), the server answers 400 naming the field.
        french: Any = "fr"
        with pytest.raises(astro_sdk.BadRequestError) as bad_language:
            client.request(LIST_CARDS, query=TarotCardsQuery.model_construct(language=french))
    # Same seed, same cards and orientations, in any language, in the server and in this process.
    local = draw_tarot("celtic_cross", seed="e2e-reading-42")
    drawn = [(c.card.id, c.orientation) for c in first.cards]
    assert drawn == [(c.card.id, c.orientation) for c in second.cards]
    assert drawn == [(c.card.id, c.orientation) for c in local.cards]
    assert [c.position for c in first.cards] == list(range(1, 11))
    assert (first.seed, first.shuffle) == ("e2e-reading-42", "hmac-sha256-fisher-yates/v1")
    assert second.cards[0].card.name != first.cards[0].card.name  # Thai names
    assert (secure.seed, secure.shuffle, len(secure.cards)) == (None, "secrets", 3)
    assert {c.orientation for c in secure.cards} == {"upright"}
    assert first.api_response.credits_charged == 1
    assert secure.api_response.credits_remaining == 10 - 3
    # The 78-card deck: 22 trumps 0-21, then four suits of 14 (ace to king).
    assert [c.index for c in deck.cards] == list(range(78))
    assert len({c.id for c in deck.cards}) == 78
    assert [c.number for c in deck.cards if c.arcana == "major"] == list(range(22))
    for suit in ("wands", "cups", "swords", "pentacles"):
        assert [c.number for c in deck.cards if c.suit == suit] == list(range(1, 15))
    assert all(c.upright and c.reversed and c.keywords for c in deck.cards)
    assert (fool.id, fool.language, fool.number) == ("the_fool", "th", 0)
    assert any("\u0e00" <= ch <= "\u0e7f" for ch in fool.name)  # Thai script
    assert (ace.suit, ace.element, ace.number) == ("cups", "water", 1)
    assert ace.model_dump() == deck.cards[ace.index].model_dump()
    assert bad_language.value.details[0]["field"] == "language"
    assert deck.api_response.credits_charged is None  # the catalogue is free


def test_numerology_profile_matches_published_examples(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="horoscopes")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        result = client.numerology.profile(
            name="John Smith", birth_date="1992-11-22", on_date="2025-03-09", phone="081-234-5678"
        )
        with pytest.raises(astro_sdk.BadRequestError) as no_letters:
            client.numerology.profile(name="1234 -", birth_date="1990-01-01")
        again = client.numerology.profile(
            name="John Smith", birth_date="1992-11-22", system="chaldean"
        )
    profile = result.profile
    # Hans Decoz, decoz.com "Do your own numerology report": born 22 November 1992, the month
    # (11) and the day (22) stay masters, 11 + 22 + 3 = 36 -> life path 9.
    assert (profile.life_path.value, profile.life_path.compound) == (9, 36)
    # cosmic-copilot.com name calculator, JOHN SMITH: expression 44 -> 8; vowels O + I = 15 -> 6;
    # consonants 29 -> 11, a master number kept. (``compound`` is the sum of the reduced name
    # parts, JOHN 2 + SMITH 6 = 8, which reduces to the same 8.)
    assert profile.expression is not None
    assert profile.soul_urge is not None
    assert profile.personality is not None
    assert (profile.expression.compound, profile.expression.value) == (8, 8)
    assert profile.soul_urge.value == 6
    assert (profile.personality.value, profile.personality.master) == (11, True)
    assert (profile.birthday.value, profile.birthday.master) == (22, True)
    assert profile.on_date == dt.date(2025, 3, 9)
    assert profile.system == "pythagorean"
    # Thai phone numerology sums the digits: 0+8+1+2+3+4+5+6+7+8 = 44 -> root 8.
    assert result.phone is not None
    assert (result.phone.text, result.phone.total, result.phone.root) == ("0812345678", 44, 8)
    assert no_letters.value.details[0]["field"] == "name"
    assert again.profile.system == "chaldean"
    # The refused request was refunded: two profiles charged.
    assert again.api_response.credits_remaining == 5 - 2


def test_daily_horoscope_is_published_once_and_written_from_the_real_sky(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="horoscopes")
    day = dt.date(2024, 3, 25)
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        first = client.horoscopes.daily(sign="leo", date=day)
        second = client.horoscopes.daily(sign="leo", date="2024-03-25")
        thai = client.horoscopes.daily(sign="leo", date=day, language="th")
    # Published once: the same content and publication time on every call.
    assert first.model_dump() == second.model_dump()
    assert first.published_at == second.published_at
    assert (first.sign, first.date, first.language) == ("leo", day, "en")
    for section in (first.overall, first.love, first.career, first.money, first.health):
        assert section.text
        assert 1 <= section.rating <= 5
    # USNO: Full Moon 2024-03-25 07:00 UTC, the Moon in Libra (the Sun in Aries); 2 min tolerance.
    assert (first.moon_sign, first.moon_phase) == ("libra", "full_moon")
    assert first.moon_sign == _moon_sign_at_noon(day)
    lunation = next(f for f in first.facts if f.kind == "lunation")
    assert (lunation.phase, lunation.sign) == ("full_moon", "libra")
    full_moon = dt.datetime(2024, 3, 25, 7, 0, tzinfo=dt.UTC)
    assert abs((lunation.at - full_moon).total_seconds()) <= 120
    assert "Libra" in first.overall.text
    # Libra is the 3rd solar house from Leo.
    assert first.moon_house == 3
    assert thai.language == "th"
    assert thai.moon_sign == "libra"
    assert any("\u0e00" <= ch <= "\u0e7f" for ch in thai.overall.text)
    assert thai.api_response.credits_remaining == 10 - 3


async def test_horoscope_range_of_31_days_and_a_32_day_range_refused(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="horoscopes")
    start = dt.date(2024, 3, 1)
    async with AsyncAstroClient(
        api_key=account["api_key"], base_url=shared_server.base_url
    ) as client:
        month = await client.horoscopes.range(sign="aries", start=start, end=dt.date(2024, 3, 31))
        single = await client.horoscopes.daily(sign="aries", date=dt.date(2024, 3, 17))
        # The SDK refuses a 32-day range before sending, naming the field the server names.
        with pytest.raises(astro_sdk.RequestValidationError) as refused:
            await client.horoscopes.range(sign="aries", start=start, end=dt.date(2024, 4, 1))
        # Sent anyway (bypassing the SDK's check), the server answers 400 naming ``end``.
        too_long = HoroscopeRangeQuery.model_construct(
            sign="aries", start=start, end=dt.date(2024, 4, 1)
        )
        with pytest.raises(astro_sdk.BadRequestError) as server_refused:
            await client.request(RANGE, query=too_long)
        ophiuchus: Any = "ophiuchus"  # not a sign; the SDK would refuse it before sending
        unknown_sign = HoroscopeRangeQuery.model_construct(sign=ophiuchus, start=start, end=start)
        with pytest.raises(astro_sdk.BadRequestError) as bad_sign:
            await client.request(RANGE, query=unknown_sign)
        after = await client.horoscopes.range(sign="aries", start=start, end=start)
    assert (month.sign, month.language) == ("aries", "en")
    assert [h.date for h in month.horoscopes] == [start + dt.timedelta(days=i) for i in range(31)]
    assert all(h.sign == "aries" for h in month.horoscopes)
    for horoscope in month.horoscopes:
        assert horoscope.moon_sign == _moon_sign_at_noon(horoscope.date)
    # The range serves the same published content as the daily route.
    assert month.horoscopes[16].model_dump() == single.model_dump()
    assert after.horoscopes[0].model_dump() == month.horoscopes[0].model_dump()
    assert month.api_response.credits_charged == 2
    assert [d["field"] for d in refused.value.details] == ["end"]
    assert "31 days" in refused.value.details[0]["message"]
    assert server_refused.value.status_code == 400
    assert [d["field"] for d in server_refused.value.details] == ["end"]
    assert "31 days" in server_refused.value.details[0]["message"]
    assert [d["field"] for d in bad_sign.value.details] == ["sign"]
    # Refused requests are not charged: two ranges (2 each) and one daily (1).
    assert after.api_response.credits_remaining == 10 - 5


def test_times_in_the_readers_zone_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    """Issue 35: ``timezone`` sets the zone of the times the texts print. The Full Moon of
    2024-03-25 (07:00 UTC, USNO) is stated at 14:00 in Bangkok (UTC+7, no DST), with no "(UTC)"
    in the Thai text; an unknown zone is a 400 naming ``timezone`` and is not charged."""
    account = create_account(shared_stack, tier="free", credits=10, name="horoscopes")
    day = dt.date(2024, 3, 25)
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        utc = client.horoscopes.daily(sign="leo", date=day, language="th")
        thai = client.horoscopes.daily(sign="leo", date=day, language="th", timezone="Asia/Bangkok")
        ranged = client.horoscopes.range(
            sign="leo", start=day, end=day, language="th", timezone="Asia/Bangkok"
        )
        with pytest.raises(astro_sdk.BadRequestError) as refused:
            client.horoscopes.daily(sign="leo", date=day, timezone="Mars/Olympus_Mons")
        after = client.horoscopes.daily(sign="leo", date=day, timezone="America/New_York")
    lunation = next(f for f in thai.facts if f.kind == "lunation")
    local = lunation.at.astimezone(ZoneInfo("Asia/Bangkok"))
    bangkok_full_moon = dt.datetime(2024, 3, 25, 14, 0, tzinfo=ZoneInfo("Asia/Bangkok"))
    assert abs((local - bangkok_full_moon).total_seconds()) <= 120
    assert thai.timezone == "Asia/Bangkok"
    assert f"{local:%H.%M} น." in thai.overall.text  # the Royal Institute's dot
    for section in (thai.overall, thai.love, thai.career, thai.money, thai.health):
        assert "UTC" not in section.text  # neither "(UTC)" nor "UTC"
    assert f"{lunation.at:%H.%M} น. ตามเวลาสากล" in utc.overall.text
    assert thai.facts == utc.facts  # the facts keep their UTC instants
    assert ranged.timezone == "Asia/Bangkok"
    assert ranged.horoscopes[0].overall.text == thai.overall.text
    assert [d["field"] for d in refused.value.details] == ["timezone"]
    # About 03:00 in New York (EDT, UTC-4) on the same date, with no zone label.
    new_york = lunation.at.astimezone(ZoneInfo("America/New_York"))
    assert f"{new_york:%H:%M}" in after.overall.text
    assert "UTC" not in after.overall.text
    # The refused call was not charged.
    assert after.api_response.credits_remaining == (
        ranged.api_response.credits_remaining - after.api_response.credits_charged
    )
