"""``POST /api/v3/estimates``: free preflight of eligibility and price for a billable operation."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_request

from astro_server.platform.auth import accounts
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.pricing import (
    get_operation,
    price,
    quantity_from_params,
    tier_allows,
    variant_of,
)
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response

blueprint = Blueprint("estimates", __name__)


class EstimateRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # documented JSON types only (see decisions.md)

    operation: str = Field(
        min_length=1, max_length=100, description="Operation name, e.g. western.natal"
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="The request you intend to send (prices per-unit work)"
    )


class EstimateResponse(BaseModel):
    operation: str = Field(description="The operation priced (an interpretation row when asked)")
    eligible: bool
    reasons: list[str] = Field(description="Why not eligible; empty when eligible")
    tier_required: str
    tier: str = Field(description="The caller's tier")
    quantity: int
    estimated_credits: int
    balance: int
    estimated_cost_micros: int | None = Field(
        default=None,
        description="Our estimated cost of running it; visual readings only (docs/decisions.md)",
    )


@blueprint.post("/api/v3/estimates")
@require_api_key
@validate_request(EstimateRequest)
@document_response(EstimateResponse, 200)
@tag(["Developer workflow"])
@operation_id("createEstimate")
async def create_estimate(data: EstimateRequest, caller: Caller) -> Response:
    """Eligibility and estimated debit, from the same price table as the real debit. Free.

    ``params.interpretations`` (``summary`` or ``full``) on an operation that offers them prices
    its interpretation row (``<operation>.interpretations_<level>``), which ``operation`` in the
    answer then names; ``none`` or no option prices the bare calculation. ``params.sensitivity``
    (an object, e.g. ``{"uncertainty_minutes": 30}``) on a birth-based operation prices its
    ``.sensitivity`` row, with interpretations ``<operation>.interpretations_<level>.sensitivity``
    (the two surcharges added)."""
    get_operation(data.operation)
    name = variant_of(data.operation, data.params)
    op = get_operation(name)
    quantity = quantity_from_params(op, data.params)
    cost = price(op, quantity)
    account = await accounts.caller_account(caller)  # fresh balance
    reasons: list[str] = []
    if not tier_allows(account.tier, op.tier):
        reasons.append(f"Needs the {op.tier!r} tier or higher; this account is {account.tier!r}.")
    if account.credits < cost:
        reasons.append(f"Needs {cost} credits; the balance is {account.credits}.")
    body: dict[str, Any] = {
        "operation": name,
        "eligible": not reasons,
        "reasons": reasons,
        "tier_required": op.tier,
        "tier": account.tier,
        "quantity": quantity,
        "estimated_credits": cost,
        "balance": account.credits,
    }
    cost_micros = _estimated_cost_micros(name, data.params)
    if cost_micros is not None:  # only where there is one (visual readings)
        body["estimated_cost_micros"] = cost_micros
    return json_response(body)


def _estimated_cost_micros(operation: str, params: dict[str, Any]) -> int | None:
    """The visual reading's ``estimated_cost_micros`` as recorded at queue; None elsewhere."""
    if operation != "visual_readings.upload":
        return None
    from quart import current_app

    from astro_server.features.visual.writer import estimate_cost_micros

    kind = "palm" if params.get("kind") == "palm" else "face"
    return estimate_cost_micros(current_app.config["ASTRO_SETTINGS"], kind)
