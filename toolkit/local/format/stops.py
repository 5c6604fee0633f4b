"""Stop strings in streamed text: where one starts, and how much text to hold back. Pure.

A stop string may arrive split across generated pieces; the decoder streams only the text that
cannot be the start of one (:func:`held_back`) and cuts the text where one begins
(:func:`find_stop`). A small model can also fall into a loop, writing the same few characters
over and over until its token budget runs out; :func:`repetition_start` finds where.
"""

from __future__ import annotations

import re

__all__ = ["find_stop", "held_back", "repetition_start"]


def find_stop(text: str, stops: tuple[str, ...], emitted: int) -> int | None:
    """Where the first stop string starts in ``text`` (searching near the unemitted end).

    Args:
        text: The text generated so far.
        stops: The stop strings.
        emitted: How many characters were already handed out.

    Returns:
        The index of the earliest stop string, or ``None``.
    """
    if not stops:
        return None
    start = max(0, emitted - max(len(s) for s in stops))
    found = [i for i in (text.find(s, start) for s in stops) if i >= 0]
    return min(found) if found else None


def held_back(text: str, stops: tuple[str, ...]) -> int:
    """How many trailing characters might be the start of a stop string.

    Args:
        text: The text generated so far.
        stops: The stop strings.

    Returns:
        The number of characters to hold back from streaming.
    """
    best = 0
    for stop in stops:
        for size in range(min(len(stop) - 1, len(text)), best, -1):
            if text.endswith(stop[:size]):
                best = size
                break
    return best


def repetition_start(
    text: str,
    *,
    longest: int = 8,
    times: int = 8,
    phrase: int = 48,
    span: int = 64,
    shortest_block: int = 120,
    block: int = 400,
) -> int | None:
    """Where a text starts repeating one short piece over and over, at its end.

    Args:
        text: The text generated so far.
        longest: The longest repeated piece looked for, in characters.
        times: How many times in a row it must come.
        phrase: The longest repeated phrase looked for beyond ``longest``: a phrase comes
            at least four times and over at least ``span`` characters ("金盏谷养蜂场：共有 "
            seven times).
        span: See ``phrase``.
        shortest_block: The shortest block looked for beyond ``phrase``: one that comes
            three times in a row, its numbers aside (a numbered list that describes one tool
            again and again, "4. **driving_distance**: …", "5. **driving_distance**: …").
            Lines that differ only in their numbers are shorter ("Day 1: 20 °C, sunny").
        block: The longest such block.

    Returns:
        The index just after the piece's first occurrence (the text cut there keeps it once),
        or ``None`` when the text does not end in such a loop. Blanks repeat too (a model
        under a grammar that refuses what it wants to write may pad with spaces): a run of
        at least ``longest * times`` whitespace characters is cut where it starts. A digit
        must come twice ``times`` in a row: a tool's float repeats one ("83.0666666667").
    """
    blank = len(text) - len(text.rstrip())
    if blank >= longest * times:
        return len(text) - blank
    for size in range(1, longest + 1):
        unit = text[-size:]
        if unit.strip():
            found = _run_start(text, unit, 2 * times if unit.isdigit() else times)
            if found is not None:
                return found
    for size in range(longest + 1, phrase + 1):
        unit = text[-size:]
        if unit.strip():
            found = _run_start(text, unit, max(4, -(-span // size)))
            if found is not None:
                return found
    return _block_start(text, shortest_block, block)


#: A number, which a repeated block may change from one copy to the next.
_NUMBER = re.compile(r"\d+")


def _block_start(text: str, shortest: int, longest: int, times: int = 3) -> int | None:
    """When the text ends in one block of ``shortest`` to ``longest`` characters ``times``
    times in a row, each number in it read as any number: the index just after the run's
    first block; else ``None``."""
    if len(text) < shortest * times:
        return None
    masked, origin, at = [], [], 0  # the text with each number as "#", and where each is
    for number in _NUMBER.finditer(text):
        masked.append(text[at : number.start()])
        origin.extend(range(at, number.start()))
        masked.append("#")
        origin.append(number.start())
        at = number.end()
    masked.append(text[at:])
    origin.extend(range(at, len(text) + 1))
    flat = "".join(masked)
    for size in range(shortest, min(longest, len(flat) // times) + 1):
        unit = flat[-size:]
        if flat[-2 * size : -size] != unit or not unit.strip():
            continue
        found = _run_start(flat, unit, times)
        if found is not None:
            return origin[found]
    return None


def _run_start(text: str, unit: str, repeats: int) -> int | None:
    """When the text ends in ``unit`` at least ``repeats`` times in a row: the index just after
    the run's first ``unit``; else ``None``."""
    size = len(unit)
    if len(text) < size * repeats or text[-size * repeats :] != unit * repeats:
        return None
    start = len(text) - size * repeats
    while start >= size and text[start - size : start] == unit:
        start -= size
    return start + size
