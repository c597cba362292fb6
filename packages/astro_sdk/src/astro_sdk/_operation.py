"""One entry of the SDK's operation registry: what the SDK believes about one API route.

The OpenAPI drift test compares every ``Operation`` with the server's ``/openapi.json``:
operation id, method, path, credential kind, success status, and the request, query and
response models field by field.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, Literal, TypeVar

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["Credential", "Operation", "route"]

ResponseT = TypeVar("ResponseT", bound=ResponseModel)
HTTPMethod = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]


class Credential(Enum):
    """The credential kind a route takes."""

    NONE = "none"
    API_KEY = "api_key"  # sent as ``X-API-Key``
    SESSION = "session"  # sent as ``Authorization: Bearer service_sess_...``


@dataclass(frozen=True)
class Operation(Generic[ResponseT]):
    """One API route as the SDK calls it.

    ``path`` uses the OpenAPI template form (``/api/v3/jobs/{job_id}``). ``billable`` POSTs carry
    an ``Idempotency-Key`` (one per logical call, reused on every retry).
    """

    operation_id: str
    method: HTTPMethod
    path: str
    credential: Credential
    response_model: type[ResponseT]
    request_model: type[RequestModel] | None = None
    query_model: type[RequestModel] | None = None
    success_status: int = 200
    billable: bool = False

    def describe(self) -> str:
        return f"{self.operation_id} ({self.method} {self.path})"


def route(
    operation_id: str,
    method: HTTPMethod,
    path: str,
    response: type[ResponseT],
    *,
    credential: Credential,
    request: type[RequestModel] | None = None,
    query: type[RequestModel] | None = None,
    status: int = 200,
    billable: bool = False,
) -> Operation[ResponseT]:
    """An :class:`Operation` in the short form the resource modules write their registries in
    (each binds its credential, and any default query model, with ``functools.partial``)."""
    return Operation(
        operation_id=operation_id,
        method=method,
        path=path,
        credential=credential,
        response_model=response,
        request_model=request,
        query_model=query,
        success_status=status,
        billable=billable,
    )
