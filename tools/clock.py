"""Time and dates: the current time in any IANA timezone, and calendar arithmetic.

Timezones come from :mod:`zoneinfo` (the ``tzdata`` package supplies the database where the
system has none). A bad timezone or date raises :class:`~langchain_core.tools.ToolException`
with a message that shows the expected form and, for timezones, the closest valid names.
"""

from __future__ import annotations

import datetime as dt
import difflib
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from langchain_core.tools import ToolException, tool

__all__ = ["add_days", "current_time", "days_between"]

#: Common names a model may use instead of an IANA key.
_ALIASES = {
    "beijing": "Asia/Shanghai",
    "china": "Asia/Shanghai",
    "cst": "Asia/Shanghai",
    "北京": "Asia/Shanghai",
    "北京时间": "Asia/Shanghai",
    "gmt": "UTC",
    "z": "UTC",
}

#: Most days ``add_days`` moves a date (about 10,000 years would leave the calendar anyway).
MAX_DAYS = 3_000_000


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones() - {"localtime", "posixrules", "Factory"}))


def _zone(name: str) -> ZoneInfo:
    key = _ALIASES.get(name.strip().lower(), name.strip())
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    folded = {zone.lower(): zone for zone in _zone_names()}
    if key.lower() in folded:
        return ZoneInfo(folded[key.lower()])
    close = difflib.get_close_matches(key, _zone_names(), n=3, cutoff=0.6) if len(key) < 64 else []
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise ToolException(
        f"Unknown timezone {name[:60]!r}. Use an IANA name such as 'UTC', 'Asia/Shanghai', "
        f"'Europe/London' or 'America/New_York'.{hint}"
    )


def _date(text: str, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ToolException(
            f"{what} {text[:40]!r} is not a date; write it as YYYY-MM-DD, e.g. '2024-05-10'."
        ) from None


def _describe(day: dt.date) -> str:
    return f"{day.isoformat()} ({day.strftime('%A')})"


@tool(parse_docstring=True)
def current_time(timezone: str = "UTC") -> str:
    """Get the current date and time in a timezone.

    Args:
        timezone: An IANA timezone name such as "UTC", "Asia/Shanghai" or "Europe/London".

    Returns:
        The local date, time, weekday and UTC offset, e.g. "2024-05-10 14:03:22 Friday
        (Asia/Shanghai, UTC+08:00)".
    """
    zone = _zone(timezone)
    now = dt.datetime.now(zone)
    offset = now.strftime("%z")
    return f"{now.strftime('%Y-%m-%d %H:%M:%S %A')} ({zone.key}, UTC{offset[:3]}:{offset[3:]})"


@tool(parse_docstring=True)
def add_days(date: str, days: int) -> str:
    """Add a number of days to a calendar date (negative numbers go back in time).

    Args:
        date: The starting date in ISO form YYYY-MM-DD, e.g. "2024-05-10".
        days: How many days to add; use a negative number to subtract, e.g. -7.

    Returns:
        The resulting date and its weekday, e.g. "2024-05-17 (Friday)".
    """
    start = _date(date, "date")
    if abs(days) > MAX_DAYS:
        raise ToolException(f"days={days} is too far; stay within ±{MAX_DAYS:,} days.")
    try:
        return _describe(start + dt.timedelta(days=days))
    except OverflowError:
        raise ToolException(
            f"{date} + {days} days falls outside the calendar (years 1 to 9999)."
        ) from None


@tool(parse_docstring=True)
def days_between(start: str, end: str) -> int:
    """Count the days from one calendar date to another (negative if end is before start).

    Args:
        start: The first date in ISO form YYYY-MM-DD, e.g. "2024-01-01".
        end: The second date in ISO form YYYY-MM-DD, e.g. "2024-12-25".

    Returns:
        The number of days from start to end.
    """
    return (_date(end, "end") - _date(start, "start")).days
