"""Where the loop's errors are raised: a run that did not answer, and a failed tool call.

``LoopResult.raise_for_status()`` turns a run that ended on a budget or a model error into an
exception; ``execute_tool_call(..., raise_errors=True)`` raises the error a failed call is
otherwise answered with, and the ``ToolMessage`` it is answered with is built from that error.
"""

from __future__ import annotations

import threading

import pytest
from fixtures.loop_tools import add, boom
from langchain_core.messages import AIMessage
from langchain_core.tools import StructuredTool

from toolkit.errors import (
    BudgetExceededError,
    InvalidArgumentsError,
    ModelError,
    ToolExecutionError,
    ToolkitError,
    ToolTimeoutError,
    UnknownToolError,
)
from toolkit.loop import LoopStatus, ToolLoop, execute_tool_call
from toolkit.testing import ScriptedChatModel

TOOLS = {"add": add, "boom": boom}


def ask(name: str, args: dict, call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def test_an_answered_run_returns_itself():
    result = ToolLoop(ScriptedChatModel(["hello"]), [add]).run("hi")
    assert result.raise_for_status() is result


def test_the_step_budget_raises_naming_max_model_calls():
    script = [ask("add", {"x": i, "y": 1}, f"c{i}") for i in range(3)]
    result = ToolLoop(ScriptedChatModel(script), [add], max_model_calls=2).run("go")
    with pytest.raises(BudgetExceededError) as caught:
        result.raise_for_status()
    assert caught.value.setting == "max_model_calls"
    assert str(caught.value) == result.hint
    assert "raise max_model_calls (CLI: --max-steps)" in str(caught.value)


def test_the_retry_budget_raises_naming_retry_budget():
    script = [ask("boom", {"reason": "no"}, f"c{i}") for i in range(3)]
    result = ToolLoop(ScriptedChatModel(script), [boom], retry_budget=1).run("go")
    assert result.status is LoopStatus.RETRY_BUDGET_EXHAUSTED
    with pytest.raises(BudgetExceededError, match=r"retry_budget=1\); fix the tool") as caught:
        result.raise_for_status()
    assert caught.value.setting == "retry_budget"


def test_the_time_budget_raises_naming_max_wall_time():
    release = threading.Event()
    slow = StructuredTool.from_function(
        lambda city: release.wait(10) and "late", name="slow", description="Slow."
    )
    model = ScriptedChatModel([ask("slow", {"city": "北京"}, "s1"), "unused"])
    try:
        result = ToolLoop(model, [slow], max_wall_time=0.2).run("go")
    finally:
        release.set()
    with pytest.raises(BudgetExceededError, match="raise max_wall_time") as caught:
        result.raise_for_status()
    assert caught.value.setting == "max_wall_time"


def test_a_model_error_raises_model_error_from_the_model_s_exception():
    result = ToolLoop(ScriptedChatModel([ask("add", {"x": 1, "y": 1}, "c")]), [add]).run("q")
    assert result.status is LoopStatus.MODEL_ERROR
    with pytest.raises(ModelError) as caught:
        result.raise_for_status()
    assert caught.value.__cause__ is result.exception
    assert str(caught.value).startswith(result.error)
    assert str(caught.value).endswith(result.hint)


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (
            {"name": "mul", "args": {}, "id": "u"},
            UnknownToolError,
            "Unknown tool 'mul'. Call one of: add, boom.",
        ),
        (
            {"name": "add", "args": {"x": 1}, "id": "m"},
            InvalidArgumentsError,
            "invalid arguments for tool 'add':\n- missing required argument 'y'",
        ),
        (
            {"name": "add", "args": "[1, 2]", "id": "j", "type": "invalid_tool_call"},
            InvalidArgumentsError,
            "cannot read the arguments for tool 'add': the arguments must be a JSON object",
        ),
        (
            {"name": "boom", "args": {"reason": "no fuel"}, "id": "b"},
            ToolExecutionError,
            "tool 'boom' raised RuntimeError: no fuel. Check the arguments",
        ),
    ],
)
def test_a_failed_call_raises_the_error_its_message_is_built_from(call, error, text):
    message = execute_tool_call(call, TOOLS)
    assert (message.status, message.tool_call_id) == ("error", call["id"])
    with pytest.raises(error) as caught:
        execute_tool_call(call, TOOLS, raise_errors=True)
    assert isinstance(caught.value, ToolkitError)
    assert str(caught.value).startswith(text)
    assert message.content.startswith(f"Error: {caught.value}")


def test_a_raising_tool_s_exception_is_the_cause():
    with pytest.raises(ToolExecutionError) as caught:
        execute_tool_call(
            {"name": "boom", "args": {"reason": "x"}, "id": "b"}, TOOLS, raise_errors=True
        )
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert str(caught.value.__cause__) == "x"


def test_a_timeout_raises_tool_timeout_error():
    release = threading.Event()
    slow = StructuredTool.from_function(
        lambda city: release.wait(10) and "late", name="slow", description="Slow."
    )
    call = {"name": "slow", "args": {"city": "北京"}, "id": "s"}
    try:
        message = execute_tool_call(call, {"slow": slow}, timeout=0.05)
        with pytest.raises(ToolTimeoutError) as caught:
            execute_tool_call(call, {"slow": slow}, timeout=0.05, raise_errors=True)
    finally:
        release.set()
    assert isinstance(caught.value, ToolExecutionError)
    assert str(caught.value).startswith(
        "tool 'slow' was stopped: it did not finish within 0.05 s (tool_timeout)."
    )
    assert message.content == f"Error: {caught.value}"


def test_a_successful_call_returns_its_message_with_raise_errors():
    message = execute_tool_call(
        {"name": "add", "args": {"x": 2, "y": 3}, "id": "a"}, TOOLS, raise_errors=True
    )
    assert (message.content, message.status, message.tool_call_id) == ("5", "success", "a")
