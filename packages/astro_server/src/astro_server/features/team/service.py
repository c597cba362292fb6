"""Teams (enterprise): an account's logins (customers) with roles, invitations, role changes and
removal. Used by the API-key routes (``/api/v3/team/members``, scope ``team``: the key acts for
the account) and the session routes (``/v1/team/members``: reads for any role, changes for
owners).

* An invitation (``inv_`` + 24 hex) holds the e-mail and role; its token (``inv_tok_`` + random)
  is returned once and stored as a SHA-256 digest; it works once, for 72 hours.
  ``POST /auth/accept-invitation {token, password}`` makes the login (or re-enables a removed
  login of the same account with that e-mail).
* Invitations do not tell who has a login elsewhere (issue 36): an e-mail whose login is in
  another account is invited exactly like a new one (same answer, an invitation listed as
  pending), and its owner is told by e-mail (``ASTRO_SMTP_URL``), with the link. Since a login
  belongs to one account, accepting needs that login's current password (not a new one); the
  login then moves to the inviting account with the invited role and its sessions end (the last
  owner of its account cannot move: 409 ``last_owner``). An e-mail already in this team is a
  409 ``email_taken`` (the inviter sees its team anyway). docs/decisions.md.
* Removing a member disables the login and ends its sessions at once (sessions are checked
  against the database on every request). The row stays, so audit rows keep their actor.
* The last owner (an enabled login with role ``owner``) can be neither demoted nor removed: 409
  ``conflict`` (code ``last_owner``). The check and the change are one transaction that first
  locks the account row (PostgreSQL ``FOR UPDATE``; SQLite has one writer).
* Audit rows: ``team.invited``, ``team.joined``, ``team.left`` (a login that moved),
  ``team.role_changed``, ``team.removed``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.platform import clock, db, runtime
from astro_server.platform.audit import record_audit
from astro_server.platform.auth import credentials
from astro_server.platform.auth.passwords import password_problem
from astro_server.platform.billing.pricing import tier_allows
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import mail
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.accounts import (
    Account,
    Customer,
    CustomerSession,
    TeamInvitation,
)
from astro_server.settings import Settings

log = logging.getLogger("astro_server.team")

INVITATION_LIFETIME = timedelta(hours=72)
TOKEN_PREFIX = "inv_tok_"  # noqa: S105 - a prefix, not a secret
MAX_MEMBERS = 1000


def require_enterprise(tier: str) -> None:
    """403 unless the account's ``tier`` has teams."""
    if not tier_allows(tier, "enterprise"):
        raise APIError(
            403,
            f"Teams need the 'enterprise' tier or higher; this account is on {tier!r}.",
            error="forbidden",
        )


def _conflict(message: str, code: str) -> APIError:
    return APIError(409, message, error="conflict", code=code)


def member_view(customer: Customer) -> dict[str, Any]:
    return {
        "id": customer.id,
        "email": customer.email,
        "role": customer.role,
        "created_at": clock.iso(customer.created_at),
    }


def invitation_view(invitation: TeamInvitation) -> dict[str, Any]:
    return {
        "id": invitation.id,
        "email": invitation.email,
        "role": invitation.role,
        "created_at": clock.iso(invitation.created_at),
        "expires_at": clock.iso(invitation.expires_at),
    }


async def list_members(account_id: str) -> tuple[list[Customer], list[TeamInvitation]]:
    members = await Customer.filter(account_id=account_id, disabled_at=None).order_by(
        "created_at", "id"
    )
    pending = await TeamInvitation.filter(
        account_id=account_id, accepted_at=None, expires_at__gt=clock.now()
    ).order_by("created_at", "id")
    return list(members), list(pending)


#: Notices being sent (kept so the tasks are not collected before they finish).
_NOTICES: set[asyncio.Task[None]] = set()


async def _tell_existing_login(
    address: str, account_id: str, role: str, link: str, settings: Settings
) -> None:
    """Mail the owner of a login in another account that it was invited (see module docstring);
    sent in the background, so the inviter's answer neither waits for it nor says anything."""
    account = await Account.get_or_none(id=account_id)
    team = account.name if account is not None else account_id
    text = (
        f"You were invited to join the team {team!r} as {role}.\n\n"
        "Your e-mail address already has a login on this server, in another team, and a login "
        "belongs to one team. To join, open the link below and enter your CURRENT password: "
        "your login then moves to the new team and leaves the one it is in now (the last owner "
        "of a team cannot leave it). Your password stays the same.\n\n"
        f"{link}\n\n"
        "The invitation is valid for 72 hours. If you did not expect it, ignore this message: "
        "nothing changes unless you accept it with your password.\n"
    )
    result = await mail.send_message(
        lambda: mail.notice_message(address, f"Invitation to join {team}", text, settings),
        settings,
    )
    if result.error:
        log.warning("invitation notice not sent: %s", result.error)


