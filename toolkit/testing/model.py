"""A deterministic chat model for tests: replays scripted assistant replies and supports tools.

LangChain's fake chat models cannot ``bind_tools``, so a tool loop cannot be tested with them.
:class:`ScriptedChatModel` is a real :class:`~langchain_core.language_models.BaseChatModel`:
``bind_tools`` works as with ``ChatOpenAI`` (tools converted with ``convert_to_openai_tool``,
``tool_choice`` normalised the same way), ``invoke``/``ainvoke``/``stream`` go through LangChain's
callbacks, and every reply carries ``usage_metadata``. Each model call takes the next item of the
script:

* an ``AIMessage`` (text, ``tool_calls``, ``invalid_tool_calls``), or a ``str`` for a text answer;
* a callable ``(messages) -> AIMessage | str`` to answer from what the model was sent;
* an exception instance, raised as a provider error would be.

Like a real endpoint it refuses a prompt that is not a valid chat-completions conversation (a
tool call left unanswered, a tool result for no call), and when the script runs out it raises a
:class:`~toolkit.errors.ModelError` saying so. Token counts are words (whitespace-separated) of
the prompt and of the reply: deterministic, not a tokenizer.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    ToolMessage,
    UsageMetadata,
)
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field, PrivateAttr

from toolkit.errors import ModelError
from toolkit.wire import new_call_id, normalise_tool_choice

__all__ = ["ScriptedCall", "ScriptedChatModel", "chat_protocol_problems"]

ScriptItem = AIMessage | str | Callable[[list[BaseMessage]], "AIMessage | str"] | BaseException


@dataclass(frozen=True)
class ScriptedCall:
    """What one model call was sent.

    Attributes:
        messages: The prompt, as LangChain messages.
        tools: The OpenAI tool dicts bound for this call (empty when none).
        tool_choice: The ``tool_choice`` sent, or ``None``.
        options: Any other keyword arguments that reached the model (e.g. ``parallel_tool_calls``).
    """

    messages: list[BaseMessage]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: Any = None
    options: dict[str, Any] = field(default_factory=dict)


class ScriptedChatModel(BaseChatModel):
    """A chat model that replays a script of assistant replies, one per call.

    Example:
        >>> model = ScriptedChatModel(["The answer is 11."])
        >>> model.invoke("hi").content
        'The answer is 11.'

    Args:
        script: The replies, in order (see the module docstring for what an item can be).
        **kwargs: Other ``BaseChatModel`` fields (``callbacks``, ``tags``, ...).
    """

    script: list[Any] = Field(default_factory=list)
    check_protocol: bool = True
    """Refuse prompts that are not valid chat-completions conversations, as an endpoint would."""

    _position: int = PrivateAttr(default=0)
    _calls: list[ScriptedCall] = PrivateAttr(default_factory=list)
    _bound_tools: list[dict[str, Any]] = PrivateAttr(default_factory=list)
    _bound_tool_choice: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    def __init__(self, script: Iterable[ScriptItem] = (), **kwargs: Any) -> None:
        super().__init__(script=list(script), **kwargs)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def calls(self) -> list[ScriptedCall]:
        """Every call made so far, in order."""
        with self._lock:
            return list(self._calls)

    @property
    def bound_tools(self) -> list[dict[str, Any]]:
        """The OpenAI tool dicts of the last ``bind_tools``."""
        return list(self._bound_tools)

    @property
    def tool_choice(self) -> Any:
        """The normalised ``tool_choice`` of the last ``bind_tools``."""
        return self._bound_tool_choice

    @property
    def remaining(self) -> int:
        """How many scripted replies are left."""
        with self._lock:
            return len(self.script) - self._position

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: str | dict | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools as ``ChatOpenAI`` does, recording them.

        Args:
            tools: Tools, functions, pydantic models or OpenAI tool dicts.
            tool_choice: ``"auto"``, ``"none"``, ``"required"``/``"any"``/``True``, a tool name, or
                an OpenAI ``{"type": "function", "function": {"name": ...}}`` dict.
            **kwargs: Other options sent with every call (e.g. ``parallel_tool_calls``).

        Returns:
            The model bound to the tools.
        """
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        choice = normalise_tool_choice(tool_choice)
        with self._lock:
            self._bound_tools, self._bound_tool_choice = formatted, choice
        if choice is not None:
            kwargs["tool_choice"] = choice
        return self.bind(tools=formatted, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages, kwargs))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for chunk in _chunks(self._reply(messages, kwargs)):
            if run_manager is not None:
                run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk

    def _reply(self, messages: list[BaseMessage], options: dict[str, Any]) -> AIMessage:
        options = dict(options)
        tools, choice = options.pop("tools", []), options.pop("tool_choice", None)
        with self._lock:
            index = self._position
            self._position += 1
            self._calls.append(ScriptedCall(list(messages), tools, choice, options))
        problems = chat_protocol_problems(messages) if self.check_protocol else []
        if problems:
            raise ModelError(
                "the prompt is not a valid chat-completions conversation (an endpoint would "
                "answer 400): " + "; ".join(problems)
            )
        if index >= len(self.script):
            raise ModelError(
                f"ScriptedChatModel has no reply left: this is call {index + 1} but the script "
                f"has {len(self.script)} replies. Add replies to the script."
            )
        item = self.script[index]
        if isinstance(item, BaseException):
            raise item
        if callable(item) and not isinstance(item, AIMessage):
            item = item(list(messages))
        return _complete(item, index, messages)


