"""Client profiles: create, read, list, change, delete and export, each sealed at rest
(``features/profiles/crypto.py``), and ``{"profile_id": ...}`` in place of a birth subject.

A profile belongs to an account and a mode (``livemode``): another account's or the other mode's
profile is "not found", and so is a profile whose data key was destroyed (crypto-shred). Every
action but a calculation's use writes an audit row (``profile.created``, ``profile.read``,
``profile.updated``, ``profile.deleted``, ``profile.exported``) holding the profile id only, and
a listing that returned profiles one ``profile.listed`` row (no object id).

**Profile references** (:func:`resolve_references`): in a request body, any object below the top
level holding ``profile_id`` (``{"subject": {"profile_id": "prof_..."}}``, ``subject_a``, ``boy``,
``records[2].girl``, a report's ``birth_subject``) is replaced by that profile's birth subject
before the body is validated, so every route that takes a subject takes a reference, through the
one body loader of ``@billable``. The reference holds ``profile_id`` only; an unknown id (another
account's, the other mode's, a shredded one, a malformed one) is a 400 ``validation_error`` naming
the field (``subject.profile_id``), before anything is charged. Using a profile in a calculation
writes no audit row (the ledger row and request id record the call): the path stays read-only.

**Cache of references**: each API process keeps a resolved reference (account, mode, profile id
-> birth subject) for up to :data:`REFERENCE_CACHE_S` seconds, so a calculation by reference
costs no database round trip. Every change that could make an entry wrong (a profile updated or
deleted, an account crypto-shredded, by the API or the CLI) bumps the revocation generation that
``platform/auth/guards.py`` already reads with every request's rate-limit hit (Redis in production,
a
file's mtime in embedded mode); an entry read before the generation a request has seen is read
again. So a deleted or shredded profile stops resolving at once in every process, at the price
of API-key lookups being read again once after such a change.
"""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from typing import Any

from tortoise.transactions import in_transaction

from astro_server.features.profiles import crypto as profile_crypto
from astro_server.features.profiles.models import AccountDataKey, ClientProfile, ClientProfileTag
from astro_server.platform import clock, db, runtime
from astro_server.platform.audit import event_view, record_audit
from astro_server.platform.auth import credentials
from astro_server.platform.auth.keys import Announce
from astro_server.platform.auth.scopes import ALL as ALL_SCOPES
from astro_server.platform.auth.scopes import allows
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.audit import AuditEvent
from astro_server.platform.paging import newest_first, unknown_cursor

PROFILE_ID = re.compile(r"^prof_[a-f0-9]{24}$")
REFERENCE_CACHE_S = 60.0
_REFERENCE_CACHE_MAX = 10_000
# (account id, livemode, profile id) -> (generation when read, monotonic expiry, birth subject)
_references: dict[tuple[str, bool, str], tuple[int, float, dict[str, Any]]] = {}
REFERENCE_KEY = "profile_id"
_REFERENCE_BYTES = b'"profile_id"'
#: The personal fields, all sealed together.
PERSONAL_FIELDS = ("name", "birth", "gender", "tags", "external_id", "notes")

_SELECT = (
    "SELECT p.id, p.livemode, p.sealed, p.created_at, p.updated_at, p.data_key_id, "
    "k.wrapped_key FROM client_profiles p JOIN account_data_keys k ON k.id = p.data_key_id "
)


async def announce_change(announce: Announce | None = None) -> None:
    """After a profile changes or a data key is destroyed: every API process reads its cached
    references (and API-key lookups) again (see module docstring)."""
    from astro_server.platform.auth.keys import announce_from_cli

    _references.clear()
    await (announce or announce_from_cli)()


async def crypto_shred(account_id: str, announce: Announce | None = None) -> int:
    """Destroy the account's data keys; returns how many. Its profiles can never be read again
    (see :mod:`astro_server.features.profiles.crypto`), and every process drops the references
    it resolved."""
    count = await AccountDataKey.filter(account_id=account_id, wrapped_key__not_isnull=True).update(
        wrapped_key=None, destroyed_at=clock.now()
    )
    profile_crypto.forget_keys()
    await announce_change(announce)
    return int(count)


