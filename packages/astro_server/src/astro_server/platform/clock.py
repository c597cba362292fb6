"""The server's notion of now for expiring things (key rotation grace periods).

One function, so a test can move time forward (``monkeypatch.setattr(clock, "now", ...)``)
without sleeping for days.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)
