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


def _usage_query(start: datetime | None, end: datetime | None, group_by: str | None) -> UsageQuery:
    return validate_request(UsageQuery, {"from": start, "to": end, "group_by": group_by})


def _create_body(
    name: str | None, environment: str | None, scopes: Sequence[str] | None
) -> CreateApiKeyRequest:
    return validate_request(
        CreateApiKeyRequest,
        {"name": name, "environment": environment, "scopes": list(scopes) if scopes else None},
    )


def _audit_query(
    start: datetime | None,
    end: datetime | None,
    action: str | None,
    actor: str | None,
    limit: int | None,
) -> AuditLogQuery:
    return validate_request(
        AuditLogQuery,
        {"from": start, "to": end, "action": action, "actor": actor, "limit": limit},
    )


class Account(SyncResource):
    operations = (GET_ACCOUNT,)

    def get(self) -> AccountDetails:
        """``GET /api/v3/account``: the account (fresh balance, tier, rate limit) and the key
        making the call. Free."""
        return self._client.request(GET_ACCOUNT)


class AsyncAccount(AsyncResource):
    operations = (GET_ACCOUNT,)

    async def get(self) -> AccountDetails:
        """``GET /api/v3/account``; see :meth:`Account.get`."""
        return await self._client.request(GET_ACCOUNT)


class Usage(SyncResource):
    operations = (GET_USAGE,)

    def get(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        group_by: str | None = None,
    ) -> UsageReport:
        """``GET /api/v3/usage``: billed calls and credits charged and refunded in
        ``[start, end)`` (default: the last 30 days), per ``operation`` or per ``day``."""
        return self._client.request(GET_USAGE, query=_usage_query(start, end, group_by))


class AsyncUsage(AsyncResource):
    operations = (GET_USAGE,)

    async def get(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        group_by: str | None = None,
    ) -> UsageReport:
        """``GET /api/v3/usage``; see :meth:`Usage.get`."""
        return await self._client.request(GET_USAGE, query=_usage_query(start, end, group_by))


class Ledger(SyncResource):
    operations = (LIST_LEDGER,)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[LedgerEntry]:
        """``GET /api/v3/ledger``: the account's ledger rows, newest first. Iterate the result
        for every row across pages; ``.data`` is the first page."""
        query = validate_request(PageQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[LedgerEntry]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_LEDGER, query=page_query)
            return CursorPage(page.entries, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)


class AsyncLedger(AsyncResource):
    operations = (LIST_LEDGER,)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[LedgerEntry]:
        """``GET /api/v3/ledger``: ``await`` for the first page, ``async for`` for every row."""
        query = validate_request(PageQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[LedgerEntry]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_LEDGER, query=page_query)
            return AsyncCursorPage(page.entries, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))


class Keys(SyncResource):
    operations = (LIST_KEYS, CREATE_KEY, ROTATE_KEY, REVOKE_KEY)

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> CursorPage[ApiKey]:
        """``GET /api/v3/keys``: keys of the caller's environment, newest first (needs the
        ``keys`` scope)."""
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
        """``POST /api/v3/keys``: a new key; ``.secret`` is shown this once. Its scopes must be
        within the caller's."""
        return self._client.request(CREATE_KEY, body=_create_body(name, environment, scopes))

    def rotate(self, key_id: str, *, grace_s: int | None = None) -> RotatedApiKey:
        """``POST /api/v3/keys/{key_id}/rotate``: a new secret; the old one works ``grace_s``
        more seconds (0 to 7 days)."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return self._client.request(ROTATE_KEY, body=body, path_params={"key_id": key_id})

    def revoke(self, key_id: str) -> ApiKey:
        """``DELETE /api/v3/keys/{key_id}``: revoked at once, everywhere."""
        return self._client.request(REVOKE_KEY, path_params={"key_id": key_id})


class AsyncKeys(AsyncResource):
    operations = (LIST_KEYS, CREATE_KEY, ROTATE_KEY, REVOKE_KEY)

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[ApiKey]:
        """``GET /api/v3/keys``; see :meth:`Keys.list`."""
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
        """``POST /api/v3/keys``; see :meth:`Keys.create`."""
        return await self._client.request(CREATE_KEY, body=_create_body(name, environment, scopes))

    async def rotate(self, key_id: str, *, grace_s: int | None = None) -> RotatedApiKey:
        """``POST /api/v3/keys/{key_id}/rotate``; see :meth:`Keys.rotate`."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return await self._client.request(ROTATE_KEY, body=body, path_params={"key_id": key_id})

    async def revoke(self, key_id: str) -> ApiKey:
        """``DELETE /api/v3/keys/{key_id}``; see :meth:`Keys.revoke`."""
        return await self._client.request(REVOKE_KEY, path_params={"key_id": key_id})


class AuditLog(SyncResource):
    operations = (LIST_AUDIT,)

    def list(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> CursorPage[AuditEvent]:
        """``GET /api/v3/audit-log``: the account's audit rows, newest first (needs the
        ``team`` scope)."""
        query = _audit_query(start, end, action, actor, limit)

        def fetch(page_cursor: str | None) -> CursorPage[AuditEvent]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_AUDIT, query=page_query)
            return CursorPage(page.events, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)


class AsyncAuditLog(AsyncResource):
    operations = (LIST_AUDIT,)

    def list(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> AsyncCursorPager[AuditEvent]:
        """``GET /api/v3/audit-log``; see :meth:`AuditLog.list`."""
        query = _audit_query(start, end, action, actor, limit)

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[AuditEvent]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_AUDIT, query=page_query)
            return AsyncCursorPage(page.events, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))
