"""Tool-loop overhead and parallel tool calls: ToolLoop vs the seed's loop vs LangGraph.

Measured side by side in one run, with the same zero-latency scripted model for all three:

1. **Per-step overhead**: a run of ``STEPS`` steps (one model call + one tool call each) plus the
   final answer; the time per step is everything the loop adds around a model that answers
   instantly (LangChain's own ``invoke`` machinery included, as every loop pays it).
2. **Parallel tool calls**: one assistant message with 8 calls of a tool that sleeps 0.2 s.

The contenders: the hand-written loop of the seed (``tool.invoke(tool_call)`` one call after
another), LangChain's ``create_agent`` (a LangGraph graph; its tool node runs calls in a thread
pool), and :class:`toolkit.loop.ToolLoop` with its default settings (timeouts on: the run is carried
out on one worker thread that runs each single call inline while the caller keeps the time, see
``toolkit/loop/watch.py``).
Run: ``python bench/loop_overhead.py``.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

if __package__ in (None, ""):  # run as ``python bench/loop_overhead.py``: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Result, print_table, rotations
from toolkit.loop import ToolLoop
from toolkit.testing import ScriptedChatModel
from tools import add

__all__ = ["SPEEDUP_GOALS", "STEP_GOALS", "main", "measure"]

STEPS = 20
PARALLEL_CALLS = 8
NAP_SECONDS = 0.2
#: Goals: ToolLoop's time per step at most this many times the other loop's.
STEP_GOALS = {"seed": 1.2, "create_agent": 0.55}
#: Goals: ToolLoop at least this many times faster than the other loop on the parallel calls.
SPEEDUP_GOALS = {"seed": 7.0, "create_agent": 1.9}


@tool
def nap(label: str) -> str:
    """Sleep a little, like a slow API."""
    time.sleep(NAP_SECONDS)
    return label


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
    for name in rotations(list(runs), repeats):
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


_LOOPS = {"seed": "the seed's loop", "create_agent": "create_agent"}


def measure(repeats: int = 15) -> list[Result]:
    """Measure both benchmarks; the loops take turns, ``repeats`` runs each after a warm-up.

    Args:
        repeats: Timed runs per loop and benchmark.

    Returns:
        The per-step overhead (ms/step) of ``ToolLoop`` against each other loop and, untimed,
        against the seed's; then 8 parallel 0.2-s tool calls (s) against each other loop.
    """
    runs = repeats + 1
    timed = _time(_contenders(_stepper, [add], runs), repeats)
    step = {name: seconds * 1000 / STEPS for name, seconds in timed.items()}
    fan = _time(_contenders(_fan_out, [nap], runs), max(3, repeats // 5))
    name = "loop_overhead"
    rows = [
        Result(
            name,
            f"per-step overhead: ToolLoop vs {_LOOPS[other]}",
            "ms/step",
            step["toolkit"],
            step[other],
            f"<= {limit:g}x",
            step["toolkit"] <= limit * step[other],
        )
        for other, limit in STEP_GOALS.items()
    ]
    rows.append(
        Result(
            name,
            "per-step overhead: ToolLoop untimed vs the seed's loop",
            "ms/step",
            step["untimed"],
            step["seed"],
        )
    )
    rows += [
        Result(
            name,
            f"{PARALLEL_CALLS} parallel {NAP_SECONDS:g}-s tool calls: ToolLoop vs {_LOOPS[other]}",
            "s",
            fan["toolkit"],
            fan[other],
            f"<= {1 / factor:.2f}x ({factor:g}x faster)",
            fan[other] >= factor * fan["toolkit"],
        )
        for other, factor in SPEEDUP_GOALS.items()
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the measurements and the ratios side by side.

    Args:
        argv: ``[repeats]`` optionally; default 15.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    print_table(
        measure(int(args[0]) if args else 15),
        "ToolLoop: default settings; untimed: tool_timeout=None, max_wall_time=None",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
