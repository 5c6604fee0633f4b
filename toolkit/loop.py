"""The four-step tool loop: bind, invoke, execute each tool call, feed the results back.

The seed's steps, visible in :meth:`ToolLoop.steps`::

    bound = model.bind_tools(tools)                    # step 1: bind
    reply = bound.invoke(messages)                     # step 2: the model asks for tools
    for call in reply.tool_calls: tool.invoke(call)    # step 3: run them -> ToolMessages
    messages += [reply, *tool_messages]; invoke again  # step 4: until a plain answer

What the seed leaves to the reader is made safe here. Every tool call is answered by exactly one
``ToolMessage``, in call order, before the next model call, whatever fails (see
:mod:`toolkit.execution`), so the transcript is always a valid chat-completions conversation.
Calls in one assistant message run concurrently. Budgets bound the run (model calls, wall-clock
time, per-tool timeout, consecutive failures of one tool), and a model error ends the run with
the transcript so far instead of losing it. When a budget ends a run, :attr:`LoopResult.hint`
names the setting to raise.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Generator, Sequence
from typing import Any

from langchain_core.callbacks.manager import AsyncCallbackManager, CallbackManager
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    BaseMessage,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config, patch_config
from langchain_core.tools import BaseTool, StructuredTool

from toolkit.arguments import recovering_chat_model
from toolkit.errors import ConfigError, UnknownToolError
from toolkit.execution import (
    DEFAULT_MAX_RESULT_CHARS,
    DEFAULT_TOOL_TIMEOUT,
    aexecute_tool_calls,
    execute_tool_calls,
)
from toolkit.transcript import LoopResult, RunRecord

__all__ = ["ToolLoop", "check_tool_choice"]

_FORCING = ("required", "any")
_PLAIN_CHOICES = ("auto", "none", *_FORCING)


def _as_tools(tools: Sequence[BaseTool | Callable[..., Any]]) -> dict[str, BaseTool]:
    by_name: dict[str, BaseTool] = {}
    for item in tools:
        tool = item if isinstance(item, BaseTool) else StructuredTool.from_function(item)
        if tool.name in by_name:
            raise ConfigError(f"two tools are named {tool.name!r}; tool names must be unique.")
        by_name[tool.name] = tool
    return by_name


def _forced_name(tool_choice: Any) -> str | None:
    if isinstance(tool_choice, str) and tool_choice not in _PLAIN_CHOICES:
        return tool_choice
    if isinstance(tool_choice, dict):
        return (tool_choice.get("function") or {}).get("name") or tool_choice.get("name")
    return None


def check_tool_choice(tool_choice: Any, tool_names: Collection[str]) -> None:
    """Check locally that a ``tool_choice`` naming a tool names one of the bound tools.

    Args:
        tool_choice: ``"auto"``, ``"none"``, ``"required"``, ``"any"``, a tool name, or an OpenAI
            ``{"type": "function", "function": {"name": ...}}`` dict.
        tool_names: The names of the tools that will be bound.

    Raises:
        ConfigError: The named tool is not among ``tool_names`` (the message lists them).
    """
    name = _forced_name(tool_choice)
    if name is not None and name not in tool_names:
        error = UnknownToolError(name, sorted(tool_names))
        raise ConfigError(
            f"tool_choice names a tool that is not bound. {error} Or use auto, none or required."
        )


def _bind(model: BaseChatModel, tools: list[BaseTool], settings: dict[str, Any]) -> tuple:
    """Bind the tools for the first model call and for the later ones (see ``tool_choice``)."""
    choice, options = settings["tool_choice"], {}
    if settings["parallel_tool_calls"] is not None:
        options["parallel_tool_calls"] = settings["parallel_tool_calls"]
    try:
        first = model.bind_tools(tools, tool_choice=choice, **options)
        forcing = _forced_name(choice) is not None or choice in _FORCING or choice is True
        return first, model.bind_tools(tools, **options) if forcing else first
    except NotImplementedError:
        raise ConfigError(
            f"{type(model).__name__} does not support bind_tools; use a chat model with tool "
            "calling, e.g. toolkit.load_chat_model()."
        ) from None


def _positive(name: str, value: float | None, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ConfigError(f"{name}={value!r} is not valid; use a number above 0.")


class ToolLoop:
    """Run a chat model with tools until it answers, safely (the seed's four steps).

    A forcing ``tool_choice`` (``"required"``, ``"any"`` or a tool name) applies to the first model
    call only; later calls let the model choose, so that it can answer.

    Args:
        model: Any LangChain chat model that supports ``bind_tools``.
        tools: LangChain tools (or plain functions, converted with ``StructuredTool``).
        tool_choice: Passed to ``bind_tools``; a named tool must be one of ``tools``.
        parallel_tool_calls: Passed to ``bind_tools`` when set.
        max_model_calls: Model calls per run before it ends with ``STEP_BUDGET_EXHAUSTED``.
        tool_timeout: Seconds one tool call may run (``None``: no limit).
        max_wall_time: Seconds a run may take (``None``: no limit); checked before each model
            call, and no tool call runs past it.
        max_result_chars: Longest tool result fed back to the model (``None``: no limit).
        retry_budget: Consecutive failures of one tool before the model is told to stop calling
            it; one more ends the run with ``RETRY_BUDGET_EXHAUSTED``.
        parallel: Run the calls of one assistant message concurrently.
        config: LangChain config (callbacks, tags, metadata) for the run and every call in it.

    Raises:
        ConfigError: A setting is invalid, tool names repeat, or ``tool_choice`` names no tool.
    """

    def __init__(
        self,
        model: BaseChatModel,
        tools: Sequence[BaseTool | Callable[..., Any]],
        *,
        tool_choice: str | dict[str, Any] | None = None,
        parallel_tool_calls: bool | None = None,
        max_model_calls: int = 10,
        tool_timeout: float | None = DEFAULT_TOOL_TIMEOUT,
        max_wall_time: float | None = 600.0,
        max_result_chars: int | None = DEFAULT_MAX_RESULT_CHARS,
        retry_budget: int = 3,
        parallel: bool = True,
        config: RunnableConfig | None = None,
    ) -> None:
        if not isinstance(max_model_calls, int) or isinstance(max_model_calls, bool):
            raise ConfigError(f"max_model_calls={max_model_calls!r} is not valid; use 1 or more.")
        for name, value in (("max_model_calls", max_model_calls), ("retry_budget", retry_budget)):
            _positive(name, value, optional=False)
        for name, value in (("tool_timeout", tool_timeout), ("max_wall_time", max_wall_time)):
            _positive(name, value)
        _positive("max_result_chars", max_result_chars)
        self.tools = _as_tools(tools)
        check_tool_choice(tool_choice, self.tools)
        self.model = recovering_chat_model(model)
        self.settings = {
            "tool_choice": tool_choice,
            "parallel_tool_calls": parallel_tool_calls,
            "max_model_calls": max_model_calls,
            "tool_timeout": tool_timeout,
            "max_wall_time": max_wall_time,
            "max_result_chars": max_result_chars,
            "retry_budget": retry_budget,
            "parallel": parallel,
        }
        self.config = config
        self._first, self._rest = _bind(self.model, list(self.tools.values()), self.settings)

    def steps(self, question: str | Sequence[Any]) -> Generator[BaseMessage, None, LoopResult]:
        """Run the loop, yielding every new message as it is appended to the transcript.

        The question (when a string) is yielded first, then each assistant reply and each tool
        result in call order. The generator's return value is the :class:`LoopResult`.

        Args:
            question: A question, or the conversation so far (messages or message-likes).

        Yields:
            Each new message.

        Returns:
            The result of the run.
        """
        run = self._record(question)
        manager = _manager(run, CallbackManager)
        tracer = manager.on_chain_start(None, **_trace(run)) if manager.handlers else None
        child = patch_config(run.config, callbacks=tracer.get_child()) if tracer else run.config
        try:
            yield from run.fresh
            pending = run.pending_calls()
            for message in execute_tool_calls(pending, self.tools, **run.tool_options(child)):
                yield run.record(message)
            while run.may_call_model():  # step 1, binding, was done once in __init__
                try:  # step 2: the model answers, or asks for tools
                    reply = run.accept(self._bound(run).invoke(run.transcript, child))
                except Exception as exc:
                    run.model_failed(exc)
                    break
                yield reply
                calls = [*reply.tool_calls, *reply.invalid_tool_calls]
                if not calls:
                    break
                # step 3: run every call (one ToolMessage each, in call order); step 4: append
                # them so that the next model call sees them
                for message in execute_tool_calls(calls, self.tools, **run.tool_options(child)):
                    yield run.record(message)
        except BaseException as exc:
            if tracer:
                tracer.on_chain_error(exc)
            raise
        result = run.result()
        if tracer:
            tracer.on_chain_end(_outputs(result))
        return result

    def run(
        self,
        question: str | Sequence[Any],
        *,
        on_message: Callable[[BaseMessage], None] | None = None,
    ) -> LoopResult:
        """Run the loop to the end.

        Args:
            question: A question, or the conversation so far.
            on_message: Called with every new message as it is appended (for live display).

        Returns:
            The result: transcript, status, answer, model calls, token usage and a hint.
        """
        steps = self.steps(question)
        while True:
            try:
                message = next(steps)
            except StopIteration as stop:
                return stop.value
            if on_message is not None:
                on_message(message)

    async def asteps(self, question: str | Sequence[Any]) -> AsyncIterator[BaseMessage]:
        """Async :meth:`steps`: async tools run on the event loop, sync tools in threads.

        Args:
            question: A question, or the conversation so far.

        Yields:
            Each new message.
        """
        async for message in self._asteps(self._record(question)):
            yield message

    async def arun(
        self,
        question: str | Sequence[Any],
        *,
        on_message: Callable[[BaseMessage], None] | None = None,
    ) -> LoopResult:
        """Async :meth:`run`.

        Args:
            question: A question, or the conversation so far.
            on_message: Called with every new message as it is appended.

        Returns:
            The result of the run.
        """
        run = self._record(question)
        async for message in self._asteps(run):
            if on_message is not None:
                on_message(message)
        return run.result()

    def _record(self, question: str | Sequence[Any]) -> RunRecord:
        endpoint = getattr(self.model, "openai_api_base", None)
        return RunRecord(question, self.settings, ensure_config(self.config), endpoint)

    def _bound(self, run: RunRecord) -> Any:
        return self._first if run.model_calls == 0 else self._rest

    async def _asteps(self, run: RunRecord) -> AsyncIterator[BaseMessage]:
        manager = _manager(run, AsyncCallbackManager)
        tracer = await manager.on_chain_start(None, **_trace(run)) if manager.handlers else None
        child = patch_config(run.config, callbacks=tracer.get_child()) if tracer else run.config
        try:
            for message in run.fresh:
                yield message
            pending = run.pending_calls()
            async for message in aexecute_tool_calls(
                pending, self.tools, **run.tool_options(child)
            ):
                yield run.record(message)
            while run.may_call_model():
                try:
                    reply = run.accept(await self._bound(run).ainvoke(run.transcript, child))
                except Exception as exc:
                    run.model_failed(exc)
                    break
                yield reply
                calls = [*reply.tool_calls, *reply.invalid_tool_calls]
                if not calls:
                    break
                results = aexecute_tool_calls(calls, self.tools, **run.tool_options(child))
                async for message in results:
                    yield run.record(message)
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
