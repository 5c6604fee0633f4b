"""The evaluated system turn of a prompt, kept across requests and across runs.

Every request with the same tools starts with the same system turn (the instructions and the
``<tools>`` block, several hundred tokens), and evaluating it is most of the cost of a short
request on a CPU. llama.cpp keeps the longest common prefix between consecutive requests, but
not across processes, nor when requests with other tools came in between. :class:`PrefixCache`
keeps the KV state of evaluated system turns, keyed by their tokens:

* in memory, the most recent few (a tool loop that alternates tool sets, an evaluation);
* on disk, in the cache directory (``TOOLKIT_CACHE_DIR``), so the first request of a known tool
  set in a fresh process costs a file read instead of an evaluation. The key covers the model
  file, the context size and llama.cpp's version, so a state is never read into the wrong
  model; the directory is bounded (the least recently used states go first).

A state that cannot be read (truncated, from another build) is deleted and the prefix is
evaluated as if it was never cached.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import llama_cpp
import llama_cpp.llama_cpp as llama_lib
import numpy as np

__all__ = ["MAX_DISK_STATES", "MAX_MEMORY_STATES", "PrefixCache", "put_state", "state_of"]

#: States kept in memory.
MAX_MEMORY_STATES = 8
#: States kept on disk (each is a few MB: the KV cache of one system turn).
MAX_DISK_STATES = 32
_SEQUENCE = 0


class PrefixCache:
    """Saved KV states of evaluated prefixes, in memory and in a directory.

    Args:
        llm: The loaded model whose context the states belong to.
        identity: What else a state depends on (the model file, the context size), mixed
            into every key.
        directory: Where states are written; ``None`` keeps them in memory only.
    """

    def __init__(self, llm: llama_cpp.Llama, identity: str, directory: Path | None) -> None:
        self._llm = llm
        self._salt = f"{identity}|{llama_cpp.__version__}".encode()
        self._directory = directory
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        #: Prefixes restored from memory or disk, and prefixes stored.
        self.hits = self.stores = 0

    def key(self, tokens: Sequence[int]) -> str:
        """The key of a prefix.

        Args:
            tokens: The prefix's tokens.

        Returns:
            A hex digest.
        """
        digest = hashlib.sha256(self._salt)
        digest.update(np.asarray(tokens, dtype=np.int32).tobytes())
        return digest.hexdigest()[:32]

    def _path(self, key: str) -> Path | None:
        return None if self._directory is None else self._directory / f"{key}.kv"

    def restore(self, tokens: Sequence[int]) -> bool:
        """Make the context hold exactly ``tokens``, evaluated, if they are cached.

        Args:
            tokens: The prefix's tokens.

        Returns:
            True when the state was restored (the context then holds the prefix and nothing
            after it); False when it is not cached (the context may then be empty).
        """
        key = self.key(tokens)
        data = self._memory.get(key)
        if data is not None:
            self._memory.move_to_end(key)
        else:
            data = self._read(key)
        if data is None:
            return False
        if not put_state(self._llm, data, tokens):
            self._memory.pop(key, None)
            path = self._path(key)
            if path is not None:
                path.unlink(missing_ok=True)
            return False
        self.hits += 1
        return True

    def store(self, tokens: Sequence[int]) -> None:
        """Keep the state of the context, which must hold exactly ``tokens``.

        Args:
            tokens: The prefix's tokens (the context's whole content).
        """
        key = self.key(tokens)
        data = state_of(self._llm)
        if data is None:
            return
        self._memory[key] = data
        self._memory.move_to_end(key)
        while len(self._memory) > MAX_MEMORY_STATES:
            self._memory.popitem(last=False)
        self._write(key, data)
        self.stores += 1

    def _read(self, key: str) -> bytes | None:
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            data = path.read_bytes()
            os.utime(path)  # most recently used
        except OSError:
            return None
        if not data:
            path.unlink(missing_ok=True)
            return None
        return data

    def _write(self, key: str, data: bytes) -> None:
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
                handle.write(data)
            os.replace(handle.name, path)
            self._prune(path.parent)
        except OSError:
            return  # a read-only or full cache directory only costs speed

    @staticmethod
    def _prune(directory: Path) -> None:
        states = sorted(directory.glob("*.kv"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in states[MAX_DISK_STATES:]:
            stale.unlink(missing_ok=True)


def state_of(llm: llama_cpp.Llama) -> bytes | None:
    """The KV state of the context, copied out.

    Args:
        llm: The loaded model.

    Returns:
        The state's bytes; ``None`` when llama.cpp wrote none.
    """
    ctx = llm._ctx.ctx
    size = llama_lib.llama_state_seq_get_size(ctx, _SEQUENCE)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_lib.llama_state_seq_get_data(ctx, buffer, size, _SEQUENCE)
    return ctypes.string_at(buffer, written) if written else None


def put_state(llm: llama_cpp.Llama, data: bytes, tokens: Sequence[int]) -> bool:
    """Make the context hold a state :func:`state_of` copied out, of ``tokens``.

    Args:
        llm: The loaded model.
        data: The state.
        tokens: The tokens it holds.

    Returns:
        True when it was put back; False when llama.cpp refused it (the context is then
        emptied, so the next evaluation starts over).
    """
    buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    if llama_lib.llama_state_seq_set_data(llm._ctx.ctx, buffer, len(data), _SEQUENCE) == 0:
        llm._ctx.kv_cache_seq_rm(-1, 0, -1)
        llm.n_tokens = 0
        return False
    llm.input_ids[: len(tokens)] = tokens
    llm.n_tokens = len(tokens)
    return True
