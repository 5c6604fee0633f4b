"""The real embedded model through LangChain's ChatOpenAI over HTTP on loopback.

These are the embedded server's acceptance cases: real ``tool_calls`` for questions that need
a tool, plain text for one that does not, every ``tool_choice`` form, streaming equal to
non-streaming, and the seed's question through a plain four-step loop.
"""

from __future__ import annotations

import json

import pytest
from helpers import embedded_chat
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI

from toolkit.local.server.runner import EmbeddedServer
from tools import add, get_weather

WEATHER_Q = "What's the weather in Beijing?"
ADD_Q = "What is 17 + 25?"
HELLO_Q = "Hello, who are you?"


@pytest.fixture(scope="module")
def chat(local_server: EmbeddedServer) -> ChatOpenAI:
    return embedded_chat(local_server)


def _calls(message: AIMessage) -> list[tuple[str, dict]]:
    assert not message.invalid_tool_calls
    return [(c["name"], c["args"]) for c in message.tool_calls]


def _is_beijing(args: dict) -> bool:
    return args.get("city", "").strip().lower() in {"beijing", "北京", "beijing, china"}


def test_auto_calls_the_right_tool_or_answers_in_text(chat: ChatOpenAI) -> None:
    model = chat.bind_tools([get_weather, add])
    weather = model.invoke(WEATHER_Q)
    [(name, args)] = _calls(weather)
    assert name == "get_weather" and _is_beijing(args)
    assert weather.response_metadata["finish_reason"] == "tool_calls"
    assert _calls(model.invoke(ADD_Q)) == [("add", {"x": 17, "y": 25})]
    hello = model.invoke(HELLO_Q)
    assert hello.tool_calls == [] and isinstance(hello.content, str) and len(hello.content) > 5
    assert hello.response_metadata["finish_reason"] == "stop"
    assert hello.usage_metadata["input_tokens"] > 100


@pytest.mark.parametrize("choice", ["required", "any"])
def test_required_always_calls(chat: ChatOpenAI, choice: str) -> None:
    model = chat.bind_tools([get_weather, add], tool_choice=choice)
    [(name, args)] = _calls(model.invoke(WEATHER_Q))
    assert name == "get_weather" and _is_beijing(args)
    assert _calls(model.invoke(ADD_Q)) == [("add", {"x": 17, "y": 25})]
    assert _calls(model.invoke(HELLO_Q))  # some call, even though none fits


@pytest.mark.parametrize("tool", [get_weather, add])
def test_named_tool_choice_calls_that_tool(chat: ChatOpenAI, tool) -> None:
    named = {"type": "function", "function": {"name": tool.name}}
    for choice in (tool.name, named):
        model = chat.bind_tools([get_weather, add], tool_choice=choice)
        for question in (WEATHER_Q, ADD_Q):
            [(name, args)] = _calls(model.invoke(question))
            assert name == tool.name
            tool.args_schema.model_validate(args)  # schema-valid arguments
    model = chat.bind_tools([get_weather, add], tool_choice=tool.name)
    expected = {"get_weather": WEATHER_Q, "add": ADD_Q}[tool.name]
    [(_, args)] = _calls(model.invoke(expected))
    assert _is_beijing(args) if tool.name == "get_weather" else args == {"x": 17, "y": 25}


def test_none_answers_in_text(chat: ChatOpenAI) -> None:
    model = chat.bind_tools([get_weather, add], tool_choice="none")
    for question in (WEATHER_Q, ADD_Q, HELLO_Q):
        answer = model.invoke(question)
        assert answer.tool_calls == [] and answer.content
        assert "<tool_call>" not in answer.content


def test_streaming_gives_the_same_answers(chat: ChatOpenAI) -> None:
    model = chat.bind_tools([get_weather, add])
    for question in (WEATHER_Q, ADD_Q, HELLO_Q):
        whole = model.invoke(question)
        chunks = list(model.stream(question))
        merged = chunks[0]
        for chunk in chunks[1:]:
            merged += chunk
        assert [(c["name"], c["args"]) for c in merged.tool_calls] == _calls(whole)
        assert (merged.content or "").strip() == (whole.content or "").strip()
        assert all(c["id"].startswith("call_") for c in merged.tool_calls)


def test_parallel_tool_calls_false_allows_one_call(chat: ChatOpenAI) -> None:
    model = chat.bind_tools([get_weather, add], parallel_tool_calls=False, tool_choice="required")
    answer = model.invoke("What's the weather in Beijing and in Shanghai?")
    assert len(answer.tool_calls) == 1


def _run_tool(call: dict) -> ToolMessage:
    tool = {"get_weather": get_weather, "add": add}[call["name"]]
    return tool.invoke(call)


def test_seed_question_through_a_four_step_loop(chat: ChatOpenAI) -> None:
    model = chat.bind_tools([add, get_weather])
    messages: list[BaseMessage] = [HumanMessage("计算一下北京和西安的气温的总和")]
    made: list[tuple[str, dict]] = []
    for _ in range(5):
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            break
        made.extend(_calls(reply))
        messages.extend(_run_tool(call) for call in reply.tool_calls)
    weather = sorted(a["city"] for n, a in made if n == "get_weather")
    assert weather == sorted(["北京", "西安"]), made
    assert ("add", {"x": 6, "y": 5}) in made or ("add", {"x": 5, "y": 6}) in made, made
    assert len(made) == 3, made
    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert "11" in final.content
    transcript = json.dumps([m.model_dump() for m in messages], ensure_ascii=False, default=str)
    assert "6 °C" in transcript and "5 °C" in transcript
