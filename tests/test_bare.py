"""The agent with no LangChain: tool descriptions, the HTTP client and the loop, exactly."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

import tools
from toolkit.bare import LLM, Agent, Tool, create_agent, tool
from toolkit.config import load_settings
from toolkit.errors import ConfigError, EndpointError, ToolDefinitionError
from toolkit.testing.server import Reply, ScriptedServer, completion, tool_call

CANARY = "sk-canary-7d1e0b5a93"
QUESTION = "计算一下北京和西安的气温的总和"
ANSWER = "北京和西安的气温总和为11摄氏度。"

BARE_TOOLS = [tool(t.func) for t in tools.ALL_TOOLS]


def _llm(server: ScriptedServer, **kwargs: object) -> LLM:
    settings = load_settings(environ={"OPENAI_API_KEY": CANARY, "OPENAI_BASE_URL": server.base_url})
    return LLM(settings, **kwargs)


def _agent(server: ScriptedServer, **kwargs: object) -> Agent:
    return Agent(_llm(server), [tool(tools.get_weather.func), tool(tools.add.func)], **kwargs)


# --- tool descriptions ------------------------------------------------------------------------


@pytest.mark.parametrize("lc_tool", tools.ALL_TOOLS, ids=lambda t: t.name)
def test_description_equals_langchain(lc_tool) -> None:
    assert tool(lc_tool.func).description == convert_to_openai_tool(lc_tool)


class WeatherArgs(BaseModel):
    location: str = Field(description="想要查询的城市")
    units: Literal["celsius", "fahrenheit"] = Field(
        description="温度单位，celsius：摄氏度，fahrenheit：华氏度"
    )


def test_the_seeds_pydantic_form() -> None:
    @tool
    def get_weather(args: WeatherArgs) -> str:
        """获取某个城市的天气信息"""
        if "西安" in args.location:
            return "5 摄氏度" if args.units == "celsius" else "41 华氏度"
        return "6 摄氏度" if args.units == "celsius" else "42.8 华氏度"

    assert isinstance(get_weather, Tool) and get_weather.takes_model
    # Differences from the seed's listing 7.8, on purpose: no pydantic "title" keys.
    assert get_weather.description == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "获取某个城市的天气信息",
            "parameters": convert_to_openai_tool(WeatherArgs)["function"]["parameters"],
        },
    }
    assert get_weather.invoke('{"location": "西安", "units": "fahrenheit"}', "c1") == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "41 华氏度",
    }
    assert get_weather.invoke('{"location": "北京", "units": "celsius"}') == {
        "role": "tool",
        "content": "6 摄氏度",
    }


def test_definition_problems_are_collected_and_named() -> None:
    def broken(x, _y: int, *rest, z: int = 1):  # type: ignore[no-untyped-def]
        """Do something.

        Args:
            x: A value.
            w: Not a parameter.
        """

    with pytest.raises(ToolDefinitionError) as caught:
        tool(broken)
    assert caught.value.tool_name == "broken"
    assert caught.value.problems == [
        "parameter 'x' has no type annotation; add one.",
        "parameter '_y' starts with '_'; rename it.",
        "parameter '_y' is not described; add '_y: <what it is>' under 'Args:' in the "
        "docstring (after a blank line).",
        "*rest cannot be described to a model; use named parameters.",
        "parameter 'z' is not described; add 'z: <what it is>' under 'Args:' in the "
        "docstring (after a blank line).",
        "'Args:' documents 'w', which is not a parameter; remove it or fix the name.",
    ]


def test_a_function_without_docstring_or_with_a_bad_name_is_refused() -> None:
    def nodoc(x: int) -> int:
        return x

    with pytest.raises(ToolDefinitionError, match="has no docstring"):
        tool(nodoc)
    with pytest.raises(ToolDefinitionError, match=r"must match"):
        tool(lambda x: x)


WEATHER = tool(tools.get_weather.func)
HINT = (
    "Call get_weather again with a JSON object of: city (string, required), unit (one of "
    '"celsius", "fahrenheit").'
)


@pytest.mark.parametrize(
    ("arguments", "content"),
    [
        ('{"city": "北京"}', "北京 (Beijing): 6 °C, sunny"),
        ({"city": "西安", "unit": "fahrenheit"}, "西安 (Xi'an): 41 °F, overcast"),
        ('"{\\"city\\": \\"西安\\"}"', "西安 (Xi'an): 5 °C, overcast"),
        (
            '{"city": "北京"',
            "Error: the arguments for get_weather are not a JSON object (Expecting ',' "
            f"delimiter: line 1 column 14 (char 13)). {HINT}",
        ),
        (
            "[1, 2]",
            "Error: the arguments for get_weather are not a JSON object (got list '[1, 2]'). "
            + HINT,
        ),
        ("", f"Error: invalid arguments for get_weather: city: Field required. {HINT}"),
        (
            '{"city": "北京", "unit": "kelvin"}',
            "Error: invalid arguments for get_weather: unit: Input should be 'celsius' or "
            f"'fahrenheit'. {HINT}",
        ),
        (
            '{"town": "北京"}',
            "Error: invalid arguments for get_weather: city: Field required; town: Extra "
            f"inputs are not permitted. {HINT}",
        ),
        ('{"city": "Paris"}', "Error: Unknown city 'Paris'. Ask for one of: 北京 (Beijing), "),
    ],
)
def test_invoke_feeds_errors_back_as_content(arguments, content: str) -> None:
    message = WEATHER.invoke(arguments, "call_9")
    assert message["role"] == "tool" and message["tool_call_id"] == "call_9"
    assert message["content"].startswith(content)


def test_a_tool_that_raises_is_reported_not_raised() -> None:
    @tool
    def divide(a: int, b: int) -> float:
        """Divide a by b.

        Args:
            a: The dividend.
            b: The divisor.
        """
        return a / b

    assert divide.invoke('{"a": 1, "b": 0}')["content"] == (
        "Error: divide failed: ZeroDivisionError: division by zero"
    )
    assert divide.invoke('{"a": 3, "b": 2}')["content"] == "1.5"
    assert divide(8, 2) == 4


# --- the HTTP client --------------------------------------------------------------------------


def test_the_request_uses_tools_tool_choice_and_parallel_tool_calls() -> None:
    with ScriptedServer([completion("hi"), completion("forced")]) as server:
        llm = _llm(server, model="qwen-plus")
        choice = llm.chat_completion([{"role": "user", "content": "hi"}], BARE_TOOLS)
        llm.chat_completion(
            [], BARE_TOOLS[:1], tool_choice="get_weather", parallel_tool_calls=False
        )
    assert choice["message"] == {"role": "assistant", "content": "hi"}
    first, second = (r.json for r in server.chat_requests)
    assert first == {
        "model": "qwen-plus",
        "messages": [{"role": "user", "content": "hi"}],
        "temperature": 0.0,
        "tools": [convert_to_openai_tool(t) for t in tools.ALL_TOOLS],
        "tool_choice": "auto",
        "parallel_tool_calls": True,
    }
    assert second["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert second["parallel_tool_calls"] is False
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {CANARY}"


def test_tool_choice_is_sent_in_openai_form_and_a_bad_one_is_refused_before_sending() -> None:
    with ScriptedServer([completion("a"), completion("b")]) as server:
        llm = _llm(server)
        llm.chat_completion([{"role": "user", "content": "hi"}], BARE_TOOLS, tool_choice="any")
        llm.chat_completion([{"role": "user", "content": "hi"}], BARE_TOOLS, tool_choice="none")
        with pytest.raises(ConfigError, match="tool_choice='' is not valid: tool_choice must be"):
            llm.chat_completion([{"role": "user", "content": "hi"}], BARE_TOOLS, tool_choice="")
    assert [r.json["tool_choice"] for r in server.chat_requests] == ["required", "none"]


def test_no_tools_means_no_tool_fields() -> None:
    with ScriptedServer([completion("hi")]) as server:
        _llm(server).chat_completion([{"role": "user", "content": "hi"}])
    assert set(server.chat_requests[0].json) == {"model", "messages", "temperature"}


def test_the_key_is_not_in_the_repr() -> None:
    with ScriptedServer() as server:
        llm = _llm(server)
        assert repr(llm) == f"LLM(model='gpt-4o-mini', base_url='{server.base_url}')"
        assert CANARY not in repr(llm) and CANARY not in str(vars(llm))


def _error(server: ScriptedServer, **kwargs: object) -> str:
    with pytest.raises(EndpointError) as caught:
        _llm(server, **kwargs).chat_completion([{"role": "user", "content": "hi"}])
    message = str(caught.value)
    assert CANARY not in message
    return message


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            Reply.error(500, "internal failure"),
            "answered HTTP 500: internal failure — the provider failed; try again later.",
        ),
        (
            Reply.error(503, "overloaded"),
            "answered HTTP 503: overloaded — the provider failed; try again later.",
        ),
        (
            Reply.error(429, "Too many requests", "rate_limit_error"),
            "answered HTTP 429: Too many requests — the provider is rate-limiting; wait and try "
            "again.",
        ),
        (
            Reply.error(401, f"Incorrect API key provided: {CANARY}", "invalid_request_error"),
            "answered HTTP 401: Incorrect API key provided: ********** — check the API key "
            "(QWEN_API_KEY or OPENAI_API_KEY).",
        ),
        (
            Reply.raw("upstream down", 502, "text/plain"),
            "answered HTTP 502: upstream down — the provider failed; try again later.",
        ),
        (
            Reply.raw("<html>hello</html>", 200, "text/html"),
            "answered HTTP 200 with a body that is not JSON: '<html>hello</html>'. Is the base "
            "URL an OpenAI-compatible endpoint ending in /v1?",
        ),
        (
            Reply.json({"id": "x", "choices": []}),
            'answered without any choice (body starts \'{"id": "x", "choices": []}\'); it is '
            "not a chat completion.",
        ),
        (
            Reply.json({"choices": [{"index": 0, "finish_reason": "stop"}]}),
            "answered a choice without a message: {'index': 0, 'finish_reason': 'stop'}.",
        ),
        (
            Reply.drop(),
            ": Server disconnected without sending a response. Check that the server is running "
            "and that OPENAI_BASE_URL (or QWEN_BASE_URL) is right.",
        ),
    ],
    ids=[
        "500",
        "503",
        "429",
        "401-echoing-key",
        "502-text",
        "not-json",
        "no-choices",
        "no-message",
        "dropped",
    ],
)
def test_endpoint_errors(reply: Reply, expected: str) -> None:
    with ScriptedServer([reply]) as server:
        message = _error(server)
    assert message.endswith(expected)
    assert f"{server.base_url}/chat/completions" in message


def test_timeout_names_the_setting_to_raise() -> None:
    with ScriptedServer([Reply.json(completion("late")).after(10)]) as server:
        message = _error(server, timeout=0.3)
    assert message == (
        f"{server.base_url}/chat/completions did not answer within 0.3 s; raise TOOLKIT_TIMEOUT "
        "(or LLM(timeout=...)) or check the server."
    )


def test_connection_refused() -> None:
    server = ScriptedServer()
    server.close()
    message = _error(server)
    assert message.startswith(f"Cannot reach {server.base_url}/chat/completions: ")
    assert message.endswith(
        "Check that the server is running and that OPENAI_BASE_URL (or QWEN_BASE_URL) is right."
    )


# --- the agent --------------------------------------------------------------------------------


def _seed_script() -> list[dict]:
    return [
        completion(
            "",
            [
                tool_call("get_weather", {"city": "北京", "unit": "celsius"}, "call_bj"),
                tool_call("get_weather", {"city": "西安", "unit": "celsius"}, "call_xa"),
            ],
        ),
        completion("", [tool_call("add", {"x": 6, "y": 5}, "call_add")]),
        completion(ANSWER),
    ]


def _call(call_id: str, name: str, arguments: dict) -> dict:
    text = json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


SEED_HISTORY = [
    {"role": "system", "content": "You are a helpful assistant"},
    {"role": "user", "content": QUESTION},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            _call("call_bj", "get_weather", {"city": "北京", "unit": "celsius"}),
            _call("call_xa", "get_weather", {"city": "西安", "unit": "celsius"}),
        ],
    },
    {"role": "tool", "tool_call_id": "call_bj", "content": "北京 (Beijing): 6 °C, sunny"},
    {"role": "tool", "tool_call_id": "call_xa", "content": "西安 (Xi'an): 5 °C, overcast"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [_call("call_add", "add", {"x": 6, "y": 5})],
    },
    {"role": "tool", "tool_call_id": "call_add", "content": "11"},
    {"role": "assistant", "content": ANSWER},
]


def _shape(message: dict) -> tuple:
    """A message's shape as in listing 7.12: role, keys and the names of its tool calls."""
    calls = tuple(c["function"]["name"] for c in message.get("tool_calls", ()))
    return message["role"], tuple(sorted(message)), calls


