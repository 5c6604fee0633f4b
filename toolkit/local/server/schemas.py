"""The embedded server's response bodies, as pydantic models (documented in ``/openapi.json``).

The app builds each body as plain data and validates it against its model before sending it
(:func:`to_json`), so what is served is what the spec says. Shapes follow OpenAI's chat
completions API: :class:`ChatCompletion`, and for ``stream: true`` one
:class:`ChatCompletionChunk` per SSE ``data:`` line; errors are :class:`ErrorBody`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "ChatCompletion",
    "ChatCompletionChunk",
    "ErrorBody",
    "Health",
    "ModelList",
    "PromptAnswer",
    "to_json",
]

FinishReason = Literal["stop", "length", "tool_calls"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TopLogprob(_Body):
    """One of the most likely tokens at a position."""

    token: str
    logprob: float
    bytes: list[int] | None


class TokenLogprob(TopLogprob):
    """A generated token's log-probability, with the most likely tokens at its position."""

    top_logprobs: list[TopLogprob]


class ChoiceLogprobs(_Body):
    """The log-probabilities of a choice's content tokens (tool calls have none)."""

    content: list[TokenLogprob] | None


class FunctionCall(_Body):
    """The function a call names, and its arguments as JSON text."""

    name: str
    arguments: str


class ToolCall(_Body):
    """A tool call of a (non-streamed) assistant message; ``index`` as in listing 7.6."""

    index: int
    id: str
    type: Literal["function"]
    function: FunctionCall


class AssistantMessage(_Body):
    """The answer: text in ``content`` (``null`` when there is none), calls in ``tool_calls``."""

    role: Literal["assistant"]
    content: str | None
    tool_calls: list[ToolCall] | None = None


class Choice(_Body):
    """The only choice of a completion (``n`` is always 1)."""

    index: int
    message: AssistantMessage
    logprobs: ChoiceLogprobs | None
    finish_reason: FinishReason


class Usage(_Body):
    """Token counts of the request."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ChatCompletion(_Body):
    """The body of a non-streamed chat completion."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    system_fingerprint: str | None = None
    choices: list[Choice]
    usage: Usage


class FunctionDelta(_Body):
    """Part of a streamed call: the name first, then the arguments."""

    name: str | None = None
    arguments: str | None = None


class ToolCallDelta(_Body):
    """Part of a streamed call; ``index`` says which call of the message it belongs to."""

    index: int
    id: str | None = None
    type: Literal["function"] | None = None
    function: FunctionDelta | None = None


class Delta(_Body):
    """What a chunk adds to the message."""

    role: Literal["assistant"] | None = None
    content: str | None = None
    tool_calls: list[ToolCallDelta] | None = None


class ChunkChoice(_Body):
    """The choice a chunk adds to."""

    index: int
    delta: Delta
    logprobs: ChoiceLogprobs | None = None
    finish_reason: FinishReason | None = None


class ChatCompletionChunk(_Body):
    """One SSE ``data:`` line of a streamed completion. The last chunk before ``[DONE]`` has
    no choices and the ``usage`` when ``stream_options.include_usage`` was set."""

    id: str
    object: Literal["chat.completion.chunk"]
    created: int
    model: str
    system_fingerprint: str | None = None
    choices: list[ChunkChoice]
    usage: Usage | None = None


class ErrorDetail(_Body):
    """What went wrong and what to fix: ``param`` names the field, when one is at fault."""

    message: str
    type: str
    param: str | None
    code: str | None


class ErrorBody(_Body):
    """Every error, in OpenAI's shape (also sent as an SSE ``data:`` line mid-stream)."""

    error: ErrorDetail


class ModelCard(_Body):
    """The served model."""

    id: str
    object: Literal["model"]
    created: int
    owned_by: str


class ModelList(_Body):
    """``GET /v1/models``: the one model this server serves."""

    object: Literal["list"]
    data: list[ModelCard]


class PromptAnswer(_Body):
    """``POST /v1/prompt``: the prompt text the model reads for a request, and its tokens."""

    model: str
    prompt: str
    prompt_tokens: int


class Health(_Body):
    """``GET /health``."""

    status: Literal["ok"]
    model: str


def to_json(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """Validate a body against its model and return it as JSON-ready data.

    Keys absent from ``data`` stay absent (``tool_calls`` of a text answer, ``usage`` of a
    content chunk); keys present with ``None`` are sent as ``null``.

    Args:
        model: The body's model.
        data: The body.

    Returns:
        The validated body.

    Raises:
        pydantic.ValidationError: The body does not match its model (a server bug).
    """
    return model.model_validate(data).model_dump(mode="json", exclude_unset=True)
