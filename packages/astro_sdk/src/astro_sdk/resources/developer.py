"""The developer workflow: ``client.account``, ``client.usage``, ``client.ledger``,
``client.keys`` and ``client.audit_log``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.developer import (
    AccountDetails,
    ApiKey,
    ApiKeyPage,
    AuditEvent,
    AuditEventPage,
    AuditLogQuery,
    CreateApiKeyRequest,
    CreatedApiKey,
    LedgerEntry,
    LedgerPage,
    PageQuery,
    RotateApiKeyRequest,
    RotatedApiKey,
    UsageQuery,
    UsageReport,
)

__all__ = [
    "Account",
    "AsyncAccount",
    "AsyncAuditLog",
    "AsyncKeys",
    "AsyncLedger",
    "AsyncUsage",
    "AuditLog",
    "Keys",
    "Ledger",
    "Usage",
]

GET_ACCOUNT = Operation(
    operation_id="getAccount",
    method="GET",
    path="/api/v3/account",
    credential=Credential.API_KEY,
    response_model=AccountDetails,
)
GET_USAGE = Operation(
    operation_id="getUsage",
    method="GET",
    path="/api/v3/usage",
    credential=Credential.API_KEY,
    response_model=UsageReport,
    query_model=UsageQuery,
)
LIST_LEDGER = Operation(
    operation_id="listLedgerEntries",
    method="GET",
    path="/api/v3/ledger",
    credential=Credential.API_KEY,
    response_model=LedgerPage,
    query_model=PageQuery,
)
LIST_KEYS = Operation(
    operation_id="listApiKeys",
    method="GET",
    path="/api/v3/keys",
    credential=Credential.API_KEY,
    response_model=ApiKeyPage,
    query_model=PageQuery,
)
CREATE_KEY = Operation(
    operation_id="createApiKey",
    method="POST",
    path="/api/v3/keys",
    credential=Credential.API_KEY,
    response_model=CreatedApiKey,
    request_model=CreateApiKeyRequest,
    success_status=201,
)
ROTATE_KEY = Operation(
    operation_id="rotateApiKey",
    method="POST",
    path="/api/v3/keys/{key_id}/rotate",
    credential=Credential.API_KEY,
    response_model=RotatedApiKey,
    request_model=RotateApiKeyRequest,
)
REVOKE_KEY = Operation(
    operation_id="revokeApiKey",
    method="DELETE",
    path="/api/v3/keys/{key_id}",
    credential=Credential.API_KEY,
    response_model=ApiKey,
)
LIST_AUDIT = Operation(
    operation_id="listAuditEvents",
    method="GET",
    path="/api/v3/audit-log",
    credential=Credential.API_KEY,
    response_model=AuditEventPage,
    query_model=AuditLogQuery,
)


def _usage_query(
    start: datetime | str | None, end: datetime | str | None, group_by: str | None
) -> UsageQuery:
    return validate_request(UsageQuery, {"from": start, "to": end, "group_by": group_by})


def _create_body(
    name: str | None, environment: str | None, scopes: Sequence[str] | None
) -> CreateApiKeyRequest:
    return validate_request(
        CreateApiKeyRequest,
        {"name": name, "environment": environment, "scopes": list(scopes) if scopes else None},
    )


def _audit_query(
    start: datetime | str | None,
    end: datetime | str | None,
    action: str | None,
    actor: str | None,
    limit: int | None,
) -> AuditLogQuery:
    return validate_request(
        AuditLogQuery,
        {"from": start, "to": end, "action": action, "actor": actor, "limit": limit},
    )


class AsyncAccount(AsyncResource):
    """``client.account``: the calling account and key."""

    operations = (GET_ACCOUNT,)

    async def get(self) -> AccountDetails:
        """``GET /api/v3/account``: the account (fresh balance, tier, rate limit) and the key
        making the call. Free."""
        return await self._client.request(GET_ACCOUNT)


class AsyncUsage(AsyncResource):
    """``client.usage``: billed calls and credits over a time range, from the ledger."""

    operations = (GET_USAGE,)

    async def get(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: str | None = None,
    ) -> UsageReport:
        """``GET /api/v3/usage``: billed calls and credits charged and refunded in
        ``[start, end)`` (default: the last 30 days before ``end``, itself default now; a naive
        time or an ISO string without offset is UTC), per ``operation`` or per UTC ``day``.
        Free. A range of more than 366 days, or ``end`` not after ``start``, is a 400
        ``BadRequestError`` naming ``to``. A test key's usage is empty."""
        return await self._client.request(GET_USAGE, query=_usage_query(start, end, group_by))