def test_the_seeds_run_against_a_scripted_endpoint() -> None:
    with ScriptedServer(_seed_script()) as server:
        agent = create_agent(_llm(server), [tool(tools.add.func), tool(tools.get_weather.func)])
        lengths = [len(history) for history in agent.run({"role": "user", "content": QUESTION})]
    assert agent.history == SEED_HISTORY
    assert lengths == [2, 3, 4, 5, 6, 7, 8]
    assert (agent.stop_reason, agent.stop_detail) == ("stop", "The model answered.")
    sent = [r.json["messages"] for r in server.chat_requests]
    assert sent == [SEED_HISTORY[:2], SEED_HISTORY[:5], SEED_HISTORY[:7]]
    assert all("function_call" not in r.json for r in server.chat_requests)


def test_unknown_tool_and_bad_json_are_fed_back() -> None:
    script = [
        completion(
            None,
            [tool_call("get_wether", {"city": "北京"}, "c1"), tool_call("add", '{"x": 6,', "c2")],
        ),
        completion("done"),
    ]
    with ScriptedServer(script) as server:
        agent = _agent(server)
        history = list(agent.run("hi"))[-1]
    assert history[3:5] == [
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": "Error: Unknown tool 'get_wether'. Call one of: get_weather, add.",
        },
        {
            "role": "tool",
            "tool_call_id": "c2",
            "content": "Error: the arguments for add are not a JSON object (Expecting property "
            "name enclosed in double quotes: line 1 column 9 (char 8)). Call add again with a "
            "JSON object of: x (integer, required), y (integer, required).",
        },
    ]
    assert server.chat_requests[1].json["messages"][3:5] == history[3:5]
    assert agent.stop_reason == "stop"


