"""``client.numerology``: the numerology profile of a name and birth date (billable: an
``Idempotency-Key`` per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.numerology import NumerologyRequest, NumerologyResult, NumerologySystem

__all__ = ["AsyncNumerology", "Numerology"]

PROFILE: Operation[NumerologyResult] = Operation(
    operation_id="numerologyProfile",
    method="POST",
    path="/api/v3/numerology/profile",
    credential=Credential.API_KEY,
    response_model=NumerologyResult,
    request_model=NumerologyRequest,
    billable=True,
)
OPERATIONS = (PROFILE,)


def _profile_body(
    name: str,
    birth_date: dt.date | str,
    system: NumerologySystem | None,
    on_date: dt.date | str | None,
    phone: str | None,
    language: Literal["en", "th"] | None,
) -> NumerologyRequest:
    return validate_request(
        NumerologyRequest,
        {
            "name": name,
            "birth_date": birth_date,
            "system": system,
            "on_date": on_date,
            "phone": phone,
            "language": language,
        },
    )


class Numerology(SyncResource):
    """``client.numerology``: the numerology profile of a name and birth date (billable: an
    ``Idempotency-Key`` per call, reused on retries)."""

    operations = OPERATIONS

    def profile(
        self,
        *,
        name: str,
        birth_date: dt.date | str,
        system: NumerologySystem | None = None,
        on_date: dt.date | str | None = None,
        phone: str | None = None,
        language: Literal["en", "th"] | None = None,
        idempotency_key: str | None = None,
    ) -> NumerologyResult:
        """``POST /api/v3/numerology/profile``: life path, expression, soul urge, personality,
        birthday, maturity and the personal year, month and day on ``on_date``; the Thai reading
        of a Thai-script name, and of ``phone`` when given."""
        body = _profile_body(name, birth_date, system, on_date, phone, language)
        return self._client.request(PROFILE, body=body, idempotency_key=idempotency_key)


class AsyncNumerology(AsyncResource):
    """``client.numerology``: the numerology profile of a name and birth date (billable: an
    ``Idempotency-Key`` per call, reused on retries)."""

    operations = OPERATIONS

    async def profile(
        self,
        *,
        name: str,
        birth_date: dt.date | str,
        system: NumerologySystem | None = None,
        on_date: dt.date | str | None = None,
        phone: str | None = None,
        language: Literal["en", "th"] | None = None,
        idempotency_key: str | None = None,
    ) -> NumerologyResult:
        """``POST /api/v3/numerology/profile``: life path, expression, soul urge, personality,
        birthday, maturity and the personal year, month and day on ``on_date``; the Thai reading
        of a Thai-script name, and of ``phone`` when given."""
        body = _profile_body(name, birth_date, system, on_date, phone, language)
        return await self._client.request(PROFILE, body=body, idempotency_key=idempotency_key)
