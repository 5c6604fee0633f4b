"""Run tool calls safely: one call in, exactly one :class:`ToolMessage` out, whatever happens.

This is step 3 of the seed's four steps (``tool.invoke(tool_call)`` returns a ``ToolMessage``),
guarded against everything section 7.4.3 of the seed warns about and a little more. A failed call
becomes a ``ToolMessage`` with the call's id and ``status="error"`` whose text tells the model what
went wrong and how to call again:

* an unknown tool name (the message lists the valid names);
* arguments that are not valid JSON (LangChain's ``invalid_tool_calls``: raw text + parse error);
* valid JSON that is not an object; a double-encoded object (a JSON string holding an object) is
  decoded and the call runs;
* missing, unexpected or wrongly typed arguments, checked against the schema the model was shown
  (LangChain itself drops unexpected arguments silently; here they are reported and the tool does
  not run, because they usually mean the model misread the schema);
* an exception inside the tool (its type and message);
* a tool that runs past its timeout;
* a result longer than ``max_result_chars`` (truncated, with a note; the call still succeeds).

Timeouts: synchronous tools run on daemon threads (reused between calls) and asynchronous tools
as tasks on the event loop, which are cancelled when they time out. Python cannot stop a thread,
so a synchronous tool that times out keeps running in the background until its function returns;
its result is then discarded, and a daemon thread never keeps the process alive.
(:meth:`ToolLoop.run` runs a single call inline on its own worker thread instead, see
:mod:`toolkit.loop.watch`.)

Each failure is a :class:`~toolkit.errors.ToolCallError` (the model's mistake) or a
:class:`~toolkit.errors.ToolExecutionError` (the tool's), whose message becomes the
``ToolMessage``; :func:`execute_tool_call` raises it instead with ``raise_errors=True``.

The sync and async executors share one core, :mod:`toolkit.loop.answers` (the checks before a
call, its limits and the verdict once it has ended or run out of time), and the start of a batch
(:func:`_start_all`); each only waits in its own way.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from toolkit.loop.answers import (
    Failure,
    Limits,
    Ready,
    has_coroutine,
    invoke_sync,
    message_of,
    prepare,
    settle,
)
from toolkit.loop.settings import LoopSettings
from toolkit.loop.workers import WORKERS

__all__ = ["aexecute_tool_calls", "execute_tool_call", "execute_tool_calls"]


def _start_all(
    prepared: list[Ready | Failure], start: Callable[[Ready, threading.Event | None], Any]
) -> dict[int, tuple[Any, float]]:
    """Start every ready call of a batch together (threads wait at a gate until all are in)."""
    ready = [(index, item) for index, item in enumerate(prepared) if isinstance(item, Ready)]
    gate = threading.Event() if len(ready) > 1 else None
    started = {index: (start(item, gate), time.monotonic()) for index, item in ready}
    if gate is not None:
        gate.set()
    return started


def _answers(
    tool_calls: Sequence[Mapping[str, Any]],
    tools_by_name: Mapping[str, BaseTool],
    parallel: bool,
    limits: Limits,
    config: RunnableConfig | None,
) -> Iterator[ToolMessage | Failure]:
    """The sync executor: each call's answer, in call order, as soon as it is known."""
    prepared = [prepare(call, tools_by_name) for call in tool_calls]
    bounded = limits.timeout is not None or limits.deadline is not None
    if not bounded and (not parallel or len(prepared) < 2):  # nothing to wait for: run inline
        for ready in prepared:
            if isinstance(ready, Failure):
                yield ready
            else:
                yield settle(ready, True, partial(invoke_sync, ready, config), False, limits)
        return

    def start(ready: Ready, gate: threading.Event | None) -> Any:
        return WORKERS.submit(partial(invoke_sync, ready, config), gate)

    running = _start_all(prepared, start) if parallel else {}
    for index, ready in enumerate(prepared):
        if isinstance(ready, Failure):
            yield ready
            continue
        future, started = running.get(index) or (start(ready, None), time.monotonic())
        limit, by_deadline = limits.remaining(started)
        try:
            future.exception(limit)  # waits; a tool's own TimeoutError is its result
            ended = True
        except FutureTimeout:
            ended = False
        yield settle(ready, ended, future.result, by_deadline, limits)


def execute_tool_calls(
    tool_calls: Sequence[Mapping[str, Any]],
    tools_by_name: Mapping[str, BaseTool],
    *,
    parallel: bool = True,
    timeout: float | None = LoopSettings.tool_timeout,
    max_result_chars: int | None = LoopSettings.max_result_chars,
    config: RunnableConfig | None = None,
    deadline: float | None = None,
) -> Iterator[ToolMessage]:
    """Run several tool calls, yielding exactly one ``ToolMessage`` per call, in call order.

    With ``parallel`` every valid call starts at once, each in its own thread; results are still
    yielded in call order, each as soon as it and those before it are done.

    Args:
        tool_calls: ``ToolCall`` or ``InvalidToolCall`` dicts, each with an ``id``.
        tools_by_name: The bound tools by name.
        parallel: Run the calls concurrently (``False``: one after another).
        timeout: Seconds each call may run; ``None`` for no limit.
        max_result_chars: Longest result fed back; ``None`` for no limit.
        config: LangChain config passed to every tool (callbacks, tags, metadata).
        deadline: A :func:`time.monotonic` time no call may run past (the run's time budget).

    Yields:
        One ``ToolMessage`` per call, with the call's id; ``status="error"`` when it failed.
    """
    limits = Limits(timeout, deadline, max_result_chars)
    return map(message_of, _answers(tool_calls, tools_by_name, parallel, limits, config))


