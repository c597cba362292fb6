"""``AstroClient`` and ``AsyncAstroClient``: thin loops around the decision layer in ``_base``.

``AsyncAstroClient`` is written by hand; ``AstroClient``, at the end of this module, is generated
from it by ``scripts/unasync.py``."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import Mapping
from typing import Any, TypeVar

import httpx

from astro_sdk._base import (
    DEFAULT_BASE_URL,
    DEFAULT_TIMEOUT,
    ClientConfig,
    PreparedCall,
    build_call,
    decide_on_exception,
    decide_on_response,
    parse_calendar,
    parse_image,
    parse_success,
    timeout_from,
)
from astro_sdk._exceptions import status_error
from astro_sdk._operation import Operation
from astro_sdk._resource import resource_group
from astro_sdk._retry import DEFAULT_RETRY, RetryPolicy
from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.pictures import ChartImage
from astro_sdk.resources.auth import AsyncAuth, Auth
from astro_sdk.resources.brand_profiles import AsyncBrandProfiles, BrandProfiles
from astro_sdk.resources.calendar_feeds import AsyncCalendarFeeds, CalendarFeeds
from astro_sdk.resources.campaigns import AsyncCampaigns, Campaigns
from astro_sdk.resources.chinese import AsyncChinese, Chinese
from astro_sdk.resources.cultural import AsyncCultural, Cultural
from astro_sdk.resources.customer_visual_readings import (
    AsyncCustomerVisualReadings,
    CustomerVisualReadings,
)
from astro_sdk.resources.developer import (
    Account,
    AsyncAccount,
    AsyncAuditLog,
    AsyncKeys,
    AsyncLedger,
    AsyncUsage,
    AuditLog,
    Keys,
    Ledger,
    Usage,
)
from astro_sdk.resources.developer_session import AsyncDeveloper, Developer
from astro_sdk.resources.estimates import AsyncEstimates, Estimates
from astro_sdk.resources.files import AsyncFiles, Files
from astro_sdk.resources.horoscope_feeds import AsyncHoroscopeFeeds, HoroscopeFeeds
from astro_sdk.resources.horoscopes import AsyncHoroscopes, Horoscopes
from astro_sdk.resources.human_design import AsyncHumanDesign, HumanDesign
from astro_sdk.resources.jobs import AsyncJobs, Jobs
from astro_sdk.resources.korean import AsyncKorean, Korean
from astro_sdk.resources.numerology import AsyncNumerology, Numerology
from astro_sdk.resources.places import AsyncPlaces, Places
from astro_sdk.resources.profiles import AsyncProfiles, Profiles
from astro_sdk.resources.reports import (
    AsyncCustomerReports,
    AsyncReports,
    CustomerReports,
    Reports,
)
from astro_sdk.resources.tarot import AsyncTarot, Tarot
from astro_sdk.resources.team import AsyncTeam, Team
from astro_sdk.resources.thai import AsyncThai, Thai
from astro_sdk.resources.uranian import AsyncUranian, Uranian
from astro_sdk.resources.vedic import AsyncVedic, Vedic
from astro_sdk.resources.visual_reading_deliveries import (
    AsyncVisualReadingDeliveries,
    VisualReadingDeliveries,
)
from astro_sdk.resources.visual_readings import AsyncVisualReadings, VisualReadings
from astro_sdk.resources.webhook_endpoints import AsyncWebhookEndpoints, WebhookEndpoints
from astro_sdk.resources.western import AsyncWestern, Western

__all__ = ["AstroClient", "AsyncAstroClient", "registered_operations"]

ResponseT = TypeVar("ResponseT", bound=ResponseModel)
ClientT = TypeVar("ClientT", bound="_ClientBase")

# Module-level so tests can patch time without touching the process's clock.
_sleep = time.sleep
_async_sleep = asyncio.sleep
_monotonic = time.monotonic


class _NotGiven:
    """Marks a ``with_options`` argument left out (``None`` is a real value there)."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()


