"""Who is calling: the one object the HTTP edge hands to services.

The auth guards (:mod:`astro_server.platform.auth.guards`) build a frozen :class:`Caller` once a
credential is checked and hand it to the route handler as its ``caller`` argument; the handler
passes it (or the plain values it needs) to services, always as their first argument. Services
never read the request or Quart's ``g``: what they need to know about the caller is in here,
so the worker, the scheduler and the CLI call the same functions with a ``Caller`` of their
own (:func:`Caller.operator`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CredentialKind = Literal["api_key", "session", "operator"]

#: The actor recorded for what the operator does from the CLI.
OPERATOR = "operator"


@dataclass(frozen=True, slots=True)
class Caller:
    """An authenticated caller.

    ``account_id`` pays and owns; ``credential_id`` is the API key's id (``key_...``) or the
    session's id; ``livemode`` is False for a test key (``ak_test_``), whose objects are test
    objects; ``scopes`` are the key's (``("*",)`` for sessions and the operator); ``role`` is the
    customer's team role for a session, and for an API key its effective role: the role of the
    login (or key) that minted it, ``owner`` for the operator's keys and keys made before makers
    were recorded (platform/auth/roles.py; None for the operator); ``customer_id`` is the
    signed-in login.
    """

    account_id: str
    tier: str
    credential_id: str
    credential_kind: CredentialKind
    livemode: bool = True
    scopes: tuple[str, ...] = ("*",)
    role: str | None = None
    customer_id: str | None = None
    request_id: str | None = None
    client_address: str | None = None

    @property
    def login_id(self) -> str:
        """The signed-in login's customer id: only a session caller has one."""
        if self.customer_id is None:
            raise RuntimeError("login_id of a caller without a login (an API key or the operator)")
        return self.customer_id

    @property
    def actor(self) -> tuple[str, str]:
        """(actor id, actor kind) as the audit log records them."""
        if self.customer_id is not None:
            return self.customer_id, "customer"
        if self.credential_kind == "operator":
            return OPERATOR, OPERATOR
        return self.credential_id, "api_key"

    @classmethod
    def operator(cls, account_id: str, tier: str = "", *, livemode: bool = True) -> Caller:
        """The operator acting on an account from the CLI (no credential, every scope)."""
        return cls(account_id, tier, OPERATOR, "operator", livemode)
