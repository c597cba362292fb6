"""End to end through the SDK against a live API process (PostgreSQL, Redis): a login's stored
language (``PATCH /auth/me``, ``client.auth.update_preferences``) comes back at the next
sign-in; the reports list names each report's person (``subject_names``); a tier refusal says
so in its ``code`` (``tier_required``), apart from a role's."""

from __future__ import annotations

import pytest

import astro_sdk
from astro_sdk import AstroClient
from tests._support.accounts import create_account
from tests._support.stack import Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PASSWORD = "correct horse battery staple"
SUBJECT = {"date": "1985-11-02", "time": "14:45", "latitude": 51.5074, "longitude": -0.1278}


def test_language_names_and_tier_refusal_through_the_sdk(production_stack: Stack) -> None:
    api = production_stack.server()  # no worker: the async report stays queued
    create_account(
        production_stack, tier="pro", credits=100, name="prefs", customer_email="pro@example.com",
        password=PASSWORD,
    )  # fmt: skip
    create_account(
        production_stack, tier="starter", credits=100, name="prefs",
        customer_email="starter@example.com", password=PASSWORD,
    )  # fmt: skip
    with AstroClient(base_url=api.base_url) as anonymous:
        customer = anonymous.auth.login("pro@example.com", PASSWORD)
        session = customer.auth.session
        assert session is not None
        assert session.customer.language is None
        changed = customer.auth.update_preferences(language="th")
        assert (changed.email, changed.language) == ("pro@example.com", "th")
        again = anonymous.auth.login("pro@example.com", PASSWORD).auth.session
        assert again is not None
        assert again.customer.language == "th"
        assert customer.auth.update_preferences(language="en").language == "en"

        queued = customer.customer_reports.create_natal(
            birth_subject=SUBJECT, name="Emma Clarke", run_async=True
        )
        assert customer.customer_reports.get(queued.report_id).subject_names == ["Emma Clarke"]
        listed = next(iter(customer.customer_reports.list(limit=5)))
        assert (listed.report_id, listed.kind, listed.subject_names) == (
            queued.report_id, "natal", ["Emma Clarke"],
        )  # fmt: skip

        starter = anonymous.auth.login("starter@example.com", PASSWORD)
        with pytest.raises(astro_sdk.PermissionDeniedError) as refused:
            starter.customer_reports.create_natal(birth_subject=SUBJECT, name="X", run_async=True)
        assert refused.value.code == "tier_required"
        assert "'pro' tier" in refused.value.message
