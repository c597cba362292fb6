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
