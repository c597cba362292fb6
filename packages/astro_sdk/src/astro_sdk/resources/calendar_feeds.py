"""``client.calendar_feeds``: iCalendar subscription URLs of sky events, or of a client profile's
personal forecast, that a calendar app (Google, Apple, Outlook) polls (API key, scope western).

:meth:`CalendarFeeds.create` answers the feed and its ``url`` (shown once: the server keeps only
a digest of its token); :meth:`CalendarFeeds.read` fetches a feed's file as a calendar app does,
with no key. Reads are free and show in usage.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from urllib.parse import urlsplit

from astro_sdk._base import build_call, parse_calendar, validate_request
from astro_sdk._exceptions import status_error
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.calendar_feeds import (
    CalendarFeed,
    CalendarFeedFile,
    CalendarFeedKind,
    CalendarFeedList,
    CreateCalendarFeedRequest,
    CreatedCalendarFeed,
    DeletedCalendarFeed,
)
from astro_sdk.models.sky_events import (
    CalendarLanguage,
    EventBody,
    EventKind,
    TransitingBody,
    VoidOfCourseRule,
)

__all__ = ["AsyncCalendarFeeds", "CalendarFeeds"]

BASE = "/api/v3/calendar-feeds"
_op = partial(route, credential=Credential.API_KEY)
CREATE: Operation[CreatedCalendarFeed] = _op(
    "createCalendarFeed",
    "POST",
    BASE,
    CreatedCalendarFeed,
    request=CreateCalendarFeedRequest,
    status=201,
)
LIST: Operation[CalendarFeedList] = _op("listCalendarFeeds", "GET", BASE, CalendarFeedList)
DELETE: Operation[DeletedCalendarFeed] = _op(
    "deleteCalendarFeed", "DELETE", BASE + "/{feed_id}", DeletedCalendarFeed, status=204
)
READ: Operation[CalendarFeedFile] = route(
    "getCalendarFeedFile",
    "GET",
    "/calendar/{token}.ics",
    CalendarFeedFile,
    credential=Credential.NONE,
)
OPERATIONS = (CREATE, LIST, DELETE, READ)
_TOKEN = re.compile(r".*/calendar/([^/]+)\.ics")


def _token(url: str) -> str:
    match = _TOKEN.fullmatch(urlsplit(url).path)
    if match is None:
        raise ValueError(f"not a calendar feed URL: {url!r}")
    return match.group(1)


def _create_body(
    kind: CalendarFeedKind | None,
    name: str | None,
    kinds: Sequence[EventKind] | None,
    bodies: Sequence[EventBody] | None,
    void_of_course_rule: VoidOfCourseRule | None,
    timezone: str | None,
    language: CalendarLanguage | None,
    profile_id: str | None,
    orb_deg: Mapping[TransitingBody, float] | None,
) -> CreateCalendarFeedRequest:
    return validate_request(
        CreateCalendarFeedRequest,
        {
            "kind": kind,
            "name": name,
            "kinds": None if kinds is None else list(kinds),
            "bodies": None if bodies is None else list(bodies),
            "void_of_course_rule": void_of_course_rule,
            "timezone": timezone,
            "language": language,
            "profile_id": profile_id,
            "orb_deg": None if orb_deg is None else dict(orb_deg),
        },
    )


class AsyncCalendarFeeds(AsyncResource):
    """``client.calendar_feeds``: create, list and revoke calendar subscription URLs, and read
    one's iCalendar file. Another account's feed is a ``NotFoundError``."""

    operations = OPERATIONS

    async def create(
        self,
        *,
        kind: CalendarFeedKind | None = None,
        name: str | None = None,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        timezone: str | None = None,
        language: CalendarLanguage | None = None,
        profile_id: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
    ) -> CreatedCalendarFeed:
        """``POST /api/v3/calendar-feeds``: a new feed (``kind`` ``sky_events``, the default,
        or ``forecast`` with ``profile_id``) and its ``url``, shown only here."""
        body = _create_body(
            kind, name, kinds, bodies, void_of_course_rule, timezone, language, profile_id,
            orb_deg,
        )  # fmt: skip
        return await self._client.request(CREATE, body=body)

    async def list(self) -> list[CalendarFeed]:
        """``GET /api/v3/calendar-feeds``: the account's feeds (of the key's mode) that are not
        revoked, newest first."""
        return (await self._client.request(LIST)).feeds

    async def delete(self, feed_id: str) -> None:
        """``DELETE /api/v3/calendar-feeds/{feed_id}``: revoke the feed; its URL stops
        answering at once."""
        await self._client.request(DELETE, path_params={"feed_id": feed_id})

    async def read(self, url: str) -> str:
        """``GET /calendar/{token}.ics``: the feed's iCalendar text, fetched from this client's
        base URL with no key (as a calendar app reads it). A revoked feed is a
        ``PermissionDeniedError``; a URL not of this form a ``ValueError``."""
        call = build_call(
            self._client._config,
            READ,
            path_params={"token": _token(url)},
            extra_headers={"Accept": "text/calendar"},
        )
        response, _ = await self._client._send(call)
        if not response.is_success:
            raise status_error(response)
        return parse_calendar(call, response)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class CalendarFeeds(SyncResource):
    """``client.calendar_feeds``: create, list and revoke calendar subscription URLs, and read
    one's iCalendar file. Another account's feed is a ``NotFoundError``."""

    operations = OPERATIONS

    def create(
        self,
        *,
        kind: CalendarFeedKind | None = None,
        name: str | None = None,
        kinds: Sequence[EventKind] | None = None,
        bodies: Sequence[EventBody] | None = None,
        void_of_course_rule: VoidOfCourseRule | None = None,
        timezone: str | None = None,
        language: CalendarLanguage | None = None,
        profile_id: str | None = None,
        orb_deg: Mapping[TransitingBody, float] | None = None,
    ) -> CreatedCalendarFeed:
        """``POST /api/v3/calendar-feeds``: a new feed (``kind`` ``sky_events``, the default,
        or ``forecast`` with ``profile_id``) and its ``url``, shown only here."""
        body = _create_body(
            kind, name, kinds, bodies, void_of_course_rule, timezone, language, profile_id,
            orb_deg,
        )  # fmt: skip
        return self._client.request(CREATE, body=body)

    def list(self) -> list[CalendarFeed]:
        """``GET /api/v3/calendar-feeds``: the account's feeds (of the key's mode) that are not
        revoked, newest first."""
        return (self._client.request(LIST)).feeds

    def delete(self, feed_id: str) -> None:
        """``DELETE /api/v3/calendar-feeds/{feed_id}``: revoke the feed; its URL stops
        answering at once."""
        self._client.request(DELETE, path_params={"feed_id": feed_id})

    def read(self, url: str) -> str:
        """``GET /calendar/{token}.ics``: the feed's iCalendar text, fetched from this client's
        base URL with no key (as a calendar app reads it). A revoked feed is a
        ``PermissionDeniedError``; a URL not of this form a ``ValueError``."""
        call = build_call(
            self._client._config,
            READ,
            path_params={"token": _token(url)},
            extra_headers={"Accept": "text/calendar"},
        )
        response, _ = self._client._send(call)
        if not response.is_success:
            raise status_error(response)
        return parse_calendar(call, response)
