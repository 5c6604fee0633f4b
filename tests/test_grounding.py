"""Grounding: which numbers a conversation states, which call arguments it does not, and labels."""

from __future__ import annotations

import json

import pytest

from toolkit.local.decision.grounding import (
    adds_new_grounded_values,
    conversation_text,
    defaults_of,
    invented_texts,
    kind_words,
    moves_values,
    needs_unstated_number,
    placed_anew,
    qualifies_earlier,
    rules_out_extra_call,
    unfounded_options,
    ungrounded_values,
    uses_given_values,
    without_unfounded,
)
from toolkit.local.decision.numbers import (
    counted_numbers,
    known_numbers,
    number_spellings,
    numbers_for_calls,
    run_together,
    ungrounded_numbers,
)
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import call_label, labelled_results
from toolkit.local.decision.turn import CallJudge
from toolkit.local.format.job import ChatJob


def _known(*texts: str) -> frozenset[float]:
    return known_numbers(conversation_text([{"role": "user", "content": t} for t in texts]))


def test_numbers_stated_anywhere_in_the_conversation_are_known() -> None:
    known = _known("北京 6 摄氏度, 西安 5 摄氏度", "rate 5% over 12.5 years, -15 °C, one kg")
    for value in (6, 5, 0.05, 12.5, 15):
        assert float(value) in known
    assert 11.0 not in known and 7.0 not in known
    assert 1.0 not in known  # "one kg" states no number: add(1, 1) would be invented


def test_a_call_with_numbers_nobody_stated_is_ungrounded() -> None:
    known = _known("计算一下北京和西安的气温的总和")
    assert ungrounded_numbers({"x": 6, "y": 5}, known) == [6.0, 5.0]  # the docstring's example
    known = _known("计算一下北京和西安的气温的总和", "北京: 6 °C", "西安: 5 °C")
    assert ungrounded_numbers({"x": 6, "y": 5}, known) == []


def test_numbers_inside_text_arguments_count() -> None:
    known = _known("北京 21.9 million", "上海 24.9 million")
    assert ungrounded_numbers({"expression": "21.9 + 24.9"}, known) == []
    assert ungrounded_numbers({"expression": "(21.9 + 24.9) * 2"}, known) == [2.0]
    assert ungrounded_numbers({"city": "Xi'an", "metric": True, "n": -15}, _known("-15 °C")) == []


def test_call_labels_read_like_calls() -> None:
    assert call_label("add", '{"x": 6, "y": 5}') == "add(x=6, y=5)"
    assert call_label("get_weather", {"city": "北京"}) == 'get_weather(city="北京")'
    assert call_label("f", "not json") == "f(not json)"
    assert call_label("f", "[1, 2]") == "f([1, 2])"


def test_each_result_is_labelled_with_the_call_it_answers() -> None:
    messages = [
        {"role": "user", "content": "sum?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "w", "arguments": '{"c": 1}'}},
                {"id": "b", "type": "function", "function": {"name": "w", "arguments": '{"c": 2}'}},
            ],
        },
        {"role": "tool", "tool_call_id": "b", "content": "two"},
        {"role": "tool", "tool_call_id": "unknown-id", "content": "one"},
        {"role": "tool", "tool_call_id": "x", "content": "orphan"},
    ]
    labelled = labelled_results(messages)
    assert [m.get("content") for m in labelled[2:]] == ["w(c=2) = two", "w(c=1) = one", "orphan"]
    assert messages[2]["content"] == "two"  # the given messages are not modified


def test_the_final_answer_step_asks_anew_with_the_labelled_results() -> None:
    from toolkit.local.decision.prompt import answer_messages

    call = {"id": "a", "type": "function", "function": {"name": "add", "arguments": '{"x": 6}'}}
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "第一个问题"},
        {"role": "assistant", "content": "好的"},
        {"role": "user", "content": "计算一下北京和西安的气温的总和"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "a", "content": "11"},
    ]
    step = answer_messages(messages)
    assert step is not None and [m["role"] for m in step] == ["system", "user"]
    assert step[0]["content"] == "Be brief."
    body = step[1]["content"]
    assert body.startswith("问题：计算一下北京和西安的气温的总和\n")
    assert "add(x=6) = 11" in body and "第一个问题" not in body
    english = answer_messages([{"role": "user", "content": "Sum?"}, *messages[4:]])
    assert english is not None and english[0]["content"].startswith("Question: Sum?")
    assert answer_messages(messages[:4]) is None  # no results in this turn


