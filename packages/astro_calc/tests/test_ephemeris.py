"""The ephemeris door: Julian days and positions against published values."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
import swisseph as swe

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError


def test_julian_day_of_j2000_epoch() -> None:
    # J2000.0 is JD 2451545.0 by definition (Meeus, Astronomical Algorithms, ch. 7).
    assert ephemeris.julian_day(datetime(2000, 1, 1, 12, tzinfo=UTC)) == 2451545.0


def test_julian_day_of_meeus_example_7a() -> None:
    # Meeus example 7.a: 1957 October 4.81 = JD 2436116.31.
    moment = datetime(1957, 10, 4, 19, 26, 24, tzinfo=UTC)
    assert ephemeris.julian_day(moment) == pytest.approx(2436116.31, abs=1e-6)


def test_datetime_from_jd_round_trips() -> None:
    moment = datetime(1987, 4, 10, 19, 21, tzinfo=UTC)
    back = ephemeris.datetime_from_jd(ephemeris.julian_day(moment))
    assert abs((back - moment).total_seconds()) < 1e-3


def test_sun_apparent_longitude_matches_meeus_example_25a() -> None:
    # Meeus example 25.a: 1992 Oct 13.0 TD, apparent longitude of the Sun 199°54'21.818".
    # Moshier and Meeus' VSOP87 agree to about a second of arc; tolerance 0.001 degree.
    jd_td = 2448908.5
    jd_ut = jd_td - ephemeris.delta_t_seconds(jd_td) / 86400.0
    sun = ephemeris.body_position(jd_ut, "sun")
    assert sun.longitude == pytest.approx(199 + 54 / 60 + 21.818 / 3600, abs=0.001)


def test_moshier_is_reported_without_ephemeris_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)
    _positions, used, _warnings = ephemeris.body_positions(2451545.0, ["sun", "moon"])
    assert used == "moshier"


def test_chiron_without_files_is_omitted_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)
    positions, _used, warnings = ephemeris.body_positions(2451545.0, ["sun", "chiron"])
    assert "chiron" not in positions
    assert any("chiron" in w for w in warnings)


def test_sidereal_and_tropical_differ_by_the_ayanamsa() -> None:
    jd = 2451545.0
    tropical = ephemeris.body_position(jd, "sun").longitude
    sidereal = ephemeris.body_position(jd, "sun", ayanamsa="lahiri").longitude
    ayanamsa = ephemeris.ayanamsa_value(jd, "lahiri")
    assert (tropical - sidereal) % 360 == pytest.approx(ayanamsa, abs=1e-6)
    # Lahiri ayanamsa at J2000 is 23°51'11" (Indian Astronomical Ephemeris convention).
    assert ayanamsa == pytest.approx(23.853, abs=0.01)


def test_sidereal_mode_does_not_leak_between_threads() -> None:
    jd = 2451545.0
    tropical = ephemeris.body_position(jd, "moon").longitude
    results: list[float] = []

    def sidereal_worker() -> None:
        for _ in range(200):
            ephemeris.body_position(jd, "moon", ayanamsa="fagan_bradley")

    def tropical_worker() -> None:
        for _ in range(200):
            results.append(ephemeris.body_position(jd, "moon").longitude)

    threads = [threading.Thread(target=sidereal_worker), threading.Thread(target=tropical_worker)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(results) == {tropical}


def test_placidus_inside_polar_circle_falls_back_to_porphyry() -> None:
    result = ephemeris.houses(2451545.0, 75.0, 20.0, "P")
    assert result.system == "O"
    assert result.requested_system == "P"
    assert result.warnings


def test_unknown_house_system_names_the_field() -> None:
    with pytest.raises(CalcInputError) as info:
        ephemeris.houses(2451545.0, 10.0, 20.0, "Z")
    assert info.value.field == "house_system"


def test_an_instant_past_the_ephemeris_is_a_refused_date_not_a_crash() -> None:
    # Moshier covers Julian days 625000.5..2818000.5; servers refuse dates outside the years
    # FIRST_YEAR..LAST_YEAR before calculating, and the library names "date" if one gets through.
    beyond = swe.julday(3100, 1, 1, 0.0)
    with pytest.raises(CalcInputError) as refused:
        ephemeris.body_position(beyond, "sun")
    assert refused.value.field == "date"
    with pytest.raises(CalcInputError):
        ephemeris.body_positions(beyond, ("sun", "moon"))
    last = swe.julday(ephemeris.LAST_YEAR, 12, 31, 23.99)
    assert 0 <= ephemeris.body_position(last + 366, "moon").longitude < 360


def test_a_lifetime_of_sade_sati_from_a_late_birth_stops_at_the_ephemeris_end() -> None:
    from astro_calc.vedic.sade_sati import sade_sati

    birth = swe.julday(ephemeris.LAST_YEAR, 12, 31, 12.0)
    saturn = ephemeris.body_position(birth, "saturn", ayanamsa="lahiri").longitude
    report = sade_sati(saturn, birth)  # Saturn on the Moon: a period runs from the birth on
    end = ephemeris.datetime_from_jd(ephemeris.LAST_JD)
    assert report.periods
    assert all(period.end <= end for period in report.periods)


def test_a_path_set_by_other_code_does_not_change_our_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # PyJHora points pyswisseph at its own directory on import; its seorbel.txt gives Kronos a
    # semi-axis of 64.8169 AU where Swiss Ephemeris's built-in elements (what we use without a
    # path) have 64.8196, 0.0088 degrees apart in 2100. Results must not depend on who set what.
    import importlib.util
    from pathlib import Path

    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)
    spec = importlib.util.find_spec("jhora")
    assert spec is not None
    assert spec.origin is not None
    foreign = Path(spec.origin).parent / "data" / "ephe"
    assert (foreign / "seorbel.txt").exists()
    jd = swe.julday(2100, 1, 1, 0.0)
    ours = ephemeris.body_position(jd, "kronos").longitude
    try:
        swe.set_ephe_path(str(foreign))
        theirs = swe.calc_ut(jd, swe.KRONOS, swe.FLG_MOSEPH)[0][0]
        assert abs(theirs - ours) > 0.005  # the foreign path really changes Kronos
        assert ephemeris.body_position(jd, "kronos").longitude == ours
    finally:
        swe.set_ephe_path(None)
    assert ephemeris.body_position(jd, "kronos").longitude == ours
