"""The account's ledger as the developer workflow shows it: usage totals and ledger rows.

Usage groups the debits and refunds of ``[from, to)`` by operation or by UTC day. Whole UTC
days that closed more than :data:`ROLLUP_MARGIN` ago are read from ``usage_daily``, their sums
per (account, day, operation, kind), made once from the ledger: by the scheduler's
``usage.roll_up`` (:func:`roll_up_closed_days`) soon after each day closes, or else by the first
usage request that needs them (``usage_rollups`` says how far each account is summed). They are
read through ``usage_daily_range`` (account_id, day) INCLUDE (operation, kind, calls, credits),
an index-only range scan of 16,000 rows for a year of 40 operations. The rest of the window (the
partial first and last days, the days not yet closed) is summed from the ledger itself through
the covering index ``ledger_entries_usage`` (account_id, created_at) INCLUDE (kind, operation,
amount): an index-only range scan of a day or two, never a scan of the table. The debit path
writes nothing more. Calls that cost nothing (free operations, test keys) leave no ledger row
and are not counted.

A ledger row is written at the time of its change (``created_at`` is now), so a day closed for
an hour gets no new rows; the margin covers clocks and long transactions. A refund of an old
debit (a job that failed days later, an abandoned claim) is a new row on the day it is made, not
on the debit's day, so closed days' sums never change and need no invalidation.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final, Literal

from tortoise import connections
from tortoise.transactions import in_transaction

from astro_server.platform import clock, db
from astro_server.platform.errors import validation_error
from astro_server.platform.models.billing import LedgerEntry, UsageRollup
from astro_server.platform.paging import numeric_cursor

GroupBy = Literal["operation", "day"]
MAX_RANGE_DAYS: Final = 366
ROLLUP_MARGIN: Final = timedelta(hours=1)
CLOSED_CACHE_SIZE: Final = 128  # answers of at most 366 days x 2 kinds: ~20 MB at most
_closed_cache: OrderedDict[tuple[str, str, str, str], list[tuple[str, str, int, int]]] = (
    OrderedDict()
)

_GROUP_EXPR: Final = {
    ("operation", "postgres"): "operation",
    ("operation", "sqlite"): "operation",
    ("day", "postgres"): "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    # Tortoise stores SQLite datetimes as UTC ISO text: the day is its first ten characters.
    ("day", "sqlite"): "substr(created_at, 1, 10)",
}


def check_range(start: datetime, end: datetime) -> None:
    if end <= start:
        raise validation_error([{"field": "to", "message": "must be after from"}])
    if (end - start).total_seconds() > MAX_RANGE_DAYS * 86400:
        raise validation_error(
            [{"field": "to", "message": f"the range may span at most {MAX_RANGE_DAYS} days"}]
        )


def _dialect() -> str:
    return "postgres" if connections.get("default").capabilities.dialect == "postgres" else "sqlite"


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _first_whole_day(moment: datetime) -> datetime:
    midnight = _midnight(moment.astimezone(UTC).date())
    return midnight if midnight == moment else midnight + timedelta(days=1)


async def _from_ledger(
    account_id: str, start: datetime, end: datetime, group_by: GroupBy
) -> list[dict[str, Any]]:
    if end <= start:
        return []
    group = _GROUP_EXPR[(group_by, _dialect())]
    return await db.fetch(
        f"SELECT {group} AS grp, kind, count(*) AS n, sum(amount) AS credits "  # noqa: S608
        "FROM ledger_entries WHERE account_id = ? AND created_at >= ? AND created_at < ? "
        "AND kind IN ('debit', 'refund') GROUP BY 1, 2",
        [account_id, start, end],
    )


async def _from_rollup(
    account_id: str, first_day: datetime, end_day: datetime, group_by: GroupBy
) -> list[dict[str, Any]]:
    """The sums of the closed days ``[first_day, end_day)``. They never change (a ledger row is
    dated when it is written, so no row lands on a closed day), so the answer is kept per
    (account, days, grouping) in this process (:data:`CLOSED_CACHE_SIZE` answers, least
    recently used dropped): a dashboard asking for the same year again reads no table."""
    key = (account_id, first_day.date().isoformat(), end_day.date().isoformat(), group_by)
    cached = _closed_cache.get(key)
    if cached is not None:
        _closed_cache.move_to_end(key)
        return [{"grp": g, "kind": k, "n": n, "credits": c} for g, k, n, c in cached]
    column = "day" if group_by == "day" else "operation"
    rows = await db.fetch(
        f"SELECT {column} AS grp, kind, sum(calls) AS n, sum(credits) AS credits "  # noqa: S608
        "FROM usage_daily WHERE account_id = ? AND day >= ? AND day < ? GROUP BY 1, 2",
        [account_id, key[1], key[2]],
    )
    _closed_cache[key] = [
        (str(r["grp"]), str(r["kind"]), int(r["n"]), int(r["credits"])) for r in rows
    ]
    while len(_closed_cache) > CLOSED_CACHE_SIZE:
        _closed_cache.popitem(last=False)
    return rows


async def rolled_until(account_id: str) -> datetime:
    """Sum the account's closed days not yet in ``usage_daily``; returns the midnight before
    which every day is summed. One writer per account at a time (PostgreSQL: an advisory lock
    for the transaction; SQLite has one writer anyway)."""
    target = (clock.now() - ROLLUP_MARGIN).date().isoformat()
    state = await UsageRollup.get_or_none(account_id=account_id)
    if state is not None and state.rolled_until >= target:
        return _midnight(date.fromisoformat(state.rolled_until))
    dialect = _dialect()
    async with in_transaction() as conn:
        if dialect == "postgres":
            await db.fetch("SELECT pg_advisory_xact_lock(hashtext(?))", [account_id], conn)
        state = await UsageRollup.filter(account_id=account_id).using_db(conn).first()
        if state is not None and state.rolled_until >= target:
            return _midnight(date.fromisoformat(state.rolled_until))
        since = _midnight(date.fromisoformat(state.rolled_until)) if state else None
        until = _midnight(date.fromisoformat(target))
        group = _GROUP_EXPR[("day", dialect)]
        await db.fetch(
            "INSERT INTO usage_daily (account_id, day, operation, kind, calls, credits) "  # noqa: S608
            f"SELECT account_id, {group}, operation, kind, count(*), sum(amount) "
            "FROM ledger_entries WHERE account_id = ? AND created_at >= ? AND created_at < ? "
            "AND kind IN ('debit', 'refund') GROUP BY account_id, 2, operation, kind",
            [account_id, since or datetime(1970, 1, 1, tzinfo=UTC), until],
            conn,
        )
        if state is None:
            await UsageRollup.create(account_id=account_id, rolled_until=target, using_db=conn)
        else:
            await (
                UsageRollup.filter(account_id=account_id).using_db(conn).update(rolled_until=target)
            )
    return until


async def roll_up_closed_days(limit: int = 2000) -> int:
    """Sum the closed days of up to ``limit`` accounts whose summed days are behind (the
    scheduler's ``usage.roll_up``), so that a usage request finds them ready; an account with
    nothing to sum just has its mark moved, so it is looked at once a day. Returns how many
    accounts had rows summed; if any, on PostgreSQL the table's statistics are then refreshed
    (``ANALYZE usage_daily``), so the planner knows an account's year is thousands of rows, not
    the one row it assumes of a table that was just filled."""
    target = (clock.now() - ROLLUP_MARGIN).date().isoformat()
    until = _midnight(date.fromisoformat(target))
    behind = await db.fetch(
        "SELECT a.id AS account_id, r.rolled_until FROM accounts a "
        "LEFT JOIN usage_rollups r ON r.account_id = a.id "
        "WHERE r.rolled_until IS NULL OR r.rolled_until < ? ORDER BY a.id LIMIT ?",
        [target, limit],
    )
    advanced = 0
    for row in behind:
        since = (
            _midnight(date.fromisoformat(row["rolled_until"]))
            if row["rolled_until"]
            else datetime(1970, 1, 1, tzinfo=UTC)
        )
        pending = await db.fetch(
            "SELECT 1 AS one FROM ledger_entries WHERE account_id = ? AND created_at >= ? "
            "AND created_at < ? LIMIT 1",
            [row["account_id"], since, until],
        )
        await rolled_until(row["account_id"])
        advanced += bool(pending)
    if advanced and _dialect() == "postgres":
        await db.fetch("ANALYZE usage_daily", [])
    return advanced


async def usage(
    account_id: str, start: datetime, end: datetime, group_by: GroupBy
) -> list[dict[str, Any]]:
    """Per group: ``calls`` (debits), ``credits_charged``, ``refunds``, ``credits_refunded``,
    ``net_credits``; groups in ascending order (see the module docstring for the sources)."""
    check_range(start, end)
    first_day = _first_whole_day(start)
    last_day = _midnight(end.astimezone(UTC).date())
    closed = _midnight((clock.now() - ROLLUP_MARGIN).date())
    rows: list[dict[str, Any]] = []
    if first_day < min(last_day, closed):
        summed_to = min(last_day, await rolled_until(account_id))
        rows += await _from_rollup(account_id, first_day, summed_to, group_by)
        rows += await _from_ledger(account_id, start, first_day, group_by)
        rows += await _from_ledger(account_id, summed_to, end, group_by)
    else:
        rows += await _from_ledger(account_id, start, end, group_by)
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = str(row["grp"])
        entry = groups.setdefault(
            key,
            {"key": key, "calls": 0, "credits_charged": 0, "refunds": 0, "credits_refunded": 0},
        )
        if row["kind"] == "debit":
            entry["calls"] += int(row["n"])
            entry["credits_charged"] += -int(row["credits"])
        else:
            entry["refunds"] += int(row["n"])
            entry["credits_refunded"] += int(row["credits"])
    out = [groups[k] for k in sorted(groups)]
    for entry in out:
        entry["net_credits"] = entry["credits_charged"] - entry["credits_refunded"]
    return out


def ledger_view(entry: LedgerEntry) -> dict[str, Any]:
    return {
        "id": str(entry.id),
        "type": entry.kind,
        "operation": entry.operation,
        "credits": entry.amount,
        "balance_after": entry.balance_after,
        "request_id": entry.request_id,
        "job_id": entry.job_id,
        "created_at": clock.iso(entry.created_at),
    }


async def ledger_page(
    account_id: str, limit: int, cursor: str | None
) -> tuple[list[LedgerEntry], str | None]:
    """The account's rows, newest first (by id, index (account_id, id)); the cursor is the
    last row's id."""
    query = LedgerEntry.filter(account_id=account_id)
    if cursor:
        query = query.filter(id__lt=await numeric_cursor(query, cursor))
    rows = await query.order_by("-id").limit(limit + 1)
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return rows[:limit], next_cursor