def test_when_every_result_failed_the_final_answer_step_asks_what_went_wrong() -> None:
    from toolkit.local.decision.prompt import answer_messages

    call = {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    failed = "Error: tool 'get_weather' failed: Unknown city 'Paris'."
    turn = [
        {"role": "user", "content": "What's the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "a", "content": failed},
    ]
    body = answer_messages(turn)[-1]["content"]
    assert "get_weather() = Error: tool 'get_weather' failed" in body
    assert body.endswith("tell the user that the answer could not be found, and why.")
    chinese = answer_messages([{"role": "user", "content": "巴黎天气怎么样？"}, *turn[1:]])
    assert chinese[-1]["content"].endswith("请用一句完整的话告诉用户无法得到答案，并说明原因。")
    second = {**call, "id": "b"}
    mixed = [
        *turn[:1],
        {"role": "assistant", "content": None, "tool_calls": [call, second]},
        turn[2],
        {"role": "tool", "tool_call_id": "b", "content": "6 °C"},
    ]
    assert answer_messages(mixed)[-1]["content"].endswith("that states the result.")


def test_one_tool_called_for_several_values_is_answered_with_each_result() -> None:
    from toolkit.local.decision.prompt import answer_messages

    calls = [
        {"id": c, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
        for c in "ab"
    ]
    turn = [
        {"role": "user", "content": "广州和深圳的天气怎么样？"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "a", "content": "22 °C"},
        {"role": "tool", "tool_call_id": "b", "content": "24 °C"},
    ]
    assert answer_messages(turn)[-1]["content"].endswith("说出每一个结果。")
    english = [{"role": "user", "content": "Weather in A and B?"}, *turn[1:]]
    assert answer_messages(english)[-1]["content"].endswith("that states each result.")
    one = [*turn[:3], {"role": "tool", "tool_call_id": "b", "content": "Error: unknown city"}]
    assert answer_messages(one)[-1]["content"].endswith("给出结果。")  # one value answered


def test_a_number_with_thousands_separators_is_known_whole() -> None:
    known = known_numbers("net income $20,000, revenue $1,250,000.5; sides 3,4,5")
    assert {20000.0, 1250000.5, 3.0, 4.0, 5.0} <= known
    assert 345.0 not in known and 34.0 not in known


def test_an_extra_call_is_grounded_by_numbers_as_numbers() -> None:
    text = conversation_text(
        [
            {
                "role": "user",
                "content": "Margin on $20,000 / $100,000; debt ratio of $10,000 / $30,000?",
            }
        ]
    )
    first = [{"net_income": 20000, "total_revenue": 100000}]
    assert adds_new_grounded_values(
        {"total_liabilities": 10000, "total_assets": 30000}, first, text
    )
    assert not rules_out_extra_call(10000, first, text)
    assert rules_out_extra_call(40000, first, text)  # a number nobody stated still dooms it


def test_a_default_written_out_is_neither_new_nor_ungrounded() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "discovery_order": {"type": "integer", "default": 1},
        },
    }
    exempt = defaults_of(schema)
    assert exempt == frozenset({"1"})
    text = conversation_text(
        [{"role": "user", "content": "Nikola Tesla's birthdate and discovery?"}]
    )
    call = {"name": "Nikola Tesla", "discovery_order": 1}
    assert rules_out_extra_call(1, [{"name": "Nikola Tesla"}], text)
    assert not rules_out_extra_call(1, [{"name": "Nikola Tesla"}], text, exempt=exempt)
    # The default alone brings nothing new: a copy of the first call's values is no extra call.
    assert not adds_new_grounded_values(call, [{"name": "Nikola Tesla"}], text, exempt=exempt)


def test_a_call_that_uses_no_value_the_user_gave_is_told_apart() -> None:
    text = conversation_text(
        [{"role": "user", "content": "The fastest route from New York to Boston?"}]
    )
    assert not uses_given_values({"start": 1, "end": 50, "return_format": "array"}, text)
    assert not uses_given_values({"verbose": True}, text)  # a boolean is nobody's request
    assert uses_given_values({"origin": "New York", "avoid_tolls": True}, text)
    assert uses_given_values(
        {"distance": 10}, conversation_text([{"role": "user", "content": "10 km"}])
    )


def test_a_number_inside_a_text_value_must_be_said_too() -> None:
    text = conversation_text(
        [{"role": "user", "content": "The price of a marble sculpture of 3 feet?"}]
    )
    # "sculpture" is said, the 1 is the model's: half the words is not enough with a number
    assert "sculpture1" in ungrounded_values({"sculpture_name": "sculpture1"}, None, text)
    assert not adds_new_grounded_values(
        {"sculpture_name": "sculpture2", "material": "marble"}, [{"material": "marble"}], text
    )
    assert ungrounded_values({"size": "3 ft marble"}, None, text) == []  # its 3 was said


def test_a_value_is_said_by_its_own_words_not_its_parameters_name() -> None:
    said = [{"role": "user", "content": "How wide is the telescope at Kestrel Peak Observatory?"}]
    text = conversation_text(said)
    # every observatory's name holds "observatory": half the words, but none of its own
    assert ungrounded_values({"observatory": "Saltmarsh Observatory"}, None, text) == [
        "Saltmarsh Observatory"
    ]
    assert ungrounded_values({"observatory": "Kestrel Observatory"}, None, text) == []
    assert ungrounded_values({"observatoryName": "Kestrel Peak"}, None, text) == []
    # a value of nothing but its kind is judged by that word
    assert ungrounded_values({"observatory": "Observatory"}, None, text) == []
    # another parameter's name is no kind of this value
    assert ungrounded_values({"site": "Saltmarsh Observatory"}, None, text) == []


def test_a_value_is_not_said_by_the_words_its_descriptions_give_its_kind() -> None:
    question = "I'm riding the Larkspur lift up and want to sleep in the hut at the top."
    text = conversation_text([{"role": "user", "content": question}])
    name = {"type": "string", "description": 'The hut\'s name, e.g. "Greyfell Hut" or "灰峰小屋".'}
    schema = {"properties": {"name": name}}
    # "hut" says the kind (the parameter's description, outside its example): not the hut
    assert ungrounded_values({"name": "Greyfell Hut"}, schema, text) == ["Greyfell Hut"]
    bare = {"properties": {"name": {"type": "string"}}}
    assert ungrounded_values({"name": "Greyfell Hut"}, bare, text, described="Look up a hut.")
    # without a description that says the kind, half the words still say the value
    assert ungrounded_values({"name": "Greyfell Hut"}, bare, text) == []
    # a value the user named keeps its kind's word
    assert ungrounded_values({"name": "Larkspur Hut"}, schema, text) == []
    assert ungrounded_values({"name": "Hut"}, schema, text) == []  # nothing but its kind
    # nor is a call of it one that uses a value the user gave
    assert uses_given_values({"name": "Greyfell Hut"}, text)  # "hut", without the schema
    assert not uses_given_values({"name": "Greyfell Hut"}, text, parameters=schema)
    assert uses_given_values({"name": "Larkspur Hut"}, text, described="Look up a hut.")
    off = ToolPolicy(described_kinds=False)
    assert ungrounded_values({"name": "Greyfell Hut"}, schema, text, off) == []
    # an example's words are no kind: "city" is, "San Francisco" is shown
    shown = kind_words("name", "A hut, such as Greyfell Hut.", "例如灰峰小屋")
    assert shown == {"name", "a", "hut"}
    assert kind_words("city", "The city, e.g. San Francisco, CA") == {"city", "the"}


def test_an_extra_call_must_bring_a_word_that_asks_for_something() -> None:
    text = conversation_text(
        [
            {
                "role": "user",
                "content": "The shortest path from Paris to Rome, and the price of a marble "
                "sculpture of 3 feet; then a 440Hz sound for 5 seconds?",
            }
        ]
    )
    named = frozenset({"sculpture", "price", "calculate", "generate", "sound", "wave"})
    first = [{"start": "Paris", "end": "Rome"}]
    # only "to" is new: the route of the path already asked for
    assert not adds_new_grounded_values({"route": "Paris to Rome"}, first, text)
    # only the "sculpture" of the tool's own name is new
    priced = [{"material": "marble", "size": 3}]
    call = {"sculpture_name": "marble sculpture", "material": "marble"}
    assert not adds_new_grounded_values(call, priced, text, named=named)
    assert not adds_new_grounded_values(
        {"wave_file": "sound.wav"}, [{"frequency": 440, "duration": 5}], text, named=named
    )
    # a city, a number or a word of the question's own still asks for something new
    assert adds_new_grounded_values({"start": "Rome", "end": "Paris"}, [], text, named=named)
    assert adds_new_grounded_values({"feet": 3}, first, text, named=named)
    assert adds_new_grounded_values(
        {"route": "Paris to Rome", "mode": "shortest"}, first, text, named=named
    )


_EVENTS = {
    "type": "object",
    "properties": {
        "president_name": {"type": "string"},
        "start_year": {"type": "integer"},
        "end_year": {"type": "integer"},
        "scope": {"type": "string", "enum": ["domestic", "foreign"], "default": "domestic"},
    },
    "required": ["president_name"],
}


def test_optional_arguments_nobody_gave_are_the_ones_left_out() -> None:
    text = conversation_text(
        [{"role": "user", "content": "Events during Abraham Lincoln's presidency up to 1865?"}]
    )
    guessed = {"president_name": "Abraham Lincoln", "start_year": 1789, "end_year": 1865}
    assert unfounded_options(guessed, _EVENTS, text) == ["start_year"]
    # a required argument is never left out
    assert unfounded_options({"president_name": "George Washington"}, _EVENTS, text) == []


def test_an_optional_choice_nobody_asked_for_is_left_out() -> None:
    def left_out(question: str, scope: str, policy: ToolPolicy | None = None) -> list[str]:
        text = conversation_text([{"role": "user", "content": question}])
        arguments = {"president_name": "x", "scope": scope}
        return unfounded_options(arguments, _EVENTS, text, policy or ToolPolicy())

    assert left_out("Events of Lincoln's presidency?", "foreign") == ["scope"]
    assert left_out("Foreign events of Lincoln's presidency?", "foreign") == []
    assert left_out("Events of Lincoln's presidency?", "domestic") == []  # the default
    # a question in another script may ask for it in its words ("外交")
    assert left_out("林肯任内的外交大事？", "foreign") == []
    # a word of the choice in another form asks for it
    level = {"type": "object", "properties": {"level": {"type": "string", "enum": ["detailed"]}}}
    text = conversation_text([{"role": "user", "content": "Theft punishments in detail?"}])
    assert unfounded_options({"level": "detailed"}, level, text) == []
    # without the setting an enum value is the schema's offer
    policy = ToolPolicy(unasked_choices=False)
    assert left_out("Events of Lincoln's presidency?", "foreign", policy) == []


def _call(arguments: str, name: str = "events") -> dict:
    return {"id": "c", "type": "function", "function": {"name": name, "arguments": arguments}}


def test_a_call_the_model_chose_loses_its_guesses_and_a_requested_one_keeps_them() -> None:
    tools = [{"type": "function", "function": {"name": "events", "parameters": _EVENTS}}]
    messages = [{"role": "user", "content": "What happened while Lincoln was president?"}]
    arguments = '{"president_name": "Lincoln", "start_year": 1789}'
    chose = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    assert chose.without_guesses(_call(arguments))["function"]["arguments"] == (
        '{"president_name": "Lincoln"}'
    )
    assert chose.without_guesses(_call("not json")) == _call("not json")
    asked = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=False)
    assert asked.without_guesses(_call(arguments)) == _call(arguments)
    off = ToolPolicy(leave_out_guesses=False)
    assert CallJudge(ChatJob(messages=messages, tools=tools), off, auto=True).without_guesses(
        _call(arguments)
    ) == _call(arguments)


