"""One tool call in, exactly one ToolMessage out: every failure class, timeouts, parallelism."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time

import pytest
from fixtures.loop_tools import add, get_weather
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tools import StructuredTool, ToolException, tool

from toolkit.errors import InvalidArgumentsError
from toolkit.loop.arguments import decode_arguments
from toolkit.loop.execution import (
    aexecute_tool_calls,
    execute_tool_call,
    execute_tool_calls,
)
from toolkit.loop.recovery import recover_tool_calls, recovering_chat_model


@tool
def boom(reason: str) -> str:
    """Always fails."""
    raise ValueError(f"cannot handle {reason}")


@tool
def shout(text: str) -> str:
    """Return the text repeated 100 times."""
    return text * 100


@tool
def now() -> str:
    """Take no arguments."""
    return "noon"


TOOLS = {t.name: t for t in (get_weather, add, boom, shout, now)}


def call(name: str, args: dict, call_id: str = "call_1") -> dict:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def invalid(name: str, raw: str | None, call_id: str = "call_1") -> dict:
    return {"type": "invalid_tool_call", "name": name, "args": raw, "id": call_id, "error": None}


def test_a_valid_call_returns_the_tool_result_with_the_call_id():
    message = execute_tool_call(call("add", {"x": 6, "y": 5}, "call_7"), TOOLS)
    assert (message.content, message.tool_call_id, message.name) == ("11", "call_7", "add")
    assert message.status == "success"


def test_unknown_tool_lists_the_valid_names():
    message = execute_tool_call(call("get_wether", {"city": "北京"}), TOOLS)
    assert message.status == "error"
    assert message.tool_call_id == "call_1"
    assert message.content == (
        "Error: Unknown tool 'get_wether'. Call one of: add, boom, get_weather, now, shout. "
        "Use a name from this list exactly."
    )


def test_invalid_json_reports_the_raw_text_and_the_parse_error():
    message = execute_tool_call(invalid("add", '{"x": 6, "y": }'), TOOLS)
    assert message.status == "error"
    assert message.content == (
        "Error: cannot read the arguments for tool 'add': the arguments are not valid JSON "
        '(Expecting value at line 1 column 15): {"x": 6, "y": }\n'
        "The tool takes: add(x: integer, y: integer). Send the arguments as a JSON object."
    )


@pytest.mark.parametrize(
    ("raw", "kind"),
    [("[6, 5]", "array"), ("11", "number"), ('"six"', "string"), ("true", "boolean")],
)
def test_json_that_is_not_an_object_is_an_error(raw, kind):
    message = execute_tool_call(invalid("add", raw), TOOLS)
    assert message.status == "error"
    assert message.content.startswith(
        "Error: cannot read the arguments for tool 'add': the arguments must be a JSON object "
        f"of named parameters, got a JSON {kind}: {raw}\n"
    )


def test_double_encoded_arguments_are_decoded_and_the_tool_runs():
    message = execute_tool_call(invalid("add", '"{\\"x\\": 6, \\"y\\": 5}"'), TOOLS)
    assert (message.status, message.content) == ("success", "11")


@pytest.mark.parametrize("raw", [None, "", "  ", "null"])
def test_empty_or_null_arguments_mean_no_arguments(raw):
    message = execute_tool_call(invalid("now", raw), TOOLS)
    assert (message.status, message.content) == ("success", "noon")


def test_missing_argument_names_the_field_and_the_expected_type():
    message = execute_tool_call(call("get_weather", {"unit": "celsius"}), TOOLS)
    assert message.status == "error"
    assert message.content == (
        "Error: invalid arguments for tool 'get_weather':\n"
        "- missing required argument 'city' (expected string)\n"
        'The tool takes: get_weather(city: string, unit: one of "celsius", "fahrenheit" = '
        '"celsius"). Call it again.'
    )


def test_unexpected_argument_is_reported_and_the_tool_does_not_run():
    ran = []
    probe = StructuredTool.from_function(
        lambda city: ran.append(city) or "ok", name="probe", description="Probe."
    )
    message = execute_tool_call(
        call("probe", {"city": "北京", "location": "西安"}), {"probe": probe}
    )
    assert message.status == "error"
    assert "- unexpected argument 'location' (accepted: city)" in message.content
    assert ran == []


def test_wrong_type_names_field_expected_and_received_value():
    message = execute_tool_call(call("add", {"x": 6, "y": [5]}), TOOLS)
    assert message.status == "error"
    assert (
        "- argument 'y': expected integer, got [5] (Input should be a valid integer)"
        in message.content
    )


def test_value_outside_an_enum_lists_the_allowed_values():
    message = execute_tool_call(call("get_weather", {"city": "北京", "unit": "kelvin"}), TOOLS)
    assert message.status == "error"
    assert '- argument \'unit\': expected one of "celsius", "fahrenheit", got "kelvin"' in (
        message.content
    )


def test_numeric_strings_are_accepted_as_pydantic_does():
    message = execute_tool_call(call("add", {"x": "6", "y": 5}), TOOLS)
    assert (message.status, message.content) == ("success", "11")


def test_json_schema_tools_are_checked_too():
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    }
    forecast = StructuredTool.from_function(
        lambda **kwargs: f"{kwargs}", name="forecast", description="F.", args_schema=schema
    )
    message = execute_tool_call(call("forecast", {"days": "3", "hours": 1}), {"forecast": forecast})
    assert message.status == "error"
    assert "- missing required argument 'city' (expected string)" in message.content
    assert "- unexpected argument 'hours'" in message.content
    assert "- argument 'days': expected integer, got \"3\"" in message.content


def test_an_exception_in_the_tool_gives_its_type_and_message():
    message = execute_tool_call(call("boom", {"reason": "北京"}), TOOLS)
    assert message.status == "error"
    assert message.content == (
        "Error: tool 'boom' raised ValueError: cannot handle 北京. Check the arguments, "
        "or answer without this tool."
    )


def test_a_tool_handling_its_own_errors_keeps_its_error_status():
    def fragile(city: str) -> str:
        raise ToolException(f"no data for {city}")

    handled = StructuredTool.from_function(
        fragile, name="fragile", description="Fragile.", handle_tool_error=True
    )
    message = execute_tool_call(call("fragile", {"city": "拉萨"}), {"fragile": handled})
    assert (message.status, message.content) == ("error", "no data for 拉萨")


def test_a_sync_tool_past_its_timeout_is_abandoned_and_keeps_running_in_background():
    release, finished = threading.Event(), threading.Event()

    def slow(city: str) -> str:
        release.wait(10)
        finished.set()
        return "late"

    tools = {"slow": StructuredTool.from_function(slow, name="slow", description="Slow.")}
    message = execute_tool_call(call("slow", {"city": "北京"}), tools, timeout=0.05)
    assert message.status == "error"
    assert message.content == (
        "Error: tool 'slow' was stopped: it did not finish within 0.05 s (tool_timeout). "
        "Its result is discarded; try simpler arguments or answer without it."
    )
    assert not finished.is_set()  # the answer came while the tool was still running
    release.set()
    assert finished.wait(5)  # the thread went on to the end; its result was dropped


def test_an_async_tool_past_its_timeout_is_cancelled():
    asyncio.run(_async_timeout())


async def _async_timeout() -> None:
    cancelled = asyncio.Event()

    async def slow(city: str) -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "late"

    tools = {"slow": StructuredTool.from_function(coroutine=slow, name="slow", description="S.")}
    calls = aexecute_tool_calls([call("slow", {"city": "北京"})], tools, timeout=0.05)
    (message,) = [m async for m in calls]
    assert message.status == "error"
    assert "did not finish within 0.05 s (tool_timeout)" in message.content
    await asyncio.wait_for(cancelled.wait(), 5)


def test_the_run_deadline_is_named_when_it_cuts_a_call_short():
    release = threading.Event()
    slow = StructuredTool.from_function(
        lambda city: release.wait(10) and "late", name="slow", description="Slow."
    )
    calls = [call("slow", {"city": "北京"})]
    deadline = time.monotonic() + 0.05
    (message,) = execute_tool_calls(calls, {"slow": slow}, timeout=30, deadline=deadline)
    release.set()
    assert message.status == "error"
    assert "the run's time budget (max_wall_time) ran out while it was running" in message.content


def test_a_result_that_is_too_large_is_truncated_with_a_note():
    message = execute_tool_call(call("shout", {"text": "ab"}), TOOLS, max_result_chars=50)
    assert message.status == "success"
    assert message.content == "ab" * 25 + (
        "\n[truncated: the result has 200 characters; only the first 50 are shown "
        "(max_result_chars). Ask for less to see the rest.]"
    )


def test_an_async_only_tool_runs_in_the_sync_executor():
    async def later(city: str) -> str:
        await asyncio.sleep(0)
        return f"{city} later"

    tools = {"later": StructuredTool.from_function(coroutine=later, name="later", description="L")}
    message = execute_tool_call(call("later", {"city": "西安"}), tools)
    assert (message.status, message.content) == ("success", "西安 later")


def _interval_tool(log: list[tuple[float, float]]) -> StructuredTool:
    def nap(seconds: float) -> str:
        start = time.monotonic()
        time.sleep(seconds)
        log.append((start, time.monotonic()))
        return "rested"

    return StructuredTool.from_function(nap, name="nap", description="Nap.")


def _overlaps(intervals: list[tuple[float, float]]) -> bool:
    ordered = sorted(intervals)
    return any(later[0] < earlier[1] for earlier, later in itertools.pairwise(ordered))


@pytest.mark.parametrize("parallel", [True, False])
def test_parallel_calls_overlap_and_sequential_ones_do_not(parallel):
    log: list[tuple[float, float]] = []
    tools = {"nap": _interval_tool(log)}
    calls = [call("nap", {"seconds": 0.2}, f"call_{i}") for i in range(4)]
    messages = list(execute_tool_calls(calls, tools, parallel=parallel))
    assert [m.tool_call_id for m in messages] == [f"call_{i}" for i in range(4)]
    assert len(log) == 4
    assert _overlaps(log) is parallel


def test_async_parallel_calls_overlap_and_keep_call_order():
    asyncio.run(_async_parallel())


async def _async_parallel() -> None:
    log: list[tuple[float, float]] = []

    async def nap(seconds: float, label: str) -> str:
        start = time.monotonic()
        await asyncio.sleep(seconds)
        log.append((start, time.monotonic()))
        return label

    tools = {"nap": StructuredTool.from_function(coroutine=nap, name="nap", description="N.")}
    calls = [call("nap", {"seconds": 0.2 - i * 0.05, "label": str(i)}, f"c{i}") for i in range(4)]
    messages = [m async for m in aexecute_tool_calls(calls, tools)]
    assert [m.content for m in messages] == ["0", "1", "2", "3"]
    assert _overlaps(log)


def test_failures_and_successes_are_answered_in_call_order():
    calls = [
        call("add", {"x": 1, "y": 2}, "a"),
        call("nope", {}, "b"),
        invalid("add", "{", "c"),
        call("boom", {"reason": "x"}, "d"),
        call("add", {"x": 2, "y": 2}, "e"),
    ]
    messages = list(execute_tool_calls(calls, TOOLS))
    assert [(m.tool_call_id, m.status) for m in messages] == [
        ("a", "success"),
        ("b", "error"),
        ("c", "error"),
        ("d", "error"),
        ("e", "success"),
    ]


class _Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.starts: list[tuple[str, list[str], dict]] = []

    def on_tool_start(self, serialized, input_str, *, tags=None, metadata=None, **kwargs):
        self.starts.append((serialized["name"], tags or [], metadata or {}))


def test_the_config_reaches_the_tool_callbacks():
    recorder = _Recorder()
    config = {"callbacks": [recorder], "tags": ["demo"], "metadata": {"user": "u1"}}
    execute_tool_call(call("add", {"x": 1, "y": 1}), TOOLS, config=config)
    assert recorder.starts == [("add", ["demo"], {"user": "u1"})]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"city": "北京"}', {"city": "北京"}),
        ('"{\\"city\\": \\"北京\\"}"', {"city": "北京"}),
        ("null", {}),
        ("", {}),
    ],
)
def test_decode_arguments_accepts_objects(raw, expected):
    assert decode_arguments(raw) == expected


@pytest.mark.parametrize("raw", ["[1]", '"[1]"', '"city"', "{", "{'city': 1}", "1.5"])
def test_decode_arguments_refuses_everything_else(raw):
    with pytest.raises(InvalidArgumentsError):
        decode_arguments(raw)


def _response(*arguments: str) -> dict:
    tool_calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "add", "arguments": text}}
        for i, text in enumerate(arguments)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}


def test_recover_tool_calls_decodes_double_encoding_and_takes_out_non_objects():
    raw = _response('{"x": 1, "y": 2}', '"{\\"x\\": 3, \\"y\\": 4}"', "[5]", "{oops", "")
    fixed, removed = recover_tool_calls(raw)
    kept = fixed["choices"][0]["message"]["tool_calls"]
    assert [c["id"] for c in kept] == ["c0", "c1", "c3", "c4"]
    assert kept[1]["function"]["arguments"] == '{"x": 3, "y": 4}'
    assert kept[2]["function"]["arguments"] == "{oops"  # LangChain reports invalid JSON itself
    (taken,) = removed
    assert [(c["id"], c["args"]) for c in taken] == [("c2", "[5]")]
    assert "must be a JSON object of named parameters, got a JSON array" in taken[0]["error"]
    assert raw["choices"][0]["message"]["tool_calls"][2]["function"]["arguments"] == "[5]"


def test_recover_tool_calls_leaves_a_clean_response_as_it_was():
    raw = _response('{"x": 1, "y": 2}')
    fixed, removed = recover_tool_calls(raw)
    assert fixed == raw and removed == [[]]


def test_recovering_chat_model_only_wraps_chat_openai_models():
    from langchain_openai import ChatOpenAI

    from toolkit.testing import ScriptedChatModel

    scripted = ScriptedChatModel([])
    assert recovering_chat_model(scripted) is scripted
    model = ChatOpenAI(model="m", api_key="k", base_url="http://127.0.0.1:9/v1", temperature=0)
    wrapped = recovering_chat_model(model)
    assert isinstance(wrapped, ChatOpenAI) and wrapped is not model
    assert (wrapped.model_name, wrapped.temperature, wrapped.client) == ("m", 0, model.client)
    assert recovering_chat_model(wrapped) is wrapped


def test_a_single_input_tool_is_checked_against_the_schema_the_model_sees():
    from langchain_core.tools import Tool

    echo = Tool(name="echo", func=lambda text: f"echo {text}", description="Echo the text.")
    ok = execute_tool_call(call("echo", {"__arg1": "hi"}), {"echo": echo})
    assert (ok.status, ok.content) == ("success", "echo hi")
    wrong = execute_tool_call(call("echo", {"query": "hi"}), {"echo": echo})
    assert wrong.status == "error"
    assert wrong.content == (
        "Error: invalid arguments for tool 'echo':\n"
        "- missing required argument '__arg1' (expected string)\n"
        "- unexpected argument 'query'\n"
        "The tool takes: echo(__arg1: string). Call it again."
    )


def test_a_tool_exception_speaks_to_the_model_without_the_exception_type():
    def strict(city: str) -> str:
        raise ToolException(f"no data for {city}; try 北京 or 西安.")

    tools = {"strict": StructuredTool.from_function(strict, name="strict", description="S.")}
    message = execute_tool_call(call("strict", {"city": "拉萨"}), tools)
    assert (message.status, message.content) == (
        "error",
        "Error: tool 'strict' failed: no data for 拉萨; try 北京 or 西安. Check the arguments, "
        "or answer without this tool.",
    )