def _master_key() -> str:
    return runtime.settings().secret_key


def _moment(value: datetime | str) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _view(row: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        **{name: data.get(name) for name in PERSONAL_FIELDS},
        "tags": data.get("tags") or [],
        "livemode": bool(row["livemode"]),
        "created_at": clock.iso(_moment(row["created_at"])),
        "updated_at": clock.iso(_moment(row["updated_at"])),
    }


async def _load(caller: Caller, profile_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The row and its opened fields; 404 for anything not readable by this caller."""
    if not PROFILE_ID.match(profile_id):
        raise not_found("Profile")
    rows = await db.fetch(
        _SELECT + "WHERE p.id = ? AND p.account_id = ? AND p.livemode = ?",
        [profile_id, caller.account_id, caller.livemode],
    )
    if not rows:
        raise not_found("Profile")
    row = rows[0]
    try:
        key = profile_crypto.unwrap(_master_key(), str(row["data_key_id"]), row["wrapped_key"])
        return row, key.open(profile_id, str(row["sealed"]))
    except profile_crypto.KeyUnavailable:
        raise not_found("Profile") from None


def _clean_tags(tags: list[str] | None) -> list[str]:
    return list(dict.fromkeys(tags or []))  # unique, in the order given


async def _write_indexes(
    conn: Any, account_id: str, profile_id: str, key: profile_crypto.DataKey, tags: list[str]
) -> None:
    await ClientProfileTag.filter(profile_id=profile_id).using_db(conn).delete()
    if tags:
        await ClientProfileTag.bulk_create(
            [
                ClientProfileTag(
                    profile_id=profile_id,
                    account_id=account_id,
                    tag_index=key.blind_index("tag", tag),
                )
                for tag in tags
            ],
            using_db=conn,
        )


def _external_index(key: profile_crypto.DataKey, external_id: str | None) -> str | None:
    return None if external_id is None else key.blind_index("external_id", external_id)


async def create_profile(caller: Caller, data: dict[str, Any]) -> dict[str, Any]:
    account_id = caller.account_id
    data = {**data, "tags": _clean_tags(data.get("tags"))}
    profile_id = credentials.new_id("prof_")
    now = clock.now()
    async with in_transaction() as conn:
        key = await profile_crypto.active_key(_master_key(), account_id, create=True, conn=conn)
        assert key is not None
        await ClientProfile.create(
            id=profile_id,
            account_id=account_id,
            livemode=caller.livemode,
            data_key_id=key.id,
            sealed=key.seal(profile_id, data),
            external_id_index=_external_index(key, data.get("external_id")),
            created_at=now,
            updated_at=now,
            using_db=conn,
        )
        await _write_indexes(conn, account_id, profile_id, key, data["tags"])
        await record_audit(caller, "profile.created", profile_id, using_db=conn)
    row = {"id": profile_id, "livemode": caller.livemode, "created_at": now, "updated_at": now}
    return _view(row, data)


async def get_profile(caller: Caller, profile_id: str) -> dict[str, Any]:
    row, data = await _load(caller, profile_id)
    await record_audit(caller, "profile.read", profile_id)
    return _view(row, data)


async def update_profile(
    caller: Caller,
    profile_id: str,
    changes: dict[str, Any],
    announce: Announce | None = None,
) -> dict[str, Any]:
    account_id = caller.account_id
    row, data = await _load(caller, profile_id)
    if "tags" in changes:
        changes = {**changes, "tags": _clean_tags(changes["tags"])}
    data = {**data, **changes}
    now = clock.now()
    key = profile_crypto.unwrap(_master_key(), str(row["data_key_id"]), row["wrapped_key"])
    async with in_transaction() as conn:
        updated = (
            await ClientProfile.filter(id=profile_id, account_id=account_id)
            .using_db(conn)
            .update(
                sealed=key.seal(profile_id, data),
                external_id_index=_external_index(key, data.get("external_id")),
                updated_at=now,
            )
        )
        if not updated:  # deleted meanwhile
            raise not_found("Profile")
        if "tags" in changes:
            await _write_indexes(conn, account_id, profile_id, key, data["tags"])
        await record_audit(caller, "profile.updated", profile_id, using_db=conn)
    if "birth" in changes:
        await announce_change(announce)
    return _view({**row, "updated_at": now}, data)


async def delete_profile(caller: Caller, profile_id: str, announce: Announce | None = None) -> None:
    """Erase the profile (its row and index rows); a shredded one is erased too."""
    account_id = caller.account_id
    if not PROFILE_ID.match(profile_id):
        raise not_found("Profile")
    async with in_transaction() as conn:
        deleted = (
            await ClientProfile.filter(
                id=profile_id, account_id=account_id, livemode=caller.livemode
            )
            .using_db(conn)
            .delete()
        )
        if not deleted:
            raise not_found("Profile")
        await record_audit(caller, "profile.deleted", profile_id, using_db=conn)
    await announce_change(announce)


async def export_profile(caller: Caller, profile_id: str) -> dict[str, Any]:
    """Everything held about the person: the profile and the audit rows about it."""
    account_id = caller.account_id
    row, data = await _load(caller, profile_id)
    await record_audit(caller, "profile.exported", profile_id)
    events = await AuditEvent.filter(account_id=account_id, object_id=profile_id).order_by("id")
    return {
        "profile": _view(row, data),
        "audit_events": [event_view(e) for e in events],
        "exported_at": clock.iso(clock.now()),
    }


async def list_profiles(
    caller: Caller,
    *,
    limit: int,
    cursor: str | None,
    tag: str | None,
    external_id: str | None,
) -> tuple[list[dict[str, Any]], str | None]:
    """The account's readable profiles of the caller's mode, newest first."""
    account_id = caller.account_id
    livemode = caller.livemode
    key = await profile_crypto.active_key(_master_key(), account_id, create=False)
    if key is None:
        return [], None
    query = ClientProfile.filter(account_id=account_id, livemode=livemode, data_key_id=key.id)
    if external_id is not None:
        query = query.filter(external_id_index=key.blind_index("external_id", external_id))
    if tag is not None:
        query = query.filter(tag_rows__tag_index=key.blind_index("tag", tag))
    if cursor is not None and not PROFILE_ID.match(cursor):
        raise unknown_cursor()
    owned = ClientProfile.filter(account_id=account_id, livemode=livemode)
    rows, next_cursor = await newest_first(query, limit=limit, cursor=cursor, scope=owned)
    views = []
    for profile in rows:
        row = {
            "id": profile.id,
            "livemode": profile.livemode,
            "created_at": profile.created_at,
            "updated_at": profile.updated_at,
        }
        views.append(_view(row, key.open(profile.id, profile.sealed)))
    if views:
        await record_audit(caller, "profile.listed", None)
    return views, next_cursor


# --- references in calculation bodies ---------------------------------------------------------


def _bad_reference(field: str, message: str) -> APIError:
    return validation_error([{"field": field, "message": message}])


async def _subject_of(
    account_id: str, livemode: bool, key_generation: int, reference: Any, field: str
) -> Any:
    profile_id = reference.get(REFERENCE_KEY)
    extra = sorted(k for k in reference if k != REFERENCE_KEY)
    if extra:
        return_field = f"{field}.{extra[0]}"
        raise _bad_reference(return_field, "not allowed together with profile_id")
    if not isinstance(profile_id, str) or not PROFILE_ID.match(profile_id):
        raise _bad_reference(f"{field}.profile_id", "must be a profile id (prof_ + 24 hex)")
    cache_key = (account_id, livemode, profile_id)
    generation = key_generation  # as of this request's rate-limit hit
    now = time.monotonic()
    cached = _references.get(cache_key)
    if cached is not None and cached[0] >= generation and cached[1] > now:
        return dict(cached[2])
    rows = await db.fetch(
        _SELECT + "WHERE p.id = ? AND p.account_id = ? AND p.livemode = ?",
        [profile_id, account_id, livemode],
    )
    try:
        if not rows:
            raise profile_crypto.KeyUnavailable(profile_id)
        row = rows[0]
        key = profile_crypto.unwrap(_master_key(), str(row["data_key_id"]), row["wrapped_key"])
        birth = key.open(profile_id, str(row["sealed"]))["birth"]
    except profile_crypto.KeyUnavailable:
        raise _bad_reference(f"{field}.profile_id", "no such profile") from None
    subject = {name: value for name, value in birth.items() if value is not None}
    if len(_references) >= _REFERENCE_CACHE_MAX:
        _references.clear()
    _references[cache_key] = (generation, now + REFERENCE_CACHE_S, subject)
    return dict(subject)


def _holds_reference(value: Any) -> bool:
    """Whether any object below the top holds ``profile_id`` (what :func:`_resolve` replaces)."""
    if isinstance(value, dict):
        return any(
            (isinstance(item, dict) and REFERENCE_KEY in item) or _holds_reference(item)
            for item in value.values()
        )
    if isinstance(value, list):
        return any(
            (isinstance(item, dict) and REFERENCE_KEY in item) or _holds_reference(item)
            for item in value
        )
    return False


async def _resolve(value: Any, path: str, account_id: str, livemode: bool, generation: int) -> Any:
    if isinstance(value, dict):
        out = {}
        for name, item in value.items():
            where = f"{path}.{name}" if path else str(name)
            if isinstance(item, dict) and REFERENCE_KEY in item:
                out[name] = await _subject_of(account_id, livemode, generation, item, where)
            else:
                out[name] = await _resolve(item, where, account_id, livemode, generation)
        return out
    if isinstance(value, list):
        return [
            await _resolve(item, f"{path}[{i}]", account_id, livemode, generation)
            for i, item in enumerate(value)
        ]
    return value


async def resolve_references(
    raw: bytes,
    *,
    account_id: str,
    livemode: bool,
    key_generation: int,
    scopes: tuple[str, ...] = (ALL_SCOPES,),
) -> bytes:
    """The body with each profile reference replaced by the profile's birth subject (see module
    docstring); the same bytes when it holds none (one substring test). ``key_generation`` is
    the revocation generation the request has seen: a cached reference older than it is read
    again. A reference reads a profile's birth data, so the caller's ``scopes`` must hold
    ``profiles`` (403 otherwise, as ``GET /api/v3/profiles/{id}`` would answer)."""
    if _REFERENCE_BYTES not in raw:
        return raw
    try:
        body = json.loads(raw)
    except ValueError:
        return raw  # the validator answers it
    if not isinstance(body, dict):
        return raw
    if not _holds_reference(body):
        return raw
    if not allows(frozenset(scopes), "profiles"):
        raise APIError(
            403,
            "A profile_id reference needs the 'profiles' scope, which this API key lacks.",
            error="forbidden",
        )
    resolved = await _resolve(body, "", account_id, livemode, key_generation)
    return json.dumps(resolved, separators=(",", ":")).encode()


async def profile_birth(account_id: str, livemode: bool, profile_id: str) -> dict[str, Any]:
    """The birth subject of the account's profile (what a ``{"profile_id": ...}`` reference
    becomes), for a reader without a request, such as a calendar feed; a 400 naming
    ``profile_id`` when there is no such profile (another account's, the other mode's, deleted
    or crypto-shredded)."""
    try:
        return dict(
            await _subject_of(account_id, livemode, 0, {REFERENCE_KEY: profile_id}, "profile")
        )
    except APIError:
        raise _bad_reference("profile_id", "no such profile") from None
