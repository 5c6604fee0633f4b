"""The embedded model as an agent, over real HTTP: the ways a small model goes wrong.

Each test is a case of one failure class, run end to end through clients nobody on the team
wrote (the seed's own tinyLangChain typed in as printed, LangGraph's ``create_agent``) or the
toolkit's loop:

1. the final answer repeats one tool result instead of answering;
2. a factual question with a fitting tool is answered with an invented fact;
3. call JSON leaks into a text answer;
4. a chain's later step uses wrong values, or the loop runs out of steps repeating calls;
5. a tool that cannot help (it answers with an error) is reported as a value it never gave;
6. a question no offered tool fits is forced onto the one tool there is;
7. a value the user gave in other words (an English city name for a tool whose data is in
   Chinese) is written as the model's translation, which the grounding check rejects;
8. a negative result loses its minus sign in the final answer;
9. an optional parameter is filled with a guess (a start year nobody asked for);
10. a list of numbers is run together into one ("4,6 and 8" written as 46);
11. a description's example is written as the user's value ("Everest" asked about Fuji);
12. a chain's later step is written before the result it needs (``add(144, 7)`` for "144
    divided by 12, then add 7");
13. once a step has combined the results, the model asks for the same call again (each
    attempt generated before it can be refused) instead of answering;
14. a lookup chain asks the second tool about the first value again (the employee's email,
    not the manager's) instead of about the first tool's answer;
15. a call runs into a loop (the same list item until the token budget ends);
16. a lookup chain stops at the first answer, a name, when the question asks about that name;
17. a question the model would answer from its own recall, with the tool that knows the
    answer offered, is answered with an invented fact ("埃及的首都是埃及。");
18. two looked-up numbers are compared the wrong way round ("Anna is younger than Ben" at
    34 against 29);
19. a chain whose first call asks the wrong tool (the time zone of "法国", a country) ends
    with "no answer" though another tool was never tried;
20. a chain's first step is skipped: the model fills in the looked-up value itself
    (``get_utc_offset("Tokyo")`` asked about the capital of Japan), which nobody gave;
21. a date the user wrote in words ("July 9, 2023") is taken, in the tool's spelling
    ("2023-07-09"), for a date nobody gave, and the call that holds it is never made;
22. a unit written onto its number ("4cm") is taken for a guess and left out;
23. a value the tool refuses in the form it was written (a plural, a title in its 《》, two
    items as one value, part of a key the refusal lists) is given up, though another form
    of it is the tool's;
24. a chain of arithmetic starts with the operation the question ends with (the division of
    "95 加 57，然后把结果除以 8" first), or never takes the factor a word states ("halve the
    result": a 2 nobody wrote in digits), and runs on past its answer;
25. looked-up values are combined with a number used twice (``calculate("(6 + 12) * 22")``
    for the average of 6, 12 and 22);
26. once a plan's last step has its result, the answer copies the question out instead of
    stating it;
27. one tool called for several values is answered with one of its results;
28. a request the model means to call for, while it would write a name of its own rather
    than the offered tool's, is answered in text ("Mark task as completed"); and a request
    no tool fits, whose words could fill one, is made a call of that tool;
29. a question no tool fits is made a call of the one tool there is with numbers nobody
    stated (``heat_energy(1000, 4.184, 20)`` for "What is the specific heat of water?");
30. a yes-or-no the question says ("free entry") is left out of the call;
31. a word problem told as a story is read as a chain of steps ("之后 … 又"), or a price and
    the count sold are subtracted;
32. a question no tool is about, asked of a lookup that failed, is answered with the failure.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import httpx
import openai
import pytest
from helpers import embedded_chat
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.tools import ToolException, tool
from langchain_openai import ChatOpenAI

from toolkit.eval.agent_checks import leaked_call, recites_results, ungrounded_numbers
from toolkit.loop import ToolLoop
from toolkit.schema import tool_schema
from tools import (
    add,
    calculate,
    get_capital,
    get_population,
    get_price,
    get_weather,
)
from tools import multiply as multiply_xy

SEED = Path(__file__).parent / "seed"
ELEVEN = re.compile(r"(?<![\d.])11(?![\d.])")


def _chat(local_server) -> ChatOpenAI:
    return embedded_chat(local_server)


def _sdk(local_server) -> openai.OpenAI:
    """The OpenAI SDK's client of the embedded server."""
    return openai.OpenAI(
        base_url=local_server.base_url, api_key=local_server.api_key or "local", timeout=900
    )


def _printed_messages(stdout: str) -> list[dict]:
    """The messages listing 7.11 prints, one dict literal after each banner."""
    return [ast.literal_eval(line) for line in stdout.splitlines() if line.startswith("{")]


def test_the_seeds_listing_7_11_as_printed_answers_with_the_sum(local_server) -> None:
    env = {
        **os.environ,
        "OPENAI_API_BASE": local_server.base_url,
        "OPENAI_API_KEY": local_server.api_key or "local",
    }
    done = subprocess.run(
        [sys.executable, "listing_7_11.py"],
        cwd=SEED,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    messages = _printed_messages(done.stdout)
    calls = [
        (call["function"]["name"], json.loads(call["function"]["arguments"]))
        for message in messages
        for call in message.get("tool_calls") or []
    ]
    assert ("add", {"x": 6, "y": 5}) in calls
    assert {args["location"] for name, args in calls if name == "get_weather"} == {"北京", "西安"}
    final = messages[-1]
    assert final["role"] == "assistant" and not final.get("tool_calls")
    assert ELEVEN.search(final["content"]), final["content"]  # not "6 摄氏度"
    assert not leaked_call(final["content"])


def test_create_agent_on_the_seeds_tools_answers_with_the_sum(local_server) -> None:
    agent = create_agent(_chat(local_server), [add, get_weather])
    state = agent.invoke({"messages": [("user", "计算一下北京和西安的气温的总和")]})
    final = state["messages"][-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert ELEVEN.search(final.text), final.text
    assert any("\u4e00" <= ch <= "\u9fff" for ch in final.text)  # in the question's language


def test_a_fact_a_tool_knows_is_looked_up_not_invented(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_weather, get_price]).run(
        "How much does a cup of coffee cost?"
    )
    assert result.answered
    names = [c["name"] for m in result.transcript if isinstance(m, AIMessage) for c in m.tool_calls]
    assert "get_price" in names
    assert re.search(r"(?<![\d.])28(?![\d.])", result.answer), result.answer
    results = [str(m.content) for m in result.transcript if m.type == "tool"]
    assert (
        ungrounded_numbers(result.answer, ["How much does a cup of coffee cost?", *results]) == []
    )


def _loop_calls(result) -> list[tuple[str, dict]]:
    return [
        (c["name"], c["args"])
        for m in result.transcript if isinstance(m, AIMessage) for c in m.tool_calls
    ]  # fmt: skip


def _asked(call_id: str, name: str, arguments: dict) -> dict:
    function = {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}
    call = {"id": call_id, "type": "function", "function": function}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _answered(call_id: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_a_text_answer_never_holds_a_call(local_server) -> None:
    # A conversation where the model, asked to answer in text, wants to write a call:
    # after three calculations it reached for a fourth as JSON.
    messages = [
        {"role": "user", "content": "北京和上海的人口加起来一共是多少百万？"},
        _asked("a", "get_population", {"city": "北京"}),
        _answered("a", "北京 (Beijing): 21.9 million people"),
        _asked("b", "get_population", {"city": "上海"}),
        _answered("b", "上海 (Shanghai): 24.9 million people"),
    ]
    steps = [("(21.9 + 24.9) * 2", "93.6"), ("93.6 * 2", "187.2"), ("187.2 * 2", "374.4")]
    for step, (expression, value) in enumerate(steps):
        messages += [
            _asked(f"c{step}", "calculate", {"expression": expression}),
            _answered(f"c{step}", value),
        ]
    tools = [tool_schema(get_population), tool_schema(calculate)]
    for choice in ("auto", "none"):
        body = {"messages": messages, "tools": tools, "tool_choice": choice, "temperature": 0}
        reply = httpx.post(f"{local_server.base_url}/chat/completions", json=body, timeout=900)
        message = reply.json()["choices"][0]["message"]
        content = message.get("content") or ""
        assert not leaked_call(content), content
        assert "{" not in content and '"name' not in content, content


def test_a_lookup_chain_uses_the_looked_up_values(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_capital, get_population]).run(
        "How many people live in the capital of France?"
    )
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert calls[0][0] == "get_capital"
    assert ("get_population", {"city": "巴黎"}) in calls or any(
        name == "get_population" and "paris" in str(args).lower() for name, args in calls
    )
    assert re.search(r"2\.1", result.answer), result.answer
    assert result.model_calls <= 4


def test_a_tool_that_cannot_help_gets_an_answer_that_says_so(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_weather]).run("东京今天多少度？")
    assert result.answered, result.hint
    failed = [m for m in result.transcript if m.type == "tool"]
    assert failed and all(m.status == "error" for m in failed)  # Tokyo is not in the tool's data
    assert re.search(r"无法|不能|没有|未知|找不到|不知道|抱歉", result.answer), result.answer
    assert not re.search(r"\d+\s*(°|度|摄氏)", result.answer), result.answer  # no invented reading


_BMI = {
    "type": "function",
    "function": {
        "name": "body_mass_index",
        "description": "Compute a person's body mass index.",
        "parameters": {
            "type": "object",
            "properties": {
                "weight": {"type": "number", "description": "Weight in kilograms."},
                "height": {"type": "number", "description": "Height in meters."},
            },
            "required": ["weight", "height"],
        },
    },
}


def test_a_question_no_tool_fits_is_not_forced_onto_the_tool_there_is(local_server) -> None:
    # The model starts writing a call of a function that is not offered (a triangle's area);
    # the only tool offered must not be called with the triangle's numbers instead.
    question = (
        "Calculate the area of a triangle given the base is 10 meters and height is 5 meters."
    )
    body = {"messages": [{"role": "user", "content": question}], "tools": [_BMI]}
    reply = httpx.post(f"{local_server.base_url}/chat/completions", json=body, timeout=900)
    message = reply.json()["choices"][0]["message"]
    assert not message.get("tool_calls"), message
    content = message.get("content") or ""
    assert "triangle" in content.lower() and not leaked_call(content), content


def test_a_value_is_asked_for_in_the_users_words(local_server) -> None:
    # The model writes get_weather(city="广州") for "Guangzhou": a value nobody gave.
    result = ToolLoop(_chat(local_server), [get_weather, get_price]).run(
        "Is it raining in Guangzhou?"
    )
    assert result.answered, result.hint
    calls = [c["args"] for m in result.transcript if isinstance(m, AIMessage) for c in m.tool_calls]
    assert {"city": "Guangzhou", "unit": "celsius"} in calls or {"city": "Guangzhou"} in calls
    assert "rain" in result.answer.lower(), result.answer


def test_a_negative_result_keeps_its_sign(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_weather]).run("哈尔滨今天多少度？")
    assert result.answered, result.hint
    assert re.search(r"(-|−|零下|负)\s*15(?![\d.])", result.answer), result.answer


def _function(name: str, description: str, properties: dict, required: list[str]) -> dict:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


_EVENTS = _function(
    "presidency_events",
    "List the main events during a US president's time in office.",
    {
        "president": {"type": "string", "description": "The president's name."},
        "start_year": {"type": "integer", "description": "First year to include (optional)."},
        "end_year": {"type": "integer", "description": "Last year to include (optional)."},
    },
    ["president"],
)
_FACTORIAL = _function(
    "factorial",
    "Compute the factorial of a number.",
    {"number": {"type": "integer", "description": "The number."}},
    ["number"],
)


def _sdk_calls(local_server, question: str, tool: dict) -> list[dict]:
    client = _sdk(local_server)
    reply = client.chat.completions.create(
        model="local", messages=[{"role": "user", "content": question}], tools=[tool]
    )
    calls = reply.choices[0].message.tool_calls or []
    return [json.loads(call.function.arguments) for call in calls]


def test_an_optional_parameter_nobody_gave_is_left_to_the_tool(local_server) -> None:
    # The model writes start_year=1961, end_year=1965: years nobody gave (and wrong ones).
    question = "What happened while Abraham Lincoln was president?"
    calls = _sdk_calls(local_server, question, _EVENTS)
    assert calls and all("Lincoln" in call["president"] for call in calls), calls
    assert all(set(call) == {"president"} for call in calls), calls  # no invented years


def test_a_list_of_numbers_is_not_run_together(local_server) -> None:
    # The model's first call is factorial(37); written again, then one call per number.
    calls = _sdk_calls(local_server, "What is the factorial of 3,7 and 9?", _FACTORIAL)
    assert sorted(call["number"] for call in calls) == [3, 7, 9], calls


_HEIGHT = _function(
    "get_height",
    "Get the height of a mountain in meters.",
    {"mountain": {"type": "string", "description": 'The mountain\'s name, e.g. "Everest".'}},
    ["mountain"],
)


def test_a_description_example_is_not_the_users_value(local_server) -> None:
    # The model writes get_height(mountain="Everest"), the description's example, then
    # "Everst" when the word is excluded; the call is written in the user's own words.
    calls = _sdk_calls(local_server, "How tall is Mount Fuji?", _HEIGHT)
    assert calls and all("fuji" in call["mountain"].lower() for call in calls), calls


@tool(parse_docstring=True)
def divide(a: float, b: float) -> float:
    """Divide one number by another.

    Args:
        a: The dividend.
        b: The divisor.
    """
    return a / b


def test_a_chains_later_step_waits_for_the_result(local_server) -> None:
    # Made to write one more call after divide(144, 12), the model writes add(144, 7); with
    # 12.0 in view it writes add(144, 7) again.
    result = ToolLoop(_chat(local_server), [divide, add]).run(
        "Compute 144 divided by 12, then add 7."
    )
    assert result.answered, result.hint
    steps = [
        [(c["name"], c["args"]) for c in m.tool_calls]
        for m in result.transcript if isinstance(m, AIMessage) and m.tool_calls
    ]  # fmt: skip
    assert steps[0] == [("divide", {"a": 144, "b": 12})], steps
    assert ("add", {"x": 12, "y": 7}) in steps[1], steps
    assert re.search(r"(?<![\d.])19(?![\d])", result.answer), result.answer


def _seed_step(call_id: str, name: str, arguments: str) -> dict:
    function = {"name": name, "arguments": arguments}
    return {"id": call_id, "type": "function", "function": function}


def test_a_combined_result_is_answered_without_calling_again(local_server) -> None:
    # After add(6, 5) = 11 the model names add again (p 0.86) and writes add(6, 5) a third
    # time; the turn's last step combined the temperatures and left nothing unused.
    messages = [
        {"role": "user", "content": "计算一下北京和西安的气温的总和"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _seed_step("c1", "get_weather", '{"city": "北京"}'),
                _seed_step("c2", "get_weather", '{"city": "西安"}'),
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "北京 (Beijing): 6 °C, sunny"},
        {"role": "tool", "tool_call_id": "c2", "content": "西安 (Xi'an): 5 °C, overcast"},
        {"role": "assistant", "tool_calls": [_seed_step("c3", "add", '{"x": 6, "y": 5}')]},
        {"role": "tool", "tool_call_id": "c3", "content": "11"},
    ]  # fmt: skip
    client = _sdk(local_server)
    reply = client.chat.completions.create(
        model="local",
        messages=messages,
        tools=[tool_schema(get_weather), tool_schema(add)],
    )
    answer = reply.choices[0].message.content or ""
    assert not reply.choices[0].message.tool_calls and ELEVEN.search(answer), answer
    # the answer's own tokens only (fewer than its characters): no call of add was generated
    # and refused first (that attempt alone is 17 tokens)
    assert reply.usage.completion_tokens <= len(answer), (reply.usage, answer)


_MANAGERS = {"王芳": "李强"}
_EMAILS = {"李强": "liqiang@corp.example"}


@tool(parse_docstring=True)
def get_manager(employee: str) -> str:
    """Find who an employee reports to.

    Args:
        employee: The employee's name.
    """
    if employee not in _MANAGERS:
        raise ToolException(f"No employee {employee!r}.")
    return _MANAGERS[employee]


@tool(parse_docstring=True)
def get_email(person: str) -> str:
    """Look up a person's work email address.

    Args:
        person: The person's name.
    """
    if person not in _EMAILS:
        raise ToolException(f"No email for {person!r}.")
    return _EMAILS[person]


def test_a_name_passes_along_a_lookup_chain(local_server) -> None:
    # The model asks get_email("王芳") first (it fails), then get_manager("王芳") = 李强, then
    # get_email("王芳") again: the value get_manager took, whose answer belongs there.
    result = ToolLoop(_chat(local_server), [get_manager, get_email]).run("王芳的经理的邮箱是什么？")
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert ("get_email", {"person": "李强"}) in calls, calls
    assert "liqiang@corp.example" in result.answer, result.answer


@tool(parse_docstring=True)
def sum_numbers(values: list[float]) -> float:
    """Add up a list of numbers.

    Args:
        values: The numbers to add.
    """
    return sum(values)


@tool(parse_docstring=True)
def get_book_pages(title: str) -> int:
    """Get how many pages a book has.

    Args:
        title: The book's title.
    """
    return {"Dune": 412, "Hamlet": 104}[title]


def test_a_call_in_a_loop_is_given_up(local_server) -> None:
    # The model names sum_numbers first and writes "values": [1984, 1984, ...] until the
    # 1024-token budget ends (28 s); given up after 16 equal values, the next tool is tried.
    client = _sdk(local_server)
    reply = client.chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": "How many pages do Dune and Hamlet have together?"}],
        tools=[tool_schema(get_book_pages), tool_schema(sum_numbers)],
    )
    calls = reply.choices[0].message.tool_calls or []
    assert calls and calls[0].function.name == "get_book_pages", calls
    assert reply.usage.completion_tokens < 400, reply.usage


@tool(parse_docstring=True)
def get_team_captain(team: str) -> str:
    """Get the captain of a sports team.

    Args:
        team: The team's name.
    """
    return {"Blue Sharks": "Mia Chen"}[team]


@tool(parse_docstring=True)
def get_player_age(player: str) -> int:
    """Get a player's age in years.

    Args:
        player: The player's name.
    """
    return {"Mia Chen": 27}[player]


def test_a_name_a_lookup_gave_is_looked_up_next(local_server) -> None:
    # After get_team_captain("Blue Sharks") = Mia Chen the model names get_team_captain again
    # (p 0.997) and get_player_age with p 0.001: with a name no call took yet, it is tried.
    tools = [get_team_captain, get_player_age]
    result = ToolLoop(_chat(local_server), tools).run("How old is the captain of the Blue Sharks?")
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert ("get_player_age", {"player": "Mia Chen"}) in calls, calls
    assert re.search(r"(?<![\d.])27(?!\d)", result.answer), result.answer


def test_a_fact_the_model_would_recall_is_looked_up(local_server) -> None:
    # The model prefers text here (p 0.998) and would write "埃及的首都是埃及。"; it names
    # get_capital with p 0.98, so the call is made.
    result = ToolLoop(_chat(local_server), [get_capital, get_population]).run("埃及的首都是哪里？")
    assert result.answered, result.hint
    names = [c["name"] for m in result.transcript if isinstance(m, AIMessage) for c in m.tool_calls]
    assert names[:1] == ["get_capital"], names
    assert "开罗" in result.answer or "Cairo" in result.answer, result.answer


@tool(parse_docstring=True)
def get_age(person: str) -> int:
    """Get a person's age in years.

    Args:
        person: The person's name.
    """
    return {"Anna": 34, "Ben": 29}[person]


