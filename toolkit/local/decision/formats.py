"""Dates and times written in the format a parameter's description asks for. Pure.

"Can you find any Theater events happening in Oakland, CA on 2023.4.11?" was called with
``date="2023.4.11"`` where the parameter says "in the format 'YYYY-MM-DD'", and "Set a new
alarm for 5 in the afternoon" with ``"5:00 PM"`` where it says "in 24-hour format (HH:MM)":
the user's date and time, in a spelling the tool does not read. :func:`in_described_formats`
writes each such value in the described format — a date as 'YYYY-MM-DD', 'MM/DD/YYYY',
'DD-MM-YYYY' or "(month-day-year)" spell it, a time on the 24-hour clock — and leaves every
other value as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from toolkit.local.decision.dates import dates_in
from toolkit.local.decision.times import times_in

__all__ = ["in_described_formats"]

#: A date format a description spells out: 'YYYY-MM-DD', "MM/DD/YYYY", 'DD.MM.YYYY'.
_DATE_FORMAT = re.compile(
    r"(?<![A-Za-z])(YYYY|MM|DD)([-/.])(YYYY|MM|DD)\2(YYYY|MM|DD)(?![A-Za-z])", re.IGNORECASE
)
#: A date format said in words: "(month-day-year)", "day/month/year".
_WORDED_FORMAT = re.compile(r"\b(year|month|day)([-/.])(year|month|day)\2(year|month|day)\b")
_PARTS = {"yyyy": "Y", "mm": "M", "dd": "D", "year": "Y", "month": "M", "day": "D"}
#: A date a call writes with its year first or last: "2023.4.11", "2023-10-2", "04/22/2023".
_YEAR_FIRST = re.compile(r"(?<![\d.])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d.])")
_YEAR_LAST = re.compile(r"(?<![\d.])(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?![\d.])")
#: A description that asks for the 24-hour clock, not am/pm.
_TWENTY_FOUR = re.compile(r"24[- ]?hour|\bHH:MM\b(?!\s*(?:AM|PM|[AP]\.M))", re.IGNORECASE)
_MERIDIEM = re.compile(r"\b(?:AM|PM)\b|[ap]\.m\.", re.IGNORECASE)
#: A time of day a call writes: "5:00 PM", "5pm", "17:00".
_TIME = re.compile(
    r"(?<![\d:])(\d{1,2})(?::([0-5]\d))?(?::[0-5]\d)?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE
)


def _date_format(description: str) -> tuple[str, str] | None:
    """The order of a described date format ("YMD") and its separator, or ``None``."""
    found = _DATE_FORMAT.search(description) or _WORDED_FORMAT.search(description.casefold())
    if found is None:
        return None
    order = "".join(_PARTS[found[i].casefold()] for i in (1, 3, 4))
    return (order, found[2]) if sorted(order) == ["D", "M", "Y"] else None


def _written_date(value: str, stated: frozenset[date]) -> tuple[re.Match[str], date] | None:
    """The one date a value writes with its year first or last, read as the date the
    conversation states where the value could mean two ("04/05/2022")."""
    first, last = list(_YEAR_FIRST.finditer(value)), list(_YEAR_LAST.finditer(value))
    if len(first) + len(last) != 1:
        return None
    if first:
        match = first[0]
        readings = [(int(match[1]), int(match[3]), int(match[4]))]
    else:
        match = last[0]
        a, b, year = int(match[1]), int(match[3]), int(match[4])
        readings = [(year, a, b), (year, b, a)]
    meant = set()
    for year, month, day in readings:
        try:
            meant.add(date(year, month, day))
        except ValueError:
            continue
    if len(meant) > 1:
        meant &= stated
    return (match, meant.pop()) if len(meant) == 1 else None


def _spelled(day: date, order: str, separator: str) -> str:
    parts = {"Y": f"{day.year:04d}", "M": f"{day.month:02d}", "D": f"{day.day:02d}"}
    return separator.join(parts[p] for p in order)


def _in_date_format(value: str, description: str, text: str) -> str:
    described = _date_format(description)
    if described is None:
        return value
    written = _written_date(value, dates_in(text))
    if written is None:
        return value
    match, day = written
    return value[: match.start()] + _spelled(day, *described) + value[match.end() :]


def _in_time_format(value: str, description: str, text: str) -> str:
    """A time with am/pm written on the 24-hour clock the description asks for, when the
    conversation states that time."""
    if _TWENTY_FOUR.search(description) is None or _MERIDIEM.search(description):
        return value
    found = list(_TIME.finditer(value))
    if len(found) != 1:
        return value
    match = found[0]
    hour, minute = int(match[1]), int(match[2] or 0)
    if not 1 <= hour <= 12:
        return value
    hour = hour % 12 + (12 if match[3].casefold() == "p" else 0)
    if (hour, minute) not in times_in(text):
        return value
    return value[: match.start()] + f"{hour:02d}:{minute:02d}" + value[match.end() :]


def in_described_formats(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, text: str
) -> dict[str, Any]:
    """The arguments with each top-level text value's date and time written in the format its
    parameter's description asks for ('YYYY-MM-DD', "in 24-hour format (HH:MM)").

    Args:
        arguments: The call's arguments.
        schema: The tool's ``parameters`` schema.
        text: The conversation's text (which of two readings of "04/05/2022" the user
            means; a time is rewritten only when the conversation states it).

    Returns:
        The arguments, rewritten where a value was in another format.
    """
    properties = (schema or {}).get("properties") or {}
    formed = dict(arguments)
    for key, value in arguments.items():
        spec = properties.get(key) if isinstance(properties, Mapping) else None
        description = spec.get("description") if isinstance(spec, Mapping) else None
        if not isinstance(value, str) or not isinstance(description, str):
            continue
        formed[key] = _in_time_format(_in_date_format(value, description, text), description, text)
    return formed
