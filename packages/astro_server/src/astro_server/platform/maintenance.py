"""The platform's own periodic tasks: job sweeper, abandoned-charge refunds, record and file
expiry, usage roll-up."""

from __future__ import annotations

import logging
from datetime import timedelta

from astro_server.platform import jobs
from astro_server.platform.billing import idempotency
from astro_server.platform.billing import ledger as billing
from astro_server.platform.periodic import PeriodicTask

log = logging.getLogger("astro_server.maintenance")


async def sweep_jobs() -> None:
    counts = await jobs.sweep_jobs()
    if any(counts.values()):
        log.info("job sweep: %s", counts)


async def refund_abandoned_claims() -> None:
    from astro_server.platform import runtime

    lease = timedelta(seconds=runtime.settings().claim_lease_s)
    refunded = await billing.refund_abandoned_claims(lease)
    if refunded:
        log.warning("refunded %d charges of requests that never finished", refunded)


async def purge_idempotency_records() -> None:
    await idempotency.purge_expired()


async def delete_expired_files() -> None:
    from astro_server.platform import files

    deleted = await files.delete_expired_files()
    if deleted:
        log.info("deleted %d files past their retention", deleted)


async def roll_up_usage() -> None:
    from astro_server.platform.billing import usage

    advanced = await usage.roll_up_closed_days()
    if advanced:
        log.info("summed the closed days of %d accounts into usage_daily", advanced)


SWEEP_JOBS = PeriodicTask("jobs.sweep", lambda s: s.sweep_interval_s, sweep_jobs)

#: Every third of a lease: a dead process's claims are refunded within about 1.3 leases.
REFUND_ABANDONED_CLAIMS = PeriodicTask(
    "billing.refund_abandoned_claims",
    lambda s: max(1.0, s.claim_lease_s / 3),
    refund_abandoned_claims,
)

PURGE_IDEMPOTENCY_RECORDS = PeriodicTask(
    "idempotency.purge_expired", 3600, purge_idempotency_records
)

DELETE_EXPIRED_FILES = PeriodicTask("files.delete_expired", 300, delete_expired_files)

ROLL_UP_USAGE = PeriodicTask("usage.roll_up", 300, roll_up_usage)
