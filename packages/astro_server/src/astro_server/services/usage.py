"""The account's ledger as the developer workflow shows it: usage totals and ledger rows.

Usage groups the debits and refunds of ``[from, to)`` by operation or by UTC day, in one
aggregate query served by the covering index ``ledger_entries_usage`` (account_id, created_at)
INCLUDE (kind, operation, amount) (migration 0009): an index-only range scan of the account's
rows in the window, never a scan of the table. Calls that cost nothing (free operations, test
keys) leave no ledger row and are not counted.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final, Literal

from tortoise import connections

from astro_server import db
from astro_server.errors import validation_error
from astro_server.models import LedgerEntry

GroupBy = Literal["operation", "day"]
MAX_RANGE_DAYS: Final = 366

_GROUP_EXPR: Final = {
    ("operation", "postgres"): "operation",
    ("operation", "sqlite"): "operation",
    ("day", "postgres"): "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    # Tortoise stores SQLite datetimes as UTC ISO text: the day is its first ten characters.
    ("day", "sqlite"): "substr(created_at, 1, 10)",
}


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def check_range(start: datetime, end: datetime) -> None:
    if end <= start:
        raise validation_error([{"field": "to", "message": "must be after from"}])
    if (end - start).total_seconds() > MAX_RANGE_DAYS * 86400:
        raise validation_error(
            [{"field": "to", "message": f"the range may span at most {MAX_RANGE_DAYS} days"}]
        )


async def usage(
    account_id: str, start: datetime, end: datetime, group_by: GroupBy
) -> list[dict[str, Any]]:
    """Per group: ``calls`` (debits), ``credits_charged``, ``refunds``, ``credits_refunded``,
    ``net_credits``; groups in ascending order."""
    check_range(start, end)
    dialect = connections.get("default").capabilities.dialect
    group = _GROUP_EXPR[(group_by, "postgres" if dialect == "postgres" else "sqlite")]
    rows = await db.fetch(
        f"SELECT {group} AS grp, kind, count(*) AS n, sum(amount) AS credits "  # noqa: S608
        "FROM ledger_entries WHERE account_id = ? AND created_at >= ? AND created_at < ? "
        "AND kind IN ('debit', 'refund') GROUP BY 1, 2",
        [account_id, start, end],
    )
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
        "created_at": _iso(entry.created_at),
    }


async def ledger_page(
    account_id: str, limit: int, cursor: str | None
) -> tuple[list[LedgerEntry], str | None]:
    """The account's rows, newest first (by id, index (account_id, id)); the cursor is the
    last row's id."""
    query = LedgerEntry.filter(account_id=account_id)
    if cursor:
        if not cursor.isdigit() or len(cursor) > 19:
            raise validation_error(
                [{"field": "cursor", "message": "not a cursor from this listing"}],
                "Unknown cursor.",
            )
        query = query.filter(id__lt=int(cursor))
    rows = await query.order_by("-id").limit(limit + 1)
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return rows[:limit], next_cursor
