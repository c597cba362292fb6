"""``client.estimates``: the free preflight of a billable operation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.estimates import Estimate, EstimateRequest

__all__ = ["AsyncEstimates", "Estimates"]

CREATE_ESTIMATE = Operation(
    operation_id="createEstimate",
    method="POST",
    path="/api/v3/estimates",
    credential=Credential.API_KEY,
    response_model=Estimate,
    request_model=EstimateRequest,
)
OPERATIONS = (CREATE_ESTIMATE,)


class Estimates(SyncResource):
    """``client.estimates``: the free preflight of a billable operation."""

    operations = OPERATIONS

    def create(self, *, operation: str, params: Mapping[str, Any] | None = None) -> Estimate:
        """Eligibility (tier, balance) and the credits ``operation`` would debit with
        ``params``; free of charge. The real call stays authoritative."""
        body = validate_request(EstimateRequest, {"operation": operation, "params": params})
        return self._client.request(CREATE_ESTIMATE, body=body)


class AsyncEstimates(AsyncResource):
    """``client.estimates``: the free preflight of a billable operation."""

    operations = OPERATIONS

    async def create(self, *, operation: str, params: Mapping[str, Any] | None = None) -> Estimate:
        """Eligibility and estimated debit of ``operation``; see :meth:`Estimates.create`."""
        body = validate_request(EstimateRequest, {"operation": operation, "params": params})
        return await self._client.request(CREATE_ESTIMATE, body=body)
