"""The OpenAI chat-completions request, as the embedded server reads it (pydantic).

:class:`ChatCompletionRequest` is the body FastAPI validates (and documents in
``/openapi.json``); :func:`job_from_request` turns it into a
:class:`~toolkit.local.format.job.ChatJob`, and :func:`parse_chat_request` does both for a
decoded JSON body. Problems raise :class:`~toolkit.errors.PromptError` whose message names the
field (the ``param`` attribute holds its dotted path), which the server answers with HTTP 400;
:func:`describe_errors` words pydantic's errors the same way.

It accepts what OpenAI clients send: ``content: null`` or a list of text parts, ``developer``
messages, ``max_tokens`` or ``max_completion_tokens``, ``stop`` as a string or a list,
``tool_choice`` as ``"auto"``/``"none"``/``"required"`` or ``{"type": "function", "function":
{"name": ...}}``, ``parallel_tool_calls``, ``stream_options``, ``response_format`` (``text``,
``json_object``, ``json_schema``: the answer is decoded under the schema's grammar and the
schema is added to the system message; :mod:`toolkit.local.format.structured` says which schemas
the grammar enforces), ``logprobs`` with ``top_logprobs`` (0-20), ``seed``, and ``n`` when it is 1;
other OpenAI fields are accepted and ignored. Values must have the JSON type the schema gives
(``"max_tokens": 5.0`` or ``"stream": "true"`` are refused, not coerced).

A ``json_schema`` format with ``"strict": true`` whose schema uses a keyword the grammar cannot
enforce is refused, naming the keyword and where it is. Without ``strict`` (OpenAI's default is
``false``: follow the schema as well as you can) the grammar enforces every other keyword and the
rest is reported in the transport options' ``unenforced`` (the server sends it as the
``x-toolkit-unenforced`` header).

One extension: ``"grammar": false`` decodes without grammars and without the tool-versus-text
decision (for measuring the model alone; the tolerant parser still reads the calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from toolkit.errors import PromptError
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.structured import (
    ANY_OBJECT,
    check_schema,
    unsupported_keywords,
    with_format_instruction,
)

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "ChatCompletionRequest",
    "describe_errors",
    "job_from_request",
    "parse_chat_request",
]

#: Tokens generated when the request sets no limit.
DEFAULT_MAX_TOKENS = 1024
_SCHEMA_PARAM = "response_format.json_schema.schema"


class _Loose(BaseModel):
    # strict: JSON types as the schema says (no "true" for true, no 3.0 for 3)
    model_config = ConfigDict(extra="allow", strict=True)


class FunctionDefinition(_Loose):
    """A function offered as a tool: its name, description and JSON-schema parameters."""

    name: str = Field(min_length=1, max_length=256)
    description: str | None = None
    parameters: dict[str, Any] | None = None


class Tool(_Loose):
    """An offered tool (``{"type": "function", "function": {...}}``)."""

    type: Literal["function"] = "function"
    function: FunctionDefinition


class ToolChoiceFunction(_Loose):
    """The function a named ``tool_choice`` forces."""

    name: str = Field(min_length=1)


class NamedToolChoice(_Loose):
    """``tool_choice`` naming one tool: ``{"type": "function", "function": {"name": ...}}``."""

    type: Literal["function"] = "function"
    function: ToolChoiceFunction


class MessageToolCallFunction(_Loose):
    """The function of a call in the conversation, with its arguments (JSON text)."""

    name: str
    arguments: str | dict[str, Any] = "{}"


class MessageToolCall(_Loose):
    """A call an assistant message of the conversation made."""

    id: str | None = None
    type: Literal["function"] = "function"
    function: MessageToolCallFunction


class Message(_Loose):
    """A message of the conversation; ``content`` is text, text parts or ``null``."""

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: Any = None
    name: str | None = None
    tool_calls: list[MessageToolCall] | None = None
    tool_call_id: str | None = None

    @field_validator("content")
    @classmethod
    def _text_content(cls, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        if not isinstance(value, list):
            raise ValueError("content must be a string, a list of text parts, or null")
        for part in value:
            kind = part.get("type") if isinstance(part, dict) else None
            if kind != "text" or not isinstance(part.get("text"), str):
                raise ValueError(
                    f"content parts of type {kind!r} are not supported; send text "
                    '(a string, or parts {"type": "text", "text": ...})'
                )
        return value


class StreamOptions(_Loose):
    """Streaming options: ``include_usage`` adds a last chunk with the token counts."""

    include_usage: bool = False


class JsonSchemaFormat(_Loose):
    """The schema of a ``json_schema`` response format, with its name and strictness."""

    model_config = ConfigDict(populate_by_name=True)
    name: str = Field(min_length=1, max_length=256)
    description: str | None = None
    schema_: dict[str, Any] | None = Field(default=None, alias="schema")
    strict: bool | None = None


class ResponseFormat(_Loose):
    """``response_format``: ``text``, ``json_object`` (any object) or ``json_schema``."""

    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None

    @model_validator(mode="after")
    def _schema_for_json_schema(self) -> ResponseFormat:
        if self.type == "json_schema" and self.json_schema is None:
            raise ValueError(
                'type "json_schema" needs "json_schema": {"name": ..., "schema": {...}}'
            )
        return self


class ChatCompletionRequest(BaseModel):
    """The body of ``POST /v1/chat/completions`` (and ``/v1/prompt``), as OpenAI defines it.

    Fields the embedded model does not use (``frequency_penalty``, ``user``...) are accepted
    and ignored. ``grammar`` is this server's extension (see the module docstring).
    """

    model_config = ConfigDict(extra="ignore", strict=True)

    model: str | None = None
    messages: list[Message] = Field(min_length=1)
    tools: list[Tool] | None = None
    tool_choice: Literal["auto", "none", "required"] | NamedToolChoice | None = None
    parallel_tool_calls: bool | None = None
    response_format: ResponseFormat | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: str | list[str] | None = None
    n: int | None = Field(default=None, ge=1, json_schema_extra={"maximum": 1})
    logprobs: bool | None = None
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    grammar: bool = True

    @field_validator("stop")
    @classmethod
    def _few_stops(cls, value: str | list[str] | None) -> str | list[str] | None:
        if isinstance(value, list) and len(value) > 4:
            raise ValueError("at most 4 stop sequences are allowed")
        return value

    @field_validator("n")
    @classmethod
    def _one_choice(cls, value: int | None) -> int | None:
        if value is not None and value > 1:
            raise ValueError(
                f"n={value} is not supported: the embedded model writes one choice per request; "
                "send n=1 (or leave it out) and repeat the request for more answers"
            )
        return value


def _field_path(loc: Sequence[Any]) -> str:
    """A pydantic error location as a dotted field path, without union members' tags."""
    parts = [p for p in loc if isinstance(p, int) or _is_field(str(p))]
    return ".".join(map(str, parts))