def test_two_looked_up_numbers_are_compared_the_right_way_round(local_server) -> None:
    # Both ages are looked up; shown them, the model answered "Anna is younger than Ben."
    client = _sdk(local_server)
    messages = [
        {"role": "user", "content": "Who is younger, Anna or Ben?"},
        _asked_both("get_age", "person", ["Anna", "Ben"]),
        _answered("c0", "34"),
        _answered("c1", "29"),
    ]
    reply = client.chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(get_age)]
    )
    answer = reply.choices[0].message.content or ""
    assert not reply.choices[0].message.tool_calls, reply.choices[0].message
    assert re.search(r"Ben\b[^.]*\byounger", answer), answer
    assert not re.search(r"Anna\b[^.]*\byounger", answer), answer


def _asked_both(name: str, parameter: str, values: list[str]) -> dict:
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps({parameter: v})},
        }
        for i, v in enumerate(values)
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


@tool(parse_docstring=True)
def get_capital_of(country: str) -> str:
    """Get the capital city of a country.

    Args:
        country: The country's name.
    """
    capitals = {"法国": "巴黎", "日本": "东京", "Japan": "Tokyo"}
    if country not in capitals:
        raise ValueError(f"unknown country: {country}")
    return capitals[country]


@tool(parse_docstring=True)
def get_utc_offset(city: str) -> str:
    """Get the UTC offset of a city's time zone.

    Args:
        city: The city's name.
    """
    offsets = {"巴黎": "UTC+1", "东京": "UTC+9", "Tokyo": "UTC+9"}
    if city not in offsets:
        raise ValueError(f"unknown city: {city}")
    return offsets[city]


def test_a_failed_first_step_tries_the_tool_not_yet_called(local_server) -> None:
    # The model asks get_utc_offset("法国") first; it fails (a country, not a city), and the
    # answer would say nothing could be found while get_capital_of was never tried.
    result = ToolLoop(_chat(local_server), [get_capital_of, get_utc_offset]).run(
        "法国首都的时区是什么？"
    )
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert ("get_capital_of", {"country": "法国"}) in calls, calls
    assert "UTC+1" in result.answer, result.answer


def test_a_chains_first_step_the_question_names_is_made(local_server) -> None:
    # The model names get_utc_offset with p 0.998 and writes "Tokyo", a value nobody gave;
    # get_capital_of, which the question names ("capital"), with p under 0.001.
    result = ToolLoop(_chat(local_server), [get_capital_of, get_utc_offset]).run(
        "What is the time zone of the capital of Japan?"
    )
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert calls[:1] == [("get_capital_of", {"country": "Japan"})], calls
    assert "UTC+9" in result.answer, result.answer


_LAKE = _function(
    "get_lake_depth",
    "Get the maximum depth of a lake in metres.",
    {"lake": {"type": "string", "description": "The lake's name."}},
    ["lake"],
)


def test_an_extra_call_that_slips_on_the_users_words_is_written_in_them(local_server) -> None:
    # The model's second call is get_lake_depth("Cater Lake"): nobody's words, so it was given
    # up and the second lake never looked up; written again in the question's phrases.
    calls = _sdk_calls(local_server, "Which lake is deeper, Lake Tahoe or Crater Lake?", _LAKE)
    assert sorted(call["lake"] for call in calls) == ["Crater Lake", "Lake Tahoe"], calls


@tool(parse_docstring=True)
def get_ticket_price(show: str) -> int:
    """Get the price of one ticket to a show, in dollars.

    Args:
        show: The show's name.
    """
    return {"Hamilton": 120}[show]


@tool(parse_docstring=True)
def multiply(first: float, second: float) -> float:
    """Multiply two numbers.

    Args:
        first: The first number.
        second: The second number.
    """
    return first * second


def test_a_result_written_twice_leaves_a_place_for_the_questions_number(local_server) -> None:
    # After the price (120), the model writes multiply(120, 120): the 3 of the question unused.
    result = ToolLoop(_chat(local_server), [get_ticket_price, multiply]).run(
        "What do 3 tickets to Hamilton cost in total?"
    )
    assert result.answered, result.hint
    calls = _loop_calls(result)
    factors = [sorted(args.values()) for name, args in calls if name == "multiply"]
    assert factors == [[3, 120]], calls  # either order: the product is the same
    assert re.search(r"(?<![\d.])360(?![\d]|\.0*[1-9])", result.answer), result.answer


_ROOM = _function(
    "check_room",
    "Check whether a hotel has a free room between two dates.",
    {
        "hotel": {"type": "string", "description": "The hotel's name."},
        "city": {"type": "string", "description": "The city the hotel is in."},
        "check_in": {"type": "string", "description": "The first night, as YYYY-MM-DD."},
        "check_out": {"type": "string", "description": "The day of leaving, as YYYY-MM-DD."},
    },
    ["hotel", "city", "check_in", "check_out"],
)


def test_the_users_dates_in_the_tools_spelling_are_the_users(local_server) -> None:
    # The second stay's "2023-07-09" has no 07 or 09 the question wrote ("July 9, 2023"): the
    # second call was given up as the model's invention, and the second hotel never asked.
    question = (
        "Is there a room at the Grand Palace in Vienna from June 3, 2023 to June 7, 2023, "
        "and at the Lakeside Inn in Geneva from July 9, 2023 to July 12, 2023?"
    )
    calls = _sdk_calls(local_server, question, _ROOM)
    stays = sorted((c["city"], c["check_in"], c["check_out"]) for c in calls)
    assert stays == [
        ("Geneva", "2023-07-09", "2023-07-12"),
        ("Vienna", "2023-06-03", "2023-06-07"),
    ], calls


_CIRCLE = _function(
    "circle_area",
    "Compute the area of a circle.",
    {
        "radius": {"type": "number", "description": "The radius."},
        "unit": {"type": "string", "description": "The unit of the radius. Default is m."},
    },
    ["radius"],
)


def test_a_unit_written_onto_its_number_is_the_users(local_server) -> None:
    # "cm" of "4cm" was no word of the question: the optional unit counted as a guess and was
    # left out, so the tool would have computed in metres.
    calls = _sdk_calls(local_server, "What is the area of a circle with a radius of 4cm?", _CIRCLE)
    assert calls == [{"radius": 4, "unit": "cm"}], calls


_PANTRY = {"dumpling": "12 minutes", "noodle": "4 minutes"}


@tool(parse_docstring=True)
def cooking_time(dish: str) -> str:
    """Get how long a dish takes to cook.

    Args:
        dish: The dish.
    """
    if dish not in _PANTRY:
        raise ToolException(f"No dish named {dish!r} in the cookbook.")
    return _PANTRY[dish]


_SHELF = {"bolts": 40, "nuts": 65, "washers": 120}


@tool(parse_docstring=True)
def count_parts(part: str) -> int:
    """Count the parts of one kind in the workshop.

    Args:
        part: The kind of part.
    """
    if part not in _SHELF:
        raise ToolException(f"No part called {part!r} on the shelves.")
    return _SHELF[part]


def _refused(question: str, tool_: object, arguments: dict) -> list[dict]:
    """The conversation after the model called ``tool_`` with ``arguments`` and it refused."""
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": tool_.name, "arguments": json.dumps(arguments)},
    }
    try:
        tool_.invoke(arguments)
    except ToolException as exc:
        refusal = f"Error: {exc}"
    else:
        raise AssertionError(f"{tool_.name} does not refuse {arguments}")
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": refusal},
    ]


def _next_calls(local_server, messages: list[dict], tool_: object) -> list[dict]:
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(tool_)]
    )
    calls = reply.choices[0].message.tool_calls or []
    return [json.loads(call.function.arguments) for call in calls]


def test_a_refused_plural_is_tried_again_in_the_singular(local_server) -> None:
    # The cookbook keys its dishes in the singular: after "dumplings" was refused the model
    # answered that the cooking time could not be found.
    messages = _refused("How long do dumplings take to cook?", cooking_time, {"dish": "dumplings"})
    assert _next_calls(local_server, messages, cooking_time) == [{"dish": "dumpling"}]


def test_two_parts_refused_as_one_value_are_asked_for_one_by_one(local_server) -> None:
    # "bolts and nuts" as one part was refused; the model gave up.
    question = "How many bolts and nuts are in the workshop altogether?"
    messages = _refused(question, count_parts, {"part": "bolts and nuts"})
    calls = _next_calls(local_server, messages, count_parts)
    assert sorted(c["part"] for c in calls) == ["bolts", "nuts"], calls


def test_a_title_refused_with_its_brackets_is_looked_up_without_them(local_server) -> None:
    # The loop end to end: the poem is asked with its 《》, which the catalogue does not hold.
    @tool(parse_docstring=True)
    def poem_author(title: str) -> str:
        """Find who wrote a classical poem.

        Args:
            title: The poem's title.
        """
        authors = {"登鹳雀楼": "王之涣", "春晓": "孟浩然"}
        if title not in authors:
            raise ToolException(f"No poem titled {title!r} in the catalogue.")
        return authors[title]

    messages = _refused("《春晓》是谁写的？", poem_author, {"title": "《春晓》"})
    assert _next_calls(local_server, messages, poem_author) == [{"title": "春晓"}]


def test_a_refused_value_is_tried_again_as_the_key_the_refusal_lists(local_server) -> None:
    # The tool names its tiers when it refuses one; the model answered that "Gold" was unknown.
    tiers = {"Basic": 0, "Gold Plus": 30, "Platinum": 80}

    @tool(parse_docstring=True)
    def membership_fee(tier: str) -> int:
        """Get the monthly fee of a club membership tier, in euros.

        Args:
            tier: The membership tier.
        """
        if tier not in tiers:
            raise ToolException(f"Tier {tier!r} does not exist. Tiers: {', '.join(tiers)}.")
        return tiers[tier]

    messages = _refused(
        "What does the gold membership cost a month?", membership_fee, {"tier": "Gold"}
    )
    assert _next_calls(local_server, messages, membership_fee) == [{"tier": "Gold Plus"}]


@tool(parse_docstring=True)
def add_numbers(a: float, b: float) -> float:
    """Add two numbers.

    Args:
        a: The first number.
        b: The second number.
    """
    return a + b


@tool(parse_docstring=True)
def subtract_numbers(a: float, b: float) -> float:
    """Subtract b from a.

    Args:
        a: The number to subtract from.
        b: The number to subtract.
    """
    return a - b


@tool(parse_docstring=True)
def multiply_numbers(a: float, b: float) -> float:
    """Multiply two numbers.

    Args:
        a: The first number.
        b: The second number.
    """
    return a * b


@tool(parse_docstring=True)
def divide_numbers(a: float, b: float) -> float:
    """Divide a by b.

    Args:
        a: The dividend.
        b: The divisor.
    """
    return a / b


def test_a_chain_starts_with_the_step_its_first_clause_asks_for(local_server) -> None:
    # Read whole, the question pulls the model to the division it ends with: divide(95, 57)
    # came first. Read up to "95 加 57，" the model is sure of the addition.
    tools = [add_numbers, divide_numbers, multiply_numbers]
    question = "帮我算一下：95 加 57，然后把结果除以 8，等于多少？"
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert calls[0] == ("add_numbers", {"a": 95, "b": 57}), calls
    assert ("divide_numbers", {"a": 152, "b": 8}) in calls, calls
    assert re.search(r"(?<![\d.])19(?![\d]|\.0*[1-9])", result.answer), result.answer


def _steps_answered(question: str, steps: list[tuple[object, dict]]) -> list[dict]:
    """The conversation after each ``(tool, arguments)`` step was called and answered."""
    messages: list[dict] = [{"role": "user", "content": question}]
    for i, (tool_, arguments) in enumerate(steps, 1):
        result = str(tool_.invoke(arguments))
        messages += [_asked(f"call_{i}", tool_.name, arguments), _answered(f"call_{i}", result)]
    return messages


_HALVED = "Take 23 times 6, subtract 40 from that, and then halve the result. What do you get?"
_ARITHMETIC = [multiply_numbers, subtract_numbers, divide_numbers, add_numbers]


def test_a_factor_written_as_a_word_is_the_last_steps_number(local_server) -> None:
    # "halve" states the 2 of the last step; nobody wrote it in digits, so the model's
    # divide(98, 98) had no number to be written again with.
    messages = _steps_answered(
        _HALVED, [(multiply_numbers, {"a": 23, "b": 6}), (subtract_numbers, {"a": 138, "b": 40})]
    )
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(t) for t in _ARITHMETIC]
    )
    calls = reply.choices[0].message.tool_calls or []
    written = [(c.function.name, json.loads(c.function.arguments)) for c in calls]
    assert written == [("divide_numbers", {"a": 98, "b": 2})], written


def test_a_finished_chain_is_answered_not_run_on(local_server) -> None:
    # Once the half answered 49, the model asked subtract(49, 40): the question's 40 a second
    # time, the chain run past its answer.
    messages = _steps_answered(
        _HALVED,
        [
            (multiply_numbers, {"a": 23, "b": 6}),
            (subtract_numbers, {"a": 138, "b": 40}),
            (divide_numbers, {"a": 98, "b": 2}),
        ],
    )
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(t) for t in _ARITHMETIC]
    )
    message = reply.choices[0].message
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])49(?![\d]|\.0*[1-9])", message.content or ""), message.content


# -- 25. a refusal's keys the user names, and a chain's step asked first of the wrong value

#: The cinema's seat types: a Chinese and an English name each, and the price in yuan.
_SEATS = {("普通座", "standard seat"): 45, ("贵宾躺椅座", "VIP recliner seat"): 120}


@tool(parse_docstring=True)
def seat_price(seat_type: str) -> int:
    """Look up the ticket price of a seat type at the Starlight Cinema, in yuan.

    Args:
        seat_type: The seat type.
    """
    for names, price in _SEATS.items():
        if seat_type.strip().casefold() in (n.casefold() for n in names):
            return price
    known = ", ".join(f"{zh} ({en})" for zh, en in _SEATS)
    raise ToolException(f"Seat type {seat_type!r} not found. Seat types: {known}.")


def _tried(question: str, steps: list[tuple[object, dict]]) -> list[dict]:
    """The conversation after each ``(tool, arguments)`` step was called, answered or refused."""
    messages: list[dict] = [{"role": "user", "content": question}]
    for i, (tool_, arguments) in enumerate(steps, 1):
        try:
            result = str(tool_.invoke(arguments))
        except ToolException as exc:
            result = f"Error: {exc}"
        messages += [_asked(f"call_{i}", tool_.name, arguments), _answered(f"call_{i}", result)]
    return messages


def _written(local_server, messages: list[dict], tools: list[object]) -> list[tuple[str, dict]]:
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(t) for t in tools]
    )
    calls = reply.choices[0].message.tool_calls or []
    return [(c.function.name, json.loads(c.function.arguments)) for c in calls]


def test_a_refused_key_is_tried_again_as_the_key_the_user_names(local_server) -> None:
    # The model translated half of the user's "VIP Recliner Seats"; the refusal lists the
    # cinema's keys, and before, the retry wrote its own value in the singular instead.
    question = 'What does one of the "VIP Recliner Seats" cost at the Starlight Cinema?'
    messages = _tried(question, [(seat_price, {"seat_type": "贵宾 recliner seats"})])
    written = _written(local_server, messages, [seat_price, add_numbers])
    assert written == [("seat_price", {"seat_type": "VIP recliner seat"})], written


@tool(parse_docstring=True)
def get_film(title: str) -> str:
    """Look up a film in the archive: its year, length and director.

    Args:
        title: The film's title.
    """
    if title.strip() in ("星际旅人", "Star Voyager"):
        return "星际旅人 (Star Voyager): 2019, 128 minutes, director: 陈默 (Chen Mo)"
    raise ToolException(f"No film titled {title!r} in the archive.")


@tool(parse_docstring=True)
def get_director_school(director_name: str) -> str:
    """Find the film school a director graduated from.

    Args:
        director_name: The director's name.
    """
    if director_name.strip() in ("陈默", "Chen Mo"):
        return "北京电影学院 (Beijing Film Academy)"
    raise ToolException(f"No director named {director_name!r} was found.")


def test_a_step_asked_first_of_the_wrong_value_is_made_with_the_records_value(
    local_server,
) -> None:
    # The model asked the school of the film's title, which failed, then looked the film up;
    # the record names the director, and the step still to make is the school of 陈默.
    film = "星际旅人"
    steps = [(get_director_school, {"director_name": film}), (get_film, {"title": film})]
    messages = _tried("星际旅人这部电影的导演是哪所学校毕业的？", steps)
    written = _written(local_server, messages, [get_director_school, get_film, add_numbers])
    assert written == [("get_director_school", {"director_name": "陈默"})], written


# -- 26. records that state several numbers: the field a step and a comparison are about

_FERRIES = {
    "Harbour Ferry": "Pier 1 -> Gull Island, departs 09:10, crossing 40 minutes, fare 35 yuan",
    "Island Ferry": "Gull Island -> Cape Lin, departs 10:20, crossing 55 minutes, fare 48 yuan",
}


@tool(parse_docstring=True)
def get_ferry(ferry: str) -> str:
    """Look up a ferry's route, departure, crossing time and fare.

    Args:
        ferry: The ferry's name.
    """
    if ferry.strip() not in _FERRIES:
        raise ToolException(f"No ferry called {ferry!r}.")
    return f"{ferry.strip()}: {_FERRIES[ferry.strip()]}"


def test_a_sum_over_records_is_made_of_one_field(local_server) -> None:
    # Before, beside add(40, 55), the crossings, the model added the fares, add(35, 48), and
    # two departure minutes to a crossing: four sums for one question.
    question = "先坐 Harbour Ferry，再换 Island Ferry，两段船一共要坐多少分钟？"
    steps = [(get_ferry, {"ferry": "Harbour Ferry"}), (get_ferry, {"ferry": "Island Ferry"})]
    messages = _tried(question, steps)
    written = _written(local_server, messages, [get_ferry, add_numbers])
    assert written == [("add_numbers", {"a": 40, "b": 55})], written


_BRIDGES = {
    name: json.dumps(
        {"bridge": name, "length_m": m, "lanes": lanes, "opened": year}, ensure_ascii=False
    )
    for name, m, lanes, year in [
        ("老石桥", 210, 2, 1887),
        ("新港桥", 480, 6, 1995),
        ("云河桥", 1320, 4, 1962),
    ]
}


@tool(parse_docstring=True)
def get_bridge(bridge: str) -> str:
    """Look up a city bridge: its length in metres, lanes and the year it opened.

    Args:
        bridge: The bridge's name.
    """
    if bridge.strip() not in _BRIDGES:
        raise ToolException(f"No bridge called {bridge!r}.")
    return _BRIDGES[bridge.strip()]


def test_a_comparison_of_records_is_about_the_quantity_its_word_names(local_server) -> None:
    # Each record states a length, lanes and a year; "最早" asks for the year. Before, the
    # model added one bridge's year and its length, add(1887, 210).
    question = "新港桥、云河桥和老石桥，哪座桥建成得最早？"
    steps = [(get_bridge, {"bridge": b}) for b in ("新港桥", "云河桥", "老石桥")]
    messages = _tried(question, steps)
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(get_bridge), tool_schema(add_numbers)]
    )
    answer = reply.choices[0].message.content or ""
    assert not reply.choices[0].message.tool_calls, reply.choices[0].message.tool_calls
    assert re.search(r"老石桥[^，。；]*最早|最早[^，。；]*老石桥", answer), answer


