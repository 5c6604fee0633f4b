"""The OpenAI chat-completions request, as the embedded server reads it (pydantic).

:func:`parse_chat_request` turns a decoded JSON body into a
:class:`~toolkit.local.format.job.ChatJob` or raises :class:`~toolkit.errors.PromptError` whose
message names the field (the ``param`` attribute holds its dotted path), which the server
answers with HTTP 400. It accepts what OpenAI clients send: ``content: null`` or a list of text
parts, ``developer`` messages, ``max_tokens`` or ``max_completion_tokens``, ``stop`` as a string
or a list, ``tool_choice`` as ``"auto"``/``"none"``/``"required"`` or ``{"type": "function",
"function": {"name": ...}}``, ``parallel_tool_calls``, ``stream_options``; other OpenAI fields
are accepted and ignored.

One extension: ``"grammar": false`` decodes without grammars and without the tool-versus-text
decision (for measuring the model alone; the tolerant parser still reads the calls).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from toolkit.errors import PromptError
from toolkit.local.format.job import ChatJob, SamplingOptions

__all__ = ["DEFAULT_MAX_TOKENS", "parse_chat_request"]

#: Tokens generated when the request sets no limit.
DEFAULT_MAX_TOKENS = 1024


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class _FunctionDef(_Loose):
    name: str = Field(min_length=1, max_length=256)
    description: str | None = None
    parameters: dict[str, Any] | None = None


class _Tool(_Loose):
    type: Literal["function"] = "function"
    function: _FunctionDef


class _ChoiceFunction(_Loose):
    name: str = Field(min_length=1)


class _NamedChoice(_Loose):
    type: Literal["function"] = "function"
    function: _ChoiceFunction


class _CallFunction(_Loose):
    name: str
    arguments: str | dict[str, Any] = "{}"


class _Call(_Loose):
    id: str | None = None
    type: Literal["function"] = "function"
    function: _CallFunction


class _Message(_Loose):
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: Any = None
    name: str | None = None
    tool_calls: list[_Call] | None = None
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


class _StreamOptions(_Loose):
    include_usage: bool = False


class _ChatRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str | None = None
    messages: list[_Message] = Field(min_length=1)
    tools: list[_Tool] | None = None
    tool_choice: Literal["auto", "none", "required"] | _NamedChoice | None = None
    parallel_tool_calls: bool | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: str | list[str] | None = None
    n: int | None = Field(default=None, ge=1, le=1)
    stream: bool | None = False
    stream_options: _StreamOptions | None = None
    grammar: bool = True

    @field_validator("stop")
    @classmethod
    def _few_stops(cls, value: str | list[str] | None) -> str | list[str] | None:
        if isinstance(value, list) and len(value) > 4:
            raise ValueError("at most 4 stop sequences are allowed")
        return value


def _describe(error: ValidationError) -> tuple[str, str]:
    first = error.errors()[0]
    loc = [str(p) for p in first["loc"] if not str(p).startswith(("function-after", "literal"))]
    param = ".".join(p for p in loc if p not in {"str", "_NamedChoice"})
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "this field is required"
    where = f"'{param}'" if param else "the request"
    more = len(error.errors()) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return param, f"invalid {where}: {message}{tail}."


def _fail(message: str, param: str | None) -> PromptError:
    error = PromptError(message)
    error.param = param  # type: ignore[attr-defined]
    return error


def parse_chat_request(payload: Any) -> tuple[ChatJob, dict[str, Any]]:
    """Validate a chat-completions body and normalise it into a job.

    Args:
        payload: The decoded JSON body.

    Returns:
        The job, and the transport options ``{"stream": bool, "include_usage": bool}``.

    Raises:
        PromptError: The body is not a valid request; ``param`` names the field.
    """
    if not isinstance(payload, dict):
        raise _fail("the request body must be a JSON object.", None)
    try:
        request = _ChatRequest.model_validate(payload)
    except ValidationError as exc:
        param, message = _describe(exc)
        raise _fail(message, param or None) from None
    tools = [t.model_dump(exclude_none=True) for t in request.tools or []] or None
    names = [t["function"]["name"] for t in tools or []]
    if len(set(names)) != len(names):
        raise _fail(f"tool names must be unique; got {', '.join(names)}.", "tools")
    choice = request.tool_choice
    if isinstance(choice, _NamedChoice):
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
    stop = request.stop
    options = SamplingOptions(
        max_tokens=request.max_completion_tokens or request.max_tokens or DEFAULT_MAX_TOKENS,
        temperature=request.temperature if request.temperature is not None else 0.0,
        top_p=request.top_p if request.top_p is not None else 1.0,
        seed=request.seed,
        stop=(stop,) if isinstance(stop, str) else tuple(stop or ()),
    )
    job = ChatJob(
        messages=[m.model_dump(exclude_none=True) for m in request.messages],
        tools=tools,
        tool_choice=choice_name,
        parallel_tool_calls=request.parallel_tool_calls is not False,
        options=options,
        constrained=request.grammar,
    )
    include_usage = bool(request.stream_options and request.stream_options.include_usage)
    return job, {"stream": bool(request.stream), "include_usage": include_usage}
