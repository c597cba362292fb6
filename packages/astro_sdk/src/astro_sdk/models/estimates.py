"""Models of the free preflight ``POST /api/v3/estimates``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["Estimate", "EstimateRequest"]


class EstimateRequest(RequestModel):
    operation: str = Field(min_length=1, max_length=100)
    params: dict[str, Any] = Field(default_factory=dict)


class Estimate(ResponseModel):
    """Whether the caller may run ``operation`` now, and what it would cost."""

    operation: str
    eligible: bool
    reasons: list[str]
    """Why not eligible (tier too low, balance too small); empty when eligible."""
    tier_required: str
    tier: str
    """The caller's tier."""
    quantity: int
    """Units priced (records of a batch; 1 for flat-priced operations)."""
    estimated_credits: int
    balance: int
    estimated_cost_micros: int | None = None
    """The provider's estimated cost of the run (visual readings), else None."""
