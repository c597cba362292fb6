"""Authentication: who is calling, with which credential, within which rate limit.

Two credential kinds (spec, Authentication):

* API key: ``X-API-Key: ak_live_...`` or ``Authorization: Bearer ak_live_...``; routes decorated
  with :func:`require_api_key`.
* Customer session token: ``Authorization: Bearer service_sess_...`` from ``POST /auth/login``;
  routes decorated with :func:`require_session`.

The wrong kind on a route is a 401 whose message names the kind the route takes; both kinds on
one request (``X-API-Key`` beside a different ``Authorization: Bearer``) are a 401 that names the
conflict (spec, Authentication rule 2). Missing, unknown, revoked or expired credentials are 401
``unauthorized`` (code ``"401"``). After authentication the per-credential, per-tier rate limit is
applied; its decision goes out as ``RateLimit-*`` headers on the response (429 ``rate_limited``
with ``Retry-After`` past the limit). A request without a valid credential (a 401, or a 404/405
on no route) is counted against its client address with the ``free`` tier's limit instead, so it
carries the same headers and cannot probe keys without bound.

Stack them under the route decorator::

    @blueprint.post("/api/v3/western/natal")
    @require_api_key
    @billable("western.natal", body=NatalRequest)
    async def natal(data: NatalRequest) -> Response: ...

Session routes also check the customer's team role (``platform/auth/roles.py``: GET needs
``viewer``, other methods ``member``, unless the handler says ``@require_role(...)``). API-key
routes check a declared ``@require_role(...)`` against the key's effective role (its maker's
role at minting: a key never has more power than the login that minted it).

Both build the frozen :class:`~astro_server.platform.caller.Caller` (account, credential,
scopes, mode, role, request id, client address) and hand it to the handler as its ``caller``
argument when the handler's signature declares one (read once, when the route is decorated)::

    @blueprint.get("/api/v3/reports/<report_id>")
    @require_api_key
    async def get_report(report_id: str, caller: Caller) -> Response:
        return json_response(await reports.get_report(caller, report_id))

A handler that does not declare ``caller`` is called as it was. The handler passes the caller
on to services; nothing below the edge reads Quart's ``g``. ``g.caller`` (kept by
:mod:`~astro_server.platform.handler_args` for ``@billable`` and the body loader) and
``g.account``/``g.credential_id`` (the access log, set before the rate limit so a 429 names the
account) are the request plumbing's own.

API keys also carry scopes (``platform/auth/scopes.py``: a call outside them is 403 ``forbidden``
naming the scope), an environment (``ak_test_`` keys: ``caller.livemode`` False, their own rate
limit ``Settings.test_rate_limit``) and, once rotated, an end of their grace period. Revocation is
immediate in every API process: lookups are cached per process for ``Settings.api_key_cache_s``,
but each request also reads the revocation generation (bumped after every revocation and
rotation, shared through Redis in production, riding in the rate limiter's pipeline); a cached
lookup older than the current generation is read again from the database.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from typing import Any, Final, TypeVar, cast

from quart import current_app, g, request
from quart_schema import (
    APIKeySecurityScheme,
    HttpSecurityScheme,
    document_response,
    security_scheme,
)

from astro_server.platform import clock, db
from astro_server.platform.auth import credentials, roles, scopes
from astro_server.platform.caller import Caller, CredentialKind
from astro_server.platform.errors import APIError, unauthorized
from astro_server.platform.handler_args import keep_caller, wants_caller
from astro_server.platform.models.accounts import Account, Customer, CustomerSession
from astro_server.platform.ratelimit import RateLimitDecision
from astro_server.platform.runtime import platform
from astro_server.platform.schemas import ErrorBody

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
T = TypeVar("T")

API_KEY_SECURITY: list[dict[str, list[str]]] = [{"ApiKeyHeader": []}, {"ApiKeyBearer": []}]
SESSION_SECURITY: list[dict[str, list[str]]] = [{"SessionBearer": []}]
# API key: X-API-Key header, or the raw key as a bearer token; session: service_sess_* bearer.
SECURITY_SCHEMES: dict[str, Any] = {
    "ApiKeyHeader": APIKeySecurityScheme(name="X-API-Key", in_="header"),
    "ApiKeyBearer": HttpSecurityScheme(scheme="bearer", bearer_format="ak_live_* / ak_test_*"),
    "SessionBearer": HttpSecurityScheme(scheme="bearer", bearer_format="service_sess_*"),
}

_TOO_MANY_LOGINS = "Too many login attempts; retry after the reset."
_API_KEY_ROUTE = (
    "This operation takes an API key (X-API-Key or Authorization: Bearer <API key>), "
    "not a customer session token."
)
_SESSION_ROUTE = (
    "This operation takes a customer session token (Authorization: Bearer service_sess_...) "
    "from POST /auth/login, not an API key."
)


_BOTH_CREDENTIALS = (
    "Send one credential: this request carries both X-API-Key and a different "
    "Authorization: Bearer credential."
)


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


_KEY_LOOKUP = (
    "SELECT k.id AS key_id, k.key_hash, k.revoked_at, k.environment, k.scopes, k.expires_at, "
    "k.last_used_at, k.creator_role, a.id, a.name, a.tier, a.credits, a.created_at "
    "FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?"
)
# last_used_at is written when a lookup finds it older than this (not on every request).
_LAST_USED_RESOLUTION_S = 60.0


@dataclass(frozen=True)
class _KnownKey:
    """One API-key lookup as read from the database, kept for a few seconds."""

    fresh_until: float  # time.monotonic()
    key_id: str
    revoked: bool
    environment: str
    scopes: frozenset[str]
    expires_at: datetime | None
    role: str  # the key's effective role (roles.key_role)
    generation: int  # the revocation generation known when it was read
    account_id: str
    name: str
    tier: str
    credits: int
    created_at: datetime


# Key digest -> lookup. Per process, at most _KEY_CACHE_MAX entries, each trusted for
# Settings.api_key_cache_s seconds: a key revoked by another process (the CLI, another API
# process) stops working within that time; a revocation made in this process (or a call to
# forget_api_keys) takes effect at once. Unknown keys are never cached.
_known_keys: dict[str, _KnownKey] = {}
_KEY_CACHE_MAX = 10_000


@dataclass(frozen=True)
class KeyIdentity:
    """The API key a request was authenticated with."""

    key_id: str
    environment: str  # live | test
    scopes: frozenset[str]
    role: str = "owner"  # effective role: its maker's at minting (roles.key_role)

    @property
    def livemode(self) -> bool:
        return self.environment == "live"


def forget_api_keys() -> None:
    """Drop this process's cached API-key lookups (after a revocation)."""
    _known_keys.clear()


