"""Human Design tag group: the chart (bodygraph), the composite of two people, transits against
a chart, and the bodygraph picture, over :mod:`astro_calc.human_design`.

Conventions (astro_calc's, docs/decisions.md "Human Design"): the design moment is when the Sun
stood 88 degrees of longitude before its birth place (root-found to the second); the true node
by default (``node: "mean"`` for the mean node); gate 25 begins at 28 deg 15' Pisces, 5.625
degrees a gate and 0.9375 a line; a manifesting generator has the Sacral defined and a motor
(the Sacral counts) connected to the Throat; the inner authority is the first defined of
solar plexus, sacral, spleen, heart (ego), G (self-projected), else mental, and a reflector's is
lunar.

* ``POST /api/v3/human-design/chart``: the chart; ``interpretations`` (summary or full, en/th)
  adds readings of type, strategy, authority, profile and the nine centres; ``sensitivity``
  adds how close type, authority, profile, definition, cross, centres, channels and every gate
  are to changing with the birth time.
* ``POST /api/v3/human-design/composite``: ``subject_a`` and ``subject_b`` laid over each other:
  the channels they define together, each with its connection kind.
* ``POST /api/v3/human-design/transits``: the sky at ``moment`` (default now) against a chart.
* ``POST /api/v3/human-design/bodygraph``: the bodygraph picture (SVG or PNG).

The three JSON answers carry ``disclaimer`` ``{code: "human_design", text}`` in the request's
``language`` (astro_calc.disclaimers); the composite's two charts do not repeat it.

A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``) plus an optional IANA ``timezone`` and ``fold``, or
``{"profile_id": ...}``; a refused subject field is named ``subject.<field>`` (``subject_a.``,
``subject_b.`` in a composite).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal, TypeVar

import msgspec
from pydantic import BaseModel, Field, field_validator
from quart import Blueprint

from astro_calc import western
from astro_calc.disclaimers import DisclaimerNote, disclaimer_for
from astro_calc.human_design import (
    HumanDesignChart,
    HumanDesignComposite,
    HumanDesignTransits,
    chart_interpretation,
    composite,
    human_design_chart,
    transits,
)
from astro_calc.sensitivity import Sensitivity, human_design_sensitivity
from astro_server.drawing.bodygraph import bodygraph_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.interpretations import InterpretationOptions
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import in_ephemeris_span, utc_or_now
from astro_server.features.common.sensitivity import SensitivityOptions
from astro_server.features.common.subject import BirthSubject, timezone_field

blueprint = Blueprint("human_design", __name__)
TAG = ["Human Design"]
# Struct names such as Center, Activation and Connection are generic: prefix this group's
# OpenAPI schemas.
DOCS_PREFIX = "HumanDesign"
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX)

NodeKind = Literal["true", "mean"]
DISCLAIMER_CODE = "human_design"
Answer = TypeVar("Answer", bound=msgspec.Struct)


class HumanDesignChartAnswer(HumanDesignChart, frozen=True, gc=False):
    """The bodygraph of a birth (DESIGN.md "Human Design") and the ``disclaimer`` of a Human
    Design reading."""

    disclaimer: DisclaimerNote


class HumanDesignCompositeAnswer(HumanDesignComposite, frozen=True, gc=False):
    """Two charts laid over each other, and the ``disclaimer`` of a Human Design reading."""

    disclaimer: DisclaimerNote


class HumanDesignTransitsAnswer(HumanDesignTransits, frozen=True, gc=False):
    """A moment's sky against a chart, and the ``disclaimer`` of a Human Design reading."""

    disclaimer: DisclaimerNote


def _language_field() -> Any:
    return Field(default="en", description="Language of the disclaimer: en (default) or th")


def _node_field() -> Any:
    return Field(
        default="true",
        description="The lunar node of the north_node/south_node activations: true (default, "
        "as Jovian Archive) or mean",
    )


class HumanDesignSubject(BirthSubject):
    timezone: str | None = timezone_field("Europe/Zurich")
    fold: Literal[0, 1] = Field(
        default=0, description="For a local time repeated at the end of DST: 0 earlier, 1 later"
    )

    def repeated_time_fold(self) -> int:
        return self.fold

    def to_calc(self) -> western.BirthSubject:
        return western.BirthSubject(
            date=self.date,
            time=self.time,
            latitude=self.latitude,
            longitude=self.longitude,
            timezone_offset_minutes=self.timezoneOffsetMinutes,
            timezone=self.timezone,
            fold=self.fold,
        )


class HumanDesignChartRequest(InterpretationOptions, SensitivityOptions):
    subject: HumanDesignSubject
    node: NodeKind = _node_field()


class HumanDesignCompositeRequest(BaseModel):
    subject_a: HumanDesignSubject
    subject_b: HumanDesignSubject
    node: NodeKind = _node_field()
    language: Literal["en", "th"] = _language_field()


