"""The record of a tool-loop run: its transcript, why it ended, what it cost.

:class:`RunRecord` keeps the books while :class:`toolkit.loop.ToolLoop` runs (counters, token
usage, budgets, the hint naming the setting to raise); :class:`LoopResult` is what a run returns;
:func:`to_openai_messages` turns a transcript into chat-completions message dicts (what
``toolkit run --json`` prints).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import httpx
import openai
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    convert_to_messages,
    convert_to_openai_messages,
)
from langchain_core.runnables import RunnableConfig

from toolkit.errors import ConfigError

__all__ = ["LoopResult", "LoopStatus", "RunRecord", "TokenUsage", "to_openai_messages"]


class LoopStatus(str, Enum):
    """Why a run ended."""

    ANSWERED = "answered"
    STEP_BUDGET_EXHAUSTED = "step_budget_exhausted"
    TIME_BUDGET_EXHAUSTED = "time_budget_exhausted"
    RETRY_BUDGET_EXHAUSTED = "retry_budget_exhausted"
    MODEL_ERROR = "model_error"


@dataclass(frozen=True)
class TokenUsage:
    """Tokens reported by the model (``usage_metadata``), summed over a run."""

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0

    @classmethod
    def of(cls, message: BaseMessage) -> TokenUsage:
        """The usage a reply reports in ``usage_metadata`` (zeros when it reports none).

        Args:
            message: A model reply.

        Returns:
            Its token usage.
        """
        usage = getattr(message, "usage_metadata", None) or {}
        return cls(
            *(usage.get(key, 0) for key in ("input_tokens", "output_tokens", "total_tokens"))
        )

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
        )


@dataclass(frozen=True)
class LoopResult:
    """The outcome of one run of a :class:`ToolLoop`.

    Attributes:
        transcript: Every message, the input included; always a valid conversation, so it can be
            passed back to :meth:`ToolLoop.run` to continue.
        status: Why the run ended.
        answer: The model's final text when ``status`` is ``ANSWERED``, else ``None``.
        model_calls: How many times the model was called.
        tool_calls: How many tool calls were answered.
        usage: Tokens summed from every reply's ``usage_metadata``.
        elapsed: Wall-clock seconds of the run.
        hint: What to do when the run did not end with an answer (the setting to raise).
        error: The model error that ended the run, if any, in one sentence.
        exception: That error itself, for code that handles errors by type.
    """

    transcript: list[BaseMessage]
    status: LoopStatus
    answer: str | None
    model_calls: int
    tool_calls: int
    usage: TokenUsage
    elapsed: float
    hint: str | None = None
    error: str | None = None
    exception: BaseException | None = field(default=None, repr=False, compare=False)

    @property
    def answered(self) -> bool:
        """Whether the run ended with an answer."""
        return self.status is LoopStatus.ANSWERED

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data, the transcript as OpenAI message dicts.

        Returns:
            ``status``, ``answer``, ``model_calls``, ``tool_calls``, ``usage``, ``elapsed``,
            ``hint``, ``error`` and ``messages``.
        """
        return {
            "status": self.status.value,
            "answer": self.answer,
            "model_calls": self.model_calls,
            "tool_calls": self.tool_calls,
            "usage": vars(self.usage),
            "elapsed": round(self.elapsed, 3),
            "hint": self.hint,
            "error": self.error,
            "messages": to_openai_messages(self.transcript),
        }