class AsyncLedger(AsyncResource):
    """``client.ledger``: the account's credit ledger (debits, refunds, top-ups)."""

    operations = (LIST_LEDGER,)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[LedgerEntry]:
        """``GET /api/v3/ledger``: the account's ledger rows, newest first. Free. Iterate the
        result for every row across pages (``async for`` on the async client, where awaiting it
        gives the first page); ``.data`` is the first page. A test key's ledger is empty."""
        query = validate_request(PageQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[LedgerEntry]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_LEDGER, query=page_query)
            return AsyncCursorPage(page.entries, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))


class AsyncKeys(AsyncResource):
    """``client.keys``: list, create, rotate and revoke the account's API keys (the ``keys``
    scope; a key without it gets a 403 ``PermissionDeniedError``)."""

    operations = (LIST_KEYS, CREATE_KEY, ROTATE_KEY, REVOKE_KEY)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[ApiKey]:
        """``GET /api/v3/keys``: keys of the caller's environment (revoked ones too), newest
        first; iterate for every one across pages (``async for`` on the async client, where
        awaiting it gives the first page)."""
        query = validate_request(PageQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[ApiKey]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_KEYS, query=page_query)
            return AsyncCursorPage(page.keys, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def create(
        self,
        *,
        name: str | None = None,
        environment: str | None = None,
        scopes: Sequence[str] | None = None,
    ) -> CreatedApiKey:
        """``POST /api/v3/keys``: a new key in the caller's environment; ``.secret`` is shown
        this once. Its scopes must be within the caller's (403 ``PermissionDeniedError``
        otherwise)."""
        return await self._client.request(CREATE_KEY, body=_create_body(name, environment, scopes))

    async def rotate(self, key_id: str, *, grace_s: int | None = None) -> RotatedApiKey:
        """``POST /api/v3/keys/{key_id}/rotate``: a new secret; the old one works ``grace_s``
        more seconds (0 stops it now; at most 7 days). A key of another account or environment
        is a ``NotFoundError``; one already revoked or rotated a ``ConflictError``."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return await self._client.request(ROTATE_KEY, body=body, path_params={"key_id": key_id})

    async def revoke(self, key_id: str) -> ApiKey:
        """``DELETE /api/v3/keys/{key_id}``: revoked at once, in every API process (a revoked
        key comes back as it is). A key of another account or environment is a
        ``NotFoundError``."""
        return await self._client.request(REVOKE_KEY, path_params={"key_id": key_id})


class AsyncAuditLog(AsyncResource):
    """``client.audit_log``: who did what to the account, and when (the ``team`` scope)."""

    operations = (LIST_AUDIT,)

    def list(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> AsyncCursorPager[AuditEvent]:
        """``GET /api/v3/audit-log``: the account's audit rows (who, what, when, request id,
        client address), newest first, filtered by time ``[start, end)``, ``action`` (e.g.
        ``key.revoked``) and ``actor`` (a key or customer id). Needs the ``team`` scope (403
        ``PermissionDeniedError`` otherwise). Iterate for every row across pages (``async for``
        on the async client, where awaiting it gives the first page)."""
        query = _audit_query(start, end, action, actor, limit)

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[AuditEvent]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_AUDIT, query=page_query)
            return AsyncCursorPage(page.events, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Account(SyncResource):
    """``client.account``: the calling account and key."""

    operations = (GET_ACCOUNT,)

    def get(self) -> AccountDetails:
        """``GET /api/v3/account``: the account (fresh balance, tier, rate limit) and the key
        making the call. Free."""
        return self._client.request(GET_ACCOUNT)


class Usage(SyncResource):
    """``client.usage``: billed calls and credits over a time range, from the ledger."""

    operations = (GET_USAGE,)

    def get(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: str | None = None,
    ) -> UsageReport:
        """``GET /api/v3/usage``: billed calls and credits charged and refunded in
        ``[start, end)`` (default: the last 30 days before ``end``, itself default now; a naive
        time or an ISO string without offset is UTC), per ``operation`` or per UTC ``day``.
        Free. A range of more than 366 days, or ``end`` not after ``start``, is a 400
        ``BadRequestError`` naming ``to``. A test key's usage is empty."""
        return self._client.request(GET_USAGE, query=_usage_query(start, end, group_by))


