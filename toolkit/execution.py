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
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException

from toolkit.arguments import (
    check_arguments,
    decode_arguments,
    describe_parameters,
)
from toolkit.errors import InvalidArgumentsError, UnknownToolError

__all__ = [
    "DEFAULT_MAX_RESULT_CHARS",
    "DEFAULT_TOOL_TIMEOUT",
    "aexecute_tool_calls",
    "execute_tool_call",
    "execute_tool_calls",
]

#: Seconds one tool call may run before it is abandoned.
DEFAULT_TOOL_TIMEOUT = 60.0
#: Characters of a tool result fed back to the model; the rest is cut with a note.
DEFAULT_MAX_RESULT_CHARS = 20_000


@dataclass(frozen=True)
class _Ready:
    """A call that passed every check: the tool and the LangChain ``ToolCall`` to invoke it with."""

    tool: BaseTool
    call: dict[str, Any]


def _prepare(
    call: Mapping[str, Any], tools_by_name: Mapping[str, BaseTool]
) -> _Ready | ToolMessage:
    call_id, name = call.get("id") or "", call.get("name") or ""
    tool = tools_by_name.get(name)
    if tool is None:
        error = UnknownToolError(name, sorted(tools_by_name))
        return _error(call_id, name, f"{error} Use a name from this list exactly.")
    try:
        if call.get("type") == "invalid_tool_call":
            args = decode_arguments(call.get("args"))
        else:
            args = call.get("args") or {}
    except InvalidArgumentsError as exc:
        return _error(
            call_id,
            name,
            f"cannot read the arguments for tool {name!r}: {exc}\n{describe_parameters(tool)} "
            "Send the arguments as a JSON object.",
        )
    problems = check_arguments(tool, args)
    if problems:
        listed = "\n".join(f"- {problem}" for problem in problems)
        usage = describe_parameters(tool)
        text = f"invalid arguments for tool {name!r}:\n{listed}\n{usage} Call it again."
        return _error(call_id, name, text)
    return _Ready(tool, {"name": name, "args": args, "id": call_id, "type": "tool_call"})


def _error(call_id: str, name: str, text: str) -> ToolMessage:
    return ToolMessage(content=f"Error: {text}", tool_call_id=call_id, name=name, status="error")


def _outcome(ready: _Ready, output: Any, max_result_chars: int | None) -> ToolMessage:
    call = ready.call
    if isinstance(output, ToolMessage):
        message = output
    else:
        content = output if isinstance(output, str) else _stringify(output)
        message = ToolMessage(content=content, tool_call_id=call["id"], name=call["name"])
    content = message.content
    text = content if isinstance(content, str) else _stringify(content)
    if max_result_chars is not None and len(text) > max_result_chars:
        note = (
            f"\n[truncated: the result has {len(text)} characters; only the first "
            f"{max_result_chars} are shown (max_result_chars). Ask for less to see the rest.]"
        )
        message = message.model_copy(update={"content": text[:max_result_chars] + note})
    return message


def _failure(ready: _Ready, exc: BaseException) -> ToolMessage:
    """A tool raised: its message (a ``ToolException`` speaks to the model), else type + message."""
    name, text = ready.call["name"], str(exc).strip() or "(no message)"
    what = "failed" if isinstance(exc, ToolException) else f"raised {type(exc).__name__}"
    end = "" if text.endswith((".", "!", "?")) else "."
    advice = "Check the arguments, or answer without this tool."
    return _error(ready.call["id"], name, f"tool {name!r} {what}: {text}{end} {advice}")


def _timed_out(ready: _Ready, timeout: float | None, by_deadline: bool) -> ToolMessage:
    name = ready.call["name"]
    why = (
        "the run's time budget (max_wall_time) ran out while it was running"
        if by_deadline
        else f"it did not finish within {timeout:g} s (tool_timeout)"
    )
    return _error(
        ready.call["id"],
        name,
        f"tool {name!r} was stopped: {why}. Its result is discarded; try simpler arguments "
        "or answer without it.",
    )


def _remaining(
    started: float, timeout: float | None, deadline: float | None
) -> tuple[float | None, bool]:
    """Seconds a call started at ``started`` may still run, and whether the run's deadline binds."""
    own = None if timeout is None else started + timeout
    if deadline is not None and (own is None or deadline < own):
        return max(deadline - time.monotonic(), 0.0), True
    return (None if own is None else max(own - time.monotonic(), 0.0)), False


def _is_async_only(tool: BaseTool) -> bool:
    return getattr(tool, "func", True) is None and getattr(tool, "coroutine", None) is not None


def _has_coroutine(tool: BaseTool) -> bool:
    if hasattr(tool, "coroutine"):  # StructuredTool and Tool
        return tool.coroutine is not None
    return type(tool)._arun is not BaseTool._arun


def _invoke_sync(ready: _Ready, config: RunnableConfig | None) -> Any:
    if _is_async_only(ready.tool):
        return asyncio.run(ready.tool.ainvoke(ready.call, config))
    return ready.tool.invoke(ready.call, config)


