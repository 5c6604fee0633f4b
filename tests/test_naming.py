"""The name an answer states of the record a chain reached."""

from __future__ import annotations

import json

from toolkit.local.decision.naming import names_record, reached_record, said_name

_CAROUSEL = (
    "Glimmerford Carousel Works | horses carved: 412 | glass panels from: Quenby Leadlight Studio"
)
_STUDIO = (
    '{"name": "Quenby Leadlight Studio", "zh": "昆比铅条彩窗工作室", "lead_came_metres": 1425}'
)
_QUENBY = "Quenby Leadlight Studio"


def _call(call_id: str, tool: str, arguments: dict) -> dict:
    function = {"name": tool, "arguments": json.dumps(arguments, ensure_ascii=False)}
    return {"id": call_id, "type": "function", "function": function}


def _chain(question: str, steps: list[tuple[str, str, str]]) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": question}]
    for at, (tool, name, result) in enumerate(steps):
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [_call(f"c{at}", tool, {"name": name})],
            }
        )
        messages.append({"role": "tool", "tool_call_id": f"c{at}", "content": result})
    return messages


def test_the_record_a_chain_reached_is_found_and_named():
    question = "Glimmerford Carousel Works buys its glass panels from a studio. How much lead came?"
    messages = _chain(
        question,
        [
            ("carousel_card", "Glimmerford Carousel Works", _CAROUSEL),
            ("studio_info", "Quenby Leadlight Studio", _STUDIO),
        ],
    )
    assert reached_record(messages) == ("Quenby Leadlight Studio", _STUDIO)
    assert reached_record(messages[:3]) is None  # the first record: the question names it
    assert (
        said_name("Quenby Leadlight Studio", _STUDIO, spaceless=False) == "Quenby Leadlight Studio"
    )
    assert said_name("Quenby Leadlight Studio", _STUDIO, spaceless=True) == "昆比铅条彩窗工作室"
    assert not names_record("The studio has 1425 metres of lead.", *reached_record(messages))
    assert names_record("Quenby has 1425 metres.", "Quenby Leadlight Studio", _STUDIO)
    assert names_record("昆比铅条彩窗工作室有1425米。", "Quenby Leadlight Studio", _STUDIO)


def test_a_name_the_question_writes_or_no_result_gave_is_no_chain():
    both = _chain(
        "Compare Pellham and Drosk.",
        [("farm", "Pellham", "Pellham: 2750 kg"), ("farm", "Drosk", "Drosk: 1860 kg")],
    )
    assert reached_record(both) is None
    guessed = _chain(
        "How many snails does the farm keep?",
        [("farm", "Pellham Snail Meadows", "Pellham: 48000 snails")],
    )
    assert reached_record(guessed) is None  # no earlier result gave the name
    refused = _chain(
        "Who supplies Glimmerford Carousel Works?",
        [
            ("carousel_card", "Glimmerford Carousel Works", _CAROUSEL),
            ("studio_info", "Quenby Leadlight Studio", "ERROR | unknown studio"),
        ],
    )
    assert reached_record(refused) is None  # the step was refused: nothing reached


def test_a_conversion_or_a_city_with_its_unit_reaches_no_record():
    converted = _chain(
        "西安现在的气温是多少华氏度？", [("get_weather", "西安", "西安 (Xi'an): 41 °F")]
    )
    unit = _call("u", "convert_units", {"value": 41, "from": "F", "to": "F"})
    converted.append({"role": "assistant", "content": "", "tool_calls": [unit]})
    converted.append({"role": "tool", "tool_call_id": "u", "content": "41 °F = 41 °F"})
    assert reached_record(converted) is None  # "F" is a unit the result wrote, no name


def test_a_record_is_named_by_the_names_it_writes_before_its_numbers():
    assert names_record("The weather in Beijing is 6 °C.", "北京", "北京 (Beijing): 6 °C, sunny")
    assert not names_record("It is 6 °C and sunny.", "北京", "北京 (Beijing): 6 °C, sunny")


def test_a_record_looked_up_beside_other_calls_is_no_chain_step():
    question = "Glimmerford Carousel Works buys its glass panels from a studio. How much lead came?"
    messages = _chain(question, [("carousel_card", "Glimmerford Carousel Works", _CAROUSEL)])
    beside = [
        _call("s", "add", {"a": 1, "b": 2}),
        _call("q", "studio_info", {"name": "Quenby Leadlight Studio"}),
    ]
    messages.append({"role": "assistant", "content": "", "tool_calls": beside})
    messages.append({"role": "tool", "tool_call_id": "s", "content": "3"})
    messages.append({"role": "tool", "tool_call_id": "q", "content": _STUDIO})
    assert reached_record(messages) is None  # a step of several calls: no chain's one step


def test_a_chain_that_ends_in_a_sum_names_the_record_it_reached():
    question = "Glimmerford Carousel Works buys its glass panels from a studio. How much lead came?"
    steps = [
        ("carousel_card", "Glimmerford Carousel Works", _CAROUSEL),
        ("studio_info", _QUENBY, _STUDIO),
    ]
    messages = _chain(question, steps)
    messages.append(
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [_call("m", "multiply", {"a": 1425, "b": 2})],
        }
    )
    messages.append({"role": "tool", "tool_call_id": "m", "content": "2850"})
    assert reached_record(messages) == (_QUENBY, _STUDIO)