def test_a_call_without_id_gets_one_and_its_answer_matches() -> None:
    call = {"type": "function", "function": {"name": "add", "arguments": {"x": 1, "y": 2}}}
    with ScriptedServer([completion(None, [call]), completion("3")]) as server:
        agent = _agent(server)
        history = list(agent.run("1+2"))[-1]
    sent_call = history[2]["tool_calls"][0]
    assert sent_call["id"].startswith("call_")
    assert sent_call["function"]["arguments"] == '{"x": 1, "y": 2}'
    assert history[3] == {"role": "tool", "tool_call_id": sent_call["id"], "content": "3"}


def test_length_ends_the_run_with_a_clear_state() -> None:
    with ScriptedServer([completion("北京和西安的气温", finish_reason="length")]) as server:
        agent = _agent(server)
        history = list(agent.run(QUESTION))[-1]
    assert history[-1] == {"role": "assistant", "content": "北京和西安的气温"}
    assert agent.stop_reason == "length"
    assert agent.stop_detail == (
        "The reply was cut off at the token limit (finish_reason 'length'); raise max_tokens "
        "(LLM(max_tokens=...)) or shorten the conversation."
    )
    assert len(server.chat_requests) == 1


def test_cut_off_tool_calls_are_answered_but_not_run() -> None:
    cut = completion(None, [tool_call("add", '{"x": 6, "y"', "c1")], finish_reason="length")
    with ScriptedServer([cut]) as server:
        agent = _agent(server)
        history = list(agent.run("6+5"))[-1]
    assert history[-1] == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "Error: not run, because the reply ended with finish_reason 'length' (its "
        "arguments may be incomplete).",
    }
    assert agent.stop_reason == "length"


