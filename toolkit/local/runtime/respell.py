"""Reusing the KV cache where a new prompt spells the same text in other tokens.

A call the model wrote ends ``"}}`` ``\\n`` ``</tool_call>``: its own choice of tokens. The
next request renders that call from text, and the tokenizer spells the same bytes
``"}}\\n`` ``</tool_call>``. From that token on the new prompt differs from the evaluated
context, and everything after it (the other calls, every tool result) would be evaluated again
— 108 tokens in the seed question's second step.

:func:`same_text` finds how far the two sequences spell the same bytes, at a boundary of
both; the engine then keeps the evaluated tokens for that stretch and evaluates only the
rest. The model reads its own tokens for its own call, as it did when it wrote them.
Control tokens (``<|im_end|>``, ``<tool_call>``) match only themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate

__all__ = ["same_text"]


def same_text(
    cached: Sequence[int], tokens: Sequence[int], spell: Callable[[int], bytes]
) -> tuple[int, int]:
    """How many leading tokens of each sequence spell the same bytes, ending together.

    Args:
        cached: The evaluated tokens (after the prefix both share token for token).
        tokens: The new prompt's tokens (after the same prefix).
        spell: A token's bytes; control tokens must spell something no text spells.

    Returns:
        ``(i, k)``: ``cached[:i]`` and ``tokens[:k]`` spell the same bytes, the longest such
        stretch; ``(0, 0)`` when even the first tokens differ in text.
    """
    old = [spell(t) for t in cached]
    new = [spell(t) for t in tokens]
    left, right = b"".join(old), b"".join(new)
    limit = min(len(left), len(right))
    same = next((n for n in range(limit) if left[n] != right[n]), limit)
    ends = {end: i + 1 for i, end in enumerate(accumulate(len(p) for p in old)) if end <= same}
    best = (0, 0)
    for k, end in enumerate(accumulate(len(p) for p in new), start=1):
        if end > same:
            break
        if end in ends:
            best = (ends[end], k)
    return best
