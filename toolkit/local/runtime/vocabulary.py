"""The model's vocabulary: tokens, their text, and the sets of tokens the decoder asks about.

:class:`Vocabulary` is the part of :class:`~toolkit.local.runtime.engine.Engine` that needs only
the loaded vocabulary (a ``vocab_only`` model has it too): tokenizing prompt text, a token's
bytes, the tokens that open a call or end a turn, the control tokens a grammar must not see.
Each set is computed once and kept.
"""

from __future__ import annotations

import llama_cpp
import llama_cpp.llama_cpp as llama_lib
import numpy as np

__all__ = ["Vocabulary"]


class Vocabulary:
    """Tokens of one loaded model.

    Args:
        llm: The loaded model (weights or ``vocab_only``).
    """

    def __init__(self, llm: llama_cpp.Llama) -> None:
        self._llm = llm
        self._vocab = llama_lib.llama_model_get_vocab(llm.model)
        self.n_vocab = llm.n_vocab()
        self._pieces: dict[int, bytes] = {}
        self._openers: dict[tuple[bytes, ...], np.ndarray] = {}
        self._ends: np.ndarray | None = None
        #: Control tokens (<|im_start|>...) that do not end a turn: banned under a grammar.
        self._controls = np.asarray(
            [
                i
                for i in range(self.n_vocab)
                if llama_lib.llama_vocab_is_control(self._vocab, i)
                and not llama_lib.llama_vocab_is_eog(self._vocab, i)
            ],
            dtype=np.int64,
        )

    def tokenize(self, text: str, *, bos: bool = True) -> list[int]:
        """Tokenize prompt text, special tokens (``<|im_start|>``…) included.

        Args:
            text: The text.
            bos: Start with the model's begin-of-sequence token when it uses one; ``False``
                for a fragment appended to a prompt.

        Returns:
            The token ids.
        """
        return self._llm.tokenize(text.encode("utf-8"), add_bos=bos, special=True)

    def count_tokens(self, text: str) -> int:
        """Count the tokens of a text.

        Args:
            text: The text.

        Returns:
            The number of tokens.
        """
        return len(self.tokenize(text))

    def token_id(self, text: str) -> int | None:
        """The id of the single token spelling ``text`` exactly, if there is one.

        Args:
            text: E.g. ``"<tool_call>"``.

        Returns:
            The token id, or ``None`` when the text is not one token.
        """
        ids = self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        return ids[0] if len(ids) == 1 and self.piece(ids[0]) == text.encode() else None

    def piece(self, token: int) -> bytes:
        """The bytes a token stands for.

        Args:
            token: A token id.

        Returns:
            Its bytes (possibly part of a UTF-8 character).
        """
        cached = self._pieces.get(token)
        if cached is None:
            cached = self._pieces[token] = self._llm.detokenize([token])
        return cached

    def spelling(self, token: int) -> bytes:
        """A token's bytes for comparing spellings: those of :meth:`piece`, except that a
        control or added token (``<|im_end|>``, ``<tool_call>``) spells itself alone, in bytes
        no text has (``\xff`` never occurs in UTF-8).

        Args:
            token: A token id.

        Returns:
            The bytes.
        """
        special = llama_lib.LLAMA_TOKEN_ATTR_CONTROL | llama_lib.LLAMA_TOKEN_ATTR_USER_DEFINED
        if llama_lib.llama_vocab_get_attr(self._vocab, token) & special:
            return b"\xff%d\xff" % token
        return self.piece(token)

    def opening_tokens(self, prefixes: tuple[bytes, ...]) -> np.ndarray:
        """Ids of the tokens whose text, after leading whitespace, starts with a prefix.

        Args:
            prefixes: Byte prefixes, e.g. ``(b"```", b"{")``.

        Returns:
            The matching token ids (computed once per ``prefixes``).
        """
        found = self._openers.get(prefixes)
        if found is None:
            ids = [i for i in range(self.n_vocab) if self.piece(i).lstrip().startswith(prefixes)]
            found = self._openers[prefixes] = np.asarray(ids, dtype=np.int64)
        return found

    def end_tokens(self) -> np.ndarray:
        """Ids of every end-of-generation token (computed once).

        Returns:
            The token ids for which :meth:`is_end` is true.
        """
        if self._ends is None:
            ids = [i for i in range(self.n_vocab) if self.is_end(i)]
            self._ends = np.asarray(ids, dtype=np.int64)
        return self._ends

    def is_end(self, token: int) -> bool:
        """Whether a token ends the model's turn (end-of-generation).

        Args:
            token: A token id.

        Returns:
            True for end-of-generation tokens such as ``<|im_end|>``.
        """
        return bool(llama_lib.llama_vocab_is_eog(self._vocab, token))