class _ResourceGroups:
    """One line per tag group: the sync client gets the first class, the async client its twin."""

    auth = resource_group(Auth, AsyncAuth)
    jobs = resource_group(Jobs, AsyncJobs)
    estimates = resource_group(Estimates, AsyncEstimates)
    account = resource_group(Account, AsyncAccount)
    usage = resource_group(Usage, AsyncUsage)
    ledger = resource_group(Ledger, AsyncLedger)
    keys = resource_group(Keys, AsyncKeys)
    audit_log = resource_group(AuditLog, AsyncAuditLog)
    developer = resource_group(Developer, AsyncDeveloper)
    profiles = resource_group(Profiles, AsyncProfiles)
    team = resource_group(Team, AsyncTeam)
    vedic = resource_group(Vedic, AsyncVedic)
    thai = resource_group(Thai, AsyncThai)
    western = resource_group(Western, AsyncWestern)
    uranian = resource_group(Uranian, AsyncUranian)
    horoscope_feeds = resource_group(HoroscopeFeeds, AsyncHoroscopeFeeds)
    chinese = resource_group(Chinese, AsyncChinese)
    korean = resource_group(Korean, AsyncKorean)
    human_design = resource_group(HumanDesign, AsyncHumanDesign)
    tarot = resource_group(Tarot, AsyncTarot)
    places = resource_group(Places, AsyncPlaces)
    numerology = resource_group(Numerology, AsyncNumerology)
    horoscopes = resource_group(Horoscopes, AsyncHoroscopes)
    cultural = resource_group(Cultural, AsyncCultural)
    reports = resource_group(Reports, AsyncReports)
    customer_reports = resource_group(CustomerReports, AsyncCustomerReports)
    campaigns = resource_group(Campaigns, AsyncCampaigns)
    webhook_endpoints = resource_group(WebhookEndpoints, AsyncWebhookEndpoints)
    calendar_feeds = resource_group(CalendarFeeds, AsyncCalendarFeeds)
    brand_profiles = resource_group(BrandProfiles, AsyncBrandProfiles)
    files = resource_group(Files, AsyncFiles)
    visual_readings = resource_group(VisualReadings, AsyncVisualReadings)
    customer_visual_readings = resource_group(CustomerVisualReadings, AsyncCustomerVisualReadings)
    visual_reading_deliveries = resource_group(
        VisualReadingDeliveries, AsyncVisualReadingDeliveries
    )


def registered_operations() -> dict[str, Operation[Any]]:
    """Every operation the SDK calls, by operation id (what the OpenAPI drift test checks)."""
    found: dict[str, Operation[Any]] = {}
    for attribute in vars(_ResourceGroups).values():
        if isinstance(attribute, resource_group):
            for operation in attribute.sync_cls.operations:
                if operation.operation_id in found:
                    raise ValueError(f"operation id {operation.operation_id} registered twice")
                found[operation.operation_id] = operation
    return found


def _retry_policy(retry: RetryPolicy | None, max_retries: int | None) -> RetryPolicy:
    policy = retry or DEFAULT_RETRY
    if max_retries is not None:
        policy = dataclasses.replace(policy, max_retries=max_retries)
    return policy


