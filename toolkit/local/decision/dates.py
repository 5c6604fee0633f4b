"""Dates as the conversation says them and as a call writes them. Pure.

A tool wants ``check_in="2022-04-05"`` where the user wrote "April 5, 2022": the call's value
is the user's date in another spelling, yet neither its "04" nor its "05" is a word of the
question. :func:`dates_in` reads the calendar dates a text states — a month's name with a day
and a year ("April 5, 2022", "5 April 2022", "Apr. 5th, 2022"), ISO ("2022-04-05",
"2022/04/05"), slashes or dots with the year last ("04/05/2022", read both month-first and
day-first) and Chinese ("2022年4月5日") — so that :func:`says_dates` can tell whether a value's
dates are all the text's own. A day and month without a year ("20th June") is the text's
in any year a call writes (:func:`days_in`).
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

__all__ = [
    "dates_in",
    "dates_written",
    "days_in",
    "recopied_date",
    "says_dates",
    "without_spans",
]

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
_EDGE, _END = r"(?<![0-9A-Za-z])", r"(?![0-9A-Za-z])"

#: Spellings of a date; ``order`` says how a numeric one's first two numbers read.
_FORMS = [
    (re.compile(_EDGE + _MONTH + r"\s*" + _DAY + r"\s*,?\s*(?:of\s+)?" + _YEAR + _END, re.I), ""),
    (re.compile(_EDGE + _DAY + r"\s*(?:of\s+)?" + _MONTH + r"\s*,?\s*" + _YEAR + _END, re.I), ""),
    (re.compile(_EDGE + _YEAR + r"[-/.](?P<a>\d{1,2})[-/.](?P<b>\d{1,2})(?![0-9])"), "ymd"),
    (re.compile(_EDGE + r"(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-]" + _YEAR + _END), "either"),
    (re.compile(_YEAR + r"\s*年\s*(?P<a>\d{1,2})\s*月\s*(?P<b>\d{1,2})\s*[日号]?"), "ymd"),
]


#: A day of a month without its year ("20th June", "June 20", "Dec. 25th").
_YEARLESS = [
    re.compile(_EDGE + _MONTH + r"\s*" + _DAY + _END, re.I),
    re.compile(_EDGE + _DAY + r"\s*(?:of\s+)?" + _MONTH + _END, re.I),
]


@lru_cache(maxsize=64)
def days_in(text: str) -> frozenset[tuple[int, int]]:
    """The days of a month a text states without a year, as ``(month, day)``: a call must
    write a year for "20th June", and any year it writes is the completion the tool needs,
    not a value of its own.

    Args:
        text: Any text.

    Returns:
        The ``(month, day)`` pairs.
    """
    days = set()
    for form in _YEARLESS:
        for match in form.finditer(text):
            day = int(match["day"])
            if 1 <= day <= 31:
                days.add((_MONTHS[match["month"].lower()], day))
    return frozenset(days)


def _dates(text: str) -> list[tuple[tuple[int, int], set[date]]]:
    """Each date spelling in the text: its span and the dates it may mean."""
    found: list[tuple[tuple[int, int], set[date]]] = []
    for form, order in _FORMS:
        for match in form.finditer(text):
            if any(s < match.end() and match.start() < e for (s, e), _ in found):
                continue  # part of a date already read
            year = int(match["year"])
            if order:
                a, b = int(match["a"]), int(match["b"])
                readings = [(a, b)] if order == "ymd" else [(a, b), (b, a)]
            else:
                readings = [(_MONTHS[match["month"].lower()], int(match["day"]))]
            meant = set()
            for month, day in readings:
                try:
                    meant.add(date(year, month, day))
                except ValueError:
                    continue  # no such day ("13/25/2022" read month-first)
            if meant:
                found.append((match.span(), meant))
    return found


@lru_cache(maxsize=64)
def dates_in(text: str) -> frozenset[date]:
    """The calendar dates a text states (every reading of an ambiguous "04/05/2022").

    Args:
        text: Any text (a conversation's is read once for all the values checked against it).

    Returns:
        The dates.
    """
    return frozenset(day for _, meant in _dates(text) for day in meant)


def dates_written(text: str) -> bool:
    """Whether a text writes a calendar date (in any spelling :func:`dates_in` reads).

    Args:
        text: Any text, say a call's value.

    Returns:
        True when it writes one.
    """
    return bool(_dates(text))


def says_dates(value: str, text: str) -> str | None:
    """Whether a value's dates are all dates the text states.

    Args:
        value: A call's text value ("2022-04-05", "2022-04-05 to 2022-04-15").
        text: The conversation's text.

    A date whose day and month the text states without a year ("20th June") is the text's
    in any year.

    Returns:
        ``None`` when the value holds no date or a date the text does not state; otherwise
        the value with its dates taken out (what else it says, to be checked apart).
    """
    spans = _dates(value)
    if not spans:
        return None
    stated, days = dates_in(text), days_in(text)
    if not all(meant & stated or {(d.month, d.day) for d in meant} & days for _, meant in spans):
        return None
    return without_spans(value, [span for span, _ in spans])


def without_spans(value: str, spans: list[tuple[int, int]]) -> str:
    """A text with the given spans taken out, what stood between them joined by spaces.

    Args:
        value: The text.
        spans: ``(start, stop)`` of each span, not overlapping.

    Returns:
        The rest of the text.
    """
    rest, end = [], 0
    for start, stop in sorted(spans):
        rest.append(value[end:start])
        end = stop
    rest.append(value[end:])
    return " ".join(rest)


#: A date as a call writes it: ISO, with dashes or slashes.
_ISO = re.compile(r"(?<!\d)(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?!\d)")


def recopied_date(value: str, text: str) -> str | None:
    """A value's date copied wrong from the one date the text states, written right.

    "2026年10月1日再过45天" gives ``date="2026-10-10"``: the year and the month of the user's
    date, the month again for the day. When the text states one date (one reading), and
    the value writes one ISO date of the same year whose month and day are both numbers of
    that date but which is not that date, the value means the user's date: it is written
    in its place, in the value's own spelling ("2026-10-01"; "2026/10/01").

    Args:
        value: A call's text value.
        text: The conversation's text.

    Returns:
        The value with the date written right, or ``None`` when there is nothing to write.
    """
    written = list(_ISO.finditer(value))
    stated = dates_in(text)
    if len(written) != 1 or len(stated) != 1:
        return None
    (meant,) = stated
    match = written[0]
    year, month, day = int(match[1]), int(match[3]), int(match[4])
    if year != meant.year or (month, day) == (meant.month, meant.day):
        return None
    if not {month, day} <= {meant.month, meant.day}:
        return None
    width = len(match[3]), len(match[4])
    spelled = f"{meant.year}{match[2]}{meant.month:0{width[0]}d}{match[2]}{meant.day:0{width[1]}d}"
    return value[: match.start()] + spelled + value[match.end() :]
