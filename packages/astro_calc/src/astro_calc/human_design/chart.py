"""The Human Design chart (bodygraph) of a birth.

Conventions
-----------
* Personality: the bodies at the birth instant. Design: the bodies at the instant, before the
  birth, when the Sun stood 88 degrees of ecliptic longitude earlier than at birth (88 degrees
  of solar arc, about 88-89 days); found by Newton's method on the Sun's apparent longitude and
  speed until the step is below a millisecond, so ``design_utc`` is exact to the second.
* Bodies, in Jovian Archive's order: ``sun``, ``earth`` (the Sun + 180), ``north_node`` (the
  true node by default; ``node="mean"`` for the mean node), ``south_node`` (the north node +
  180), ``moon``, ``mercury`` .. ``pluto``. Apparent geocentric tropical longitudes of date
  from :mod:`astro_calc.ephemeris` (Moshier unless ``ASTRO_EPHE_PATH`` names Swiss files).
* The wheel: gate 25 begins at 28 deg 15' Pisces; 5.625 degrees a gate, 0.9375 a line, colour,
  tone and base in sixths, sixths and fifths (:func:`astro_calc.human_design.wheel_place`).
* Channels, centres, type, authority (with its order of precedence), definition, profile and
  the incarnation cross as stated in :mod:`astro_calc.human_design._mechanics`.

Checked against renlei-tu 0.1.0 (``rlt.engine``, an independent implementation installed only
for the tests) on random births, with its two known defects corrected in the comparison (it
lacks channels 10-34 and 10-57 and does not count the Sacral as a motor for the manifesting
generator), and against published charts (tests/test_human_design.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.human_design._mechanics import (
    CENTERS,
    GATES_OF_CENTER,
    NOT_SELF_THEME,
    SIGNATURE,
    STRATEGY,
    Angle,
    Authority,
    Definition,
    HdType,
    angle_of_profile,
    channel_key,
    cross_name,
    mechanics,
    wheel_place,
)
from astro_calc.western.subject import BirthSubject, resolve_subject

NodeKind = Literal["true", "mean"]
Side = Literal["personality", "design"]

#: The activations of each side, in order.
BODIES: Final = (
    "sun",
    "earth",
    "north_node",
    "south_node",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)
_PLANETS: Final = (
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)
#: Degrees of solar arc between the design and the birth.
DESIGN_ARC_DEG: Final = 88.0
_NODE_BODY: Final[dict[str, str]] = {"true": "true_node", "mean": "mean_node"}


class Activation(msgspec.Struct, frozen=True, gc=False):
    """One body's place on the wheel: ``longitude`` (tropical, degrees), ``gate`` (1-64),
    ``line`` (1-6), ``color`` (1-6), ``tone`` (1-6), ``base`` (1-5)."""

    body: str
    longitude: float
    gate: int
    line: int
    color: int
    tone: int
    base: int


class Activations(msgspec.Struct, frozen=True, gc=False):
    personality: tuple[Activation, ...]
    design: tuple[Activation, ...]


class Center(msgspec.Struct, frozen=True, gc=False):
    """A centre, whether it is ``defined``, and the activated ``gates`` that belong to it."""

    name: str
    defined: bool
    gates: tuple[int, ...]


class IncarnationCross(msgspec.Struct, frozen=True, gc=False):
    """``angle``, the four ``gates`` (personality Sun, personality Earth, design Sun, design
    Earth) and the cross's ``name``."""

    angle: Angle
    gates: tuple[int, int, int, int]
    name: str


class HumanDesignChart(msgspec.Struct, frozen=True, gc=False):
    """The bodygraph of a birth (DESIGN.md "Human Design"): type, strategy, signature and
    not-self theme, authority, profile, definition, incarnation cross, the design instant,
    the nine centres, the defined channels (``"13-33"``, lower gate first), every activated
    gate, and both sides' activations."""

    type: HdType
    strategy: str
    signature: str
    not_self_theme: str
    authority: Authority
    profile: str
    definition: Definition
    incarnation_cross: IncarnationCross
    birth_utc: datetime
    design_utc: datetime
    centers: tuple[Center, ...]
    channels: tuple[str, ...]
    gates: tuple[int, ...]
    activations: Activations
    node: NodeKind
    ephemeris: str


def check_node(node: str) -> NodeKind:
    if node == "true":
        return "true"
    if node == "mean":
        return "mean"
    raise CalcInputError("node", f"unknown node {node!r}; one of true, mean")


Position = Callable[[float, str], ephemeris.BodyPosition]


