"""A llama.cpp grammar sampler that checks one token cheaply or masks the whole vocabulary.

:class:`CompiledGrammar` is compiled once per grammar text and reused across requests after a
reset (the engine caches them); :func:`logprob` scores a token under some logits.
"""

from __future__ import annotations

import ctypes

import llama_cpp.llama_cpp as llama_lib
import numpy as np

from toolkit.errors import LocalModelError

__all__ = ["TOKEN_DATA", "CompiledGrammar", "logprob"]

#: Layout of llama.cpp's ``llama_token_data`` as a numpy record.
TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


class CompiledGrammar:
    """A compiled llama.cpp grammar sampler, reusable after :meth:`reset`.

    Args:
        vocab: The model's vocabulary.
        text: GBNF text whose start rule is ``root``.

    Raises:
        LocalModelError: llama.cpp cannot parse the grammar.
    """

    def __init__(self, vocab: llama_lib.llama_vocab_p, text: str) -> None:
        self.pointer = llama_lib.llama_sampler_init_grammar(vocab, text.encode(), b"root")
        if not self.pointer:
            raise LocalModelError(f"llama.cpp rejected the grammar:\n{text[:2000]}")
        self._one = np.zeros(1, dtype=TOKEN_DATA)

    def reset(self) -> None:
        """Return to the grammar's start."""
        llama_lib.llama_sampler_reset(self.pointer)

    def accept(self, token: int) -> None:
        """Advance past a generated token.

        Args:
            token: The token id.
        """
        llama_lib.llama_sampler_accept(self.pointer, token)

    def _apply(self, data: np.ndarray) -> None:
        array = llama_lib.llama_token_data_array(
            data=data.ctypes.data_as(ctypes.POINTER(llama_lib.llama_token_data)),
            size=len(data),
            selected=-1,
            sorted=False,
        )
        llama_lib.llama_sampler_apply(self.pointer, ctypes.byref(array))

    def allows(self, token: int) -> bool:
        """Whether the grammar allows one token next (a cheap check).

        Args:
            token: The token id.

        Returns:
            True when the token is allowed.
        """
        self._one["id"], self._one["logit"], self._one["p"] = token, 0.0, 0.0
        self._apply(self._one)
        return bool(np.isfinite(self._one["logit"][0]))

    def mask(self, logits: np.ndarray, scratch: np.ndarray) -> np.ndarray:
        """Set the logits of every token the grammar forbids to minus infinity.

        Args:
            logits: The next-token logits.
            scratch: A :data:`TOKEN_DATA` array with ids ``0..n_vocab-1``.

        Returns:
            The masked logits (a view into ``scratch``).
        """
        scratch["logit"] = logits
        self._apply(scratch)
        return scratch["logit"]

    def close(self) -> None:
        """Free the sampler."""
        if self.pointer:
            llama_lib.llama_sampler_free(self.pointer)
            self.pointer = None


def logprob(logits: np.ndarray, token: int) -> float:
    """The log-probability of a token under the softmax of some logits.

    Args:
        logits: Next-token logits.
        token: The token id.

    Returns:
        Its natural-log probability.
    """
    top = float(logits.max())
    return float(logits[token]) - top - float(np.log(np.exp(logits - top).sum()))
