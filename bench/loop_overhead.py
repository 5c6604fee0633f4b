"""Tool-loop overhead and parallel tool calls: ToolLoop vs the seed's loop vs LangGraph.

Measured side by side in one run, with the same zero-latency scripted model for all three:

1. **Per-step overhead**: a run of ``STEPS`` steps (one model call + one tool call each) plus the
   final answer; the time per step is everything the loop adds around a model that answers
   instantly (LangChain's own ``invoke`` machinery included, as every loop pays it).
2. **Parallel tool calls**: one assistant message with 8 calls of a tool that sleeps 0.2 s.

The contenders: the hand-written loop of the seed (``tool.invoke(tool_call)`` one call after
another), LangChain's ``create_agent`` (a LangGraph graph; its tool node runs calls in a thread
pool), and :class:`toolkit.loop.ToolLoop` with its default settings (timeouts on, so every tool
call is handed to one of the loop's long-lived worker threads, see ``toolkit/loop/workers.py``).
Run: ``python bench/loop_overhead.py``.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from toolkit.loop import ToolLoop
from toolkit.testing import ScriptedChatModel

__all__ = ["SPEEDUP_GOALS", "STEP_GOALS", "Row", "main", "measure"]

STEPS = 20
PARALLEL_CALLS = 8
NAP_SECONDS = 0.2
#: Goals: ToolLoop's time per step at most this many times the other loop's.
STEP_GOALS = {"seed": 1.2, "create_agent": 0.55}
#: Goals: ToolLoop at least this many times faster than the other loop on the parallel calls.
SPEEDUP_GOALS = {"seed": 7.0, "create_agent": 1.9}


@tool
def add(x: int, y: int) -> int:
    """Add two integers."""
    return x + y


@tool
def nap(label: str) -> str:
    """Sleep a little, like a slow API."""
    time.sleep(NAP_SECONDS)
    return label


@dataclass(frozen=True)
class Row:
    """One measurement: seconds for each loop, and the goals the toolkit aims at.

    Attributes:
        name: What was measured.
        unit: How to read the numbers ("ms/step" or "s").
        seed: The seed's hand-written loop.
        create_agent: LangChain's ``create_agent``.
        toolkit: ``ToolLoop`` with its default settings (every tool call on a daemon thread, so
            that it can time out).
        untimed: ``ToolLoop`` with ``tool_timeout=None, max_wall_time=None`` (tools run inline).
        goal: The goal, in words.
        met: Whether the goal was met in this run.
    """

    name: str
    unit: str
    seed: float
    create_agent: float
    toolkit: float
    untimed: float
    goal: str
    met: bool


def _stepper(messages: list[BaseMessage]) -> AIMessage | str:
    done = sum(isinstance(m, ToolMessage) for m in messages)
    if done >= STEPS:
        return "done"
    call = {"name": "add", "args": {"x": done, "y": 1}, "id": f"call_{done}"}
    return AIMessage(content="", tool_calls=[call])


def _fan_out(messages: list[BaseMessage]) -> AIMessage | str:
    if any(isinstance(m, ToolMessage) for m in messages):
        return "rested"
    calls = [
        {"name": "nap", "args": {"label": str(i)}, "id": f"call_{i}"} for i in range(PARALLEL_CALLS)
    ]
    return AIMessage(content="", tool_calls=calls)


def _model(reply: Callable, calls: int) -> ScriptedChatModel:
    return ScriptedChatModel([reply] * calls, check_protocol=False)


def seed_loop(model: ScriptedChatModel, tools: list, question: str) -> list[BaseMessage]:
    """The seed's loop: bind, invoke, ``tool.invoke(tool_call)`` each call in turn, repeat.

    Args:
        model: The chat model.
        tools: The tools.
        question: The user's question.

    Returns:
        The messages.
    """
    tools_by_name = {t.name: t for t in tools}
    model_with_tools = model.bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage(question)]
    response = model_with_tools.invoke(messages)
    messages.append(response)
    while response.tool_calls:
        for tool_call in response.tool_calls:
            messages.append(tools_by_name[tool_call["name"]].invoke(tool_call))
        response = model_with_tools.invoke(messages)
        messages.append(response)
    return messages


def _messages(output: object) -> list[BaseMessage]:
    if isinstance(output, dict):  # create_agent's state
        return output["messages"]
    return getattr(output, "transcript", output)  # ToolLoop's result, or the seed's list


def _time(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Best seconds per run of each contender (as ``timeit`` advises: the fastest run is the one
    least disturbed by other processes), taking turns in a rotating order so that load hits all
    alike.

    The warm-up run also checks that every contender did the same work (same tool results and
    the same final answer), so that no loop is timed on a shorter run.
    """
    outcomes = {}
    for name, run in runs.items():
        messages = _messages(run())
        tool_results = [m.content for m in messages if isinstance(m, ToolMessage)]
        outcomes[name] = (tool_results, messages[-1].content)
    if len({repr(outcome) for outcome in outcomes.values()}) != 1:
        raise RuntimeError(f"the loops did different work: {outcomes}")
    samples: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for turn in range(repeats):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:  # rotate the order
            gc.collect()
            gc.disable()  # as timeit does: a collection would bill one loop for all the garbage
            try:
                start = time.perf_counter()
                runs[name]()
                samples[name].append(time.perf_counter() - start)
            finally:
                gc.enable()
    return {name: min(times) for name, times in samples.items()}


