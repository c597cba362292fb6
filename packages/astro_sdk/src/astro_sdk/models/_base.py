"""Base classes of every request and response model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, PrivateAttr

if TYPE_CHECKING:
    from astro_sdk._response import APIResponse

__all__ = ["RequestModel", "ResponseModel"]


class RequestModel(BaseModel):
    """A request body or query: validated before sending; unknown fields are refused.

    Only the fields the caller set are sent (``exclude_unset``), so the server's defaults apply.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class ResponseModel(BaseModel):
    """A response body, parsed leniently: a field the server adds later is kept in
    ``model_extra`` and breaks nothing.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    _api_response: APIResponse | None = PrivateAttr(default=None)

    @property
    def api_response(self) -> APIResponse:
        """The HTTP response this object was parsed from: credit and rate-limit headers,
        request id, the raw ``httpx.Response``. Only top-level results carry one."""
        if self._api_response is None:
            raise AttributeError("this object was not parsed from a response of its own")
        return self._api_response
