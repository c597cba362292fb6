"""The server's notion of now, and the one way an instant is written in a response.

``now()`` is one function so a test can move time forward (``monkeypatch.setattr(clock, "now",
...)``) without sleeping for days. :func:`iso` writes every instant the API returns: UTC,
ISO 8601, **millisecond precision**, ``Z`` (``2026-11-27T14:05:09.123Z``); a naive value is
taken as UTC (SQLite gives naive ones back).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


def now() -> datetime:
    return datetime.now(UTC)


@overload
def iso(value: datetime) -> str: ...
@overload
def iso(value: None) -> None: ...
@overload
def iso(value: datetime | None) -> str | None: ...


def iso(value: datetime | None) -> str | None:
    """``value`` in the API's one timestamp format (see the module docstring); None stays None."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
