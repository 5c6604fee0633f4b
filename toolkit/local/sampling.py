"""Low-level pieces of the engine's decoding: compiled grammars, token references, stops.

Kept apart from :mod:`toolkit.local.engine` so each stays small:

* :class:`CompiledGrammar` — a llama.cpp grammar sampler, reused across requests after a reset,
  that can check one token cheaply or mask the whole vocabulary;
* :func:`use_token_references` — GBNF literals rewritten so ``<tool_call>`` is matched as the
  model's own special token;
* stop-string helpers that never split a stop string across streamed pieces;
* :func:`plain_cpu_buffers` — load weights without llama.cpp's AMX / repacked buffers.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator

import llama_cpp.llama_cpp as llama_lib
import numpy as np

from toolkit.errors import LocalModelError

__all__ = [
    "TOKEN_DATA",
    "CompiledGrammar",
    "build_has_amx",
    "find_stop",
    "held_back",
    "logprob",
    "plain_cpu_buffers",
    "use_token_references",
]

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


@contextlib.contextmanager
def plain_cpu_buffers() -> Iterator[None]:
    """Load weights without llama.cpp's extra (AMX / repacked) buffer types.

    On CPUs that advertise AMX, llama.cpp's AMX weight buffers crash with an illegal
    instruction when the host has not enabled AMX (as in some virtual machines).

    Yields:
        Nothing; models loaded inside the block use plain CPU buffers.
    """
    original = llama_lib.llama_model_default_params

    def params() -> llama_lib.llama_model_params:
        value = original()
        value.use_extra_bufts = False
        return value

    llama_lib.llama_model_default_params = params
    try:
        yield
    finally:
        llama_lib.llama_model_default_params = original


def build_has_amx() -> bool:
    """Whether the loaded llama.cpp library was built with AMX code.

    Returns:
        True when ``AMX_INT8`` is in llama.cpp's system info.
    """
    return b"AMX_INT8 = 1" in llama_lib.llama_print_system_info()


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


def _split_literal(body: str, markers: dict[str, str]) -> str:
    """Split one GBNF string literal (without quotes) around marker texts -> GBNF sequence."""
    parts: list[str] = []
    i = start = 0
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        hit = next((m for m in markers if body.startswith(m, i)), None)
        if hit is None:
            i += 1
            continue
        if i > start:
            parts.append(f'"{body[start:i]}"')
        parts.append(markers[hit])
        i = start = i + len(hit)
    if start < len(body) or not parts:
        parts.append(f'"{body[start:]}"')
    return parts[0] if len(parts) == 1 else "(" + " ".join(parts) + ")"


def use_token_references(grammar: str, markers: dict[str, str]) -> str:
    """Make GBNF string literals match marker texts as single special tokens.

    ``"<tool_call>\\n"`` becomes ``(<tool_call> "\\n")``: the model then emits its one
    ``<tool_call>`` token, as it was trained to, instead of spelling the tag out of ``<`` and
    ``tool``. Character classes and comments are left alone.

    Args:
        grammar: GBNF text.
        markers: Marker text -> GBNF token reference (e.g. ``"<tool_call>"`` ->
            ``"<tool_call>"``) for markers that are single tokens of the model.

    Returns:
        The rewritten GBNF text.
    """
    if not markers:
        return grammar
    out: list[str] = []
    i = 0
    while i < len(grammar):
        char = grammar[i]
        if char == "#":
            end = grammar.find("\n", i)
            end = len(grammar) if end < 0 else end
        elif char in '["':
            close = "]" if char == "[" else '"'
            end = i + 1
            while end < len(grammar) and grammar[end] != close:
                end += 2 if grammar[end] == "\\" else 1
            end += 1
            if char == '"':
                out.append(_split_literal(grammar[i + 1 : end - 1], markers))
                i = end
                continue
        else:
            end = i + 1
        out.append(grammar[i:end])
        i = end
    return "".join(out)


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
