"""The ``interpretations`` option of the calculation endpoints: one mechanism for every route.

A route offers it by declaring ``interpret=`` (:mod:`astro_server.features.common.calculation`
does the rest); its request model takes the option by inheriting
:class:`InterpretationOptions` (``interpretations`` ``none`` (default) | ``summary`` | ``full``,
``language`` ``en`` | ``th``). The route:

* is priced by ``@billable(base, variant=interpretation_variant)``: ``none`` charges the bare
  operation (its tier and price unchanged), ``summary``/``full`` the rows
  ``<base>.interpretations_summary`` / ``<base>.interpretations_full`` of the one price table
  (:func:`astro_server.platform.billing.pricing.variant_of`, which estimates use too);
* answers the calculation's body as before, plus ``interpretations`` (``{language, level,
  items}``, :func:`with_interpretations`) when asked for. With ``none`` the key is omitted and
  the body is byte for byte the bare calculation's;
* documents its 200 with :func:`interpreted_model`: the result's schema plus the optional
  ``interpretations``.

The texts are astro_calc's (:mod:`astro_calc.western.interpretation` for the natal chart, the
natal PDF's own source; :mod:`astro_calc.western.readings`; :mod:`astro_calc.vedic.readings`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Literal

import msgspec
from pydantic import BaseModel, Field, create_model

from astro_calc.interpretations import Basis, Interpretations, Item
from astro_calc.western.interpretation import natal_interpretation
from astro_calc.western.natal import NatalChart
from astro_server.platform.billing.pricing import variant_of
from astro_server.platform.msgspec_docs import response_model

InterpretationLevel = Literal["none", "summary", "full"]
_encoder = msgspec.json.Encoder()


class InterpretationOptions(BaseModel):
    """Mixed into a request model: the premium interpretation option."""

    interpretations: InterpretationLevel = Field(
        default="none",
        description=(
            "none (default): the calculation only. summary: one or two sentences per chart "
            "fact; full: the longer paragraphs too. Priced as their own operations "
            "(<operation>.interpretations_summary / _full) at a higher tier"
        ),
    )
    language: Literal["en", "th"] = Field(default="en", description="Language of the texts")


def interpretation_variant(operation: str) -> Callable[[Any], str]:
    """``billable``'s ``variant``: the operation a request is charged as (its ``sensitivity``
    option too, when the model has one: the most specific row of the price table)."""

    def choose(model: Any) -> str:
        params: dict[str, Any] = {"interpretations": model.interpretations}
        option = getattr(model, "sensitivity", None)
        if option is not None:
            params["sensitivity"] = option.model_dump()
        return variant_of(operation, params)

    return choose


def with_interpretations(body: bytes, found: Interpretations) -> bytes:
    """A JSON object's bytes with ``"interpretations"`` appended."""
    return body[:-1] + b',"interpretations":' + _encoder.encode(found) + b"}"


def natal_items(
    chart: NatalChart, language: Literal["en", "th"], level: Literal["summary", "full"]
) -> Interpretations:
    """The natal chart's texts (the natal PDF's source) in the common item shape."""
    natal = natal_interpretation(chart, language=language, level=level)
    items = tuple(
        Item(
            item.key,
            item.section,
            item.title,
            item.text,
            Basis(**msgspec.structs.asdict(item.basis)),
        )
        for item in natal.items
    )
    return Interpretations(language, level, items)


@cache
def interpreted_model(struct: type[msgspec.Struct], *, prefix: str = "") -> type[BaseModel]:
    """The documented 200 body: ``struct``'s schema plus the optional ``interpretations``."""
    base = response_model(struct, prefix=prefix)
    texts: Any = response_model(Interpretations, prefix="Interpretation") | None
    name = f"Interpreted{base.__name__}"
    model = create_model(
        name,
        __base__=base,
        __doc__=((struct.__doc__ or "").strip() + "\n\n").lstrip()
        + "``interpretations`` is present only when the request asked for a level.",
        interpretations=(
            texts,
            Field(default=None, description="The texts, when asked for (summary or full)"),
        ),
    )
    model.model_config = {**base.model_config, "title": name}
    model.model_rebuild(force=True)
    return model
