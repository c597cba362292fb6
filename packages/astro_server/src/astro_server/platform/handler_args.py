"""What the request plumbing hands a route handler besides the URL's values: the caller.

The auth guards (:mod:`astro_server.platform.auth.guards`) authenticate the request and keep
its :class:`~astro_server.platform.caller.Caller` here for the request's lifetime; they and
``@billable`` pass it to a handler that declares a ``caller`` parameter (:func:`wants_caller`,
asked once when the route is decorated). The rest of the plumbing (``@billable``, the body
loader) reads it with :func:`current_caller`; handlers never do.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from quart import g

from astro_server.platform.caller import Caller


def keep_caller(caller: Caller) -> Caller:
    """Remember the request's authenticated caller (the guards' last step); returns it."""
    g.caller = caller
    return caller


def current_caller() -> Caller:
    """The caller the route's guard authenticated (``require_api_key``/``require_session``)."""
    caller = getattr(g, "caller", None)
    if not isinstance(caller, Caller):
        raise RuntimeError("current_caller() outside a route guarded by require_api_key/session")
    return caller


def wants_caller(func: Callable[..., Any]) -> bool:
    """Whether a handler declares a ``caller`` parameter (through ``functools.wraps`` chains)."""
    return "caller" in inspect.signature(func).parameters
