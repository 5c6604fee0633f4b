"""Chat-completion bodies and tool calls shaped exactly like OpenAI's, for scripted replies."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from toolkit.wire import new_call_id

__all__ = ["SCRIPTED_MODEL", "completion", "completion_chunks", "tool_call"]

#: The model name scripted replies report.
SCRIPTED_MODEL = "scripted"


def tool_call(
    name: str, arguments: str | Mapping[str, Any], call_id: str | None = None
) -> dict[str, Any]:
    """Build one OpenAI tool call.

    Args:
        name: The tool name.
        arguments: A mapping (serialised as JSON) or the arguments text exactly as the model
            would send it (which may be malformed on purpose).
        call_id: The call id; default a fresh ``call_<hex>``.

    Returns:
        The tool call dict.
    """
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {
        "id": call_id or new_call_id(),
        "type": "function",
        "function": {"name": name, "arguments": text},
    }


def completion(
    content: str | None = None,
    tool_calls: Iterable[Mapping[str, Any]] | None = None,
    finish_reason: str | None = None,
    model: str = SCRIPTED_MODEL,
) -> dict[str, Any]:
    """Build a chat-completion body with one choice.

    Args:
        content: The assistant's text.
        tool_calls: Tool calls from :func:`tool_call`; each gets its ``index``.
        finish_reason: Default ``"tool_calls"`` when there are calls, else ``"stop"``.
        model: The model name to report.

    Returns:
        The body, shaped like OpenAI's ``/v1/chat/completions`` answer.
    """
    calls = [dict(call, index=i) for i, call in enumerate(tool_calls or ())]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if calls else "stop"),
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def completion_chunks(
    content: str | None = None,
    tool_calls: Iterable[Mapping[str, Any]] | None = None,
    finish_reason: str | None = None,
    model: str = SCRIPTED_MODEL,
) -> list[dict[str, Any]]:
    """Build the streamed chunks of a completion, as OpenAI sends them.

    Args:
        content: The assistant's text, sent in pieces of a few characters.
        tool_calls: Tool calls from :func:`tool_call`, each sent as a header chunk (id, name)
            and an arguments chunk, with its ``index``.
        finish_reason: Default ``"tool_calls"`` when there are calls, else ``"stop"``.
        model: The model name to report.

    Returns:
        The chunk dicts, ready for :meth:`Reply.sse`.
    """
    ident = f"chatcmpl-{uuid.uuid4().hex[:24]}"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [choice],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    text = content or ""
    chunks += [chunk({"content": text[i : i + 4]}) for i in range(0, len(text), 4)]
    calls = list(tool_calls or ())
    for index, call in enumerate(calls):
        head = {"index": index, "id": call["id"], "type": "function"}
        head["function"] = {"name": call["function"]["name"], "arguments": ""}
        chunks.append(chunk({"tool_calls": [head]}))
        arguments = {"index": index, "function": {"arguments": call["function"]["arguments"]}}
        chunks.append(chunk({"tool_calls": [arguments]}))
    chunks.append(chunk({}, finish_reason or ("tool_calls" if calls else "stop")))
    return chunks
