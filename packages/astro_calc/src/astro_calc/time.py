"""Local civil time -> Universal Time.

A birth moment is given as a local date and time plus one of:

* ``offset_minutes`` (the spec's ``timezoneOffsetMinutes``): a fixed offset east of UTC;
* ``timezone``: an IANA zone name, whose historical offsets and daylight-saving rules apply
  (zoneinfo with the ``tzdata`` package). A local time skipped by a DST change is an error that
  names it; a repeated (ambiguous) local time takes the earlier instant unless ``fold=1``;
* neither: the zone is found from the coordinates (timezonefinder, which ships its boundary data)
  and then treated as above.

Before a zone's first standard time the tz database gives the local mean time (``LMT``) of the
zone's reference city (Berlin's +0:53:28 for all of Germany, say). A birth then was timed by the
mean sun at the birth place, so when the coordinates are known the place's own local mean time is
used instead (4 minutes per degree east of Greenwich, to the second), as astrological atlases do:
Munich in 1850 is +0:46:18, not Berlin's +0:53:28 (a 1.3 degree difference in the ascendant).
Named mean times that were legal time (Paris Mean Time, Amsterdam's, Bangkok's) are kept.

When both are given the explicit offset wins (it is what the caller observed) and the zone is
echoed for reference. The resolved UTC instant and offset are returned so every result can echo
them.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import lru_cache
from typing import Any, Final, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from astro_calc.errors import CalcInputError, NonexistentLocalTimeError

_TIME_RE: Final = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,6})?)?$")
_TF_LOCK: Final = threading.Lock()
_finder: Any = None

TimeSource = Literal["offset", "timezone", "coordinates"]


class ResolvedTime(msgspec.Struct, frozen=True, gc=False):
    utc: datetime
    local: datetime  # aware, in the resolved offset
    offset_minutes: int
    timezone: str | None
    source: TimeSource


def parse_time_of_day(value: str, field: str = "time") -> time:
    """``HH:MM`` or ``HH:MM:SS`` (optionally with a fraction), 24-hour."""
    parsed = _parsed_times.get(value)
    if parsed is not None:
        return parsed
    parsed = _parse_time_of_day(value, field)
    if len(_parsed_times) < 4096:  # the minutes of a day and more; bounded
        _parsed_times[value] = parsed
    return parsed


#: Times of day by their text (a chart server sees the same few thousand over and over).
_parsed_times: dict[str, time] = {}


def _parse_time_of_day(value: str, field: str) -> time:
    m = _TIME_RE.match(value.strip())
    if not m:
        raise CalcInputError(field, f"{value!r} is not a 24-hour time HH:MM or HH:MM:SS")
    hh, mm, ss, frac = m.groups()
    micro = round(float(frac) * 1e6) if frac else 0
    return time(int(hh), int(mm), int(ss or 0), min(micro, 999_999))


@lru_cache(maxsize=512)
def zone(name: str, field: str = "timezone") -> ZoneInfo:
    """An IANA zone by name; an unknown name is an input error naming ``field``."""
    if not name or ("/" not in name and name not in {"UTC", "GMT", "Etc/UTC"}):
        # Area/City shape (plus UTC); refuse abbreviations like "EST" that zoneinfo accepts.
        raise CalcInputError(field, f"{name!r} is not an IANA time zone name like 'Asia/Bangkok'")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise CalcInputError(field, f"unknown time zone {name!r}") from None


def timezone_at(latitude: float, longitude: float) -> str:
    """IANA zone name at a point (ocean points get an Etc/GMT±N zone)."""
    global _finder
    _check_coordinates(latitude, longitude)
    with _TF_LOCK:
        if _finder is None:
            from timezonefinder import TimezoneFinder

            _finder = TimezoneFinder(in_memory=True)
        name = _finder.timezone_at(lng=longitude, lat=latitude)
    if not name:
        # Open sea: nautical zone by longitude.
        hours = round(longitude / 15.0)
        name = "Etc/UTC" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"
    return str(name)


def _check_coordinates(latitude: float, longitude: float) -> None:
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    if not -180.0 <= longitude <= 180.0:
        raise CalcInputError("longitude", "must be between -180 and 180")


def localize(naive: datetime, tz: ZoneInfo, *, fold: int = 0, field: str = "time") -> datetime:
    """Attach a zone to a naive local time, refusing times in a DST gap.

    A time in a gap does not survive the round trip through UTC; an ambiguous time takes
    ``fold`` (0 = earlier instant, 1 = later)."""
    aware = naive.replace(tzinfo=tz, fold=fold)
    back = aware.astimezone(UTC).astimezone(tz)
    if back.replace(tzinfo=None) != naive:
        raise NonexistentLocalTimeError(
            field,
            f"{naive.isoformat(sep=' ')} does not exist in {tz.key} "
            "(skipped by a daylight-saving change)",
        )
    return aware


def resolve(
    local_date: date,
    local_time: time,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    fold: int = 0,
    time_field: str = "time",
) -> ResolvedTime:
    """Resolve a local birth moment to UTC (see the module docstring for the rules).
    ``time_field`` names the time in the error for a local time skipped by a clock change."""
    naive = datetime.combine(local_date, local_time)
    if offset_minutes is not None:
        if not -18 * 60 <= offset_minutes <= 18 * 60:
            raise CalcInputError("timezoneOffsetMinutes", "must be between -1080 and 1080")
        local = naive.replace(tzinfo=_fixed_offset(offset_minutes))
        if timezone_name is not None:
            zone(timezone_name)
        return ResolvedTime(local.astimezone(UTC), local, offset_minutes, timezone_name, "offset")
    source: TimeSource = "timezone"
    if timezone_name is None:
        if latitude is None or longitude is None:
            raise CalcInputError(
                "timezoneOffsetMinutes",
                "give timezoneOffsetMinutes, timezone, or coordinates to find the zone",
            )
        timezone_name = timezone_at(latitude, longitude)
        source = "coordinates"
    tz = zone(timezone_name)
    local = localize(naive, tz, fold=fold, field=time_field)
    if longitude is not None and local.tzname() == "LMT":
        mean_time = timezone(
            timedelta(seconds=round(local_mean_time_offset_minutes(longitude) * 60))
        )
        local = naive.replace(tzinfo=mean_time)
    offset = local.utcoffset()
    assert offset is not None
    return ResolvedTime(
        local.astimezone(UTC), local, round(offset.total_seconds() / 60), timezone_name, source
    )


@lru_cache(maxsize=256)
def _fixed_offset(minutes: int) -> timezone:
    """The fixed-offset zone of a UTC offset in minutes (one object per offset)."""
    return timezone(timedelta(minutes=minutes))


def local_mean_time_offset_minutes(longitude: float) -> float:
    """Offset of local mean solar time from UT, in minutes (4 minutes per degree east)."""
    return longitude * 4.0
