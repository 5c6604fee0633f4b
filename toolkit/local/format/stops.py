"""Stop strings in streamed text: where one starts, and how much text to hold back. Pure.

A stop string may arrive split across generated pieces; the decoder streams only the text that
cannot be the start of one (:func:`held_back`) and cuts the text where one begins
(:func:`find_stop`).
"""

from __future__ import annotations

__all__ = ["find_stop", "held_back"]


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
