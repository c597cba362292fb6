"""Idempotency records: the first request with an ``Idempotency-Key`` runs, later ones replay.

Scope is (credential, method, path, key). The request hash covers method, path, the canonical
query string and the canonical JSON body, so the same key with another query (another horoscope
date) or another body is a 409 ``idempotency_conflict``; a key whose first
request is still running is a 409 ``idempotency_in_progress`` with ``Retry-After``. A finished
first response (2xx) is replayed byte for byte for :data:`REPLAY_WINDOW`. A first request that
failed releases its key (its charge was refunded), so the client may retry with the same key.

The claim is an INSERT into a unique index, made inside the billing transaction: two concurrent
requests cannot both claim a key, on SQLite or PostgreSQL.

A stored response often holds personal data (a chart answers the subject's birth data and name),
so it is sealed under the account's data key (:mod:`astro_server.platform.datakeys`, bound to
the record id): ``dk.<key id>.<ciphertext>``. After a crypto-shred the body can never be read
again and the key answers 409 ``idempotency_conflict`` asking for a new key (the first request
was charged; what it answered is gone with the account's data).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import zstandard
from quart import Response
from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient

from astro_server.platform import datakeys, db, runtime
from astro_server.platform.batching import LoopCoalescers, coalescer_for_loop
from astro_server.platform.compression import zstd_bytes
from astro_server.platform.errors import APIError
from astro_server.platform.models.billing import IdempotencyRecord

REPLAY_WINDOW = timedelta(hours=24)
MAX_KEY_LENGTH = 255
IN_PROGRESS_RETRY_AFTER_S = 1
# Response headers worth replaying (credit headers are recomputed: a replay charges nothing).
_REPLAYED_HEADERS = ("Content-Type", "Location")


@dataclass(frozen=True)
class Scope:
    credential_id: str
    method: str
    path: str
    key: str


def validate_key(key: str) -> str:
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isprintable():
        raise APIError(
            400,
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable characters.",
            error="validation_error",
            details=[{"field": "Idempotency-Key", "message": "invalid header value"}],
        )
    return key


def canonical_query(pairs: Iterable[tuple[str, str]]) -> str:
    """The query string with its parameters sorted (name, then value) and percent-encoded
    uniformly, so ``?b=2&a=1`` and ``?a=1&b=%32`` are the same request."""
    return urlencode(sorted(pairs))


def request_hash(method: str, path: str, body: str | bytes, query: str = "") -> str:
    """Hash of the request: method, path, canonical query string (:func:`canonical_query`) and
    body; a JSON body is canonicalized (whitespace and key order don't count)."""
    if isinstance(body, str):
        body = body.encode()
    canonical = body
    if body:
        with contextlib.suppress(ValueError):
            canonical = json.dumps(
                json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ).encode()
    # Without a query string the head is what it was before queries counted, so keys claimed
    # by an older release still replay.
    head = (f"{method} {path}?{query}\n" if query else f"{method} {path}\n").encode()
    return hashlib.sha256(head + canonical).hexdigest()


async def find(scope: Scope) -> IdempotencyRecord | None:
    record = await IdempotencyRecord.get_or_none(
        credential_id=scope.credential_id, method=scope.method, path=scope.path, key=scope.key
    )
    if record is not None and record.expires_at <= datetime.now(UTC):
        await IdempotencyRecord.filter(id=record.id, expires_at__lte=datetime.now(UTC)).delete()
        return None
    return record


async def reject_or_replay(record: IdempotencyRecord, the_request_hash: str) -> Response:
    """The answer to a request whose key is already claimed: 409 or the stored response."""
    if not _same(record.request_hash, the_request_hash):
        raise APIError(
            409,
            "This Idempotency-Key was used with a different request; reuse the original "
            "payload or send a new key.",
            error="idempotency_conflict",
        )
    if record.status != "completed" or record.response_status is None:
        raise APIError(
            409,
            "The first request with this Idempotency-Key is still being processed.",
            error="idempotency_in_progress",
            headers={"Retry-After": str(IN_PROGRESS_RETRY_AFTER_S)},
        )
    try:
        body = decode_stored_body(await open_stored_body(record.id, record.response_body or ""))
    except datakeys.KeyUnavailable:
        raise APIError(
            409,
            "The response of this Idempotency-Key was erased with the account's data "
            "(crypto-shred); send a new key.",
            error="idempotency_conflict",
        ) from None
    headers: dict[str, Any] = dict(record.response_headers or {})
    headers["Idempotent-Replayed"] = "true"
    return Response(body, status=record.response_status, headers=headers)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


async def claim(scope: Scope, the_request_hash: str, conn: BaseDBAsyncClient) -> IdempotencyRecord:
    """Insert the in-progress record (raises IntegrityError if another request holds the key)."""
    return await IdempotencyRecord.create(
        credential_id=scope.credential_id,
        method=scope.method,
        path=scope.path,
        key=scope.key,
        request_hash=the_request_hash,
        status="in_progress",
        expires_at=datetime.now(UTC) + REPLAY_WINDOW,
        using_db=conn,
    )


_COMPLETE_ONE = (
    "UPDATE idempotency_records SET status = 'completed', response_status = ?, "
    "response_body = ?, response_headers = ? WHERE id = ? RETURNING id"
)
# PostgreSQL: the completions that queued up while the previous statement ran, in one
# statement (one round trip, one commit). Records are distinct (one per request).
_PG_COMPLETE_MANY = """
UPDATE idempotency_records AS r
SET status = 'completed', response_status = v.status, response_body = v.body,
    response_headers = v.headers::jsonb
FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[]) AS v(id, status, body, headers)
WHERE r.id = v.id
"""


async def _write_completions(rows: list[list[Any]]) -> list[None]:
    columns = [list(column) for column in zip(*rows, strict=True)]
    await connections.get("default").execute_query(_PG_COMPLETE_MANY, columns)
    return [None] * len(rows)


_completions: LoopCoalescers[list[Any], None] = weakref.WeakKeyDictionary()


# Stored bodies: base64 of the bytes, or for bodies of _COMPRESS_FROM bytes and more "zs:" and
# base64 of their zstd frame (level 1: a 660 KB Uranian chart becomes 70 KB in ~1 ms; stored
# uncompressed it cost PostgreSQL ~17 ms of CPU, its own compression included; zlib level 1 took
# 3.5 ms for 100 KB).
_COMPRESS_FROM = 2048
_ZSTD_PREFIX = "zs:"
_zstd_decompressor = zstandard.ZstdDecompressor()


def encode_stored_body(body: bytes) -> str:
    if len(body) >= _COMPRESS_FROM:
        return _ZSTD_PREFIX + base64.b64encode(zstd_bytes(body)).decode()
    return base64.b64encode(body).decode()


def decode_stored_body(stored: str) -> bytes:
    if stored.startswith(_ZSTD_PREFIX):
        return _zstd_decompressor.decompress(base64.b64decode(stored[len(_ZSTD_PREFIX) :]))
    return base64.b64decode(stored)


_SEALED_PREFIX = "dk."


async def seal_stored_body(record_id: int, account_id: str, stored: str) -> str:
    """``stored`` (:func:`encode_stored_body`) sealed under the account's data key."""
    key = await datakeys.active_key(runtime.settings().secret_key, account_id, create=True)
    assert key is not None
    return f"{_SEALED_PREFIX}{key.id}.{key.seal_record(str(record_id), stored)}"


async def open_stored_body(record_id: int, stored: str) -> str:
    """The encoded body of a record (a record stored before sealing is returned as it is);
    :class:`~astro_server.platform.datakeys.KeyUnavailable` once its key was destroyed."""
    if not stored.startswith(_SEALED_PREFIX):
        return stored
    key_id, _, sealed = stored[len(_SEALED_PREFIX) :].partition(".")
    key = await datakeys.key_by_id(runtime.settings().secret_key, key_id)
    return key.open_record(str(record_id), sealed)


async def complete(record_id: int, response: Response, account_id: str) -> None:
    """Store the response for replay, sealed under the account's data key; returns once it is
    committed."""
    body = await seal_stored_body(
        record_id, account_id, encode_stored_body(await response.get_data(as_text=False))
    )
    headers = json.dumps(
        {h: response.headers[h] for h in _REPLAYED_HEADERS if h in response.headers}
    )
    conn = connections.get("default")
    if conn.capabilities.dialect != "postgres":
        await db.fetch(_COMPLETE_ONE, [response.status_code, body, headers, record_id], conn)
        return
    # Group commit: the completions of concurrent requests share one statement and commit;
    # this request returns once the statement carrying its row has committed.
    completions = coalescer_for_loop(_completions, _write_completions)
    await completions.submit([record_id, response.status_code, body, headers])


async def release(record_id: int, conn: BaseDBAsyncClient | None = None) -> None:
    query = IdempotencyRecord.filter(id=record_id)
    if conn is not None:
        query = query.using_db(conn)
    await query.delete()


async def purge_expired() -> int:
    """Delete records past the replay window (run by the scheduler)."""
    return await IdempotencyRecord.filter(expires_at__lte=datetime.now(UTC)).delete()
