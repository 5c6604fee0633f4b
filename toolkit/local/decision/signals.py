"""What the model's own probabilities say before it writes a word: text or call, which tool.

Both signals evaluate the prompt (and a few tokens after it) on the loaded engine; the decoding
that follows reuses that evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from toolkit.local.format.grammar import NAME_OPENING

if TYPE_CHECKING:  # the signals need a loaded engine, not the llama.cpp module
    from toolkit.local.runtime.engine import Engine

__all__ = [
    "CALL_OPENERS",
    "NAME_PREFIX",
    "NOT_TEXT_STARTS",
    "name_probabilities",
    "option_logprobs",
    "text_probability",
]


#: How a call can start: the template's tag, a code fence, or bare JSON.
CALL_OPENERS = (b"<tool_call>", b"```", b"{", b"[")
#: How a text answer (when tools were offered) may not start: markup, JSON or a fence.
NOT_TEXT_STARTS = (b"<", b">", b"{", b"}", b"[", b"]", b"`")


def text_probability(engine: Engine, tokens: Sequence[int]) -> float:
    """The model's probability that its answer starts as text rather than as a call.

    Args:
        engine: The loaded model.
        tokens: The prompt tokens.

    Returns:
        One minus the probability mass of the call-opening tokens.
    """
    logprobs = engine.next_token_logprobs(tokens)
    return float(max(0.0, 1.0 - np.exp(logprobs[engine.opening_tokens(CALL_OPENERS)]).sum()))


#: What the model writes before a function name in its call format.
NAME_PREFIX = NAME_OPENING


def name_probabilities(
    engine: Engine, tokens: Sequence[int], names: Sequence[str], *, floor: float
) -> dict[str, float]:
    """The model's probability of naming each tool if it writes a call now.

    The prompt is extended with ``<tool_call>`` and ``{"name": "`` and each tool name is
    scored token by token (then the closing quote), shared prefixes once; a name whose running
    probability falls below ``floor`` is not followed further and counts as zero. A low total
    means the model would call a function that is not offered: the question is not for these
    tools.

    Args:
        engine: The loaded model.
        tokens: The prompt tokens.
        names: The offered tool names.
        floor: Probability under which a name is counted as zero.

    Returns:
        Each name's probability.
    """
    base = engine.tokenize(NAME_PREFIX, bos=False)
    quotes = engine.opening_tokens((b'"',))
    logprobs = _logprobs_after(engine, tokens)
    found: dict[str, float] = {}
    for name in dict.fromkeys(names):
        full = engine.tokenize(NAME_PREFIX + name, bos=False)
        start = next(
            (i for i, (a, b) in enumerate(zip(base, full, strict=False)) if a != b), len(base)
        )
        probability = 1.0
        for j in range(min(start, len(full)), len(full)):
            probability *= float(np.exp(logprobs(full[:j])[full[j]]))
            if probability < floor:
                break
        ends = float(np.exp(logprobs(full)[quotes]).sum()) if probability >= floor else 0.0
        found[name] = probability * ends
    return found


def option_logprobs(
    engine: Engine, tokens: Sequence[int], options: Sequence[str], closing: str
) -> dict[str, float]:
    """The model's log-probability of writing each option whole, then ``closing``, next.

    Each option is scored token by token after the prompt, shared prefixes once: the choice
    among a closed list is read from the whole of each option, not decided by its first
    token, as greedy decoding under a grammar of the options would.

    Args:
        engine: The loaded model.
        tokens: The prompt tokens, ending where an option starts.
        options: The texts to score.
        closing: What follows an option (a closing quote): a shorter option is scored as a
            whole one, not as the start of a longer one.

    Returns:
        Each option's summed natural-log probability.
    """
    logprobs = _logprobs_after(engine, tokens)
    scores: dict[str, float] = {}
    for option in dict.fromkeys(options):
        written = engine.tokenize(option + closing, bos=False)
        scores[option] = sum(float(logprobs(written[:j])[written[j]]) for j in range(len(written)))
    return scores


def _logprobs_after(engine: Engine, tokens: Sequence[int]) -> Callable[[Sequence[int]], np.ndarray]:
    """The next token's log-probabilities after the prompt and a suffix of tokens, each suffix
    evaluated once (the options that share a prefix share its evaluations)."""
    head = list(tokens)
    cache: dict[tuple[int, ...], np.ndarray] = {}

    def logprobs(suffix: Sequence[int]) -> np.ndarray:
        key = tuple(suffix)
        if key not in cache:
            cache[key] = engine.next_token_logprobs(head + list(suffix))
        return cache[key]

    return logprobs
