"""ToolLoop.run with time limits: the run on a worker thread, its calls inline, the caller on watch.

Each test blocks a tool on an event and releases it only after the run has returned, so the
order of events is fixed: the caller must give up on the call, answer it and go on.
"""

from __future__ import annotations

import threading
import time

import pytest
from fixtures.loop_tools import add, get_weather
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool

from toolkit.loop import LoopStatus, ToolLoop
from toolkit.testing import ScriptedChatModel, chat_protocol_problems


def ask(*calls: tuple[str, dict, str]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": n, "args": a, "id": i} for n, a, i in calls])


class Gate:
    """A tool that blocks until released, recording where and whether it finished."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.finished = threading.Event()
        self.threads: list[int] = []

    def tool(self, name: str = "slow") -> StructuredTool:
        def run(city: str) -> str:
            self.threads.append(threading.get_ident())
            self.release.wait(10)
            self.finished.set()
            return f"late answer for {city}"

        return StructuredTool.from_function(run, name=name, description="Slow.")


def test_a_call_past_its_timeout_is_answered_and_the_run_goes_on():
    gate = Gate()
    script = [ask(("slow", {"city": "北京"}, "s1")), ask(("add", {"x": 6, "y": 5}, "a1")), "11"]
    model = ScriptedChatModel(script)
    started = time.monotonic()
    try:
        result = ToolLoop(model, [gate.tool(), add], tool_timeout=0.2).run("go")
    finally:
        took = time.monotonic() - started
        gate.release.set()
    assert result.status is LoopStatus.ANSWERED and result.answer == "11"
    timed_out = result.transcript[2]
    assert timed_out.tool_call_id == "s1" and timed_out.status == "error"
    assert "did not finish within 0.2 s (tool_timeout)" in timed_out.content
    assert [m.content for m in result.transcript if isinstance(m, ToolMessage)][1] == "11"
    assert chat_protocol_problems(result.transcript) == []
    assert took < 5  # given up on at its timeout, not when the tool returned
    assert gate.finished.wait(10)  # the abandoned call ends in the background ...
    assert not any("late answer" in str(m.content) for m in result.transcript)  # ... unheard


def test_messages_reach_on_message_on_the_callers_thread_in_order():
    gate = Gate()
    script = [
        ask(("get_weather", {"city": "北京"}, "w1")),
        ask(("slow", {"city": "西安"}, "s1")),
        ask(("add", {"x": 6, "y": 5}, "a1")),
        "北京和西安的气温总和为11摄氏度。",
    ]
    seen: list = []
    threads: set[int] = set()

    def on_message(message) -> None:
        seen.append(message)
        threads.add(threading.get_ident())

    loop = ToolLoop(ScriptedChatModel(script), [get_weather, gate.tool(), add], tool_timeout=0.2)
    try:
        result = loop.run("计算一下北京和西安的气温的总和", on_message=on_message)
    finally:
        gate.release.set()
    assert seen == result.transcript and len(seen) == 8
    assert isinstance(seen[0], HumanMessage)
    assert threads == {threading.get_ident()}
    assert gate.threads and gate.threads[0] != threading.get_ident()  # the tool ran elsewhere


def test_calls_in_turn_each_time_out_and_keep_their_order():
    gate = Gate()
    calls = [("slow", {"city": c}, f"s{i}") for i, c in enumerate(["北京", "西安", "上海"])]
    loop = ToolLoop(
        ScriptedChatModel([ask(*calls), "done"]), [gate.tool()], tool_timeout=0.1, parallel=False
    )
    try:
        result = loop.run("go")
    finally:
        gate.release.set()
    answers = result.transcript[2:5]
    assert [m.tool_call_id for m in answers] == ["s0", "s1", "s2"]
    assert all(m.status == "error" and "tool_timeout" in m.content for m in answers)
    assert result.answer == "done"


def test_the_runs_deadline_stops_an_inline_call_sooner_than_its_timeout():
    gate = Gate()
    model = ScriptedChatModel([ask(("slow", {"city": "北京"}, "s1")), "unused"])
    started = time.monotonic()
    try:
        result = ToolLoop(model, [gate.tool()], tool_timeout=30, max_wall_time=0.3).run("go")
    finally:
        took = time.monotonic() - started
        gate.release.set()
    assert result.status is LoopStatus.TIME_BUDGET_EXHAUSTED
    assert "max_wall_time" in result.transcript[-1].content
    assert took < 5


class Stop(BaseException):
    """Not an Exception: nothing on the way may swallow it."""


def test_a_base_exception_from_the_model_reaches_the_caller():
    def explode(messages):
        raise Stop("halt")

    with pytest.raises(Stop, match="halt"):
        ToolLoop(ScriptedChatModel([explode]), [add]).run("go")


class _Ends(BaseCallbackHandler):
    """How the run's own trace ended: each on_chain_end and on_chain_error, in order."""

    def __init__(self) -> None:
        self.ends: list[str] = []
        self.ended = threading.Event()

    def on_chain_end(self, outputs, **kwargs) -> None:
        self.ends.append(f"end: {outputs['status']}")
        self.ended.set()

    def on_chain_error(self, error, **kwargs) -> None:
        self.ends.append(f"error: {error}")
        self.ended.set()


def test_an_exception_in_on_message_reaches_the_caller_and_ends_the_runs_trace():
    trace = _Ends()

    def after_the_trace_ended(messages) -> str:
        assert trace.ended.wait(10)  # the carrier is held until the caller's side ended the run
        return "3"

    model = ScriptedChatModel([ask(("add", {"x": 1, "y": 2}, "a1")), after_the_trace_ended])

    def on_message(message) -> None:
        if isinstance(message, AIMessage):
            raise RuntimeError("display failed")

    loop = ToolLoop(model, [add], config={"callbacks": [trace]})
    with pytest.raises(RuntimeError, match="display failed"):
        loop.run("go", on_message=on_message)
    assert trace.ends == ["error: display failed"]  # once, by the caller's side


def test_a_run_that_answers_ends_its_trace_once():
    trace = _Ends()
    model = ScriptedChatModel([ask(("add", {"x": 1, "y": 2}, "a1")), "3"])
    result = ToolLoop(model, [add], config={"callbacks": [trace]}).run("go")
    assert result.answer == "3" and trace.ends == ["end: answered"]


def test_what_an_abandoned_call_raises_late_never_reaches_the_caller():
    release, raised = threading.Event(), threading.Event()

    def stuck(city: str) -> str:
        release.wait(10)
        raised.set()
        raise Stop("too late")  # after the run gave up on this call

    def after_the_late_raise(messages):
        assert raised.wait(10)  # the abandoned call has raised before the run goes on
        return ask(("add", {"x": 1, "y": 2}, "a1"))

    slow = StructuredTool.from_function(stuck, name="slow", description="Slow.")
    script = [ask(("slow", {"city": "北京"}, "s1")), after_the_late_raise, "3"]
    seen: list = []

    def on_message(message) -> None:
        seen.append(message)
        if isinstance(message, ToolMessage) and message.tool_call_id == "s1":
            release.set()  # answered with the timeout: now let the abandoned call raise

    result = ToolLoop(ScriptedChatModel(script), [slow, add], tool_timeout=0.2).run(
        "go", on_message=on_message
    )
    assert result.answer == "3" and seen == result.transcript
    assert "tool_timeout" in result.transcript[2].content
