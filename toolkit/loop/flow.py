"""The tool loop's control flow, written once, and the sync and async drivers that carry it out.

:func:`run_steps` is the loop of the seed's four steps::

    bound = model.bind_tools(tools)                    # step 1: bind (once, by ToolLoop)
    reply = bound.invoke(messages)                     # step 2: the model asks for tools
    for call in reply.tool_calls: tool.invoke(call)    # step 3: run them -> ToolMessages
    messages += [reply, *tool_messages]; invoke again  # step 4: until a plain answer

It decides everything (what comes next, and, through the :class:`~toolkit.loop.record.RunRecord`,
when the run ends) but waits for nothing: it yields each new message, and a request where it
needs the model (:class:`CallModel`) or the tools (:class:`RunCalls`). :func:`drive` carries the
requests out on the caller's thread and :func:`adrive` on an event loop; neither decides
anything, and a sync run pays for no event loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks.manager import AsyncCallbackManager, CallbackManager
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool

from toolkit.loop.execution import aexecute_tool_calls, execute_tool_calls
from toolkit.loop.record import RunRecord
from toolkit.loop.result import LoopResult

__all__ = [
    "Bound",
    "CallModel",
    "RunCalls",
    "adrive",
    "close_trace",
    "drive",
    "open_trace",
    "run_steps",
]


@dataclass(frozen=True)
class Bound:
    """What a run calls: the model bound to the tools, and the tools by name.

    Attributes:
        first: The model for the first call (bound with a forcing ``tool_choice``, if any).
        rest: The model for the later calls.
        tools: The bound tools by name.
    """

    first: Runnable
    rest: Runnable
    tools: Mapping[str, BaseTool]


@dataclass
class CallModel:
    """A request of the flow: call ``model`` on the transcript.

    Attributes:
        model: The bound model to call.
        reply: Set by the driver: the model's reply, or the exception the call raised.
    """

    model: Runnable
    reply: BaseMessage | Exception | None = None


@dataclass(frozen=True)
class RunCalls:
    """A request of the flow: run these tool calls, recording each result in the run.

    Attributes:
        calls: ``ToolCall`` and ``InvalidToolCall`` dicts, in call order.
    """

    calls: list[dict[str, Any]]


def run_steps(run: RunRecord, bound: Bound) -> Iterator[BaseMessage | CallModel | RunCalls]:
    """The loop: new messages, and the requests a driver must carry out, in order.

    Calls left unanswered by a given conversation are run first. Then the model is called
    (``bound.first`` the first time, ``bound.rest`` after) until it answers, fails or a budget
    runs out.

    Args:
        run: The run's record, which decides when the run ends.
        bound: The bound models.

    Yields:
        Each new message (for the driver to pass on), a :class:`CallModel` (the driver sets
        its ``reply`` before asking for the next item) or a :class:`RunCalls`.
    """
    yield from run.fresh
    calls = run.pending_calls()
    while True:
        if calls:  # step 3: every call is answered, in order; step 4: the answers are recorded
            yield RunCalls(calls)
        if not run.may_call_model():
            return
        request = CallModel(bound.first if run.model_calls == 0 else bound.rest)
        yield request  # step 2: the model answers, or asks for tools
        if isinstance(request.reply, Exception):
            run.model_failed(request.reply)
            return
        reply = run.accept(request.reply)
        yield reply
        calls = [*reply.tool_calls, *reply.invalid_tool_calls]
        if not calls:
            return


def drive(run: RunRecord, bound: Bound) -> Generator[BaseMessage, None, LoopResult]:
    """Carry out :func:`run_steps` on this thread, under the run's own trace.

    Args:
        run: The run's record.
        bound: What the run calls.

    Yields:
        Each new message.

    Returns:
        The result of the run.
    """
    tracer, child = open_trace(run)
    try:
        for step in run_steps(run, bound):
            if isinstance(step, CallModel):
                try:
                    step.reply = step.model.invoke(run.transcript, child)
                except Exception as exc:
                    step.reply = exc
            elif isinstance(step, RunCalls):
                options = run.tool_options(child)
                for message in execute_tool_calls(step.calls, bound.tools, **options):
                    yield run.record(message)
            else:
                yield step
    except BaseException as exc:
        close_trace(tracer, run, exc)
        raise
    close_trace(tracer, run)
    return run.result()


def open_trace(run: RunRecord) -> tuple[Any, RunnableConfig | None]:
    """Open a sync run's own trace: its run manager (``None`` without handlers), and the
    config every call in the run gets (its callbacks children of the run's trace)."""
    manager = _manager(run, CallbackManager)
    tracer = manager.on_chain_start(None, **_trace(run)) if manager.handlers else None
    child = patch_config(run.config, callbacks=tracer.get_child()) if tracer else run.given_config
    return tracer, child


def close_trace(tracer: Any, run: RunRecord, error: BaseException | None = None) -> None:
    """Close a sync run's own trace with its outcome, or with the exception that ended it."""
    if tracer is None:
        return
    if error is not None:
        tracer.on_chain_error(error)
    else:
        tracer.on_chain_end(_outputs(run.result()))


async def adrive(run: RunRecord, bound: Bound) -> AsyncIterator[BaseMessage]:
    """Carry out :func:`run_steps` on the running event loop, under the run's own trace.

    Async tools run on the event loop, sync tools in threads; the result is ``run.result()``.

    Args:
        run: The run's record.
        bound: What the run calls.

    Yields:
        Each new message.
    """
    manager = _manager(run, AsyncCallbackManager)
    tracer = await manager.on_chain_start(None, **_trace(run)) if manager.handlers else None
    child = patch_config(run.config, callbacks=tracer.get_child()) if tracer else run.given_config
    try:
        for step in run_steps(run, bound):
            if isinstance(step, CallModel):
                try:
                    step.reply = await step.model.ainvoke(run.transcript, child)
                except Exception as exc:
                    step.reply = exc
            elif isinstance(step, RunCalls):
                options = run.tool_options(child)
                async for message in aexecute_tool_calls(step.calls, bound.tools, **options):
                    yield run.record(message)
            else:
                yield step
    except BaseException as exc:
        if tracer:
            await tracer.on_chain_error(exc)
        raise
    if tracer:
        await tracer.on_chain_end(_outputs(run.result()))


def _manager(run: RunRecord, manager: type) -> Any:
    """The callback manager of a run: the config's callbacks, tags and metadata.

    With no handler at all (no callbacks, no tracing) the run opens no trace of its own.
    """
    config = run.config
    return manager.configure(
        config.get("callbacks"),
        inheritable_tags=config.get("tags"),
        inheritable_metadata=config.get("metadata"),
    )


def _trace(run: RunRecord) -> dict[str, Any]:
    """What the run's own trace starts with: its input messages, run id and name."""
    return {
        "inputs": {"messages": list(run.transcript)},
        "run_id": run.config.get("run_id"),
        "name": run.name,
    }


def _outputs(result: LoopResult) -> dict[str, Any]:
    """What the run's own trace ends with."""
    return {"status": result.status.value, "answer": result.answer, "messages": result.transcript}
