"""ScriptedChatModel: a deterministic BaseChatModel that supports bind_tools and streaming."""

from __future__ import annotations

import asyncio

import httpx
import openai
import pytest
from fixtures.loop_tools import add
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from toolkit.errors import ModelError
from toolkit.testing import ScriptedChatModel, chat_protocol_problems

CALLS = AIMessage(
    content="",
    tool_calls=[{"name": "add", "args": {"x": 6, "y": 5}, "id": "c1"}],
    invalid_tool_calls=[
        {"type": "invalid_tool_call", "name": "add", "args": '{"x": 1}}', "id": "c2", "error": None}
    ],
)


def test_it_replays_the_script_in_order_with_usage_and_ids():
    model = ScriptedChatModel([CALLS, "the sum is 11"])
    first = model.invoke("add 6 and 5")
    assert first.tool_calls == [
        {"name": "add", "args": {"x": 6, "y": 5}, "id": "c1", "type": "tool_call"}
    ]
    assert [c["args"] for c in first.invalid_tool_calls] == ['{"x": 1}}']
    assert first.usage_metadata == {"input_tokens": 4, "output_tokens": 8, "total_tokens": 12}
    assert first.response_metadata["finish_reason"] == "tool_calls"
    answers = [ToolMessage("11", tool_call_id="c1"), ToolMessage("bad", tool_call_id="c2")]
    second = model.invoke([HumanMessage("add 6 and 5"), first, *answers])
    assert second.content == "the sum is 11" and second.response_metadata["finish_reason"] == "stop"
    assert model.remaining == 0


def test_bind_tools_records_tools_and_normalises_tool_choice_like_chat_openai():
    model = ScriptedChatModel(["a", "b", "c"])
    model.bind_tools([add], tool_choice="add", parallel_tool_calls=False).invoke("q")
    assert model.bound_tools[0]["function"]["name"] == "add"
    assert model.tool_choice == {"type": "function", "function": {"name": "add"}}
    assert model.calls[0].options == {"parallel_tool_calls": False}
    assert model.calls[0].tools == model.bound_tools
    model.bind_tools([add], tool_choice="any").invoke("q")
    model.invoke("q")
    assert [c.tool_choice for c in model.calls] == [
        {"type": "function", "function": {"name": "add"}},
        "required",
        None,
    ]
    assert model.calls[2].tools == []


def test_streamed_chunks_add_up_to_the_invoked_message():
    reply = AIMessage(content="北京 is 6 and 西安 is 5", tool_calls=CALLS.tool_calls)
    invoked = ScriptedChatModel([reply]).invoke("q")
    chunks = list(ScriptedChatModel([reply]).stream("q"))
    assert len(chunks) > 3
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged += chunk
    assert merged.content == invoked.content
    assert merged.tool_calls == invoked.tool_calls
    assert merged.usage_metadata == invoked.usage_metadata


def test_invalid_calls_stream_as_raw_arguments_langchain_cannot_parse():
    chunks = list(ScriptedChatModel([CALLS]).stream("q"))
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged += chunk
    assert [c["id"] for c in merged.invalid_tool_calls] == ["c2"]
    assert merged.invalid_tool_calls[0]["args"] == '{"x": 1}}'


def test_a_callable_answers_from_the_messages_and_an_exception_is_raised():
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    failure = openai.APIConnectionError(request=request)
    model = ScriptedChatModel([lambda messages: f"{len(messages)} messages", failure])
    assert model.invoke([HumanMessage("a"), AIMessage("b"), HumanMessage("c")]).content == (
        "3 messages"
    )
    with pytest.raises(openai.APIConnectionError):
        model.invoke("again")


def test_an_exhausted_script_says_so():
    model = ScriptedChatModel(["only"])
    model.invoke("q")
    with pytest.raises(ModelError, match="this is call 2 but the script has 1 replies"):
        model.invoke("q")


def test_an_invalid_conversation_is_refused_like_an_endpoint_would():
    model = ScriptedChatModel(["never"])
    with pytest.raises(ModelError, match=r"tool call\(s\) \['c1', 'c2'\] unanswered"):
        model.invoke([HumanMessage("q"), CALLS])


def test_it_works_async():
    model = ScriptedChatModel(["async answer"])
    assert asyncio.run(model.ainvoke("q")).content == "async answer"


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        (
            [HumanMessage("q"), ToolMessage("x", tool_call_id="c9")],
            "answers 'c9', which is not pending",
        ),
        (
            [HumanMessage("q"), CALLS, ToolMessage("x", tool_call_id="c1"), HumanMessage("next")],
            "comes before tool call(s) ['c2'] are answered",
        ),
        (
            [
                CALLS,
                ToolMessage("x", tool_call_id="c1"),
                ToolMessage("y", tool_call_id="c2"),
                CALLS,
            ],
            "repeats tool call id 'c1'",
        ),
    ],
)
def test_chat_protocol_problems_finds_each_violation(messages, problem):
    assert any(problem in found for found in chat_protocol_problems(messages))


def test_a_valid_conversation_has_no_problems():
    answers = [ToolMessage("11", tool_call_id="c2"), ToolMessage("x", tool_call_id="c1")]
    assert chat_protocol_problems([HumanMessage("q"), CALLS, *answers, AIMessage("11")]) == []