def test_numbers_run_together_are_told_from_numbers_nobody_wrote() -> None:
    text = conversation_text(
        [{"role": "user", "content": "The factorial of 5,10 and 15; a term of 15, 20 or 30 years"}]
    )
    assert run_together(510, text) and run_together(1520, text) and run_together(51015, text)
    assert not run_together(105, text)  # the digits are there, not in their order
    assert not run_together(5, text) and not run_together(20.5, text)
    assert not run_together(2030, conversation_text([{"role": "user", "content": "20 and 3"}]))


def test_the_numbers_a_call_may_write_include_their_json_spellings() -> None:
    spellings = number_spellings(conversation_text([{"role": "user", "content": "$400,000 at 4%"}]))
    assert {"400000", "4", "0.04"} <= set(spellings)


def test_a_call_that_ran_the_question_numbers_together_is_told_apart() -> None:
    schema = {"type": "object", "properties": {"number": {"type": "integer"}}}
    tools = [{"type": "function", "function": {"name": "factorial", "parameters": schema}}]
    messages = [{"role": "user", "content": "Find the factorial of 5,10 and 15."}]
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)

    def call(number: int) -> dict:
        return _call(json.dumps({"number": number}), "factorial")

    assert judge.runs_numbers_together(call(510))
    assert not judge.runs_numbers_together(call(5))  # stated: no fault at all
    assert not judge.runs_numbers_together(call(7))  # invented, but not the question's run together


