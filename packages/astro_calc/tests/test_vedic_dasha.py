"""Vimshottari dasha against PyJHora; Sade Sati against published Saturn ingress dates.

Oracle 1: PyJHora 4.8 ``vimsottari`` (Lahiri, Moon's nakshatra), with its dasha year set to our
365.25 days (PyJHora defaults to the 365.256364-day sidereal year). Mahadasha and antardasha
start dates agree to one day.

Oracle 2: the sidereal (Lahiri) Saturn sign ingresses of 2017-2025 as published by Indian
almanacs (Drik Panchang "Shani Gochar" pages; Indian Standard Time dates): Sagittarius
2017-01-26, back to Scorpio 2017-06-21, Sagittarius again 2017-10-26, Capricorn 2020-01-24,
Aquarius 2022-04-29, back to Capricorn 2022-07-12, Aquarius again 2023-01-17, Pisces
2025-03-29. Tolerance: one day.
"""

from __future__ import annotations

import sys
import types
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from astro_calc import CalcInputError, ephemeris
from astro_calc.vedic import sade_sati, vimshottari_dasha, vimshottari_from_moon
from astro_calc.vedic.sade_sati import saturn_sign_ingresses
from astro_calc.vedic.zodiac import VIMSHOTTARI_YEARS

_SWE_FLG_TRUEPOS = 16
# PyJHora planet ids 0..8 -> our names.
_JH_LORDS = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu")


def _jhora() -> Any:
    # PyJHora imports geocoding packages it does not use here; empty stand-ins suffice.
    sys.modules.setdefault("geocoder", types.ModuleType("geocoder"))
    if "geopy" not in sys.modules:
        geopy = types.ModuleType("geopy")
        geocoders = types.ModuleType("geopy.geocoders")
        geocoders.Nominatim = object  # type: ignore[attr-defined]
        geopy.geocoders = geocoders  # type: ignore[attr-defined]
        sys.modules["geopy"] = geopy
        sys.modules["geopy.geocoders"] = geocoders
    from jhora import utils
    from jhora.horoscope.dhasa.graha import vimsottari
    from jhora.panchanga import drik

    drik.set_ayanamsa_mode("LAHIRI")
    drik.PLANET_FLAGS &= ~_SWE_FLG_TRUEPOS
    return types.SimpleNamespace(utils=utils, vimsottari=vimsottari, drik=drik)


BIRTHS = [
    ((1985, 7, 21), (14, 35, 0), 13.0827, 80.2707, 5.5),
    ((1962, 1, 3), (5, 10, 0), 28.6139, 77.2090, 5.5),
    ((2003, 11, 29), (22, 47, 30), 51.5072, -0.1276, 0.0),
]


