"""The pure parts of the embedded server's decisions: nudges, repeats, grounding, grammars."""

from __future__ import annotations

import json

import pytest

from toolkit.errors import PromptError
from toolkit.local.decision.grounding import (
    CallHistory,
    adds_new_grounded_values,
    conversation_text,
)
from toolkit.local.decision.numbers import (
    result_numbers,
    said_numbers,
    signs_restored,
    stated_numbers,
)
from toolkit.local.decision.policy import DEFAULT_NUDGE, RESULTS_NUDGE, ToolPolicy
from toolkit.local.decision.prompt import build_prompt, prompt_messages, results_nudge
from toolkit.local.decision.turn import asked_for
from toolkit.local.format.grammar import use_token_references
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.stops import find_stop, held_back, repetition_start
from toolkit.local.server.protocol import parse_chat_request

TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {}}}
MARKERS = {"<tool_call>": "<tool_call>", "</tool_call>": "</tool_call>"}


def _call(name: str, arguments: dict, call_id: str = "c1") -> dict:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def test_nudge_only_for_auto_with_tools() -> None:
    user = [{"role": "user", "content": "hi"}]
    nudged = prompt_messages(ChatJob(messages=user, tools=[TOOL]), ToolPolicy())
    assert nudged[0]["role"] == "system" and DEFAULT_NUDGE in nudged[0]["content"]
    assert nudged[1:] == user
    for job in (
        ChatJob(messages=user),
        ChatJob(messages=user, tools=[TOOL], tool_choice="none"),
        ChatJob(messages=user, tools=[TOOL], tool_choice="required"),
        ChatJob(messages=user, tools=[TOOL], constrained=False),
    ):
        assert prompt_messages(job, ToolPolicy()) == user
    assert prompt_messages(ChatJob(messages=user, tools=[TOOL]), ToolPolicy(nudge=None)) == user