def test_looked_up_values_are_averaged_over_each_value_once(local_server) -> None:
    # Before, the model wrote calculate("(6 + 12) * 22") after the three lookups.
    result = ToolLoop(_chat(local_server), [get_weather, calculate]).run(
        "What is the average temperature of Beijing, Shanghai and Guangzhou?"
    )
    assert result.answered, result.hint
    expressions = [args["expression"] for name, args in _loop_calls(result) if name == "calculate"]
    assert len(expressions) == 1, expressions
    assert re.fullmatch(r"\(?6 \+ 12 \+ 22\)? / 3", expressions[0]), expressions
    assert re.search(r"(?<![\d.])13\.33?(?!\d)", result.answer), result.answer


def test_a_plans_result_is_stated_in_the_answer(local_server) -> None:
    # Before, after add(23, 19) and multiply(42, 3), the answer was the question copied out
    # with one character added.
    result = ToolLoop(_chat(local_server), [add, multiply_xy]).run(
        "一个班有 23 个男生和 19 个女生，每人发 3 支笔，一共要多少支笔？"
    )
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert calls == [("add", {"x": 23, "y": 19}), ("multiply", {"x": 42, "y": 3})], calls
    assert re.search(r"(?<![\d.])126(?![\d.])", result.answer), result.answer


def test_one_tool_called_for_two_values_is_answered_with_both(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_weather]).run("广州和深圳的天气怎么样？")
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert sorted(args["city"] for _, args in calls) == ["广州", "深圳"], calls
    lines = [get_weather.invoke(args) for _, args in calls]  # "广州 (Guangzhou): 22 °C, ..."
    degrees = [re.search(r"(-?\d+) °C", line).group(1) for line in lines]
    assert all(d in result.answer for d in degrees), (result.answer, degrees)


_SWAP_DISH = _function(
    "SwDish",
    "Swap the dish of the order.",
    {"NewDsh": {"type": "string", "description": "The new dish, upper case."}},
    ["NewDsh"],
)


def test_a_call_meant_under_an_unsure_name_is_made(local_server) -> None:
    # The model all but means to call (text probability about 0.01) but would name the
    # offered tool with about 0.4 only: the call is written under the tools' grammar and
    # made because each value is the user's.
    calls = _sdk_calls(local_server, "swap my noodles for a SALAD please", _SWAP_DISH)
    assert calls and calls[0] == {"NewDsh": "SALAD"}, calls


def test_a_request_no_tool_fits_stays_text_though_its_words_could_fill_a_call(
    local_server,
) -> None:
    # Text probability 0.05 and the offered tools named with 0.01: a call meant, but of no
    # offered tool. Made anyway it was get_weather(city="good morning").
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": 'Translate "good morning" into Chinese.'}],
        tools=[tool_schema(get_weather), tool_schema(get_price)],
    )
    message = reply.choices[0].message
    assert not message.tool_calls, message.tool_calls
    assert re.search("早上好|早安", message.content or ""), message.content


_HEAT = _function(
    "heat_energy",
    "Calculate the heat needed to warm a mass of a substance.",
    {
        "mass_kg": {"type": "number"},
        "specific_heat": {"type": "number"},
        "delta_t": {"type": "number"},
    },
    ["mass_kg", "specific_heat", "delta_t"],
)
_TRAVEL_TIME = _function(
    "travel_time",
    "Calculate the time a trip takes from its distance and speed.",
    {
        "distance_km": {"type": "number", "description": "Distance in km."},
        "speed_kmh": {"type": "number", "description": "Speed in km/h."},
    },
    ["distance_km", "speed_kmh"],
)


def test_a_call_of_numbers_nobody_stated_is_not_made(local_server) -> None:
    # Every call the model would make was rejected; the likeliest one was made anyway, as the
    # question names the tool's words: heat_energy(mass_kg=1000, specific_heat=4.184,
    # delta_t=20), three numbers nobody stated.
    assert _sdk_calls(local_server, "What is the specific heat of water?", _HEAT) == []
    assert _sdk_calls(local_server, "What time is it now?", _TRAVEL_TIME) == []


def test_a_call_of_the_numbers_the_user_stated_is_made(local_server) -> None:
    calls = _sdk_calls(local_server, "How long does a 120 km trip take at 80 km/h?", _TRAVEL_TIME)
    assert calls == [{"distance_km": 120, "speed_kmh": 80}], calls


# -- 30. values in the forms their parameters take, and a text answer that says nothing


def _loan(rate: str) -> dict:
    return _function(
        "loan_payment",
        "Calculate the monthly payment of a loan.",
        {
            "principal": {"type": "number", "description": "The amount borrowed."},
            "annual_rate": {"type": "number", "description": rate},
            "years": {"type": "integer", "description": "The term in years."},
        },
        ["principal", "annual_rate", "years"],
    )


_RUN = _function(
    "run_command",
    "Run a command in the Windows command prompt.",
    {
        "command": {"type": "string", "description": "The command line to run."},
        "shell": {
            "type": "string",
            "description": "The shell to run it in.",
            "enum": ["cmd", "powershell"],
            "default": "powershell",
        },
    },
    ["command"],
)


def test_a_percentage_is_written_as_the_rate_parameter_takes_it(local_server) -> None:
    question = "What is the monthly payment on a $20000 loan at 6% a year over 4 years?"
    calls = _sdk_calls(local_server, question, _loan("The yearly interest rate."))
    assert calls == [{"principal": 20000, "annual_rate": 0.06, "years": 4}], calls
    # a description that says percent keeps the number stated
    calls = _sdk_calls(local_server, question, _loan("The yearly interest rate in percent."))
    assert calls == [{"principal": 20000, "annual_rate": 6, "years": 4}], calls


def test_a_choice_nobody_asked_for_is_left_to_the_tool(local_server) -> None:
    # The model writes shell="cmd": a choice nobody asked for, not the tool's default.
    calls = _sdk_calls(local_server, "show the files in my documents folder with dir", _RUN)
    assert calls and all(call.get("shell", "powershell") == "powershell" for call in calls), calls
    assert all("dir" in call["command"] for call in calls), calls


def test_a_text_answer_that_only_writes_the_call_out_gives_way_to_the_call(
    local_server,
) -> None:
    calls = _sdk_calls(local_server, "close firefox using taskkill command", _RUN)
    assert len(calls) == 1 and "taskkill" in calls[0]["command"], calls


# 31. A total asked for, answered in text: "in total", "比……长多少" after the lookups.


def test_a_difference_asked_after_the_lookups_is_computed_not_recited(local_server) -> None:
    question = "云河桥比新港桥长多少米？"
    steps = [(get_bridge, {"bridge": "云河桥"}), (get_bridge, {"bridge": "新港桥"})]
    written = _written(local_server, _tried(question, steps), [get_bridge, subtract_numbers])
    assert written == [("subtract_numbers", {"a": 1320, "b": 480})], written


def test_a_total_asked_after_the_lookups_is_computed_not_recited(local_server) -> None:
    question = "How many minutes do the Harbour Ferry and the Island Ferry crossings take in total?"
    steps = [(get_ferry, {"ferry": "Harbour Ferry"}), (get_ferry, {"ferry": "Island Ferry"})]
    written = _written(local_server, _tried(question, steps), [get_ferry, add_numbers])
    assert written == [("add_numbers", {"a": 40, "b": 55})], written
    # asked for each value, the answer states them: no sum is made
    question = "How many minutes does each crossing take, the Harbour Ferry's and the Island's?"
    written = _written(local_server, _tried(question, steps), [get_ferry, add_numbers])
    assert written == [], written


# 32. A description's example is no value of the user's: "Saltmarsh Observatory" asked about
# another observatory, the example kept in the tool's description as @tool keeps a docstring.


@tool
def get_salt_mine(mine: str) -> dict:
    """Look up a salt mine's depth, yearly salt output (tonnes) and total tunnel length.

    Args:
        mine: The mine's name in English or Chinese, e.g. "Pellmarsh Salt Mine" or "佩尔沼盐矿".
    """
    return {"mine": mine, "depth_m": 310}


@tool
def get_observatory(observatory: str) -> dict:
    """Look up an observatory's altitude, main telescope aperture and director.

    Args:
        observatory: The observatory's name in English or Chinese, e.g. "Saltmarsh Observatory"
            or "盐沼天文台".
    """
    return {"observatory": observatory, "main_telescope_aperture_m": 1.8}


def test_a_description_example_copied_for_another_name_is_not_called(local_server) -> None:
    # Before, the model asked get_observatory("Saltmarsh Observatory"), the example, then the
    # observatory asked about.
    question = "How wide is the main telescope at the Kestrel Peak Observatory, in metres?"
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": question}],
        tools=[tool_schema(get_salt_mine), tool_schema(get_observatory)],
    )
    calls = [json.loads(c.function.arguments) for c in reply.choices[0].message.tool_calls or []]
    assert calls == [{"observatory": "Kestrel Peak Observatory"}], calls


# 33. Each value asked for on its own is stated, not summed.

_ORCHARDS = {"青石果园": (120, 35.5), "柳溪果园": (86, 22.4), "白鹭果园": (143, 41.8)}


@tool
def get_orchard(orchard: str) -> str:
    """Look up an orchard's apple trees and its yearly harvest.

    Args:
        orchard: The orchard's name.
    """
    trees, tonnes = _ORCHARDS[orchard.strip()]
    return f"{orchard.strip()}：共有{trees}棵苹果树，年产苹果约{tonnes}吨"


def test_values_asked_for_each_on_its_own_are_not_summed(local_server) -> None:
    question = "青石果园、柳溪果园和白鹭果园各有多少棵苹果树？"
    messages = [
        {"role": "user", "content": question},
        _asked_both("get_orchard", "orchard", [*_ORCHARDS]),
    ]
    messages += [
        _answered(f"c{i}", get_orchard.invoke({"orchard": n})) for i, n in enumerate(_ORCHARDS)
    ]
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=messages,
        tools=[tool_schema(get_orchard), tool_schema(add)],
    )
    message = reply.choices[0].message
    assert not message.tool_calls, message.tool_calls
    assert message.content and "349" not in message.content, message.content


# 34. The results copied out line by line are written again as a sentence.

_STATIONS = {
    "青枫气象站": "青枫气象站：海拔1520米，去年降雨量864毫米",
    "白沙气象站": "白沙气象站：海拔312米，去年降雨量1390毫米",
}


@tool
def get_weather_station(station: str) -> str:
    """Look up a weather station's altitude and last year's rainfall.

    Args:
        station: The station's name.
    """
    return _STATIONS[station.strip()]


def test_results_copied_out_are_written_again_as_a_sentence(local_server) -> None:
    question = "青枫气象站和白沙气象站的海拔分别是多少米？"
    messages = [
        {"role": "user", "content": question},
        _asked_both("get_weather_station", "station", [*_STATIONS]),
    ]
    messages += [_answered(f"c{i}", result) for i, result in enumerate(_STATIONS.values())]
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(get_weather_station)]
    )
    answer = reply.choices[0].message.content or ""
    assert "1520" in answer and "312" in answer, answer
    assert not ungrounded_numbers(answer, [question, *_STATIONS.values()]), answer
    assert not all(line.strip() in _STATIONS.values() for line in answer.splitlines()), answer


# 35. A date copied wrong from the user's one date is written as the user wrote it.


def test_a_date_copied_wrong_is_the_users_date(local_server) -> None:
    from tools.clock import add_days

    for question, day in (
        ("2026年10月1日再过45天是几月几号？", "2026-10-01"),
        ("What date is 30 days after March 2, 2027?", "2027-03-02"),
    ):
        calls = _sdk_calls(local_server, question, tool_schema(add_days))
        assert calls and all(c["date"] == day for c in calls), (question, calls)


# 36. A failed value goes the way another value went: the capital looked up first.


def test_a_failed_value_is_looked_up_the_way_the_other_value_was(local_server) -> None:
    question = "Which has more people, the capital of France or the capital of the United Kingdom?"
    steps = [
        (get_population, {"city": "France"}),
        (get_capital, {"country": "United Kingdom"}),
        (get_population, {"city": "伦敦"}),
    ]
    tools = [get_population, get_capital]
    written = _written(local_server, _tried(question, steps), tools)
    assert written == [("get_capital", {"country": "France"})], written
    steps.append((get_capital, {"country": "France"}))
    written = _written(local_server, _tried(question, steps), tools)
    assert written == [("get_population", {"city": "巴黎"})], written


# 37. One more call that moves a value the question states again: the way back of a
# journey, the same number for another quantity. Before, each was given up as a repeat.


@tool(parse_docstring=True)
def driving_distance(origin: str, destination: str) -> str:
    """The driving distance between two cities, in kilometres.

    Args:
        origin: The city the drive starts from.
        destination: The city the drive ends in.
    """
    return f"{origin} -> {destination}: 500 km"


def test_the_way_back_of_a_journey_is_asked_for(local_server) -> None:
    # The second question's text answer described the tool in a numbered list again and
    # again ("4. **driving_distance**: …") until the token budget ran out: the reply was
    # empty. The loop is now cut after one copy, and the calls the text describes are made.
    for question in (
        "What is the driving distance from Lyon to Milan, then from Milan to Vienna, and then "
        "back from Vienna to Lyon?",
        "How far is the drive from Lyon to Milan, then from Milan to Vienna, and finally from "
        "Vienna back to Lyon?",
    ):
        reply = _sdk(local_server).chat.completions.create(
            model="local",
            messages=[{"role": "user", "content": question}],
            tools=[tool_schema(driving_distance)],
        )
        calls = reply.choices[0].message.tool_calls or []
        legs = [tuple(json.loads(c.function.arguments).values()) for c in calls]
        expected = [("Lyon", "Milan"), ("Milan", "Vienna"), ("Vienna", "Lyon")]
        assert legs == expected, (question, legs)


# 38. Two names the model writes as one value ("A和B") before a comparison: the first
# name is called, the other follows, and the order the results give is the answer. Before,
# the joined call was refused as ungrounded and the question answered from recall.

_DAMS = {
    "石湾": "石湾水电站 (Shiwan): installed capacity 240 MW, dam height 86 m, built 1978",
    "青坡": "青坡水电站 (Qingpo): installed capacity 180 MW, dam height 121 m, built 1991",
}


@tool
def get_hydro_station(name: str) -> str:
    """Look up a hydropower station: its installed capacity, dam height and year built.

    Args:
        name: The station's name.
    """
    key = name.strip().removesuffix("水电站")
    if key not in _DAMS:
        raise ToolException(f"No station called {name!r}. Known: 石湾水电站, 青坡水电站")
    return _DAMS[key]


def test_two_names_written_as_one_value_are_each_looked_up_and_compared(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_hydro_station, add_numbers]).run(
        "石湾和青坡这两个水电站，谁的大坝更高？"
    )
    assert result.answered, result.hint
    names = sorted(args["name"].removesuffix("水电站") for _, args in _loop_calls(result))
    assert names == ["石湾", "青坡"], names
    assert re.search(r"青坡[^，。；]*更高|更高[^，。；]*青坡", result.answer), result.answer


# 39. A question that tells the model not to look anything up is answered in text, as
# though no tool were offered. Before, the model called the one tool offered with the
# question's words ("Red Planet" as a station's name).


def test_a_question_that_asks_for_no_lookup_is_answered_in_text(local_server) -> None:
    for question in (
        "Quick one, nothing to look up: which planet is called the Red Planet?",
        "不用查，直接告诉我：一年有几个季节？",
    ):
        reply = _sdk(local_server).chat.completions.create(
            model="local",
            messages=[{"role": "user", "content": question}],
            tools=[tool_schema(t) for t in (get_hydro_station, get_bridge, get_ferry)],
        )
        message = reply.choices[0].message
        assert not message.tool_calls, (question, message.tool_calls)
        answer = message.content or ""
        assert answer.strip() and not leaked_call(answer), (question, answer)
        assert not re.match(r"\s*\w+\s*:", answer), (question, answer)  # no "city: …" values


def test_a_question_that_asks_for_no_lookup_draws_no_arithmetic_plan(local_server) -> None:
    # A word problem with the arithmetic tools offered is planned into calls; a question
    # that declines the tools is answered in text before any plan is drawn.
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": "Without using any tools, what is 17 times 23?"}],
        tools=[tool_schema(t) for t in (multiply_xy, add_numbers)],
    )
    message = reply.choices[0].message
    assert not message.tool_calls, message.tool_calls
    assert (message.content or "").strip() and not leaked_call(message.content), message.content


# 40. A chain whose second tool's description shows an example name: the model looked the
# example up beside the first lookup (the hut at the top of a cable car as the description's
# "Alpenrose Hut"), and answered from it. A value made of its kind's word ("Hut") and words
# nobody said is not the user's.

_CABLE_CARS = {
    "blauberg": "Blauberg Cable Car (蓝山缆车): 2,140 m long, top station at Edelweiss Hut",
    "felsen": "Felsen Cable Car (岩石缆车): 1,380 m long, top station at Alpenrose Hut",
}
_HUTS = {
    "edelweiss hut": "Edelweiss Hut (雪绒花小屋): 38 beds, altitude 2,310 m",
    "alpenrose hut": "Alpenrose Hut (阿尔卑斯玫瑰小屋): 52 beds, altitude 1,980 m",
}


@tool
def get_cable_car(name: str) -> str:
    """Look up a cable car: its length and the mountain hut at its top station.

    Args:
        name: The cable car's name, e.g. "Felsen Cable Car" or "岩石缆车".
    """
    for key, record in _CABLE_CARS.items():
        if key in name.casefold() or name.strip() in record:
            return record
    raise ToolException(f"No cable car called {name!r}. Known: Blauberg, Felsen")


@tool
def get_hut(name: str) -> str:
    """Look up a mountain hut: its number of beds and altitude.

    Args:
        name: The hut's name, e.g. "Alpenrose Hut" or "阿尔卑斯玫瑰小屋".
    """
    key = name.strip().casefold()
    for english, record in _HUTS.items():
        if key == english or name.strip() in record:
            return record
    raise ToolException(f"No hut called {name!r}. Known huts: Edelweiss Hut, Alpenrose Hut")


def test_a_chain_looks_up_the_record_it_names_not_a_descriptions_example(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_cable_car, get_hut]).run(
        "I'm taking the Blauberg cable car up tomorrow and want to sleep in the hut at the top. "
        "How many beds does that hut have?"
    )
    assert result.answered, result.hint
    huts = [args["name"] for name, args in _loop_calls(result) if name == "get_hut"]
    assert all("alpenrose" not in h.casefold() for h in huts), huts
    assert "52" not in result.answer, result.answer  # the example hut's beds


# 41. The values one tool failed at, after another tool answered for one of them: the others
# are asked of the tool that answered (the huts looked up as cable cars).


def test_values_a_tool_failed_at_are_asked_of_the_tool_that_answered(local_server) -> None:
    question = "雪绒花小屋和阿尔卑斯玫瑰小屋各有多少张床？"
    messages: list[dict] = [{"role": "user", "content": question}]
    for call_id, name in [("c1", "雪绒花小屋"), ("c2", "阿尔卑斯玫瑰小屋")]:
        messages.append(_asked(call_id, "get_cable_car", {"name": name}))
        error = f"Error: No cable car called {name!r}. Known: Blauberg, Felsen"
        messages.append({"role": "tool", "tool_call_id": call_id, "content": error})
    messages.append(_asked("c3", "get_hut", {"name": "雪绒花小屋"}))
    messages.append({"role": "tool", "tool_call_id": "c3", "content": _HUTS["edelweiss hut"]})
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(get_cable_car), tool_schema(get_hut)]
    )
    calls = reply.choices[0].message.tool_calls or []
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in calls]
    assert asked == [("get_hut", {"name": "阿尔卑斯玫瑰小屋"})], asked