@pytest.mark.parametrize("birth", BIRTHS)
def test_mahadasha_and_antardasha_dates_match_pyjhora(
    birth: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    jh = _jhora()
    monkeypatch.setattr(jh.vimsottari, "year_duration", 365.25)
    d, t, lat, lon, tz = birth
    place = jh.drik.Place("p", lat, lon, tz)
    jd_local = jh.utils.julian_day_number(jh.drik.Date(*d), t)
    theirs = jh.vimsottari.vimsottari_mahadasa(jd_local, place)
    ours = vimshottari_dasha(jd_local - tz / 24.0, depth=2)
    assert [_JH_LORDS[k] for k in theirs] == [p.lord for p in ours.mahadashas]
    for (lord, start_local), md in zip(theirs.items(), ours.mahadashas, strict=True):
        start = ephemeris.datetime_from_jd(start_local - tz / 24.0)
        assert abs(md.start - start) < timedelta(days=1)
        bhuktis = jh.vimsottari._vimsottari_bhukti(lord, start_local)
        assert [_JH_LORDS[k] for k in bhuktis] == [a.lord for a in md.sub_periods]
        for b_start_local, ad in zip(bhuktis.values(), md.sub_periods, strict=True):
            b_start = ephemeris.datetime_from_jd(b_start_local - tz / 24.0)
            assert abs(ad.start - b_start) < timedelta(days=1)


def test_balance_at_the_start_of_ashwini_is_the_whole_ketu_period() -> None:
    d = vimshottari_from_moon(2451545.0, 0.0)
    assert d.mahadashas[0].lord == "ketu"
    assert d.balance_years == 7.0
    assert d.mahadashas[0].start == ephemeris.datetime_from_jd(2451545.0)
    # The whole cycle is 120 years of 365.25 days.
    span = d.mahadashas[-1].end - d.mahadashas[0].start
    assert span == pytest.approx(timedelta(days=120 * 365.25), abs=timedelta(seconds=1))


def test_halfway_through_bharani_leaves_ten_years_of_venus() -> None:
    d = vimshottari_from_moon(2451545.0, 13.3333333333 + 6.6666666667, year_days=360.0)
    assert d.mahadashas[0].lord == "venus"
    assert d.balance_years == pytest.approx(10.0)


def test_pratyantardashas_nest_exactly() -> None:
    d = vimshottari_from_moon(2451545.0, 100.0)
    md = d.mahadashas[1]
    ad = md.sub_periods[3]
    assert ad.sub_periods[0].lord == ad.lord
    assert ad.sub_periods[0].start == ad.start
    assert abs(ad.sub_periods[-1].end - ad.end) < timedelta(seconds=1)
    share = VIMSHOTTARI_YEARS[ad.lord] / 120.0  # type: ignore[index]
    assert (ad.sub_periods[0].end - ad.start) / (ad.end - ad.start) == pytest.approx(share)


def test_current_periods_at_a_date() -> None:
    birth = 2451545.0
    d = vimshottari_from_moon(birth, 0.0, at_jd_ut=birth + 8.5 * 365.25)
    assert d.current is not None
    # Ketu (7 y) is over: 1.5 y into Venus mahadasha, inside its Venus antardasha (3.33 y).
    assert (d.current.mahadasha, d.current.antardasha) == ("venus", "venus")
    # Venus/Venus pratyantardashas (y): Venus 0.556, Sun 0.167, Moon 0.278, Mars 0.194,
    # Rahu 0.5 -> Rahu runs from 1.194 to 1.694 y.
    assert d.current.pratyantardasha == "rahu"


def test_no_periods_run_before_birth_or_after_the_cycle() -> None:
    birth = 2451545.0
    # Moon at 5 degrees: 3/8 of Ketu's 7 years had passed before birth, yet nothing ran then.
    assert vimshottari_from_moon(birth, 5.0, at_jd_ut=birth - 1).current is None
    assert vimshottari_from_moon(birth, 5.0, at_jd_ut=birth).current is not None
    assert vimshottari_from_moon(birth, 0.0, at_jd_ut=birth + 121 * 365.25).current is None


@pytest.mark.parametrize("bad", [365.0, 0.0])
def test_year_length_is_one_of_the_offered_values(bad: float) -> None:
    with pytest.raises(CalcInputError) as err:
        vimshottari_from_moon(2451545.0, 0.0, year_days=bad)
    assert err.value.field == "year_days"


def _ist_date(jd: float) -> str:
    return (ephemeris.datetime_from_jd(jd) + timedelta(hours=5, minutes=30)).date().isoformat()


def test_saturn_ingresses_2017_to_2025_match_published_dates() -> None:
    start = ephemeris.julian_day(datetime(2016, 6, 1, tzinfo=UTC))
    end = ephemeris.julian_day(datetime(2025, 12, 31, tzinfo=UTC))
    got = [(_ist_date(jd), a, b) for jd, a, b in saturn_sign_ingresses(start, end)]
    published = [
        ("2017-01-26", 7, 8),
        ("2017-06-21", 8, 7),
        ("2017-10-26", 7, 8),
        ("2020-01-24", 8, 9),
        ("2022-04-29", 9, 10),
        ("2022-07-12", 10, 9),
        ("2023-01-17", 9, 10),
        ("2025-03-29", 10, 11),
    ]
    assert len(got) == len(published)
    for (g_date, ga, gb), (p_date, pa, pb) in zip(got, published, strict=True):
        assert (ga, gb) == (pa, pb)
        gap = datetime.fromisoformat(g_date) - datetime.fromisoformat(p_date)
        assert abs(gap) <= timedelta(days=1)


def test_sade_sati_of_a_capricorn_moon_runs_2017_to_2025() -> None:
    start = ephemeris.julian_day(datetime(2010, 1, 1, tzinfo=UTC))
    ss = sade_sati(285.0, start, years=20)
    assert ss.moon_sign == "capricorn"
    [period] = ss.periods
    assert _ist_date(ephemeris.julian_day(period.start)) == "2017-01-26"
    assert _ist_date(ephemeris.julian_day(period.end)) == "2025-03-29"
    phases = {p.phase: p for p in period.phases}
    assert (phases["rising"].sign, phases["peak"].sign, phases["setting"].sign) == (
        "sagittarius",
        "capricorn",
        "aquarius",
    )
    # The 2022 retrograde return into Capricorn stays inside the setting phase span.
    assert _ist_date(ephemeris.julian_day(phases["setting"].start)) == "2022-04-29"
    assert ss.active_at(datetime(2021, 1, 1, tzinfo=UTC)) is period
    assert ss.active_at(datetime(2026, 1, 1, tzinfo=UTC)) is None