def _contenders(reply: Callable, tools: list, runs: int) -> dict[str, Callable[[], object]]:
    from langchain.agents import create_agent  # LangGraph: an optional (test) dependency

    seed, agent_model, loop, untimed = (_model(reply, runs * (STEPS + 2)) for _ in range(4))
    agent = create_agent(agent_model, tools=tools)
    no_limits = {"tool_timeout": None, "max_wall_time": None}  # no timeouts: tools run inline
    return {
        "seed": lambda: seed_loop(seed, tools, "go"),
        "create_agent": lambda: agent.invoke({"messages": [HumanMessage("go")]}),
        "toolkit": lambda: ToolLoop(loop, tools, max_model_calls=STEPS + 1).run("go"),
        "untimed": lambda: ToolLoop(untimed, tools, max_model_calls=STEPS + 1, **no_limits).run(
            "go"
        ),
    }


def measure(repeats: int = 15) -> list[Row]:
    """Measure both benchmarks; the loops take turns, ``repeats`` runs each after a warm-up.

    Args:
        repeats: Timed runs per loop and benchmark.

    Returns:
        Two rows: per-step overhead (ms/step) and 8 parallel 0.2-s tool calls (s).
    """
    runs = repeats + 1
    timed = _time(_contenders(_stepper, [add], runs), repeats)
    step = {name: seconds * 1000 / STEPS for name, seconds in timed.items()}
    fan = _time(_contenders(_fan_out, [nap], runs), max(3, repeats // 5))
    return [
        Row(
            "per-step overhead, zero-latency model",
            "ms/step",
            step["seed"],
            step["create_agent"],
            step["toolkit"],
            step["untimed"],
            f"<= {STEP_GOALS['seed']:g}x seed and <= {STEP_GOALS['create_agent']:g}x create_agent",
            all(step["toolkit"] <= limit * step[name] for name, limit in STEP_GOALS.items()),
        ),
        Row(
            f"{PARALLEL_CALLS} parallel {NAP_SECONDS:g}-s tool calls",
            "s",
            fan["seed"],
            fan["create_agent"],
            fan["toolkit"],
            fan["untimed"],
            f">= {SPEEDUP_GOALS['seed']:g}x faster than seed and "
            f">= {SPEEDUP_GOALS['create_agent']:g}x faster than create_agent",
            all(fan[name] >= factor * fan["toolkit"] for name, factor in SPEEDUP_GOALS.items()),
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the measurements and the ratios side by side.

    Args:
        argv: ``[repeats]`` optionally; default 15.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    rows = measure(int(args[0]) if args else 15)
    print(
        f"{'':38} {'seed':>7} {'agent':>7} {'toolkit':>7} {'/seed':>6} {'/agent':>6} {'untimed':>7}"
    )
    for row in rows:
        print(
            f"{row.name:38} {row.seed:7.3f} {row.create_agent:7.3f} {row.toolkit:7.3f} "
            f"{row.toolkit / row.seed:6.2f}x {row.toolkit / row.create_agent:6.2f}x "
            f"{row.untimed:7.3f}  {row.unit}"
        )
        print(f"{'':38} goal: {row.goal}: {'met' if row.met else 'NOT met'}")
    print("toolkit: default settings; untimed: tool_timeout=None, max_wall_time=None")
    return 0


if __name__ == "__main__":
    sys.exit(main())
