"""One repair for ``ChatOpenAI``: replies whose tool-call arguments LangChain cannot parse.

Given a response whose arguments are valid JSON but not an object (``[1, 2]``, ``"text"``) or a
double-encoded object (``"{\\"city\\": ..}"``), ``ChatOpenAI.invoke`` raises a pydantic
``ValidationError`` while building the ``AIMessage`` (``_convert_dict_to_message`` puts the
decoded value in ``tool_calls[].args``, which must be a dict), and the whole reply is lost.
:func:`recover_tool_calls` fixes the raw response before LangChain parses it, and
:func:`recovering_chat_model` installs it in a copy of the model.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, InvalidToolCall
from langchain_core.messages.tool import invalid_tool_call
from langchain_openai.chat_models.base import BaseChatOpenAI

from toolkit.errors import InvalidArgumentsError
from toolkit.loop.arguments import decode_arguments

__all__ = ["recover_tool_calls", "recovering_chat_model"]


def recover_tool_calls(response: Mapping[str, Any]) -> tuple[dict, list[list[InvalidToolCall]]]:
    """Make a chat-completions response safe for LangChain to parse.

    A double-encoded object is decoded in place; a call whose arguments are JSON but not an object
    is taken out of ``tool_calls`` and returned as an ``InvalidToolCall`` (raw text + the reason),
    so the loop can answer it with an error instead of losing the reply. Calls that are not valid
    JSON at all are left alone: LangChain already turns them into ``invalid_tool_calls``.

    Args:
        response: The response body as a dict (``choices[].message.tool_calls[]``).

    Returns:
        The repaired response (the input is not modified) and, per choice, the calls taken out.
    """
    fixed = copy.deepcopy(dict(response))
    removed: list[list[InvalidToolCall]] = []
    for choice in fixed.get("choices") or []:
        message = choice.get("message") or {}
        kept, taken = [], []
        for raw in message.get("tool_calls") or []:
            function = raw.get("function") or {}
            text = function.get("arguments")
            try:
                value = json.loads(text) if isinstance(text, str) and text.strip() else None
            except json.JSONDecodeError:
                value = None  # LangChain reports invalid JSON itself
            if value is None or isinstance(value, dict):
                kept.append(raw)
                continue
            try:
                function["arguments"] = json.dumps(decode_arguments(text), ensure_ascii=False)
                kept.append(raw)
            except InvalidArgumentsError as exc:
                name, call_id = function.get("name"), raw.get("id")
                taken.append(invalid_tool_call(name=name, args=text, id=call_id, error=str(exc)))
        if taken:
            message["tool_calls"] = kept or None
        removed.append(taken)
    return fixed, removed


@functools.cache
def _recovering_class(cls: type[BaseChatOpenAI]) -> type[BaseChatOpenAI]:
    def _create_chat_result(self: BaseChatOpenAI, response: Any, generation_info: Any = None):
        if not _needs_recovery(response):
            return cls._create_chat_result(self, response, generation_info)
        body = response if isinstance(response, Mapping) else response.model_dump(warnings=False)
        fixed, removed = recover_tool_calls(body)
        result = cls._create_chat_result(self, fixed, generation_info)
        for generation, choice, taken in zip(
            result.generations, body.get("choices") or [], removed, strict=False
        ):
            message = generation.message
            if taken and isinstance(message, AIMessage):
                raw = (choice.get("message") or {}).get("tool_calls") or []
                order = {call.get("id"): n for n, call in enumerate(raw)}
                calls = [*message.invalid_tool_calls, *taken]
                message.invalid_tool_calls = sorted(calls, key=lambda c: order.get(c["id"], 0))
        return result

    namespace = {"_create_chat_result": _create_chat_result, "__module__": __name__}
    return type(f"Recovering{cls.__name__}", (cls,), namespace)


def _needs_recovery(response: Any) -> bool:
    """Whether some call's arguments are valid JSON but not an object (LangChain would raise).

    Reads a dict body or the typed ``openai`` response alike, without converting it.
    """

    def get(item: Any, key: str) -> Any:
        return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)

    for choice in get(response, "choices") or []:
        for raw in get(get(choice, "message"), "tool_calls") or []:
            text = get(get(raw, "function"), "arguments")
            try:
                value = json.loads(text) if isinstance(text, str) and text.strip() else None
            except json.JSONDecodeError:
                continue
            if value is not None and not isinstance(value, dict):
                return True
    return False


def recovering_chat_model(model: BaseChatModel) -> BaseChatModel:
    """Return ``model``, or for a ``ChatOpenAI``-family model a copy that recovers bad arguments.

    The copy shares the original's settings and HTTP clients; only the step that turns the raw
    response into an ``AIMessage`` changes (see :func:`recover_tool_calls`). Other models are
    returned as they are.

    Args:
        model: Any LangChain chat model.

    Returns:
        A chat model whose replies never fail on non-object or double-encoded arguments.
    """
    if not isinstance(model, BaseChatOpenAI) or type(model).__module__ == __name__:
        return model
    fields = {name: getattr(model, name) for name in model.model_fields_set}
    return _recovering_class(type(model))(**fields)
