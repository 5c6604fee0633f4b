"""A list value in the order the user wrote it. Pure.

Asked to "Sort this list of names in ascending order: ['Sam', 'Alice', 'Jack']", the small
model called ``sort_list(elements=["Alice", "Jack", "Sam"])``: it did the tool's work itself,
and a tool that sorts, filters or adds gets the user's list no longer. A list argument whose
items are all items the question writes, each once, is the user's list: :func:`as_written`
puts its items back in the question's order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["as_written"]


def _at(item: Any, question: str) -> int | None:
    """Where the question writes a list item first: a string as a whole word or phrase, a
    number as a number; ``None`` when it does not, or writes it more than once."""
    if isinstance(item, bool) or not isinstance(item, (str, int, float)):
        return None
    if isinstance(item, str):
        text = item.strip()
        if not text:
            return None
        pattern = rf"(?<![^\W_]){re.escape(text)}(?![^\W_])"
        found = [m.start() for m in re.finditer(pattern, question, re.IGNORECASE)]
    else:
        found = [
            m.start()
            for m in re.finditer(r"(?<![\d.])-?\d+(?:\.\d+)?(?!\.?\d)", question)
            if float(m.group()) == float(item)
        ]
    return found[0] if len(found) == 1 else None


def as_written(arguments: Mapping[str, Any], question: str) -> dict[str, Any] | None:
    """The arguments with each list the question writes back in the question's order.

    Args:
        arguments: A call's arguments.
        question: The user's question.

    Returns:
        The arguments with the lists reordered, or ``None`` when every list is already in the
        question's order (or is no list the question writes: an item it does not write, or
        writes twice).
    """
    changed = False
    written: dict[str, Any] = dict(arguments)
    for key, value in arguments.items():
        if not isinstance(value, list) or len(value) < 2:
            continue
        places = [_at(item, question) for item in value]
        if any(p is None for p in places) or len(set(places)) != len(places):
            continue
        ordered = [item for _, item in sorted(zip(places, value, strict=True))]
        if ordered != value:
            written[key] = ordered
            changed = True
    return written if changed else None