def _is_field(part: str) -> bool:
    return part.isidentifier() and part.islower() and part not in {"str", "int", "float", "bool"}


def describe_errors(errors: Sequence[dict[str, Any]]) -> tuple[str | None, str]:
    """Word pydantic's validation errors as one message naming the first bad field.

    Args:
        errors: ``ValidationError.errors()`` (or FastAPI's, whose locations start ``"body"``).

    Returns:
        The field's dotted path (``None`` for the body itself) and the message.
    """
    first = errors[0]
    loc = list(first["loc"])
    if loc[:1] == ["body"]:
        loc = loc[1:]
        if first["type"] == "json_invalid":
            reason = (first.get("ctx") or {}).get("error", first["msg"])
            return None, f"the request body is not valid JSON: {reason}."
        if not loc or first["type"] in ("model_attributes_type", "dict_type"):
            return None, "the request body must be a JSON object."
    param = _field_path(loc)
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "this field is required"
    where = f"'{param}'" if param else "the request"
    more = len(errors) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return param or None, f"invalid {where}: {message}{tail}."


def _fail(message: str, param: str | None) -> PromptError:
    error = PromptError(message)
    error.param = param  # type: ignore[attr-defined]
    return error


def _text_schema(request: ChatCompletionRequest) -> tuple[dict[str, Any] | None, list[str]]:
    """The schema the text answer must follow, and the keywords left unenforced."""
    fmt = request.response_format
    if fmt is None or fmt.type == "text":
        return None, []
    if not request.grammar:
        raise _fail(
            f'response_format "{fmt.type}" is decoded under a grammar; drop "grammar": false.',
            "response_format",
        )
    spec = fmt.json_schema
    if fmt.type == "json_object" or spec is None or spec.schema_ is None:
        return dict(ANY_OBJECT), []
    try:
        check_schema(spec.schema_)
    except PromptError as exc:
        raise _fail(f"{_SCHEMA_PARAM}: {exc}", _SCHEMA_PARAM) from None
    missing = [str(u) for u in unsupported_keywords(spec.schema_)]
    if missing and spec.strict:
        raise _fail(
            f"{_SCHEMA_PARAM} uses {', '.join(missing)}, which the embedded model's grammar "
            'cannot enforce; remove it, or send "strict": false to have everything else '
            "enforced and this left unchecked.",
            _SCHEMA_PARAM,
        )
    return spec.schema_, missing


