"""What answers one tool call: the checks before it runs, its limits, and the verdict after.

The one core under every way the loop runs a call (:mod:`toolkit.loop.execution` for batches on
worker threads or an event loop, :func:`inline_call` for a call run on the loop's own thread):
:func:`prepare` checks a call against the tool's schema, :class:`Limits` says how long it may run,
and :func:`settle` turns its output, its exception or its running out of time into exactly one
``ToolMessage`` (through :func:`outcome`, :func:`failed` and :func:`timed_out`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException

from toolkit.errors import (
    InvalidArgumentsError,
    ToolExecutionError,
    ToolkitError,
    ToolTimeoutError,
    UnknownToolError,
)
from toolkit.loop.arguments import check_arguments, decode_arguments, describe_parameters
from toolkit.loop.settings import LoopSettings
from toolkit.wire import json_text

__all__ = [
    "Failure",
    "InlineCall",
    "Limits",
    "Ready",
    "failed",
    "has_coroutine",
    "inline_call",
    "invoke_sync",
    "is_async_only",
    "message_of",
    "outcome",
    "prepare",
    "settle",
    "timed_out",
]


@dataclass(frozen=True)
class Ready:
    """A call that passed every check: the tool and the LangChain ``ToolCall`` to invoke it with."""

    tool: BaseTool
    call: dict[str, Any]


@dataclass(frozen=True)
class Failure:
    """A call that failed: the error, and what the ``ToolMessage`` tells the model about it."""

    call_id: str
    name: str
    error: ToolkitError
    advice: str = ""

    def message(self) -> ToolMessage:
        text = f"Error: {self.error}{self.advice}"
        return ToolMessage(text, tool_call_id=self.call_id, name=self.name, status="error")


@dataclass(frozen=True)
class Limits:
    """What bounds each call of a batch: its own timeout, the run's deadline, the result size."""

    timeout: float | None
    deadline: float | None
    max_result_chars: int | None

    def remaining(self, started: float) -> tuple[float | None, bool]:
        """Seconds a call started at ``started`` may still run, and whether the deadline binds."""
        own = None if self.timeout is None else started + self.timeout
        if self.deadline is not None and (own is None or self.deadline < own):
            return max(self.deadline - time.monotonic(), 0.0), True
        return (None if own is None else max(own - time.monotonic(), 0.0)), False


def prepare(call: Mapping[str, Any], tools_by_name: Mapping[str, BaseTool]) -> Ready | Failure:
    call_id, name = call.get("id") or "", call.get("name") or ""
    tool = tools_by_name.get(name)
    if tool is None:
        unknown = UnknownToolError(name, sorted(tools_by_name))
        return Failure(call_id, name, unknown, " Use a name from this list exactly.")
    try:
        if call.get("type") == "invalid_tool_call":
            args = decode_arguments(call.get("args"))
        else:
            args = call.get("args") or {}
    except InvalidArgumentsError as exc:
        text = (
            f"cannot read the arguments for tool {name!r}: {exc}\n{describe_parameters(tool)} "
            "Send the arguments as a JSON object."
        )
        return Failure(call_id, name, InvalidArgumentsError(text))
    problems = check_arguments(tool, args)
    if problems:
        listed = "\n".join(f"- {problem}" for problem in problems)
        usage = describe_parameters(tool)
        text = f"invalid arguments for tool {name!r}:\n{listed}\n{usage} Call it again."
        return Failure(call_id, name, InvalidArgumentsError(text))
    return Ready(tool, {"name": name, "args": args, "id": call_id, "type": "tool_call"})


def settle(
    ready: Ready, ended: bool, result: Callable[[], Any], by_deadline: bool, limits: Limits
) -> ToolMessage | Failure:
    """The answer to a call that ended (``result()`` gives its output) or ran out of time."""
    if not ended:
        return timed_out(ready, limits.timeout, by_deadline)
    try:
        output = result()
    except Exception as exc:
        return failed(ready, exc)
    return outcome(ready, output, limits.max_result_chars)


def outcome(ready: Ready, output: Any, max_result_chars: int | None) -> ToolMessage:
    call = ready.call
    if isinstance(output, ToolMessage):
        message = output
    else:
        content = output if isinstance(output, str) else json_text(output)
        message = ToolMessage(content=content, tool_call_id=call["id"], name=call["name"])
    content = message.content
    text = content if isinstance(content, str) else json_text(content)
    if max_result_chars is not None and len(text) > max_result_chars:
        note = (
            f"\n[truncated: the result has {len(text)} characters; only the first "
            f"{max_result_chars} are shown (max_result_chars). Ask for less to see the rest.]"
        )
        message = message.model_copy(update={"content": text[:max_result_chars] + note})
    return message


