"""The Vedic endpoints end to end: the SDK (sync and async) against the live stack (hypercorn API,
a taskiq worker, PostgreSQL and Redis), read through the SDK's typed response models. Only the
SDK talks to the server.

References (each assertion names its convention):
* The March equinox of 2024 was at 03:06 UTC on 20 March (USNO, "Earth's Seasons"): the Sun's
  tropical longitude is 0 deg, so its sidereal longitude is 360 deg minus the ayanamsa (the Sun
  moves 0.04 deg an hour; tolerance 0.01 deg). Lahiri (Chitrapaksha) ayanamsa in 2024: 24 deg 11'
  (Indian Astronomical Ephemeris; tolerance 0.05 deg). 333 deg 20' to 346 deg 40' is the 26th
  nakshatra, Uttara Bhadrapada (13 deg 20' each, from 0 deg Aries).
* Ashtakoota (BPHS; the North Indian tables): two identical Moons score every koota in full but
  Nadi (same nadi: 0 of 8), 28 of 36, with Nadi dosha.
* Vimshottari (BPHS): the Moon's nakshatra lord opens the sequence Ketu, Venus, Sun, Moon, Mars,
  Rahu, Jupiter, Saturn, Mercury (7, 20, 6, 10, 7, 18, 16, 19, 17 years; 120 in all) and the
  balance at birth is the untraversed part of the nakshatra times the lord's years.
* The full moon of 23 April 2024 at 23:49 UTC (USNO): Purnima (tithi 15, shukla) ends there
  (tolerance 2 minutes). 23 April 2024 was a Tuesday (Mangalavara).
* Saturn was in sidereal Aquarius from 17 January 2023 to 29 March 2025 (the published Kumbha
  transit): a Moon in Aquarius is then in Sade Sati; in June 2016 (Saturn in Scorpio) it is not.
  Jupiter was in sidereal Capricorn, its sign of debilitation, in January 1985.
"""

from __future__ import annotations

import datetime as dt

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.models import ResponseModel
from astro_sdk.models.vedic import KundliBatchResult, VedicKundliMatch
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

LATITUDE, LONGITUDE = 28.6139, 77.209  # New Delhi
DELHI = {"latitude": LATITUDE, "longitude": LONGITUDE}
EQUINOX_2024 = {"date": "2024-03-20", "time": "03:06", **DELHI, "timezoneOffsetMinutes": 0}
BOY = {"date": "1990-05-14", "time": "06:30", **DELHI, "timezoneOffsetMinutes": 330}
GIRL = {"date": "1992-11-02", "time": "21:15", "latitude": 19.07, "longitude": 72.88}
MOON_IN_AQUARIUS = {"date": "1985-01-23", "time": "12:00", **DELHI, "timezoneOffsetMinutes": 330}
# 02:30 on 2021-03-14 does not exist in New York (clocks jumped from 02:00 to 03:00).
DST_GAP = {
    "date": "2021-03-14",
    "time": "02:30",
    "latitude": 40.7,
    "longitude": -74.0,
    "timezone": "America/New_York",
}
VIMSHOTTARI = [
    ("ketu", 7), ("venus", 20), ("sun", 6), ("moon", 10), ("mars", 7), ("rahu", 18),
    ("jupiter", 16), ("saturn", 19), ("mercury", 17),
]  # fmt: skip
KOOTAS = ["varna", "vashya", "tara", "yoni", "graha_maitri", "gana", "bhakoot", "nadi"]
KOOTA_MAX = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
REMEDY_REASONS = {
    "weak_planet", "afflicted_planet", "manglik", "kaal_sarp", "sade_sati", "dasha_lord",
}  # fmt: skip
UTC = dt.UTC


def assert_every_field_is_declared(model: ResponseModel) -> None:
    """Every field the server sent is a declared, typed field of the SDK model."""
    assert model.model_extra == {}


