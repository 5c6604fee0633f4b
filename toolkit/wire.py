"""The OpenAI chat-completions wire format: the small pieces both ends of the HTTP share.

Pure functions on plain data (no LangChain, no llama.cpp), used by the tool loop, the bare
agent, the scripted test doubles and the embedded server alike, so that each rule exists once:

* :func:`new_call_id` — a tool call id, ``call_`` and 24 hex characters, as OpenAI's look;
* :func:`content_text` — the text of a message ``content`` (a string or a list of parts);
* :func:`normalise_tool_choice` / :func:`forced_tool_name` — ``tool_choice`` in every form
  clients send (OpenAI's, and LangChain's ``"any"``, ``True`` and bare tool names);
* :func:`json_text` — a value as the JSON text a model is shown (``str()`` when not JSON).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

__all__ = [
    "PLAIN_TOOL_CHOICES",
    "content_text",
    "forced_tool_name",
    "json_text",
    "new_call_id",
    "normalise_tool_choice",
]

#: The ``tool_choice`` strings OpenAI defines.
PLAIN_TOOL_CHOICES = ("auto", "none", "required")


def new_call_id() -> str:
    """Return a fresh OpenAI-style tool call id.

    Returns:
        ``"call_"`` followed by 24 random lowercase hex characters.
    """
    return "call_" + secrets.token_hex(12)


def content_text(content: Any) -> str:
    """The text of a message's ``content``: a string, a list of parts, or ``None``.

    Text parts (``{"type": "text", "text": ...}``, or any mapping with a ``text``) are joined
    in order; other parts (images, audio) have no text and are skipped.

    Args:
        content: A message's content.

    Returns:
        The text; ``""`` when there is none.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(
            part if isinstance(part, str) else str(part.get("text") or "")
            for part in content
            if isinstance(part, str) or isinstance(part, Mapping)
        )
    return ""


def normalise_tool_choice(choice: Any) -> str | dict[str, Any] | None:
    """``tool_choice`` in OpenAI's own form.

    ``None``/``False`` -> ``None`` (not sent); ``True``, ``"any"``, ``{"type": "any"}`` and
    ``{"type": "required"}`` -> ``"required"``; ``"auto"``/``"none"``/``"required"`` (or
    ``{"type": ...}`` of those) as they are; a tool name, ``{"type": "function", "function":
    {"name": ...}}`` or ``{"type": "function", "name": ...}`` ->
    ``{"type": "function", "function": {"name": ...}}``.

    Args:
        choice: The ``tool_choice`` a caller gave.

    Returns:
        ``None``, one of :data:`PLAIN_TOOL_CHOICES`, or the named-function dict.

    Raises:
        ValueError: ``choice`` is none of those forms (the message shows the valid ones).
    """
    if choice is None or choice is False:
        return None
    if choice is True or choice == "any":
        return "required"
    if isinstance(choice, str) and choice:
        if choice in PLAIN_TOOL_CHOICES:
            return choice
        return {"type": "function", "function": {"name": choice}}
    if isinstance(choice, Mapping):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, Mapping) else None
        if name is None and choice.get("type") == "function":
            name = choice.get("name")
        if isinstance(name, str) and name:
            return {"type": "function", "function": {"name": name}}
        kind = choice.get("type")
        if kind == "any":
            return "required"
        if kind in PLAIN_TOOL_CHOICES:
            return kind
    raise ValueError(
        'tool_choice must be "auto", "none", "required", a tool name or '
        '{"type": "function", "function": {"name": ...}}; got ' + repr(choice) + "."
    )


def forced_tool_name(choice: Any) -> str | None:
    """The tool a ``tool_choice`` forces, if it names one.

    Args:
        choice: A ``tool_choice`` in any form :func:`normalise_tool_choice` reads.

    Returns:
        The tool's name, or ``None`` for ``auto``/``none``/``required``/unset.

    Raises:
        ValueError: ``choice`` is not a valid ``tool_choice``.
    """
    normal = normalise_tool_choice(choice)
    return normal["function"]["name"] if isinstance(normal, dict) else None


def json_text(value: Any) -> str:
    """A value as JSON text (non-ASCII kept), or ``str(value)`` when it is not JSON.

    Args:
        value: Any value (a tool result, a default).

    Returns:
        The text.
    """
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