@pytest.mark.parametrize(
    ("reason", "detail"),
    [
        (
            "content_filter",
            "The provider's content filter stopped the reply (finish_reason 'content_filter'); "
            "rephrase the request.",
        ),
        (
            "function_call",
            "The model stopped with finish_reason 'function_call', which this agent does not "
            "handle; the run ended there.",
        ),
    ],
)
def test_other_finish_reasons_stop_the_run(reason: str, detail: str) -> None:
    with ScriptedServer([completion("…", finish_reason=reason)]) as server:
        agent = _agent(server)
        list(agent.run("hi"))
    assert (agent.stop_reason, agent.stop_detail) == (reason, detail)


def test_the_step_limit_ends_endless_tool_calls() -> None:
    forever = [completion(None, [tool_call("add", {"x": i, "y": 1}, f"c{i}")]) for i in range(5)]
    with ScriptedServer(forever) as server:
        agent = _agent(server, max_steps=3)
        history = list(agent.run("count"))[-1]
    assert len(server.chat_requests) == 3
    assert [m["role"] for m in history] == ["system", "user"] + ["assistant", "tool"] * 3
    assert agent.stop_reason == "max_steps"
    assert agent.stop_detail == (
        "Stopped after 3 model calls without a final answer; raise max_steps "
        "(Agent(max_steps=...)) or make the tools' answers more useful."
    )


