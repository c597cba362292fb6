"""Birth-time sensitivity of the Western natal chart.

Results (``result`` names):

* ``ascendant.sign``, ``midheaven.sign``: the tropical sign of the angle (``natal_chart``'s
  ``angles``);
* ``ascendant.degree``, ``midheaven.degree``: the degree band, the whole degree of the sign the
  angle stands in, written ``"leo 15"`` for 15 deg 00' to 15 deg 59' of Leo;
* ``house.<body>``: each body's house (``"1"`` .. ``"12"``) on the chart's house system;
* ``moon.sign``: the Moon's tropical sign.

The values come from the same calls as :func:`astro_calc.western.natal.natal_chart`
(:func:`astro_calc.ephemeris.houses`, :func:`astro_calc.ephemeris.body_position`,
:func:`astro_calc.western.natal.house_finder`); the crossings are found by root finding on the
angle's longitude and on the body's place between its house cusps
(:func:`astro_calc.sensitivity._search.phase_crossing`), to 1 second. While a house crossing is
searched, the body's position is taken afresh whenever the search moves ten minutes from the
last one and carried on with its speed in between (under 2e-5 degree, 0.01 s, of error).

Monotone coordinates: the angles move forward (about 1 degree per 4 minutes) and the cusps
overtake every body, so each coordinate is monotone. That holds away from the polar circles;
near and inside them the ascendant races and jumps and cusps fall out of order, so beyond 60
degrees of latitude only ``moon.sign`` is given, with a warning (the tests draw latitudes within
+-60 degrees and check every crossing; beyond, about half the births had a wrong answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from astro_calc import ephemeris
from astro_calc.sensitivity._search import (
    ANGLES_LEFT_OUT,
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
from astro_calc.western.natal import (
    DEFAULT_BODIES,
    angle_point,
    cached_positions,
    check_bodies,
    check_house_system,
    house_finder,
)
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, resolve_subject

_DAY_S: float = 86400.0
#: How far (seconds) a body's position is carried on with its speed before it is taken afresh.
ANCHOR_S: float = 600.0


def sign_value(longitude: float) -> str:
    return SIGNS[int(longitude // 30.0) % 12]


def degree_value(longitude: float) -> str:
    point = angle_point(longitude)
    return f"{point.sign} {int(point.sign_degree)}"


def house_phase(
    longitude: float, speed: float, houses: ephemeris.Houses
) -> tuple[float, int, float | None]:
    """A body's place in house units: ``house - 1`` plus the fraction of the house it has
    crossed, continuous across cusps (period 12); the house :func:`house_finder` gives; and the
    phase's rate per second from the body's and the cusps' speeds."""
    number = house_finder(houses)(longitude)
    start = houses.cusps[number - 1]
    span = (houses.cusps[number % 12] - start) % 360.0 or 360.0
    into = (longitude - start) % 360.0
    rate = None
    if houses.cusp_speeds:
        v_start = houses.cusp_speeds[number - 1]
        v_span = houses.cusp_speeds[number % 12] - v_start
        rate = ((speed - v_start) * span - into * v_span) / (span * span) / _DAY_S
    return number - 1 + into / span, number, rate


class _Chart:
    """The natal chart's time-dependent parts at ``s`` seconds from the birth."""

    def __init__(self, shift: Shift, latitude: float, longitude: float, system: str) -> None:
        self.shift = shift
        self.latitude = latitude
        self.longitude = longitude
        self.system = system

    def houses(self, s: float) -> ephemeris.Houses:
        return ephemeris.houses(self.shift.jd(s), self.latitude, self.longitude, self.system)

    def ascendant_sign(self, s: float) -> PhaseSample:
        h = self.houses(s)
        return h.ascendant / 30.0, sign_value(h.ascendant), h.ascendant_speed / 30.0 / _DAY_S

    def ascendant_degree(self, s: float) -> PhaseSample:
        h = self.houses(s)
        return h.ascendant, degree_value(h.ascendant), h.ascendant_speed / _DAY_S

    def midheaven_sign(self, s: float) -> PhaseSample:
        h = self.houses(s)
        return h.midheaven / 30.0, sign_value(h.midheaven), h.midheaven_speed / 30.0 / _DAY_S

    def midheaven_degree(self, s: float) -> PhaseSample:
        h = self.houses(s)
        return h.midheaven, degree_value(h.midheaven), h.midheaven_speed / _DAY_S

    def moon_sign(self, s: float) -> PhaseSample:
        moon = ephemeris.body_position(self.shift.jd(s), "moon")
        return moon.longitude / 30.0, sign_value(moon.longitude), moon.speed / 30.0 / _DAY_S

    def body_house_sampler(self, body: str) -> Callable[[float], PhaseSample]:
        """The house phase of ``body``. The body's longitude is its ephemeris position, taken
        afresh whenever the search moves more than :data:`ANCHOR_S` from the last one and
        carried on with that position's speed in between: the cusps move a degree in about
        four minutes, the body (the Moon at most) 0.005 degree in ten, and the linear
        carry-over errs by less than 2e-5 degree (under 0.01 s of the crossing) there."""
        anchor: list[float] = []

        def sample(s: float) -> PhaseSample:
            if not anchor or abs(s - anchor[0]) > ANCHOR_S:
                p = ephemeris.body_position(self.shift.jd(s), body)
                anchor[:] = [s, p.longitude, p.speed]
            s0, lon0, speed = anchor
            lon = (lon0 + speed * (s - s0) / _DAY_S) % 360.0
            phase, number, rate = house_phase(lon, speed, self.houses(s))
            return phase, str(number), rate

        return sample