def job_from_request(request: ChatCompletionRequest) -> tuple[ChatJob, dict[str, Any]]:
    """Normalise a validated request into a job.

    Args:
        request: The validated body.

    Returns:
        The job, and the transport options ``{"stream", "include_usage", "logprobs",
        "unenforced"}`` (``unenforced``: the schema keywords the grammar leaves unchecked).

    Raises:
        PromptError: The request is inconsistent (a named tool that is not offered, a schema
            the grammar cannot enforce...); ``param`` names the field.
    """
    tools = [t.model_dump(exclude_none=True) for t in request.tools or []] or None
    names = [t["function"]["name"] for t in tools or []]
    if len(set(names)) != len(names):
        raise _fail(f"tool names must be unique; got {', '.join(names)}.", "tools")
    choice = request.tool_choice
    if isinstance(choice, NamedToolChoice):
        choice_name = choice.function.name
        if choice_name not in names:
            listed = ", ".join(names) or "(the request sent no tools)"
            raise _fail(
                f"tool_choice names the function {choice_name!r}, which is not among the "
                f"tools; choose one of: {listed}.",
                "tool_choice",
            )
    else:
        choice_name = choice or "auto"
        if choice_name == "required" and not tools:
            raise _fail("tool_choice 'required' needs tools, but the request sent none.", "tools")
    if request.top_logprobs is not None and not request.logprobs:
        raise _fail("top_logprobs needs logprobs: true.", "top_logprobs")
    text_schema, unenforced = _text_schema(request)
    stop = request.stop
    options = SamplingOptions(
        max_tokens=request.max_completion_tokens or request.max_tokens or DEFAULT_MAX_TOKENS,
        temperature=request.temperature if request.temperature is not None else 0.0,
        top_p=request.top_p if request.top_p is not None else 1.0,
        seed=request.seed,
        stop=(stop,) if isinstance(stop, str) else tuple(stop or ()),
        top_logprobs=(request.top_logprobs or 0) if request.logprobs else None,
    )
    messages = [m.model_dump(exclude_none=True) for m in request.messages]
    if text_schema is not None:
        messages = with_format_instruction(messages, text_schema)
    job = ChatJob(
        messages=messages,
        tools=tools,
        tool_choice=choice_name,
        parallel_tool_calls=request.parallel_tool_calls is not False,
        options=options,
        constrained=request.grammar,
        text_schema=text_schema,
    )
    transport = {
        "stream": bool(request.stream),
        "include_usage": bool(request.stream_options and request.stream_options.include_usage),
        "logprobs": bool(request.logprobs),
        "unenforced": unenforced,
    }
    return job, transport


def parse_chat_request(payload: Any) -> tuple[ChatJob, dict[str, Any]]:
    """Validate a decoded chat-completions body and normalise it into a job.

    Args:
        payload: The decoded JSON body.

    Returns:
        What :func:`job_from_request` returns.

    Raises:
        PromptError: The body is not a valid request; ``param`` names the field.
    """
    if not isinstance(payload, dict):
        raise _fail("the request body must be a JSON object.", None)
    try:
        request = ChatCompletionRequest.model_validate(payload)
    except ValidationError as exc:
        param, message = describe_errors(exc.errors())
        raise _fail(message, param) from None
    return job_from_request(request)
