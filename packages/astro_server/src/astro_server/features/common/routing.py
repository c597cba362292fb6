"""Small helpers the tag groups' requests share: UTC defaults and the ephemeris span."""

from __future__ import annotations

import datetime as dt
from typing import TypeVar

from astro_calc.ephemeris import FIRST_YEAR, LAST_YEAR

Request = TypeVar("Request")
Moment = TypeVar("Moment", bound=dt.date | None)  # dates and datetimes (a datetime is a date)

SPAN_TEXT = f"years {FIRST_YEAR}-{LAST_YEAR}"


def in_ephemeris_span(value: Moment) -> Moment:
    """A pydantic validator body: a date or instant the ephemeris covers (``FIRST_YEAR`` to
    ``LAST_YEAR``), else a ``ValueError`` naming the span (a 400 naming the field)."""
    if value is not None and not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise ValueError(f"must lie in the {SPAN_TEXT} (the ephemeris's span)")
    return value


def as_utc(moment: dt.datetime) -> dt.datetime:
    """A request instant; a naive one is read as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def utc_or_now(moment: dt.datetime | None) -> dt.datetime:
    """A request instant (naive read as UTC), or now when the request leaves it out."""
    return dt.datetime.now(dt.UTC) if moment is None else as_utc(moment)


def date_or_today(day: dt.date | None) -> dt.date:
    """A request's reference date, or today in UTC when it leaves it out."""
    return day if day is not None else dt.datetime.now(dt.UTC).date()