def test_a_date_is_said_by_its_numbers_in_other_words() -> None:
    text = conversation_text([{"role": "user", "content": "a flight on May 18th, 2022"}])
    assert adds_new_grounded_values({"date": "2022-05-18"}, [{"date": "2022-05-03"}], text)


_ADD = {
    "type": "object",
    "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
    "required": ["x", "y"],
}


def test_a_tool_needing_a_number_of_a_conversation_without_digits_needs_an_unstated_one() -> None:
    text = conversation_text([{"role": "user", "content": "计算一下北京和西安的气温的总和"}])
    assert needs_unstated_number(_ADD, [{"city": "北京"}], text)
    # Whatever number the call wrote, the extra-call check would doom it there.
    assert rules_out_extra_call(6, [{"city": "北京"}], text)


def test_a_digit_anywhere_a_number_could_come_from_leaves_the_tool_callable() -> None:
    text = conversation_text([{"role": "user", "content": "What is the sum of the temperatures?"}])
    assert not needs_unstated_number(_ADD, [], text + " 6 degrees")  # the conversation
    assert not needs_unstated_number(_ADD, [{"x": 6, "y": 5}], text)  # an earlier call
    with_default = {
        **_ADD,
        "properties": {**_ADD["properties"], "scale": {"type": "integer", "default": 10}},
    }
    assert not needs_unstated_number(with_default, [], text)  # a default of the tool


def test_a_tool_whose_numbers_are_optional_or_offered_is_not_ruled_out() -> None:
    text = conversation_text([{"role": "user", "content": "What's the weather in Lyon?"}])
    optional = {"type": "object", "properties": {"days": {"type": "integer"}}, "required": []}
    offered = {
        "type": "object",
        "properties": {"days": {"type": "integer", "enum": [1, 3]}},
        "required": ["days"],
    }
    words = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    }
    for schema in (optional, offered, words, None):
        assert not needs_unstated_number(schema, [], text)


def test_a_long_decimal_may_be_said_rounded() -> None:
    from toolkit.local.decision.numbers import with_roundings

    assert with_roundings(["13.333333333333334", "11", "2.5"]) == [
        "13.333333333333334",
        "13.33",
        "13.3",
        "11",
        "2.5",
    ]
    assert with_roundings(["-2.456"]) == ["-2.456", "-2.46", "-2.5"]


def test_a_whole_number_written_with_a_decimal_point_may_be_said_whole() -> None:
    from toolkit.local.decision.numbers import with_roundings
    from toolkit.local.decision.prompt import labelled_results, whole_number

    assert with_roundings(["840.0", "-3.00", "2.50"]) == [
        "840.0",
        "840",
        "-3.00",
        "-3.0",
        "-3",
        "2.50",
        "2.5",
    ]
    assert (whole_number("840.0"), whole_number(" 7.00 "), whole_number("2.5")) == (
        "840",
        "7",
        "2.5",
    )
    assert whole_number("840.0 bottles") == "840.0 bottles"  # one number alone only
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "times", "arguments": '{"value": 24, "factor": 35}'},
    }
    labelled = labelled_results(
        [
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "840.0"},
        ]
    )
    assert labelled[1]["content"] == "times(value=24, factor=35) = 840"


