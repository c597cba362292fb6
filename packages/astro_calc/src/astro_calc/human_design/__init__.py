"""Human Design: the bodygraph of a birth (personality and design activations, gates, channels,
centres, type, authority, profile, definition, incarnation cross), the composite of two charts,
transits against a chart, and readings in English and Thai.

Conventions and references: :mod:`astro_calc.human_design.chart` (activations and the design
moment) and :mod:`astro_calc.human_design._mechanics` (the wheel and the rules).
"""

from astro_calc.human_design._mechanics import (
    AUTHORITY_ORDER,
    CENTERS,
    CHANNEL_NAMES,
    CHANNELS,
    GATE_DEG,
    LINE_DEG,
    PROFILES,
    WheelPlace,
    angle_of_profile,
    cross_name,
    wheel_place,
)
from astro_calc.human_design.chart import (
    BODIES,
    DESIGN_ARC_DEG,
    Activation,
    Activations,
    Center,
    HumanDesignChart,
    IncarnationCross,
    activations_at,
    chart_at,
    human_design_chart,
)
from astro_calc.human_design.readings import chart_interpretation, names
from astro_calc.human_design.relations import (
    CompositeCenter,
    Connection,
    HumanDesignComposite,
    HumanDesignTransits,
    TransitChannel,
    composite,
    transits,
)

__all__ = [
    "AUTHORITY_ORDER",
    "BODIES",
    "CENTERS",
    "CHANNELS",
    "CHANNEL_NAMES",
    "DESIGN_ARC_DEG",
    "GATE_DEG",
    "LINE_DEG",
    "PROFILES",
    "Activation",
    "Activations",
    "Center",
    "CompositeCenter",
    "Connection",
    "HumanDesignChart",
    "HumanDesignComposite",
    "HumanDesignTransits",
    "IncarnationCross",
    "TransitChannel",
    "WheelPlace",
    "activations_at",
    "angle_of_profile",
    "chart_at",
    "chart_interpretation",
    "composite",
    "cross_name",
    "human_design_chart",
    "names",
    "transits",
    "wheel_place",
]
