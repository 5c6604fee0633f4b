"""Messages and tools -> the prompt the embedded model reads (its own chat template, jinja2).

The default template is Qwen2.5's, exactly as the shipped GGUF carries it in its
``tokenizer.chat_template`` metadata. It puts the tools in the system turn inside
``<tools></tools>``, renders assistant calls as ``<tool_call>`` blocks and ``role=tool``
messages as ``<tool_response>`` blocks in one user turn (consecutive ones merged)::

    <|im_start|>user
    <tool_response>
    6 摄氏度
    </tool_response>
    <tool_response>
    5 摄氏度
    </tool_response><|im_end|>

Rendering follows Hugging Face's ``apply_chat_template``: a sandboxed jinja2 environment with
``trim_blocks`` and ``lstrip_blocks``, and a ``tojson`` filter that keeps non-ASCII text as is
(``ensure_ascii=False``), so ``查询西安的天气`` reaches the model unescaped.

Messages are accepted in the shapes OpenAI clients send: ``content`` may be ``null`` or a list
of text parts, ``developer`` is read as ``system``, ``name`` and ``tool_call_id`` are allowed,
and call ``arguments`` given as JSON text are decoded for the template (kept as text when they
are not valid JSON).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from toolkit.errors import PromptError
from toolkit.wire import content_text

__all__ = ["QWEN25_TEMPLATE", "render_prompt"]

#: Qwen2.5's chat template, byte for byte as in the shipped GGUF's ``tokenizer.chat_template``.
QWEN25_TEMPLATE = r"""{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
"""  # noqa: E501

_ROLES = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}


def _tojson(
    value: Any,
    ensure_ascii: bool = False,
    indent: int | None = None,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
) -> str:
    """The ``tojson`` filter of Hugging Face chat templates (no HTML escaping)."""
    return json.dumps(
        value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )


def _raise_exception(message: str) -> None:
    raise PromptError(f"the chat template refused the request: {message}")


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


@lru_cache(maxsize=8)
def _compile(template: str) -> jinja2.Template:
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
    )
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    try:
        return env.from_string(template)
    except jinja2.TemplateError as exc:
        raise PromptError(f"the chat template does not compile: {exc}") from exc


def _text(content: Any, where: str) -> str:
    """OpenAI message content (``None``, text, or a list of text parts) -> plain text."""
    if content is None or isinstance(content, str):
        return content_text(content)
    if not isinstance(content, Sequence) or isinstance(content, (bytes, bytearray)):
        raise PromptError(
            f"{where}.content must be a string, null or a list of text parts, "
            f"not {type(content).__name__}."
        )
    for i, part in enumerate(content):
        if isinstance(part, str):
            continue
        if not isinstance(part, Mapping) or part.get("type", "text") != "text":
            kind = part.get("type") if isinstance(part, Mapping) else type(part).__name__
            raise PromptError(
                f"{where}.content[{i}] is a {kind!r} part; the local model reads text only: "
                "send text parts or a string."
            )
        if not isinstance(part.get("text"), str):
            raise PromptError(f"{where}.content[{i}] is a text part without a 'text' string.")
    return content_text(content)


def _arguments(raw: Any) -> Any:
    """Call arguments for the template: JSON text decoded, anything else kept as is."""
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return {} if raw is None else raw


def _tool_calls(calls: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(calls, Sequence) or isinstance(calls, str):
        raise PromptError(f"{where}.tool_calls must be a list of calls.")
    out = []
    for i, call in enumerate(calls):
        fn = call.get("function") if isinstance(call, Mapping) else None
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise PromptError(
                f"{where}.tool_calls[{i}] must look like "
                '{"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}.'
            )
        out.append(
            {
                "id": call.get("id"),
                "type": "function",
                "function": {"name": fn["name"], "arguments": _arguments(fn.get("arguments"))},
            }
        )
    return out


def _message(message: Any, i: int) -> dict[str, Any]:
    where = f"messages[{i}]"
    if not isinstance(message, Mapping):
        raise PromptError(f"{where} must be an object with 'role' and 'content'.")
    role = message.get("role")
    if role not in _ROLES:
        raise PromptError(f"{where}.role is {role!r}; use one of: {', '.join(sorted(_ROLES))}.")
    out: dict[str, Any] = {"role": _ROLES[role], "content": _text(message.get("content"), where)}
    for key in ("name", "tool_call_id"):
        if message.get(key) is not None:
            out[key] = message[key]
    if message.get("tool_calls"):
        if role != "assistant":
            raise PromptError(f"{where} has tool_calls but only assistant messages can.")
        out["tool_calls"] = _tool_calls(message["tool_calls"], where)
    return out


def _tool(tool: Any, i: int) -> dict[str, Any]:
    """An OpenAI tool (or a bare function definition) -> ``{"type": "function", ...}``."""
    fn = tool.get("function", tool) if isinstance(tool, Mapping) else None
    if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
        raise PromptError(
            f"tools[{i}] must look like "
            '{"type": "function", "function": {"name": ..., "parameters": {...}}}.'
        )
    if isinstance(tool, Mapping) and "function" in tool:
        return dict(tool)
    return {"type": "function", "function": dict(fn)}


def render_prompt(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    *,
    template: str | None = None,
    add_generation_prompt: bool = True,
    extra_context: Mapping[str, Any] | None = None,
) -> str:
    """Render chat messages and tools into the prompt text the model reads.

    Example:
        >>> render_prompt([{"role": "user", "content": "Hi"}]).endswith(
        ...     "<|im_start|>user\\nHi<|im_end|>\\n<|im_start|>assistant\\n")
        True

    Args:
        messages: OpenAI chat-completions messages.
        tools: OpenAI tools (``{"type": "function", "function": {...}}``); bare function
            definitions are wrapped.
        template: A jinja2 chat template; default :data:`QWEN25_TEMPLATE`.
        add_generation_prompt: End with the opening of the assistant's turn.
        extra_context: More template variables (e.g. ``bos_token`` for another model's
            template).

    Returns:
        The prompt text, special tokens written out (``<|im_start|>`` ...).

    Raises:
        PromptError: The messages or tools are malformed (the message names the field), or
            the template refuses them.
    """
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise PromptError("messages must be a list of message objects.")
    if not messages:
        raise PromptError("messages is empty; send at least one user message.")
    if tools is not None and (isinstance(tools, (str, bytes)) or not isinstance(tools, Sequence)):
        raise PromptError("tools must be a list of tool objects.")
    context: dict[str, Any] = dict(extra_context or {})
    context.update(
        messages=[_message(m, i) for i, m in enumerate(messages)],
        tools=[_tool(t, i) for i, t in enumerate(tools)] if tools else None,
        add_generation_prompt=add_generation_prompt,
    )
    compiled = _compile(template if template is not None else QWEN25_TEMPLATE)
    try:
        return compiled.render(**context)
    except PromptError:
        raise
    except (jinja2.TemplateError, TypeError, ValueError) as exc:
        raise PromptError(f"the chat template could not render these messages: {exc}") from exc
