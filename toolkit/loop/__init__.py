"""The four-step tool loop: bind, invoke, execute each tool call, feed the results back.

One control flow serves sync and async runs alike; every tool call gets exactly one
``ToolMessage``, whatever fails; budgets bound a run. The modules, in the order a run uses them:

* :mod:`~toolkit.loop.settings` — :class:`LoopSettings`, the settings and their defaults;
* :mod:`~toolkit.loop.tool_loop` — :class:`ToolLoop`, which binds the tools and runs;
* :mod:`~toolkit.loop.flow` — the steps of a run, written once, and their sync/async drivers;
* :mod:`~toolkit.loop.record` — the books of a run in progress (counters, budgets, hints);
* :mod:`~toolkit.loop.watch` — :meth:`ToolLoop.run` with time limits: the run on one worker
  thread, its single calls inline, the caller keeping the time;
* :mod:`~toolkit.loop.execution` — tool calls in, exactly one ``ToolMessage`` each out;
* :mod:`~toolkit.loop.answers` — the checks, limits and verdict of one call, which both share;
* :mod:`~toolkit.loop.workers` — the long-lived threads calls with a timeout run on;
* :mod:`~toolkit.loop.arguments` — decoding and checking a call's arguments;
* :mod:`~toolkit.loop.recovery` — the ``ChatOpenAI`` repair for unparseable arguments;
* :mod:`~toolkit.loop.result` — :class:`LoopResult`, what a run returns.
"""

from __future__ import annotations

from toolkit.loop.execution import aexecute_tool_calls, execute_tool_call, execute_tool_calls
from toolkit.loop.result import LoopResult, LoopStatus, TokenUsage, to_openai_messages
from toolkit.loop.settings import LoopSettings, check_tool_choice
from toolkit.loop.tool_loop import ToolLoop

__all__ = [
    "LoopResult",
    "LoopSettings",
    "LoopStatus",
    "TokenUsage",
    "ToolLoop",
    "aexecute_tool_calls",
    "check_tool_choice",
    "execute_tool_call",
    "execute_tool_calls",
    "to_openai_messages",
]