def test_a_refusal_returned_as_a_result_is_an_error() -> None:
    from toolkit.local.decision.grounding import is_error

    assert is_error("Error: tool 'get_weather' failed: Unknown city 'Paris'.")
    assert is_error("not found: Ridgeway and Millbrook. Known warehouses: Ridgeway, Millbrook")
    assert is_error("未找到: 走雾林步道。已知的徒步路线有：毛地黄步道、雾林步道")
    assert is_error("Unknown city 'Paris'. Ask for one of: 北京, 西安")
    assert not is_error("北京 (Beijing): 6 °C, sunny")
    assert not is_error('{"warehouse": "Ridgeway", "crates": 3217}')
    # "No <kind> named/called …": a refusal in a tool's own words
    assert is_error("No sawmill named '哈罗盖特风车'. Known sawmills: Redbank Sawmill")
    assert is_error("No canal called 'Amber Dock'.")
    assert is_error("No results found.")
    assert not is_error("No rain expected today, 20 °C")
    assert not is_error("No. 7 Bus: 12 stops")
    assert not is_error("Noon Dock: opened 1901, 6 cranes")
    # a refusal in other words: it begins as one, or, with no number, says the thing is not there
    for refusal in (
        "I couldn't find a ropewalk called Penmoor.",
        "No record for harbour 'Penmoor'.",
        "Sorry, there is no ropewalk named Penmoor.",
        "Sorry, no harbour matches Penmoor",
        "Unsupported unit pair: furlong->li",
        '{"error": "unknown harbour"}',
        "Harbour 'Penmoor' is not in the registry.",
        "Penmoor Ropewalk does not exist.",
        "没有名为彭穆尔的港口",
        "彭穆尔港不存在",
    ):
        assert is_error(refusal), refusal
    assert not is_error("The ropewalk is not in operation.")  # a record's own words
    assert not is_error("Penmoor is not listed as a heritage site; 2.4 m rise")


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("i need three hours and five burgers", {3, 5}),
        ("revenues of $1m in 2019 and $1.2m in 2020", {1_000_000, 1_200_000, 2019, 2020}),
        ("charges of 1e-9 and 2e-9 at 0.05", {1e-9, 2e-9, 0.05}),
        ("house prices for the next month", {1}),
        ("the air quality for the next week", {7}),
        ("it started from rest and accelerated at 9.8 m/s^2", {0, 9.8}),
        ("un crédito a veinticuatro meses", {24}),
        ("a budget of €5k", {5000}),
        ("今天上午开了三个小时，下午又开了五个小时", {3, 5}),  # Chinese numerals
        ("一百二十五只羊", {125}),
        ("连续干两周", {2}),  # "两" of time
        ("每辆车要配两名司机", {2}),  # "两" of each
    ],
)
def test_numbers_a_call_may_take_are_read_in_words_scales_and_units_of_time(
    text: str, numbers: set[float]
) -> None:
    assert numbers <= numbers_for_calls(text)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("a 5 m rope", 5_000_000),  # metres, not millions
        ("the first and the second equation", 1),  # ordinals are no values
        ("the two cities", 2),  # nor "one" and "two" alone
        ("the rest of the day", 0),
        ("第三次", 3),  # a Chinese ordinal
        ("两家酒厂", 2),  # "两" of things
        ("一共", 1),
    ],
)
def test_words_that_state_no_value_give_none(text: str, number: float) -> None:
    assert number not in numbers_for_calls(text)


def test_numbers_for_calls_leave_arithmetic_operands_alone() -> None:
    # "three" grounds a call's value, but is no operand of a plan (known_numbers).
    assert 3 in numbers_for_calls("three hours") and 3 not in known_numbers("three hours")


@pytest.mark.parametrize(
    ("arguments", "earlier", "qualifies"),
    [
        ({"item": "3 kg of apples"}, [{"item": "apples"}], True),
        (
            {"museum": "Louvre Museum", "day": "Monday"},
            [{"museum": "Louvre", "day": "Monday"}],
            True,
        ),
        ({"item": "bananas"}, [{"item": "apples"}], False),
        ({"city": "York"}, [{"city": "New York"}], False),  # less, not more
        ({"city": "Paris", "days": 2}, [{"city": "Paris", "days": 1}], False),
    ],
)
def test_an_extra_call_that_only_qualifies_an_earlier_value_is_found(
    arguments: dict, earlier: list[dict], qualifies: bool
) -> None:
    assert qualifies_earlier(arguments, earlier) is qualifies


@pytest.mark.parametrize(
    ("arguments", "earlier", "moves"),
    [
        # the values of "8:20 and 11:05", hours and minutes crossed
        (
            {"hours": 8, "minutes": 11},
            [
                {"hours": 3, "minutes": 15},
                {"hours": 8, "minutes": 20},
                {"hours": 11, "minutes": 50},
            ],
            True,
        ),
        (
            {"body1": "Venus", "body2": "Jupiter"},
            [{"body1": "Mars", "body2": "Venus"}, {"body1": "Mars", "body2": "Jupiter"}],
            True,
        ),
        # crossed lists keep each value in its place
        (
            {"team": "Bulls", "year": 2020},
            [{"team": "Lakers", "year": 2018}, {"team": "Lakers", "year": 2020}],
            False,
        ),
        # a chain's next leg brings a new value
        ({"start": "Boston", "end": "DC"}, [{"start": "New York", "end": "Boston"}], False),
        ({"city": "Paris"}, [], False),
    ],
)
def test_an_extra_call_that_moves_an_earlier_value_is_found(
    arguments: dict, earlier: list[dict], moves: bool
) -> None:
    assert moves_values(arguments, earlier) is moves


_JOURNEY = [
    {"origin": "New York City", "destination": "Los Angeles"},
    {"origin": "Los Angeles", "destination": "Miami"},
]


@pytest.mark.parametrize(
    ("question", "arguments", "earlier", "placed"),
    [
        # the way back: New York City and Miami are both named twice
        (
            "Drive from New York City to Los Angeles, then to Miami, and back to New York City "
            "from Miami.",
            {"origin": "Miami", "destination": "New York City"},
            _JOURNEY,
            True,
        ),
        # named once each: the return leg was not asked for
        (
            "Drive from New York City to Los Angeles, then to Miami.",
            {"origin": "Miami", "destination": "New York City"},
            _JOURNEY,
            False,
        ),
        # the same number stated for another quantity
        (
            "The field of a 2 C charge at 0.5 m, 1 m and 2 m.",
            {"charge": 2, "distance": 2},
            [{"charge": 2, "distance": 0.5}, {"charge": 2, "distance": 1}],
            True,
        ),
        # 11 is stated once, as an hour
        (
            "The angle at 8:20 and at 11:50.",
            {"hours": 8, "minutes": 11},
            [{"hours": 8, "minutes": 20}, {"hours": 11, "minutes": 50}],
            False,
        ),
        # the same numbers in their places: a repeat, not a move
        ("Add 6 and 5, then 6 and 5.", {"x": 6, "y": 5}, [{"x": 6, "y": 5}], False),
        # a value no earlier call took: the other rules judge the call
        (
            "From Paris to Rome and from Rome to Paris and Oslo.",
            {"origin": "Oslo", "destination": "Paris"},
            [{"origin": "Paris", "destination": "Rome"}],
            False,
        ),
    ],
)
def test_a_value_moved_to_another_place_needs_another_mention(
    question: str, arguments: dict, earlier: list[dict], placed: bool
) -> None:
    text = conversation_text([{"role": "user", "content": question}])
    assert placed_anew(arguments, earlier, text) is placed