# 42. A value held to the shape its description's examples share: asked about a town, the
# model wrote the town alone where every example reads 'City, State'.


@tool
def find_hardware_store(city: str) -> str:
    """Find hardware stores open today.

    Args:
        city: The city, in the format of 'City, State', such as 'Berkeley, CA' or 'Austin, TX'.
    """
    return f"Hardware stores in {city}: Anvil & Sons (open until 19:00)"


def test_a_value_takes_the_shape_of_its_descriptions_examples(local_server) -> None:
    for question in (
        "Any hardware stores open in Boulder today?",
        "Find me a hardware store in Tucson.",
    ):
        calls = (
            _sdk(local_server)
            .chat.completions.create(
                model="local",
                messages=[{"role": "user", "content": question}],
                tools=[tool_schema(find_hardware_store)],
            )
            .choices[0]
            .message.tool_calls
            or []
        )
        cities = [json.loads(c.function.arguments)["city"] for c in calls]
        town = question.split(" in ")[1].split()[0].rstrip(".")
        assert cities and all(re.fullmatch(rf"{town}, [A-Z]{{2}}", c) for c in cities), cities


# 43. A word problem with a lookup offered beside the arithmetic tools: the model's first
# step was an operation on the wrong numbers; the question's expression is planned instead.


def test_a_word_problem_is_planned_with_a_lookup_offered_beside_it(local_server) -> None:
    for question in ("一个礼堂有 25 排座位，每排 30 个座位。已经坐了 480 人，还剩多少个空座位？",):
        result = ToolLoop(_chat(local_server), [*_ARITHMETIC, get_cable_car]).run(question)
        assert result.answered, result.hint
        calls = [(name, sorted(args.values())) for name, args in _loop_calls(result)]
        assert calls == [("multiply_numbers", [25, 30]), ("subtract_numbers", [480, 750])], calls
        assert re.search(r"(?<![\d.])270(?![\d.])", result.answer), result.answer


# 44. A chain's last step asked first, of the first step's value: the station tool asked
# about the bus route fails, the route tool answers with the station it ends at — a name in
# capitals ending with the station tool's own word. That station is looked up next.

_ROUTES = {
    "route 7": (
        "Route 7 (七路): opened 1962, 38 stops, 5,400 riders per day, "
        "ends at Willowgate Station (柳门站)"
    ),
}
_BUS_STATIONS = {
    "willowgate station": "Willowgate Station (柳门站): 6 platforms, opened 1931",
}


def _record_of(records: dict[str, str], kind: str, name: str) -> str:
    record = records.get(name.strip().casefold())
    if record is None:
        known = ", ".join(r.split(" (")[0] for r in records.values())
        raise ToolException(f"No {kind} called {name!r}. Known {kind}s: {known}")
    return record


@tool
def get_bus_route(name: str) -> str:
    """Look up a bus route: when it opened, its stops, its riders and the station it ends at.

    Args:
        name: The route's name.
    """
    return _record_of(_ROUTES, "route", name)


@tool
def get_station(name: str) -> str:
    """Look up a bus station: its platforms and the year it opened.

    Args:
        name: The station's name.
    """
    return _record_of(_BUS_STATIONS, "station", name)


def test_a_chain_step_asked_first_is_resumed_with_the_entity_the_record_names(
    local_server,
) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "Route 7 ends at a station. How many platforms does it have?"},
        _asked("c1", "get_station", {"name": "Route 7"}),
        _answered("c1", "Error: No station called 'Route 7'. Known stations: Willowgate Station"),
        _asked("c2", "get_bus_route", {"name": "Route 7"}),
        _answered("c2", _ROUTES["route 7"]),
    ]
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=messages,
        tools=[tool_schema(get_station), tool_schema(get_bus_route)],
    )
    calls = reply.choices[0].message.tool_calls or []
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in calls]
    assert asked == [("get_station", {"name": "Willowgate Station"})], asked


# 45. A record of several numbers, and a question that names one by its label: the model
# answered with another of the record's numbers.


def test_the_number_a_question_names_by_its_label_is_the_answers(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_bus_route, get_station]).run(
        "how many stops are there on route 7?"
    )
    assert result.answered, result.hint
    assert re.search(r"(?<![\d.])38(?![\d.])", result.answer), result.answer


# 46. Records whose first number is a year, summed: the small model added the years. A year
# is no quantity to add up, and the label of the numbers it chose picks each record's number.

_DOCKS = {
    "amber dock": "Amber Dock (琥珀码头): opened 1901, 6 cranes, 140 ships per month",
    "birch dock": "Birch Dock (桦木码头): opened 1923, 9 cranes, 210 ships per month",
    "larch dock": "Larch Dock (落叶松码头): opened 1898, 4 cranes, 95 ships per month",
}


@tool
def get_dock(name: str) -> str:
    """Look up a dock: when it opened, its cranes and the ships it takes a month.

    Args:
        name: The dock's name.
    """
    key = name.strip().casefold()
    for record in _DOCKS.values():
        if key in record.casefold().split(":")[0]:
            return record
    return _record_of(_DOCKS, "dock", name)


def test_a_total_of_records_adds_no_years(local_server) -> None:
    result = ToolLoop(_chat(local_server), [get_dock, add]).run(
        "琥珀码头、桦木码头和落叶松码头每月一共停靠多少艘船？"
    )
    assert result.answered, result.hint
    added = [sorted(args.values()) for name, args in _loop_calls(result) if name == "add"]
    assert added, _loop_calls(result)
    years = {1901, 1923, 1898}
    assert not any(set(numbers) & years for numbers in added), added


def _dock_record(name: str) -> str:
    return get_dock.invoke({"name": name})


def _reply(local_server, messages: list[dict], *tools) -> Any:
    """The embedded server's reply (through the OpenAI SDK) to a conversation, the tools
    offered."""
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=messages, tools=[tool_schema(t) for t in tools]
    )
    return reply.choices[0].message


# 47. A chain's two records in, the number the question asks for by its label in the last:
# the small model went on to look a kind's word up in another tool. The answer is due.

_CANAL = "Larch Canal: dug 1790, 14 locks, 3 m deep, 22 km long"
_ALONG_A_CANAL = "Amber Dock ships its coal along a canal. How many locks does that canal have?"


def test_the_answer_is_due_once_the_number_asked_for_is_in(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": _ALONG_A_CANAL},
        _asked("c1", "get_dock", {"name": "Amber Dock"}),
        _answered("c1", "Amber Dock: opened 1901, 6 cranes, ships its coal along Larch Canal"),
        _asked("c2", "get_canal", {"name": "Larch Canal"}),
        _answered("c2", _CANAL),
    ]
    message = _reply(local_server, messages, get_dock, get_canal, get_station)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])14(?![\d.])", message.content or ""), message.content


@tool
def get_canal(name: str) -> str:
    """Look up a canal: when it was dug, its locks, depth and length.

    Args:
        name: The canal's name.
    """
    return _CANAL if name.strip().casefold() == "larch canal" else f"No canal called {name!r}."


# 48. A question no offered tool is about, asked of one anyway: the refusal came back, and the
# answer said the fact "could not be found". With no tool the question's, it is answered as
# though none were offered.


def test_a_question_no_tool_is_about_is_answered_once_its_calls_fail(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "What is the capital city of France?"},
        _asked("c1", "get_dock", {"name": "France"}),
        _answered("c1", "Error: No dock called 'France'. Known docks: Amber Dock, Birch Dock"),
    ]
    message = _reply(local_server, messages, get_dock, get_canal)
    assert not message.tool_calls, message.tool_calls
    assert "Paris" in (message.content or ""), message.content


# The same in Chinese: the refusal quotes the value, a phrase of the question ("主要记录"),
# which said nothing of what the question is about; the answer had been "无法得到答案。".


def test_a_chinese_question_no_tool_is_about_is_answered_once_its_calls_fail(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "《论语》主要记录的是哪位古代思想家和他弟子的言行？"},
        _asked("c1", "get_dock", {"name": "主要记录"}),
        _answered("c1", "Error: No dock called '主要记录'. Known docks: Amber Dock, Birch Dock"),
    ]
    message = _reply(local_server, messages, get_dock)
    assert not message.tool_calls, message.tool_calls
    assert "孔子" in (message.content or ""), message.content


# 49. One value of each of several records, asked by its label: the small model looked up
# the entities the records name, added years and stated those sums. The answer is due once
# every record gives the asked value, and it states each.


_PORTS = {
    name: f"{name}: opened {year}, {cranes} cranes, {ships} ships per month; coal by Larch Canal"
    for name, year, cranes, ships in [
        ("Amber Dock", 1901, 6, 140),
        ("Birch Dock", 1923, 9, 210),
        ("Larch Dock", 1898, 4, 95),
    ]
}


def test_the_value_asked_of_each_record_is_stated_for_each(local_server) -> None:
    calls = [
        _asked(f"c{i}", "get_dock", {"name": n})["tool_calls"][0] for i, n in enumerate(_PORTS)
    ]
    messages: list[dict] = [
        {
            "role": "user",
            "content": f"Could you tell me how many cranes each of these docks has: "
            f"{', '.join(_PORTS)}?",
        },
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(_answered(f"c{i}", record) for i, record in enumerate(_PORTS.values())),
    ]
    message = _reply(local_server, messages, get_dock, get_canal, add)
    assert not message.tool_calls, message.tool_calls
    stated = re.findall(r"(?<![\d.])\d+(?![\d.])", message.content or "")
    assert {"6", "9", "4"} <= set(stated), message.content


# 50. A Chinese question over English records, the field it asks for named in Chinese only
# ("装卸工": dockers): no word of the question is a label's, and the model's English reading
# of it named none either. The model picks the field among each record's labels; the values
# of each are then due, and the answer states them.

_CREWED = {
    name: f"{name}: opened {year}, {cranes} cranes, {dockers} dockers, {ships} ships per month"
    for name, year, cranes, dockers, ships in [
        ("Amber Dock", 1901, 6, 38, 140),
        ("Birch Dock", 1923, 9, 45, 210),
        ("Larch Dock", 1898, 4, 27, 95),
    ]
}


def _docks_looked_up(question: str, names: list[str], answer: Callable[[str], str]) -> list[dict]:
    """The question, and one step that looked each dock up, each answered by ``answer``."""
    calls = [_asked(f"c{i}", "get_dock", {"name": n})["tool_calls"][0] for i, n in enumerate(names)]
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(_answered(f"c{i}", answer(n)) for i, n in enumerate(names)),
    ]


def _crewed_conversation(question: str, names: list[str]) -> list[dict]:
    return _docks_looked_up(question, names, _CREWED.__getitem__)


def test_the_field_a_chinese_question_asks_of_each_record_is_picked(local_server) -> None:
    messages = _crewed_conversation(
        "琥珀码头和桦木码头各有多少名装卸工？", ["Amber Dock", "Birch Dock"]
    )
    message = _reply(local_server, messages, get_dock, get_canal, add)
    assert not message.tool_calls, message.tool_calls
    stated = re.findall(r"(?<![\d.])\d+(?![\d.])", message.content or "")
    assert {"38", "45"} <= set(stated), message.content


def test_a_chinese_total_adds_the_field_the_question_names_in_chinese(local_server) -> None:
    messages = _crewed_conversation(
        "琥珀码头、桦木码头和落叶松码头的装卸工加起来一共有多少人？",
        ["Amber Dock", "Birch Dock", "Larch Dock"],
    )
    message = _reply(local_server, messages, get_dock, get_canal, add)
    added = [
        sorted(json.loads(c.function.arguments).values())
        for c in message.tool_calls or []
        if c.function.name == "add"
    ]
    assert added, (message.content, message.tool_calls)
    assert all(set(numbers) <= {38, 45, 27} for numbers in added), added


# 52. A Chinese chain that reached the thing its question refers back to ("那条运河"): the
# dock's record named the canal, the canal's record is in. The answer is due with the field
# the model picks in the canal's record, before any failed step of the way is tried again.


def test_a_chinese_chain_is_answered_once_it_reaches_the_thing_it_refers_to(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "琥珀码头的煤沿着一条运河运出去，那条运河有多少公里长？"},
        _asked("c0", "get_canal", {"name": "运河有多少座船闸"}),
        _answered("c0", "Error: No canal called '运河有多少座船闸'. Known canals: Larch Canal"),
        _asked("c1", "get_dock", {"name": "琥珀码头"}),
        _answered("c1", "Amber Dock: opened 1901, 6 cranes, ships its coal along Larch Canal"),
        _asked("c2", "get_canal", {"name": "Larch Canal"}),
        _answered("c2", _CANAL),
    ]
    message = _reply(local_server, messages, get_dock, get_canal, get_station)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])22(?![\d.])", message.content or ""), message.content


# 53. A refusal in a tool's own words ("No canal called 'Amber Dock'.") is a failure: the dock
# was asked of the canal tool, and with every call failed the tool not tried yet is tried
# with the same name before the answer says nothing could be found.


def test_a_name_refused_by_one_tool_is_asked_of_a_tool_not_tried_yet(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "琥珀码头有多少台起重机？"},
        _asked("c1", "get_canal", {"name": "琥珀码头"}),
        _answered("c1", "No canal called '琥珀码头'."),
    ]
    message = _reply(local_server, messages, get_dock, get_canal)
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert ("get_dock", {"name": "琥珀码头"}) in calls, (message.content, calls)


# 54. A name looked up in the tool of the thing the question asks about: "琥珀码头" asked of
# the canal tool, then the question's fragments, until the steps ran out. The name says its
# kind (码头: dock), and the call is asked of the tool of that kind.


def test_a_name_is_looked_up_in_the_tool_of_the_kind_it_states(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "琥珀码头的煤沿着一条运河运出去，那条运河有多少座船闸？"}
    ]
    message = _reply(local_server, messages, get_canal, get_dock, get_station)
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert calls, message.content
    assert calls[0][0] == "get_dock", calls


# 55. The two terms of a comparison ("A … than B", "A比B"): the small model looked up the
# first and answered with its number alone. Both are looked up, as a list's items are.


def test_both_terms_of_a_comparison_are_looked_up(local_server) -> None:
    question = "How many more ships per month does Birch Dock take than Larch Dock?"
    messages = [{"role": "user", "content": question}]
    message = _reply(local_server, messages, get_dock, add, get_canal)
    asked = {
        json.loads(c.function.arguments).get("name")
        for c in message.tool_calls or []
        if c.function.name == "get_dock"
    }
    assert asked == {"Birch Dock", "Larch Dock"}, (asked, message.content)


# 56. Every call answered, the question's things all found: the small model looked up the
# canal the records name and added its numbers. A lookup of a thing the question neither
# names nor points at is no step of the answer.


def test_a_thing_the_question_does_not_name_is_not_looked_up(local_server) -> None:
    question = "琥珀码头和桦木码头加起来每月停靠多少艘船？"
    messages = _docks_looked_up(question, ["Amber Dock", "Birch Dock"], _PORTS.__getitem__)
    message = _reply(local_server, messages, get_dock, get_canal, add)
    looked = [c.function.name for c in message.tool_calls or [] if c.function.name != "add"]
    assert not looked, looked


# 57. A record's number is an operand while the question's own number waits: "after 12
# months" over "140 ships per month" was answered with 140. The step that uses the 12 is due.


def test_a_number_the_question_states_waits_for_its_step(local_server) -> None:
    messages: list[dict] = [
        {
            "role": "user",
            "content": "If Amber Dock keeps up its usual monthly traffic, how many ships will "
            "it have taken after 12 months?",
        },
        _asked("c1", "get_dock", {"name": "Amber Dock"}),
        _answered("c1", _DOCKS["amber dock"]),
    ]
    message = _reply(local_server, messages, get_dock, multiply_numbers)
    multiplied = [
        sorted(json.loads(c.function.arguments).values())
        for c in message.tool_calls or []
        if c.function.name == "multiply_numbers"
    ]
    assert [12, 140] in multiplied, (message.content, message.tool_calls)


# 58. A Chinese question over one record: the small model stated the year the dock opened.
# The model picks the field among the record's labels, and the answer states it.


def test_the_field_a_chinese_question_asks_of_one_record_is_stated(local_server) -> None:
    for question, name, ships in (
        ("琥珀码头每个月停靠多少艘船？", "琥珀码头", "140"),
        ("落叶松码头每月能停靠多少艘船？", "落叶松码头", "95"),
    ):
        messages: list[dict] = [
            {"role": "user", "content": question},
            _asked("c1", "get_dock", {"name": name}),
            _answered("c1", get_dock.invoke({"name": name})),
        ]
        message = _reply(local_server, messages, get_dock, get_canal)
        assert not message.tool_calls, message.tool_calls
        said = message.content or ""
        assert re.search(rf"(?<![\d.]){ships}(?![\d.])", said), (question, said)


# 59. A refusal in the tool's own words ("I couldn't find a station called …") was not read as
# one: with the route's record beside it, two lookups had answered, and the station the record
# names was never looked up. The refusal is an error, and the named station is the next step.


def test_a_refusal_in_a_tools_own_words_leaves_the_chain_its_next_step(local_server) -> None:
    messages: list[dict] = [
        {"role": "user", "content": "Route 7 ends at a station. How many platforms has it?"},
        _asked("c1", "get_station", {"name": "Route 7"}),
        _answered("c1", "I couldn't find a station called Route 7."),
        _asked("c2", "get_bus_route", {"name": "Route 7"}),
        _answered("c2", _ROUTES["route 7"]),
    ]
    message = _reply(local_server, messages, get_station, get_bus_route)
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert calls == [("get_station", {"name": "Willowgate Station"})], (message.content, calls)


# 60. A record names the next thing by a name whose own words say its kind without the tool's
# word ("Penmoor Ropeworks" for ``get_ropewalk``): the small model answered with the harbour's
# own numbers. The name is read for its kind, and looked up.

_HARBOURS = {
    "corran harbour": (
        "Corran Harbour (科兰港): opened 1788, 14 berths, 320 boats a year; "
        "its rope comes from Penmoor Ropeworks"
    ),
}
_ROPEWALKS = {
    "penmoor ropeworks": "Penmoor Ropeworks (彭穆尔制绳厂): founded 1820, 23 spinners, 410 m long",
}


@tool
def get_harbour(name: str) -> str:
    """Look up a harbour: when it opened, its berths, its boats and where its rope comes from.

    Args:
        name: The harbour's name.
    """
    return _record_of(_HARBOURS, "harbour", name)


@tool
def get_ropewalk(name: str) -> str:
    """Look up a ropewalk: when it was founded, its spinners and its length.

    Args:
        name: The ropewalk's name.
    """
    return _record_of(_ROPEWALKS, "ropewalk", name)


def test_a_name_whose_words_say_its_kind_is_the_chains_next_step(local_server) -> None:
    question = "Corran Harbour buys its rope from a ropewalk. How many spinners work there?"
    result = ToolLoop(_chat(local_server), [get_harbour, get_ropewalk, add]).run(question)
    assert result.answered, result.hint
    asked = [(name, args.get("name")) for name, args in _loop_calls(result)]
    assert ("get_ropewalk", "Penmoor Ropeworks") in asked, asked
    assert re.search(r"(?<![\d.])23(?![\d.])", result.answer), result.answer


# 61. "Which has more, and by how many?": the small model stated the order alone, or added the
# two records' numbers. The larger less the smaller is the step.