class HumanDesignTransitsRequest(BaseModel):
    subject: HumanDesignSubject
    moment: dt.datetime | None = Field(
        default=None,
        description="The transit instant (UTC if naive; default now), years of the ephemeris",
    )
    node: NodeKind = _node_field()
    language: Literal["en", "th"] = _language_field()

    _in_span = field_validator("moment")(in_ephemeris_span)


class HumanDesignBodygraphRequest(PictureOptions):
    subject: HumanDesignSubject
    node: NodeKind = _node_field()


def _with_disclaimer(found: msgspec.Struct, answer: type[Answer], language: str) -> Answer:
    """``found`` as its answer type: the same fields and the Human Design disclaimer."""
    note = disclaimer_for(DISCLAIMER_CODE, language)
    return answer(**msgspec.structs.asdict(found), disclaimer=note)


def _chart(subject: HumanDesignSubject, node: NodeKind, prefix: str = "") -> HumanDesignChart:
    return human_design_chart(subject.to_calc(), node=node, field_prefix=prefix)


def _chart_sensitivity(data: HumanDesignChartRequest, minutes: float) -> Sensitivity:
    return human_design_sensitivity(
        data.subject.to_calc(), node=data.node, uncertainty_minutes=minutes
    )


@route(
    "POST /api/v3/human-design/chart",
    "humanDesignChart",
    price="human_design.chart",
    body=HumanDesignChartRequest,
    result=HumanDesignChartAnswer,
    interpret=lambda chart, data: chart_interpretation(
        chart, language=data.language, level=data.interpretations
    ),
    sensitivity=_chart_sensitivity,
    names_subject=True,
)
def human_design_chart_route(data: HumanDesignChartRequest) -> HumanDesignChartAnswer:
    """Human Design chart: type, strategy, signature, not-self theme, inner authority, profile,
    definition, incarnation cross, the nine centres, the defined channels and the thirteen
    personality and design activations (gate, line, color, tone, base).

    The design moment is the Sun 88 degrees of longitude before birth (``design_utc``, to the
    second); ``node`` true (default) or mean. ``interpretations`` (summary or full, with
    ``language`` en or th) adds readings of type, strategy, authority, profile and the centres,
    charged as the operation's interpretation row (tier pro). ``sensitivity``
    (``{"uncertainty_minutes": 0..720}``) adds how close type, authority, profile, definition,
    cross, centres, channels and each activation's gate are to changing with the birth time,
    charged as the ``.sensitivity`` row (+1 credit). ``disclaimer`` is in ``language``."""
    chart = _chart(data.subject, data.node)
    return _with_disclaimer(chart, HumanDesignChartAnswer, data.language)


@route(
    "POST /api/v3/human-design/composite",
    "humanDesignComposite",
    price="human_design.composite",
    body=HumanDesignCompositeRequest,
    result=HumanDesignCompositeAnswer,
)
def human_design_composite(data: HumanDesignCompositeRequest) -> HumanDesignCompositeAnswer:
    """Two charts laid over each other: the channels defined together, each with its connection
    kind (electromagnetic, compromise, dominance, companionship) and holder, the centres
    defined together and by each, the composite definition, and both charts."""
    together = composite(
        _chart(data.subject_a, data.node, "subject_a."),
        _chart(data.subject_b, data.node, "subject_b."),
    )
    return _with_disclaimer(together, HumanDesignCompositeAnswer, data.language)


@route(
    "POST /api/v3/human-design/transits",
    "humanDesignTransits",
    price="human_design.transits",
    body=HumanDesignTransitsRequest,
    result=HumanDesignTransitsAnswer,
    names_subject=True,
)
def human_design_transits(data: HumanDesignTransitsRequest) -> HumanDesignTransitsAnswer:
    """The sky at ``moment`` (default now) against a chart: the thirteen transit activations and
    their gates, every channel defined with the transit (natal, completed by the transit, or the
    transit's own) and the centres the transit defines that the chart leaves open."""
    # Now is taken to the second (the answer echoes it); a given moment is kept as it is.
    moment = utc_or_now(data.moment)
    if data.moment is None:
        moment = moment.replace(microsecond=0)
    found = transits(_chart(data.subject, data.node), moment)
    return _with_disclaimer(found, HumanDesignTransitsAnswer, data.language)


@route(
    "POST /api/v3/human-design/bodygraph",
    "humanDesignBodygraph",
    picture=True,
    price="human_design.bodygraph",
    body=HumanDesignBodygraphRequest,
    names_subject=True,
)
def human_design_bodygraph(data: HumanDesignBodygraphRequest) -> str:
    """The bodygraph picture: the nine centres coloured when defined, channels and gates drawn
    (personality black, design red), the personality and design columns beside it."""
    return bodygraph_svg(_chart(data.subject, data.node), **data.drawing_options())
