"""Structured logs: one JSON object per line, carrying the request id when there is one.

Secrets never reach the log: we log method, route, status, timing and ids, never headers or
bodies, and credentials are only ever referred to by their id.
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any

import msgspec
from quart import g, has_request_context

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
# msgspec: several times faster than json.dumps for the one line every request logs; values it
# cannot encode (ids of odd types, exceptions) are written as their str().
_ENCODER = msgspec.json.Encoder(enc_hook=str)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if has_request_context():
            rid = getattr(g, "request_id", None)
            if rid:
                entry["request_id"] = rid
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return _ENCODER.encode(entry).decode()


def configure_logging(level: str = "INFO") -> None:
    root = logging.getLogger()
    if any(getattr(h, "_astro", False) for h in root.handlers):
        root.setLevel(level.upper())
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._astro = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Drivers log queries (with values) at DEBUG; keep them quiet whatever the level.
    for noisy in ("tortoise", "asyncpg", "aiosqlite", "taskiq", "hypercorn.access"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