def test_nudge_is_appended_to_the_clients_system_message() -> None:
    messages = [
        {"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
        {"role": "user", "content": "hi"},
    ]
    job = ChatJob(messages=messages, tools=[TOOL])
    first = prompt_messages(job, ToolPolicy())[0]
    assert first == {"role": "system", "content": f"Be brief.\n\n{DEFAULT_NUDGE}"}
    assert messages[0]["role"] == "developer"  # the job's messages are not modified
    prompt = build_prompt(job, ToolPolicy(), None)
    assert prompt.startswith(f"<|im_start|>system\nBe brief.\n\n{DEFAULT_NUDGE}\n\n# Tools")


@pytest.mark.parametrize(
    ("arguments", "previous", "kept"),
    [
        ({"city": "西安"}, [{"city": "北京"}], True),  # the second city the user named
        ({"city": "Shanghai", "unit": "celsius"}, [{"city": "Beijing", "unit": "celsius"}], True),
        ({"city": "北京"}, [{"city": "北京"}], False),  # a copy
        ({"x": 5, "y": 4}, [{"x": 4, "y": 5}], False),  # the same values shuffled
        ({"number": 10}, [{"number": 5}], False),  # a value the user never wrote
        ({"city": "Paris"}, [{"city": "北京"}], False),
        # half its words are the user's ("Maroon"), but not the word that makes it new
        ({"artist": "Maroon Everest"}, [{"artist": "Taylor Maroon"}], False),
        ({"artist": "Taylor Swift"}, [{"artist": "Taylor Everest"}], True),
        ({"artist": "K2"}, [{"artist": "Taylor Swift"}], True),  # said whole, "k" no word
        (
            {"artist": "Maroon 5", "duration": 15.0},
            [{"artist": "Taylor Swift", "duration": 20}],
            True,
        ),
    ],
)
def test_extra_calls_must_add_grounded_values(
    arguments: dict, previous: list[dict], kept: bool
) -> None:
    text = conversation_text(
        [
            {"role": "system", "content": "You help."},
            {"role": "user", "content": "计算一下北京和西安的气温的总和, Beijing and Shanghai, K2"},
            {
                "role": "user",
                "content": [{"type": "text", "text": "Taylor Swift, Maroon 5: 20 and 15"}],
            },
        ]
    )
    assert adds_new_grounded_values(arguments, previous, text) is kept


def test_call_history_knows_what_the_results_already_say() -> None:
    messages = [
        {"role": "user", "content": "计算一下北京和西安的气温的总和"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _call("get_weather", {"city": "北京"}, "a"),
                _call("get_weather", {"city": "西安"}, "b"),
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "北京 (Beijing): 6 °C, sunny"},
        {"role": "tool", "tool_call_id": "b", "content": "西安 (Xi'an): 5 °C, overcast"},
    ]
    history = CallHistory(messages)
    assert history.redundant(_call("get_weather", {"city": "北京"}))  # the same call
    assert history.redundant(_call("get_weather", {"city": "Xi'an"}))  # its result says Xi'an
    assert not history.redundant(_call("get_weather", {"city": "上海"}))
    assert not history.redundant(_call("add", {"x": 6, "y": 5}))  # a new step of the chain
    assert not CallHistory([]).redundant(_call("get_weather", {"city": "北京"}))


def test_token_references_split_literals_around_markers() -> None:
    grammar = (
        'call ::= "<tool_call>\\n" body "\\n</tool_call>"\n'
        'text ::= [^<"] text | "\\"<tool_call>\\"" # <tool_call> in a comment\n'
    )
    rewritten = use_token_references(grammar, MARKERS)
    assert 'call ::= (<tool_call> "\\n") body ("\\n" </tool_call>)' in rewritten
    assert '[^<"]' in rewritten and "# <tool_call> in a comment" in rewritten
    assert '("\\"" <tool_call> "\\"")' in rewritten
    assert use_token_references(grammar, {}) == grammar


def test_stop_strings_are_found_and_never_split() -> None:
    assert find_stop("one, two, STOP three", ("STOP",), 0) == 10
    assert find_stop("nothing here", ("STOP",), 0) is None
    assert held_back("counting ST", ("STOP",)) == 2
    assert held_back("counting", ("STOP",)) == 0
    assert held_back("abc", ()) == 0


def test_protocol_normalises_an_openai_request() -> None:
    job, extras = parse_chat_request(
        {
            "model": "anything",
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": None, "tool_calls": [_call("get_weather", {})]},
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            ],
            "tools": [TOOL],
            "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
            "parallel_tool_calls": False,
            "max_completion_tokens": 7,
            "temperature": 0.5,
            "seed": 3,
            "stop": "END",
            "stream": True,
            "stream_options": {"include_usage": True},
            "user": "ignored",
        }
    )
    assert job.tool_choice == "get_weather" and job.parallel_tool_calls is False
    assert job.options == SamplingOptions(max_tokens=7, temperature=0.5, seed=3, stop=("END",))
    assert job.messages[1]["tool_calls"][0]["function"]["name"] == "get_weather"
    assert extras == {
        "stream": True,
        "include_usage": True,
        "logprobs": False,
        "unenforced": [],
    }


def test_protocol_errors_carry_the_field() -> None:
    with pytest.raises(PromptError) as info:
        parse_chat_request({"messages": [{"role": "user"}], "tools": [TOOL, TOOL]})
    assert info.value.param == "tools" and "unique" in str(info.value)


def test_policy_thresholds_are_checked() -> None:
    with pytest.raises(ValueError, match="text_threshold"):
        ToolPolicy(text_threshold=1.5)
    with pytest.raises(ValueError, match="sure_call_threshold"):
        ToolPolicy(sure_call_threshold=-0.1)
    with pytest.raises(ValueError, match="max_calls"):
        ToolPolicy(max_calls=0)


