"""Small helpers the tag groups' handlers share: UTC defaults and calculations off the loop."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import TypeVar

from quart import Response

from astro_server.responses import json_response

Request = TypeVar("Request")


def as_utc(moment: dt.datetime) -> dt.datetime:
    """A request instant; a naive one is read as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def utc_or_now(moment: dt.datetime | None) -> dt.datetime:
    """A request instant (naive read as UTC), or now when the request leaves it out."""
    return dt.datetime.now(dt.UTC) if moment is None else as_utc(moment)


def date_or_today(day: dt.date | None) -> dt.date:
    """A request's reference date, or today in UTC when it leaves it out."""
    return day if day is not None else dt.datetime.now(dt.UTC).date()


async def respond_off_loop(calculate: Callable[[Request], object], data: Request) -> Response:
    """Run a calculation in a worker thread (root finding can take a while, and the event loop
    must keep serving) and encode its result once."""
    return json_response(await asyncio.to_thread(calculate, data))
