"""Times of day as the conversation says them and as a call writes them. Pure.

A tool wants ``alarm_time="23:00"`` where the user wrote "11PM": the call's value is the
user's time in another spelling, yet its "23" is no number of the question. :func:`times_in`
reads the times of day a text states — with am/pm ("11PM", "7:30 p.m."), o'clock or a part of
the day ("5 in the afternoon", "8 o'clock tonight"), on a clock ("16:00", "10:00:00"), noon and
midnight, and Chinese ("下午5点", "晚上8点半", "10点30分") — so that :func:`says_times` can tell
whether a value's times are all the text's own, and :func:`says_moments` whether its dates and
times are.

A clock time the text writes without am/pm ("at 3:30") is read both ways; one a call writes
("15:30") means just what it says.
"""

from __future__ import annotations

import re
from functools import lru_cache

import cn2an

from toolkit.local.decision.dates import dates_written, says_dates, without_spans

__all__ = ["says_moments", "says_times", "times_in"]

#: Parts of the day after a time: those from noon on move an hour of 1–11 past noon.
_LATER = r"(?:in\s+the\s+(?:afternoon|evening)|at\s+night|tonight|this\s+(?:afternoon|evening))"
_EARLIER = r"(?:in\s+the\s+morning|this\s+morning)"
_NUMBER = r"(?<![\d.:])(\d{1,2})"
_MINUTES = r"(?::([0-5]\d))(?::[0-5]\d)?"

#: "11PM", "7:30 p.m.", "10:00:00 AM".
_MERIDIEM = re.compile(_NUMBER + r"(?:" + _MINUTES + r")?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
#: "5 o'clock", "5 in the afternoon", "8:15 tonight", "9 o'clock in the morning".
_OCLOCK = re.compile(
    _NUMBER
    + r"(?:"
    + _MINUTES
    + r")?(\s*o['’]?\s?clock)?(?:\s*("
    + _LATER
    + r")|\s*("
    + _EARLIER
    + r"))?",
    re.IGNORECASE,
)
#: A clock time: "16:00", "3:30", "10:00:00"; an ISO date-time's "T16:00".
_CLOCK = re.compile(r"(?<![\d.:])(?:T)?([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?![\d:])")
_NOON = re.compile(r"\b(noon|midday|midnight)\b", re.IGNORECASE)
#: Chinese: "下午5点", "晚上8点半", "10点30分", "凌晨1点".
_CHINESE = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|晚上|傍晚|夜里)?\s*(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*[点點时時]"
    r"\s*(?:(半)|(\d{1,2})\s*分?)?"
)
_CHINESE_LATER = {"下午", "晚上", "傍晚", "夜里"}


def _chinese_number(text: str) -> int:
    try:
        return int(cn2an.cn2an(text, "smart"))
    except ValueError:  # no numeral the reader knows ("十十")
        return -1


def _past_noon(hour: int, later: bool) -> int:
    return hour + 12 if later and 1 <= hour <= 11 else hour


def _times(text: str, loose: bool) -> list[tuple[tuple[int, int], set[tuple[int, int]]]]:
    """Each time a text writes: its span and the (hour, minute) it may mean; ``loose`` reads
    a clock time without am/pm both ways (a conversation's "3:30"), else as written (a
    call's "15:30")."""
    found: list[tuple[tuple[int, int], set[tuple[int, int]]]] = []
    taken: list[tuple[int, int]] = []

    def add(span: tuple[int, int], meant: set[tuple[int, int]]) -> None:
        if meant and not any(span[0] < stop and start < span[1] for start, stop in taken):
            taken.append(span)
            found.append((span, meant))

    for match in _MERIDIEM.finditer(text):
        hour, minute = int(match[1]), int(match[2] or 0)
        if 1 <= hour <= 12:
            hour = hour % 12 + (12 if match[3].casefold() == "p" else 0)
            add(match.span(), {(hour, minute)})
    for match in _OCLOCK.finditer(text):
        if not (match[3] or match[4] or match[5]):
            continue  # a bare number is no time
        hour, minute = int(match[1]), int(match[2] or 0)
        if 0 <= hour <= 23:
            add(match.span(), {(_past_noon(hour, bool(match[4])), minute)})
    for match in _CHINESE.finditer(text):
        hour = _chinese_number(match[2])
        minute = 30 if match[3] else int(match[4] or 0)
        if 0 <= hour <= 23 and minute < 60:
            add(match.span(), {(_past_noon(hour, match[1] in _CHINESE_LATER), minute)})
    for match in _CLOCK.finditer(text):
        hour, minute = int(match[1]), int(match[2])
        meant = {(hour, minute)}
        if loose and 1 <= hour <= 11:
            meant.add((hour + 12, minute))
        add(match.span(), meant)
    for match in _NOON.finditer(text):
        add(match.span(), {(0, 0) if match[1].casefold() == "midnight" else (12, 0)})
    return found


@lru_cache(maxsize=64)
def times_in(text: str) -> frozenset[tuple[int, int]]:
    """The times of day a text states, as (hour, minute) on a 24-hour clock (every reading
    of a clock time written without am/pm).

    Args:
        text: Any text (a conversation's is read once for all the values checked against it).

    Returns:
        The times.
    """
    return frozenset(time for _, meant in _times(text, loose=True) for time in meant)


def says_times(value: str, text: str) -> str | None:
    """Whether a value's times of day are all times the text states.

    Args:
        value: A call's text value ("23:00", "11:00 PM", "2024-03-12 16:00:00").
        text: The conversation's text.

    Returns:
        ``None`` when the value holds no time or a time the text does not state; otherwise
        the value with its times taken out (what else it says, to be checked apart).
    """
    spans = _times(value, loose=False)
    if not spans:
        return None
    stated = times_in(text)
    if not all(meant & stated for _, meant in spans):
        return None
    return without_spans(value, [span for span, _ in spans])


def says_moments(value: str, text: str) -> str | None:
    """Whether a value's dates and times are all the text's own (:func:`says_times`,
    :func:`~toolkit.local.decision.dates.says_dates`).

    Args:
        value: A call's text value ("2024-03-12 16:00:00", "23:00", "2022-04-05").
        text: The conversation's text.

    Returns:
        ``None`` when the value holds no date or time, or one the text does not state;
        otherwise the value with them taken out.
    """
    rest = value
    if dates_written(value):
        rest = says_dates(value, text)
        if rest is None:
            return None
    timed = says_times(rest, text)
    if timed is not None:
        return timed
    return None if rest is value or _times(rest, loose=False) else rest
