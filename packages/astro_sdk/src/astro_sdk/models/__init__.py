"""Pydantic models of every request and response, one module per tag group."""

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.auth import Customer, LoginRequest, LogoutResult, Session
from astro_sdk.models.estimates import Estimate, EstimateRequest
from astro_sdk.models.interpretations import (
    InterpretationBasis,
    InterpretationItem,
    InterpretationOptions,
    Interpretations,
)
from astro_sdk.models.jobs import (
    AsyncJobHandle,
    Job,
    JobHandle,
    JobListQuery,
    JobPage,
)
from astro_sdk.models.sensitivity import (
    RectificationEvent,
    RectificationWindow,
    Sensitivity,
    SensitivityItem,
    SensitivityOption,
    TimeChange,
)

__all__ = [
    "AsyncJobHandle",
    "Customer",
    "Estimate",
    "EstimateRequest",
    "InterpretationBasis",
    "InterpretationItem",
    "InterpretationOptions",
    "Interpretations",
    "Job",
    "JobHandle",
    "JobListQuery",
    "JobPage",
    "LoginRequest",
    "LogoutResult",
    "RectificationEvent",
    "RectificationWindow",
    "RequestModel",
    "ResponseModel",
    "Sensitivity",
    "SensitivityItem",
    "SensitivityOption",
    "Session",
    "TimeChange",
]
