"""The bodygraph's fixed mechanics: the gate wheel, centres, channels and the rules read off them.

Everything here is a pure function of the set of activated gates (and, for the profile and the
cross, of the two Suns' lines); the tables come from ``data/human_design/bodygraph.json``.

Rules (Ra Uru Hu, *The Definitive Book of Human Design*, and Jovian Archive's charts):

* a channel is defined when both its gates are activated; a centre is defined when a defined
  channel touches it;
* type: no centre defined -> ``reflector``; the Sacral defined -> ``generator``, or
  ``manifesting_generator`` when a motor is connected to the Throat through defined channels (the
  Jovian rule: the Sacral is a motor and counts, so 34-20 alone makes one); the Sacral open and
  a motor (Heart, Solar Plexus, Root) connected to the Throat -> ``manifestor``; otherwise
  ``projector``;
* inner authority, the first that applies, in this order: ``lunar`` (a reflector), ``emotional``
  (Solar Plexus defined), ``sacral`` (Sacral), ``splenic`` (Spleen), ``ego`` (Heart),
  ``self_projected`` (G, which is then connected to the Throat), ``mental`` (only Head, Ajna
  and Throat defined: the "outer" or environmental authority of a mental projector);
* definition: the number of groups of defined centres connected by defined channels:
  ``none`` (0), ``single``, ``split``, ``triple_split``, ``quadruple_split``;
* profile: the personality Sun's line / the design Sun's line; angle of the cross: ``right``
  for 1/3, 1/4, 2/4, 2/5, 3/5, 3/6, 4/6, ``juxtaposition`` for 4/1, ``left`` for 5/1, 5/2,
  6/2, 6/3; the cross is named by the personality Sun's gate and the angle.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any, Final, Literal

import msgspec

HdType = Literal["generator", "manifesting_generator", "projector", "manifestor", "reflector"]
Authority = Literal["emotional", "sacral", "splenic", "ego", "self_projected", "mental", "lunar"]
Definition = Literal["none", "single", "split", "triple_split", "quadruple_split"]
Angle = Literal["right", "left", "juxtaposition"]

#: The nine centres, top to bottom of the bodygraph.
CENTERS: Final = (
    "head",
    "ajna",
    "throat",
    "g",
    "heart",
    "sacral",
    "spleen",
    "solar_plexus",
    "root",
)
#: Inner authority: (centre, authority) in order of precedence (after ``lunar`` for reflectors,
#: before ``mental`` when none applies).
AUTHORITY_ORDER: Final[tuple[tuple[str, Authority], ...]] = (
    ("solar_plexus", "emotional"),
    ("sacral", "sacral"),
    ("spleen", "splenic"),
    ("heart", "ego"),
    ("g", "self_projected"),
)
STRATEGY: Final[dict[str, str]] = {
    "generator": "to_respond",
    "manifesting_generator": "to_respond",
    "projector": "wait_for_the_invitation",
    "manifestor": "to_inform",
    "reflector": "wait_a_lunar_cycle",
}
SIGNATURE: Final[dict[str, str]] = {
    "generator": "satisfaction",
    "manifesting_generator": "satisfaction",
    "projector": "success",
    "manifestor": "peace",
    "reflector": "surprise",
}
NOT_SELF_THEME: Final[dict[str, str]] = {
    "generator": "frustration",
    "manifesting_generator": "frustration",
    "projector": "bitterness",
    "manifestor": "anger",
    "reflector": "disappointment",
}
DEFINITIONS: Final[tuple[Definition, ...]] = (
    "none",
    "single",
    "split",
    "triple_split",
    "quadruple_split",
)
_ANGLE_OF_PROFILE: Final[dict[str, Angle]] = {
    "1/3": "right",
    "1/4": "right",
    "2/4": "right",
    "2/5": "right",
    "3/5": "right",
    "3/6": "right",
    "4/6": "right",
    "4/1": "juxtaposition",
    "5/1": "left",
    "5/2": "left",
    "6/2": "left",
    "6/3": "left",
}
PROFILES: Final = tuple(_ANGLE_OF_PROFILE)
#: Width of a gate and of a line, degrees of longitude.
GATE_DEG: Final = 5.625
LINE_DEG: Final = 0.9375
#: Bases around the wheel: 64 gates x 6 lines x 6 colours x 6 tones x 5 bases.
_BASES: Final = 69120
_BASES_PER_DEG: Final = _BASES / 360.0


@cache
def bodygraph_data() -> dict[str, Any]:
    """``data/human_design/bodygraph.json``, read once."""
    text = files("astro_calc").joinpath("data", "human_design", "bodygraph.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA: Final = bodygraph_data()
WHEEL_START_DEG: Final[float] = float(_DATA["wheel_start_deg"])
WHEEL: Final[tuple[int, ...]] = tuple(_DATA["wheel"])
CENTER_OF_GATE: Final[dict[int, str]] = {
    g: centre for centre, gates in _DATA["centers"].items() for g in gates
}
GATES_OF_CENTER: Final[dict[str, tuple[int, ...]]] = {
    c: tuple(_DATA["centers"][c]) for c in CENTERS
}
MOTORS: Final = frozenset(_DATA["motors"])
#: The 36 channels as (lower gate, higher gate).
CHANNELS: Final[tuple[tuple[int, int], ...]] = tuple(
    (int(c["gates"][0]), int(c["gates"][1])) for c in _DATA["channels"]
)
CHANNEL_NAMES: Final[dict[str, str]] = {
    f"{c['gates'][0]}-{c['gates'][1]}": str(c["name"]) for c in _DATA["channels"]
}
#: Per gate, the channels it belongs to.
_CHANNELS_OF_GATE: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    g: tuple(ch for ch in CHANNELS if g in ch) for g in range(1, 65)
}


class WheelPlace(msgspec.Struct, frozen=True, gc=False):
    """Where a longitude falls on the wheel: gate, line, colour, tone, base."""

    gate: int
    line: int
    color: int
    tone: int
    base: int


def wheel_place(longitude: float) -> WheelPlace:
    """Gate, line, colour, tone and base of an ecliptic longitude on the standard wheel: gate 25
    begins at 28 deg 15' Pisces (358.25 deg); 5.625 deg a gate, 0.9375 a line, then sixths for
    colour and tone and fifths for base. All five come from one whole count of bases so they
    agree at every edge (an edge belongs to the division it begins)."""
    n = int(((longitude - WHEEL_START_DEG) % 360.0) * _BASES_PER_DEG)
    if n >= _BASES:  # a longitude a hair below the wheel's start, rounded up to 360
        n = _BASES - 1
    return WheelPlace(
        WHEEL[n // 1080], n // 180 % 6 + 1, n // 30 % 6 + 1, n // 5 % 6 + 1, n % 5 + 1
    )


def channel_key(channel: tuple[int, int]) -> str:
    """``"13-33"``: the lower gate first."""
    return f"{channel[0]}-{channel[1]}"


def defined_channels(gates: frozenset[int] | set[int]) -> tuple[tuple[int, int], ...]:
    """The channels both of whose gates are in ``gates``, in table order (by lower gate)."""
    return tuple(ch for ch in CHANNELS if ch[0] in gates and ch[1] in gates)


def _graph(channels: tuple[tuple[int, int], ...]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for a, b in channels:
        ca, cb = CENTER_OF_GATE[a], CENTER_OF_GATE[b]
        graph.setdefault(ca, set()).add(cb)
        graph.setdefault(cb, set()).add(ca)
    return graph


def _component(graph: dict[str, set[str]], start: str) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        for nxt in graph.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


class Mechanics(msgspec.Struct, frozen=True, gc=False):
    """What the activated gates make of the bodygraph."""

    channels: tuple[tuple[int, int], ...]
    defined_centers: frozenset[str]
    type: HdType
    authority: Authority
    definition: Definition


def mechanics(gates: frozenset[int] | set[int]) -> Mechanics:
    """Channels, defined centres, type, authority and definition of a set of activated gates
    (the module docstring states the rules)."""
    channels = defined_channels(gates)
    graph = _graph(channels)
    defined = frozenset(graph)
    hd_type: HdType
    if not defined:
        hd_type = "reflector"
    else:
        motor_to_throat = "throat" in defined and bool(_component(graph, "throat") & MOTORS)
        if "sacral" in defined:
            hd_type = "manifesting_generator" if motor_to_throat else "generator"
        else:
            hd_type = "manifestor" if motor_to_throat else "projector"
    authority: Authority = "lunar" if hd_type == "reflector" else "mental"
    if hd_type != "reflector":
        for centre, name in AUTHORITY_ORDER:
            if centre in defined:
                authority = name
                break
    groups = 0
    seen: set[str] = set()
    for centre in CENTERS:
        if centre in defined and centre not in seen:
            groups += 1
            seen |= _component(graph, centre)
    return Mechanics(channels, defined, hd_type, authority, DEFINITIONS[min(groups, 4)])


def angle_of_profile(profile: str) -> Angle:
    """The incarnation cross's angle for a profile (module docstring)."""
    return _ANGLE_OF_PROFILE[profile]


def cross_name(sun_gate: int, angle: Angle) -> str:
    """The incarnation cross's name from the personality Sun's gate and the angle, e.g.
    ``"Right Angle Cross of the Sphinx 1"``, ``"Left Angle Cross of Masks 2"``,
    ``"Juxtaposition Cross of Listening"``."""
    entry = _DATA["crosses"][str(sun_gate)]
    quarter = int(entry["quarter"])
    if angle == "right":
        return f"Right Angle Cross of {entry['right']} {quarter}"
    if angle == "left":
        return f"Left Angle Cross of {entry['left']} {1 if quarter <= 2 else 2}"
    return f"Juxtaposition Cross of {entry['juxtaposition']}"


def channels_of_gate(gate: int) -> tuple[tuple[int, int], ...]:
    return _CHANNELS_OF_GATE[gate]