def test_by_how_much_one_value_exceeds_the_other_is_a_subtraction(local_server) -> None:
    question = "琥珀码头和落叶松码头哪个起重机更多？多出几台？"
    messages = _docks_looked_up(question, ["Amber Dock", "Larch Dock"], _dock_record)
    message = _reply(local_server, messages, get_dock, add, subtract_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("subtract_numbers", {"a": 6, "b": 4})], (message.content, asked)


# 62. A question no offered tool is about, asked of a lookup with a phrase of the question as
# the name ("世界上最长的河流"): no thing of the lookup's kind is named, so no call is made.


def test_a_phrase_of_the_question_is_no_name_to_look_up(local_server) -> None:
    messages = [{"role": "user", "content": "世界上最长的河流是哪一条？"}]
    message = _reply(local_server, messages, get_harbour, get_ropewalk)
    asked = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
    assert not asked, asked
    assert message.content, message


# 63. A word problem with a lookup offered beside the arithmetic tools, which the small model
# answered in text with one of its numbers: the question names nothing to look up, so it is
# planned as arithmetic before any call.


def test_a_word_problem_that_names_nothing_to_look_up_is_planned(local_server) -> None:
    for question, calls, left in (
        (
            "每箱装 24 瓶水，仓库里有 15 箱，卖掉了 130 瓶，还剩多少瓶？",
            [("multiply_numbers", [15, 24]), ("subtract_numbers", [130, 360])],
            "230",
        ),
        (
            "A baker makes 12 trays of 18 rolls and sells 150 rolls. How many rolls are left?",
            [("multiply_numbers", [12, 18]), ("subtract_numbers", [150, 216])],
            "66",
        ),
    ):
        result = ToolLoop(_chat(local_server), [*_ARITHMETIC, get_harbour]).run(question)
        assert result.answered, result.hint
        made = [(name, sorted(args.values())) for name, args in _loop_calls(result)]
        assert made == calls, (question, made)
        assert re.search(rf"(?<![\d.]){left}(?![\d.])", result.answer), result.answer


# 64. A Chinese question lists names and writes their kind's word once after the list
# ("琥珀、桦木和落叶松这三个码头"): the small model looked the first up and answered for it alone.
# Each named thing of the lookup's kind is looked up.


def test_each_thing_a_chinese_list_names_before_its_kind_is_looked_up(local_server) -> None:
    for question in (
        "琥珀、桦木和落叶松这三个码头一共有多少台起重机？",
        "桦木、琥珀和落叶松这三座码头各有几台起重机？",
    ):
        messages = [{"role": "user", "content": question}]
        message = _reply(local_server, messages, get_dock, add_numbers)
        asked = [json.loads(c.function.arguments).get("name", "") for c in message.tool_calls or []]
        for dock in ("琥珀", "桦木", "落叶松"):  # with its kind's word or without
            assert any(name.startswith(dock) for name in asked), (question, dock, asked)


# 65. A tool that looks nothing up by name, asked about a thing of a lookup's kind
# (``tide_times(port="Birch Dock")``, a letter count of the question): the call is the lookup's.


@tool
def tide_times(port: str) -> str:
    """Today's high and low tides at a port.

    Args:
        port: The port's name.
    """
    return f"No tide table for {port}."


@tool
def count_letters(text: str) -> int:
    """Count the letters in a text.

    Args:
        text: The text.
    """
    return sum(ch.isalpha() for ch in text)


def test_a_thing_of_a_lookups_kind_is_asked_of_that_lookup(local_server) -> None:
    for question, name, ships in (
        ("How many ships a month does Birch Dock take?", "Birch Dock", "210"),
        ("桦木码头每个月停靠多少艘船？", "桦木码头", "210"),
        ("How many ships a month does Larch Dock take?", "Larch Dock", "95"),
        ("落叶松码头每月能停靠多少艘船？", "落叶松码头", "95"),
    ):
        result = ToolLoop(_chat(local_server), [tide_times, count_letters, get_dock]).run(question)
        assert result.answered, result.hint
        asked = [name for name, _ in _loop_calls(result)]
        assert asked and asked[0] == "get_dock", (question, asked)
        assert re.search(rf"(?<![\d.]){ships}(?![\d.])", result.answer), (question, result.answer)


# 66. A question of general knowledge whose answer is a number, an arithmetic tool offered.
# With the tools before it the small model answered "How many months are in a year?" with
# "1". A wordless answer is written again without the tools.


def test_a_number_the_model_knows_is_stated_in_a_sentence(local_server) -> None:
    for question, number in (
        ("How many months are in a year?", r"12|twelve"),
        ("How many sides does a triangle have?", r"3|three"),
    ):
        messages = [{"role": "user", "content": question}]
        message = _reply(local_server, messages, multiply_numbers, add_numbers)
        assert not message.tool_calls, (question, message.tool_calls)
        said = message.content or ""
        assert re.search(rf"(?<![\d.])(?:{number})(?![\d.])", said), (question, said)
        assert re.search(r"[^\W\d_]{2}", said), (question, said)  # words, not a bare number


# 67. A list of an enum's members in the question's own words ("the last six months, the
# last year and the last five years" for ``"six_months"``, …): the small model asked for the
# first and stopped, or wrote the second and stopped. Each member the list names is a call.


@tool
def rainfall(town: str, period: Literal["six_months", "year", "five_years"]) -> str:
    """The rainfall of a town over a period.

    Args:
        town: The town.
        period: The period to total.
    """
    return f"{town}, {period}: 410 mm"


def test_each_enum_member_a_list_names_in_words_is_a_call(local_server) -> None:
    question = (
        "How much rain fell in Leeds over the last six months, the last year and the last "
        "five years?"
    )
    message = _reply(local_server, [{"role": "user", "content": question}], rainfall)
    periods = [json.loads(c.function.arguments).get("period") for c in message.tool_calls or []]
    assert sorted(periods) == ["five_years", "six_months", "year"], periods


# 68. "哪一家更小？小多少？" once the larger less the smaller is taken: asked anew of the records,
# the small model named the larger and another field's number. The answer states the order
# the results give and the subtraction's result.


def test_which_is_smaller_and_by_how_much_is_answered_from_the_difference(local_server) -> None:
    question = "琥珀码头和落叶松码头，哪个码头的起重机更少？少几台？"
    messages = [
        *_docks_looked_up(question, ["琥珀码头", "落叶松码头"], _dock_record),
        _asked("d", "subtract_numbers", {"a": 6, "b": 4}),
        _answered("d", "2.0"),
    ]
    message = _reply(local_server, messages, get_dock, add, subtract_numbers)
    assert not message.tool_calls, message.tool_calls
    said = message.content or ""
    assert re.search(r"(?<![\d.])2(?![\d.])", said), said
    fewer = said.find("落叶松")
    assert fewer >= 0 and (said.find("琥珀") < 0 or fewer < said.find("琥珀")), said


# 69. A word problem's chain done (its last step's result the answer) while the small model
# still wants a call: written from the results, its answer copied the question out, a word
# changed ("分到几支" as "分到多少支"). The copy is read as one, and the answer states the result.


def test_a_finished_chain_is_answered_with_its_result_not_the_question(local_server) -> None:
    for question, steps, result in (
        ("学校买了4箱铅笔，每箱30支，要平均分给8个班，每个班能分到几支？", (4, 30, 120, 8), "15"),
        ("仓库进了6箱灯泡，每箱24个，要平均分给9家店，每家店能分到几个？", (6, 24, 144, 9), "16"),
        (
            "图书馆买了5箱书，每箱36本，要平均分给12个阅览室，每个阅览室能分到几本？",
            (5, 36, 180, 12),
            "15",
        ),
    ):
        a, b, product, c = steps
        messages: list[dict] = [
            {"role": "user", "content": question},
            _asked("m", "multiply_numbers", {"a": a, "b": b}),
            _answered("m", str(product)),
            _asked("d", "divide_numbers", {"a": product, "b": c}),
            _answered("d", result),
        ]
        message = _reply(local_server, messages, *_ARITHMETIC)
        assert not message.tool_calls, (question, message.tool_calls)
        said = message.content or ""
        assert re.search(rf"(?<![\d.]){result}(?![\d.])", said), (question, said)
        assert not said.rstrip().endswith(("？", "?")), (question, said)


# 70. A record names the next thing by a name whose words state no offered kind ("Corwen Smoke
# Pits" for a charcoal kiln): the small model answered from the record it had. The one other
# name the record gives is followed to the lookup the question points at.

_FORGES = {
    "ashby nail forge": (
        "Forge: Ashby Nail Forge\nChinese name: 阿什比铁钉坊\nNails per day: 9000\n"
        "Smiths: 11\nFounded: 1811\nCharcoal from: Corwen Smoke Pits"
    ),
}
_KILNS = {
    "corwen smoke pits": "Corwen Smoke Pits | 科文炭窑 | tonnes/year=640 | burners=7 | pits=12",
}


def _refused_or(records: dict[str, str], kind: str, name: str) -> str:
    """The record of a name, or the refusal a piped tool writes ("ERROR | unknown wharf | X")."""
    return records.get(name.strip().casefold()) or f"ERROR | unknown {kind} | {name}"


@tool
def get_nail_forge(name: str) -> str:
    """Look up a nail forge: its nails, smiths, founding year and charcoal supplier.

    Args:
        name: The forge's name.
    """
    known = "Ashby Nail Forge" if name.strip() in ("阿什比铁钉坊", "Ashby") else name
    return _refused_or(_FORGES, "nail forge", known)


@tool
def get_charcoal_kiln(name: str) -> str:
    """Look up a charcoal kiln: its yearly output, burners and pits.

    Args:
        name: The kiln's name.
    """
    return _refused_or(_KILNS, "charcoal kiln", name)


@tool
def get_wharf(name: str) -> str:
    """Look up a wharf: its berths and cranes.

    Args:
        name: The wharf's name.
    """
    return _refused_or({}, "wharf", name)


def test_a_name_that_states_no_kind_is_followed_to_the_lookup_pointed_at(local_server) -> None:
    for question in (
        "阿什比铁钉坊的木炭是哪家炭窑供应的？那家炭窑一年烧多少吨炭？",
        "Ashby Nail Forge buys its charcoal from a kiln. "
        "How many tonnes a year does that kiln burn?",
    ):
        messages = [
            {"role": "user", "content": question},
            _asked("f", "get_nail_forge", {"name": "阿什比铁钉坊"}),
            _answered("f", _FORGES["ashby nail forge"]),
        ]
        message = _reply(local_server, messages, get_nail_forge, get_charcoal_kiln, get_wharf)
        asked = [
            (c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []
        ]
        assert ("get_charcoal_kiln", {"name": "Corwen Smoke Pits"}) in asked, (
            question,
            message.content,
            asked,
        )


# 71. A name of the question one lookup refused, beside a lookup that answered for another name
# ("The Marlow Singers rehearse at a skating rink"): the small model answered with the one rink
# it had. The refused name is asked of the lookup not tried yet.

_RINKS = {"brill ice rink": "Brill Ice Rink | 布里尔冰场 | skaters/day=410 | rinks=2 | opened=1972"}


@tool
def get_skating_rink(name: str) -> str:
    """Look up a skating rink: its skaters a day, rinks and opening year.

    Args:
        name: The rink's name.
    """
    return _refused_or(_RINKS, "skating rink", name)


@tool
def get_choir(name: str) -> str:
    """Look up a choir: its singers, founding year and where it rehearses.

    Args:
        name: The choir's name.
    """
    if name.strip().casefold() in ("marlow singers", "the marlow singers"):
        return "Marlow Singers: 48 singers, founded 1931, rehearses at Cobb Lane Rink"
    return f"ERROR | unknown choir | {name}"


def test_a_name_one_lookup_refused_is_asked_of_the_lookup_not_tried(local_server) -> None:
    question = (
        "The Marlow Singers rehearse at a skating rink. How many fewer skaters a day does "
        "that rink get than Brill Ice Rink?"
    )
    messages = [
        {"role": "user", "content": question},
        _asked_both("get_skating_rink", "name", ["Brill Ice Rink", "Marlow Singers"]),
        _answered("c0", _RINKS["brill ice rink"]),
        _answered("c1", "ERROR | unknown skating rink | Marlow Singers"),
    ]
    message = _reply(local_server, messages, get_skating_rink, get_choir, subtract_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("get_choir", {"name": "Marlow Singers"})], (message.content, asked)


# 72. A record written "a | b | c", asked in Chinese for a rate per a span counted ("一年"): the
# label ran on to the next part's number, and 年 alone glosses as a surname. The answer states
# the number under the label of the span.


def test_a_rate_per_a_counted_span_is_read_from_a_piped_record(local_server) -> None:
    kiln = (
        "Orrin Kiln | 奥林窑 | pots/week=300 | kilns=3 | staff=12 | chimney height=19 m "
        "| firings/year=48"
    )
    messages = [
        {"role": "user", "content": "奥林窑一年要烧多少次窑？"},
        _asked("k", "get_charcoal_kiln", {"name": "奥林窑"}),
        _answered("k", kiln),
    ]
    message = _reply(local_server, messages, get_charcoal_kiln, get_wharf)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])48(?![\d.])", message.content or ""), message.content


# 73. "Which responds faster?" over times taken: the larger number was called the faster.


@tool
def get_fire_station(name: str) -> str:
    """Look up a fire station: its average response time and its engines.

    Args:
        name: The station's name.
    """
    return _refused_or({}, "fire station", name)


def test_the_faster_of_two_times_taken_is_the_fewer_minutes(local_server) -> None:
    question = "Which fire station responds faster, Alder Station or Birch Station?"
    records = {
        "Alder Station": "Alder Station: average response 14 minutes, 4 engines",
        "Birch Station": "Birch Station: average response 9 minutes, 6 engines",
    }
    messages = [
        {"role": "user", "content": question},
        _asked_both("get_fire_station", "name", list(records)),
        *(_answered(f"c{i}", r) for i, r in enumerate(records.values())),
    ]
    message = _reply(local_server, messages, get_fire_station, get_wharf)
    said = message.content or ""
    assert not message.tool_calls, message.tool_calls
    first = min((said.find(n) for n in ("Birch", "Alder") if n in said), default=-1)
    assert first >= 0 and said[first:].startswith("Birch"), said


# 74. "How many people work at …, put together?": no label says "people"; the small model added
# the records' first numbers. The headcount is the staff's label.


def test_how_many_people_work_somewhere_is_the_staff(local_server) -> None:
    question = "How many people work at Orrin Kiln and Corwen Smoke Pits put together?"
    records = {
        "Orrin Kiln": "Orrin Kiln | 奥林窑 | pots/week=300 | staff=12 | firings/year=48",
        "Corwen Smoke Pits": "Corwen Smoke Pits | 科文炭窑 | tonnes/year=640 | staff=7 | pits=12",
    }
    asked, said = _next_step_over_kilns(local_server, question, records)
    assert asked and asked[0][0] == "add_numbers", (said, asked)
    assert sorted(asked[0][1].values()) == [7, 12], (said, asked)


def _next_step_over_kilns(
    local_server, question: str, records: dict[str, str]
) -> tuple[list[tuple[str, dict]], str | None]:
    """The calls (and the text) the embedded model answers with once each kiln named in
    ``records`` was looked up, beside adding and multiplying tools."""
    messages = [
        {"role": "user", "content": question},
        _asked_both("get_charcoal_kiln", "name", list(records)),
        *(_answered(f"c{i}", r) for i, r in enumerate(records.values())),
    ]
    message = _reply(local_server, messages, get_charcoal_kiln, add_numbers, multiply_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    return asked, message.content


# 75. A Chinese question asked of a lookup whole ("一年十二个月里，哪个月的天数最少？" of a
# kiln's tool), refused: the small model answered that nothing could be found. No thing was
# named to look up, so the question is answered as though no tool were offered.


def test_a_chinese_question_asked_whole_of_a_lookup_is_answered_without_it(local_server) -> None:
    question = "一年十二个月里，哪个月的天数最少？"
    messages = [
        {"role": "user", "content": question},
        _asked("q", "get_charcoal_kiln", {"name": question}),
        _answered("q", f"ERROR | unknown charcoal kiln | {question}"),
    ]
    message = _reply(local_server, messages, get_charcoal_kiln, get_wharf)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"二月|2\s*月|February", message.content or ""), message.content


# 76. Several names the question lists, asked of a lookup as one ("Hartsell, Ebbington and
# Roscarrow"): refused, then retried cut short. A lookup takes one name; each is a call.


def test_names_listed_in_one_value_are_looked_up_one_at_a_time(local_server) -> None:
    for question in (
        "Of Brill, Kestle and Dunmore, which wharf has the most cranes?",
        "Of Hartwell, Ebbing and Roskil, which wharf lets the biggest ships moor?",
        "What are the berth counts at the brill, kestle and dunmore wharves?",
        "How many cranes do Brill Wharf, Kestle Quay and Dunmore Pier each have?",
    ):
        messages = [{"role": "user", "content": question}]
        message = _reply(local_server, messages, get_wharf, add_numbers)
        calls = message.tool_calls or []
        asked = [json.loads(c.function.arguments).get("name", "") for c in calls]
        assert len(asked) == 3 and not any(" and " in a or "," in a for a in asked), (
            question,
            message.content,
            asked,
        )


# 77. A comparison of things the question names, of a lookup's kind it says ("Between Pellory
# and Dunmarrow, which clockmaker …"), answered in text though the model was unsure of the
# tool's name: the order stated was no tool's. A sound call is made first.


@tool
def clockmaker_record(name: str) -> str:
    """Fetch a clockmaker's record.

    Args:
        name: The clockmaker's name.
    """
    return _refused_or({}, "clockmaker", name)


def test_an_order_of_named_things_of_a_lookups_kind_is_looked_up(local_server) -> None:
    for question, lookup in (
        ("Between Brill and Kestle, which wharf has more cranes, and what's the gap?", get_wharf),
        ("Out of Harrow, Fennick and Gullmoor, which wharf takes the longest ships?", get_wharf),
        (
            "Between Ashby and Corran, which nail forge has made more nails over the years, "
            "and what's the gap?",
            get_nail_forge,
        ),
        ("Out of Ashby, Corran and Pellow, which nail forge runs the most smiths?", get_nail_forge),
        (
            "Between Tallis and Brummel, which clockmaker has built more clocks over the years, "
            "and what's the gap?",
            clockmaker_record,
        ),
    ):
        messages = [{"role": "user", "content": question}]
        message = _reply(local_server, messages, lookup, subtract_numbers, get_choir)
        asked = [c.function.name for c in message.tool_calls or []]
        assert asked and set(asked) == {lookup.name}, (question, message.content, asked)


# 78. A year asked in Chinese of one record ("…是哪一年开通的？"), whose name's words gloss as
# a label (航线 "route" of the line's name, beside "route_length_km"), and 一年 of 哪一年 read
# as "one year", a rate per year: the small model stated the route's length. The answer states
# the one year the record gives.


@tool
def get_ferry_line(name: str) -> str:
    """Look up a ferry line: its boats, route and crossings.

    Args:
        name: The line's name.
    """
    if name.strip() in ("科贝尔轮渡航线", "Corbel Ferry Line", "Corbel"):
        return json.dumps(
            {
                "line": {"name": "Corbel Ferry Line", "name_zh": "科贝尔轮渡航线"},
                "opened": 1954,
                "stats": {"boats": 6, "route_length_km": 38, "crossings_per_year": 8760},
            }
        )
    return f"ERROR | unknown ferry line | {name}"