def natal_sensitivity_at(
    time_echo: SubjectTime,
    latitude: float,
    longitude: float,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """Sensitivity of the natal chart of an already resolved birth (:func:`natal_sensitivity`,
    to 1 second): for charts built on :func:`astro_calc.western.natal.chart_at` (returns,
    Davison). Bodies the ephemeris cannot compute without files (Chiron without
    ``ASTRO_EPHE_PATH``) are left out, as the chart leaves them out."""
    system = check_house_system(house_system)
    names = check_bodies(bodies)
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    horizon_s = horizon * 60.0
    shift = Shift(time_echo.utc, time_echo.local, time_echo.julian_day)
    chart = _Chart(shift, latitude, longitude, system)
    items: list[SensitivityItem] = []

    def add(
        result: str, sample: Callable[[float], PhaseSample], period: float, rate_hint: float
    ) -> None:
        first = sample(0.0)
        before = phase_crossing(sample, -1, horizon_s, period, rate_hint, first=first)
        after = phase_crossing(sample, 1, horizon_s, period, rate_hint, first=first)
        items.append(item(result, first[1], time_echo.utc, before, after, uncertainty_minutes))

    def add_whole_sign_house(body: str) -> None:
        # Whole-sign cusps jump with the ascendant's sign: the house changes when the ascendant
        # or the body changes sign, whichever comes first.
        def by_ascendant(s: float) -> PhaseSample:
            h = chart.houses(s)
            lon = ephemeris.body_position(shift.jd(s), body).longitude
            return h.ascendant / 30.0, str(house_finder(h)(lon)), h.ascendant_speed / 30 / _DAY_S

        def by_body(s: float) -> PhaseSample:
            p = ephemeris.body_position(shift.jd(s), body)
            house = house_finder(chart.houses(s))(p.longitude)
            return p.longitude / 30.0, str(house), p.speed / 30.0 / _DAY_S

        a, b = by_ascendant(0.0), by_body(0.0)
        sides = []
        for direction in (-1, 1):
            found = [
                phase_crossing(by_ascendant, direction, horizon_s, 12.0, 1.0, first=a),
                phase_crossing(by_body, direction, horizon_s, 12.0, 1.0, first=b),
            ]
            hits = [c for c in found if c is not None]
            sides.append(min(hits, key=lambda c: abs(c[0])) if hits else None)
        items.append(
            item(f"house.{body}", a[1], time_echo.utc, sides[0], sides[1], uncertainty_minutes)
        )

    mean_rate = 360.0 / _DAY_S  # an angle's typical motion, degrees per second
    if not angles_reliable(latitude):
        add("moon.sign", chart.moon_sign, 12.0, 13.0 / 30.0 / _DAY_S)
        return sensitivity(items, uncertainty_minutes, horizon, (ANGLES_LEFT_OUT,))
    add("ascendant.sign", chart.ascendant_sign, 12.0, mean_rate / 30.0)
    add("ascendant.degree", chart.ascendant_degree, 360.0, mean_rate)
    add("midheaven.sign", chart.midheaven_sign, 12.0, mean_rate / 30.0)
    add("midheaven.degree", chart.midheaven_degree, 360.0, mean_rate)
    whole_sign = chart.houses(0.0).system == "W"
    for body in names:
        if body in ephemeris.FILE_BODIES and not cached_positions(time_echo.julian_day, (body,))[0]:
            continue  # left out of the chart too (needs Swiss Ephemeris files)
        if whole_sign:
            add_whole_sign_house(body)
            continue
        add(f"house.{body}", chart.body_house_sampler(body), 12.0, -mean_rate / 30.0)
    add("moon.sign", chart.moon_sign, 12.0, 13.0 / 30.0 / _DAY_S)
    return sensitivity(items, uncertainty_minutes, horizon)


def natal_sensitivity(
    subject: BirthSubject,
    *,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close each time-dependent result of :func:`astro_calc.western.natal_chart` is to
    changing: for the same ``subject``, ``house_system`` and ``bodies``, each result's value,
    its nearest change before and after the birth within ``horizon_minutes`` (default 780: the
    largest uncertainty plus an hour) and whether it is certain within ``uncertainty_minutes``
    (0..720). Crossings are found by root finding on the chart's own functions to 1 second (see
    the module docstring); checked by brute force at each crossing +-1 s in the tests."""
    echo = resolve_subject(subject)
    return natal_sensitivity_at(
        echo,
        subject.latitude,
        subject.longitude,
        house_system=house_system,
        bodies=bodies,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon_minutes,
    )