class _ClientBase(_ResourceGroups):
    _config: ClientConfig
    _owns_http: bool

    def _init_config(
        self,
        *,
        api_key: str | None,
        session_token: str | None,
        base_url: str | None,
        timeout: float | httpx.Timeout | None,
        max_retries: int | None,
        retry: RetryPolicy | None,
        default_headers: Mapping[str, str] | None,
    ) -> None:
        self._config = ClientConfig(
            base_url=(base_url or os.environ.get("ASTRO_BASE_URL") or DEFAULT_BASE_URL).rstrip("/"),
            api_key=api_key if api_key is not None else (os.environ.get("ASTRO_API_KEY") or None),
            session_token=session_token,
            timeout=timeout_from(timeout),
            retry=_retry_policy(retry, max_retries),
            default_headers=dict(default_headers or {}),
        )

    def _copy_with(
        self: ClientT,
        *,
        api_key: Any,
        session_token: Any,
        base_url: Any,
        timeout: Any,
        max_retries: Any,
        retry: Any,
        default_headers: Any,
    ) -> ClientT:
        config = self._config
        changes: dict[str, Any] = {}
        if api_key is not NOT_GIVEN:
            changes["api_key"] = api_key
        if session_token is not NOT_GIVEN:
            changes["session_token"] = session_token
        if base_url is not NOT_GIVEN:
            changes["base_url"] = str(base_url).rstrip("/")
        if timeout is not NOT_GIVEN:
            changes["timeout"] = timeout_from(timeout)
        if retry is not NOT_GIVEN or max_retries is not NOT_GIVEN:
            changes["retry"] = _retry_policy(
                config.retry if retry is NOT_GIVEN else retry,
                None if max_retries is NOT_GIVEN else max_retries,
            )
        if default_headers is not NOT_GIVEN:
            changes["default_headers"] = {**config.default_headers, **default_headers}
        copy = object.__new__(type(self))
        copy.__dict__.update(
            {k: v for k, v in self.__dict__.items() if k not in {"_resources", "_owns_http"}}
        )
        copy._config = dataclasses.replace(config, **changes)
        copy._owns_http = False  # the pool stays with the client that made it
        return copy

    @property
    def base_url(self) -> str:
        return self._config.base_url

    @property
    def api_key(self) -> str | None:
        return self._config.api_key

    @property
    def session_token(self) -> str | None:
        return self._config.session_token

    @property
    def retry_policy(self) -> RetryPolicy:
        return self._config.retry

    @property
    def timeout(self) -> httpx.Timeout:
        return self._config.timeout

    def __repr__(self) -> str:
        kinds = [
            name
            for name, value in (
                ("api_key", self._config.api_key),
                ("session_token", self._config.session_token),
            )
            if value
        ]
        return f"<{type(self).__name__} {self._config.base_url} credentials={kinds}>"