def test_optional_guesses_inside_an_object_are_left_out() -> None:
    schema = {
        "type": "object",
        "properties": {
            "body": {
                "type": "object",
                "properties": {
                    "mode": {"type": "string", "enum": ["COOL", "HEAT"]},
                    "target": {"type": "integer"},
                    "fan": {"type": "string"},
                },
                "required": ["mode"],
            }
        },
        "required": ["body"],
    }
    arguments = {"body": {"mode": "COOL", "target": 22, "fan": "high"}}
    asked = conversation_text([{"role": "user", "content": "set cool mode"}])
    assert without_unfounded(arguments, schema, asked) == {"body": {"mode": "COOL"}}
    told = conversation_text([{"role": "user", "content": "set cool mode at 22, fan on high"}])
    assert without_unfounded(arguments, schema, told) == arguments


def test_an_optional_list_keeps_the_items_the_conversation_mentions() -> None:
    schema = {
        "type": "object",
        "properties": {
            "location": {"type": "string"},
            "amenities": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["location"],
    }
    text = conversation_text(
        [{"role": "user", "content": "The closest sushi place in Boston with a Patio and Wi-Fi?"}]
    )
    guessed = {"location": "Boston", "amenities": ["Patio", "Wi-Fi", "Happy Hour"]}
    kept = {"location": "Boston", "amenities": ["Patio", "Wi-Fi"]}
    assert without_unfounded(guessed, schema, text) == kept
    # a choice the schema offers is no item the user asked for
    offered = {"type": "array", "items": {"type": "string", "enum": ["Patio", "Wi-Fi", "Bar"]}}
    choosing = {**schema, "properties": {**schema["properties"], "amenities": offered}}
    assert without_unfounded({**guessed, "amenities": ["Patio", "Bar"]}, choosing, text) == {
        "location": "Boston",
        "amenities": ["Patio"],
    }
    # every item the model's: the list is left out
    assert without_unfounded({"location": "Boston", "amenities": ["Bar"]}, schema, text) == {
        "location": "Boston"
    }


def test_an_optional_list_of_the_calls_other_values_is_left_out() -> None:
    schema = {
        "type": "object",
        "properties": {
            "rank": {"type": "string"},
            "suit": {"type": "string"},
            "deck": {"type": "array", "items": {"type": "object"}},
        },
        "required": ["rank", "suit"],
    }
    text = conversation_text([{"role": "user", "content": "Find the Queen of Hearts in a deck."}])
    copied = {"rank": "Queen", "suit": "Hearts", "deck": [{"rank": "Queen", "suit": "Hearts"}]}
    assert unfounded_options(copied, schema, text) == ["deck"]
    # a deck holding a card the user named apart is the user's
    text = conversation_text(
        [
            {
                "role": "user",
                "content": "Find the Queen of Hearts in a deck "
                "of the Queen of Hearts and the King of Spades.",
            }
        ]
    )
    given = {
        **copied,
        "deck": [{"rank": "Queen", "suit": "Hearts"}, {"rank": "King", "suit": "Spades"}],
    }
    assert unfounded_options(given, schema, text) == []


def test_a_boolean_of_an_extra_call_neither_brings_nor_needs_a_mention() -> None:
    text = conversation_text(
        [{"role": "user", "content": "Who found X? Also book a direct flight from Oslo to Rome."}]
    )
    flight = {"origin": "Oslo", "destination": "Rome", "direct_flight": True}
    assert adds_new_grounded_values(flight, [{"discovery": "X"}], text)
    assert not rules_out_extra_call(True, [{"discovery": "X"}], text)
    # a switch flipped alone asks for nothing new
    assert not adds_new_grounded_values(
        {"city": "Oslo", "detailed": True}, [{"city": "Oslo"}], text
    )


def test_a_tool_results_grouped_number_grounds_only_itself() -> None:
    said = [
        {"role": "user", "content": "Ticket codes 5,10 and 12?"},
        {"role": "tool", "tool_call_id": "c0", "content": "capacity 1,200 riders per hour"},
    ]
    known = known_numbers(conversation_text(said))
    assert 1200 in known and 1 not in known and 200 not in known  # the result's: whole
    assert {5, 10, 12} <= known  # the question's "5,10" lists two numbers


def test_a_value_in_another_form_of_its_family_is_said() -> None:
    text = "find a divorce lawyer in new york, ny and a cardiologist in chicago, il."
    first = [{"location": "New York, NY", "expertise": "Divorce"}]
    doctor = {"location": "Chicago, IL", "specialization": "Cardiology"}
    assert adds_new_grounded_values(doctor, first, text)
    assert not rules_out_extra_call("Cardiology", first, text)
    off = ToolPolicy(word_families=False)
    assert rules_out_extra_call("Cardiology", first, text, off)
    assert not adds_new_grounded_values(doctor, first, text, off)
    # a shared beginning too short, or too small a part of the shorter word, is no family
    assert rules_out_extra_call("Internet", first, "the international court")
    assert rules_out_extra_call("Department", first, "the departure lounge")


def test_the_first_thing_the_question_names_no_call_asked_is_a_lookup() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_tea_house",
                "description": "Look up a tea house.",
                "parameters": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
            },
        }
    ]
    question = "莫斯格罗夫茶馆和斯宾德尔卡普茶馆，哪一家的员工比较少？"
    messages = [{"role": "user", "content": question}]
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    assert judge.first_named_thing() == ("get_tea_house", {"name": "莫斯格罗夫茶馆"})
    asked = {
        "role": "assistant",
        "content": "",
        "tool_calls": [_call('{"name": "莫斯格罗夫茶馆"}', "get_tea_house")],
    }
    later = CallJudge(ChatJob(messages=[*messages, asked], tools=tools), ToolPolicy(), auto=True)
    assert later.first_named_thing() == ("get_tea_house", {"name": "斯宾德尔卡普茶馆"})
    chosen = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=False)
    assert chosen.first_named_thing() is None


