"""A JSON text read character by character while it is still being generated. Pure.

:class:`JsonScanner` answers, after each piece of text, three questions the embedded server
asks before the text is complete:

* can it still become valid JSON? (:attr:`~JsonScanner.dead` is set at the first character
  after which no continuation can be; conservative: it is never set for text that could);
* is the outermost value closed? (:attr:`~JsonScanner.complete`);
* which scalar values (strings, numbers, ``true``/``false``/``null``) under one key of the
  outermost object just completed? (what :meth:`~JsonScanner.feed` returns when the scanner
  was made with ``values_under``; :attr:`~JsonScanner.keys` names the argument each belongs
  to).

The tool-call parser (:mod:`toolkit.local.format.parser`) uses the first two to wait for a
call's JSON without decoding it again at every piece; the decoder uses the third to give up on
an extra call the moment one of its ``"arguments"`` values shows it will be discarded. Malformed
JSON never raises: the scanner only stops reading.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JsonScanner"]

_SPACE = " \t\n\r"
_CLOSERS = {"}": "{", "]": "["}
_LITERALS = {"t": "rue", "f": "alse", "n": "ull"}
_NUMBER_CHARS = "0123456789+-.eE"
_HEX = "0123456789abcdefABCDEF"


class JsonScanner:
    """Incremental reader of one JSON value (an object or an array at the top).

    Args:
        values_under: Report the scalar values nested anywhere inside the value of this key
            of the outermost object (``"arguments"`` of a call); ``None`` reports nothing,
            which is cheaper.
        skip_prefix: Ignore text before the first ``{`` or ``[`` (such as ``<tool_call>``).
    """

    def __init__(self, *, values_under: str | None = None, skip_prefix: bool = False) -> None:
        #: Characters fed so far (skipped ones included).
        self.consumed = 0
        #: Set once no continuation of the text can be valid JSON.
        self.dead = False
        self._stack: list[str] = []
        self._expect = "value"
        self._mode = ""  # "", "string", "escape", "hex", "literal" or "number"
        self._pending = ""  # the rest of a literal, or one character per \u digit to read
        self._skip = skip_prefix
        self._under = values_under
        self._token: list[str] | None = None  # the scalar being read, when values are reported
        self._is_key = False
        self._top_key: str | None = None
        self._argument: str | None = None  # the key at the second level (an argument's name)
        #: The argument each reported value belongs to, in the order they were reported.
        self.keys: list[str | None] = []

    @property
    def complete(self) -> bool:
        """Whether the outermost value has closed."""
        return not self.dead and not self._stack and self._expect == "after"

    def feed(self, text: str) -> list[Any]:
        """Read more text.

        Args:
            text: The next piece.

        Returns:
            The scalar values under ``values_under`` that this piece completed, in order
            (always empty without ``values_under``).
        """
        self.consumed += len(text)
        done: list[Any] = []
        for ch in text:
            if self.dead:
                break
            if self._skip:
                if ch not in "{[":
                    continue
                self._skip = False
            if not self._char(ch, done):
                self.dead = True
        return done

    def _char(self, ch: str, done: list[Any]) -> bool:
        mode = self._mode
        if mode in ("string", "escape", "hex"):
            if self._token is not None:
                self._token.append(ch)
            if mode == "string":
                if ch == '"':
                    self._mode = ""
                    self._complete(done)
                elif ch == "\\":
                    self._mode = "escape"
                return ord(ch) >= 0x20
            if mode == "escape":
                self._mode, self._pending = ("hex", "xxxx") if ch == "u" else ("string", "")
                return ch in '"\\/bfnrtu'
            self._pending = self._pending[1:]
            if not self._pending:
                self._mode = "string"
            return ch in _HEX
        if mode == "literal":
            ok = ch == self._pending[0]
            if self._token is not None:
                self._token.append(ch)
            self._pending = self._pending[1:]
            if not self._pending:
                self._mode = ""
                if ok:
                    self._complete(done)
            return ok
        if mode == "number":
            if ch in _NUMBER_CHARS:
                if self._token is not None:
                    self._token.append(ch)
                return True
            self._mode = ""
            self._complete(done)
        return self._structure(ch)

    def _structure(self, ch: str) -> bool:
        expect, stack = self._expect, self._stack
        if (not stack and expect == "after") or ch in _SPACE:
            return True
        if ch in _CLOSERS and expect in ("value_or_close", "key_or_close", "comma_or_close"):
            if stack[-1] != _CLOSERS[ch]:
                return False
            stack.pop()
            self._expect = "comma_or_close" if stack else "after"
            return True
        if expect == "comma_or_close":
            self._expect = ("key" if stack[-1] == "{" else "value") if ch == "," else "dead"
        elif expect == "colon":
            self._expect = "value" if ch == ":" else "dead"
        elif expect in ("key", "key_or_close"):
            if ch != '"':
                return False
            self._start(ch, "string", is_key=True)
            self._expect = "colon"
        elif ch in "{[":
            stack.append(ch)
            self._expect = "key_or_close" if ch == "{" else "value_or_close"
        elif ch == '"' or ch in "-0123456789" or ch in _LITERALS:
            kind = "string" if ch == '"' else "number" if ch in "-0123456789" else "literal"
            self._start(ch, kind, is_key=False)
            self._pending = _LITERALS.get(ch, "")
            self._expect = "comma_or_close"
        else:
            return False
        return self._expect != "dead"

    def _start(self, ch: str, mode: str, *, is_key: bool) -> None:
        self._mode, self._is_key = mode, is_key
        tracked = self._under is not None and (is_key or len(self._stack) >= 2)
        self._token = [ch] if tracked else None

    def _complete(self, done: list[Any]) -> None:
        token, self._token = self._token, None
        if token is None:
            return
        try:
            value = json.loads("".join(token))
        except ValueError:
            return
        if self._is_key:
            if len(self._stack) == 1 and isinstance(value, str):
                self._top_key = value
            elif len(self._stack) == 2 and isinstance(value, str):
                self._argument = value
        elif self._top_key == self._under:
            done.append(value)
            self.keys.append(self._argument)
