"""Sidereal (Vedic) birth chart: grahas, lagna, nakshatras, houses, dignities, combustion, vargas.

Conventions
-----------
* Positions: apparent geocentric longitudes of date minus the ayanamsa (``lahiri`` default;
  ``raman``, ``krishnamurti``, ``fagan_bradley``, ``true_chitra``, ``yukteshwar``), from
  :mod:`astro_calc.ephemeris`.
* Rahu is the lunar ascending node, ``node="mean"`` (default, the traditional Parashari choice)
  or ``"true"`` (osculating); Ketu is exactly opposite. Both are always retrograde for the mean
  node.
* Houses: whole-sign by default (house 1 = the lagna's sign). Any other letter of
  :data:`astro_calc.ephemeris.HOUSE_SYSTEMS` uses sidereal cusps of that system instead.
* Combustion (moudhya): a planet within these orbs of the Sun's longitude, as commonly quoted
  from Surya Siddhanta ch. 9: Moon 12, Mars 17, Mercury 14 (12 when retrograde), Jupiter 11,
  Venus 10 (8 when retrograde), Saturn 15 degrees. Rahu and Ketu are never combust.

Checked against PyJHora (sidereal longitudes to 0.01 degree, nakshatra and pada, divisional
signs) in ``test_vedic_chart.py``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.vedic.subject import BirthSubject, birth_moment
from astro_calc.vedic.varga import VARGAS, varga_sign
from astro_calc.vedic.zodiac import (
    GRAHAS,
    NAKSHATRAS,
    SIGNS,
    Dignity,
    Graha,
    dignity,
    nakshatra_index,
    pada_of,
    sign_index,
)

NodeType = Literal["mean", "true"]

#: Combustion orbs in degrees: (direct, retrograde).
COMBUSTION_ORBS_DEG: Final[dict[Graha, tuple[float, float]]] = {
    "moon": (12.0, 12.0),
    "mars": (17.0, 17.0),
    "mercury": (14.0, 12.0),
    "jupiter": (11.0, 11.0),
    "venus": (10.0, 8.0),
    "saturn": (15.0, 15.0),
}


class GrahaPosition(msgspec.Struct, frozen=True):
    name: str
    longitude_deg: float
    sign: str
    sign_number: int  # 1 = Aries
    degree_in_sign: float
    nakshatra: int  # 1..27
    nakshatra_name: str
    pada: int  # 1..4
    house: int
    speed_deg_per_day: float
    retrograde: bool
    dignity: Dignity
    combust: bool


class Lagna(msgspec.Struct, frozen=True):
    longitude_deg: float
    sign: str
    sign_number: int
    degree_in_sign: float
    nakshatra: int
    nakshatra_name: str
    pada: int


class SiderealChart(msgspec.Struct, frozen=True):
    jd_ut: float
    utc: datetime
    ayanamsa: str
    ayanamsa_deg: float
    node: NodeType
    house_system: str
    lagna: Lagna
    grahas: tuple[GrahaPosition, ...]
    house_cusps_deg: tuple[float, ...]
    #: varga name -> {graha or "lagna" -> sign name}
    divisional_charts: dict[str, dict[str, str]]
    ephemeris: str

    def graha(self, name: str) -> GrahaPosition:
        for g in self.grahas:
            if g.name == name:
                return g
        raise KeyError(name)


def _is_combust(name: Graha, lon: float, speed: float, sun_lon: float) -> bool:
    orbs = COMBUSTION_ORBS_DEG.get(name)
    if orbs is None:
        return False
    orb = orbs[1] if speed < 0 else orbs[0]
    return abs(ephemeris.angle_diff(lon, sun_lon)) <= orb


def sidereal_chart_at(
    jd_ut: float,
    latitude: float,
    longitude: float,
    *,
    ayanamsa: str = "lahiri",
    node: NodeType = "mean",
    house_system: str = "W",
    divisional_charts: tuple[str, ...] | list[str] = VARGAS,
) -> SiderealChart:
    """Sidereal chart for a UT Julian day and place (conventions in the module docstring).

    Checked against PyJHora 4.8 sidereal longitudes (0.01 degree), nakshatras, padas and
    Parashara divisional charts."""
    if node not in ("mean", "true"):
        raise CalcInputError("node", "must be 'mean' or 'true'")
    node_body = "mean_node" if node == "mean" else "true_node"
    names = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", node_body)
    positions, used, _warn = ephemeris.body_positions(jd_ut, names, ayanamsa=ayanamsa)
    ayan = ephemeris.ayanamsa_value(jd_ut, ayanamsa)
    system = house_system.upper()
    houses = ephemeris.houses(
        jd_ut, latitude, longitude, "W" if system == "W" else system, ayanamsa=ayanamsa
    )
    asc = houses.ascendant
    asc_sign = sign_index(asc)
    if system == "W":
        cusps = tuple(float((asc_sign + i) % 12 * 30) for i in range(12))
    else:
        cusps = houses.cusps

    raw: dict[Graha, tuple[float, float]] = {}
    for g in GRAHAS[:7]:
        p = positions[g]
        raw[g] = (p.longitude, p.speed)
    rahu = positions[node_body]
    raw["rahu"] = (rahu.longitude, rahu.speed)
    raw["ketu"] = ((rahu.longitude + 180.0) % 360.0, rahu.speed)

    sun_lon = raw["sun"][0]
    grahas: list[GrahaPosition] = []
    for g in GRAHAS:
        lon, speed = raw[g]
        s = sign_index(lon)
        house = (s - asc_sign) % 12 + 1 if system == "W" else houses.house_of(lon)
        nak = nakshatra_index(lon)
        grahas.append(
            GrahaPosition(
                name=g,
                longitude_deg=lon,
                sign=SIGNS[s],
                sign_number=s + 1,
                degree_in_sign=lon - 30.0 * s,
                nakshatra=nak + 1,
                nakshatra_name=NAKSHATRAS[nak],
                pada=pada_of(lon),
                house=house,
                speed_deg_per_day=speed,
                retrograde=speed < 0,
                dignity=dignity(g, lon),
                combust=_is_combust(g, lon, speed, sun_lon),
            )
        )
    asc_nak = nakshatra_index(asc)
    lagna = Lagna(
        longitude_deg=asc,
        sign=SIGNS[asc_sign],
        sign_number=asc_sign + 1,
        degree_in_sign=asc - 30.0 * asc_sign,
        nakshatra=asc_nak + 1,
        nakshatra_name=NAKSHATRAS[asc_nak],
        pada=pada_of(asc),
    )
    vargas: dict[str, dict[str, str]] = {}
    for v in divisional_charts:
        key = v.upper()
        placement = {"lagna": SIGNS[varga_sign(asc, key)]}
        for gp in grahas:
            placement[gp.name] = SIGNS[varga_sign(gp.longitude_deg, key)]
        vargas[key] = placement
    return SiderealChart(
        jd_ut=jd_ut,
        utc=ephemeris.datetime_from_jd(jd_ut),
        ayanamsa=ayanamsa,
        ayanamsa_deg=ayan,
        node=node,
        house_system="whole_sign" if system == "W" else ephemeris.HOUSE_SYSTEMS[houses.system],
        lagna=lagna,
        grahas=tuple(grahas),
        house_cusps_deg=cusps,
        divisional_charts=vargas,
        ephemeris=used,
    )


def sidereal_chart(
    subject: BirthSubject,
    *,
    node: NodeType = "mean",
    house_system: str = "W",
    divisional_charts: tuple[str, ...] | list[str] = VARGAS,
) -> SiderealChart:
    """Sidereal chart of a birth subject (its ``ayanamsa`` field chooses the ayanamsa)."""
    moment = birth_moment(subject)
    return sidereal_chart_at(
        moment.jd_ut,
        subject.latitude,
        subject.longitude,
        ayanamsa=subject.ayanamsa,
        node=node,
        house_system=house_system,
        divisional_charts=divisional_charts,
    )
