"""The one owned-object lookup: every read, change and delete of an account's object goes here.

An object belongs to an account *and* a mode: a test key (``ak_test_``) sees only test objects,
a live key and a session only live ones (README: test keys "see only test objects"). Another
account's object and an object of the other mode are the same answer, 404 naming the kind, so
neither can be told from an unknown id. Routes never filter by account themselves: they hand the
:class:`~astro_server.platform.caller.Caller` to a service, which calls :func:`owned` (one
object) or :func:`owned_query` (a list).

Role checks for session callers live in :mod:`astro_server.platform.auth.roles`
(:func:`require_manage` below applies its table to one object).
"""

from __future__ import annotations

from typing import Any, TypeVar

from tortoise.models import Model
from tortoise.queryset import QuerySet

from astro_server.platform.auth import roles
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found

M = TypeVar("M", bound=Model)


def owner_filter(caller: Caller) -> dict[str, Any]:
    """The columns every owned row is filtered by: the caller's account and mode."""
    return {"account_id": caller.account_id, "livemode": caller.livemode}


def owned_query(caller: Caller, model: type[M], **filters: Any) -> QuerySet[M]:
    """The caller's rows of ``model`` (same account, same mode), narrowed by ``filters``."""
    return model.filter(**owner_filter(caller), **filters)


async def owned(caller: Caller, model: type[M], object_id: str, what: str, **filters: Any) -> M:
    """The caller's object ``object_id`` of ``model``; 404 ``what`` for any other (unknown,
    another account's, the other mode's, or failing ``filters``)."""
    found = await owned_query(caller, model, id=object_id, **filters).first()
    if found is None:
        raise not_found(what)
    return found


def require_manage(caller: Caller, created_by: str | None, what: str) -> None:
    """A caller changes an object only as :func:`roles.may_manage` allows (its own from
    ``member``, anyone's, an API key's among them, from ``admin``): a session with its login's
    role, an API key with its effective role (its maker's, platform/auth/roles.py); the
    operator is not limited by role. 403 ``forbidden`` otherwise."""
    if caller.credential_kind == "operator":
        return
    role = caller.role or "viewer"
    mine = caller.customer_id if caller.credential_kind == "session" else caller.credential_id
    own = created_by is not None and created_by == mine
    if not roles.may_manage(role, own):
        raise APIError(
            403,
            f"Only an admin or its creator may change this {what}; this caller is {role!r}.",
            error="forbidden",
        )


__all__ = ["owned", "owned_query", "owner_filter", "require_manage"]
