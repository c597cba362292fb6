"""A login's own preferences: the interface language (``customers.language``)."""

from __future__ import annotations

from typing import Any, Final

from astro_server.platform.models.accounts import Customer

#: The interface languages a login may choose (the portal's messages/ files).
LANGUAGES: Final = ("en", "th")


def customer_view(customer: Customer) -> dict[str, Any]:
    """The login as ``POST /auth/login`` and ``PATCH /auth/me`` answer it."""
    return {
        "id": customer.id,
        "email": customer.email,
        "account_id": customer.account_id,  # type: ignore[attr-defined]
        "language": customer.language,
    }


async def set_language(customer_id: str, language: str) -> Customer:
    """Store the login's language; returns the login as stored."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    await Customer.filter(id=customer_id).update(language=language)
    return await Customer.get(id=customer_id)