def design_jd(jd_ut: float, position: Position) -> float:
    """The Julian day (UT) before ``jd_ut`` when the Sun's apparent longitude was 88 degrees
    less than at ``jd_ut``: Newton's method on the longitude with the Sun's own speed from a
    start 88 / 0.9856 days earlier (the Sun never moves backward, so the root is unique within
    the year); three or four steps reach a millisecond."""
    sun = position(jd_ut, "sun")
    target = (sun.longitude - DESIGN_ARC_DEG) % 360.0
    jd = jd_ut - DESIGN_ARC_DEG / 0.98564736
    for _ in range(20):
        here = position(jd, "sun")
        step = ephemeris.angle_diff(here.longitude, target) / here.speed
        jd -= step
        if abs(step) < 1e-8:  # about a millisecond
            break
    return jd


def activation(body: str, longitude: float) -> Activation:
    place = wheel_place(longitude)
    return Activation(body, longitude, place.gate, place.line, place.color, place.tone, place.base)


def side_activations(jd_ut: float, position: Position, node: NodeKind) -> tuple[Activation, ...]:
    """The thirteen activations at one instant, in :data:`BODIES` order."""
    sun = position(jd_ut, "sun").longitude
    north = position(jd_ut, _NODE_BODY[node]).longitude
    out = [
        activation("sun", sun),
        activation("earth", (sun + 180.0) % 360.0),
        activation("north_node", north),
        activation("south_node", (north + 180.0) % 360.0),
    ]
    out.extend(activation(name, position(jd_ut, name).longitude) for name in _PLANETS)
    return tuple(out)


def _both_sides(jd_ut: float, node: NodeKind) -> tuple[float, Activations]:
    with ephemeris.held_tropical() as position:
        jd_design = design_jd(jd_ut, position)
        personality = side_activations(jd_ut, position, node)
        design = side_activations(jd_design, position, node)
    return jd_design, Activations(personality, design)


def chart_from_activations(
    activations: Activations, birth_utc: datetime, design_utc: datetime, node: NodeKind
) -> HumanDesignChart:
    """Everything the bodygraph reads off the two sides' activations."""
    gates = frozenset(a.gate for a in activations.personality) | frozenset(
        a.gate for a in activations.design
    )
    m = mechanics(gates)
    p_sun, p_earth = activations.personality[0], activations.personality[1]
    d_sun, d_earth = activations.design[0], activations.design[1]
    profile = f"{p_sun.line}/{d_sun.line}"
    angle = angle_of_profile(profile)
    cross = IncarnationCross(
        angle,
        (p_sun.gate, p_earth.gate, d_sun.gate, d_earth.gate),
        cross_name(p_sun.gate, angle),
    )
    centers = tuple(
        Center(c, c in m.defined_centers, tuple(g for g in GATES_OF_CENTER[c] if g in gates))
        for c in CENTERS
    )
    return HumanDesignChart(
        type=m.type,
        strategy=STRATEGY[m.type],
        signature=SIGNATURE[m.type],
        not_self_theme=NOT_SELF_THEME[m.type],
        authority=m.authority,
        profile=profile,
        definition=m.definition,
        incarnation_cross=cross,
        birth_utc=birth_utc,
        design_utc=design_utc,
        centers=centers,
        channels=tuple(channel_key(ch) for ch in m.channels),
        gates=tuple(sorted(gates)),
        activations=activations,
        node=node,
        ephemeris=ephemeris.ephemeris_name(),
    )


def _second(moment: datetime) -> datetime:
    return (moment + timedelta(microseconds=500_000)).replace(microsecond=0)


def chart_at(jd_ut: float, *, node: str = "true") -> HumanDesignChart:
    """The bodygraph for a birth instant given as a Julian day (UT)."""
    kind = check_node(node)
    jd_design, acts = _both_sides(jd_ut, kind)
    return chart_from_activations(
        acts,
        _second(ephemeris.datetime_from_jd(jd_ut)),
        _second(ephemeris.datetime_from_jd(jd_design)),
        kind,
    )


def human_design_chart(
    subject: BirthSubject, *, node: str = "true", field_prefix: str = ""
) -> HumanDesignChart:
    """The Human Design chart of a birth subject (local date, time and place; the clock rules
    of :func:`astro_calc.western.subject.resolve_subject`).

    ``node``: ``"true"`` (default, as Jovian Archive) or ``"mean"``. See the module docstring
    for the conventions; checked against renlei-tu on random births and against published
    charts (tests/test_human_design.py). ``field_prefix`` is put before the field names of
    input errors (``"subject_b."`` for the second chart of a composite)."""
    kind = check_node(node)
    echo = resolve_subject(subject, field_prefix)
    jd_design, acts = _both_sides(echo.julian_day, kind)
    return chart_from_activations(
        acts,
        _second(echo.utc),
        _second(ephemeris.datetime_from_jd(jd_design)),
        kind,
    )


def activations_at(jd_ut: float, *, node: str = "true") -> tuple[Activation, ...]:
    """The thirteen activations of one instant (a transit), in :data:`BODIES` order."""
    kind = check_node(node)
    with ephemeris.held_tropical() as position:
        return side_activations(jd_ut, position, kind)
