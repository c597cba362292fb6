"""When a scheduled delivery falls due: pure functions of (time zone, delivery time, now).

A subscription wants one delivery per LOCAL date, at ``delivery_time`` on the wall clock of its
IANA zone. The instant of that delivery (:func:`due_at`):

* an ordinary wall time maps to its one instant;
* a wall time inside a daylight-saving gap (clocks jump forward) does not exist: the delivery is
  due at the next valid minute, which is the first minute after the jump (02:30 on a New York
  spring-forward day is due at 03:00 EDT);
* a wall time inside a repeated hour (clocks fall back) exists twice: the delivery is due at the
  FIRST occurrence only (``fold=0``), so that local date still gets exactly one delivery.

The scheduler keeps, per subscription, the instant of its next due delivery (``next_due_at``,
indexed). On each tick it takes the subscriptions with ``next_due_at <= now`` and asks
:func:`due_deliveries` which local dates fell due since then; after downtime those due within the
last :data:`CATCH_UP` (6 h) are delivered late and older ones are skipped. It then stores
:func:`next_due` after ``now``. Uniqueness of (subscription, local date) in the database makes
the result exactly-once even when two schedulers tick together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from astro_calc.errors import CalcInputError
from astro_calc.time import zone

CATCH_UP = timedelta(hours=6)
DELIVERY_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d$"
_DELIVERY_TIME = re.compile(DELIVERY_TIME_PATTERN)


class InvalidTimezone(ValueError):
    """The subscription's time zone is not an IANA Area/City name (or UTC)."""

    code = "invalid_timezone"


@dataclass(frozen=True, slots=True)
class DueDelivery:
    """One local date's delivery and the UTC instant it falls due."""

    local_date: date
    due_at: datetime


def delivery_zone(name: str) -> ZoneInfo:
    """The zone for ``name``; raises :class:`InvalidTimezone` for anything else."""
    try:
        return zone(name, "timezone")
    except CalcInputError as exc:
        raise InvalidTimezone(exc.message) from None


def parse_delivery_time(text: str) -> time:
    """``HH:MM`` on the 24-hour clock (the spec's pattern) as a :class:`datetime.time`."""
    if not _DELIVERY_TIME.match(text):
        raise ValueError(f"{text!r} is not a 24-hour HH:MM time")
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def _wall(instant: datetime, tz: ZoneInfo) -> datetime:
    return instant.astimezone(tz).replace(tzinfo=None)


def due_at(local_date: date, delivery_time: time, tz: ZoneInfo) -> datetime:
    """The UTC instant the delivery for ``local_date`` falls due (gaps and folds as above)."""
    wall = datetime.combine(local_date, delivery_time)
    first = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
    if _wall(first, tz) == wall:
        return first
    # Inside a gap: zoneinfo maps fold=1 with the offset after the jump (an earlier instant) and
    # fold=0 with the offset before it (a later one). The jump lies between; find the first
    # second whose wall time is at or past the requested one, then round up to a whole minute.
    low = wall.replace(tzinfo=tz, fold=1).astimezone(UTC)
    high = first
    if _wall(low, tz) >= wall:  # pragma: no cover - defensive against odd zone data
        high = low
        low = low - timedelta(days=2)
    low_s, high_s = int(low.timestamp()), int(high.timestamp())
    while low_s < high_s:
        mid = (low_s + high_s) // 2
        if _wall(datetime.fromtimestamp(mid, UTC), tz) >= wall:
            high_s = mid
        else:
            low_s = mid + 1
    instant = datetime.fromtimestamp(high_s, UTC)
    seconds = _wall(instant, tz).second
    return instant + timedelta(seconds=(60 - seconds) % 60)


def due_deliveries(
    timezone: str | ZoneInfo,
    delivery_time: str | time,
    now: datetime,
    *,
    not_before: datetime | None = None,
    catch_up: timedelta = CATCH_UP,
) -> list[DueDelivery]:
    """Local dates due at ``now``: due within ``(now - catch_up, now]`` and at/after ``not_before``.

    ``not_before`` is the subscription's stored ``next_due_at``: nothing earlier is due again.
    Sorted by due instant; at most one entry per local date by construction.
    """
    tz = delivery_zone(timezone) if isinstance(timezone, str) else timezone
    at = parse_delivery_time(delivery_time) if isinstance(delivery_time, str) else delivery_time
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    window_start = now - catch_up
    first_date = window_start.astimezone(tz).date() - timedelta(days=1)
    last_date = now.astimezone(tz).date()
    out: list[DueDelivery] = []
    day = first_date
    while day <= last_date:
        instant = due_at(day, at, tz)
        if window_start < instant <= now and (not_before is None or instant >= not_before):
            out.append(DueDelivery(day, instant))
        day += timedelta(days=1)
    out.sort(key=lambda d: d.due_at)
    return out


def next_due(timezone: str | ZoneInfo, delivery_time: str | time, after: datetime) -> DueDelivery:
    """The first delivery due strictly after ``after``."""
    tz = delivery_zone(timezone) if isinstance(timezone, str) else timezone
    at = parse_delivery_time(delivery_time) if isinstance(delivery_time, str) else delivery_time
    if after.tzinfo is None:
        raise ValueError("after must be timezone-aware")
    day = after.astimezone(tz).date() - timedelta(days=1)
    # A skipped calendar day (Pacific/Apia, 2011-12-30) still has a due instant: the next valid
    # minute. Four days always contain the answer.
    for _ in range(4):
        instant = due_at(day, at, tz)
        if instant > after:
            return DueDelivery(day, instant)
        day += timedelta(days=1)
    raise AssertionError("no due instant within four days")  # pragma: no cover