def failed(ready: Ready, exc: BaseException) -> Failure:
    """A tool raised: its message (a ``ToolException`` speaks to the model), else type + message."""
    name, text = ready.call["name"], str(exc).strip() or "(no message)"
    what = "failed" if isinstance(exc, ToolException) else f"raised {type(exc).__name__}"
    end = "" if text.endswith((".", "!", "?")) else "."
    advice = "Check the arguments, or answer without this tool."
    error = ToolExecutionError(f"tool {name!r} {what}: {text}{end} {advice}")
    error.__cause__ = exc
    return Failure(ready.call["id"], name, error)


def timed_out(ready: Ready, timeout: float | None, by_deadline: bool) -> Failure:
    name = ready.call["name"]
    why = (
        "the run's time budget (max_wall_time) ran out while it was running"
        if by_deadline
        else f"it did not finish within {timeout:g} s (tool_timeout)"
    )
    error = ToolTimeoutError(
        f"tool {name!r} was stopped: {why}. Its result is discarded; try simpler arguments "
        "or answer without it."
    )
    return Failure(ready.call["id"], name, error)


def message_of(answer: ToolMessage | Failure) -> ToolMessage:
    return answer.message() if isinstance(answer, Failure) else answer


def is_async_only(tool: BaseTool) -> bool:
    return getattr(tool, "func", True) is None and getattr(tool, "coroutine", None) is not None


def has_coroutine(tool: BaseTool) -> bool:
    if hasattr(tool, "coroutine"):  # StructuredTool and Tool
        return tool.coroutine is not None
    return type(tool)._arun is not BaseTool._arun


def invoke_sync(ready: Ready, config: RunnableConfig | None) -> Any:
    if is_async_only(ready.tool):
        return asyncio.run(ready.tool.ainvoke(ready.call, config))
    return ready.tool.invoke(ready.call, config)


@dataclass(frozen=True)
class InlineCall:
    """One checked tool call to run on the calling thread while another thread keeps its time.

    Attributes:
        due: The :func:`time.monotonic` time after which the call counts as timed out (``None``:
            never).
        run: Runs the tool here and returns its ``ToolMessage`` (an error one if it raised or
            ended after ``due``); a call that failed its checks answers at once.
        give_up: The ``ToolMessage`` that answers the call when it is abandoned at ``due``.
    """

    due: float | None
    run: Callable[[], ToolMessage]
    give_up: Callable[[], ToolMessage]


def inline_call(
    call: Mapping[str, Any],
    tools_by_name: Mapping[str, BaseTool],
    *,
    timeout: float | None = LoopSettings.tool_timeout,
    max_result_chars: int | None = LoopSettings.max_result_chars,
    config: RunnableConfig | None = None,
    deadline: float | None = None,
) -> InlineCall:
    """Check one call and set its clock running, for a caller that runs it inline.

    The same checks, limits and answers as :func:`execute_tool_calls`, but the caller runs the
    tool on its own thread and another thread must give up on it at ``due`` (see
    :mod:`toolkit.loop.watch`).

    Args:
        call: A ``ToolCall`` or ``InvalidToolCall`` dict.
        tools_by_name: The bound tools by name.
        timeout: Seconds the call may run; ``None`` for no limit.
        max_result_chars: Longest result fed back; ``None`` for no limit.
        config: LangChain config passed to the tool.
        deadline: A :func:`time.monotonic` time the call may not run past.

    Returns:
        The call, ready to run.
    """
    limits = Limits(timeout, deadline, max_result_chars)
    ready = prepare(call, tools_by_name)
    if isinstance(ready, Failure):
        failure = ready.message()
        return InlineCall(None, lambda: failure, lambda: failure)
    started = time.monotonic()
    limit, by_deadline = limits.remaining(started)
    due = None if limit is None else started + limit

    def give_up() -> ToolMessage:
        return timed_out(ready, limits.timeout, by_deadline).message()

    def run() -> ToolMessage:
        answer = settle(ready, True, partial(invoke_sync, ready, config), by_deadline, limits)
        if due is not None and time.monotonic() > due:  # as late as one the caller gave up on
            return give_up()
        return message_of(answer)

    return InlineCall(due, run, give_up)
