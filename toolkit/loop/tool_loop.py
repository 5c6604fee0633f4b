"""The tool loop: run a chat model with tools until it answers, safely.

What the seed leaves to the reader is made safe here. Every tool call is answered by exactly one
``ToolMessage``, in call order, before the next model call, whatever fails (see
:mod:`toolkit.loop.execution`), so the transcript is always a valid chat-completions
conversation. Calls in one assistant message run concurrently. Budgets bound the run (model
calls, wall-clock time, per-tool timeout, consecutive failures of one tool), and a model error
ends the run with the transcript so far instead of losing it. When a budget ends a run,
:attr:`LoopResult.hint` names the setting to raise. The steps themselves are
:func:`toolkit.loop.flow.run_steps`, one control flow for :meth:`ToolLoop.run` and
:meth:`ToolLoop.arun` alike.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Generator, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool

from toolkit.errors import ConfigError
from toolkit.loop.flow import Bound, adrive, drive
from toolkit.loop.record import RunRecord
from toolkit.loop.recovery import recovering_chat_model
from toolkit.loop.result import LoopResult
from toolkit.loop.settings import LoopSettings, check_tool_choice, forces_a_call
from toolkit.loop.watch import WatchedRun

__all__ = ["ToolLoop"]

_DEFAULTS = LoopSettings()


class ToolLoop:
    """Run a chat model with tools until it answers, safely (the seed's four steps).

    A forcing ``tool_choice`` (``"required"``, ``"any"`` or a tool name) applies to the first model
    call only; later calls let the model choose, so that it can answer.

    Args:
        model: Any LangChain chat model that supports ``bind_tools``.
        tools: LangChain tools (or plain functions, converted with ``StructuredTool``).
        settings: How to bind the tools and what bounds a run (default: :class:`LoopSettings`'s
            defaults).
        config: LangChain config (callbacks, tags, metadata) for the run and every call in it.
        **options: Settings to change, by name (``max_model_calls=5``, ``tool_timeout=None``,
            ...); see :class:`LoopSettings` for each one and its default.

    Raises:
        ConfigError: A setting is invalid or unknown, tool names repeat, or ``tool_choice`` names
            no tool.
    """

    def __init__(
        self,
        model: BaseChatModel,
        tools: Sequence[BaseTool | Callable[..., Any]],
        *,
        settings: LoopSettings | None = None,
        config: RunnableConfig | None = None,
        **options: Any,
    ) -> None:
        self.settings = (settings or _DEFAULTS).replace(**options)
        self.tools = _as_tools(tools)
        check_tool_choice(self.settings.tool_choice, self.tools)
        self.model = recovering_chat_model(model)
        self.config = config
        self._bound = _bind(self.model, self.tools, self.settings)

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
        return (yield from drive(self._record(question), self._bound))

    def run(
        self,
        question: str | Sequence[Any],
        *,
        on_message: Callable[[BaseMessage], None] | None = None,
    ) -> LoopResult:
        """Run the loop to the end.

        With a time limit set (``tool_timeout`` or ``max_wall_time``, the default) the run is
        carried out on one worker thread, which calls the model and runs a single tool call
        inline, while this thread keeps the time and takes over from a call that outlives its
        limit (see :mod:`toolkit.loop.watch`); ``on_message`` is still called on this thread.
        Without limits everything runs on this thread.

        Args:
            question: A question, or the conversation so far.
            on_message: Called with every new message as it is appended (for live display).

        Returns:
            The result: transcript, status, answer, model calls, token usage and a hint.
        """
        settings = self.settings
        if settings.tool_timeout is not None or settings.max_wall_time is not None:
            return WatchedRun(self._record(question), self._bound, on_message).result()
        steps = self.steps(question)  # nothing to keep to time: the run stays on this thread
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
        async for message in adrive(self._record(question), self._bound):
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
        async for message in adrive(run, self._bound):
            if on_message is not None:
                on_message(message)
        return run.result()

    def _record(self, question: str | Sequence[Any]) -> RunRecord:
        endpoint = getattr(self.model, "openai_api_base", None)
        return RunRecord(question, self.settings, self.config, endpoint)


def _as_tools(tools: Sequence[BaseTool | Callable[..., Any]]) -> dict[str, BaseTool]:
    by_name: dict[str, BaseTool] = {}
    for item in tools:
        tool = item if isinstance(item, BaseTool) else StructuredTool.from_function(item)
        if tool.name in by_name:
            raise ConfigError(f"two tools are named {tool.name!r}; tool names must be unique.")
        by_name[tool.name] = tool
    return by_name


def _bind(model: BaseChatModel, tools: dict[str, BaseTool], settings: LoopSettings) -> Bound:
    """Bind the tools for the first model call and for the later ones (see ``tool_choice``)."""
    options, listed = {}, list(tools.values())
    if settings.parallel_tool_calls is not None:
        options["parallel_tool_calls"] = settings.parallel_tool_calls
    try:
        first = model.bind_tools(listed, tool_choice=settings.tool_choice, **options)
        forcing = forces_a_call(settings.tool_choice)
        return Bound(first, model.bind_tools(listed, **options) if forcing else first, tools)
    except NotImplementedError:
        raise ConfigError(
            f"{type(model).__name__} does not support bind_tools; use a chat model with tool "
            "calling, e.g. toolkit.load_chat_model()."
        ) from None
