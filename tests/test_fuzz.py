"""Fuzzing the execution guard and the argument repairs with hypothesis.

``tests/test_loop_properties.py`` already proves the loop's invariant over ten kinds of scripted
calls, and ``tests/test_parser.py`` fuzzes the embedded server's tool-call parser (never raises,
streaming equals one-shot, truncated JSON never released early). What is fuzzed here is the layer
below the loop, with arbitrary data instead of chosen kinds: call dicts with any name, id, type
and arguments (any JSON, any text), tools of several schemas that return odd values or raise,
``decode_arguments`` on any text, and ``recover_tool_calls`` on any response shape the OpenAI
client can parse. The guard must never raise, and must give exactly one ``ToolMessage`` per call,
in call order, with the call's id.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from fixtures.loop_tools import add
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool

from toolkit.errors import InvalidArgumentsError
from toolkit.loop.arguments import decode_arguments
from toolkit.loop.execution import aexecute_tool_calls, execute_tool_calls
from toolkit.loop.recovery import recover_tool_calls
from toolkit.testing.server import completion, tool_call

EXAMPLES = 300


@tool
def describe(text: str, unit: Literal["c", "f"] = "c", tags: list[str] | None = None) -> str:
    """Echo the arguments."""
    return f"{text} {unit} {tags}"


@tool
def odd(kind: int) -> Any:
    """Return an unusual value, or fail, depending on ``kind``."""
    values = [None, b"\xff\x00", {"nested": [1, {"a": None}]}, "x" * 50_000, 1.5e308, object()]
    if kind >= len(values):
        raise ValueError(f"kind {kind} is out of range")
    return values[kind]


TOOLS = {t.name: t for t in (add, describe, odd)}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
names = st.sampled_from([*TOOLS, "", "Add", "add ", "unknown", "odd\x00"]) | st.text(max_size=12)
ids = st.none() | st.text(max_size=10)
argument_dicts = st.dictionaries(
    st.sampled_from(["x", "y", "text", "unit", "tags", "kind", "z", ""]) | st.text(max_size=6),
    json_values | st.integers(0, 7),
    max_size=4,
)
raw_texts = (
    st.text(max_size=60)
    | json_values.map(json.dumps)
    | argument_dicts.map(lambda d: json.dumps(json.dumps(d)))  # double-encoded
    | argument_dicts.map(lambda d: json.dumps(d)[: len(json.dumps(d)) // 2])  # truncated
)


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    call_id = draw(ids)
    if draw(st.booleans()):
        call = {"name": draw(names), "args": draw(argument_dicts), "id": call_id}
        if draw(st.booleans()):
            call["type"] = "tool_call"
        return call
    return {
        "type": "invalid_tool_call",
        "name": draw(st.none() | names),
        "args": draw(st.none() | raw_texts),
        "id": call_id,
        "error": draw(st.none() | st.text(max_size=10)),
    }


def _check(calls_made: list[dict], messages: list[ToolMessage]) -> None:
    assert len(messages) == len(calls_made)
    for call, message in zip(calls_made, messages, strict=True):
        assert isinstance(message, ToolMessage)
        assert message.tool_call_id == (call.get("id") or "")
        assert message.status in {"success", "error"}
        assert isinstance(message.content, str)
        if message.status == "error":
            assert message.content.startswith("Error")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    batch=st.lists(calls(), max_size=5),
    parallel=st.booleans(),
    timeout=st.sampled_from([None, 5.0]),
    max_chars=st.sampled_from([None, 10, 1000]),
)
def test_the_guard_answers_every_call_exactly_once_in_order(batch, parallel, timeout, max_chars):
    messages = list(
        execute_tool_calls(
            batch, TOOLS, parallel=parallel, timeout=timeout, max_result_chars=max_chars
        )
    )
    _check(batch, messages)
    if max_chars is not None:
        for message in messages:
            if message.status == "success":
                assert len(message.content) <= max_chars + 200  # the cut note included


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(calls(), max_size=4), timeout=st.sampled_from([None, 5.0]))
def test_the_async_guard_answers_every_call_exactly_once_in_order(batch, timeout):
    async def collect() -> list[ToolMessage]:
        return [m async for m in aexecute_tool_calls(batch, TOOLS, timeout=timeout)]

    _check(batch, asyncio.run(collect()))


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(raw=st.none() | raw_texts)
def test_decode_arguments_gives_an_object_or_a_clear_error(raw):
    try:
        value = decode_arguments(raw)
    except InvalidArgumentsError as exc:
        text = str(exc)
        assert text.startswith("the arguments ")
        assert len(text) < 600  # the raw text is quoted, but clipped
    else:
        assert isinstance(value, dict)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    raws=st.lists(st.tuples(names, raw_texts, st.text(min_size=1, max_size=8)), max_size=4),
    content=st.none() | st.text(max_size=10),
)
def test_recover_tool_calls_keeps_objects_and_explains_the_rest(raws, content):
    response = completion(content, tool_calls=[tool_call(n, a, i) for n, a, i in raws])
    before = json.dumps(response)
    fixed, removed = recover_tool_calls(response)
    assert json.dumps(response) == before  # the input is not modified
    kept = fixed["choices"][0]["message"].get("tool_calls") or []
    assert len(kept) + len(removed[0]) == len(raws)
    for call in kept:
        text = call["function"]["arguments"]
        try:
            value = json.loads(text) if text.strip() else None
        except json.JSONDecodeError:
            continue  # left for LangChain to report as an invalid call
        assert value is None or isinstance(value, dict)
    for invalid in removed[0]:
        assert invalid["error"].startswith("the arguments must be a JSON object")