class AsyncAstroClient(_ClientBase):
    """Client for the Astro API. The async client (``async with``, ``await`` each call) and the
    sync client generated from it take the same arguments and have the same resources.

    Args:
        api_key: sent as ``X-API-Key`` to API-key routes; default ``ASTRO_API_KEY``.
        session_token: a customer session (``service_sess_...``) sent as a bearer token to
            session routes; usually set by ``client.auth.login(email, password)``.
        base_url: default ``ASTRO_BASE_URL``, else ``http://127.0.0.1:8000`` (a local server).
        timeout: seconds per attempt (or an ``httpx.Timeout``).
        max_retries: retries after the first attempt (default 2); see :class:`RetryPolicy`.
        retry: the whole retry policy, when more than ``max_retries`` should change.
        default_headers: sent with every request.
        http_client: your own ``httpx.AsyncClient`` (proxies, TLS, transports); you close it.

    Use it as a context manager, or call ``close()``, to release the connection pool.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        session_token: str | None = None,
        base_url: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int | None = None,
        retry: RetryPolicy | None = None,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._init_config(
            api_key=api_key,
            session_token=session_token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            retry=retry,
            default_headers=default_headers,
        )
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(
            timeout=self._config.timeout, follow_redirects=False
        )

    def with_options(
        self,
        *,
        api_key: str | None = NOT_GIVEN,
        session_token: str | None = NOT_GIVEN,
        base_url: str = NOT_GIVEN,
        timeout: float | httpx.Timeout | None = NOT_GIVEN,
        max_retries: int = NOT_GIVEN,
        retry: RetryPolicy = NOT_GIVEN,
        default_headers: Mapping[str, str] = NOT_GIVEN,
    ) -> AsyncAstroClient:
        """A copy with some options changed, sharing this client's connection pool."""
        return self._copy_with(
            api_key=api_key,
            session_token=session_token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            retry=retry,
            default_headers=default_headers,
        )

    async def request(
        self,
        operation: Operation[ResponseT],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        path_params: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> ResponseT:
        """Call one operation of the registry: build, send with retries, parse."""
        return await self.request_as(
            operation,
            operation.response_model,
            body=body,
            query=query,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )

    async def request_as(
        self,
        operation: Operation[Any],
        cast_to: type[ResponseT],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        path_params: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> ResponseT:
        """Like :meth:`request`, parsing the success into ``cast_to`` (a subclass of the
        operation's response model, e.g. a job handle bound to this client)."""
        call = build_call(
            self._config,
            operation,
            body=body,
            query=query,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        response, attempts = await self._send(call)
        return parse_success(call, response, cast_to, attempts=attempts)

    async def request_image(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """Call a picture operation: the body is the image (SVG or PNG), returned as bytes."""
        call = build_call(
            self._config,
            operation,
            body=body,
            idempotency_key=idempotency_key,
            extra_headers={"Accept": "image/svg+xml, image/png, application/json"},
        )
        response, attempts = await self._send(call)
        return parse_image(call, response, attempts=attempts)

    async def request_calendar(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """Call an operation that also answers iCalendar, asking for it (``Accept:
        text/calendar``): the file's text (RFC 5545, CRLF line ends)."""
        call = build_call(
            self._config,
            operation,
            body=body,
            query=query,
            idempotency_key=idempotency_key,
            extra_headers={"Accept": "text/calendar"},
        )
        response, _attempts = await self._send(call)
        return parse_calendar(call, response)

    async def _send(self, call: PreparedCall) -> tuple[httpx.Response, int]:
        retries_done = 0
        while True:
            request = self._http.build_request(
                call.method,
                call.url,
                headers=call.headers,
                params=call.params,
                content=call.content,
                timeout=self._config.timeout,
            )
            try:
                response = await self._http.send(request)
            except httpx.TransportError as exc:
                outcome = decide_on_exception(self._config, exc, retries_done)
                if outcome.error is not None:
                    raise outcome.error from exc
            else:
                outcome = decide_on_response(self._config, response, retries_done)
                if outcome.error is not None:
                    raise outcome.error
                if outcome.retry_after_s is None:
                    return response, retries_done + 1
            assert outcome.retry_after_s is not None
            await _async_sleep(outcome.retry_after_s)
            retries_done += 1

    async def health(self) -> dict[str, Any]:
        """``GET /healthz``: the server process is alive (an unauthenticated probe)."""
        response = await self._http.get(
            self._config.base_url + "/healthz", timeout=self._config.timeout
        )
        if not response.is_success:
            raise status_error(response)
        body: dict[str, Any] = response.json()
        return body

    async def sleep(self, seconds: float) -> None:
        """Wait (used by retries and job polling; tests patch the module's sleep functions)."""
        await _async_sleep(seconds)

    def monotonic(self) -> float:
        return _monotonic()

    @property
    def is_closed(self) -> bool:
        return self._http.is_closed

    async def close(self) -> None:
        """Release the connection pool (only when this client created it)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncAstroClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class AstroClient(_ClientBase):
    """Client for the Astro API. The async client (``async with``, ``await`` each call) and the
    sync client generated from it take the same arguments and have the same resources.

    Args:
        api_key: sent as ``X-API-Key`` to API-key routes; default ``ASTRO_API_KEY``.
        session_token: a customer session (``service_sess_...``) sent as a bearer token to
            session routes; usually set by ``client.auth.login(email, password)``.
        base_url: default ``ASTRO_BASE_URL``, else ``http://127.0.0.1:8000`` (a local server).
        timeout: seconds per attempt (or an ``httpx.Timeout``).
        max_retries: retries after the first attempt (default 2); see :class:`RetryPolicy`.
        retry: the whole retry policy, when more than ``max_retries`` should change.
        default_headers: sent with every request.
        http_client: your own ``httpx.Client`` (proxies, TLS, transports); you close it.

    Use it as a context manager, or call ``close()``, to release the connection pool.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        session_token: str | None = None,
        base_url: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int | None = None,
        retry: RetryPolicy | None = None,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._init_config(
            api_key=api_key,
            session_token=session_token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            retry=retry,
            default_headers=default_headers,
        )
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(
            timeout=self._config.timeout, follow_redirects=False
        )

    def with_options(
        self,
        *,
        api_key: str | None = NOT_GIVEN,
        session_token: str | None = NOT_GIVEN,
        base_url: str = NOT_GIVEN,
        timeout: float | httpx.Timeout | None = NOT_GIVEN,
        max_retries: int = NOT_GIVEN,
        retry: RetryPolicy = NOT_GIVEN,
        default_headers: Mapping[str, str] = NOT_GIVEN,
    ) -> AstroClient:
        """A copy with some options changed, sharing this client's connection pool."""
        return self._copy_with(
            api_key=api_key,
            session_token=session_token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            retry=retry,
            default_headers=default_headers,
        )

    def request(
        self,
        operation: Operation[ResponseT],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        path_params: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> ResponseT:
        """Call one operation of the registry: build, send with retries, parse."""
        return self.request_as(
            operation,
            operation.response_model,
            body=body,
            query=query,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )

    def request_as(
        self,
        operation: Operation[Any],
        cast_to: type[ResponseT],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        path_params: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> ResponseT:
        """Like :meth:`request`, parsing the success into ``cast_to`` (a subclass of the
        operation's response model, e.g. a job handle bound to this client)."""
        call = build_call(
            self._config,
            operation,
            body=body,
            query=query,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        response, attempts = self._send(call)
        return parse_success(call, response, cast_to, attempts=attempts)

    def request_image(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """Call a picture operation: the body is the image (SVG or PNG), returned as bytes."""
        call = build_call(
            self._config,
            operation,
            body=body,
            idempotency_key=idempotency_key,
            extra_headers={"Accept": "image/svg+xml, image/png, application/json"},
        )
        response, attempts = self._send(call)
        return parse_image(call, response, attempts=attempts)

    def request_calendar(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel | None = None,
        query: RequestModel | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """Call an operation that also answers iCalendar, asking for it (``Accept:
        text/calendar``): the file's text (RFC 5545, CRLF line ends)."""
        call = build_call(
            self._config,
            operation,
            body=body,
            query=query,
            idempotency_key=idempotency_key,
            extra_headers={"Accept": "text/calendar"},
        )
        response, _attempts = self._send(call)
        return parse_calendar(call, response)

    def _send(self, call: PreparedCall) -> tuple[httpx.Response, int]:
        retries_done = 0
        while True:
            request = self._http.build_request(
                call.method,
                call.url,
                headers=call.headers,
                params=call.params,
                content=call.content,
                timeout=self._config.timeout,
            )
            try:
                response = self._http.send(request)
            except httpx.TransportError as exc:
                outcome = decide_on_exception(self._config, exc, retries_done)
                if outcome.error is not None:
                    raise outcome.error from exc
            else:
                outcome = decide_on_response(self._config, response, retries_done)
                if outcome.error is not None:
                    raise outcome.error
                if outcome.retry_after_s is None:
                    return response, retries_done + 1
            assert outcome.retry_after_s is not None
            _sleep(outcome.retry_after_s)
            retries_done += 1

    def health(self) -> dict[str, Any]:
        """``GET /healthz``: the server process is alive (an unauthenticated probe)."""
        response = self._http.get(self._config.base_url + "/healthz", timeout=self._config.timeout)
        if not response.is_success:
            raise status_error(response)
        body: dict[str, Any] = response.json()
        return body

    def sleep(self, seconds: float) -> None:
        """Wait (used by retries and job polling; tests patch the module's sleep functions)."""
        _sleep(seconds)

    def monotonic(self) -> float:
        return _monotonic()

    @property
    def is_closed(self) -> bool:
        return self._http.is_closed

    def close(self) -> None:
        """Release the connection pool (only when this client created it)."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> AstroClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