class _DaemonWorkers:
    """Reusable daemon threads: a call runs on an idle one, or on a new one when none is idle.

    Unlike a ``ThreadPoolExecutor`` the threads are daemons, so a tool that never returns cannot
    keep the process alive, and there is no cap: a call never waits for a free thread. Threads
    idle for ``idle_seconds`` exit.
    """

    def __init__(self, idle_seconds: float = 60.0) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0
        self._idle_seconds = idle_seconds

    def submit(self, function: Callable[[], Any], gate: threading.Event | None = None) -> Future:
        future: Future = Future()
        job = (future, contextvars.copy_context(), function, gate)
        with self._lock:
            self._jobs.put(job)
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="toolkit-tool", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            try:
                future, context, function, gate = self._jobs.get(timeout=self._idle_seconds)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._idle -= 1
                        return
                continue
            if gate is not None:
                gate.wait()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(context.run(function))
                except BaseException as exc:  # delivered to the waiting caller, never lost
                    future.set_exception(exc)
            with self._lock:
                self._idle += 1


_WORKERS = _DaemonWorkers()


def execute_tool_calls(
    tool_calls: Sequence[Mapping[str, Any]],
    tools_by_name: Mapping[str, BaseTool],
    *,
    parallel: bool = True,
    timeout: float | None = DEFAULT_TOOL_TIMEOUT,
    max_result_chars: int | None = DEFAULT_MAX_RESULT_CHARS,
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
    prepared = [_prepare(call, tools_by_name) for call in tool_calls]
    threaded = timeout is not None or deadline is not None or (parallel and len(prepared) > 1)
    running: dict[int, tuple[Future, float]] = {}

    def start(index: int, gate: threading.Event | None = None) -> None:
        ready = prepared[index]
        if isinstance(ready, _Ready) and threaded:
            future = _WORKERS.submit(lambda: _invoke_sync(ready, config), gate)
            running[index] = (future, time.monotonic())

    if parallel:
        gate = threading.Event()
        for index in range(len(prepared)):
            start(index, gate)
        gate.set()
    for index, ready in enumerate(prepared):
        if isinstance(ready, ToolMessage):
            yield ready
            continue
        if not parallel:
            start(index)
        try:
            if not threaded:
                output = _invoke_sync(ready, config)
            else:
                future, started = running[index]
                limit, by_deadline = _remaining(started, timeout, deadline)
                try:
                    output = future.result(limit)
                except FutureTimeout:
                    if future.done():
                        raise
                    yield _timed_out(ready, timeout, by_deadline)
                    continue
        except Exception as exc:
            yield _failure(ready, exc)
        else:
            yield _outcome(ready, output, max_result_chars)


def execute_tool_call(
    tool_call: Mapping[str, Any],
    tools_by_name: Mapping[str, BaseTool],
    *,
    timeout: float | None = DEFAULT_TOOL_TIMEOUT,
    max_result_chars: int | None = DEFAULT_MAX_RESULT_CHARS,
    config: RunnableConfig | None = None,
) -> ToolMessage:
    """Run one tool call safely and return exactly one ``ToolMessage`` for it.

    Args:
        tool_call: A ``ToolCall`` (``AIMessage.tool_calls``) or an ``InvalidToolCall``
            (``AIMessage.invalid_tool_calls``) dict.
        tools_by_name: The bound tools by name.
        timeout: Seconds the tool may run; ``None`` for no limit.
        max_result_chars: Longest result fed back; ``None`` for no limit.
        config: LangChain config passed to the tool.

    Returns:
        The tool's result, or an error (``status="error"``) telling the model what to fix.
    """
    options = {"timeout": timeout, "max_result_chars": max_result_chars, "config": config}
    return next(execute_tool_calls([tool_call], tools_by_name, parallel=False, **options))


def _launch(ready: _Ready, config: RunnableConfig | None, gate: threading.Event | None) -> Any:
    """Start one call: async tools as a task on the running loop, sync tools in a thread."""
    if _has_coroutine(ready.tool):
        return asyncio.ensure_future(ready.tool.ainvoke(ready.call, config))
    return asyncio.wrap_future(_WORKERS.submit(lambda: ready.tool.invoke(ready.call, config), gate))


async def aexecute_tool_calls(
    tool_calls: Sequence[Mapping[str, Any]],
    tools_by_name: Mapping[str, BaseTool],
    *,
    parallel: bool = True,
    timeout: float | None = DEFAULT_TOOL_TIMEOUT,
    max_result_chars: int | None = DEFAULT_MAX_RESULT_CHARS,
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
    prepared = [_prepare(call, tools_by_name) for call in tool_calls]

    async def settle(ready: _Ready, running: asyncio.Future, started: float) -> ToolMessage:
        limit, by_deadline = _remaining(started, timeout, deadline)
        done, _ = await asyncio.wait({running}, timeout=limit)
        if not done:
            running.cancel()
            return _timed_out(ready, timeout, by_deadline)
        try:
            output = running.result()
        except Exception as exc:
            return _failure(ready, exc)
        return _outcome(ready, output, max_result_chars)

    tasks: dict[int, asyncio.Future] = {}
    launched: dict[int, tuple[asyncio.Future, float]] = {}
    if parallel:
        gate = threading.Event()
        launched = {
            index: (_launch(ready, config, gate), time.monotonic())
            for index, ready in enumerate(prepared)
            if isinstance(ready, _Ready)
        }
        gate.set()
        tasks = {i: asyncio.ensure_future(settle(prepared[i], *run)) for i, run in launched.items()}
    try:
        for index, ready in enumerate(prepared):
            if isinstance(ready, ToolMessage):
                yield ready
            elif parallel:
                yield await tasks[index]
            else:
                yield await settle(ready, _launch(ready, config, None), time.monotonic())
    finally:  # only does something when the caller stops early
        for future in [*tasks.values(), *(running for running, _ in launched.values())]:
            future.cancel()


def _stringify(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
