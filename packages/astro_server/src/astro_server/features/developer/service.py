"""What the session developer routes (:mod:`.session_routes`) read beyond the shared services:
the dashboard's overview and ledger rows with the report each row's job made.

Services: plain values or a :class:`~astro_server.platform.caller.Caller` in, no Quart.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from astro_server.features.reports.models import Report
from astro_server.platform import clock
from astro_server.platform.billing import usage
from astro_server.platform.caller import Caller
from astro_server.platform.models.accounts import Account, ApiKey
from astro_server.platform.models.delivery import WebhookEndpoint
from astro_server.platform.owned import owned_query


def month_start(now: datetime) -> datetime:
    """The first instant of ``now``'s UTC month."""
    moment = now.astimezone(UTC)
    return datetime(moment.year, moment.month, 1, tzinfo=UTC)


async def _month_groups(caller: Caller, start: datetime, now: datetime) -> list[dict[str, Any]]:
    if not caller.livemode or now <= start:
        return []  # test calls cost nothing: no ledger rows
    return await usage.usage(caller.account_id, start, now, "operation")


async def overview(caller: Caller, buy_credits_url: str | None) -> dict[str, Any]:
    """Balance and tier (fresh), this UTC month's spend (live mode; test calls cost nothing),
    the mode's key counts and webhook endpoints. The reads are independent: they run at once
    (one pooled connection each on PostgreSQL)."""
    now = clock.now()
    start = month_start(now)
    environment = "live" if caller.livemode else "test"
    mine = ApiKey.filter(account_id=caller.account_id, environment=environment)
    account, groups, active, revoked, endpoints = await asyncio.gather(
        Account.get(id=caller.account_id),
        _month_groups(caller, start, now),
        mine.filter(revoked_at=None).count(),
        mine.filter(revoked_at__isnull=False).count(),
        owned_query(caller, WebhookEndpoint, purpose="account").count(),
    )
    return {
        "account": {
            "id": account.id,
            "name": account.name,
            "tier": account.tier,
            "credits_balance": account.credits,
            "created_at": clock.iso(account.created_at),
        },
        "month": {
            "from": clock.iso(start),
            "to": clock.iso(now),
            "calls": sum(g["calls"] for g in groups),
            "credits_charged": sum(g["credits_charged"] for g in groups),
            "credits_refunded": sum(g["credits_refunded"] for g in groups),
            "net_credits": sum(g["net_credits"] for g in groups),
        },
        "keys": {"active": active, "revoked": revoked},
        "webhook_endpoints": endpoints,
        "buy_credits_url": buy_credits_url,
    }


async def ledger_page(
    account_id: str, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of the ledger (newest first) as the API shows it, plus ``report_id``: the
    report made by the row's job (one query for the page)."""
    rows, next_cursor = await usage.ledger_page(account_id, limit, cursor)
    job_ids = sorted({r.job_id for r in rows if r.job_id})
    reports: dict[str, str] = {}
    if job_ids:
        found = await Report.filter(account_id=account_id, job_id__in=job_ids).values_list(
            "job_id", "id"
        )
        reports = {str(job): str(report) for job, report in found}
    entries = [{**usage.ledger_view(r), "report_id": reports.get(r.job_id or "")} for r in rows]
    return entries, next_cursor


async def report_of_job(account_id: str, job_id: str) -> str | None:
    found = await Report.filter(account_id=account_id, job_id=job_id).values_list("id", flat=True)
    return str(found[0]) if found else None