def to_openai_messages(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """Convert messages to chat-completions dicts, invalid tool calls included.

    ``convert_to_openai_messages`` drops ``invalid_tool_calls``, which would leave their tool
    results answering nothing; ``ChatOpenAI`` sends them (raw arguments), and so does this.

    Args:
        messages: LangChain messages.

    Returns:
        One OpenAI message dict per message.
    """
    converted = []
    for message in messages:
        data = convert_to_openai_messages(message)
        if isinstance(message, AIMessage) and message.invalid_tool_calls:
            data.setdefault("tool_calls", []).extend(
                {
                    "type": "function",
                    "id": call["id"],
                    "function": {"name": call["name"], "arguments": call["args"]},
                }
                for call in message.invalid_tool_calls
            )
        converted.append(data)
    return converted


class RunRecord:
    """The record of a run in progress: transcript, counters, token usage and budgets.

    :class:`toolkit.loop.ToolLoop` drives the steps; this keeps the books and decides, from the
    budgets, when a run ends and what :class:`LoopResult` says about it.

    Args:
        question: A question, or the conversation so far (messages or message-likes).
        settings: The loop's settings (``max_model_calls``, ``max_wall_time``, ``retry_budget``,
            ``parallel``, ``tool_timeout``, ``max_result_chars``).
        config: The run's LangChain config (already through ``ensure_config``).
        endpoint: The model's base URL, named when a model call fails.

    Raises:
        ConfigError: The question is empty, or no messages were given.
    """

    def __init__(
        self,
        question: str | Sequence[Any],
        settings: Mapping[str, Any],
        config: RunnableConfig,
        endpoint: str | None = None,
    ) -> None:
        if isinstance(question, str):
            if not question.strip():
                raise ConfigError("the question is empty; ask something.")
            self.fresh: list[BaseMessage] = [HumanMessage(question)]
            self.transcript: list[BaseMessage] = list(self.fresh)
        else:
            self.fresh, self.transcript = [], list(convert_to_messages(question))
            if not self.transcript:
                raise ConfigError("no messages given; pass a question or a conversation.")
        self.settings, self.config, self.endpoint = settings, config, endpoint
        self.name = config.get("run_name") or "ToolLoop"
        self.model_calls = self.tool_calls = 0
        self.usage = TokenUsage()
        self.failures: dict[str, int] = {}
        self.status: LoopStatus | None = None
        self.hint = self.error = self.answer = None
        self.exception: Exception | None = None
        self.started = time.monotonic()
        wall = settings["max_wall_time"]
        self.deadline = None if wall is None else self.started + wall

    def pending_calls(self) -> list[dict[str, Any]]:
        """Calls of the last assistant message that no tool message answers yet.

        A conversation given to the loop may end in the middle of step 3 (say, a run that was
        interrupted); these calls are answered before the model is called again.
        """
        for position in range(len(self.transcript) - 1, -1, -1):
            message = self.transcript[position]
            if isinstance(message, AIMessage):
                answered = {m.tool_call_id for m in self.transcript[position + 1 :]}
                calls = [*message.tool_calls, *message.invalid_tool_calls]
                return [call for call in calls if call.get("id") not in answered]
            if not isinstance(message, ToolMessage):
                return []
        return []

    def may_call_model(self) -> bool:
        """Whether the model may be called again; if not, the status and hint say why."""
        settings = self.settings
        if self.status is not None:
            return False
        if self.model_calls >= settings["max_model_calls"]:
            self.status = LoopStatus.STEP_BUDGET_EXHAUSTED
            self.hint = (
                f"The model was called {self.model_calls} times (max_model_calls) and still "
                "asked for tools; raise max_model_calls (CLI: --max-steps)."
            )
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            self.status = LoopStatus.TIME_BUDGET_EXHAUSTED
            self.hint = (
                f"The run took longer than max_wall_time={settings['max_wall_time']:g} s; "
                "raise max_wall_time (CLI: --max-time)."
            )
        return self.status is None

    def accept(self, reply: BaseMessage) -> AIMessage:
        """Append a model reply (giving calls without an id one), count it and its tokens."""
        self.model_calls += 1
        if not isinstance(reply, AIMessage):
            reply = AIMessage(content=reply.content)
        if any(not call.get("id") for call in [*reply.tool_calls, *reply.invalid_tool_calls]):
            reply = reply.model_copy(
                update={
                    "tool_calls": [_with_id(c) for c in reply.tool_calls],
                    "invalid_tool_calls": [_with_id(c) for c in reply.invalid_tool_calls],
                }
            )
        self.usage += TokenUsage.of(reply)
        self.transcript.append(reply)
        if not reply.tool_calls and not reply.invalid_tool_calls:
            self.status, self.answer = LoopStatus.ANSWERED, reply.text
            if reply.response_metadata.get("finish_reason") == "length":
                self.hint = (
                    "The answer was cut off at the model's token limit (finish_reason 'length'): "
                    "raise max_tokens, or ask for a shorter answer."
                )
        return reply

    def model_failed(self, exc: Exception) -> None:
        """End the run on a model error, keeping the transcript."""
        self.status, self.exception = LoopStatus.MODEL_ERROR, exc
        where = f" (endpoint {self.endpoint})" if self.endpoint else ""
        self.error = f"the model call failed{where}: {type(exc).__name__}: {exc}"
        self.hint = (
            f"{_failure_hint(exc)} The transcript so far is kept: pass result.transcript to "
            "run() to continue."
        )

    def tool_options(self, config: RunnableConfig) -> dict[str, Any]:
        """Keyword arguments for :func:`toolkit.execution.execute_tool_calls` in this run."""
        settings = self.settings
        return {
            "parallel": settings["parallel"],
            "timeout": settings["tool_timeout"],
            "max_result_chars": settings["max_result_chars"],
            "config": config,
            "deadline": self.deadline,
        }

    def record(self, message: ToolMessage) -> ToolMessage:
        """Append a tool result, applying the retry budget (a note, or the end of the run)."""
        self.tool_calls += 1
        name, budget = message.name or "", self.settings["retry_budget"]
        if message.status != "error":
            self.failures[name] = 0
        else:
            count = self.failures[name] = self.failures.get(name, 0) + 1
            if count == budget and isinstance(message.content, str):
                note = (
                    f"\nTool {name!r} has now failed {count} times in a row: stop calling it, "
                    "and answer with what you have or use another tool."
                )
                message = message.model_copy(update={"content": message.content + note})
            elif count > budget and self.status is None:
                self.status = LoopStatus.RETRY_BUDGET_EXHAUSTED
                self.hint = (
                    f"Tool {name!r} failed {count} times in a row (retry_budget={budget}); fix "
                    "the tool or its description, or raise retry_budget."
                )
        self.transcript.append(message)
        return message

    def result(self) -> LoopResult:
        """The run's result so far."""
        return LoopResult(
            transcript=list(self.transcript),
            status=self.status or LoopStatus.ANSWERED,
            answer=self.answer,
            model_calls=self.model_calls,
            tool_calls=self.tool_calls,
            usage=self.usage,
            elapsed=time.monotonic() - self.started,
            hint=self.hint,
            error=self.error,
            exception=self.exception,
        )


def _failure_hint(exc: Exception) -> str:
    if isinstance(exc, (TimeoutError, openai.APITimeoutError, httpx.TimeoutException)):
        return (
            "The model did not answer in time: raise TOOLKIT_TIMEOUT (seconds per model reply) "
            "or use a faster model."
        )
    status = getattr(exc, "status_code", None)
    if status == 429 or (isinstance(status, int) and status >= 500):
        return (
            f"The provider is rate limiting or unavailable (HTTP {status}) even after retries: "
            "wait and run again, or raise max_retries."
        )
    if isinstance(exc, (ValueError, LookupError, TypeError)) and not isinstance(
        exc, openai.OpenAIError
    ):
        return (
            "The endpoint's reply was not a valid chat completion: check that the base URL "
            "points at an OpenAI-compatible API (it usually ends in /v1)."
        )
    return (
        "Check that the model endpoint is reachable and the provider settings are right "
        "(base URL, API key, model name)."
    )


def _with_id(call: dict[str, Any]) -> dict[str, Any]:
    return call if call.get("id") else {**call, "id": f"call_{uuid.uuid4().hex[:24]}"}