def test_results_nudge_restates_the_last_question() -> None:
    messages = [
        {"role": "user", "content": "first question"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": [{"type": "text", "text": " 计算一下总和 "}]},
        {"role": "tool", "tool_call_id": "c1", "content": "11"},
    ]
    assert results_nudge(messages) == f"{RESULTS_NUDGE} The question was: 计算一下总和"
    assert results_nudge([{"role": "user", "content": "  "}]) == RESULTS_NUDGE
    assert results_nudge([{"role": "system", "content": "x"}]) == RESULTS_NUDGE


@pytest.mark.parametrize(
    ("value", "text", "mentioned"),
    [
        ("m", "the maximum radius is 4cm", False),  # a letter inside a word
        ("4", "the radius is 4cm", True),  # a number before its unit
        ("cm", "the radius is 4cm", True),  # a unit after its number
        ("m", "a height of 4km", False),
        ("1", "between 15 and 0.1", False),  # a digit inside other numbers
        ("0.1", "at a rate of 0.1%", True),
        ("北京", "计算一下北京和西安的气温的总和", True),  # no spaces between words
        ("all", "find all roots", True),
        ("all", "totally", False),
    ],
)
def test_an_extra_call_value_counts_as_mentioned_only_as_a_whole_word(
    value: str, text: str, mentioned: bool
) -> None:
    first = [{"x": "unrelated"}]
    assert adds_new_grounded_values({"x": value}, first, text) is mentioned


def test_a_loop_at_the_end_of_a_text_is_found_and_kept_once() -> None:
    text = "榴莲的价格是 " + "￥ " * 9
    assert text[: repetition_start(text)] == "榴莲的价格是 ￥ "
    assert repetition_start("The sum is 11.") is None
    assert repetition_start("ab" * 7) is None  # seven times is not a loop yet
    assert repetition_start("x" + "ab" * 8) == 3
    assert repetition_start("   " * 9) is None  # spaces are layout, not a loop...
    assert repetition_start("def f():\n" + " " * 40 + "return 1") is None
    padded = "Mount Fuji is approximately " + " " * 64  # ...but not without end
    assert padded[: repetition_start(padded)] == "Mount Fuji is approximately"
    assert repetition_start("x" + " " * 63) is None
    assert repetition_start("The average is 83.0666666667") is None  # a float, not a loop
    looped = "各有多少个蜂箱。金盏谷养蜂场：共有 " + "金盏谷养蜂场：共有 " * 7
    assert looped[: repetition_start(looped)] == "各有多少个蜂箱。金盏谷养蜂场：共有 "
    assert repetition_start("金盏谷养蜂场：共有 " * 6) is None  # 60 characters: not yet
    listing = "A: 12 m\nB: 12 m\nC: 12 m\nD: 12 m\n"  # a list of like lines is no loop
    assert repetition_start(listing) is None
    # a phrase ending in digits needs no more repeats than any other phrase
    digits = "x" + "金盏谷养蜂场：共有12345678" * 5
    assert digits[: repetition_start(digits)] == "x金盏谷养蜂场：共有12345678"
    zeros = "It is 0." + "0" * 16
    assert zeros[: repetition_start(zeros)] == "It is 0.0"  # a digit's loop, once it runs on


def test_a_block_repeated_with_other_numbers_is_a_loop() -> None:
    block = (
        "{n}. **driving_distance**:\n   - Parameters:\n     - `origin`: The city the drive "
        "starts from.\n     - `destination`: The city the drive ends in.\n   - Type: `object`\n\n"
    )
    intro = "The tools:\n\n"
    two = intro + block.format(n=1) + block.format(n=2)
    assert repetition_start(two) is None  # twice is no loop yet
    looped = intro + "".join(block.format(n=n) for n in (1, 2, 13))
    cut = repetition_start(looped)
    assert (
        cut is not None
        and len(intro) + len(block.format(n=1)) - 5
        <= cut
        <= len(intro) + len(block.format(n=1)) + 5
    ), cut
    # lines that differ only in their numbers are shorter than a block: a forecast, no loop
    days = "".join(
        f"Day {d}: {t} °C, sunny, light wind from the north-west.\n"
        for d, t in [(1, 20), (2, 18), (3, 22), (4, 19)]
    )
    assert repetition_start(days) is None


def test_stated_numbers_keep_signs_and_drop_none() -> None:
    texts = ["哈尔滨 (Harbin): -15 °C", "2026-11-15 (Sunday)", "2.1 million, 1,200 cents"]
    assert stated_numbers(texts) == ["-15", "15", "2026", "11", "2.1", "1", "200"]


def test_a_result_reads_a_grouped_number_whole() -> None:
    assert result_numbers("output 2,400 litres, staff 31, 1,250,000.5 yuan") == [
        "2400",
        "31",
        "1250000.5",
    ]
    assert result_numbers("5,10 and 12,34") == ["5", "10", "12", "34"]  # no group of three
    assert result_numbers("[1,200,300]") == ["1", "200", "300"]  # JSON: a list


def test_a_lost_minus_sign_is_restored() -> None:
    results = ["哈尔滨今天多少度？", "哈尔滨 (Harbin): -15 °C, snow"]
    assert signs_restored("哈尔滨今天15°C。", results) == "哈尔滨今天-15°C。"
    assert signs_restored("哈尔滨今天零下15度。", results) == "哈尔滨今天零下15度。"
    assert signs_restored("It is -15 °C, not 150.", results) == "It is -15 °C, not 150."
    # a number the texts also state bare keeps the answer's spelling
    assert signs_restored("On 2026-11-15 it was 15 °C.", [*results, "2026-11-15"]) == (
        "On 2026-11-15 it was 15 °C."
    )
    assert said_numbers("哈尔滨今天零下15°C，明天-3度，minus 2.5 then 2026-11-15") == [
        "-15",
        "-3",
        "-2.5",
        "2026",
        "11",
        "15",
    ]


@pytest.mark.parametrize(
    ("tool", "called", "parameters", "question", "expected"),
    [
        # Sibling tools the question never asked for.
        ("country_info.largest_city", ["country_info.capital"], [], "Brazil's capital?", False),
        ("circle_properties.get", ["triangle_properties.get"], [], "A triangle 5, 4, 3?", False),
        # Named by the question: whole words, plurals either way, camelCase.
        ("get_population", ["get_capital"], [], "Capital and populations of France?", True),
        ("getPopulation", ["getCapital"], [], "Capital and population of France?", True),
        ("math.product_of_primes", ["math.sum_of_multiples"], [], "The first prime numbers?", True),
        # Half of its own words is enough at the default share ("covered", not "traveled").
        ("distance_traveled", ["final_velocity"], ["time"], "Velocity and distance?", True),
        # ...but not when the word is an input of the call already made.
        (
            "calculate_final_speed",
            ["calculate_displacement"],
            ["initial_speed"],
            "From an initial speed of 20 m/s, the displacement?",
            False,
        ),
        # No word of its own: nothing the question could name.
        ("get_weather", ["get_weather"], [], "Weather in Paris?", False),
        # A word the called tool's name has in another form is none of its own ("Movie" of
        # "Movies", "Flight" of "Flights"): only "play" and "oneway" are.
        ("Media_3_PlayMovie", ["Media_3_FindMovies"], [], "Pull up Family movies?", False),
        ("Media_3_PlayMovie", ["Media_3_FindMovies"], [], "Find movies and play one.", True),
        (
            "Flights_4_SearchOnewayFlight",
            ["Flights_4_SearchRoundtripFlights"],
            [],
            "Search for roundtrip flights from JFK to LAX?",
            False,
        ),
    ],
)
def test_an_extra_call_of_another_tool_with_the_same_values_must_be_asked_for(
    tool: str, called: list[str], parameters: list[str], question: str, expected: bool
) -> None:
    share = ToolPolicy().asked_share
    assert asked_for(tool, called, question, share, parameters) is expected


def test_asked_share_is_a_share() -> None:
    with pytest.raises(ValueError, match="asked_share"):
        ToolPolicy(asked_share=1.5)