def test_a_number_its_schema_offers_is_the_schemas_choice() -> None:
    schema = {
        "properties": {
            "room_type": {
                "type": "integer",
                "enum": [1, 2, 3],
                "description": "1 for a single room, 2 for a double room, 3 for a suite.",
            },
            "nights": {"type": "integer"},
        }
    }
    text = "Which id has a double room?"
    assert ungrounded_values({"room_type": 2}, schema, text) == []
    assert ungrounded_values({"room_type": 4}, schema, text) == [4.0]  # not among its choices
    assert ungrounded_values({"room_type": 2, "nights": 2}, schema, text) == [2.0]  # no choice
    off = ToolPolicy(offered_numbers=False)
    assert ungrounded_values({"room_type": 2}, schema, text, off) == [2.0]
    # a choice the question says nothing of is still a number nobody gave
    assert ungrounded_values({"room_type": 3}, schema, text) == [3.0]
    tickets = {"properties": {"tickets": {"enum": [1, 2, 3], "description": "From 1 to 3."}}}
    assert ungrounded_values({"tickets": 1}, tickets, "Book a play in Leeds.") == [1.0]


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("Book a single room for two nights at The Plaza hotel.", [2.0]),
        ("A room for two adults and one child in Paris from July 10, 2022.", [2.0, 1.0]),
        ("Find a two-bedroom flat in Leeds.", [2.0]),
        ("One ticket for the 8 pm show, please.", [1.0]),
        ("What is the distance between the two cities?", []),  # points at named things
        ("Which one is cheaper, and is it one of the best?", []),
        ("No one can say; one more question.", []),
        ("We can't find one we like.", []),  # a pronoun's "one"
        ("Find the greatest common divisor of two numbers: 40 and 50.", []),  # lists them
        ("Someone phoned twice; it is a lone item.", []),
    ],
)
def test_one_and_two_count_only_what_they_count(text: str, counted: list[float]) -> None:
    assert counted_numbers(text) == counted


def test_a_count_in_words_grounds_a_calls_number() -> None:
    schema = {"properties": {"hotel_name": {"type": "string"}, "num_nights": {"type": "integer"}}}
    text = "i would like to book a single room for two nights at the plaza hotel."
    call = {"hotel_name": "The Plaza", "num_nights": 2}
    assert ungrounded_values(call, schema, text) == []
    assert ungrounded_values(call, schema, text, ToolPolicy(counted_numbers=False)) == [2.0]
    assert ungrounded_values({**call, "num_nights": 3}, schema, text) == [3.0]
    pointed = "what is the distance between the two hotels, the plaza and the ritz?"
    assert ungrounded_values(call, schema, pointed) == [2.0]
    required = {**schema, "required": ["num_nights"]}
    assert not needs_unstated_number(required, [], text, counts=True)
    assert needs_unstated_number(required, [], text, counts=False)


_SHOWS = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "City and state, e.g. 'Austin, TX'"},
        "theater": {"type": "string"},
        "formats": {"type": "array", "items": {"type": "string"}},
        "unit": {"type": "string", "enum": ["imperial", "metric"]},
    },
    "required": ["location", "formats", "unit"],
}


def _invented(question: str, arguments: dict) -> list[str]:
    text = conversation_text([{"role": "user", "content": question}])
    return invented_texts(arguments, _SHOWS, text)


def test_a_required_text_that_shares_no_word_with_the_conversation_is_invented() -> None:
    question = "I want to go to an IMAX show at 3rd Street Cinema."
    assert _invented(question, {"location": "Los Angeles, CA", "theater": "3rd Street"}) == [
        "Los Angeles, CA"
    ]
    # a list's texts are read one by one; an optional text is not judged
    assert _invented("testtwetwet", {"formats": ["apple", "banana"], "theater": "Rex"}) == [
        "apple",
        "banana",
    ]
    # the user's words in any form are no invention: a root, or one word beginning the other
    assert _invented("Shows in los angeles?", {"location": "Los Angeles, CA"}) == []
    assert _invented("Detailed listings, please", {"formats": ["details"]}) == []
    assert _invented("Key events in German history", {"location": "Germany"}) == []
    # codes stand for the user's words without sharing one; the schema's offers are its own
    assert _invented("Prices in dollars", {"location": "USD", "formats": ["AAPL"]}) == []
    assert _invented("Shows tonight", {"unit": "metric"}) == []
    # a text in a script written without spaces is not judged
    assert _invented("今晚的电影", {"location": "北京"}) == []