def _as_utc(value: datetime | str | None) -> datetime | None:
    """A timestamp column read by raw SQL: SQLite hands back ISO text (naive means UTC)."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def _look_up_key(key_hash: str, ttl_s: float) -> _KnownKey | None:
    now = time.monotonic()
    known = _known_keys.get(key_hash)
    if known is not None and known.fresh_until > now:
        return known
    # The highest generation this app has seen, read before the row: a revocation committed
    # after it shows as a newer generation on the next request.
    generation = platform().key_generation_seen
    rows = await db.fetch(_KEY_LOOKUP, [key_hash])
    if not rows or not credentials.digests_equal(str(rows[0]["key_hash"]), key_hash):
        return None
    row = rows[0]
    last_used = _as_utc(row["last_used_at"])
    wall = clock.now()
    if row["revoked_at"] is None and (
        last_used is None or (wall - last_used).total_seconds() >= _LAST_USED_RESOLUTION_S
    ):
        await db.fetch(
            "UPDATE api_keys SET last_used_at = ? WHERE id = ?", [wall, str(row["key_id"])]
        )
    known = _KnownKey(
        fresh_until=now + ttl_s,
        key_id=str(row["key_id"]),
        revoked=row["revoked_at"] is not None,
        environment=str(row["environment"]),
        scopes=scopes.parse(str(row["scopes"])),
        expires_at=_as_utc(row["expires_at"]),
        role=roles.key_role(row["creator_role"]),
        generation=generation,
        account_id=str(row["id"]),
        name=str(row["name"]),
        tier=str(row["tier"]),
        credits=int(row["credits"]),
        created_at=row["created_at"],
    )
    if ttl_s > 0:
        if len(_known_keys) >= _KEY_CACHE_MAX:
            for stale in [k for k, v in _known_keys.items() if v.fresh_until <= now]:
                del _known_keys[stale]
            if len(_known_keys) >= _KEY_CACHE_MAX:
                _known_keys.clear()
        _known_keys[key_hash] = known
    return known


async def authenticate_api_key(secret: str, cache_s: float = 0.0) -> tuple[str, Account]:
    """The key's id and its account: one indexed query, or none while a lookup of the same key
    made less than ``cache_s`` seconds ago is cached in this process.

    The account's ``tier`` and ``credits`` are as of that lookup: the debit statement checks
    tier and balance itself, and a route that shows the balance reads it afresh.
    """
    identity, account, _ = await _authenticate_key(credentials.digest(secret), cache_s)
    return identity.key_id, account


async def _authenticate_key(key_hash: str, cache_s: float) -> tuple[KeyIdentity, Account, int]:
    """The key, its account and the revocation generation its lookup is as of."""
    known = await _look_up_key(key_hash, cache_s)
    if known is None:
        raise unauthorized("Invalid API key.")
    if known.revoked:
        raise unauthorized("This API key has been revoked.")
    if known.expires_at is not None and known.expires_at <= clock.now():
        raise unauthorized("This API key was rotated and its grace period has ended.")
    identity = KeyIdentity(known.key_id, known.environment, known.scopes, known.role)
    account = Account._init_from_db(
        id=known.account_id,
        name=known.name,
        tier=known.tier,
        credits=known.credits,
        created_at=known.created_at,
    )
    return identity, account, known.generation


def _drop_cached(key_hash: str) -> None:
    _known_keys.pop(key_hash, None)


def _forbidden_scope(needed: str) -> APIError:
    return APIError(
        403,
        f"This API key lacks the {needed!r} scope this operation needs.",
        error="forbidden",
    )


def _forbidden_key_role(needed: str, held: str) -> APIError:
    return APIError(
        403,
        f"This operation needs the {needed!r} role or higher; this API key acts as {held!r}, "
        "the role of the login that minted it.",
        error="forbidden",
    )


async def authenticate_session(token: str) -> tuple[CustomerSession, Customer, Account]:
    token_hash = credentials.digest(token)
    session = await CustomerSession.get_or_none(token_hash=token_hash).select_related(
        "customer__account"
    )
    if session is None or not credentials.digests_equal(session.token_hash, token_hash):
        raise unauthorized("Invalid session token.")
    if session.revoked_at is not None:
        raise unauthorized("This session has ended; log in again.")
    if session.expires_at <= datetime.now(UTC):
        raise unauthorized("This session has expired; log in again.")
    customer = session.customer
    if customer.disabled_at is not None:
        raise unauthorized("This customer is disabled.")
    return session, customer, customer.account


def rate_limit_for(tier: str, livemode: bool = True) -> int:
    """Requests per minute of a credential: its tier's, or the test keys' own limit."""
    settings = platform().settings
    if not livemode:
        return settings.test_rate_limit
    return settings.rate_limits.get(tier, settings.rate_limits["free"])


async def enforce_rate_limit(credential_id: str, tier: str, livemode: bool = True) -> int:
    """Count the request; returns the revocation generation read with it."""
    decision = await platform().rate_limiter.hit(
        f"cred:{credential_id}", rate_limit_for(tier, livemode)
    )
    g.rate_limit = decision
    state = platform()
    state.key_generation_seen = max(state.key_generation_seen, decision.generation)
    if not decision.allowed:
        raise decision.error()
    return decision.generation


async def announce_key_change() -> None:
    """After a key is revoked or rotated (committed): every API process reads its keys again
    from the database on its next request (this one at once)."""
    forget_api_keys()
    await platform().rate_limiter.bump_generation()


async def limit_unauthenticated() -> None:
    """Count a request that presented no valid credential against its client address (the
    ``free`` tier's limit); sets the ``RateLimit-*`` headers, 429 past the limit."""
    state = platform()
    limit = state.settings.rate_limits.get("free", 60)
    decision = await state.rate_limiter.hit(f"addr:{request.remote_addr or 'unknown'}", limit)
    g.rate_limit = decision
    if not decision.allowed:
        raise decision.error()


async def limit_public_read(key: str, limit: int, window_s: int) -> None:
    """Count a request of a route that takes no credential (a calendar feed's file) against
    ``key`` (a client address, a feed): ``limit`` requests per ``window_s`` seconds; sets the
    ``RateLimit-*`` headers, 429 past the limit."""
    decision = await platform().rate_limiter.hit(key, limit, window_s)
    g.rate_limit = decision
    if not decision.allowed:
        raise decision.error()


#: Set on a view that checks a credential (or counts its own attempts, as the login does): the
#: keyless limit (:func:`limit_keyless`) leaves it alone.
CHECKS_CREDENTIAL: Final = "_astro_checks_credential"
#: Keyless routes not counted per address: probes (a load balancer polls them), the metrics
#: scrape (its own token), the signed file and upload URLs (the signature is the credential) and
#: the calendar feed files (the feed's token is the credential; they have their own per-address
#: and per-feed limits, :func:`limit_public_read`).
_KEYLESS_EXEMPT: Final = ("/healthz", "/readyz", "/metrics", "/files/", "/uploads/", "/calendar/")


#: The client address of the server's own in-process requests (the MCP edge reading the OpenAPI
#: document once): not an IP address, so no client and no forwarding header can claim it.
INTERNAL_CLIENT: Final = "astro-internal"


def checks_credential(func: F) -> F:
    """Mark a view as checking its own credential (see :data:`CHECKS_CREDENTIAL`)."""
    setattr(func, CHECKS_CREDENTIAL, True)
    return func


async def limit_keyless() -> None:
    """The one limit on keyless traffic (issue 50), before every request (app.py): a request to
    a route that checks no credential (the documentation, ``/openapi.json``, the portal's public
    pages and its static files, accepting an invitation) counts against its client address
    exactly as a request whose credential failed (:func:`limit_unauthenticated`: one counter per
    address, the ``free`` tier's limit, 429 with ``Retry-After``). Keyless ``/mcp`` requests
    count against the same counter (platform/mcp/server.py). Unrouted requests are counted by
    :func:`limit_unrouted` instead."""
    if request.url_rule is None or request.path.startswith(_KEYLESS_EXEMPT):
        return
    if request.remote_addr == INTERNAL_CLIENT:
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None or getattr(view, CHECKS_CREDENTIAL, False):
        return
    await limit_unauthenticated()


async def limit_keyless_address(address: str) -> RateLimitDecision:
    """Count one keyless request of ``address`` (outside a Quart request: the MCP edge) on the
    same counter as :func:`limit_unauthenticated`; the caller answers 429 when not allowed."""
    state = platform()
    limit = state.settings.rate_limits.get("free", 60)
    return await state.rate_limiter.hit(f"addr:{address or 'unknown'}", limit)


async def holds_valid_api_key(secret: str) -> bool:
    """Whether ``secret`` is a live, unrevoked, unexpired API key (the cached lookup): the MCP
    edge counts a request without one as keyless."""
    if not secret or credentials.looks_like_session_token(secret):
        return False
    try:
        await _authenticate_key(credentials.digest(secret), platform().settings.api_key_cache_s)
    except APIError:
        return False
    return True


def _refuse_two_credentials() -> None:
    key = request.headers.get("X-API-Key", "").strip()
    bearer = _bearer()
    if key and bearer and bearer != key:
        raise unauthorized(_BOTH_CREDENTIALS)


async def _identify_api_key() -> tuple[KeyIdentity, Account, int, str]:
    """The request's key, its account, the revocation generation of the lookup, the digest."""
    _refuse_two_credentials()
    secret = request.headers.get("X-API-Key", "").strip() or _bearer()
    if not secret:
        raise unauthorized("Missing API key: send X-API-Key or Authorization: Bearer <API key>.")
    if credentials.looks_like_session_token(secret):
        raise unauthorized(_API_KEY_ROUTE)
    key_hash = credentials.digest(secret)
    key, account, generation = await _authenticate_key(
        key_hash, platform().settings.api_key_cache_s
    )
    return key, account, generation, key_hash


async def _identify_session() -> tuple[CustomerSession, Customer, Account]:
    _refuse_two_credentials()
    token = _bearer()
    if request.headers.get("X-API-Key") or (token and credentials.looks_like_api_key(token)):
        raise unauthorized(_SESSION_ROUTE)
    if not token:
        raise unauthorized(
            "Missing session token: send Authorization: Bearer service_sess_... "
            "from POST /auth/login."
        )
    return await authenticate_session(token)


async def limit_unrouted() -> None:
    """Rate-limit a request that matched no route (404) or not its method (405): against its
    credential when it carries a valid one, else against its client address."""
    try:
        bearer = _bearer()
        if bearer and credentials.looks_like_session_token(bearer):
            session, _customer, account = await _identify_session()
            credential_id = session.id
            livemode = True
        else:
            key, account, _, _ = await _identify_api_key()
            credential_id, livemode = key.key_id, key.livemode
    except APIError as error:
        if error.status != 401:
            raise
        await limit_unauthenticated()
        return
    await enforce_rate_limit(credential_id, account.tier, livemode)


def login_rate_limited(func: F) -> F:
    """Route decorator for ``POST /auth/login``: attempts per client address, counted before
    the body is read, so every answer (a 400 too) carries the ``RateLimit-*`` headers."""

    @wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        state = platform()
        address = request.remote_addr or "unknown"
        decision = await state.rate_limiter.hit(
            f"login:addr:{address}", state.settings.login_rate_limit
        )
        g.rate_limit = decision
        if not decision.allowed:
            raise decision.error(_TOO_MANY_LOGINS)
        return await current_app.ensure_async(func)(*args, **kwargs)

    return checks_credential(cast(F, wrapper))


def _document_auth_errors(func: F) -> F:
    func = document_response(ErrorBody, 401)(func)
    return document_response(ErrorBody, 429)(func)


async def _identified(identify: Callable[[], Awaitable[T]]) -> T:
    """The request's credential; a 401 is first counted against the client address."""
    try:
        return await identify()
    except APIError as error:
        if error.status == 401:
            await limit_unauthenticated()
        raise


def _note_credential(account: Account, credential_id: str) -> None:
    """For the access log, before the rate limit (a 429 still names the account)."""
    g.account = account
    g.credential_id = credential_id


def _request_caller(
    account: Account, credential_id: str, kind: CredentialKind, **fields: Any
) -> Caller:
    """The request's :class:`Caller` (with its request id and client address), kept for the
    plumbing (:mod:`~astro_server.platform.handler_args`)."""
    return keep_caller(
        Caller(
            account.id,
            account.tier,
            credential_id,
            kind,
            request_id=getattr(g, "request_id", None),
            client_address=request.remote_addr or None,
            **fields,
        )
    )


async def _run_handler(
    func: Callable[..., Any], caller: Caller | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """Call the guarded handler, with ``caller=`` when it declares the parameter."""
    if caller is not None:
        kwargs["caller"] = caller
    return await current_app.ensure_async(func)(*args, **kwargs)


def require_api_key(func: F) -> F:
    """Route decorator: an API key is required (see module docstring)."""
    inject = wants_caller(func)
    declared = roles.declared_role(func)

    @wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        key, account, known_as_of, key_hash = await _identified(_identify_api_key)
        _note_credential(account, key.key_id)
        current = await enforce_rate_limit(key.key_id, account.tier, key.livemode)
        if current != known_as_of:  # a key was revoked or rotated since: read this one again
            _drop_cached(key_hash)
            key, account, _ = await _authenticate_key(key_hash, platform().settings.api_key_cache_s)
        rule = request.url_rule.rule if request.url_rule is not None else ""
        needed = scopes.scope_for_rule(rule)
        if not scopes.allows(key.scopes, needed):
            assert needed is not None
            raise _forbidden_scope(needed)
        if declared is not None and not roles.at_least(key.role, declared):
            raise _forbidden_key_role(declared, key.role)
        g.account = account
        caller = _request_caller(
            account,
            key.key_id,
            "api_key",
            livemode=key.livemode,
            scopes=tuple(sorted(key.scopes)),
            role=key.role,
        )
        return await _run_handler(func, caller if inject else None, args, kwargs)

    # 403: a key without the route's scope (platform/auth/scopes.py).
    wrapper = document_response(ErrorBody, 403)(checks_credential(wrapper))
    return _document_auth_errors(cast(F, security_scheme(API_KEY_SECURITY)(wrapper)))


def require_session(func: F) -> F:
    """Route decorator: a customer session token is required (see module docstring)."""
    inject = wants_caller(func)

    @wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        session, customer, account = await _identified(_identify_session)
        _note_credential(account, session.id)
        await enforce_rate_limit(session.id, account.tier)
        needed = roles.needed_role(func, request.method)
        if not roles.at_least(customer.role, needed):
            raise roles.forbidden_role(needed, customer.role)
        caller = _request_caller(
            account, session.id, "session", role=customer.role, customer_id=customer.id
        )
        return await _run_handler(func, caller if inject else None, args, kwargs)

    # 403: a login whose role is below the route's (platform/auth/roles.py).
    wrapper = document_response(ErrorBody, 403)(checks_credential(wrapper))
    return _document_auth_errors(cast(F, security_scheme(SESSION_SECURITY)(wrapper)))


#: Attempts per e-mail are counted over this window (any address); the first
#: ``ASTRO_LOGIN_RATE_LIMIT`` go through at once, then one more every 1, 2, 4, ... seconds.
LOGIN_EMAIL_WINDOW_S: Final = 900
#: The longest wait between two attempts for one e-mail: the owner is slowed, never locked out.
LOGIN_DELAY_CAP_S: Final = 32
_LOGIN_SLOWED = "Too many login attempts for this e-mail; retry after Retry-After seconds."


def login_delay_s(attempt: int, free: int) -> int:
    """The spacing the ``attempt``-th attempt (1-based) for one e-mail within the window must
    keep: 0 for the first ``free``, then 1, 2, 4, ... seconds up to :data:`LOGIN_DELAY_CAP_S`."""
    if attempt <= free:
        return 0
    return int(min(2 ** (attempt - free - 1), LOGIN_DELAY_CAP_S))


async def email_login_slot(email: str, free: int) -> RateLimitDecision:
    """Whether a login attempt for ``email`` may be checked now (exponential spacing, CAPTCHA
    free). Counted in the shared rate limiter, so every API process sees the same attempts.

    Every attempt is counted; past the free ones, an attempt goes through only as the first
    attempt of its slot (a window of :func:`login_delay_s` seconds): a guesser gets at most one
    try per slot, and the owner waits at most :data:`LOGIN_DELAY_CAP_S` seconds (``Retry-After``),
    instead of the whole window. Per address the limit stays as it was
    (:func:`login_rate_limited`)."""
    limiter = platform().rate_limiter
    digest = credentials.digest(email)
    counted = await limiter.hit(f"login:email:{digest}", 10**9, LOGIN_EMAIL_WINDOW_S)
    attempt = 10**9 - counted.remaining
    delay = login_delay_s(attempt, free)
    if delay == 0:
        return RateLimitDecision(True, free, max(0, free - attempt), counted.reset_s)
    # Every slot size counts every attempt, so stepping up a level finds its window already
    # used (no free pass per level); the hits run together (one round trip on Redis).
    sizes = [2**i for i in range(LOGIN_DELAY_CAP_S.bit_length())]
    slots = await asyncio.gather(
        *(limiter.hit(f"login:slot:{digest}:{size}", 1, size) for size in sizes)
    )
    slot = slots[sizes.index(delay)]
    return RateLimitDecision(slot.allowed, free, 0, slot.reset_s)


async def login(email: str, password: str) -> tuple[str, CustomerSession, Customer]:
    """Check the password and open a session; rate limited per e-mail here (and per client
    address by :func:`login_rate_limited` on the route)."""
    state = platform()
    normalized = email.strip().lower()
    decision = await email_login_slot(normalized, state.settings.login_rate_limit)
    current = getattr(g, "rate_limit", None)
    if current is None or decision.remaining < current.remaining:
        g.rate_limit = decision  # the headers show the tighter of the two limits
    if not decision.allowed:
        raise decision.error(_LOGIN_SLOWED)
    customer = await Customer.get_or_none(email=normalized)
    password_hash = customer.password_hash if customer else None
    ok = await asyncio.to_thread(credentials.verify_password, password_hash, password)
    if not ok or customer is None or customer.disabled_at is not None:
        raise unauthorized("Invalid e-mail or password.")
    token = credentials.new_session_token()
    session = await CustomerSession.create(
        id=credentials.new_id("sess_"),
        customer=customer,
        token_hash=credentials.digest(token),
        expires_at=datetime.now(UTC) + state.settings.session_lifetime,
    )
    return token, session, customer


async def logout(session_id: str) -> None:
    """End the session ``session_id`` (a session caller's ``credential_id``)."""
    await CustomerSession.filter(id=session_id, revoked_at=None).update(
        revoked_at=datetime.now(UTC)
    )
