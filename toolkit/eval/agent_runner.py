"""Run agent tasks through the tool loop and judge each final answer.

Each task runs in a fresh :class:`~toolkit.loop.ToolLoop` on the given chat model (any
provider), with the task's tools and step budget; :func:`run_tasks` keeps at most
``concurrency`` tasks in flight. A :class:`TaskResult` holds the verdict, the costs (model
calls, generated tokens, seconds) and the whole transcript as chat-completions messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from toolkit.eval.agent_checks import leaked_call, task_problems, ungrounded_numbers
from toolkit.eval.agent_tasks import AgentTask, task_tools
from toolkit.eval.pool import run_bounded
from toolkit.loop import ToolLoop, to_openai_messages
from toolkit.wire import content_text

__all__ = ["TaskResult", "run_task", "run_tasks"]


@dataclass
class TaskResult:
    """The outcome of one agent task.

    Attributes:
        id: The task's id.
        kind: The task's label.
        language: The task's language label.
        passed: Whether the final answer passed every check.
        problems: Why it did not (empty when it passed).
        answer: The final answer, or ``None``.
        status: How the run ended (``answered``, ``step_budget_exhausted``...).
        model_calls: Model calls the run made.
        calls: The tool calls made, each ``{"name", "args"}``.
        output_tokens: Tokens the model generated over the run (as it reported them).
        latency_s: Wall-clock seconds of the run.
        leaked_call: Whether the answer holds a call written as text.
        ungrounded: Numbers in the answer that neither the question nor a result gave.
        error: The error that ended the run, if any.
        messages: The transcript, as chat-completions message dicts.
    """

    id: str
    kind: str
    language: str
    passed: bool
    problems: list[str]
    answer: str | None
    status: str
    model_calls: int
    calls: list[dict[str, Any]] = field(default_factory=list)
    output_tokens: int = 0
    latency_s: float = 0.0
    leaked_call: bool = False
    ungrounded: list[str] = field(default_factory=list)
    error: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)


def _conversation(task: AgentTask) -> list[BaseMessage]:
    start: list[BaseMessage] = [SystemMessage(task.system)] if task.system else []
    return [*start, HumanMessage(task.question)]


def run_task(model: BaseChatModel, task: AgentTask) -> TaskResult:
    """Run one task through the tool loop and judge its answer.

    Args:
        model: A chat model that supports ``bind_tools``.
        task: The task.

    Returns:
        Its result (a run that ends without an answer fails, with the reason).
    """
    started = time.monotonic()
    loop = ToolLoop(model, task_tools(task), max_model_calls=task.max_steps)
    result = loop.run(_conversation(task))
    made = [
        {"name": call["name"], "args": call["args"]}
        for message in result.transcript
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    ]
    results = [content_text(m.content) for m in result.transcript if isinstance(m, ToolMessage)]
    sources = [task.question, task.system or "", *results]
    answer = result.answer if result.answered else None
    if answer is None:
        problems = [f"the run ended with {result.status.value}, not an answer"]
    else:
        problems = task_problems(task, answer, made, results)
    return TaskResult(
        id=task.id,
        kind=task.kind,
        language=task.language,
        passed=not problems,
        problems=problems,
        answer=answer,
        status=result.status.value,
        model_calls=result.model_calls,
        calls=made,
        output_tokens=result.usage.output_tokens,
        latency_s=round(time.monotonic() - started, 3),
        leaked_call=answer is not None and leaked_call(answer),
        ungrounded=ungrounded_numbers(answer, sources) if answer else [],
        error=result.error,
        messages=to_openai_messages(result.transcript),
    )


def run_tasks(
    model: BaseChatModel,
    tasks: Sequence[AgentTask],
    *,
    concurrency: int = 1,
    on_result: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    """Run tasks with at most ``concurrency`` in flight.

    Args:
        model: A chat model that supports ``bind_tools``.
        tasks: The tasks.
        concurrency: Tasks in flight at once (1 for the embedded model).
        on_result: Called with each result as it arrives.

    Returns:
        The results, in the order of ``tasks``.
    """
    return run_bounded(lambda task: run_task(model, task), tasks, concurrency, on_result)
