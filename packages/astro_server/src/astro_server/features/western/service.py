"""Calendar feeds (issue 45): create, list and revoke an account's iCalendar subscription URLs,
and make the file a calendar app reads from one.

Rules:

1. A feed is the account's and its mode's (a test key's feeds are test feeds, listed and revoked
   only by test keys; their reads leave no ledger row).
2. Its URL carries a random token (``calt_`` + 43 URL-safe characters, 256 bits), returned once
   by :func:`create_feed`; the table keeps only the token's SHA-256 digest.
3. ``sky_events`` feeds list the chosen kinds and bodies; ``forecast`` feeds a client profile's
   transits (the profile is read again at each refresh: a deleted profile ends the feed).
4. The file covers a rolling window of :data:`DAYS_BACK` days before today (UTC) to
   :data:`DAYS_AHEAD` after it: 366 days inclusive, the calculations' limit. It is the same all
   day (``DTSTAMP`` is the day's midnight), so its ETag is too, and it is made once per feed and
   day in this process (:data:`CACHE_SIZE` files kept).
5. Each read counts on the feed (``read_count``, ``last_read_at``) and, for a live feed, is a
   zero-credit ledger row ``western.calendar_feed_read``, so the reads show in usage.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Final

from tortoise.expressions import F

from astro_calc.western import BirthSubject
from astro_calc.western.events import (
    KINDS,
    forecast,
    forecast_calendar,
    sky_calendar,
    sky_events,
)
from astro_server.features.profiles.service import profile_birth
from astro_server.features.western.models import CalendarFeed
from astro_server.platform import clock
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.owned import owned, owned_query

TOKEN_PREFIX: Final = "calt_"  # noqa: S105 (a prefix, not a secret)
DAYS_BACK: Final = 30
DAYS_AHEAD: Final = 335
MAX_FEEDS: Final = 50
CACHE_SIZE: Final = 256
READ_OPERATION: Final = "western.calendar_feed_read"
#: Added to the file's header: RFC 7986 and its widely read predecessor ask a client to poll
#: once a day.
REFRESH_LINES: Final = "REFRESH-INTERVAL;VALUE=DURATION:P1D\r\nX-PUBLISHED-TTL:P1D\r\n"

_files: OrderedDict[tuple[str, date], CalendarFile] = OrderedDict()


@dataclass(frozen=True)
class CalendarFile:
    body: bytes
    etag: str


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def feed_view(feed: CalendarFeed) -> dict[str, Any]:
    return {
        "id": feed.id,
        "kind": feed.feed_kind,
        "name": feed.name,
        "kinds": list(feed.kinds or []),
        "bodies": feed.bodies,
        "void_of_course_rule": feed.void_of_course_rule,
        "timezone": feed.timezone,
        "language": feed.language,
        "profile_id": feed.profile_id,
        "orb_deg": feed.orb_deg,
        "livemode": feed.livemode,
        "read_count": feed.read_count,
        "last_read_at": feed.last_read_at,
        "created_at": feed.created_at,
    }


async def create_feed(caller: Caller, settings: dict[str, Any]) -> tuple[CalendarFeed, str]:
    """A new feed of ``settings`` (the request's fields) and its token (shown only once).

    A forecast feed's ``profile_id`` must name a profile of the caller's account and mode (a 400
    naming it otherwise); 409 ``feed_limit`` past :data:`MAX_FEEDS` feeds."""
    if settings["kind"] == "forecast":
        await profile_birth(caller.account_id, caller.livemode, settings["profile_id"])
    live = await owned_query(caller, CalendarFeed, revoked_at__isnull=True).count()
    if live >= MAX_FEEDS:
        raise APIError(
            409,
            f"The account has {MAX_FEEDS} calendar feeds; revoke one first.",
            error="feed_limit",
        )
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    feed = await CalendarFeed.create(
        id="calf_" + secrets.token_hex(12),
        account_id=caller.account_id,
        livemode=caller.livemode,
        feed_kind=settings["kind"],
        name=settings.get("name") or "",
        token_digest=token_digest(token),
        kinds=list(settings.get("kinds") or []),
        bodies=settings.get("bodies"),
        void_of_course_rule=settings.get("void_of_course_rule") or "traditional",
        timezone=settings.get("timezone") or "UTC",
        language=settings.get("language") or "en",
        profile_id=settings.get("profile_id"),
        orb_deg=settings.get("orb_deg"),
        created_by=caller.credential_id,
    )
    return feed, token


async def list_feeds(caller: Caller) -> list[CalendarFeed]:
    """The caller's feeds that are not revoked, newest first."""
    query = owned_query(caller, CalendarFeed, revoked_at__isnull=True)
    return await query.order_by("-created_at", "-id")


async def revoke_feed(caller: Caller, feed_id: str) -> None:
    """Revoke the caller's feed: its URL stops answering at once (404 for another's, or one
    already revoked)."""
    feed = await owned(caller, CalendarFeed, feed_id, "Calendar feed", revoked_at__isnull=True)
    feed.revoked_at = clock.now()
    await feed.save(update_fields=["revoked_at"])
    for key in [k for k in _files if k[0] == feed.id]:
        _files.pop(key, None)


async def feed_for_token(token: str) -> CalendarFeed | None:
    """The live (not revoked) feed whose URL carries ``token``, or None."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 80:
        return None
    return await CalendarFeed.filter(
        token_digest=token_digest(token), revoked_at__isnull=True
    ).first()


async def record_read(feed: CalendarFeed) -> None:
    """Count one read of ``feed`` (rule 5)."""
    now = clock.now()
    await CalendarFeed.filter(id=feed.id).update(read_count=F("read_count") + 1, last_read_at=now)
    if feed.livemode:
        await LedgerEntry.create(
            account_id=feed.account_id, kind="debit", amount=0, operation=READ_OPERATION
        )


def feed_window(today: date) -> tuple[date, date]:
    """The dates a file made on ``today`` covers (rule 4)."""
    return today - timedelta(days=DAYS_BACK), today + timedelta(days=DAYS_AHEAD)


async def calendar_file(feed: CalendarFeed) -> CalendarFile:
    """The feed's iCalendar file for today (UTC), from this process's cache when made today."""
    today = clock.now().astimezone(UTC).date()
    key = (feed.id, today)
    found = _files.get(key)
    if found is not None:
        _files.move_to_end(key)
        return found
    subject: BirthSubject | None = None
    if feed.feed_kind == "forecast":
        try:
            birth = await profile_birth(feed.account_id, feed.livemode, str(feed.profile_id))
        except APIError:
            raise not_found("Calendar feed's profile") from None
        subject = _birth_subject(birth)
    text = await asyncio.to_thread(_make_file, feed, subject, today)
    body = text.replace("METHOD:PUBLISH\r\n", "METHOD:PUBLISH\r\n" + REFRESH_LINES, 1).encode()
    made = CalendarFile(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
    _files[key] = made
    while len(_files) > CACHE_SIZE:
        _files.popitem(last=False)
    return made


def _birth_subject(birth: dict[str, Any]) -> BirthSubject:
    return BirthSubject(
        date=date.fromisoformat(str(birth["date"])),
        time=str(birth["time"]),
        latitude=float(birth["latitude"]),
        longitude=float(birth["longitude"]),
        timezone_offset_minutes=birth.get("timezoneOffsetMinutes"),
        timezone=birth.get("timezone"),
    )


def _make_file(feed: CalendarFeed, subject: BirthSubject | None, today: date) -> str:
    start, end = feed_window(today)
    stamp = datetime.combine(today, time(0), tzinfo=UTC)
    name = feed.name or ("Forecast" if subject is not None else "Sky events")
    if subject is not None:
        report = forecast(subject, start, end, timezone=feed.timezone, orb_deg=feed.orb_deg)
        return forecast_calendar(report, language=feed.language, generated_at=stamp)
    found = sky_events(
        start,
        end,
        kinds=feed.kinds or KINDS,
        bodies=feed.bodies,
        timezone=feed.timezone,
        void_of_course_rule=feed.void_of_course_rule,
    )
    return sky_calendar(found.events, language=feed.language, generated_at=stamp, name=name)
