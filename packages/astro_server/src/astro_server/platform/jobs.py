"""Asynchronous jobs: queue, run on a worker, report, refund on failure.

A job kind is declared once, with the type of its parameters, and listed in
:mod:`astro_server.registry` (the worker knows exactly the kinds listed there)::

    class BatchParams(msgspec.Struct, frozen=True):
        records: list[dict[str, Any]]
        school: str = "north"

    def run_batch(params: BatchParams, progress: Progress) -> dict[str, Any]:
        for i, record in enumerate(params.records):
            ...
            progress((i + 1) / len(params.records))
        return {"results": [...]}

    KUNDLI_BATCH = JobKind("vedic.kundli_matching_batch", BatchParams, run_batch)

A route queues one with the request's charge (``@billable`` made it), so a failed job refunds
exactly what the request paid::

    handle = await enqueue_job(
        KUNDLI_BATCH, params, account_id=caller.account_id, livemode=caller.livemode, charge=charge
    )

The parameters are encoded once (msgspec, into the job row) and decoded once, into the declared
type, on the worker; sync functions run in a thread. They often hold personal data (birth data,
names), so the row stores them sealed under the account's data key
(:mod:`astro_server.platform.datakeys`, bound to the job id): ``{"$sealed": ..., "$key": "dk_..."}``
plus, in clear, the top-level fields that are our own object ids (``report_id``, ``reading_id``:
``<prefix>_<24 hex>``), which failure hooks read. After a crypto-shred the parameters can never
be opened again; a job still queued then fails with ``data_erased`` (and is refunded).

Lifecycle (one table; every change is a conditional UPDATE):

=========  ===========================  ===============================================
from       to                           when
=========  ===========================  ===============================================
(new)      queued                       :func:`enqueue_job` (the row, then the message)
queued     running                      a worker claims it (takes a lease, counts an attempt)
running    running                      the heartbeat renews the lease, saves progress
running    succeeded                    the handler returned (holder of the current attempt)
running    failed                       the handler raised, or attempts ran out: refunded
running    queued                       the lease expired (worker died) or the worker stops
queued     canceled                     the caller canceled it: refunded
queued     canceled                     the request that queued it failed or its client left
running    canceled                     (the same; the request's own error path refunds it, and
                                        a worker's result for it is discarded)
=========  ===========================  ===============================================

Failing or canceling refunds the job's charge exactly once (the ledger allows one refund per
debit, and the status change that triggers it is conditional); the kind's ``on_failure`` hook
runs after that refund is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

import msgspec
from tortoise.exceptions import IntegrityError
from tortoise.expressions import F, Q
from tortoise.transactions import in_transaction

from astro_server.platform import clock, datakeys, db, metrics, runtime
from astro_server.platform.auth import scopes
from astro_server.platform.auth.credentials import new_id
from astro_server.platform.billing import ledger as billing
from astro_server.platform.billing import undo
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError
from astro_server.platform.models.jobs import Job
from astro_server.platform.outages import JOB_QUEUE, DependencyUnavailable, dependency_of
from astro_server.platform.owned import owned, owned_query
from astro_server.platform.paging import newest_first

log = logging.getLogger("astro_server.jobs")

Progress = Callable[[float], None]
JobFunction = Callable[..., Any]

STATUSES = ("queued", "running", "succeeded", "failed", "canceled")
FINISHED = ("succeeded", "failed", "canceled")


#: Called once a job of the kind has ended without success, after its refund is committed:
#: ``hook(job, error, status)`` with ``status`` ``failed`` or ``canceled``.
FailureHook = Callable[[Any, dict[str, Any], str], Awaitable[None]]


P = TypeVar("P", bound=msgspec.Struct)


@dataclass(frozen=True)
class Concurrency:
    """A bound on heavy jobs: at most ``limit`` jobs of the kinds that share this object queued
    or running at once per creator (the API key that queued them; for a customer session, the
    login), counted in :func:`enqueue_job` under a per-creator lock; one more is 429
    ``rate_limited`` with ``Retry-After`` (a billable route then refunds the request). ``what``
    names them in the message (``"report renders"``); ``setting`` is the
    :class:`~astro_server.settings.Settings` field holding the limit."""

    what: str
    setting: str
    retry_after_s: int = 5

    @property
    def limit(self) -> int:
        return int(getattr(runtime.settings(), self.setting))


@dataclass(frozen=True)
class JobKind(Generic[P]):
    """One kind of job: its name (stored on the row, priced in the price table), the msgspec
    type of its parameters, and the function that runs it: ``run(params)`` or
    ``run(params, progress)``, sync (run in a thread) or async. It returns a JSON-able result
    (dicts, lists, msgspec Structs, pydantic models); raising marks the job failed and refunds
    it. ``on_failure`` runs after the job is marked failed or canceled and refunded, whatever
    ended it, so an object the job works on turns failed only once the refund can be seen."""

    name: str
    params_type: type[P]
    run: JobFunction
    on_failure: FailureHook | None = None
    concurrency: Concurrency | None = None

    @property
    def takes_progress(self) -> bool:
        positional = [
            p
            for p in inspect.signature(self.run).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        return len(positional) >= 2

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.run)


_HANDLERS: dict[str, JobKind[Any]] = {}
_running_here: dict[str, int] = {}  # job id -> attempt held by this process


def register_job_kinds(kinds: Iterable[JobKind[Any]]) -> None:
    """The kinds this process runs and queues (:func:`astro_server.registry.build_platform`)."""
    for kind in kinds:
        known = _HANDLERS.get(kind.name)
        if known is not None and known is not kind:
            raise ValueError(f"job kind {kind.name!r} is declared twice")
        _HANDLERS[kind.name] = kind


def registered_kinds() -> list[str]:
    return sorted(_HANDLERS)


def _now() -> datetime:
    return datetime.now(UTC)


#: A top-level parameter kept in clear next to the sealed ones: one of our own object ids.
_CLEAR_ID = re.compile(r"^[a-z]+_[0-9a-f]{24}$")
SEALED = "$sealed"
SEALED_KEY = "$key"


class ParamsErased(Exception):
    """The job's parameters were sealed under a data key that was destroyed (crypto-shred)."""