def test_a_year_asked_of_one_record_is_the_year_it_states(local_server) -> None:
    for question in (
        "科贝尔轮渡航线是哪一年开通的？",
        "In which year did Corbel Ferry Line start?",
    ):
        name = "科贝尔轮渡航线" if "科" in question else "Corbel Ferry Line"
        messages = [
            {"role": "user", "content": question},
            _asked("l", "get_ferry_line", {"name": name}),
            _answered("l", get_ferry_line.invoke({"name": name})),
        ]
        message = _reply(local_server, messages, get_ferry_line, get_wharf)
        assert not message.tool_calls, message.tool_calls
        assert re.search(r"(?<!\d)1954(?!\d)", message.content or ""), (question, message.content)


# 79. A chain walked to its end ("… buys its charcoal from a kiln. How many tonnes a year does
# that kiln burn?"): the small model answered "The kiln burns 640 tonnes", never saying which
# kiln. The answer names the record the chain reached.


def test_an_answer_names_the_record_a_chain_reached(local_server) -> None:
    for question, first, kiln in (
        (
            "Ashby Nail Forge buys its charcoal from a kiln. How many tonnes a year does that "
            "kiln burn?",
            "Ashby Nail Forge",
            r"Corwen",
        ),
        (
            "阿什比铁钉坊的木炭是哪家炭窑供应的？那家炭窑一年烧多少吨炭？",
            "阿什比铁钉坊",
            r"科文|Corwen",
        ),
    ):
        messages = [
            {"role": "user", "content": question},
            _asked("f", "get_nail_forge", {"name": first}),
            _answered("f", _FORGES["ashby nail forge"]),
            _asked("k", "get_charcoal_kiln", {"name": "Corwen Smoke Pits"}),
            _answered("k", _KILNS["corwen smoke pits"]),
        ]
        message = _reply(local_server, messages, get_nail_forge, get_charcoal_kiln, get_wharf)
        said = message.content or ""
        assert not message.tool_calls, message.tool_calls
        assert re.search(kiln, said) and re.search(r"(?<!\d)640(?!\d)", said), (question, said)


# 80. A total over two records, beside a lookup of a word of the question ("both") that its tool
# refused: the refusal kept the looked-up values from being combined, and the small model
# answered with the records' numbers one by one. The refused word names no thing; the values
# are added.


def test_a_refused_lookup_of_no_named_thing_leaves_the_total_to_add(local_server) -> None:
    question = (
        "We're thinking of visiting both Orrin Kiln and Corwen Smoke Pits. How many pits do the "
        "two have in total?"
    )
    records = {
        "Orrin Kiln": "Orrin Kiln | 奥林窑 | tonnes/year=300 | staff=12 | pits=5",
        "Corwen Smoke Pits": _KILNS["corwen smoke pits"],
        "both": "ERROR | unknown charcoal kiln | both",
    }
    asked, said = _next_step_over_kilns(local_server, question, records)
    assert asked and asked[0][0] == "add_numbers", (said, asked)
    assert sorted(asked[0][1].values()) == [5, 12], (said, asked)


# 81. A name refused by the lookup the model chose first, the question's next character run on
# in the retries ("宾德尔滚筒修理行是"): a run moved along the question is no slip of the name.
# The name is asked of the other lookup as it was.


@tool
def get_repair_shop(name: str) -> str:
    """Look up a typewriter repair shop: its repairs a month and when it opened.

    Args:
        name: The shop's name.
    """
    if name.strip() in ("宾德尔滚筒修理行", "Bindle Platen Repairs"):
        return "name: Bindle Platen Repairs\nrepairs_per_month: 64\nbenches: 3\nopened: 1977"
    return f"Sorry, I have no typewriter repair shop called '{name}' on record."


def test_a_refused_name_is_not_run_on_into_the_question(local_server) -> None:
    question = "宾德尔滚筒修理行是哪一年开的？"
    messages = [
        {"role": "user", "content": question},
        _asked("w", "get_wharf", {"name": "宾德尔滚筒修理行"}),
        _answered("w", "ERROR | unknown wharf | 宾德尔滚筒修理行"),
    ]
    message = _reply(local_server, messages, get_wharf, get_repair_shop)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("get_repair_shop", {"name": "宾德尔滚筒修理行"})], (message.content, asked)


# 82. A rate asked of the record a chain reached ("… how many tonnes a year does each burner at
# that kiln account for?"): the record states the tonnes and the burners, not their ratio, and
# the small model answered with the tonnes. The division is asked of the tool that divides, and
# the answer states its result.


def _after_the_chain(local_server, question: str, *tools, then: tuple[dict, ...] = ()) -> Any:
    """The embedded model's reply once the forge's and then its kiln's records are in (and
    the messages ``then``)."""
    messages = [
        {"role": "user", "content": question},
        _asked("f", "get_nail_forge", {"name": "Ashby Nail Forge"}),
        _answered("f", _FORGES["ashby nail forge"]),
        _asked("k", "get_charcoal_kiln", {"name": "Corwen Smoke Pits"}),
        _answered("k", _KILNS["corwen smoke pits"]),
        *then,
    ]
    return _reply(local_server, messages, get_nail_forge, get_charcoal_kiln, *tools)


def test_a_rate_of_the_record_a_chain_reached_is_divided(local_server) -> None:
    question = (
        "Ashby Nail Forge buys its charcoal from a kiln. On average, how many tonnes a year "
        "does each burner at that kiln account for?"
    )
    message = _after_the_chain(local_server, question, divide_numbers, add_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("divide_numbers", {"a": 640, "b": 7})], (message.content, asked)
    divided = (
        _asked("d", "divide_numbers", {"a": 640, "b": 7}),
        _answered("d", "91.42857142857143"),
    )
    message = _after_the_chain(local_server, question, divide_numbers, then=divided)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"91\.4", message.content or ""), message.content


# 83. The record a chain reached, taken on by the question's own number ("… and what would
# three kilns like it burn?"): the small model answered with the one kiln's tonnes. The
# record's number and the question's are planned as one expression.


def test_the_record_a_chain_reached_is_taken_on_by_the_questions_number(local_server) -> None:
    question = (
        "Ashby Nail Forge buys its charcoal from a kiln. How many tonnes does that kiln burn "
        "a year, and how many would three kilns like it burn?"
    )
    message = _after_the_chain(local_server, question, multiply_numbers, add_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert len(asked) == 1 and asked[0][0] == "multiply_numbers", (message.content, asked)
    assert sorted(asked[0][1].values()) == [3, 640], asked


# 84. After a word problem's last step, a call of a tool the question never asks for
# (``count_words("180 words")``), or one that undoes the last step, is no step: the answer is
# the last result.


def test_no_step_follows_the_sum_but_the_answer(local_server) -> None:
    question = (
        "We made 250 litres of soup and served 70 litres. The rest is shared equally among 12 "
        "pots: how many litres go in each pot?"
    )
    messages = [
        {"role": "user", "content": question},
        _asked("s", "subtract_numbers", {"a": 250, "b": 70}),
        _answered("s", "180"),
        _asked("d", "divide_numbers", {"a": 180, "b": 12}),
        _answered("d", "15"),
    ]
    message = _reply(local_server, messages, subtract_numbers, divide_numbers, count_letters)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<!\d)15(?!\d)", message.content or ""), message.content


# 85. A first call of a sibling tool whose own words the question never says is the call of
# the sibling it does say: the rate "for 2023-06-01" is the dated rate's, not the latest.


def _text(description: str) -> dict:
    return {"type": "string", "description": description}


_LATEST_RATE = _function(
    "exchange_latest_rate",
    "Get the latest exchange rate between two currencies.",
    {"from_currency": _text("Currency to convert from."), "to_currency": _text("Convert to.")},
    ["from_currency", "to_currency"],
)
_RATE_ON = _function(
    "exchange_rate_on",
    "Get the exchange rate between two currencies on a given date.",
    {
        "from_currency": _text("Currency to convert from."),
        "to_currency": _text("Currency to convert to."),
        "date": _text("The date, YYYY-MM-DD."),
    },
    ["from_currency", "to_currency", "date"],
)
_CONVERT = _function(
    "exchange_convert",
    "Convert an amount of money from one currency to another at the latest rate.",
    {
        "amount": {"type": "number", "description": "Amount."},
        "from_currency": _text("From."),
        "to_currency": _text("To."),
    },
    ["amount", "from_currency", "to_currency"],
)


def _sdk_tool_calls(local_server, question: str, tools: list[dict]) -> list[tuple[str, dict]]:
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=[{"role": "user", "content": question}], tools=tools
    )
    calls = reply.choices[0].message.tool_calls or []
    return [(call.function.name, json.loads(call.function.arguments)) for call in calls]


def test_the_sibling_the_question_asks_for_is_called(local_server) -> None:
    # The model's first call is exchange_latest_rate; nothing in the question is "latest".
    question = "Give me the euro to dollar rate for 2023-06-01."
    calls = _sdk_tool_calls(local_server, question, [_LATEST_RATE, _RATE_ON, _CONVERT])
    assert [name for name, _ in calls] == ["exchange_rate_on"], calls
    assert calls[0][1]["date"] == "2023-06-01", calls


# 86. A list the question writes goes to the tool in the user's order: the model had passed
# ``sort_items`` a list it had reordered itself.

_SORT = _function(
    "sort_items",
    "Sort a list of strings in ascending or descending order.",
    {
        "items": {"type": "array", "items": {"type": "string"}, "description": "The strings."},
        "order": _text("'asc' or 'desc'."),
    },
    ["items"],
)
_SUM = _function(
    "sum_numbers",
    "Add up a list of numbers.",
    {"numbers": {"type": "array", "items": {"type": "number"}, "description": "The numbers."}},
    ["numbers"],
)


def test_a_list_goes_to_the_tool_as_the_user_wrote_it(local_server) -> None:
    question = "Sort these names in descending order: ['Olga', 'Bruno', 'Wendy', 'Carl']"
    calls = _sdk_tool_calls(local_server, question, [_SORT, _SUM])
    assert len(calls) == 1 and calls[0][0] == "sort_items", calls
    assert calls[0][1]["items"] == ["Olga", "Bruno", "Wendy", "Carl"], calls


# 87–89. Chinese questions of lookups and counts (own cases). "分别查一下" asks for each
# lookup ("别查" is no "don't look up"); a number the model knows stands when no call is
# made in its place; a chain's first step is the named mill, not arithmetic on "两天", and
# the bakery's number is taken on by the question's "两天" (a Chinese numeral).

_MILL = "Name: Brackenford Windmill (布拉肯福德风车磨坊)\nbuilt: 1802\nmillers: 6\nsails: 4"
_MILLS = {
    "布拉肯福德风车磨坊": _MILL + "\nflour sold to: Oakhollow Bakery (橡谷面包房)",
    "托尔盖特风车磨坊": (
        "Name: Tollgate Windmill (托尔盖特风车磨坊)\nbuilt: 1851\nmillers: 9\nsails: 6\n"
        "flour sold to: Pennyrise Bakery (便士坡面包房)"
    ),
}
_BAKERIES = {
    "oakhollow bakery": (
        "Name: Oakhollow Bakery (橡谷面包房)\nopened: 1931\nbakers: 7\ndaily loaves: 260\n"
        "loaf weight (grams): 800"
    ),
}


@tool(parse_docstring=True)
def get_windmill(name: str) -> str:
    """Look up a windmill: year built, millers, sails and the bakery it sells flour to.

    Args:
        name: The windmill's name in English or Chinese, e.g. "Tollgate Windmill" or
            "托尔盖特风车磨坊".
    """
    return _MILLS.get(name.strip(), f"No windmill named '{name}'.")


@tool(parse_docstring=True)
def get_bakery(name: str) -> str:
    """Look up a bakery: year opened, bakers, daily loaves and loaf weight.

    Args:
        name: The bakery's name in English or Chinese, e.g. "Pennyrise Bakery" or "便士坡面包房".
    """
    by_chinese = {"橡谷面包房": "oakhollow bakery"}
    key = by_chinese.get(name.strip(), name.strip().casefold())
    return _BAKERIES.get(key, f"No bakery named '{name}'.")


def test_each_thing_asked_for_is_looked_up(local_server) -> None:
    question = "帮我分别查一下布拉肯福德风车磨坊和托尔盖特风车磨坊的磨坊工人数。"
    asking = [{"role": "user", "content": question}]
    message = _reply(local_server, asking, get_windmill, add_numbers)
    asked = [json.loads(c.function.arguments)["name"] for c in message.tool_calls or []]
    assert asked == ["布拉肯福德风车磨坊", "托尔盖特风车磨坊"], message


def test_a_number_the_model_knows_stands_when_no_call_fits(local_server) -> None:
    question = "一年有多少个月？"
    asking = [{"role": "user", "content": question}]
    message = _reply(local_server, asking, get_bakery, multiply_numbers)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<!\d)12(?!\d)", message.content or ""), message.content


def test_a_chinese_chain_starts_at_the_named_thing_and_counts_in_numerals(local_server) -> None:
    question = (
        "布拉肯福德风车磨坊把面粉卖给了一家面包房。照那家面包房每天烤的面包数量，"
        "连续烤两天一共能烤多少个？"
    )
    tools = [get_windmill, get_bakery, multiply_numbers, add_numbers]
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    calls = _loop_calls(result)
    assert calls[0] == ("get_windmill", {"name": "布拉肯福德风车磨坊"}), calls
    assert re.search(r"(?<![\d.])520(?!\d)", result.answer), result.answer


_TRANSFER = _function(
    "account_transfer",
    "Move money between two of the user's bank accounts.",
    {
        "from_account": {"type": "string", "description": "The account to take the money from."},
        "to_account": {"type": "string", "description": "The account to put it in."},
        "amount": {"type": "number", "description": "The amount."},
    },
    ["from_account", "to_account", "amount"],
)
_INTEREST = _function(
    "savings_interest",
    "Calculate the interest earned on savings.",
    {
        "principal": {"type": "number", "description": "The amount saved."},
        "rate": {"type": "number", "description": "The yearly interest rate, as a decimal."},
        "years": {"type": "integer", "description": "How many years."},
    },
    ["principal", "rate", "years"],
)


def test_each_request_of_a_question_gets_its_call(local_server) -> None:
    # Before: the transfer alone; the second sentence's request had no call.
    question = (
        "Move 800 pounds from my current account to my savings account. "
        "And work out the interest I'd earn after 4 years if the yearly rate is 2%."
    )
    reply = _sdk(local_server).chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": question}],
        tools=[_TRANSFER, _INTEREST],
    )
    calls = [
        (call.function.name, json.loads(call.function.arguments))
        for call in reply.choices[0].message.tool_calls or []
    ]
    assert [name for name, _ in calls] == ["account_transfer", "savings_interest"], calls
    assert calls[0][1]["amount"] == 800, calls
    assert calls[1][1] == {"principal": 800, "rate": 0.02, "years": 4}, calls


_HOME_SERVICE = _function(
    "book_service",
    "Book a home service.",
    {
        "service": {
            "type": "integer",
            "enum": [1, 2, 5],
            "description": "The service: '1' for window cleaning, '2' for gardening, "
            "'5' for carpet cleaning.",
        },
        "hours": {"type": "integer", "description": "How many hours.", "default": 1},
    },
    ["service"],
)


@pytest.mark.parametrize(
    ("question", "service"),
    [("I'd like to book someone to do the gardening.", 2), ("Book carpet cleaning for me.", 5)],
)
def test_a_number_the_schema_offers_for_the_users_words_is_called(
    local_server, question: str, service: int
) -> None:
    # Before: refused as a number nobody gave, and answered in text ("Answer: Book carpet
    # cleaning for me.").
    assert _sdk_calls(local_server, question, _HOME_SERVICE) == [{"service": service}]


_CABIN = _function(
    "reserve_cabin",
    "Reserve a cabin at a lodge.",
    {
        "lodge": {"type": "string", "description": "The lodge's name."},
        "nights": {"type": "integer", "description": "How many nights."},
        "adults": {"type": "integer", "description": "Number of adults."},
        "children": {"type": "integer", "description": "Number of children.", "default": 0},
    },
    ["lodge", "nights", "adults"],
)
_FERRY_TICKETS = _function(
    "buy_ferry_tickets",
    "Buy tickets for a ferry crossing.",
    {
        "route": {"type": "string", "description": "The crossing, e.g. 'Dover to Calais'."},
        "tickets": {"type": "integer", "description": "How many tickets."},
    },
    ["route", "tickets"],
)


@pytest.mark.parametrize(
    ("question", "tool", "expected"),
    [
        (
            "Reserve a cabin at Pinewood Lodge for two nights, for two adults and one child.",
            _CABIN,
            {"lodge": "Pinewood Lodge", "nights": 2, "adults": 2, "children": 1},
        ),
        (
            "Can you book Alder Creek Lodge for one night? It's two adults.",
            _CABIN,
            {"lodge": "Alder Creek Lodge", "nights": 1, "adults": 2},
        ),
        (
            "I need two tickets for the ferry from Oban to Mull.",
            _FERRY_TICKETS,
            {"route": "Oban to Mull", "tickets": 2},
        ),
    ],
)
def test_one_and_two_in_words_are_the_users_numbers(
    local_server, question: str, tool: dict, expected: dict
) -> None:
    # Before: every call was refused for a 1 or 2 nobody gave, and the answer was text
    # ("Answer: Reserve_cabin("Pinewood Lodge",  two,  two,  one)").
    assert _sdk_calls(local_server, question, tool) == [expected]


# A Chinese chain whose question names the next thing only by its kind ("合作的苹果酒坊"), with
# no word that refers back: the orchard's record names "Marlow Cider Press (马洛苹果酒坊)",
# and the small model answered with the orchard's own number. The question says the kind its
# Chinese name ends with, so the press is looked up.

_APPLE_ORCHARDS = {
    key: "Name: Green Ridge Orchard (青岭果园)\nplanted: 1962\ntrees: 840\n"
    "cider partner: Marlow Cider Press (马洛苹果酒坊)"
    for key in ("green ridge orchard", "青岭果园")
}
_CIDER_PRESSES = {
    key: "Name: Marlow Cider Press (马洛苹果酒坊)\nfounded: 1911\nbottles a year: 5200"
    for key in ("marlow cider press", "马洛苹果酒坊")
}


@tool
def get_apple_orchard(name: str) -> str:
    """Look up an orchard: when it was planted, its trees and the cider press it sells to.

    Args:
        name: The orchard's name.
    """
    return _record_of(_APPLE_ORCHARDS, "orchard", name)


@tool
def get_cider_press(name: str) -> str:
    """Look up a cider press: when it was founded and how many bottles it fills a year.

    Args:
        name: The cider press's name.
    """
    return _record_of(_CIDER_PRESSES, "cider press", name)


def test_a_chinese_question_that_says_the_next_things_kind_follows_the_chain(
    local_server,
) -> None:
    question = "青岭果园合作的苹果酒坊一年能装多少瓶酒？"
    result = ToolLoop(_chat(local_server), [get_apple_orchard, get_cider_press, add]).run(question)
    assert result.answered, result.hint
    asked = [(name, args.get("name")) for name, args in _loop_calls(result)]
    assert ("get_cider_press", "Marlow Cider Press") in asked, asked
    assert re.search(r"(?<![\d.])5200(?![\d.])", result.answer), result.answer


# "A比B多几台？" compares with 比 and no 更: by how much A exceeds B is a subtraction, as for
# "哪个更多？多出几台？". The small model added the two records' numbers.


