"""Birth-time sensitivity of the traditional techniques (profections, releasing, firdaria, lots).

Results (``result`` names):

* ``sect``: ``day``/``night`` (sunrise and sunset: the Sun crossing the ascendant or the
  descendant); it picks the firdaria sequence and reverses the lots;
* ``ascendant.sign``: the whole-sign houses, hence the profected sign and the lord of the year;
* ``lot.<name>.sign`` for the seven lots (fortune, spirit, eros, necessity, courage, victory,
  nemesis): releasing from spirit or fortune starts from that sign, and the peaks count from
  fortune's, so every releasing date moves when these change.

The values come from the same functions as the techniques
(:func:`astro_calc.western.traditional.chart.sect_of`, ``lot_longitudes``, the ascendant of
:func:`astro_calc.ephemeris.houses`). Crossings are found by root finding
(:func:`astro_calc.sensitivity._search.phase_crossing`) to 1 second on monotone coordinates: the
ascendant, the Sun's arc from the ascendant (it falls about one degree every four minutes), and
each lot's longitude under one sect's formula (the ascendant carries it forward). A lot's
search runs sect by sect: up to the next sunrise or sunset with that sect's formula; at the sect
change the lot jumps (its formula reverses), and when the jump changes its sign that instant is
the change. Beyond 60 degrees of latitude nothing depending on the ascendant is searched (only
a warning), as for the natal chart.
"""

from __future__ import annotations

from collections.abc import Callable

from astro_calc import ephemeris
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
    Crossing,
    PhaseSample,
    Sensitivity,
    SensitivityItem,
    Shift,
    angles_reliable,
    check_window,
    item,
    phase_crossing,
    sensitivity,
)
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, resolve_subject
from astro_calc.western.traditional.chart import LOT_FORMULAS, LOT_NAMES, lot_longitudes, sect_of
from astro_calc.western.traditional.dignities import CLASSICAL_PLANETS

_DAY_S = 86400.0
_STEP_PAST_S = 1.0


class _Sky:
    """The ascendant and the seven planets (longitude and speed) at ``s`` seconds from the
    birth, cached per instant."""

    def __init__(self, shift: Shift, latitude: float, longitude: float) -> None:
        self.shift = shift
        self.latitude = latitude
        self.longitude = longitude
        self._cache: dict[float, tuple[float, float, dict[str, float], dict[str, float]]] = {}

    def at(self, s: float) -> tuple[float, float, dict[str, float], dict[str, float]]:
        got = self._cache.get(s)
        if got is None:
            jd = self.shift.jd(s)
            h = ephemeris.houses(jd, self.latitude, self.longitude, "W")
            lons: dict[str, float] = {}
            speeds: dict[str, float] = {}
            for name in CLASSICAL_PLANETS:
                p = ephemeris.body_position(jd, name)
                lons[name] = p.longitude
                speeds[name] = p.speed
            if len(self._cache) > 4096:
                self._cache.clear()
            got = self._cache[s] = (h.ascendant, h.ascendant_speed, lons, speeds)
        return got

    def sect(self, s: float) -> str:
        asc, _v, lons, _speeds = self.at(s)
        return sect_of(lons["sun"], asc)


def _lot_speeds(asc_speed: float, speeds: dict[str, float], sect: str) -> dict[str, float]:
    """The lots' longitude speeds (degrees per day): the formulas are linear."""
    points = dict(speeds)
    out: dict[str, float] = {}
    for name in LOT_NAMES:
        a, b = LOT_FORMULAS[name]
        rate = asc_speed + (points[b] - points[a] if sect == "day" else points[a] - points[b])
        out[name] = points[name] = rate
    return out


