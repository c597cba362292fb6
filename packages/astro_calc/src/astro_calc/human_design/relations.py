"""Two charts together (the composite) and a moment's sky against a chart (transits).

Composite (Ra Uru Hu's connection theory, *The Definitive Book of Human Design*): for every
channel defined when the two bodygraphs are laid over each other (the union of their gates),
the kind of connection it is:

* ``electromagnetic``: each has one gate of the channel and neither has the other's; together
  they complete it (attraction);
* ``compromise``: one has the whole channel and the other only one of its gates (the one with
  the channel ``holder``; the other conditions the hanging gate);
* ``dominance``: one has the whole channel and the other neither gate (the ``holder``
  conditions the other);
* ``companionship``: both have the whole channel (friendship).

Transits: the thirteen activations of a moment (the same wheel and bodies as the chart's
personality side) against a chart: the channels defined when the transit's gates are added to
the chart's, each marked ``completed`` (the chart has one gate and the transit the other),
``transit`` (the transit alone has both gates) or ``natal`` (the chart's own), and the centres
the transit defines that the chart leaves open.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.human_design._mechanics import (
    CENTERS,
    Definition,
    channel_key,
    defined_channels,
    mechanics,
)
from astro_calc.human_design.chart import Activation, HumanDesignChart, activations_at

ConnectionKind = Literal["electromagnetic", "compromise", "dominance", "companionship"]
TransitKind = Literal["natal", "completed", "transit"]


class Connection(msgspec.Struct, frozen=True, gc=False):
    """One channel of the composite: its ``kind``, whose whole channel it is (``holder``:
    ``"a"``, ``"b"``, or None for electromagnetic and companionship) and each one's gates of
    it."""

    channel: str
    kind: ConnectionKind
    holder: Literal["a", "b"] | None
    gates_a: tuple[int, ...]
    gates_b: tuple[int, ...]


class CompositeCenter(msgspec.Struct, frozen=True, gc=False):
    name: str
    defined: bool
    defined_a: bool
    defined_b: bool


class HumanDesignComposite(msgspec.Struct, frozen=True, gc=False):
    """The composite of two charts: every channel defined together (``channels``, lower gate
    first), the ``connections`` by kind, the ``electromagnetic`` channels (those the two
    complete for each other and neither has alone), the composite's centres and definition,
    and both charts."""

    channels: tuple[str, ...]
    electromagnetic: tuple[str, ...]
    connections: tuple[Connection, ...]
    centers: tuple[CompositeCenter, ...]
    definition: Definition
    chart_a: HumanDesignChart
    chart_b: HumanDesignChart


def _gates(chart: HumanDesignChart) -> frozenset[int]:
    return frozenset(chart.gates)


def composite(chart_a: HumanDesignChart, chart_b: HumanDesignChart) -> HumanDesignComposite:
    """The composite of two Human Design charts (module docstring for the four kinds); both
    charts must use the same node (``node``)."""
    if chart_a.node != chart_b.node:
        raise CalcInputError("node", "both charts must use the same node")
    ga, gb = _gates(chart_a), _gates(chart_b)
    together = mechanics(ga | gb)
    connections: list[Connection] = []
    for ch in together.channels:
        in_a = tuple(g for g in ch if g in ga)
        in_b = tuple(g for g in ch if g in gb)
        holder: Literal["a", "b"] | None = None
        kind: ConnectionKind
        if len(in_a) == 2 and len(in_b) == 2:
            kind = "companionship"
        elif len(in_a) == 2 or len(in_b) == 2:
            holder = "a" if len(in_a) == 2 else "b"
            other = in_b if holder == "a" else in_a
            kind = "compromise" if other else "dominance"
        else:
            kind = "electromagnetic"
        connections.append(Connection(channel_key(ch), kind, holder, in_a, in_b))
    defined_a = {c.name for c in chart_a.centers if c.defined}
    defined_b = {c.name for c in chart_b.centers if c.defined}
    return HumanDesignComposite(
        channels=tuple(c.channel for c in connections),
        electromagnetic=tuple(c.channel for c in connections if c.kind == "electromagnetic"),
        connections=tuple(connections),
        centers=tuple(
            CompositeCenter(c, c in together.defined_centers, c in defined_a, c in defined_b)
            for c in CENTERS
        ),
        definition=together.definition,
        chart_a=chart_a,
        chart_b=chart_b,
    )


class TransitChannel(msgspec.Struct, frozen=True, gc=False):
    channel: str
    kind: TransitKind


class HumanDesignTransits(msgspec.Struct, frozen=True, gc=False):
    """A moment's ``activations`` and activated ``gates`` against a chart: every channel
    defined with the transit (``channels`` with their kind), the centres defined then
    (``defined_centers``) and those among them the chart leaves open (``centers_defined_by_
    transit``)."""

    moment: datetime
    activations: tuple[Activation, ...]
    gates: tuple[int, ...]
    channels: tuple[TransitChannel, ...]
    defined_centers: tuple[str, ...]
    centers_defined_by_transit: tuple[str, ...]


def transits(chart: HumanDesignChart, moment: datetime) -> HumanDesignTransits:
    """The sky at ``moment`` (an aware datetime) against ``chart``, with the chart's node
    (module docstring); positions as the chart's personality side."""
    if moment.tzinfo is None:
        raise CalcInputError("moment", "a timezone-aware date-time is required")
    acts = activations_at(ephemeris.julian_day(moment), node=chart.node)
    natal = _gates(chart)
    sky = frozenset(a.gate for a in acts)
    natal_channels = set(defined_channels(natal))
    together = mechanics(natal | sky)
    channels = []
    for ch in together.channels:
        kind: TransitKind
        if ch in natal_channels:
            kind = "natal"
        elif ch[0] in sky and ch[1] in sky:
            kind = "transit"
        else:
            kind = "completed"
        channels.append(TransitChannel(channel_key(ch), kind))
    natal_defined = {c.name for c in chart.centers if c.defined}
    defined = tuple(c for c in CENTERS if c in together.defined_centers)
    return HumanDesignTransits(
        moment=moment,
        activations=acts,
        gates=tuple(sorted(sky)),
        channels=tuple(channels),
        defined_centers=defined,
        centers_defined_by_transit=tuple(c for c in defined if c not in natal_defined),
    )