def test_a_chinese_comparison_with_bi_is_a_subtraction(local_server) -> None:
    question = "琥珀码头的起重机比落叶松码头多几台？"
    messages = _docks_looked_up(question, ["Amber Dock", "Larch Dock"], _dock_record)
    message = _reply(local_server, messages, get_dock, add, subtract_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("subtract_numbers", {"a": 6, "b": 4})], (message.content, asked)


# A name whose kind word begins the tool's compound ("Ashcombe Baths" of ``get_bathhouse``):
# the small model asked the bathhouse of the pottery tool the question speaks of, and answered
# with a pottery it made up. The name says its kind, so it is looked up as a bathhouse.

_BATHHOUSES = {
    key: "Name: Ashcombe Baths (阿什库姆浴场)\nopened: 1884\npools: 3\ntiles by: Pellow Pottery"
    for key in ("ashcombe baths", "阿什库姆浴场")
}
_POTTERIES = {
    key: "Name: Pellow Pottery (佩洛陶坊)\nfounded: 1850\npotters: 17\nkilns: 2"
    for key in ("pellow pottery", "佩洛陶坊")
}


@tool
def get_bathhouse(name: str) -> str:
    """Look up a bathhouse: when it opened, its pools and who made its tiles.

    Args:
        name: The bathhouse's name.
    """
    return _record_of(_BATHHOUSES, "bathhouse", name)


@tool
def get_pottery(name: str) -> str:
    """Look up a pottery: when it was founded, its potters and its kilns.

    Args:
        name: The pottery's name.
    """
    return _record_of(_POTTERIES, "pottery", name)


def test_a_name_whose_kind_word_begins_a_tools_compound_is_of_that_tool(local_server) -> None:
    question = "Whoever made the tiles in Ashcombe Baths — how many potters does that pottery have?"
    result = ToolLoop(_chat(local_server), [get_pottery, get_bathhouse, add]).run(question)
    assert result.answered, result.hint
    asked = [(name, args.get("name")) for name, args in _loop_calls(result)]
    assert asked[:1] == [("get_bathhouse", "Ashcombe Baths")], asked
    assert re.search(r"(?<![\d.])17(?![\d.])", result.answer), result.answer


# Two values asked for side by side ("…, and at Larch Dock?") with a subtracting tool offered:
# the small model subtracted one from the other, though nothing asked for a difference. The
# looked-up values are the answer.


def test_values_asked_side_by_side_are_not_subtracted(local_server) -> None:
    question = "How many cranes are there at Amber Dock, and at Larch Dock?"
    messages = _docks_looked_up(question, ["Amber Dock", "Larch Dock"], _dock_record)
    message = _reply(local_server, messages, get_dock, subtract_numbers)
    assert not message.tool_calls, message.tool_calls
    stated = re.findall(r"(?<![\d.])\d+(?![\d.])", message.content or "")
    assert "6" in stated and "4" in stated and "2" not in stated, message.content


# "How many years apart": a difference in no order is the larger less the smaller. The small
# model's plan subtracted the later year from the earlier and answered "-22.0 years apart".


# "哪一家历史更悠久？早成立了多少年？": how long a thing has lasted is its age, so the earlier
# year founded answers, and the question asks the difference of the two years. The order had
# been read as "更久" (the larger number), and the answer named the younger dock.


def test_a_chinese_question_of_the_older_history_answers_the_earlier_year_and_the_gap(
    local_server,
) -> None:
    question = "琥珀码头和桦木码头，哪一个历史更悠久？早开了多少年？"
    result = ToolLoop(_chat(local_server), [get_dock, subtract_numbers]).run(question)
    assert result.answered, result.hint
    assert "琥珀" in result.answer or "Amber" in result.answer, result.answer
    assert re.search(r"(?<![\d.-])22(?:\.0)?(?!\d|\.\d)", result.answer), result.answer
    assert not result.answer.startswith("桦木码头"), result.answer


def test_a_difference_asked_in_no_order_is_stated_as_a_positive_number(local_server) -> None:
    question = "How many years apart did Amber Dock and Birch Dock open?"
    result = ToolLoop(_chat(local_server), [get_dock, subtract_numbers]).run(question)
    assert result.answered, result.hint
    assert re.search(r"(?<![\d.-])22(?:\.0)?(?![\d.])", result.answer), result.answer


# A chain whose answer is words under a label: "Who's the master smith there?" once the forge's
# record ("master smith: Ada Crane") is in. The small model named the forge as its own smith.

_SHOD_MILLS = {
    "ashford mill": (
        "Name: Ashford Mill (阿什福德磨坊)\nbuilt: 1820\nflour sacks per week: 300\n"
        "miller: Edwin Hale\nhorses shod by: Brackley Forge (布拉克利锻坊)\ntown: Ashford"
    ),
}
_SMITHIES = {
    "brackley forge": (
        "Name: Brackley Forge (布拉克利锻坊)\nopened: 1890\nsmiths: 3\n"
        "master smith: Ada Crane (艾达·克雷恩)\ncharcoal from: Holt Wood (霍尔特林场)\n"
        "town: Brackley"
    ),
    "hollin forge": (
        "Name: Hollin Forge (霍林锻坊)\nopened: 1911\nsmiths: 5\n"
        "master smith: Tom Reade (汤姆·里德)\ntown: Hollin"
    ),
}


@tool
def get_flour_mill(name: str) -> str:
    """Look up a flour mill: when it was built, its sacks a week, its miller and who shoes its
    horses.

    Args:
        name: The mill's name.
    """
    return _record_of(_SHOD_MILLS, "mill", name)


@tool
def get_forge(name: str) -> str:
    """Look up a forge: when it opened, its smiths, its master smith and its town.

    Args:
        name: The forge's name.
    """
    return _record_of(_SMITHIES, "forge", name)


def test_a_chain_answers_the_words_its_last_record_gives_under_the_label_asked(
    local_server,
) -> None:
    question = "Ashford Mill pays a forge to shoe its horses. Who's the master smith at that forge?"
    tools = [get_flour_mill, get_forge, get_ferry]
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    assert "Ada Crane" in result.answer, result.answer
    assert "Brackley Forge is the master smith" not in result.answer, result.answer


# A sum asked of a tool that adds up a list ("total(numbers)"): the looked-up values go in one
# call. No plan was read for such a tool, and the small model answered "6 + 9 = 6".


@tool(parse_docstring=True)
def total_of(numbers: list[float]) -> float:
    """Add up a list of numbers and return their total.

    Args:
        numbers: The numbers to add together, e.g. [12, 19, 7].
    """
    return sum(numbers)


