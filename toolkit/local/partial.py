"""The scalar values of a JSON text while it is still being generated.

:class:`ScalarScanner` is fed a call's text piece by piece and reports each string, number,
``true``/``false``/``null`` inside the ``"arguments"`` object as soon as the value is complete
(a string at its closing quote, a number or literal at the character after it). The embedded
server uses it to give up on an extra call the moment one of its values shows it will be
discarded, instead of generating the rest of it.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ScalarScanner"]

_ENDS = set(",}] \t\r\n")


class ScalarScanner:
    """Completed scalar values of a streamed JSON text, outermost object's keys tracked.

    Only values nested under the key ``"arguments"`` (at any depth below it) are reported, so
    the tool's name is not taken for an argument. Text before the first ``{`` (such as
    ``<tool_call>``) is ignored. Malformed JSON never raises; it only stops reporting.
    """

    def __init__(self) -> None:
        self._stack: list[str] = []  # open containers, "{" or "["
        self._in_string = False
        self._escaped = False
        self._token = ""  # the scalar being read (a string with its quotes)
        self._is_key = False
        self._top_key: str | None = None  # the current key of the outermost object
        self._expect_key = False

    def feed(self, text: str) -> list[Any]:
        """Read more text.

        Args:
            text: The next piece.

        Returns:
            The argument values completed by this piece, in order.
        """
        done: list[Any] = []
        for char in text:
            value = self._step(char)
            if value is not _NOTHING:
                done.append(value)
        return done

    def _step(self, char: str) -> Any:
        if self._in_string:
            self._token += char
            if self._escaped:
                self._escaped = False
            elif char == "\\":
                self._escaped = True
            elif char == '"':
                self._in_string = False
                return self._complete()
            return _NOTHING
        if self._token and char in _ENDS:
            found = self._complete()
            self._structure(char)
            return found
        if self._token:
            self._token += char
            return _NOTHING
        return self._structure(char)

    def _structure(self, char: str) -> Any:
        if char in "{[":
            self._stack.append(char)
            self._expect_key = char == "{"
        elif char in "}]":
            if self._stack:
                self._stack.pop()
            self._expect_key = False
        elif char == ",":
            self._expect_key = bool(self._stack) and self._stack[-1] == "{"
        elif char == ":":
            self._expect_key = False
        elif char == '"' and self._stack:
            self._in_string, self._token = True, char
            self._is_key = self._expect_key
        elif char not in _ENDS and self._stack:
            self._token = char
            self._is_key = False
        return _NOTHING

    def _complete(self) -> Any:
        token, self._token = self._token, ""
        try:
            value = json.loads(token)
        except ValueError:
            return _NOTHING
        if self._is_key and isinstance(value, str):
            self._is_key = False
            if len(self._stack) == 1:
                self._top_key = value
            return _NOTHING
        if len(self._stack) >= 2 and self._top_key == "arguments":
            return value
        return _NOTHING


_NOTHING = object()