class Ledger(SyncResource):
    """``client.ledger``: the account's credit ledger (debits, refunds, top-ups)."""

    operations = (LIST_LEDGER,)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[LedgerEntry]:
        """``GET /api/v3/ledger``: the account's ledger rows, newest first. Free. Iterate the
        result for every row across pages (``async for`` on the async client, where awaiting it
        gives the first page); ``.data`` is the first page. A test key's ledger is empty."""
        query = validate_request(PageQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[LedgerEntry]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_LEDGER, query=page_query)
            return CursorPage(page.entries, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)


class Keys(SyncResource):
    """``client.keys``: list, create, rotate and revoke the account's API keys (the ``keys``
    scope; a key without it gets a 403 ``PermissionDeniedError``)."""

    operations = (LIST_KEYS, CREATE_KEY, ROTATE_KEY, REVOKE_KEY)

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> CursorPage[ApiKey]:
        """``GET /api/v3/keys``: keys of the caller's environment (revoked ones too), newest
        first; iterate for every one across pages (``async for`` on the async client, where
        awaiting it gives the first page)."""
        query = validate_request(PageQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[ApiKey]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_KEYS, query=page_query)
            return CursorPage(page.keys, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def create(
        self,
        *,
        name: str | None = None,
        environment: str | None = None,
        scopes: Sequence[str] | None = None,
    ) -> CreatedApiKey:
        """``POST /api/v3/keys``: a new key in the caller's environment; ``.secret`` is shown
        this once. Its scopes must be within the caller's (403 ``PermissionDeniedError``
        otherwise)."""
        return self._client.request(CREATE_KEY, body=_create_body(name, environment, scopes))

    def rotate(self, key_id: str, *, grace_s: int | None = None) -> RotatedApiKey:
        """``POST /api/v3/keys/{key_id}/rotate``: a new secret; the old one works ``grace_s``
        more seconds (0 stops it now; at most 7 days). A key of another account or environment
        is a ``NotFoundError``; one already revoked or rotated a ``ConflictError``."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return self._client.request(ROTATE_KEY, body=body, path_params={"key_id": key_id})

    def revoke(self, key_id: str) -> ApiKey:
        """``DELETE /api/v3/keys/{key_id}``: revoked at once, in every API process (a revoked
        key comes back as it is). A key of another account or environment is a
        ``NotFoundError``."""
        return self._client.request(REVOKE_KEY, path_params={"key_id": key_id})


class AuditLog(SyncResource):
    """``client.audit_log``: who did what to the account, and when (the ``team`` scope)."""

    operations = (LIST_AUDIT,)

    def list(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> CursorPage[AuditEvent]:
        """``GET /api/v3/audit-log``: the account's audit rows (who, what, when, request id,
        client address), newest first, filtered by time ``[start, end)``, ``action`` (e.g.
        ``key.revoked``) and ``actor`` (a key or customer id). Needs the ``team`` scope (403
        ``PermissionDeniedError`` otherwise). Iterate for every row across pages (``async for``
        on the async client, where awaiting it gives the first page)."""
        query = _audit_query(start, end, action, actor, limit)

        def fetch(page_cursor: str | None) -> CursorPage[AuditEvent]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_AUDIT, query=page_query)
            return CursorPage(page.events, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)