@tool(parse_docstring=True)
def product_of(a: float, b: float) -> float:
    """Multiply two numbers together.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return a * b


def test_a_sum_of_looked_up_values_is_one_call_of_a_tool_that_adds_a_list(local_server) -> None:
    question = "What's the combined number of cranes at Amber Dock and Birch Dock?"
    result = ToolLoop(_chat(local_server), [get_dock, total_of, product_of]).run(question)
    assert result.answered, result.hint
    calls = [
        (c["name"], c["args"])
        for m in result.transcript
        if isinstance(m, AIMessage)
        for c in m.tool_calls
    ]
    assert ("total_of", {"numbers": [6, 9]}) in calls, calls
    assert re.search(r"(?<![\d.])15(?:\.0)?(?!\d|\.\d)", result.answer), result.answer


# A word problem's count multiplied with a rate it does not go with: "40 rolls an hour for a
# 6-hour shift. 15 of them burn" was planned (40 - 15) * 6 = 150; the 15 burnt rolls are taken
# after the product, 40 * 6 - 15 = 225.


def test_a_count_that_is_no_rate_is_taken_after_the_product(local_server) -> None:
    question = (
        "A baker makes 40 rolls an hour for a 6-hour shift. 15 of them burn and are thrown "
        "away. How many rolls are left?"
    )
    tools = [add_numbers, subtract_numbers, multiply_numbers]
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    assert re.search(r"(?<![\d.])225(?:\.0)?(?!\d|\.\d)", result.answer), result.answer


# How many years a thing will have lasted by a year the question states: the year is an
# operand of the record's year opened ("1905 + 2025" had been written, and years were no
# numbers to work with at all).


def test_the_years_a_record_will_have_lasted_by_a_stated_year_are_their_difference(
    local_server,
) -> None:
    question = "How many years will Amber Dock have been open in 2030?"
    result = ToolLoop(_chat(local_server), [get_dock, add_numbers, subtract_numbers]).run(question)
    assert result.answered, result.hint
    assert re.search(r"(?<![\d.])129(?:\.0)?(?!\d|\.\d)", result.answer), result.answer


# A yes-or-no the question says, left out: asked for attractions "good for kids and with free
# entry", the model called ``find_attractions(location="Berlin, Germany")`` alone, and "Lisboa"
# for the user's "Lisbon" besides.


def _yes_or_no(description: str) -> dict:
    return _text(description) | {"enum": ["True", "False", "dontcare"], "default": "dontcare"}


_ATTRACTIONS = _function(
    "find_attractions",
    "Browse attractions in a given city.",
    {
        "location": _text("City, e.g. 'Paris, France'."),
        "free_entry": _yes_or_no("Whether entry is free."),
        "good_for_kids": _yes_or_no("Whether it suits children."),
        "category": {
            "type": "string",
            "enum": ["Museum", "Park", "Theme Park", "Zoo", "dontcare"],
            "description": "The kind of attraction.",
            "default": "dontcare",
        },
    },
    ["location"],
)


@pytest.mark.parametrize(
    ("question", "city", "flags"),
    [
        (
            "I'll be in Berlin next week. Find me attractions there that are good for kids "
            "and have free entry?",
            "Berlin",
            {"free_entry": "True", "good_for_kids": "True"},
        ),
        ("Any free entry museums in Lisbon?", "Lisbon", {"free_entry": "True"}),
    ],
)
def test_a_yes_or_no_the_question_says_is_written(local_server, question, city, flags) -> None:
    calls = _sdk_tool_calls(local_server, question, [_ATTRACTIONS])
    assert len(calls) == 1 and calls[0][0] == "find_attractions", calls
    arguments = calls[0][1]
    assert city in arguments["location"], calls
    assert {key: arguments.get(key) for key in flags} == flags, calls


# Word problems told as a story: "之后 … 又" is the story's time, not a chain of steps, so
# "75 + 46 * 15" is read by precedence (it had been (75 + 46) * 15); a price of one bottle
# and the bottles sold are a product, not a difference (the model wrote 35 - 12 twice).


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "仓库里原本存着60公斤面粉，之后连续12天每天又送来35公斤，现在仓库里一共有多少公斤面粉？",
            480,
        ),
        ("一杯果汁卖8元，今天卖出了25杯，扣掉50元的水果成本后，今天净赚多少元？", 150),
    ],
)
def test_a_word_problem_told_as_a_story_is_planned_by_its_units(
    local_server, question, answer
) -> None:
    tools = [add_numbers, subtract_numbers, multiply_numbers]
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    assert re.search(rf"(?<![\d.]){answer}(?:\.0)?(?!\d|\.\d)", result.answer), (
        result.answer,
        _loop_calls(result),
    )


# A chain's first record has the label the question asks ("founded"), but the question points
# past it at the thing it names ("that mill"): the small model answered with the sheep
# station's own founding year.

_SHEEP_STATIONS = {
    key: "Name: Bracken Sheep Station (蕨坡牧羊场)\nfounded: 1921\nstaff: 14\n"
    "flock: 2300\nbuyer (spinning mill): Harrow Spinning Mill (哈罗纺纱厂)\ntown: Elderby"
    for key in ("bracken sheep station", "蕨坡牧羊场")
}
_SPINNING_MILLS = {
    key: "Name: Harrow Spinning Mill (哈罗纺纱厂)\nfounded: 1898\nstaff: 23\n"
    "spindles: 480\ntown: Cawley"
    for key in ("harrow spinning mill", "哈罗纺纱厂")
}


@tool
def sheep_station_record(name: str) -> str:
    """Show the record of a sheep station: founding year, staff, flock and its wool's buyer.

    Args:
        name: The sheep station's name.
    """
    return _record_of(_SHEEP_STATIONS, "sheep station", name)


@tool
def spinning_mill_record(name: str) -> str:
    """Show the record of a spinning mill: founding year, staff and spindles.

    Args:
        name: The spinning mill's name.
    """
    return _record_of(_SPINNING_MILLS, "spinning mill", name)


def test_a_question_that_points_past_a_record_with_its_label_follows_the_chain(
    local_server,
) -> None:
    question = (
        "Bracken Sheep Station sells its wool to a spinning mill — what year was that mill founded?"
    )
    station = _SHEEP_STATIONS["bracken sheep station"]
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "sheep_station_record", {"name": "Bracken Sheep Station"}),
        _answered("c1", station),
    ]
    message = _reply(
        local_server, messages, sheep_station_record, spinning_mill_record, add_numbers
    )
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("spinning_mill_record", {"name": "Harrow Spinning Mill"})], (
        message.content,
        asked,
    )


# "A比B多雇了几名？" puts a verb between the order and how many: still a difference (the small
# model answered with the order alone).


def test_a_chinese_comparison_with_a_verb_before_how_many_is_a_subtraction(local_server) -> None:
    question = "哈罗纺纱厂比蕨坡牧羊场多雇了几名员工？"
    tools = [sheep_station_record, spinning_mill_record, add_numbers, subtract_numbers]
    result = ToolLoop(_chat(local_server), tools).run(question)
    assert result.answered, result.hint
    assert re.search(r"(?<![\d.])9(?:\.0)?(?!\d|\.\d)", result.answer), (
        result.answer,
        _loop_calls(result),
    )
    assert "add_numbers" not in [name for name, _ in _loop_calls(result)]


# An answer in the question's own words that states the result is no copy of the question:
# written again avoiding the question's opening, it had come out as "蕨岭羊.camel徒步…".


def test_an_answer_in_the_questions_words_with_the_result_stands(local_server) -> None:
    question = "哈罗纺纱厂比蕨坡牧羊场多雇了几名员工？"
    calls = [
        _asked("c1", "spinning_mill_record", {"name": "哈罗纺纱厂"})["tool_calls"][0],
        _asked("c2", "sheep_station_record", {"name": "蕨坡牧羊场"})["tool_calls"][0],
    ]
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        _answered("c1", _SPINNING_MILLS["harrow spinning mill"]),
        _answered("c2", _SHEEP_STATIONS["bracken sheep station"]),
        _asked("c3", "subtract_numbers", {"a": 23, "b": 14}),
        _answered("c3", "9"),
    ]
    tools = [sheep_station_record, spinning_mill_record, add_numbers, subtract_numbers]
    message = _reply(local_server, messages, *tools)
    assert not message.tool_calls, message.tool_calls
    answer = message.content or ""
    assert re.search(r"(?<![\d.])9(?![\d.])", answer), answer
    assert "哈罗纺纱厂" in answer and "蕨坡牧羊场" in answer, answer


# A name refused with a verb written into it ("包下芦岸船屋", "book out" and the name): of the
# names the refusal lists and the question writes, the one the refused value holds is asked
# again. The small model asked another of the three, which had answered already.

_BOATHOUSES = {
    "reedbank boathouse": "Name: Reedbank Boathouse (芦岸船屋)\nbuilt: 1931\nseats: 140",
    "willow bay boathouse": "Name: Willow Bay Boathouse (柳湾船屋)\nbuilt: 1958\nseats: 95",
    "stone bridge boathouse": "Name: Stone Bridge Boathouse (石桥船屋)\nbuilt: 1902\nseats: 60",
}
_BOATHOUSE_NAMES = {
    "芦岸船屋": "reedbank boathouse",
    "柳湾船屋": "willow bay boathouse",
    "石桥船屋": "stone bridge boathouse",
}


@tool
def boathouse_record(name: str) -> str:
    """Show the record of a boathouse: the year it was built and its seats.

    Args:
        name: The boathouse's name, in English or Chinese.
    """
    key = _BOATHOUSE_NAMES.get(name.strip(), name.strip().casefold())
    if key not in _BOATHOUSES:
        known = ", ".join(r.split("\n")[0].removeprefix("Name: ") for r in _BOATHOUSES.values())
        return f"No boathouse named {name!r}. Known: {known}."
    return _BOATHOUSES[key]


def test_a_refused_name_with_a_verb_in_it_is_asked_again_as_the_name_it_holds(
    local_server,
) -> None:
    question = "我想包下芦岸船屋、柳湾船屋和石桥船屋的全部座位，一共有多少个座位？"
    names = ["包下芦岸船屋", "柳湾船屋", "石桥船屋"]
    calls = [
        _asked(f"c{i}", "boathouse_record", {"name": n})["tool_calls"][0]
        for i, n in enumerate(names)
    ]
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(_answered(f"c{i}", boathouse_record.invoke({"name": n})) for i, n in enumerate(names)),
    ]
    message = _reply(local_server, messages, boathouse_record, add_numbers, subtract_numbers)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked[:1] == [("boathouse_record", {"name": "芦岸船屋"})], (message.content, asked)


# A Chinese question sent whole as a name ("科比航道上的驳船最多能装多少吨？"): the call is
# written again with the place's name the question begins with. The small model had answered
# "Answer: 无法确定".

_WATERWAYS = {
    key: "Name: Corby Navigation (科比航道)\nopened: 1811\nlength km: 38\nmax barge tonnes: 75"
    for key in ("corby navigation", "科比航道")
}


@tool
def canal_details(name: str) -> str:
    """Details of a canal: when it opened, its length, its locks and the largest barge.

    Args:
        name: The canal's name in English or Chinese, e.g. "Dunmore Cut" or "邓莫尔运河".
    """
    return _record_of(_WATERWAYS, "canal", name)


def test_a_question_sent_whole_as_a_name_is_asked_by_the_place_it_names(local_server) -> None:
    question = "科比航道上的驳船最多能装多少吨？"
    result = ToolLoop(_chat(local_server), [canal_details, count_letters]).run(question)
    assert result.answered, result.hint
    assert ("canal_details", {"name": "科比航道"}) in _loop_calls(result)
    assert re.search(r"(?<![\d.])75(?![\d.])", result.answer), result.answer


# A word of the user's in a place parameter that names no place ("this is nonsense" asked of a
# weather tool): no call fits. The small model had called the weather of "nonsense".


_CURRENT_WEATHER = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Fetches the current weather data for a specified location, with an "
        "option to select the temperature unit.",
        "parameters": {
            "type": "object",
            "required": ["location"],
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The location for which to get the weather, in the format "
                    "of 'City, State', such as 'San Francisco, CA' or 'New York, NY'.",
                },
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
        },
    },
}


@pytest.mark.parametrize(
    "question",
    [
        "this is nonsense",
        "Please get the next batch of comments from facebook.com. My key is 'alpha_key'. "
        "Continue from cursor 'xyz123'.",
    ],
)
def test_a_place_parameter_takes_no_word_that_names_no_place(local_server, question) -> None:
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=[{"role": "user", "content": question}], tools=[_CURRENT_WEATHER]
    )
    message = reply.choices[0].message
    assert not message.tool_calls, message.tool_calls


# An adding tool named for no operation, ``total(a, b)``, whose description says "the sum of
# two numbers, a + b": it is the arithmetic tool of the turn. Unread as such, the small model's
# ``total`` of the records' founding years stood; read, the records' staff are added.


@tool
def total(a: float, b: float) -> float:
    """Return the sum of two numbers, a + b.

    Args:
        a: The first number.
        b: The second number.
    """
    return a + b


def test_an_adding_tool_named_for_no_operation_is_read_by_its_description(local_server) -> None:
    question = (
        "How many people work at Bracken Sheep Station and Harrow Spinning Mill put together?"
    )
    calls = [
        _asked("c1", "sheep_station_record", {"name": "Bracken Sheep Station"})["tool_calls"][0],
        _asked("c2", "spinning_mill_record", {"name": "Harrow Spinning Mill"})["tool_calls"][0],
    ]
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        _answered("c1", _SHEEP_STATIONS["bracken sheep station"]),
        _answered("c2", _SPINNING_MILLS["harrow spinning mill"]),
    ]
    message = _reply(local_server, messages, sheep_station_record, total, spinning_mill_record)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("total", {"a": 14, "b": 23})], (message.content, asked)


# A tool typed ``float`` returns a whole product as "840.0": the answer says "840 瓶". The
# numbers a text answer may state had held the result's spelling alone, so the small model,
# shown "840", was made to write "840.0".


@tool
def times_by(value: float, factor: float) -> float:
    """Multiply a value by a factor.

    Args:
        value: The value.
        factor: What to multiply it by.
    """
    return value * factor


def test_a_whole_result_written_with_a_decimal_point_is_stated_whole(local_server) -> None:
    messages = [
        {"role": "user", "content": "每箱装 24 瓶牛奶，一共装了 35 箱，一共有多少瓶？"},
        _asked("c1", "times_by", {"value": 24, "factor": 35}),
        _answered("c1", "840.0"),
    ]
    message = _reply(local_server, messages, times_by, total)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])840(?![\d.])", message.content), message.content


# A refused name that holds two of the tool's keys (the model sent the question's span for
# both): asked again as each, in one step. Asked again once, the small model took the first
# key and answered without the second.


_DAIRIES = {
    "oatridge dairy": "Name: Oatridge Dairy\nfounded: 1935\nstaff: 26\ncows: 155",
    "brackenford dairy": "Name: Brackenford Dairy\nfounded: 1902\nstaff: 31\ncows: 240",
    "hollowmere dairy": "Name: Hollowmere Dairy\nfounded: 1888\nstaff: 17\ncows: 410",
}


@tool
def dairy_record(name: str) -> str:
    """Show a dairy farm's record: founding year, staff and cows.

    Args:
        name: The dairy farm's name.
    """
    return _record_of(_DAIRIES, "dairy", name)


def test_a_refused_value_holding_two_keys_is_asked_again_as_each(local_server) -> None:
    question = (
        "If the staff of Oatridge Dairy and of Brackenford Dairy all rode in a single coach, "
        "how many seats would they fill?"
    )
    span = "Oatridge Dairy and of Brackenford Dairy all rode in a single coach, "
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "dairy_record", {"name": span}),
        _answered(
            "c1",
            f"Error: No dairy called {span!r}. Known dairies: Oatridge Dairy, Brackenford Dairy, "
            "Hollowmere Dairy",
        ),
    ]
    message = _reply(local_server, messages, dairy_record, spinning_mill_record)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [
        ("dairy_record", {"name": "Oatridge Dairy"}),
        ("dairy_record", {"name": "Brackenford Dairy"}),
    ], (message.content, asked)


# Two things gathered into one ("一起去春游") ask for the total of their records' numbers,
# though no word says "total": the base listed each value ("石溪牧场（44）、枫塘牧场（19）。").

_RANCHES = {
    "石溪牧场": {"name": "石溪牧场", "founded": 1921, "staff": 44, "cows": 380},
    "枫塘牧场": {"name": "枫塘牧场", "founded": 1899, "staff": 19, "cows": 520},
}


@tool
def plus(first: float, second: float) -> float:
    """Add two numbers.

    Args:
        first: The first number.
        second: The second number.
    """
    return first + second


def test_things_gathered_into_one_are_added(local_server) -> None:
    question = "石溪牧场和枫塘牧场的员工如果一起去春游，会有多少人参加？"
    calls = [
        _asked("c1", "dairy_record", {"name": "石溪牧场"})["tool_calls"][0],
        _asked("c2", "dairy_record", {"name": "枫塘牧场"})["tool_calls"][0],
    ]
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        _answered("c1", json.dumps(_RANCHES["石溪牧场"], ensure_ascii=False)),
        _answered("c2", json.dumps(_RANCHES["枫塘牧场"], ensure_ascii=False)),
    ]
    message = _reply(local_server, messages, dairy_record, plus, spinning_mill_record)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert [name for name, _ in asked] == ["plus"], (message.content, asked)
    assert sorted(asked[0][1].values()) == [19, 44], asked


# A question for information beside a tool that searches the web: the small model, preferring
# text, made up an answer ("Imjin war is a game developed by Imjin Entertainment"). The search
# is tried, and kept as it is sound; its optional guesses are left out as for any call.


def _web_tools() -> list[dict]:
    return [
        _function(
            "OpenWeatherMap.get_current_weather",
            "Fetches the current weather information for a specified location.",
            {
                "location": {
                    "type": "string",
                    "description": "City and country, e.g. 'Seoul, South Korea'.",
                }
            },
            ["location"],
        ),
        _function(
            "HNA_WQA.search",
            "Retrieve up-to-date information by searching the web using keywords.",
            {
                "keyword": {"type": "string", "description": "The search term."},
                "result_format": {"type": "string", "enum": ["text", "json"], "default": "text"},
            },
            ["keyword"],
        ),
        _function(
            "cookbook.search_recipe",
            "Searches for cooking recipes based on a provided keyword.",
            {"keyword": {"type": "string", "description": "A dish or ingredient."}},
            ["keyword"],
        ),
    ]


@pytest.mark.parametrize("question", ["what is Imjin war", "who is ji sung park?"])
def test_a_question_for_information_searches_the_web_rather_than_recall(
    local_server, question
) -> None:
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=[{"role": "user", "content": question}], tools=_web_tools()
    )
    calls = reply.choices[0].message.tool_calls or []
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in calls]
    assert [name for name, _ in asked] == ["HNA_WQA.search"], (
        reply.choices[0].message.content,
        asked,
    )
    arguments = asked[0][1]
    assert arguments.get("result_format", "text") == "text", arguments  # none nobody asked for
    assert arguments["keyword"].casefold() in question.casefold(), arguments


# Flags turned from their stated defaults, unasked: the small model wrote no_redirect=true and
# no_html=true for a plain search. Left out, the tool's defaults apply.


def test_a_flag_turned_from_its_default_unasked_is_left_out(local_server) -> None:
    search = _function(
        "duck_duck_go.search",
        "Performs a search using the Duck Duck Go Search API. It is useful for retrieving answers "
        "to questions about current events. The input is a search query string, and the output "
        "is a JSON array containing the search results.",
        {
            "query": {"type": "string", "description": "The search query string."},
            "format": {"type": "string", "enum": ["json", "xml"], "default": "json"},
            "no_redirect": {
                "type": "boolean",
                "description": "A flag to prevent redirection to external websites. Set to true "
                "if the redirection should be skipped.",
                "default": False,
            },
            "no_html": {
                "type": "boolean",
                "description": "A flag to prevent HTML content in the response. Set to true if "
                "HTML should be stripped from the results.",
                "default": False,
            },
        },
        ["query"],
    )
    adding = _function(
        "add",
        "Add two numbers.",
        {"a": {"type": "integer"}, "b": {"type": "integer"}},
        ["a", "b"],
    )
    question = "Search for 'trending items' on the duck duck go."
    reply = _sdk(local_server).chat.completions.create(
        model="local", messages=[{"role": "user", "content": question}], tools=[adding, search]
    )
    calls = reply.choices[0].message.tool_calls or []
    assert [c.function.name for c in calls] == ["duck_duck_go.search"], reply.choices[0].message
    arguments = json.loads(calls[0].function.arguments)
    assert arguments["query"] == "trending items", arguments
    assert not arguments.get("no_redirect") and not arguments.get("no_html"), arguments


# A lookup refused with the names its tool knows, while another tool's record gives one of
# them: the small model, having asked the mill about the bakery's name, answered with the
# refusal's list. The mill the record names is asked.

_MILL_RECORDS = {
    "hollin windmill": "Name: Hollin Windmill (霍林风车磨坊)\nbuilt: 1788\nmillstones: 3",
    "sedge mill": "Name: Sedge Mill (塞奇磨坊)\nbuilt: 1823\nmillstones: 5",
    "霍林风车磨坊": "Name: Hollin Windmill (霍林风车磨坊)\nbuilt: 1788\nmillstones: 3",
    "塞奇磨坊": "Name: Sedge Mill (塞奇磨坊)\nbuilt: 1823\nmillstones: 5",
    "塞奇风车磨坊": "Name: Sedge Windmill (塞奇风车磨坊)\nbuilt: 1840\nmillstones: 2",
}
_BAKERY_RECORDS = {
    "麦垄面包坊": {"name": "麦垄面包坊", "opened": 1961, "bakers": 12, "flour_from": "塞奇磨坊"},
    "林溪面包坊": {"name": "林溪面包坊", "opened": 1975, "bakers": 8, "flour_from": "塞奇风车磨坊"},
}


@tool
def mill_record(name: str) -> str:
    """Show a flour mill's record: when it was built and its millstones.

    Args:
        name: The mill's name.
    """
    record = _MILL_RECORDS.get(name.strip().casefold())
    if record is None:
        raise ToolException(
            f"No record for {name!r}. Known: Hollin Windmill (霍林风车磨坊), Sedge Mill (塞奇磨坊)"
        )
    return record


@tool
def bakery_record(name: str) -> str:
    """Show a bakery's record: when it opened, its bakers and where its flour comes from.

    Args:
        name: The bakery's name.
    """
    record = _BAKERY_RECORDS.get(name.strip())
    if record is None:
        raise ToolException(f"No record for {name!r}. Known: {', '.join(_BAKERY_RECORDS)}")
    return json.dumps(record, ensure_ascii=False)


def test_a_refused_lookup_is_asked_the_known_name_a_record_gives(local_server) -> None:
    question = "麦垄面包坊用的面粉是哪家磨坊磨的？那家磨坊是哪一年建的？"
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "mill_record", {"name": "麦垄面包坊"}),
        _answered(
            "c1",
            "Error: No record for '麦垄面包坊'. Known: Hollin Windmill (霍林风车磨坊), Sedge Mill "
            "(塞奇磨坊)",
        ),
        _asked("c2", "bakery_record", {"name": "麦垄面包坊"}),
        _answered("c2", json.dumps(_BAKERY_RECORDS["麦垄面包坊"], ensure_ascii=False)),
    ]
    message = _reply(local_server, messages, bakery_record, mill_record, plus)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("mill_record", {"name": "塞奇磨坊"})], (message.content, asked)


# A Chinese record names, in Chinese, the thing the question points at ("这家磨坊"): the small
# model answered from the bakery's own record. The thing is looked up, of the tool its name's
# kind states.


def test_a_chinese_record_leads_to_the_thing_the_question_points_at(local_server) -> None:
    question = "林溪面包坊的面粉来自某家磨坊。这家磨坊有几副磨盘？"
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "bakery_record", {"name": "林溪面包坊"}),
        _answered("c1", json.dumps(_BAKERY_RECORDS["林溪面包坊"], ensure_ascii=False)),
    ]
    message = _reply(local_server, messages, bakery_record, mill_record, plus)
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert asked == [("mill_record", {"name": "塞奇风车磨坊"})], (message.content, asked)


# A question of two parts answered by two steps: the small model, named the last result
# alone, left the first part's out ("一共能装63袋。").


def test_the_answer_states_the_result_of_each_part(local_server) -> None:
    question = "面包坊每天烤36个面包，一周烤7天。一周烤多少个？如果每4个装一袋，能装多少袋？"
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "times_by", {"value": 36, "factor": 7}),
        _answered("c1", "252.0"),
        _asked("c2", "divide", {"a": 252, "b": 4}),
        _answered("c2", "63.0"),
    ]
    message = _reply(local_server, messages, times_by, divide, bakery_record)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])252(?![\d]|\.\d)", message.content), message.content
    assert re.search(r"(?<![\d.])63(?![\d]|\.\d)", message.content), message.content


# "Packed 4 to a crate … how many crates?": the small model multiplied the week's bowls by the
# 4, and named the last result alone, left the week's bowls out.


def test_a_rate_per_the_unit_asked_divides(local_server) -> None:
    question = (
        "A pottery fires 16 bowls a day and works 5 days a week. How many bowls does it fire "
        "in a week, and if they're packed 4 to a crate, how many crates does a week's output "
        "fill?"
    )
    result = ToolLoop(_chat(local_server), [times_by, divide, bakery_record]).run(question)
    assert result.answered
    assert ("divide", {"a": 80, "b": 4}) in _loop_calls(result), _loop_calls(result)
    assert re.search(r"(?<![\d.])20(?![\d]|\.\d)", result.answer), result.answer


# Asked the hours of two named bakeries, the small model looked them up in the bakeries'
# record tool, though another tool's name says the hours asked ("tasting hours"). Each name is
# asked of the tool the question's words fit.

_TASTING_HOURS = {"larkmoor bakery": "09:00–15:30", "ferncombe bakery": "10:30–17:00"}
_BAKERY_FILES = {
    "larkmoor bakery": {
        "name": "Larkmoor Bakery",
        "founded": 1931,
        "bakers": 9,
        "loaves_per_year": 5200,
        "master_baker": "Tamsin Hale",
    },
    "ferncombe bakery": {
        "name": "Ferncombe Bakery",
        "founded": 1958,
        "bakers": 14,
        "loaves_per_year": 8300,
        "master_baker": "Owen Pryce",
    },
}


@tool
def bakery_file(bakery: str) -> str:
    """Look up a bakery.

    Args:
        bakery: Name of the bakery.

    Returns:
        A record with the year founded, the number of bakers, loaves baked per year and the
        master baker's name.
    """
    record = _BAKERY_FILES.get(bakery.strip().casefold())
    if record is None:
        raise ToolException(f"No record for {bakery!r}. Known: Larkmoor Bakery, Ferncombe Bakery")
    return json.dumps(record)


@tool
def bakery_tasting_hours(bakery: str) -> str:
    """Get the daily tasting hours of a bakery.

    Args:
        bakery: Name of the bakery.

    Returns:
        The opening and closing time of its tasting room.
    """
    hours = _TASTING_HOURS.get(bakery.strip().casefold())
    if hours is None:
        raise ToolException(f"No record for {bakery!r}. Known: Larkmoor Bakery, Ferncombe Bakery")
    return hours


@tool
def mill_hours(mill: str) -> str:
    """Get the first and last grinding times of a flour mill.

    Args:
        mill: Name of the mill.

    Returns:
        The first and last grinding times of the day (24-hour clock).
    """
    raise ToolException(f"No record for {mill!r}. Known: Sedge Mill, Hollin Windmill")


@tool
def violin_workshop_record(workshop: str) -> str:
    """Look up a violin workshop.

    Args:
        workshop: Name of the violin workshop.

    Returns:
        A record with the year founded, number of luthiers, violins made per year and the
        name of the master luthier.
    """
    raise ToolException(f"No record for {workshop!r}.")


@tool
def luthier_profile(person: str) -> str:
    """Look up a luthier (violin maker) by name.

    Args:
        person: Full name of the luthier.

    Returns:
        A profile with birth year, number of apprentices trained and the workshop where the
        luthier learned the trade.
    """
    raise ToolException(f"No record for {person!r}.")


def test_each_name_is_asked_of_the_tool_the_questions_words_fit(local_server) -> None:
    question = (
        "We are touring bakeries this weekend. What are the tasting hours at Larkmoor Bakery "
        "and Ferncombe Bakery?"
    )
    message = _reply(
        local_server,
        [{"role": "user", "content": question}],
        bakery_file,
        mill_hours,
        bakery_tasting_hours,
    )
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert sorted(asked, key=str) == [
        ("bakery_tasting_hours", {"bakery": "Ferncombe Bakery"}),
        ("bakery_tasting_hours", {"bakery": "Larkmoor Bakery"}),
    ], (message.content, asked)


# A chain's last record answers by the label the question says ("born"); the small model
# went on calling, or answered with the first record's founding year, as "year" and
# "luthier" are words of the workshop's labels too.


def test_a_chains_answer_is_the_last_records_number_the_question_asks_for(local_server) -> None:
    question = "In what year was the master luthier of Corvell Violin Workshop born?"
    workshop = {
        "name": "Corvell Violin Workshop",
        "founded": 1911,
        "luthiers": 7,
        "violins_per_year": 38,
        "master_luthier": "Ilse Marrow",
    }
    luthier = {
        "name": "Ilse Marrow",
        "born": 1949,
        "apprentices": 6,
        "trained_at": "Old Fennick Luthiers",
    }
    refusal = "Error: No record for 'Corvell Violin Workshop Master Luthier'. Known: Ilse Marrow"
    messages = [
        {"role": "user", "content": question},
        _asked("c1", "luthier_profile", {"person": "Corvell Violin Workshop Master Luthier"}),
        _answered("c1", refusal),
        _asked("c2", "violin_workshop_record", {"workshop": "Corvell Violin Workshop"}),
        _answered("c2", json.dumps(workshop)),
        _asked(
            "c3", "violin_workshop_record", {"workshop": "Corvell Violin Workshop Master Luthier"}
        ),
        _answered("c3", json.dumps(workshop)),
        _asked("c4", "luthier_profile", {"person": "Ilse Marrow"}),
        _answered("c4", json.dumps(luthier)),
    ]
    message = _reply(local_server, messages, violin_workshop_record, luthier_profile, plus)
    assert not message.tool_calls, message.tool_calls
    assert re.search(r"(?<![\d.])1949(?![\d]|\.\d)", message.content), message.content
    assert "1911" not in message.content, message.content


# Beside the one call a word problem needs, the small model looked up a mill with a name
# nobody gave ("The Mill of China"), because the question says "mill". Such a call is judged
# as any other and left out.


@tool
def paper_mill_file(mill: str) -> str:
    """Look up a paper mill.

    Args:
        mill: Name of the paper mill.

    Returns:
        A record with the year founded and reams made per day.
    """
    raise ToolException(f"No record for {mill!r}. Known: Millbeck Paper Mill")


def test_a_word_problem_looks_up_no_thing_nobody_named(local_server) -> None:
    question = (
        "Our mill has 2,340 sheets of handmade paper to tie up, 18 sheets to a bundle. How many "
        "bundles will that make?"
    )
    message = _reply(
        local_server,
        [{"role": "user", "content": question}],
        times_by,
        divide,
        paper_mill_file,
    )
    asked = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]
    assert [name for name, _ in asked] == ["divide"], (message.content, asked)


# Two results written "name: hours", answered by copying both out on one line: a recital, not
# an answer. Written again as a sentence; should that lose a result's times, each result is
# listed after its name.


def test_results_copied_out_on_one_line_are_no_answer(local_server) -> None:
    question = "What are the tasting hours at Larkmoor Bakery and Ferncombe Bakery?"
    results = [
        "Larkmoor Bakery: tasting room open 09:00–15:30",
        "Ferncombe Bakery: tasting room open 10:30–17:00",
    ]
    messages = [
        {"role": "user", "content": question},
        _asked_both("bakery_tasting_hours", "bakery", ["Larkmoor Bakery", "Ferncombe Bakery"]),
        *(_answered(f"c{i}", r) for i, r in enumerate(results)),
    ]
    message = _reply(local_server, messages, bakery_tasting_hours, bakery_file, mill_hours)
    assert not message.tool_calls, message.tool_calls
    assert not recites_results(message.content, results), message.content
    for time in ("09:00", "15:30", "10:30", "17:00"):
        assert time in message.content, message.content
