"""Natal charts against independent references.

* Direct pyswisseph calls made here (not through astro_calc.ephemeris): 400 random charts,
  1700-2150, latitudes -89.9..89.9 (polar included), every house system P K W E O R C B A;
  body longitude, latitude and speed and every cusp to 0.01 degree. Where Placidus or Koch are
  undefined (pyswisseph refuses them) the chart must say it used Porphyry and match Porphyry.
* kerykeion (its own Swiss Ephemeris calls): 150 random charts between 66S and 66N, bodies,
  cusps and the house of each body, to 0.01 degree.
* Published charts, positions as printed to the arcminute (tolerance 1 arcminute plus rounding).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import msgspec
import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.subject import SIGNS

TOL_DEG = 0.01
SWE_IDS = {
    "sun": 0,
    "moon": 1,
    "mercury": 2,
    "venus": 3,
    "mars": 4,
    "jupiter": 5,
    "saturn": 6,
    "uranus": 7,
    "neptune": 8,
    "pluto": 9,
    "mean_node": 10,
    "true_node": 11,
    "mean_lilith": 12,
}
ARCMIN = 1.0 / 60.0


def _close(a: float, b: float, tol: float = TOL_DEG) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= tol


def _random_moment(rng: random.Random) -> datetime:
    start = datetime(1700, 1, 1, tzinfo=UTC)
    return start + timedelta(seconds=rng.randrange(0, 450 * 365 * 86400))


def _utc_subject(moment: datetime, lat: float, lon: float) -> BirthSubject:
    return BirthSubject(
        date=moment.date(),
        time=moment.strftime("%H:%M:%S"),
        latitude=lat,
        longitude=lon,
        timezone_offset_minutes=0,
    )


@pytest.fixture
def restore_swisseph() -> Iterator[None]:
    """kerykeion points pyswisseph at its own files; put the default path back afterwards."""
    yield
    swe.set_ephe_path(None)


def _chart_cases(n: int, seed: int, max_lat: float) -> list[tuple[datetime, float, float, str]]:
    rng = random.Random(seed)
    systems = "PKWEORCBA"
    return [
        (
            _random_moment(rng),
            rng.uniform(-max_lat, max_lat),
            rng.uniform(-180.0, 180.0),
            systems[i % len(systems)],
        )
        for i in range(n)
    ]


def test_positions_and_cusps_match_direct_swisseph_over_random_charts() -> None:
    polar_fallbacks = 0
    for moment, lat, lon, system in _chart_cases(400, 20240501, 89.9):
        chart = natal_chart(_utc_subject(moment, lat, lon), house_system=system)
        jd = swe.julday(
            moment.year,
            moment.month,
            moment.day,
            moment.hour + moment.minute / 60 + moment.second / 3600,
        )
        assert chart.meta.julian_day == pytest.approx(jd, abs=1e-9)
        for p in chart.planets:
            ref, _flags = swe.calc_ut(jd, SWE_IDS[p.name], swe.FLG_MOSEPH | swe.FLG_SPEED)
            assert _close(p.longitude, ref[0]), (p.name, moment, p.longitude, ref[0])
            assert p.latitude == pytest.approx(ref[1], abs=TOL_DEG)
            assert p.speed == pytest.approx(ref[3], abs=TOL_DEG)
            assert p.retrograde == (ref[3] < 0)
            assert p.sign == SIGNS[int(ref[0] // 30)]
        try:
            cusps, ascmc = swe.houses_ex(jd, lat, lon, system.encode(), swe.FLG_MOSEPH)
            assert chart.meta.house_system == system
        except swe.Error:
            assert system in "PK"
            assert chart.meta.house_system == "O"
            assert any("Porphyry" in w for w in chart.meta.warnings)
            cusps, ascmc = swe.houses_ex(jd, lat, lon, b"O", swe.FLG_MOSEPH)
            polar_fallbacks += 1
        for house, ref_cusp in zip(chart.houses, cusps[:12], strict=True):
            assert _close(house.cusp, ref_cusp), (system, lat, house.number)
        assert _close(chart.angles.ascendant.longitude, ascmc[0])
        assert _close(chart.angles.midheaven.longitude, ascmc[1])
        assert _close(chart.angles.descendant.longitude, ascmc[0] + 180.0)
        assert _close(chart.angles.imum_coeli.longitude, ascmc[1] + 180.0)
        assert _close(chart.angles.vertex.longitude, ascmc[3])
    assert polar_fallbacks > 5  # the sample really crossed the polar circles


def _house_pos_reference(jd: float, lat: float, lon: float, system: str, body_lon: float) -> float:
    """Swiss Ephemeris's own house position of an ecliptic point (latitude 0)."""
    try:
        _cusps, ascmc = swe.houses_ex(jd, lat, lon, system.encode(), swe.FLG_MOSEPH)
    except swe.Error:
        system = "O"
        _cusps, ascmc = swe.houses_ex(jd, lat, lon, b"O", swe.FLG_MOSEPH)
    eps = swe.calc_ut(jd, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    return float(swe.house_pos(ascmc[2], lat, eps, (body_lon, 0.0), system.encode()))


def test_planet_houses_match_swisseph_house_pos_also_where_cusps_run_out_of_order() -> None:
    """Near and inside the polar circles Regiomontanus, Campanus and Topocentric (from about 65
    degrees) return cusps out of zodiac order; the house of a body is then Swiss Ephemeris's
    ``house_pos`` (the house circles), not the first cusp span that contains it."""
    rng = random.Random(20261122)
    out_of_order = 0
    for i in range(360):
        moment = _random_moment(rng)
        lat = rng.choice((1.0, -1.0)) * rng.uniform(60.0, 89.9)
        lon = rng.uniform(-180.0, 180.0)
        system = "TRCPKWEOBAMX"[i % 12]
        chart = natal_chart(_utc_subject(moment, lat, lon), house_system=system)
        offsets = [(h.cusp - chart.houses[0].cusp) % 360.0 for h in chart.houses]
        out_of_order += any(b <= a for a, b in itertools.pairwise(offsets))
        jd = chart.meta.julian_day
        for p in chart.planets:
            ref = _house_pos_reference(jd, lat, lon, system, p.longitude)
            if abs(ref - round(ref)) < 1e-7:
                continue  # on a cusp to rounding: either side is right
            assert p.house == int(ref), (system, moment, lat, p.name, p.house, ref)
    assert out_of_order > 20  # the sample really met cusps out of order


def test_topocentric_in_oulu_puts_the_sun_past_the_midheaven_in_house_10() -> None:
    # Oulu 65.0121 N: Topocentric cusps 1 and 2 are 88.77 and 88.68 (out of order); the Sun at
    # 296.2 lies between cusp 10 (288.7) and cusp 11 (303.4). The first-span rule put every body
    # in house 1.
    subject = BirthSubject(date(2018, 1, 16), "09:56", 65.0121, 25.4651, timezone_offset_minutes=0)
    chart = natal_chart(subject, house_system="T")
    sun = next(p for p in chart.planets if p.name == "sun")
    assert chart.houses[9].cusp < sun.longitude < chart.houses[10].cusp
    assert sun.house == 10
    assert len({p.house for p in chart.planets}) > 3


_KERYKEION_HOUSES = {
    "First_House": 1, "Second_House": 2, "Third_House": 3, "Fourth_House": 4,
    "Fifth_House": 5, "Sixth_House": 6, "Seventh_House": 7, "Eighth_House": 8,
    "Ninth_House": 9, "Tenth_House": 10, "Eleventh_House": 11, "Twelfth_House": 12,
}  # fmt: skip
_KERYKEION_CUSPS = (
    "first_house", "second_house", "third_house", "fourth_house", "fifth_house", "sixth_house",
    "seventh_house", "eighth_house", "ninth_house", "tenth_house", "eleventh_house",
    "twelfth_house",
)  # fmt: skip


@pytest.mark.usefixtures("restore_swisseph")
def test_positions_cusps_and_houses_match_kerykeion() -> None:
    from kerykeion import AstrologicalSubjectFactory

    kerykeion_bodies = {
        "sun": "sun", "moon": "moon", "mercury": "mercury", "venus": "venus", "mars": "mars",
        "jupiter": "jupiter", "saturn": "saturn", "uranus": "uranus", "neptune": "neptune",
        "pluto": "pluto", "true_node": "true_north_lunar_node", "mean_lilith": "mean_lilith",
    }  # fmt: skip
    compared_houses = 0
    for moment, lat, lon, system in _chart_cases(150, 77, 66.0):
        ky_system = "A" if system == "E" else system
        ky = AstrologicalSubjectFactory.from_birth_data(
            "x", moment.year, moment.month, moment.day, moment.hour, moment.minute,
            seconds=moment.second, lng=lon, lat=lat, tz_str="UTC", online=False,
            houses_system_identifier=ky_system,  # type: ignore[arg-type]
            suppress_geonames_warning=True,
        )  # fmt: skip
        chart = natal_chart(_utc_subject(moment, lat, lon), house_system=system)
        if chart.meta.house_system != system:
            continue  # polar fallback: kerykeion defines no such chart
        for name, attr in kerykeion_bodies.items():
            ours = chart.planet(name)
            theirs = getattr(ky, attr)
            assert _close(ours.longitude, theirs.abs_pos), (name, moment)
            if ours.sign_degree % 30 > 0.02 and ours.sign_degree < 29.98:
                assert ours.sign == SIGNS[int(theirs.abs_pos // 30)]
            # kerykeion reads houses from the same cusps; skip bodies within 0.01 of a cusp.
            if all(not _close(ours.longitude, h.cusp, 0.01) for h in chart.houses):
                assert ours.house == _KERYKEION_HOUSES[theirs.house], (name, system, moment)
                compared_houses += 1
        for house, attr in zip(chart.houses, _KERYKEION_CUSPS, strict=True):
            assert _close(house.cusp, getattr(ky, attr).abs_pos), (system, house.number)
    assert compared_houses > 1000


# --- published charts -----------------------------------------------------------------------
# Birth data and positions are Astrodatabank (astro.com) data, rated AA, as printed in published
# charts: positions to the arcminute.


def _arcmin_close(longitude: float, sign: str, degree: int, minute: int) -> bool:
    published = SIGNS.index(sign) * 30 + degree + minute / 60
    # Published figures are rounded or truncated to the minute: allow one minute plus rounding.
    return _close(longitude, published, ARCMIN + 0.001)


def test_einstein_astrodatabank() -> None:
    # Albert Einstein, 1879-03-14 11:30 local mean time (-0:40 -> UTC 10:50), Ulm 48N24 10E00.
    # Astrodatabank via starsoverwashington.com (2018): Sun 23Pis30, Moon 14Sag31, Asc 11Can38.
    c = natal_chart(
        BirthSubject(date(1879, 3, 14), "11:30", 48.4, 10.0, timezone_offset_minutes=40)
    )
    assert c.meta.utc == datetime(1879, 3, 14, 10, 50, tzinfo=UTC)
    assert _arcmin_close(c.planet("sun").longitude, "pisces", 23, 30)
    assert _arcmin_close(c.planet("moon").longitude, "sagittarius", 14, 31)
    assert _arcmin_close(c.angles.ascendant.longitude, "cancer", 11, 38)


def test_diana_astrodatabank() -> None:
    # Diana, Princess of Wales, 1961-07-01 19:45 BST, Sandringham 52N50 0E30 (Astrodatabank).
    # Positions as printed in the mojan.com natal report: Sun 9Can40, Moon 25Aqu02, Venus 24Tau24,
    # Mars 1Vir39, Saturn 27Cap49, Asc 18Sag25, MC 23Lib03.
    c = natal_chart(
        BirthSubject(date(1961, 7, 1), "19:45", 52 + 50 / 60, 0.5, timezone="Europe/London")
    )
    assert c.meta.offset_minutes == 60
    assert _arcmin_close(c.planet("sun").longitude, "cancer", 9, 40)
    assert _arcmin_close(c.planet("moon").longitude, "aquarius", 25, 2)
    assert _arcmin_close(c.planet("venus").longitude, "taurus", 24, 24)
    assert _arcmin_close(c.planet("mars").longitude, "virgo", 1, 39)
    assert _arcmin_close(c.planet("saturn").longitude, "capricorn", 27, 49)
    assert _arcmin_close(c.angles.ascendant.longitude, "sagittarius", 18, 25)
    assert _arcmin_close(c.angles.midheaven.longitude, "libra", 23, 3)


# Monroe, Obama and Jobs: the birth data (Astrodatabank AA, birth certificates) and the signs and
# houses below are confirmed on the stored pages cited; no page found gives their positions to the
# arcminute, so (unlike Einstein and Diana above) these charts are checked to the sign (Obama's
# Ascendant, Sun and Moon to the whole degree) only.


def _signs(c: object, names: str) -> list[str]:
    return [c.planet(n).sign for n in names.split()]  # type: ignore[attr-defined]


def test_marilyn_monroe_birth_certificate_chart() -> None:
    # 1926-06-01 09:30 PST, Los Angeles (birth certificate): https://www.makara.us/04mdr/01writing/
    # 03tg/bios/Monroe.htm -- Leo rising with Neptune in Leo in house 1, Sun and Mercury in
    # Gemini, Moon and Jupiter in Aquarius, Mars and Uranus in Pisces, Saturn in Scorpio in house
    # 4, Pluto and the node in Cancer, MC late Aries or early Taurus.
    c = natal_chart(
        BirthSubject(date(1926, 6, 1), "09:30", 34.05, -(118.25), timezone="America/Los_Angeles")
    )
    assert c.meta.offset_minutes == -480
    assert c.meta.utc == datetime(1926, 6, 1, 17, 30, tzinfo=UTC)
    assert c.angles.ascendant.sign == "leo"
    assert c.angles.midheaven.sign in ("aries", "taurus")
    assert _signs(c, "neptune sun mercury moon jupiter mars uranus saturn pluto mean_node") == [
        "leo", "gemini", "gemini", "aquarius", "aquarius", "pisces", "pisces", "scorpio",
        "cancer", "cancer",
    ]  # fmt: skip
    assert (c.planet("neptune").house, c.planet("saturn").house) == (1, 4)


def test_barack_obama_birth_certificate_chart() -> None:
    # 1961-08-04 19:24 AHST (UTC-10), Honolulu 21N18'25" 157W51'30", AA, Koch houses:
    # https://thezodiac.com/weird/democrats2008.htm -- Leo Sun, Gemini Moon, Aquarius Ascendant,
    # Scorpio Midheaven. Signs of the other planets: https://joycelevine.com/Obama.htm (Mercury
    # and Uranus in Leo, Pluto and Mars in Virgo, Venus in Cancer, Saturn in Capricorn, Jupiter in
    # Aquarius, the Moon in house 4). Whole degrees ("Asc:18 Aquarius Sun:12 Leo Moon:3 Gemini"):
    # https://www.astrology.co.uk/news/obamaelect.htm
    c = natal_chart(
        BirthSubject(
            date(1961, 8, 4), "19:24", 21 + 18 / 60 + 25 / 3600, -(157 + 51 / 60 + 30 / 3600),
            timezone="Pacific/Honolulu",
        ),
        house_system="K",
    )  # fmt: skip
    assert c.meta.offset_minutes == -600
    assert c.meta.utc == datetime(1961, 8, 5, 5, 24, tzinfo=UTC)
    assert (c.angles.ascendant.sign, c.angles.midheaven.sign) == ("aquarius", "scorpio")
    assert _signs(c, "sun moon mercury uranus pluto mars venus saturn jupiter") == [
        "leo", "gemini", "leo", "leo", "virgo", "virgo", "cancer", "capricorn", "aquarius",
    ]  # fmt: skip
    assert c.planet("moon").house == 4
    degrees = (c.angles.ascendant.sign_degree, c.planet("sun").sign_degree)
    assert [int(d) for d in (*degrees, c.planet("moon").sign_degree)] == [18, 12, 3]


def test_steve_jobs_birth_certificate_chart() -> None:
    # 1955-02-24 19:15 PST, San Francisco, AA: http://astrologyschool.net/steve-jobs-horoscope/
    # -- Virgo rising, Gemini on the 10th house, Mercury retrograde in Aquarius in house 5, Mars in
    # Aries opposite Neptune in Libra; http://pismopam.blogspot.com/2010/01/steve-jobs-astrology.html
    # -- Sun in Pisces, Moon in Aries, Venus in Capricorn, Mars in the last degree of Aries.
    c = natal_chart(
        BirthSubject(
            date(1955, 2, 24), "19:15", 37 + 47 / 60, -(122 + 25 / 60),
            timezone="America/Los_Angeles",
        )
    )  # fmt: skip
    assert c.meta.utc == datetime(1955, 2, 25, 3, 15, tzinfo=UTC)
    assert (c.angles.ascendant.sign, c.angles.midheaven.sign) == ("virgo", "gemini")
    mercury = c.planet("mercury")
    assert (mercury.sign, mercury.house, mercury.retrograde) == ("aquarius", 5, True)
    assert _signs(c, "sun moon venus mars neptune") == [
        "pisces", "aries", "capricorn", "aries", "libra",
    ]  # fmt: skip
    assert c.planet("mars").sign_degree >= 29.0
    assert any(
        {a.body1, a.body2} == {"mars", "neptune"} and a.aspect == "opposition" for a in c.aspects
    )


def test_john_lennon_wartime_british_summer_time() -> None:
    # John Lennon, 1940-10-09 18:30, Liverpool 53N25 2W55. Britain kept BST (UTC+1) through the
    # winter of 1940-41 (IANA tz history), so 18:30 local is 17:30 UT; Moon 3Aqu33 (Astrodatabank).
    c = natal_chart(
        BirthSubject(
            date(1940, 10, 9), "18:30", 53 + 25 / 60, -(2 + 55 / 60), timezone="Europe/London"
        )
    )
    assert c.meta.offset_minutes == 60
    assert c.meta.utc == datetime(1940, 10, 9, 17, 30, tzinfo=UTC)
    assert _arcmin_close(c.planet("moon").longitude, "aquarius", 3, 33)
    assert c.angles.ascendant.sign == "aries"


# --- time zones --------------------------------------------------------------------------------


def test_zone_from_coordinates_applies_daylight_saving() -> None:
    # New York 2021-07-04 12:00 is EDT (UTC-4); no offset or zone given.
    c = natal_chart(BirthSubject(date(2021, 7, 4), "12:00", 40.7128, -74.006))
    assert c.meta.timezone == "America/New_York"
    assert c.meta.time_source == "coordinates"
    assert c.meta.utc == datetime(2021, 7, 4, 16, 0, tzinfo=UTC)


def test_ambiguous_hour_at_end_of_dst_takes_the_earlier_instant_unless_fold() -> None:
    # Europe/Berlin 2021-10-31 02:30 occurred twice (CEST then CET).
    first = natal_chart(
        BirthSubject(date(2021, 10, 31), "02:30", 52.52, 13.405, timezone="Europe/Berlin")
    )
    second = natal_chart(
        BirthSubject(date(2021, 10, 31), "02:30", 52.52, 13.405, timezone="Europe/Berlin", fold=1)
    )
    assert first.meta.utc == datetime(2021, 10, 31, 0, 30, tzinfo=UTC)
    assert second.meta.utc == datetime(2021, 10, 31, 1, 30, tzinfo=UTC)


def test_local_time_skipped_by_dst_is_an_error_naming_time() -> None:
    with pytest.raises(CalcInputError) as info:
        natal_chart(
            BirthSubject(date(2021, 3, 28), "02:30", 52.52, 13.405, timezone="Europe/Berlin")
        )
    assert info.value.field == "time"


# --- structure and conventions -------------------------------------------------------------------


def test_chiron_without_files_is_left_out_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)
    c = natal_chart(
        BirthSubject(date(1990, 1, 1), "12:00", 13.75, 100.5, timezone_offset_minutes=420)
    )
    assert "chiron" not in {p.name for p in c.planets}
    assert any("chiron" in w for w in c.meta.warnings)
    assert c.meta.ephemeris == "moshier"


@pytest.mark.usefixtures("restore_swisseph")
def test_chiron_with_files_matches_swisseph(monkeypatch: pytest.MonkeyPatch) -> None:
    import kerykeion

    files = Path(kerykeion.__file__).parent / "sweph"
    assert (files / "seas_18.se1").exists()
    monkeypatch.setenv("ASTRO_EPHE_PATH", str(files))
    c = natal_chart(
        BirthSubject(date(1990, 1, 1), "12:00", 13.75, 100.5, timezone_offset_minutes=420)
    )
    swe.set_ephe_path(str(files))
    ref, _ = swe.calc_ut(c.meta.julian_day, swe.CHIRON, swe.FLG_SWIEPH | swe.FLG_SPEED)
    assert _close(c.planet("chiron").longitude, ref[0])
    assert not any("chiron" in w for w in c.meta.warnings)


@pytest.mark.usefixtures("restore_swisseph")
def test_chiron_found_missing_at_one_date_is_still_computed_at_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # kerykeion's files hold seas_18 (1800-2400 CE) only: Chiron is there in 1990, not in 1500.
    # Asking for 1500 first must not make it disappear from later 1990 charts.
    import kerykeion

    monkeypatch.setenv("ASTRO_EPHE_PATH", str(Path(kerykeion.__file__).parent / "sweph"))
    modern = BirthSubject(date(1990, 1, 1), "12:00", 13.75, 100.5, timezone_offset_minutes=420)
    early = BirthSubject(date(1500, 1, 1), "12:00", 13.75, 100.5, timezone_offset_minutes=420)
    names = {p.name for p in natal_chart(modern).planets}
    assert "chiron" in names
    assert "chiron" not in {p.name for p in natal_chart(early).planets}
    assert {p.name for p in natal_chart(modern).planets} == names


@pytest.mark.usefixtures("restore_swisseph")
def test_meta_says_moshier_when_planets_fell_back_from_missing_swiss_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # kerykeion's directory has asteroid files but no planet or moon files (sepl/semo): Swiss
    # Ephemeris computes the planets from Moshier and says so in each result's flags. The mean
    # node and mean Lilith are analytic and come back flagged as Swiss either way.
    import kerykeion

    files = Path(kerykeion.__file__).parent / "sweph"
    assert not list(files.glob("sepl*"))
    assert not list(files.glob("semo*"))
    monkeypatch.setenv("ASTRO_EPHE_PATH", str(files))
    subject = BirthSubject(date(1990, 6, 1), "12:00", 48.85, 2.35, timezone_offset_minutes=0)
    for bodies in (("sun", "moon"), ("sun", "mean_lilith"), ("mean_lilith", "sun")):
        assert natal_chart(subject, bodies=bodies).meta.ephemeris == "moshier", bodies
    assert natal_chart(subject).meta.ephemeris == "moshier"


def test_result_encodes_with_the_api_field_names() -> None:
    c = natal_chart(
        BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    )
    doc = msgspec.json.decode(msgspec.json.encode(c))
    assert set(doc) >= {"planets", "houses", "angles", "aspects", "meta"}
    assert set(doc["planets"][0]) >= {
        "name", "longitude", "latitude", "speed", "sign", "sign_degree", "house", "retrograde",
    }  # fmt: skip
    assert set(doc["houses"][0]) >= {"number", "cusp", "sign"}
    assert set(doc["angles"]) == {"ascendant", "midheaven", "descendant", "imum_coeli", "vertex"}
    assert set(doc["meta"]) >= {"utc", "julian_day", "house_system", "ephemeris", "warnings"}
    assert doc["meta"]["utc"] == "1990-05-01T00:30:00Z"
    assert doc["meta"]["offset_minutes"] == 420


def test_element_and_modality_balance_count_the_ten_planets() -> None:
    c = natal_chart(
        BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    )
    tens = [p for p in c.planets if p.name in SWE_IDS and SWE_IDS[p.name] <= 9]
    fire = sum(1 for p in tens if p.sign in ("aries", "leo", "sagittarius"))
    fixed = sum(1 for p in tens if p.sign in ("taurus", "leo", "scorpio", "aquarius"))
    assert c.elements.fire == fire
    assert c.modalities.fixed == fixed
    assert sum(msgspec.structs.astuple(c.elements)) == 10
    assert sum(msgspec.structs.astuple(c.modalities)) == 10


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("house_system", {"house_system": "Z"}),
        ("bodies", {"bodies": ("sun", "vulcan")}),
        ("aspects", {"aspects": ("trine", "novile")}),
        ("orbs", {"orbs": {"trine": 20.0}}),
    ],
)
def test_bad_options_name_the_field(field: str, kwargs: dict[str, object]) -> None:
    s = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    with pytest.raises(CalcInputError) as info:
        natal_chart(s, **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


@pytest.mark.parametrize(
    ("lat", "lon", "field"), [(91.0, 0.0, "latitude"), (0.0, 181.0, "longitude")]
)
def test_bad_coordinates_name_the_field(lat: float, lon: float, field: str) -> None:
    with pytest.raises(CalcInputError) as info:
        natal_chart(BirthSubject(date(1990, 5, 1), "07:30", lat, lon, timezone_offset_minutes=0))
    assert info.value.field == field


def test_aspects_to_the_angles_apply_as_the_real_orb_changes() -> None:
    """The ascendant and midheaven turn with the Earth (about a degree every four minutes): an
    aspect to an angle is applying when the orb one second later, from direct Swiss Ephemeris
    positions and cusps, is smaller."""
    rng = random.Random(41)
    checked = 0
    dt = 1.0 / 86400.0
    for _ in range(60):
        moment = _random_moment(rng)
        lat, lon = rng.uniform(-60.0, 60.0), rng.uniform(-180.0, 180.0)
        chart = natal_chart(_utc_subject(moment, lat, lon))
        jd = chart.meta.julian_day
        _c, later = swe.houses_ex(jd + dt, lat, lon, b"P", swe.FLG_MOSEPH)
        angle_later = {"ascendant": later[0], "midheaven": later[1]}
        for a in chart.aspects:
            if a.body2 not in angle_later and a.body1 not in angle_later:
                continue
            if a.orb < 0.02:
                continue  # exact to within the step: either answer is right
            names = (a.body1, a.body2)
            lons = []
            for name in names:
                if name in angle_later:
                    lons.append(angle_later[name])
                else:
                    lons.append(swe.calc_ut(jd + dt, SWE_IDS[name], swe.FLG_MOSEPH)[0][0])
            sep = abs((lons[0] - lons[1] + 180.0) % 360.0 - 180.0)
            orb_later = abs(sep - a.aspect_angle)
            assert a.applying == (orb_later < a.orb), (names, a.aspect, a.orb, orb_later)
            checked += 1
    assert checked > 100