def traditional_sensitivity_at(
    time_echo: SubjectTime,
    latitude: float,
    longitude: float,
    *,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """:func:`traditional_sensitivity` for an already resolved birth (the same results, root
    finding to 1 second)."""
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    horizon_s = horizon * 60.0
    if not angles_reliable(latitude):
        return sensitivity([], uncertainty_minutes, horizon, (ANGLES_LEFT_OUT,))
    shift = Shift(time_echo.utc, time_echo.local, time_echo.julian_day)
    sky = _Sky(shift, latitude, longitude)
    items: list[SensitivityItem] = []

    def sect_sample(s: float) -> PhaseSample:
        asc, asc_speed, lons, speeds = sky.at(s)
        arc = (lons["sun"] - asc) % 360.0
        rate = (speeds["sun"] - asc_speed) / 180.0 / _DAY_S
        return arc / 180.0, sect_of(lons["sun"], asc), rate

    def asc_sample(s: float) -> PhaseSample:
        asc, asc_speed, _lons, _speeds = sky.at(s)
        return asc / 30.0, SIGNS[int(asc // 30.0) % 12], asc_speed / 30.0 / _DAY_S

    def lot_sampler(name: str, sect: str, origin: float) -> Callable[[float], PhaseSample]:
        def sample(x: float) -> PhaseSample:
            asc, asc_speed, lons, speeds = sky.at(origin + x)
            lon = lot_longitudes(asc, lons, sect)[name]
            rate = _lot_speeds(asc_speed, speeds, sect)[name] / 30.0 / _DAY_S
            return lon / 30.0, SIGNS[int(lon // 30.0) % 12], rate

        return sample

    def sect_changes(direction: int) -> list[float]:
        """Signed seconds of every sect change within the horizon in ``direction``."""
        found: list[float] = []
        origin = 0.0
        while True:
            remaining = horizon_s - abs(origin)
            if remaining <= 0:
                return found

            def shifted(x: float, o: float = origin) -> PhaseSample:
                return sect_sample(o + x)

            hit = phase_crossing(shifted, direction, remaining, 2.0, -1.0 / 240.0 / 180.0)
            if hit is None:
                return found
            found.append(origin + hit[0])
            origin = origin + hit[0] + direction * _STEP_PAST_S

    def lot_change(name: str, direction: int, changes: list[float]) -> Crossing | None:
        value0 = lot_sampler(name, sky.sect(0.0), 0.0)(0.0)[1]
        origin = 0.0
        for edge in [*changes, direction * horizon_s]:
            sect = sky.sect(origin)
            span = abs(edge - origin)
            hit = phase_crossing(
                lot_sampler(name, sect, origin), direction, span, 12.0, 1.0 / 120.0 / 30.0
            )
            if hit is not None:
                return (origin + hit[0], hit[1])
            if abs(edge) >= horizon_s:
                return None
            after = edge + direction * _STEP_PAST_S
            value = lot_sampler(name, sky.sect(after), after)(0.0)[1]
            if value != value0:
                return (edge, value)
            origin = after
        return None

    first_sect = sect_sample(0.0)
    before = phase_crossing(sect_sample, -1, horizon_s, 2.0, -1.0 / 240.0 / 180.0, first=first_sect)
    after = phase_crossing(sect_sample, 1, horizon_s, 2.0, -1.0 / 240.0 / 180.0, first=first_sect)
    items.append(item("sect", first_sect[1], time_echo.utc, before, after, uncertainty_minutes))

    first_asc = asc_sample(0.0)
    items.append(
        item(
            "ascendant.sign",
            first_asc[1],
            time_echo.utc,
            phase_crossing(asc_sample, -1, horizon_s, 12.0, 1.0 / 120.0 / 30.0, first=first_asc),
            phase_crossing(asc_sample, 1, horizon_s, 12.0, 1.0 / 120.0 / 30.0, first=first_asc),
            uncertainty_minutes,
        )
    )
    earlier, later = sect_changes(-1), sect_changes(1)
    sect0 = first_sect[1]
    for name in LOT_NAMES:
        value = lot_sampler(name, sect0, 0.0)(0.0)[1]
        items.append(
            item(
                f"lot.{name}.sign",
                value,
                time_echo.utc,
                lot_change(name, -1, earlier),
                lot_change(name, 1, later),
                uncertainty_minutes,
            )
        )
    return sensitivity(items, uncertainty_minutes, horizon)


def traditional_sensitivity(
    subject: BirthSubject,
    *,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the traditional results of a birth are to changing with the birth time: the
    sect, the ascendant's sign (profections) and each lot's sign (releasing), with the nearest
    change before and after within ``horizon_minutes`` (default 780) and whether each is
    certain within ``uncertainty_minutes`` (0..720). Root finding to 1 second (module
    docstring); checked by evaluating the techniques one second either side of each change."""
    echo = resolve_subject(subject)
    return traditional_sensitivity_at(
        echo,
        subject.latitude,
        subject.longitude,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon_minutes,
    )
