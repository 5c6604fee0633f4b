"""Model output -> OpenAI ``content`` and ``tool_calls``: a pure, total parser.

The embedded model is taught (by its chat template) to answer calls as::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "西安"}}
    </tool_call>

Small models drift from that format, so the parser also accepts a call written as a fenced
```` ```json ```` block or as bare JSON: an object ``{"name": ..., "arguments": ...}`` (or
``"parameters"``), or a list of such objects. Arguments given as a JSON string are decoded.

The text is read left to right. At each position one of these applies:

* ``<tool_call>`` ... ``</tool_call>``: the body is one call object or a list of them. The
  body's JSON is decoded first, so ``</tool_call>`` inside a JSON string does not end the
  block; an unclosed (or half-closed) block at the end of the text counts when its JSON is
  complete;
* a fence (three backticks, an optional language word, call JSON, three backticks), read the
  same way;
* ``{`` or ``[`` starting a JSON value that is call JSON;
* anything else is content.

Anything that does not parse as a call stays in the content, verbatim, so malformed or truncated
output degrades to text and never raises. When ``tool_names`` is given, fenced and bare JSON
only count as a call when the name is one of them (a ``<tool_call>`` block always counts: a
wrong name there is the model's mistake, reported back to it by the loop). ``lenient=False``
reads ``<tool_call>`` blocks only. The content is the text outside the calls, joined and
stripped; ``None`` when nothing is left.

:class:`ToolCallStream` runs the same reader incrementally: it emits content as soon as no
later text can turn it into part of a call, and each call as soon as it is complete. For every
way of splitting a text into deltas, its content and calls equal :func:`parse_tool_calls`'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from toolkit.local.format.events import ContentDelta, ToolCallEvent
from toolkit.local.format.json_scan import JsonScanner
from toolkit.wire import new_call_id

__all__ = ["ParsedOutput", "ToolCallStream", "parse_tool_calls"]

_OPEN = "<tool_call>"
_CLOSE = "</tool_call>"
_FENCE = "```"
_SPECIAL = re.compile(r"[<`{\[]")
_SPECIAL_TAGGED = re.compile(r"<")
_LANG = re.compile(r"[A-Za-z0-9_+-]*")
#: Characters of read text after which the stream drops them from its buffer.
_COMPACT_AFTER = 4096


@dataclass(frozen=True)
class ParsedOutput:
    """What a model's output means for an OpenAI chat completion.

    Attributes:
        content: The text outside the calls, stripped; ``None`` when empty.
        tool_calls: OpenAI-shaped calls: ``{"id", "type": "function",
            "function": {"name", "arguments"}}`` with ``arguments`` as JSON text.
    """

    content: str | None
    tool_calls: list[dict[str, Any]]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _decode_at(text: str, start: int) -> tuple[Any, int] | None:
    """Decode the JSON value starting exactly at ``start``; ``None`` when there is none."""
    try:
        return _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None


def _loads(text: str) -> tuple[bool, Any]:
    """Decode a whole text as JSON (surrounding whitespace allowed)."""
    text = text.strip()
    found = _decode_at(text, 0) if text else None
    if found is None or found[1] != len(text):
        return False, None
    return True, found[0]


def _call_from_object(obj: Any, names: frozenset[str] | None, tagged: bool) -> dict | None:
    """One call object -> an OpenAI call, or ``None`` when it is not one."""
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or not obj["name"]:
        return None
    if names is not None and not tagged and obj["name"] not in names:
        return None
    key = "arguments" if "arguments" in obj else "parameters"
    if key not in obj and not tagged:
        return None
    args = obj.get(key)
    if args is None:
        args = {}
    if isinstance(args, str):
        ok, decoded = _loads(args)
        arguments = json.dumps(decoded, ensure_ascii=False) if ok else args
    else:
        arguments = json.dumps(args, ensure_ascii=False)
    return {
        "id": new_call_id(),
        "type": "function",
        "function": {"name": obj["name"], "arguments": arguments},
    }


def _calls_from_value(value: Any, names: frozenset[str] | None, tagged: bool) -> list | None:
    """A decoded object or list of objects -> calls, or ``None`` when any is not a call."""
    items = value if isinstance(value, list) else [value]
    calls = [_call_from_object(item, names, tagged) for item in items]
    if not calls or any(c is None for c in calls):
        return None
    return calls


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


_WAIT = object()  # more text is needed to decide


class _Reader:
    """Left-to-right reader shared by the one-shot parser and the stream."""

    def __init__(self, names: Iterable[str] | None, lenient: bool) -> None:
        self.names = frozenset(names) if names is not None else None
        self.special = _SPECIAL if lenient else _SPECIAL_TAGGED
        self._scans: dict[int, JsonScanner] = {}

    def forget(self) -> None:
        """Drop the incremental JSON scans (the text's indices are about to change)."""
        self._scans.clear()

    def _json_at(self, text: str, start: int, final: bool) -> Any:
        """The JSON value starting at ``start`` as ``(value, end)``, ``None``, or ``_WAIT``.

        Before the end of the text, an unfinished value that may still complete is ``_WAIT``;
        the scan is incremental, and decoding waits until the brackets balance.
        """
        if final:
            return _decode_at(text, start)
        scan = self._scans.setdefault(start, JsonScanner())
        scan.feed(text[start + scan.consumed :])
        if scan.dead:
            return None
        found = _decode_at(text, start) if scan.complete else None
        return _WAIT if found is None else found

    def step(self, text: str, i: int, final: bool) -> tuple[int, str, list] | None:
        """Decide what starts at ``text[i]``.

        Returns:
            ``(next_index, content, calls)``, or ``None`` when more text is needed to decide.
        """
        match = self.special.search(text, i)
        if match is None or match.start() > i:
            end = match.start() if match else len(text)
            return end, text[i:end], []
        ch = text[i]
        if ch in "<`":
            opener, closer = (_OPEN, _CLOSE) if ch == "<" else (_FENCE, _FENCE)
            head = text[i : i + len(opener)]
            if head == opener:
                return self._block(text, i, final, opener, closer, tagged=ch == "<")
            if not final and opener.startswith(head):
                return None
            return i + 1, ch, []
        found = self._json_at(text, i, final)
        if found is _WAIT:
            return None
        if found is None:
            return i + 1, ch, []
        value, end = found
        calls = _calls_from_value(value, self.names, tagged=False)
        return (end, "", calls) if calls else (end, text[i:end], [])

    def _block(
        self, text: str, i: int, final: bool, opener: str, closer: str, tagged: bool
    ) -> tuple[int, str, list] | None:
        """A ``<tool_call>`` block or a fence starting at ``i``.

        The body's JSON is decoded first, so a closing tag or fence inside a JSON string does
        not end the block; without a decodable body the block runs to the first closer.
        """
        start = i + len(opener)
        if not tagged:
            start = _LANG.match(text, start).end()
        j = _skip_space(text, start)
        if j == len(text) and not final:
            return None
        found = self._json_at(text, j, final) if text[j : j + 1] in ("{", "[") else None
        if found is _WAIT:
            return None
        if found is not None:
            value, end = found
            rest = text[_skip_space(text, end) :]
            if rest.startswith(closer) or (final and closer.startswith(rest)):
                end = len(text) - len(rest) + len(closer) if rest.startswith(closer) else len(text)
                calls = _calls_from_value(value, self.names, tagged)
                return (end, "", calls) if calls else (end, text[i:end], [])
            if not final and closer.startswith(rest):
                return None
        close = text.find(closer, i + len(opener))
        if close < 0:
            return (len(text), text[i:], []) if final else None
        end = close + len(closer)
        return end, text[i:end], []


def parse_tool_calls(
    text: str, tool_names: Iterable[str] | None = None, *, lenient: bool = True
) -> ParsedOutput:
    """Split a model's output into content and OpenAI tool calls. Never raises.

    Args:
        text: The generated text.
        tool_names: The names of the bound tools; when given, fenced and bare JSON only count
            as a call when it names one of them.
        lenient: Also read fenced and bare JSON calls; ``False`` reads ``<tool_call>`` blocks
            only (right for grammar-constrained output, whose text part is meant as text).

    Returns:
        The content (stripped, ``None`` when empty) and the calls, each with a fresh id.
    """
    reader = _Reader(tool_names, lenient)
    parts: list[str] = []
    calls: list[dict[str, Any]] = []
    i = 0
    while i < len(text):
        i, content, found = reader.step(text, i, final=True)
        parts.append(content)
        calls.extend(found)
    content = "".join(parts).strip()
    return ParsedOutput(content=content or None, tool_calls=calls)


class ToolCallStream:
    """Incremental :func:`parse_tool_calls` for streamed generation (SSE).

    Feed each generated piece to :meth:`feed` and call :meth:`finish` at the end. Content is
    released as soon as no later text can make it part of a call; whitespace at the start and
    end of the content is dropped, exactly as the one-shot parser strips it.

    Args:
        tool_names: As for :func:`parse_tool_calls`.
        lenient: As for :func:`parse_tool_calls`.
    """

    def __init__(self, tool_names: Iterable[str] | None = None, *, lenient: bool = True) -> None:
        self._reader = _Reader(tool_names, lenient)
        self._buffer = ""
        self._pos = 0
        self._started = False
        self._held = ""
        self._calls: list[dict[str, Any]] = []
        self._content: list[str] = []
        self._finished = False

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        """The calls completed so far, in order."""
        return list(self._calls)

    @property
    def content(self) -> str | None:
        """The content released so far (``None`` when none)."""
        return "".join(self._content) or None

    def feed(self, delta: str) -> list[ContentDelta | ToolCallEvent]:
        """Take the next piece of generated text.

        Args:
            delta: Text generated since the previous call.

        Returns:
            The content deltas and completed calls this piece made certain, in order.
        """
        if self._finished:
            return []
        self._buffer += delta
        return self._advance(final=False)

    def finish(self) -> list[ContentDelta | ToolCallEvent]:
        """End the stream and release everything still held back.

        Returns:
            The remaining content deltas and calls (trailing whitespace dropped).
        """
        if self._finished:
            return []
        events = self._advance(final=True)
        self._finished = True
        self._buffer, self._pos = "", 0
        return events

    def _advance(self, final: bool) -> list[ContentDelta | ToolCallEvent]:
        events: list[ContentDelta | ToolCallEvent] = []
        while self._pos < len(self._buffer):
            decided = self._reader.step(self._buffer, self._pos, final)
            if decided is None:
                break
            self._pos, content, calls = decided
            self._emit_content(content, events)
            for call in calls:
                self._calls.append(call)
                events.append(ToolCallEvent(index=len(self._calls) - 1, call=call))
        if self._pos > _COMPACT_AFTER:
            self._buffer, self._pos = self._buffer[self._pos :], 0
            self._reader.forget()
        return events

    def _emit_content(self, text: str, events: list[ContentDelta | ToolCallEvent]) -> None:
        if not self._started:
            text = text.lstrip()
            if not text:
                return
            self._started = True
        text = self._held + text
        body = text.rstrip()
        self._held = text[len(body) :]
        if body:
            self._content.append(body)
            events.append(ContentDelta(body))