def _complete(item: Any, index: int, prompt: Sequence[BaseMessage]) -> AIMessage:
    if isinstance(item, str):
        item = AIMessage(content=item)
    if not isinstance(item, AIMessage):
        raise ModelError(
            f"script item {index + 1} is a {type(item).__name__}; use an AIMessage, a str, a "
            "callable returning one of those, or an exception."
        )
    calls = [{**call, "id": call.get("id") or new_call_id()} for call in item.tool_calls]
    invalid = [{**call, "id": call.get("id") or new_call_id()} for call in item.invalid_tool_calls]
    usage = item.usage_metadata or _usage(prompt, item)
    metadata = {
        "model_name": "scripted",
        "finish_reason": "tool_calls" if calls or invalid else "stop",
        **item.response_metadata,
    }
    return item.model_copy(
        update={
            "id": item.id or f"scripted-{index}",
            "tool_calls": calls,
            "invalid_tool_calls": invalid,
            "usage_metadata": usage,
            "response_metadata": metadata,
        }
    )


def _words(message: BaseMessage) -> int:
    count = len(message.text.split())
    for call in getattr(message, "tool_calls", []):
        count += 1 + len(json.dumps(call["args"], ensure_ascii=False).split())
    for call in getattr(message, "invalid_tool_calls", []):
        count += 1 + len((call.get("args") or "").split())
    return count


def _usage(prompt: Sequence[BaseMessage], reply: AIMessage) -> UsageMetadata:
    given, produced = sum(_words(m) for m in prompt), _words(reply)
    return UsageMetadata(input_tokens=given, output_tokens=produced, total_tokens=given + produced)


def _chunks(message: AIMessage) -> Iterator[ChatGenerationChunk]:
    """Split a reply into stream chunks the way an OpenAI-compatible server sends them."""
    for piece in re.findall(r"\S+\s*|\s+", message.text):
        yield ChatGenerationChunk(message=AIMessageChunk(content=piece, id=message.id))
    raw_calls = [
        (call["name"], json.dumps(call["args"], ensure_ascii=False), call["id"])
        for call in message.tool_calls
    ] + [(call["name"], call.get("args") or "", call["id"]) for call in message.invalid_tool_calls]
    for index, (name, args, call_id) in enumerate(raw_calls):
        half = len(args) // 2
        for part, first in ((args[:half], True), (args[half:], False)):
            chunk = tool_call_chunk(
                name=name if first else None,
                args=part,
                id=call_id if first else None,
                index=index,
            )
            yield ChatGenerationChunk(
                message=AIMessageChunk(content="", id=message.id, tool_call_chunks=[chunk])
            )
    last = AIMessageChunk(
        content="",
        id=message.id,
        usage_metadata=message.usage_metadata,
        response_metadata=message.response_metadata,
        chunk_position="last",
    )
    yield ChatGenerationChunk(message=last)


def chat_protocol_problems(messages: Sequence[BaseMessage]) -> list[str]:
    """Check that messages form a valid chat-completions conversation, as an endpoint would.

    Every tool call of an assistant message (``tool_calls`` and ``invalid_tool_calls``, which
    ``ChatOpenAI`` sends too) needs a non-empty id, unique in the conversation, and exactly one
    tool message answering it before any other message; a tool message must answer a call of the
    assistant message just before it.

    Args:
        messages: The conversation, as LangChain messages.

    Returns:
        One sentence per problem; empty when the conversation is valid.
    """
    problems: list[str] = []
    seen: set[str] = set()
    pending: list[str] = []
    for position, message in enumerate(messages):
        where = f"message {position} ({message.type})"
        if isinstance(message, ToolMessage):
            if message.tool_call_id not in pending:
                problems.append(f"{where} answers {message.tool_call_id!r}, which is not pending")
            else:
                pending.remove(message.tool_call_id)
            continue
        if pending:
            problems.append(f"{where} comes before tool call(s) {pending} are answered")
            pending = []
        if isinstance(message, AIMessage):
            for call in [*message.tool_calls, *message.invalid_tool_calls]:
                call_id = call.get("id")
                if not call_id:
                    problems.append(f"{where} has a tool call without an id")
                elif call_id in seen:
                    problems.append(f"{where} repeats tool call id {call_id!r}")
                else:
                    seen.add(call_id)
                    pending.append(call_id)
    if pending:
        problems.append(f"the conversation ends with tool call(s) {pending} unanswered")
    return problems