def test_an_endpoint_failure_mid_run_keeps_the_history() -> None:
    script = [_seed_script()[0], Reply.error(503, "overloaded")]
    with ScriptedServer(script) as server:
        agent = _agent(server)
        seen = []
        with pytest.raises(EndpointError, match="HTTP 503: overloaded"):
            for history in agent.run(QUESTION):
                seen.append(len(history))
    assert seen == [2, 3, 4, 5]
    assert agent.history == SEED_HISTORY[:5]


def test_history_carries_over_to_the_next_question() -> None:
    with ScriptedServer([completion("first"), completion("second")]) as server:
        agent = _agent(server, system_prompt="Answer briefly.")
        list(agent.run("one"))
        list(agent.run("two"))
    assert server.chat_requests[1].json["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": "first"},
        {"role": "user", "content": "two"},
    ]


def test_bad_messages_and_settings_are_refused_clearly() -> None:
    with ScriptedServer() as server:
        agent = _agent(server)
        with pytest.raises(ValueError, match="expected the user message as text"):
            list(agent.run({"role": "system", "content": "x"}))
        with pytest.raises(ValueError, match="max_steps must be at least 1"):
            _agent(server, max_steps=0)
        with pytest.raises(ToolDefinitionError, match="'add' cannot be used"):
            Agent(_llm(server), [tool(tools.add.func), tool(tools.add.func)])


# --- the embedded model -----------------------------------------------------------------------


def test_the_seeds_question_end_to_end_on_the_embedded_model(local_server) -> None:
    llm = LLM(load_settings(), base_url=local_server.base_url, api_key=local_server.api_key)
    agent = create_agent(llm, [tool(tools.add.func), tool(tools.get_weather.func)])
    yielded = [list(history) for history in agent.run({"role": "user", "content": QUESTION})]
    history = agent.history
    assert [len(h) for h in yielded] == list(range(2, len(history) + 1))
    assert [_shape(m) for m in history[:-1]] == [_shape(m) for m in SEED_HISTORY[:-1]], (
        "listing 7.12: both weather calls in one reply (parallel), then add, then the answer"
    )
    assert _shape(history[-1])[:2] == ("assistant", ("content", "role"))
    cities = [json.loads(c["function"]["arguments"])["city"] for c in history[2]["tool_calls"]]
    assert sorted(cities) == ["北京", "西安"]
    assert json.loads(history[5]["tool_calls"][0]["function"]["arguments"]) == {"x": 6, "y": 5}
    assert history[6]["content"] == "11"
    assert "11" in history[-1]["content"]
    assert agent.stop_reason == "stop"
