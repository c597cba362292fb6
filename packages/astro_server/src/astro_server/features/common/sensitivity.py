"""The birth-time ``sensitivity`` option of the birth-based calculations (issue 34).

A route offers it by declaring ``sensitivity=`` (:mod:`astro_server.features.common.calculation`
does the rest); its request model takes the option by inheriting :class:`SensitivityOptions`
(``sensitivity: {"uncertainty_minutes": N}``, N from 0 to 720; outside, a 400 naming
``sensitivity.uncertainty_minutes``). The route:

* is priced through ``@billable(base, variant=...)``: :func:`sensitivity_variant` (or
  :func:`astro_server.features.common.interpretations.interpretation_variant`, which reads this
  option too) charges ``<base>.sensitivity`` (the bare price plus
  :data:`~astro_server.platform.billing.pricing.SENSITIVITY_EXTRA_CREDITS`, same tier), or
  ``<base>.interpretations_<level>.sensitivity`` with interpretations as well; estimates price
  the same rows (:func:`astro_server.platform.billing.pricing.variant_of`);
* appends the calculation's :class:`astro_calc.sensitivity.Sensitivity` to its answer with
  :func:`with_sensitivity` as ``sensitivity``. Without the option the key is absent and the body
  is byte for byte the bare calculation's;
* documents its 200 with :func:`sensitive_model`: the documented body plus the optional
  ``sensitivity``.

The crossings are astro_calc's (root finding on the chart's own functions, to 1 second).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec
from pydantic import BaseModel, Field, create_model

from astro_calc.sensitivity import MAX_UNCERTAINTY_MINUTES, Sensitivity
from astro_server.platform.billing.pricing import variant_of
from astro_server.platform.msgspec_docs import response_model

_encoder = msgspec.json.Encoder()


class SensitivityOption(BaseModel):
    """How uncertain the birth time is."""

    uncertainty_minutes: float = Field(
        default=0.0,
        ge=0,
        le=MAX_UNCERTAINTY_MINUTES,
        description=(
            "Minutes either side of the given time the birth may lie in (0 to 720): results "
            "that change within it are listed in sensitivity.uncertain"
        ),
    )


class SensitivityOptions(BaseModel):
    """Mixed into a request model: the birth-time sensitivity option."""

    sensitivity: SensitivityOption | None = Field(
        default=None,
        description=(
            "Adds ``sensitivity``: for each result depending on the birth time, the minutes "
            "before and after the given time at which it changes (to 1 second) and what to; "
            "charged as the operation's sensitivity row (+1 credit, same tier). Beyond 60 "
            "degrees of latitude the results that depend on the ascendant, the midheaven or "
            "the house cusps are left out, with a warning in sensitivity.warnings"
        ),
    )


def sensitivity_variant(operation: str) -> Callable[[Any], str]:
    """``billable``'s ``variant`` for a route with the sensitivity option."""

    def choose(model: Any) -> str:
        option = model.sensitivity
        return variant_of(operation, {} if option is None else {"sensitivity": option.model_dump()})

    return choose


def with_sensitivity(body: bytes, sensitivity: Sensitivity | None) -> bytes:
    """A JSON object's bytes with ``"sensitivity"`` appended; unchanged when ``None``."""
    if sensitivity is None:
        return body
    return body[:-1] + b',"sensitivity":' + _encoder.encode(sensitivity) + b"}"


@cache
def sensitive_model(base: type[BaseModel]) -> type[BaseModel]:
    """The documented 200 body: ``base`` plus the optional ``sensitivity``."""
    struct: Any = response_model(Sensitivity) | None
    name = f"Sensitive{base.__name__}"
    model = create_model(
        name,
        __base__=base,
        __doc__=((base.__doc__ or "").strip() + "\n\n").lstrip()
        + "``sensitivity`` is present only when the request asked for it.",
        sensitivity=(
            struct,
            Field(default=None, description="Birth-time sensitivity, when asked for"),
        ),
    )
    model.model_config = {**base.model_config, "title": name}
    model.model_rebuild(force=True)
    return model