async def seal_params(job_id: str, account_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """The stored form of a job's parameters (see module docstring)."""
    key = await datakeys.active_key(runtime.settings().secret_key, account_id, create=True)
    assert key is not None
    stored: dict[str, Any] = {
        name: value
        for name, value in params.items()
        if name.endswith("_id") and isinstance(value, str) and _CLEAR_ID.match(value)
    }
    text = json.dumps(params, separators=(",", ":"), ensure_ascii=False)
    stored[SEALED] = key.seal_record(job_id, text)
    stored[SEALED_KEY] = key.id
    return stored


async def open_params(job: Job) -> Any:
    """The job's parameters as queued (rows queued before sealing are read as they are);
    :class:`ParamsErased` when its data key was destroyed."""
    stored = job.params
    if not isinstance(stored, dict) or SEALED not in stored:
        return stored
    try:
        key = await datakeys.key_by_id(runtime.settings().secret_key, str(stored[SEALED_KEY]))
        return json.loads(key.open_record(job.id, str(stored[SEALED])))
    except datakeys.KeyUnavailable:
        raise ParamsErased(job.id) from None


def creator_of(caller: Caller) -> str:
    """Who a job is counted against (:class:`Concurrency`): the login of a session, else the
    API key (``operator`` for the CLI)."""
    return caller.actor[0]


def _limited_kinds(limit: Concurrency) -> list[str]:
    return sorted(name for name, kind in _HANDLERS.items() if kind.concurrency is limit)


async def check_capacity(
    kind: JobKind[Any], created_by: str, account_id: str, conn: Any | None = None
) -> None:
    """429 with ``Retry-After`` when ``created_by`` already has its :class:`Concurrency`'s
    limit of jobs queued or running (no limit on the kind: nothing to check). Routes call it
    before they make the job's objects; :func:`enqueue_job` checks again under the lock."""
    limit = kind.concurrency
    if limit is None:
        return
    query = Job.filter(
        account_id=account_id,
        created_by=created_by,
        kind__in=_limited_kinds(limit),
        status__in=["queued", "running"],
    )
    busy = await (query.using_db(conn) if conn is not None else query).count()
    if busy >= limit.limit:
        who = "login" if created_by.startswith("cus_") else "API key"
        raise APIError(
            429,
            f"{busy} {limit.what} of this {who} are queued or running, the most at once "
            f"({limit.limit}); retry when one finishes.",
            error="rate_limited",
            headers={"Retry-After": str(limit.retry_after_s)},
        )


def job_handle(job_id: str) -> dict[str, str]:
    return {"job_id": job_id, "status": "queued", "poll": f"/api/v3/jobs/{job_id}"}


async def enqueue_job(
    kind: JobKind[P],
    params: P,
    *,
    account_id: str,
    livemode: bool,
    charge: billing.Charge | None = None,
    created_by: str | None = None,
) -> dict[str, str]:
    """Create the job row and hand it to the broker; returns the job handle.

    ``charge`` is the debit the job refunds if it fails or is canceled (a billable route passes
    its request's charge; None: nothing to refund).
    ``livemode`` False makes a test object (a test key's job). ``created_by``
    (:func:`creator_of`) is recorded on the row; a kind with a :class:`Concurrency` counts its
    jobs per creator (429 past the limit). If the broker refuses the job (or the request is
    cancelled, its client gone, while it is handed over), the job is canceled and a 503 raised
    (the billable route then refunds the request); if the request fails later, its refund
    cancels the job (:func:`abandon_job`, through :mod:`astro_server.platform.billing.undo`).
    """
    if _HANDLERS.get(kind.name) is not kind:
        raise RuntimeError(f"job kind {kind.name!r} is not in the registry")
    if not isinstance(params, kind.params_type):
        raise TypeError(f"{kind.name} takes {kind.params_type.__name__}, not {type(params)}")
    job_id = new_id("job_")
    sealed = await seal_params(job_id, account_id, msgspec.to_builtins(params))
    async with in_transaction() as conn:
        if kind.concurrency is not None and created_by is not None:
            if conn.capabilities.dialect == "postgres":
                # One creator's enqueues take turns (SQLite has one writer): two requests
                # cannot both pass the count at the limit's edge.
                await db.fetch("SELECT pg_advisory_xact_lock(hashtext(?))", [created_by], conn)
            await check_capacity(kind, created_by, account_id, conn)
        job = await Job.create(
            id=job_id,
            account_id=account_id,
            kind=kind.name,
            status="queued",
            params=sealed,
            credits_charged=charge.credits if charge else 0,
            ledger_entry_id=charge.ledger_entry_id if charge else None,
            livemode=livemode,
            created_by=created_by,
            created_at=_now(),
            using_db=conn,
        )
    from astro_server.platform.broker import kick_job

    try:
        await kick_job(job.id)
    except BaseException as exc:
        # Canceled, not deleted: the message may have gone out although the call failed (a
        # timeout after the write), and a worker must then find nothing to run. Shielded: a
        # cancelled request (client gone) still cancels its job.
        abandoning = asyncio.ensure_future(abandon_job(job))
        _ABANDONING.add(abandoning)
        abandoning.add_done_callback(_ABANDONING.discard)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(abandoning)
        if isinstance(exc, Exception):
            # One log line per outage (the app's error handler), not a traceback per request.
            raise DependencyUnavailable(JOB_QUEUE) from exc
        raise
    undo.on_refund(lambda: abandon_job(job))
    metrics.JOB_TRANSITIONS.labels(kind=kind.name, status="queued").inc()
    return job_handle(job.id)


def job_view(job: Job) -> dict[str, Any]:
    """The job record returned by ``GET /api/v3/jobs/{id}``."""
    return {
        "job_id": job.id,
        "status": job.status,
        "kind": job.kind,
        "created_at": clock.iso(job.created_at),
        "started_at": clock.iso(job.started_at),
        "finished_at": clock.iso(job.finished_at),
        "progress": round(job.progress, 4),
        "result": job.result,
        "error": job.error,
        "credits_charged": job.credits_charged,
        "credits_refunded": job.credits_refunded,
        "attempts": job.attempts,
        "livemode": job.livemode,
    }


def _scoped_kinds(caller: Caller) -> Q | None:
    """The job kinds the caller's scopes cover, as a filter (None: every kind)."""
    if scopes.ALL in caller.scopes:
        return None
    held = [scope for scope in caller.scopes if scope in scopes.SCOPES]
    if not held:
        return Q(id__isnull=True)  # matches nothing: a key with no group sees no job
    return Q(*(Q(kind__startswith=scope + ".") for scope in held), join_type="OR")


async def get_owned_job(caller: Caller, job_id: str) -> Job:
    """The caller's job (same account and mode: a test key sees only test jobs; else 404),
    of a kind the caller's scopes cover (else 403 naming the scope)."""
    job = await owned(caller, Job, job_id, "Job")
    if not scopes.job_kind_allowed(caller.scopes, job.kind):
        needed = scopes.scope_for_job_kind(job.kind)
        raise APIError(
            403, f"This API key lacks the {needed!r} scope this job needs.", error="forbidden"
        )
    return job


async def list_jobs(
    caller: Caller,
    limit: int,
    cursor: str | None,
    status: str | None = None,
) -> tuple[list[Job], str | None]:
    """The caller's jobs (its mode, the kinds its scopes cover), newest first; ``cursor`` is
    the last id of the previous page."""
    mine = owned_query(caller, Job)
    kinds = _scoped_kinds(caller)
    if kinds is not None:
        mine = mine.filter(kinds)
    query = mine.filter(status=status) if status else mine
    return await newest_first(query, limit=limit, cursor=cursor, scope=mine)


async def _fail(
    job: Job,
    error: dict[str, Any],
    attempt: int | None,
    statuses: tuple[str, ...],
    new_status: str = "failed",
    *,
    refunds: bool = True,
) -> bool:
    """Conditionally mark the job failed (or canceled) and refund it, in one transaction.
    ``refunds`` False: the refund is someone else's (the request that queued it), and the job
    only records it."""
    refundable = job.credits_charged > 0 and job.ledger_entry_id is not None
    for refund in (refundable, False) if refunds else (False,):
        try:
            async with in_transaction() as conn:
                query = Job.filter(id=job.id, status__in=list(statuses))
                if attempt is not None:
                    query = query.filter(attempts=attempt)
                changes: dict[str, Any] = {
                    "status": new_status,
                    "error": error,
                    "finished_at": _now(),
                    "lease_expires_at": None,
                }
                if refund or (not refunds and refundable):
                    changes["credits_refunded"] = job.credits_charged
                changed = await query.using_db(conn).update(**changes)
                if changed and refund:
                    assert job.ledger_entry_id is not None
                    await billing.refund(
                        conn,
                        job.account_id,
                        job.ledger_entry_id,
                        job.credits_charged,
                        job.kind,
                        job_id=job.id,
                    )
        except IntegrityError:
            log.warning("job %s: its debit was already refunded", job.id)
            continue
        if changed:
            metrics.JOB_TRANSITIONS.labels(kind=job.kind, status=new_status).inc()
            if refund:
                metrics.CREDITS_REFUNDED.labels(kind=job.kind).inc(job.credits_charged)
            registered = _HANDLERS.get(job.kind)
            if registered is not None and registered.on_failure is not None:
                try:
                    await registered.on_failure(job, error, new_status)
                except Exception:
                    log.exception("job %s: its failure hook failed", job.id)
        return bool(changed)
    return False


#: Cancellations of abandoned jobs in flight (kept so they are not collected), and how long one
#: is retried while the database is unreachable.
_ABANDONING: set[asyncio.Future[None]] = set()
ABANDON_RETRY_S = 600.0
_ABANDONED = {
    "error": "canceled",
    "message": "The request that queued this job failed; its charge was refunded.",
}


async def abandon_job(job: Job) -> None:
    """Cancel a job whose request failed after queuing it (queued or already running): it never
    runs, or its result is discarded. The request's own error path refunds the charge, so the
    job records the refund without writing another. When the database is unreachable the
    cancel is retried in the background until it is back (at most :data:`ABANDON_RETRY_S`)."""
    try:
        await _abandon(job)
    except Exception as exc:
        if dependency_of(exc) is None:
            log.exception("job %s: canceling it after its request failed failed", job.id)
            return
        later = asyncio.ensure_future(_abandon_later(job))
        _ABANDONING.add(later)
        later.add_done_callback(_ABANDONING.discard)


async def _abandon(job: Job) -> None:
    await _fail(job, _ABANDONED, None, ("queued", "running"), "canceled", refunds=False)


async def _abandon_later(job: Job) -> None:
    deadline = asyncio.get_running_loop().time() + ABANDON_RETRY_S
    delay = 0.25
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(delay)
        delay = min(5.0, delay * 2)
        try:
            await _abandon(job)
        except Exception as exc:
            if dependency_of(exc) is None:
                log.exception("job %s: canceling it after its request failed failed", job.id)
                return
            continue
        log.warning("job %s canceled once the database was back (its request failed)", job.id)
        return
    log.error("job %s not canceled: the database did not come back; cancel it by hand", job.id)


async def cancel_job(caller: Caller, job_id: str) -> Job:
    job = await get_owned_job(caller, job_id)
    if job.status != "queued" or not await _fail(
        job,
        {"error": "canceled", "message": "Canceled by the caller."},
        None,
        ("queued",),
        new_status="canceled",
    ):
        current = await Job.get(id=job_id)
        raise APIError(
            409,
            f"Only queued jobs can be canceled; this job is {current.status}.",
            error="conflict",
        )
    return await Job.get(id=job_id)


class _ProgressReporter:
    def __init__(self) -> None:
        self.value = 0.0

    def __call__(self, fraction: float) -> None:
        self.value = min(1.0, max(0.0, float(fraction)))


async def _claim(job_id: str) -> Job | None:
    now = _now()
    claimable = Q(status="queued") | Q(status="running", lease_expires_at__lt=now)
    changed = await Job.filter(
        Q(id=job_id), claimable, Q(attempts__lt=runtime.settings().job_max_attempts)
    ).update(
        status="running",
        attempts=F("attempts") + 1,
        started_at=now,
        lease_expires_at=now + timedelta(seconds=runtime.settings().job_lease_s),
    )
    if not changed:
        return None
    return await Job.get(id=job_id)


async def _heartbeat(job: Job, attempt: int, progress: _ProgressReporter) -> None:
    interval = min(1.0, runtime.settings().job_lease_s / 3)
    while True:
        await asyncio.sleep(interval)
        await Job.filter(id=job.id, status="running", attempts=attempt).update(
            lease_expires_at=_now() + timedelta(seconds=runtime.settings().job_lease_s),
            progress=progress.value,
        )


def _error_body(exc: BaseException) -> dict[str, Any]:
    from astro_calc.errors import CalcInputError

    if isinstance(exc, CalcInputError):
        return {"error": "validation_error", "message": exc.message, "field": exc.field}
    if isinstance(exc, APIError):
        return {"error": exc.error, "message": exc.message}
    return {"error": "job_failed", "message": "The job could not be completed."}


async def run_job(job_id: str) -> None:
    """Claim and run one job (the body of the taskiq task ``astro.run_job``)."""
    job = await _claim(job_id)
    if job is None:
        await _fail_if_exhausted(job_id)
        return
    attempt = job.attempts
    metrics.JOB_TRANSITIONS.labels(kind=job.kind, status="running").inc()
    registered = _HANDLERS.get(job.kind)
    if registered is None:
        await _fail(
            job,
            {"error": "job_failed", "message": f"Unknown job kind {job.kind}."},
            attempt,
            ("running",),
        )
        return
    progress = _ProgressReporter()
    try:
        params = msgspec.convert(await open_params(job), registered.params_type)
    except ParamsErased:
        await _fail(
            job,
            {
                "error": "data_erased",
                "message": "The job's parameters were erased with the account's data "
                "(crypto-shred); queue it again.",
            },
            attempt,
            ("running",),
        )
        return
    except msgspec.ValidationError as exc:
        await _fail(
            job,
            {"error": "job_failed", "message": f"Malformed job parameters: {exc}."},
            attempt,
            ("running",),
        )
        return
    args: tuple[Any, ...] = (params, progress) if registered.takes_progress else (params,)
    _running_here[job.id] = attempt
    beat = asyncio.create_task(_heartbeat(job, attempt, progress))
    try:
        if registered.is_async:
            outcome = await registered.run(*args)
        else:
            outcome = await asyncio.to_thread(registered.run, *args)
        result = msgspec.to_builtins(outcome, builtin_types=(datetime,))
        result = msgspec.json.decode(msgspec.json.encode(result))
        if isinstance(result, str):
            # tortoise's JSONField takes a str as JSON text already: give it the JSON literal.
            result = msgspec.json.encode(result).decode()
    except asyncio.CancelledError:
        raise  # worker shutting down: the lease lapses and the job is retried elsewhere
    except Exception as exc:
        log.exception("job %s (%s) failed", job.id, job.kind)
        await _fail(job, _error_body(exc), attempt, ("running",))
        return
    finally:
        beat.cancel()
        _running_here.pop(job.id, None)
    changed = await Job.filter(id=job.id, status="running", attempts=attempt).update(
        status="succeeded",
        result=result,
        progress=1.0,
        finished_at=_now(),
        lease_expires_at=None,
    )
    if changed:
        metrics.JOB_TRANSITIONS.labels(kind=job.kind, status="succeeded").inc()
    else:
        log.warning("job %s: attempt %s lost its lease; result discarded", job.id, attempt)


async def _fail_if_exhausted(job_id: str) -> None:
    job = await Job.get_or_none(id=job_id)
    if (
        job is not None
        and job.status in ("queued", "running")
        and job.attempts >= runtime.settings().job_max_attempts
        and (job.lease_expires_at is None or job.lease_expires_at < _now())
    ):
        await _fail(
            job,
            {"error": "job_failed", "message": "The job was interrupted too many times."},
            job.attempts,
            ("queued", "running"),
        )


async def release_running_jobs() -> list[str]:
    """Give back the leases this process holds (worker shutdown); returns the re-queued ids.

    The interrupted attempt still counts towards ``job_max_attempts``.
    """
    released = []
    for job_id, attempt in list(_running_here.items()):
        changed = await Job.filter(id=job_id, status="running", attempts=attempt).update(
            status="queued", lease_expires_at=None, updated_at=_now()
        )
        if changed:
            released.append(job_id)
    _running_here.clear()
    return released


async def sweep_jobs(kick: Callable[[str], Awaitable[None]] | None = None) -> dict[str, int]:
    """Re-queue jobs whose worker died (lease expired) and fail those out of attempts.

    Also re-sends queued jobs that waited longer than one lease (a lost broker message, e.g.
    Redis restarted without persistence): a lost queue costs at most one lease plus one sweep
    interval. A second message for a job that is in fact still queued is harmless: a worker
    takes a job only by moving it from ``queued`` to ``running`` in one conditional update.

    A send that fails (the broker down) is counted in ``send_failed`` and the sweep goes on with
    the next job; a job re-queued from ``running`` whose send failed stays ``queued`` and is
    re-sent by a later sweep.
    """
    from astro_server.platform.broker import kick_job

    send = kick or kick_job
    now = _now()
    lease = timedelta(seconds=runtime.settings().job_lease_s)
    counts = {"requeued": 0, "failed": 0, "resent": 0, "send_failed": 0}
    first_error: Exception | None = None

    async def try_send(job_id: str) -> bool:
        nonlocal first_error
        try:
            await send(job_id)
        except Exception as exc:
            counts["send_failed"] += 1
            first_error = first_error or exc
            return False
        return True

    expired = await Job.filter(status="running", lease_expires_at__lt=now)
    for job in expired:
        if job.attempts >= runtime.settings().job_max_attempts:
            await _fail_if_exhausted(job.id)
            counts["failed"] += 1
            continue
        changed = await Job.filter(
            id=job.id, status="running", attempts=job.attempts, lease_expires_at__lt=now
        ).update(status="queued", lease_expires_at=None, updated_at=now - lease)
        # updated_at one lease back: if this send fails, the next sweep re-sends it at once.
        if changed and await try_send(job.id):
            await Job.filter(id=job.id, status="queued").update(updated_at=now)
            counts["requeued"] += 1
    stale = await Job.filter(status="queued", updated_at__lt=now - lease)
    for job in stale:
        if job.attempts >= runtime.settings().job_max_attempts:
            await _fail_if_exhausted(job.id)
            counts["failed"] += 1
            continue
        if await try_send(job.id):
            await Job.filter(id=job.id, status="queued").update(updated_at=now)
            counts["resent"] += 1
    if first_error is not None:
        log.warning(
            "job sweep: %d send(s) failed (%s); they are retried on the next sweep",
            counts["send_failed"],
            type(first_error).__name__,
        )
    return counts
