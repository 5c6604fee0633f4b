"""Prompt-lookup decoding: guess the next tokens from the context and check them in one batch.

A tool call mostly repeats text the prompt already holds: the ``<tool_call>`` scaffolding the
template shows, the tool's name and parameter names from ``<tools>``, the shape of the call made
a moment ago; a final answer copies values from ``<tool_response>`` blocks. Generating one token
at a time evaluates the model once per token; a batch of a few tokens evaluates them together.
So, with greedy decoding:

1. after choosing a token, :func:`draft` looks for the latest tokens (the last 1-3) earlier in
   the context and guesses that what followed them there follows again;
2. :class:`LookupFeeder` evaluates the chosen token and the guess in one batch, keeping the
   logits of every position;
3. the decoder keeps choosing tokens as before (grammar included); while its choices equal the
   guess, the next logits are already there. At the first difference the rest of the guess is
   dropped from the KV cache.

Each token is still the argmax of the logits after exactly the tokens before it, so the output
is that of ordinary greedy decoding up to the rounding of batched evaluation: logits computed in
a batch can differ from single-token ones in the last bits, which can flip a near tie (seen once
in long free text with 8-token guesses; grammar-constrained calls came out identical in every
comparison). It is the same idea as llama.cpp's ``lookup`` example and
``LlamaPromptLookupDecoding``.

It pays only where a batch costs little more than one token. On the 2-core machines this
project is measured on (AMD EPYC, 0.5B model, logits kept for every position) it does not: one
token costs 29 ms, a batch of 2 costs 60 ms, of 4 65 ms, of 8 133 ms, and in the seed question's
calls only about one guess in three held, so the seed loop took 6.0-6.5 s with 3-token guesses
and 4.7 s without (``python bench/server_vs_llama.py``, "lookup decoding on"). The engine
therefore leaves it off (``Engine(lookup_tokens=0)``); a machine whose small batches are cheap
can turn it on.
"""

from __future__ import annotations

from collections import deque

import llama_cpp
import llama_cpp.llama_cpp as llama_lib
import numpy as np

__all__ = ["DEFAULT_LOOKUP_TOKENS", "DEFAULT_MAX_NGRAM", "LookupFeeder", "draft"]

#: Most tokens guessed at a time: a batch of 2-3 tokens costs ~1.5 single evaluations on 2 cores,
#: nine cost 3.6, so long guesses lose.
DEFAULT_LOOKUP_TOKENS = 3
#: Longest suffix of the context looked up.
DEFAULT_MAX_NGRAM = 3


def draft(context: np.ndarray, *, max_ngram: int = DEFAULT_MAX_NGRAM, length: int = 8) -> list[int]:
    """Guess the tokens after ``context`` from an earlier occurrence of its last tokens.

    The longest suffix (``max_ngram`` tokens down to one) that occurs earlier is looked up;
    of its occurrences the latest wins, and the tokens that followed it there are the guess.

    Args:
        context: Every token so far (prompt and generated), 1-D integer array.
        max_ngram: Longest suffix to look up.
        length: Most tokens to guess.

    Returns:
        Up to ``length`` guessed tokens; empty when the suffix occurs nowhere earlier.
    """
    size = len(context)
    for n in range(min(max_ngram, size - 1), 0, -1):
        tail = context[size - n :]
        # Starts of earlier occurrences: the whole n-gram must end before the context's end.
        starts = np.flatnonzero(context[: size - n] == tail[0])
        for start in starts[::-1]:
            if np.array_equal(context[start : start + n], tail):
                follows = context[start + n : start + n + length]
                if len(follows):
                    return [int(t) for t in follows]
    return []


class LookupFeeder:
    """Feeds chosen tokens to llama.cpp, evaluating a guess of what follows in the same batch.

    It keeps ``llm.n_tokens`` (and the KV cache) at the accepted tokens plus the guesses not
    yet confirmed; :meth:`settle` drops those.

    Args:
        llm: The loaded model (its context is advanced in place).
        n_vocab: Vocabulary size.
        length: Most tokens guessed at a time.
        max_ngram: Longest context suffix looked up.
    """

    def __init__(
        self,
        llm: llama_cpp.Llama,
        n_vocab: int,
        *,
        length: int = DEFAULT_LOOKUP_TOKENS,
        max_ngram: int = DEFAULT_MAX_NGRAM,
    ) -> None:
        self._llm, self._n_vocab = llm, n_vocab
        self._length, self._max_ngram = length, max_ngram
        self._pending: deque[tuple[int, int]] = deque()  # (guessed token, row of its logits)
        #: Model evaluations (batches) run.
        self.batches = 0

    def advance(self, token: int) -> np.ndarray:
        """Append a chosen token; return the logits of the token after it.

        Args:
            token: The token the decoder chose.

        Returns:
            The next-token logits (a copy).
        """
        if self._pending and self._pending[0][0] == token:
            return self._row(self._pending.popleft()[1])
        self.settle()
        llm = self._llm
        context = np.append(llm.input_ids[: llm.n_tokens], token)
        room = min(self._length, llm.n_batch - 1, llm.n_ctx() - llm.n_tokens - 2)
        guess = draft(context, max_ngram=self._max_ngram, length=room) if room > 0 else []
        self._decode([token, *guess])
        self._pending.extend((t, i + 1) for i, t in enumerate(guess))
        return self._row(0)

    def settle(self) -> None:
        """Forget the guesses not confirmed: the context ends at the last accepted token."""
        drop = len(self._pending)
        self._pending.clear()
        if drop:
            self._llm.n_tokens -= drop
            self._llm._ctx.kv_cache_seq_rm(-1, self._llm.n_tokens, -1)

    def _decode(self, tokens: list[int]) -> None:
        llm = self._llm
        llm._ctx.kv_cache_seq_rm(-1, llm.n_tokens, -1)
        llm._batch.set_batch(batch=tokens, n_past=llm.n_tokens, logits_all=True)
        llm._ctx.decode(llm._batch)
        llm.input_ids[llm.n_tokens : llm.n_tokens + len(tokens)] = tokens
        llm.n_tokens += len(tokens)
        self.batches += 1

    def _row(self, index: int) -> np.ndarray:
        pointer = llama_lib.llama_get_logits_ith(self._llm.ctx, index)
        return np.ctypeslib.as_array(pointer, shape=(self._n_vocab,)).copy()