async def invite(
    caller: Caller, email: str, role: str, link_for: Callable[[str], str] | None = None
) -> tuple[TeamInvitation, str]:
    """A new invitation and its token. An e-mail with a login in this account (enabled) is a
    409; one with a login in another account gets an invitation exactly like a new address
    (same answer), and its owner is told by e-mail (``link_for(token)``: the accept link)."""
    account_id = caller.account_id
    invited_by = caller.actor[0]
    email = email.strip().lower()
    existing = await Customer.get_or_none(email=email)
    elsewhere = existing is not None and existing.account_id != account_id  # type: ignore[attr-defined]
    if existing is not None and not elsewhere and existing.disabled_at is None:
        raise _conflict(f"{email} is already a member of this team.", "email_taken")
    if await Customer.filter(account_id=account_id, disabled_at=None).count() >= MAX_MEMBERS:
        raise _conflict(f"A team has at most {MAX_MEMBERS} logins.", "team_limit")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = clock.now()
    async with in_transaction() as conn:
        invitation = await TeamInvitation.create(
            id=credentials.new_id("inv_"),
            account_id=account_id,
            email=email,
            role=role,
            token_hash=credentials.digest(token),
            invited_by=invited_by,
            created_at=now,
            expires_at=now + INVITATION_LIFETIME,
            using_db=conn,
        )
        await record_audit(caller, "team.invited", invitation.id, using_db=conn)
    if elsewhere:
        link = link_for(token) if link_for is not None else token
        task = asyncio.create_task(
            _tell_existing_login(email, account_id, role, link, runtime.settings())
        )
        _NOTICES.add(task)
        task.add_done_callback(_NOTICES.discard)
    return invitation, token


async def accept(token: str, password: str) -> Customer:
    """Use an invitation: the new login (401 for an unknown, used or expired token)."""
    token_hash = credentials.digest(token)
    invitation = await TeamInvitation.get_or_none(token_hash=token_hash)
    if (
        invitation is None
        or not credentials.digests_equal(invitation.token_hash, token_hash)
        or invitation.accepted_at is not None
        or invitation.expires_at <= clock.now()
    ):
        raise APIError(
            401, "This invitation is unknown, used or expired.", error="unauthorized", code="401"
        )
    elsewhere = (
        await Customer.filter(email=invitation.email, disabled_at=None)
        .exclude(account_id=invitation.account_id)
        .first()
    )
    if elsewhere is not None:
        return await _move_login(invitation, elsewhere, password)
    problem = password_problem(password, invitation.email)
    if problem is not None:  # refused before the invitation is used: it can be tried again
        raise validation_error([{"field": "password", "message": problem}])
    password_hash = await asyncio.to_thread(credentials.hash_password, password)
    now = clock.now()
    try:
        async with in_transaction() as conn:
            claimed = (
                await TeamInvitation.filter(id=invitation.id, accepted_at=None)
                .using_db(conn)
                .update(accepted_at=now)
            )
            if not claimed:
                raise APIError(
                    401,
                    "This invitation is unknown, used or expired.",
                    error="unauthorized",
                    code="401",
                )
            existing = await Customer.filter(email=invitation.email).using_db(conn).first()
            if existing is not None:
                same_account = existing.account_id == invitation.account_id  # type: ignore[attr-defined]
                if not same_account or existing.disabled_at is None:
                    raise _conflict(
                        f"A login with the e-mail {invitation.email} already exists.",
                        "email_taken",
                    )
                await (
                    Customer.filter(id=existing.id)
                    .using_db(conn)
                    .update(password_hash=password_hash, role=invitation.role, disabled_at=None)
                )
                customer_id = existing.id
            else:
                customer_id = credentials.new_id("cus_")
                await Customer.create(
                    id=customer_id,
                    account_id=invitation.account_id,
                    email=invitation.email,
                    password_hash=password_hash,
                    role=invitation.role,
                    using_db=conn,
                )
            await (
                TeamInvitation.filter(id=invitation.id)
                .using_db(conn)
                .update(customer_id=customer_id)
            )
            joined = Caller(
                invitation.account_id,
                "",
                customer_id,
                "session",
                role=invitation.role,
                customer_id=customer_id,
            )
            await record_audit(joined, "team.joined", customer_id, using_db=conn)
    except IntegrityError:
        raise _conflict(
            f"A login with the e-mail {invitation.email} already exists.", "email_taken"
        ) from None
    return await Customer.get(id=customer_id)