def execute_tool_call(
    tool_call: Mapping[str, Any],
    tools_by_name: Mapping[str, BaseTool],
    *,
    timeout: float | None = LoopSettings.tool_timeout,
    max_result_chars: int | None = LoopSettings.max_result_chars,
    config: RunnableConfig | None = None,
    raise_errors: bool = False,
) -> ToolMessage:
    """Run one tool call safely and return exactly one ``ToolMessage`` for it.

    Args:
        tool_call: A ``ToolCall`` (``AIMessage.tool_calls``) or an ``InvalidToolCall``
            (``AIMessage.invalid_tool_calls``) dict.
        tools_by_name: The bound tools by name.
        timeout: Seconds the tool may run; ``None`` for no limit.
        max_result_chars: Longest result fed back; ``None`` for no limit.
        config: LangChain config passed to the tool.
        raise_errors: Raise the error a failed call would be answered with, instead of
            returning it as a ``ToolMessage``. (A tool that answers with its own error
            ``ToolMessage``, e.g. through ``handle_tool_error``, still returns it.)

    Returns:
        The tool's result, or an error (``status="error"``) telling the model what to fix.

    Raises:
        UnknownToolError: With ``raise_errors``, the tool is not in ``tools_by_name``.
        InvalidArgumentsError: With ``raise_errors``, the arguments are not a JSON object that
            fits the tool's schema.
        ToolTimeoutError: With ``raise_errors``, the tool ran past ``timeout``.
        ToolExecutionError: With ``raise_errors``, the tool raised (the ``__cause__``).
    """
    limits = Limits(timeout, None, max_result_chars)
    answer = next(_answers([tool_call], tools_by_name, False, limits, config))
    if raise_errors and isinstance(answer, Failure):
        raise answer.error
    return message_of(answer)


def _launch(ready: Ready, config: RunnableConfig | None, gate: threading.Event | None) -> Any:
    """Start one call: async tools as a task on the running loop, sync tools in a thread."""
    if has_coroutine(ready.tool):
        return asyncio.ensure_future(ready.tool.ainvoke(ready.call, config))
    return asyncio.wrap_future(WORKERS.submit(partial(ready.tool.invoke, ready.call, config), gate))


async def aexecute_tool_calls(
    tool_calls: Sequence[Mapping[str, Any]],
    tools_by_name: Mapping[str, BaseTool],
    *,
    parallel: bool = True,
    timeout: float | None = LoopSettings.tool_timeout,
    max_result_chars: int | None = LoopSettings.max_result_chars,
    config: RunnableConfig | None = None,
    deadline: float | None = None,
) -> AsyncIterator[ToolMessage]:
    """Async :func:`execute_tool_calls`: async tools run on the event loop, sync ones in threads.

    Args:
        tool_calls: ``ToolCall`` or ``InvalidToolCall`` dicts, each with an ``id``.
        tools_by_name: The bound tools by name.
        parallel: Run the calls concurrently (``False``: one after another).
        timeout: Seconds each call may run; ``None`` for no limit.
        max_result_chars: Longest result fed back; ``None`` for no limit.
        config: LangChain config passed to every tool.
        deadline: A :func:`time.monotonic` time no call may run past.

    Yields:
        One ``ToolMessage`` per call, in call order.
    """
    limits = Limits(timeout, deadline, max_result_chars)
    prepared = [prepare(call, tools_by_name) for call in tool_calls]

    async def answer(ready: Ready, running: asyncio.Future, started: float) -> ToolMessage:
        limit, by_deadline = limits.remaining(started)
        done, _ = await asyncio.wait({running}, timeout=limit)
        if not done:
            running.cancel()
        return message_of(settle(ready, bool(done), running.result, by_deadline, limits))

    launched: dict[int, tuple[Any, float]] = {}
    tasks: dict[int, asyncio.Future] = {}
    if parallel:
        launched = _start_all(prepared, lambda ready, gate: _launch(ready, config, gate))
        tasks = {i: asyncio.ensure_future(answer(prepared[i], *run)) for i, run in launched.items()}
    try:
        for index, ready in enumerate(prepared):
            if isinstance(ready, Failure):
                yield ready.message()
            elif parallel:
                yield await tasks[index]
            else:
                yield await answer(ready, _launch(ready, config, None), time.monotonic())
    finally:  # only does something when the caller stops early
        for future in [*tasks.values(), *(running for running, _ in launched.values())]:
            future.cancel()
