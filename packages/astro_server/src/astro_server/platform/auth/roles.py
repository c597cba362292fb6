"""Team roles of customers (an account's logins) and the one check every session route makes.

Roles, weakest first: ``viewer`` (reads), ``member`` (creates and changes its own objects),
``admin`` (also manages the account's objects: brand profiles, deliveries, other members'
objects), ``owner`` (also manages the team). Customers made before roles are owners.

The mechanism: :func:`astro_server.platform.auth.guards.require_session` checks the logged-in
customer's role against the route's :func:`needed_role`: the role set with
:func:`require_role` on the handler (stack it under ``require_session``), else by method: GET and
HEAD need ``viewer``, every other method ``member``. A route added later gets that default
without doing anything; a route that manages the account's objects says
``@require_role("admin")``. A refusal is a 403 ``forbidden`` naming the role needed. Inside a
handler, :func:`may_manage` says whether the caller may change an object another login owns.

API keys (issue 50): a key never has more power than its maker. A key records who minted it
and the maker's role then (``api_keys.creator_role``); that is the key's *effective role*
(:func:`key_role`), carried as ``caller.role``. Keys made by the operator CLI, and keys made
before makers were recorded, act as ``owner``; a key minted by a key inherits that key's
effective role. :func:`~astro_server.platform.auth.guards.require_api_key` checks the role a
handler declares with :func:`require_role` against it (no method default: a key's routes are
gated by its scopes, and only the routes that declare a role are role-gated), so the API-key
door onto an owner-only action (``/api/v3/team/members``) follows the session door's rule.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final, Literal, TypeVar

from astro_server.platform.errors import APIError

ROLES: Final = ("viewer", "member", "admin", "owner")
Role = Literal["viewer", "member", "admin", "owner"]
_RANK: Final = {role: rank for rank, role in enumerate(ROLES)}
ROLE_ATTRIBUTE: Final = "_astro_required_role"
READ_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def require_role(role: Role) -> Callable[[F], F]:
    """Handler decorator (under ``require_session``): the least role the route needs."""
    if role not in _RANK:
        raise ValueError(f"unknown role {role!r}")

    def decorator(func: F) -> F:
        setattr(func, ROLE_ATTRIBUTE, role)
        return func

    return decorator


def needed_role(func: Callable[..., Any], method: str) -> str:
    declared = getattr(func, ROLE_ATTRIBUTE, None)
    if isinstance(declared, str):
        return declared
    return "viewer" if method in READ_METHODS else "member"


def declared_role(func: Callable[..., Any]) -> str | None:
    """The role a handler declares with :func:`require_role` (None: not declared)."""
    declared = getattr(func, ROLE_ATTRIBUTE, None)
    return declared if isinstance(declared, str) else None


def key_role(creator_role: str | None) -> str:
    """An API key's effective role from its recorded maker's role: ``owner`` when none was
    recorded (the operator CLI's keys and keys made before migration 0018), the weakest role
    for a value this server does not know (a row written by a newer or broken version)."""
    if creator_role is None:
        return "owner"
    return creator_role if creator_role in _RANK else ROLES[0]


def weaker(first: str, second: str) -> str:
    """The weaker of two roles."""
    return first if _RANK.get(first, -1) <= _RANK.get(second, -1) else second


def at_least(held: str, needed: str) -> bool:
    return _RANK.get(held, -1) >= _RANK[needed]


def forbidden_role(needed: str, held: str) -> APIError:
    return APIError(
        403,
        f"This operation needs the {needed!r} role or higher; this login is {held!r}.",
        error="forbidden",
    )


def may_manage(role: str, own: bool) -> bool:
    """Whether a login may change an object: its own from ``member``, anyone's from ``admin``."""
    return at_least(role, "admin") or (own and at_least(role, "member"))