def test_a_call_of_an_invented_list_is_rejected_and_no_fallback() -> None:
    tools = [{"type": "function", "function": {"name": "shows", "parameters": _SHOWS}}]
    messages = [{"role": "user", "content": "testtwetwet"}]
    arguments = '{"location": "testtwetwet", "formats": ["apple", "banana"], "unit": "metric"}'
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    assert judge.invented(_call(arguments, "shows")) == ["apple", "banana"]
    assert judge.rejected(_call(arguments, "shows"))
    kept = '{"location": "testtwetwet", "formats": ["testtwetwet"], "unit": "metric"}'
    assert not judge.rejected(_call(kept, "shows"))
    off = ToolPolicy(invented_texts_fallback=False)
    judge = CallJudge(ChatJob(messages=messages, tools=tools), off, auto=True)
    assert not judge.rejected(_call(arguments, "shows"))


def test_a_flag_turned_from_its_default_unasked_is_a_guess() -> None:
    from toolkit.local.decision.grounding import unfounded_options
    from toolkit.local.decision.policy import ToolPolicy

    schema = {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string"},
            "format": {"type": "string", "default": "json"},
            "no_redirect": {"type": "boolean", "default": False},
            "safe": {"type": "boolean"},  # no default: not known to be turned
        },
    }
    asked = "Search for 'trending items' on the duck duck go."
    call = {"query": "trending items", "format": "json", "no_redirect": True, "safe": True}
    assert unfounded_options(call, schema, asked) == ["no_redirect"]
    assert unfounded_options({**call, "no_redirect": False}, schema, asked) == []
    off = ToolPolicy(unasked_flags=False)
    assert unfounded_options(call, schema, asked, off) == []
    # a flag whose words the user says is theirs, whichever way it is turned
    private = {"type": "boolean", "default": False}
    paying = {"type": "object", "properties": {"private_visibility": private}}
    said = "Send Rachel $50, and I prefer to keep the transaction private."
    assert unfounded_options({"private_visibility": True}, paying, said) == []


def test_the_final_answer_step_names_the_result_of_each_part_asked() -> None:
    from toolkit.local.decision.prompt import answer_messages

    def call(i: str, name: str, arguments: str) -> dict:
        return {"id": i, "type": "function", "function": {"name": name, "arguments": arguments}}

    question = "每个架子放几个？如果每个奶酪轮重9公斤，一个架子上的奶酪总共多重？"
    turn = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": None, "tool_calls": [call("a", "split", '{"t": 1260}')]},
        {"role": "tool", "tool_call_id": "a", "content": "70.0"},
        {"role": "assistant", "content": None, "tool_calls": [call("b", "times", '{"v": 70}')]},
        {"role": "tool", "tool_call_id": "b", "content": "630.0"},
    ]
    body = answer_messages(turn, result="630.0", parts=["70.0", "630.0"])[-1]["content"]
    assert "问题的几个小问依次由结果 70、630 回答" in body
    assert "最后一步的结果" not in body  # the last result is not named the answer alone
    alone = answer_messages(turn, result="630.0")[-1]["content"]
    assert "最后一步的结果 630 就是问题的答案" in alone


def test_a_value_a_record_links_to_is_asked_once_along_its_label() -> None:
    from toolkit.local.decision.grounding import CallHistory

    def call(i: str, name: str) -> dict:
        arguments = json.dumps({"cave_name": name}, ensure_ascii=False)
        function = {"name": "cheese_cave_info", "arguments": arguments}
        return {"id": i, "type": "function", "function": function}

    first = '{"name": "奥索里洞窖", "founded": 1931, "sister_cave": "格里斯霍尔特奶酪洞"}'
    second = '{"name": "格里斯霍尔特奶酪洞", "founded": 1804, "sister_cave": "贝尔沼奶酪窖"}'
    messages = [
        {"role": "user", "content": "那个姊妹窖是哪一年建立的？"},
        {"role": "assistant", "content": None, "tool_calls": [call("a", "奥索里洞窖")]},
        {"role": "tool", "tool_call_id": "a", "content": first},
    ]
    sister = call("b", "格里斯霍尔特奶酪洞")
    assert not CallHistory(messages).redundant(sister)  # a record linked to is no record told
    messages += [
        {"role": "assistant", "content": None, "tool_calls": [sister]},
        {"role": "tool", "tool_call_id": "b", "content": second},
    ]
    assert CallHistory(messages).redundant(call("c", "贝尔沼奶酪窖"))  # the link was followed
    assert CallHistory(messages).redundant(call("d", "奥索里洞窖"))  # asked already


def test_the_final_answer_step_asks_for_each_result_of_a_last_step_of_one_tool() -> None:
    from toolkit.local.decision.prompt import answer_messages

    def call(i: str, name: str, place: str) -> dict:
        function = {"name": name, "arguments": json.dumps({"place": place})}
        return {"id": i, "type": "function", "function": function}

    names = ["Fernhollow Orchids", "Hallbright & Sons", "Cordwell Ropewalk"]
    turn = [
        {"role": "user", "content": "What are the opening hours of " + ", ".join(names) + "?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                call("a", "opening_hours", ", ".join(names)),
                call("b", "rope", names[2]),
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "No record for that. Known: …"},
        {"role": "tool", "tool_call_id": "b", "content": '{"name": "Cordwell Ropewalk"}'},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [call(f"c{i}", "opening_hours", n) for i, n in enumerate(names)],
        },
        *[
            {"role": "tool", "tool_call_id": f"c{i}", "content": hours}
            for i, hours in enumerate(["08:30–16:30", "10:00–18:00", "07:00–15:00"])
        ],
    ]
    body = answer_messages(turn)[-1]["content"]
    assert body.endswith("answer the question in one complete sentence that states each result.")
    partial = answer_messages(turn[:-1])[-1]["content"]  # one of the last step unanswered
    assert not partial.endswith("that states each result.")
