"""The platform's own periodic tasks: job sweeper, abandoned-charge refunds, record and file
expiry, usage roll-up."""

from __future__ import annotations

import logging
from datetime import timedelta

from astro_server.platform import jobs
from astro_server.platform.billing import idempotency
from astro_server.platform.billing import ledger as billing
from astro_server.scheduler import periodic

log = logging.getLogger("astro_server.maintenance")


@periodic(every_s=lambda s: s.sweep_interval_s, name="jobs.sweep")
async def sweep_jobs() -> None:
    counts = await jobs.sweep_jobs()
    if any(counts.values()):
        log.info("job sweep: %s", counts)


@periodic(every_s=60, name="billing.refund_abandoned_claims")
async def refund_abandoned_claims() -> None:
    refunded = await billing.refund_abandoned_claims(timedelta(minutes=10))
    if refunded:
        log.warning("refunded %d charges of requests that never finished", refunded)


@periodic(every_s=3600, name="idempotency.purge_expired")
async def purge_idempotency_records() -> None:
    await idempotency.purge_expired()


@periodic(every_s=300, name="files.delete_expired")
async def delete_expired_files() -> None:
    from astro_server.platform import files

    deleted = await files.delete_expired_files()
    if deleted:
        log.info("deleted %d files past their retention", deleted)


@periodic(every_s=300, name="usage.roll_up")
async def roll_up_usage() -> None:
    from astro_server.platform.billing import usage

    advanced = await usage.roll_up_closed_days()
    if advanced:
        log.info("summed the closed days of %d accounts into usage_daily", advanced)
