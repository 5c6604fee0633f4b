"""The books of a tool-loop run in progress: transcript, counters, token usage, budgets.

:class:`RunRecord` is what the control flow of :mod:`toolkit.loop.flow` consults and updates at
every step: it decides, from the budgets in :class:`~toolkit.loop.settings.LoopSettings`, when a
run ends, and what the :class:`~toolkit.loop.result.LoopResult` says about it (the hint naming
the setting to raise).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import httpx
import openai
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config

from toolkit.errors import ConfigError
from toolkit.loop.result import LoopResult, LoopStatus, TokenUsage
from toolkit.loop.settings import LoopSettings
from toolkit.wire import new_call_id

__all__ = ["RunRecord"]


class RunRecord:
    """The record of a run in progress: transcript, counters, token usage and budgets.

    The control flow drives the steps; this keeps the books and decides, from the budgets, when a
    run ends and what :class:`LoopResult` says about it.

    Args:
        question: A question, or the conversation so far (messages or message-likes).
        settings: The loop's settings.
        config: The LangChain config given to the loop, if any.
        endpoint: The model's base URL, named when a model call fails.

    Raises:
        ConfigError: The question is empty, or no messages were given.
    """

    def __init__(
        self,
        question: str | Sequence[Any],
        settings: LoopSettings,
        config: RunnableConfig | None,
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
        self.settings, self.endpoint = settings, endpoint
        #: The config as given (``None``: none), passed on as it is when the run opens no trace.
        self.given_config = config
        #: The config through ``ensure_config``: where the run's name, id and callbacks are read.
        self.config = ensure_config(config)
        self.name = self.config.get("run_name") or "ToolLoop"
        self.model_calls = self.tool_calls = 0
        self.usage = TokenUsage()
        self.failures: dict[str, int] = {}
        self.status: LoopStatus | None = None
        self.hint = self.error = self.answer = None
        self.exception: Exception | None = None
        self.started = time.monotonic()
        wall = settings.max_wall_time
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
        if self.model_calls >= settings.max_model_calls:
            self.status = LoopStatus.STEP_BUDGET_EXHAUSTED
            self.hint = (
                f"The model was called {self.model_calls} times (max_model_calls) and still "
                "asked for tools; raise max_model_calls (CLI: --max-steps)."
            )
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            self.status = LoopStatus.TIME_BUDGET_EXHAUSTED
            self.hint = (
                f"The run took longer than max_wall_time={settings.max_wall_time:g} s; "
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
                    "tool_calls": [_with_id(call) for call in reply.tool_calls],
                    "invalid_tool_calls": [_with_id(call) for call in reply.invalid_tool_calls],
                }
            )
        if reply.usage_metadata:
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

    def tool_options(self, config: RunnableConfig | None) -> dict[str, Any]:
        """Keyword arguments for :func:`toolkit.loop.execution.execute_tool_calls` in this run."""
        settings = self.settings
        return {
            "parallel": settings.parallel,
            "timeout": settings.tool_timeout,
            "max_result_chars": settings.max_result_chars,
            "config": config,
            "deadline": self.deadline,
        }

    def record(self, message: ToolMessage) -> ToolMessage:
        """Append a tool result, applying the retry budget (a note, or the end of the run)."""
        self.tool_calls += 1
        name, budget = message.name or "", self.settings.retry_budget
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
    return call if call.get("id") else {**call, "id": new_call_id()}
