"""What a run of the tool loop returns: its transcript, why it ended, what it cost.

:class:`LoopResult` is the outcome of one run (:meth:`LoopResult.raise_for_status` turns a run
that did not answer into an exception); :func:`to_openai_messages` turns a transcript into
chat-completions message dicts (what ``toolkit run --json`` prints).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, convert_to_openai_messages

from toolkit.errors import BudgetExceededError, ModelError

__all__ = ["LoopResult", "LoopStatus", "TokenUsage", "to_openai_messages"]


class LoopStatus(str, Enum):
    """Why a run ended."""

    ANSWERED = "answered"
    STEP_BUDGET_EXHAUSTED = "step_budget_exhausted"
    TIME_BUDGET_EXHAUSTED = "time_budget_exhausted"
    RETRY_BUDGET_EXHAUSTED = "retry_budget_exhausted"
    MODEL_ERROR = "model_error"


#: The setting that bounds each budget, named by :class:`BudgetExceededError`.
_BUDGET_SETTINGS = {
    LoopStatus.STEP_BUDGET_EXHAUSTED: "max_model_calls",
    LoopStatus.TIME_BUDGET_EXHAUSTED: "max_wall_time",
    LoopStatus.RETRY_BUDGET_EXHAUSTED: "retry_budget",
}


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

    def raise_for_status(self) -> LoopResult:
        """Return the result if the run answered; else raise the error that says why it did not.

        For code that would rather handle a run that did not answer as an exception, e.g.
        ``answer = loop.run(question).raise_for_status().answer``.

        Returns:
            This result, when ``status`` is ``ANSWERED``.

        Raises:
            BudgetExceededError: A budget ended the run; its message is :attr:`hint` and its
                ``setting`` names the setting to raise (``max_model_calls``, ``max_wall_time``
                or ``retry_budget``).
            ModelError: A model call failed; it says what failed and what to do, and is
                chained from the model's own exception (:attr:`exception`).
        """
        if self.status is LoopStatus.ANSWERED:
            return self
        if self.status is LoopStatus.MODEL_ERROR:
            error = self.error or "the model call failed"
            end = "" if error.endswith((".", "!", "?")) else "."
            raise ModelError(f"{error}{end} {self.hint}") from self.exception
        raise BudgetExceededError(self.hint or self.status.value, _BUDGET_SETTINGS[self.status])

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
