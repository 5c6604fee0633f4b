"""Which of several like tools the question asks for, and what a question only sets as a
condition."""

from __future__ import annotations

import pytest

from toolkit.local.decision.clauses import without_conditions
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.siblings import asked_sibling, said_parameters
from toolkit.local.decision.turn import asked_for


def _schema(*parameters: str, date: str | None = None) -> dict:
    properties = {p: {"type": "number"} for p in parameters}
    if date:
        properties[date] = {"type": "string"}
    return {"type": "object", "properties": properties, "required": list(parameters)}


_MOTION = {
    "optics_wave_speed": _schema("frequency", "wavelength"),
    "motion_final_speed": _schema("initial_speed", "acceleration", "time"),
    "motion_distance": _schema("initial_speed", "acceleration", "time"),
}
_RATES = {
    "exchange_latest_rate": _schema("from_currency", "to_currency"),
    "exchange_rate_on": _schema("from_currency", "to_currency", date="on_date"),
}
_FIELDS = {
    "magnetism_loop_law": _schema("enclosed_current", "radius"),
    "magnetism_wire_law": _schema("current", "distance"),
}


@pytest.mark.parametrize(
    ("chosen", "schemas", "question", "expected"),
    [
        # Nothing the question says is a wave; "final" is the other tool's own.
        (
            "optics_wave_speed",
            _MOTION,
            "What is the final speed of a ball thrown up at 30 m/s after 2 seconds?",
            "motion_final_speed",
        ),
        # The question says the chosen tool's own word: it stays.
        ("optics_wave_speed", _MOTION, "The speed of a wave of wavelength 2 m at 5 Hz?", None),
        # A date stated, and only the sibling takes one.
        (
            "exchange_latest_rate",
            _RATES,
            "The exchange rate from yen to won on March 3, 2021?",
            "exchange_rate_on",
        ),
        ("exchange_latest_rate", _RATES, "The exchange rate from yen to won?", None),
        # Parameters tell them apart: the question gives a distance and a current.
        (
            "magnetism_loop_law",
            _FIELDS,
            "The magnetic field 3 m from a wire with a current of 9 A?",
            "magnetism_wire_law",
        ),
        # A question that asks two things may ask for both tools.
        (
            "optics_wave_speed",
            _MOTION,
            "The wave speed at 5 Hz and also the final speed after 2 s at 3 m/s²?",
            None,
        ),
        # No family: tools that share no word of their names are no siblings.
        ("get_weather", {"get_weather": _schema("city"), "add": _schema("x", "y")}, "加", None),
    ],
)
def test_the_sibling_the_question_asks_for(chosen, schemas, question, expected) -> None:
    assert asked_sibling(chosen, schemas, question) == expected


def test_two_siblings_that_say_as_much_name_none() -> None:
    # Both speeds have "acceleration" against the wave tool, and the question says no more.
    schemas = {
        **_MOTION,
        "motion_average_speed": _schema("initial_speed", "acceleration", "time"),
    }
    question = "A cart under an acceleration of 2 m/s² for 3 s: how fast?"
    assert asked_sibling("optics_wave_speed", schemas, question) is None
    assert asked_sibling("optics_wave_speed", _MOTION, question) == "motion_final_speed"


def test_a_tool_with_no_words_of_its_own_is_not_left() -> None:
    schemas = {"invest_in": _schema("amount"), "invest_in_withdraw": _schema("amount")}
    assert asked_sibling("invest_in", schemas, "Put $2000 to withdraw later?") is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How much revenue would XYZ make if sales grew 10% while keeping the price the same?",
            "How much revenue would XYZ make  ",
        ),
        (
            "How fast was it going, given it traveled 20 m due to a constant acceleration?",
            "How fast was it going,  ",
        ),
        # Asking again ends the condition.
        (
            "The growth of XYZ if it is listed, and also its interest coverage?",
            "The growth of XYZ   and also its interest coverage?",
        ),
        ("Capital and population of France?", "Capital and population of France?"),
        # Words that only contain a condition word are no condition ("gift", "lifted").
        ("The gift lifted by a crane?", "The gift lifted by a crane?"),
    ],
)
def test_a_question_without_its_conditions(question: str, expected: str) -> None:
    assert without_conditions(question) == expected


def test_a_tool_named_only_in_a_condition_is_not_asked_for() -> None:
    share = ToolPolicy().asked_share
    question = "How fast was it going if it started from rest due to a constant acceleration?"
    called = ["calculate_speed"]
    assert asked_for("calculate_acceleration", called, question, share)
    assert not asked_for("calculate_acceleration", called, question, share, outside_conditions=True)


def test_the_parameters_that_told_the_sibling_apart_are_written() -> None:
    question = "The exchange rate from yen to won on March 3, 2021?"
    assert said_parameters("exchange_rate_on", "exchange_latest_rate", _RATES, question) == [
        "on_date"
    ]
    question = "The magnetic field at a distance of 3 m from a wire with a current of 9 A?"
    said = said_parameters("magnetism_wire_law", "magnetism_loop_law", _FIELDS, question)
    assert said == ["current", "distance"]
    assert said_parameters("exchange_rate_on", "exchange_latest_rate", _RATES, "Yen to won?") == []


def test_a_call_is_judged_as_it_is_sent() -> None:
    import json
    from dataclasses import replace

    from toolkit.local.decision.turn import CallJudge
    from toolkit.local.format.job import ChatJob

    body = {
        "type": "object",
        "properties": {"mode": {"type": "string"}, "target": {"type": "integer"}},
        "required": ["mode"],
    }
    parameters = {"type": "object", "properties": {"body": body}, "required": ["body"]}
    tool = {"type": "function", "function": {"name": "aircon", "parameters": parameters}}
    asked = [{"role": "user", "content": "Set the aircon to COOL mode."}]
    job = ChatJob(messages=asked, tools=[tool])
    # The model guessed an optional target temperature nobody gave: it is left out when sent.
    arguments = json.dumps({"body": {"mode": "COOL", "target": 22}})
    call = {"function": {"name": "aircon", "arguments": arguments}}
    assert not CallJudge(job, ToolPolicy(), auto=True).rejected(call)
    assert CallJudge(job, replace(ToolPolicy(), judged_as_sent=False), auto=True).rejected(call)
    # A required value nobody gave is a fault either way.
    body["required"] = ["mode", "target"]
    assert CallJudge(ChatJob(messages=asked, tools=[tool]), ToolPolicy(), auto=True).rejected(call)


def test_a_parameter_whose_format_is_a_date_takes_the_stated_date() -> None:
    schemas = {
        "exchange_latest_rate": _RATES["exchange_latest_rate"],
        "exchange_rate_on": {
            "type": "object",
            "properties": {
                "from_currency": {"type": "string"},
                "to_currency": {"type": "string"},
                "at": {"type": "string", "format": "date"},
            },
            "required": ["from_currency", "to_currency"],
        },
    }
    question = "The exchange rate from yen to won on March 3, 2021?"
    assert asked_sibling("exchange_latest_rate", schemas, question) == "exchange_rate_on"
    said = said_parameters("exchange_rate_on", "exchange_latest_rate", schemas, question)
    assert said == ["at"]