async def _move_login(invitation: TeamInvitation, login: Customer, password: str) -> Customer:
    """Accepting an invitation of an e-mail whose login is in another account: the password
    must be that login's current one (else 401, and the invitation stays usable); the login
    then moves to the inviting account with the invited role and its sessions end. The last
    owner of its account cannot move (409 ``last_owner``)."""
    matches = await asyncio.to_thread(credentials.verify_password, login.password_hash, password)
    if not matches:
        raise APIError(
            401,
            "This e-mail already has a login: accept with its current password.",
            error="unauthorized",
            code="401",
        )
    old_account = login.account_id  # type: ignore[attr-defined]
    now = clock.now()
    async with in_transaction() as conn:
        await _lock_account(conn, old_account)
        if login.role == "owner" and not await _other_owners(old_account, login.id, conn):
            raise _last_owner()
        claimed = (
            await TeamInvitation.filter(id=invitation.id, accepted_at=None)
            .using_db(conn)
            .update(accepted_at=now, customer_id=login.id)
        )
        if not claimed:
            raise APIError(
                401,
                "This invitation is unknown, used or expired.",
                error="unauthorized",
                code="401",
            )
        await (
            Customer.filter(id=login.id)
            .using_db(conn)
            .update(account_id=invitation.account_id, role=invitation.role)
        )
        await (
            CustomerSession.filter(customer_id=login.id, revoked_at=None)
            .using_db(conn)
            .update(revoked_at=now)
        )
        left = Caller(old_account, "", login.id, "session", role=login.role, customer_id=login.id)
        await record_audit(left, "team.left", login.id, using_db=conn)
        joined = Caller(
            invitation.account_id,
            "",
            login.id,
            "session",
            role=invitation.role,
            customer_id=login.id,
        )
        await record_audit(joined, "team.joined", login.id, using_db=conn)
    return await Customer.get(id=login.id)


async def _lock_account(conn: BaseDBAsyncClient, account_id: str) -> None:
    if connections.get("default").capabilities.dialect == "postgres":
        await db.fetch("SELECT id FROM accounts WHERE id = ? FOR UPDATE", [account_id], conn)


async def _member(account_id: str, member_id: str, conn: BaseDBAsyncClient) -> Customer:
    member = (
        await Customer.filter(id=member_id, account_id=account_id, disabled_at=None)
        .using_db(conn)
        .first()
    )
    if member is None:
        raise not_found("Team member")
    return member


async def _other_owners(account_id: str, member_id: str, conn: BaseDBAsyncClient) -> int:
    return int(
        await Customer.filter(account_id=account_id, role="owner", disabled_at=None)
        .exclude(id=member_id)
        .using_db(conn)
        .count()
    )


def _last_owner() -> APIError:
    return _conflict(
        "The account's last owner can be neither demoted nor removed; make another owner first.",
        "last_owner",
    )


async def change_role(caller: Caller, member_id: str, role: str) -> Customer:
    account_id = caller.account_id
    async with in_transaction() as conn:
        await _lock_account(conn, account_id)
        member = await _member(account_id, member_id, conn)
        if (
            member.role == "owner"
            and role != "owner"
            and not await _other_owners(account_id, member_id, conn)
        ):
            raise _last_owner()
        if member.role != role:
            await Customer.filter(id=member_id).using_db(conn).update(role=role)
            await record_audit(caller, "team.role_changed", member_id, using_db=conn)
        member.role = role
    return member


async def remove(caller: Caller, member_id: str) -> None:
    account_id = caller.account_id
    now = datetime.now(UTC)
    async with in_transaction() as conn:
        await _lock_account(conn, account_id)
        member = await _member(account_id, member_id, conn)
        if member.role == "owner" and not await _other_owners(account_id, member_id, conn):
            raise _last_owner()
        await Customer.filter(id=member_id).using_db(conn).update(disabled_at=now)
        await (
            CustomerSession.filter(customer_id=member_id, revoked_at=None)
            .using_db(conn)
            .update(revoked_at=now)
        )
        await record_audit(caller, "team.removed", member_id, using_db=conn)