def test_sidereal_chart_at_the_2024_equinox(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="vedic-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        chart = client.vedic.chart(subject=EQUINOX_2024, divisional_charts=["D1", "D9"])
    assert chart.api_response.credits_charged == 1
    assert_every_field_is_declared(chart)
    # The instant goes through a Julian day: equal to well under a millisecond.
    assert abs(chart.utc - dt.datetime(2024, 3, 20, 3, 6, tzinfo=UTC)) < dt.timedelta(
        milliseconds=1
    )
    assert (chart.ayanamsa, chart.node, chart.house_system) == ("lahiri", "mean", "whole_sign")
    assert chart.ayanamsa_deg == pytest.approx(24 + 11 / 60, abs=0.05)
    sun = next(g for g in chart.grahas if g.name == "sun")
    tropical = (sun.longitude_deg + chart.ayanamsa_deg + 180) % 360 - 180  # in [-180, 180)
    assert tropical == pytest.approx(0.0, abs=0.01)
    assert (sun.sign, sun.sign_number) == ("pisces", 12)
    assert (sun.nakshatra, sun.nakshatra_name) == (26, "Uttara Bhadrapada")
    assert sorted(g.name for g in chart.grahas) == sorted(
        ["sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu"]
    )
    rahu = next(g for g in chart.grahas if g.name == "rahu")
    ketu = next(g for g in chart.grahas if g.name == "ketu")
    assert (rahu.longitude_deg - ketu.longitude_deg) % 360 == pytest.approx(180.0, abs=1e-6)
    assert rahu.retrograde  # the mean node always moves backwards
    assert set(chart.divisional_charts) == {"D1", "D9"}
    assert chart.divisional_charts["D1"]["sun"] == "pisces"
    assert len(chart.house_cusps_deg) == 12


def test_a_single_kundli_match_has_typed_points(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="vedic-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        match = client.vedic.kundli_matching(boy=BOY, girl=GIRL)
        same = client.vedic.kundli_matching(boy=BOY, girl=BOY)
    assert isinstance(match, VedicKundliMatch)
    assert_every_field_is_declared(match)
    assert match.school == "north"
    assert match.max == 36.0
    assert [k.name for k in match.kootas] == KOOTAS
    assert [k.max for k in match.kootas] == KOOTA_MAX
    assert match.total == pytest.approx(sum(k.score for k in match.kootas))
    assert 0 <= match.total <= match.max
    assert match.verdict.band in {"excellent", "good", "average", "not_recommended"}
    # Identical Moons: full points in every koota but Nadi; 28 of 36 with Nadi dosha.
    assert [k.score for k in same.kootas] == [*KOOTA_MAX[:7], 0.0]
    assert same.total == 28.0
    assert same.boy == same.girl
    nadi = next(d for d in same.doshas if d.name == "nadi")
    assert (nadi.person, nadi.present) == ("both", True)


def test_vimshottari_dasha_from_the_moons_nakshatra(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="vedic-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        dasha = client.vedic.dasha(subject=BOY, depth=2, at=dt.datetime(2024, 1, 1, tzinfo=UTC))
    assert_every_field_is_declared(dasha)
    lords = [lord for lord, _years in VIMSHOTTARI]
    years = dict(VIMSHOTTARI)
    first = lords[(dasha.nakshatra - 1) % 9]
    assert [p.lord for p in dasha.mahadashas] == [lords[(lords.index(first) + k) % 9]
                                                  for k in range(9)]  # fmt: skip
    # The balance at birth is the untraversed part of the Moon's nakshatra.
    span = 360 / 27
    untraversed = 1 - (dasha.moon_longitude_deg % span) / span
    assert dasha.balance_years == pytest.approx(untraversed * years[first], abs=1e-6)
    birth = dt.datetime(1990, 5, 14, 1, 0, tzinfo=UTC)  # 06:30 at +05:30
    to_first_end = dasha.mahadashas[0].end - birth
    assert to_first_end.total_seconds() / 86400 == pytest.approx(
        dasha.balance_years * 365.25, abs=1e-3
    )
    for period in dasha.mahadashas:
        length_years = (period.end - period.start).total_seconds() / 86400 / 365.25
        assert length_years == pytest.approx(years[period.lord], abs=1e-6)
        assert period.level == 1
        assert period.sub_periods[0].lord == period.lord
        assert abs(period.sub_periods[-1].end - period.end) < dt.timedelta(milliseconds=1)
        assert all(s.sub_periods == [] for s in period.sub_periods)  # depth 2
    assert dasha.current is not None
    running = next(p for p in dasha.mahadashas if p.start <= dasha.current.at < p.end)
    assert (dasha.current.mahadasha, dasha.current.mahadasha_end) == (running.lord, running.end)


def test_panchanga_on_the_full_moon_of_april_2024(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="vedic-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        day, hindu = (
            client.vedic.panchanga(
                date="2024-04-23",
                time="17:30",
                latitude=LATITUDE,
                longitude=LONGITUDE,
                timezone_offset_minutes=330,
                sunrise=sunrise,
            )
            for sunrise in (None, "hindu")
        )
    # The classical Hindu sunrise (disc centre, no refraction) comes minutes after the almanac's.
    assert hindu.sunrise_convention == "hindu"
    assert dt.timedelta(minutes=2) < hindu.sunrise - day.sunrise < dt.timedelta(minutes=8)
    assert_every_field_is_declared(day)
    assert (day.tithi.number, day.tithi.name, day.tithi.paksha) == (15, "Purnima", "shukla")
    full_moon = dt.datetime(2024, 4, 23, 23, 49, tzinfo=UTC)
    assert abs((day.tithi.end - full_moon).total_seconds()) < 120
    assert (day.vara.weekday, day.vara.name, day.vara.number) == ("Tuesday", "Mangalavara", 3)
    assert day.sunrise == day.vara.start
    assert day.next_sunrise == day.vara.end
    assert day.sunrise < day.sunset < day.next_sunrise
    for element in (day.tithi, day.nakshatra, day.yoga, day.karana):
        assert element.start <= day.moment < element.end
    assert 1 <= day.nakshatra.number <= 27
    assert 1 <= day.yoga.number <= 27
    assert day.sunrise_convention == "upper_limb"


def test_remedies_follow_saturns_transit_and_speak_thai(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="vedic-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        during = client.vedic.remedies(
            subject=MOON_IN_AQUARIUS, at=dt.datetime(2024, 6, 1, tzinfo=UTC)
        )
        before = client.vedic.remedies(
            subject=MOON_IN_AQUARIUS, at=dt.datetime(2016, 6, 1, tzinfo=UTC)
        )
        thai = client.vedic.remedies(
            subject=MOON_IN_AQUARIUS, at=dt.datetime(2024, 6, 1, tzinfo=UTC), language="th"
        )
    assert_every_field_is_declared(during)
    assert during.language == "en"
    assert {r.reason for r in during.remedies} <= REMEDY_REASONS
    assert ("sade_sati", "saturn") in {(r.reason, r.planet) for r in during.remedies}
    assert "sade_sati" not in {r.reason for r in before.remedies}
    jupiter = next(r for r in during.remedies if r.planet == "jupiter")
    assert (jupiter.reason, jupiter.detail) == ("weak_planet", "debilitated")
    assert all(r.gemstone and r.mantra and r.explanation for r in during.remedies)
    assert thai.language == "th"
    assert [(r.reason, r.planet) for r in thai.remedies] == [
        (r.reason, r.planet) for r in during.remedies
    ]
    assert all(any("\u0e00" <= ch <= "\u0e7f" for ch in r.explanation) for r in thai.remedies)


def test_batch_job_gives_a_bad_record_its_own_error(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="starter", credits=10, name="vedic-e2e")
    records = [
        {"id": "pair-a", "boy": BOY, "girl": GIRL},
        {"id": "gap", "boy": BOY, "girl": DST_GAP},
        {"id": "pair-b", "boy": GIRL, "girl": BOY, "school": "ignored"},
    ]
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        with pytest.raises(astro_sdk.RequestValidationError) as caught:
            client.vedic.kundli_matching_batch(records=records)
        assert [d["field"] for d in caught.value.details] == ["records[2].school"]
        del records[2]["school"]
        handle = client.vedic.kundli_matching_batch(records=records)
        assert handle.api_response.status_code == 202
        assert handle.api_response.credits_charged == 6  # 2 credits per record
        job = handle.wait(timeout_s=60, poll_interval_s=0.2)
        single = client.vedic.kundli_matching(boy=BOY, girl=GIRL)
    assert job.status == "succeeded"  # one bad record never fails the job
    assert job.credits_refunded == 0
    batch = job.result  # typed by the handle: a KundliBatchResult, not a dict
    assert isinstance(batch, KundliBatchResult)
    assert (batch.school, batch.succeeded, batch.failed) == ("north", 2, 1)
    assert [item.id for item in batch.results] == ["pair-a", "gap", "pair-b"]
    ok_a, gap, ok_b = batch.results
    assert ok_a.status == ok_b.status == "succeeded"
    assert ok_a.result is not None
    assert ok_b.result is not None
    assert ok_a.result.max == 36.0
    # the same match as the single route (which alone can carry interpretations)
    assert ok_a.result.model_dump() == single.model_dump(exclude={"interpretations", "sensitivity"})
    assert [k.name for k in ok_b.result.kootas] == KOOTAS
    assert gap.status == "failed"
    assert gap.result is None
    assert gap.error is not None
    assert (gap.error.error, gap.error.field) == ("validation_error", "records[1].girl.time")


async def test_async_client_and_missing_credentials(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=1, name="vedic-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        match = await aio.vedic.kundli_matching(boy=BOY, girl=BOY, school="south")
        with pytest.raises(astro_sdk.InsufficientCreditsError) as poor:
            await aio.vedic.panchanga(
                date="2024-04-23", time="17:30", latitude=LATITUDE, longitude=LONGITUDE
            )
    assert match.school == "south"
    assert match.max == 36.0
    assert poor.value.status_code == 402
    with (
        AstroClient(api_key="ak_test_" + "0" * 32, base_url=shared_server.base_url) as stranger,
        pytest.raises(astro_sdk.AuthenticationError) as caught,
    ):
        stranger.vedic.chart(subject=BOY)
    assert caught.value.status_code == 401
