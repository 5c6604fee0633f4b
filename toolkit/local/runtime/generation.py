"""One generation's outcome, and how the next token is chosen from the logits.

:class:`Generation` is what :meth:`toolkit.local.runtime.engine.Engine.generate` returns: an
iterator of text pieces whose counts, tokens and finish reason fill in as it is consumed.
:func:`pick_token` is the choice itself, greedy or sampled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from toolkit.local.format.events import TokenLogprob
from toolkit.local.format.job import SamplingOptions

__all__ = ["Generation", "pick_token", "token_logprob"]


@dataclass
class Generation:
    """The outcome of one generation, filled in while its pieces are consumed.

    Attributes:
        prompt_tokens: Tokens in the prompt.
        completion_tokens: Tokens generated so far.
        finish_reason: ``"stop"`` (end of turn or a stop string), ``"length"`` (max_tokens or
            the context window) or ``None`` while running.
        text: The text generated so far (without any stop string).
        tokens: The ids generated so far (the end-of-turn token excluded).
        logprobs: With ``SamplingOptions.top_logprobs`` set, each generated token's
            :class:`~toolkit.local.format.events.TokenLogprob`: its log-probability among the
            tokens it could be (after the grammar and any ban, before temperature and
            top-p), and the most likely of those.
        evaluations: Model evaluations run after the prompt when guesses were checked in
            batches (:mod:`toolkit.local.runtime.lookup`); ``None`` when each token was
            evaluated alone.
        written: Of the completion tokens, those of the opening the engine wrote rather than
            the model chose (``opening`` of :meth:`~toolkit.local.runtime.engine.Engine.
            generate`), evaluated with the prompt in one batch.
    """

    prompt_tokens: int
    completion_tokens: int = 0
    tokens: list[int] = field(default_factory=list)
    logprobs: list[TokenLogprob] | None = None
    finish_reason: str | None = None
    text: str = ""
    evaluations: int | None = None
    written: int = 0
    _pieces: Iterator[str] = field(default=iter(()), repr=False)

    def __iter__(self) -> Iterator[str]:
        return self._pieces

    def consume(self) -> Generation:
        """Run the generation to its end.

        Returns:
            The generation itself, finished.
        """
        for _ in self._pieces:
            pass
        return self

    def close(self) -> None:
        """Stop generating now; the counts and text so far are final."""
        close = getattr(self._pieces, "close", None)
        if close is not None:
            close()


def pick_token(logits: np.ndarray, options: SamplingOptions, rng: np.random.Generator) -> int:
    """Choose the next token: the argmax at temperature 0, else a (top-p) sample.

    Args:
        logits: The next-token logits (forbidden tokens at minus infinity).
        options: The sampling options.
        rng: The sampler's random generator (seeded from ``options.seed``).

    Returns:
        The token id.
    """
    if options.temperature <= 0:
        return int(np.argmax(logits))
    scaled = logits.astype(np.float64) / options.temperature
    scaled -= scaled.max()
    probs = np.exp(scaled)
    probs /= probs.sum()
    if options.top_p < 1.0:
        order = np.argsort(-probs)
        keep = order[: int(np.searchsorted(np.cumsum(probs[order]), options.top_p)) + 1]
        kept = np.zeros_like(probs)
        kept[keep] = probs[keep]
        probs = kept / kept.sum()
    return int(rng.choice(len(probs), p=probs))


def token_logprob(
    logits: np.ndarray, token: int, top: int, piece: Callable[[int], bytes]
) -> TokenLogprob:
    """A token's log-probability under the softmax of some logits, and the ``top`` most likely.

    Args:
        logits: The logits the token was drawn from (forbidden tokens at minus infinity).
        token: The token id.
        top: How many most likely tokens to list (0 for none).
        piece: The bytes of a token id.

    Returns:
        The token's record.
    """
    values = logits.astype(np.float64)
    shifted = values - values.max()
    logprobs = shifted - np.log(np.exp(shifted).sum())

    def entry(i: int) -> tuple[str, tuple[int, ...], float]:
        data = piece(i)
        return data.decode("utf-8", errors="replace"), tuple(data), float(logprobs[i])

    best: list[int] = []
    if top > 0:
        candidates = np.argpartition(-logprobs, top)[:top] if top < len(logprobs) else None
        order = candidates if candidates is not None else np.arange(len(logprobs))
        best = [int(i) for i in order[np.argsort(-logprobs[order])] if np.isfinite(logprobs[i])]
    text, data, value = entry(token)
    return TokenLogprob(text, data, value, tuple(entry(i) for i in best[:top]))
