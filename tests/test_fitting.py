"""Which of the tools that take one name the question's asked words fit (decision.fitting);
a question's word alone is no value (decision.turn)."""

from __future__ import annotations

import json

from helpers import typed_tool

from toolkit.local.decision.fitting import asked_terms, fitting_tool, one_name_tools
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.turn import CallJudge
from toolkit.local.format.job import ChatJob


def _tool(name: str, key: str, description: str) -> dict:
    """An offered tool taking one name, its description a docstring's sections."""
    offered = typed_tool(name, **{key: "string"})
    offered["function"]["description"] = description
    return offered


_BAKERIES = [
    _tool(
        "bakery_record",
        "bakery",
        "Look up a bakery.\n\nArgs:\n    bakery: Name of the bakery.\n\nReturns:\n"
        "    A record with the year founded, the number of bakers, loaves baked per day and\n"
        "    the mill its flour comes from.",
    ),
    _tool(
        "bakery_tasting_hours",
        "bakery",
        "Get the daily tasting hours of a bakery.\n\nArgs:\n    bakery: Name of the bakery.\n\n"
        "Returns:\n    The opening and closing time of its tasting room.",
    ),
    _tool(
        "mill_hours",
        "mill",
        "Get the first and last grinding times of a mill.\n\nArgs:\n    mill: Name of the mill."
        "\n\nReturns:\n    The times of the day (24-hour clock).",
    ),
    _tool(
        "baker_profile",
        "person",
        "Look up a baker by name.\n\nArgs:\n    person: Full name of the baker.\n\nReturns:\n"
        "    A profile with birth year, apprentices trained and the bakery the baker trained at.",
    ),
]
_SCHEMAS = {t["function"]["name"]: t["function"]["parameters"] for t in _BAKERIES}
_DESCRIPTIONS = {t["function"]["name"]: t["function"]["description"] for t in _BAKERIES}


def _fitting(question: str, names: list[str], *, names_only: bool = False) -> str | None:
    tools = one_name_tools(_SCHEMAS)
    asked = asked_terms(question, names, tools)
    return fitting_tool(asked, tools, _DESCRIPTIONS, _SCHEMAS, names_only=names_only)


def test_a_word_of_one_tools_name_picks_it_over_words_others_say_too():
    # "hours" is the mill timetable's word as well: "tasting" tells the bakery's hours
    question = "When are the tasting hours at Rye Lane Bakery and Crumb Hall Bakery?"
    names = ["Rye Lane Bakery", "Crumb Hall Bakery"]
    assert _fitting(question, names) == "bakery_tasting_hours"


def test_a_word_only_one_description_says_picks_that_tool():
    question = "How many more loaves does Rye Lane Bakery bake than Crumb Hall Bakery?"
    assert _fitting(question, ["Rye Lane Bakery", "Crumb Hall Bakery"]) == "bakery_record"
    # "a day" tells no tool apart: the record's loaves and the mill's times both say it
    question = "Which works longer a day, Stone Mill or Rye Lane Bakery?"
    assert _fitting(question, ["Stone Mill", "Rye Lane Bakery"]) is None


def test_the_thing_a_tool_takes_is_no_word_of_its_answer():
    # "bakers" is what ``baker_profile`` looks up, not what it tells: the record counts them
    question = "Which has more bakers, Rye Lane Bakery or Crumb Hall Bakery?"
    assert _fitting(question, ["Rye Lane Bakery", "Crumb Hall Bakery"]) == "bakery_record"


def test_the_names_given_ask_for_nothing():
    # "Mill" of a name is no word the question asks with
    question = "When was Old Mill Bakery founded, and Crumb Hall Bakery?"
    assert "mill" not in asked_terms(question, ["Old Mill Bakery", "Crumb Hall Bakery"])
    assert _fitting(question, ["Old Mill Bakery", "Crumb Hall Bakery"]) == "bakery_record"


def test_a_chinese_question_is_read_by_the_tools_names_alone():
    # 品尝 "to taste" glosses a word of ``bakery_tasting_hours``' name
    question = "麦田面包坊和面包屋的品尝时间分别是几点？"
    found = _fitting(question, ["麦田面包坊", "面包屋"], names_only=True)
    assert found == "bakery_tasting_hours"
    # no word of any name: nothing fits, however many the glosses
    assert _fitting("麦田面包坊和面包屋哪家更老？", ["麦田面包坊"], names_only=True) is None


def _judge(question: str) -> CallJudge:
    messages = [{"role": "user", "content": question}]
    return CallJudge(ChatJob(messages=messages, tools=_BAKERIES), ToolPolicy(), auto=True)


def _call(name: str, arguments: dict) -> dict:
    return {"function": {"name": name, "arguments": json.dumps(arguments)}}


def test_a_lookup_of_a_name_given_goes_to_the_tool_the_question_fits():
    judge = _judge("What are the tasting hours of Rye Lane Bakery and Crumb Hall Bakery?")
    call = _call("bakery_record", {"bakery": "Crumb Hall Bakery"})
    assert judge.of_its_kind(call) == ("bakery_tasting_hours", {"bakery": "Crumb Hall Bakery"})
    # a name of another kind still goes where the question's words point
    call = _call("mill_hours", {"mill": "Rye Lane Bakery"})
    assert judge.of_its_kind(call) == ("bakery_tasting_hours", {"bakery": "Rye Lane Bakery"})
    # the fitting tool's own call stays
    assert judge.of_its_kind(_call("bakery_tasting_hours", {"bakery": "Rye Lane Bakery"})) is None
    off = ToolPolicy(asked_words_pick_tool=False, named_kinds=False)
    messages = [{"role": "user", "content": judge.question}]
    plain = CallJudge(ChatJob(messages=messages, tools=_BAKERIES), off, auto=True)
    assert plain.of_its_kind(_call("bakery_record", {"bakery": "Crumb Hall Bakery"})) is None


def test_a_question_of_one_name_may_ask_of_the_thing_it_leads_to():
    # a chain: the bakery's record names its baker, whose birth year is asked
    judge = _judge("What is the birth year of the head baker at Rye Lane Bakery?")
    assert judge.fitting_call("bakery_record", {"bakery": "Rye Lane Bakery"}) is None
    # a value the question does not give is no name of it
    judge = _judge("What are the tasting hours of Rye Lane Bakery and Crumb Hall Bakery?")
    assert judge.fitting_call("bakery_record", {"bakery": "Stone Mill"}) is None


def test_a_question_word_alone_is_no_value():
    judge = _judge("I'd like to visit whichever bakery bakes rye. What hours is that bakery open?")
    assert judge.takes_a_question_word(_call("bakery_tasting_hours", {"bakery": "What"}))
    assert judge.rejected(_call("bakery_tasting_hours", {"bakery": "What"}))
    assert not judge.takes_a_question_word(_call("bakery_record", {"bakery": "Rye Lane Bakery"}))
    # a word the question quotes is what it asks about
    quoted = _judge("How often does the word 'which' appear in Crumb Hall Bakery's menu?")
    assert not quoted.takes_a_question_word(_call("bakery_record", {"bakery": "which"}))


_VISITS = [
    _tool(
        "mill_record",
        "mill",
        "Look up a flour mill.\n\nArgs:\n    mill: Name of the mill.\n\nReturns:\n"
        "    A record with the year founded and the bakery that buys its flour.",
    ),
    _tool(
        "bakery_record",
        "bakery",
        "Look up a bakery.\n\nArgs:\n    bakery: Name of the bakery.\n\nReturns:\n"
        "    A record with the year founded, its bakers and its owner.",
    ),
    _tool(
        "visiting_hours",
        "place",
        "Get the hours a place is open to visitors.\n\nArgs:\n    place: Name of the place.",
    ),
    _tool(
        "person_profile",
        "full_name",
        "Look up a person.\n\nArgs:\n    full_name: The person's name.\n\nReturns:\n"
        "    A profile with the year born and hometown.",
    ),
]
_MILL = json.dumps({"name": "Stone Mill", "founded": 1801, "flour_buyer": "Rye Lane Bakery"})


def _chain(question: str, *more: dict, policy: ToolPolicy | None = None) -> CallJudge:
    messages = [
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "m", "type": "function", **_call("mill_record", {"mill": "Stone Mill"})}
            ],
        },
        {"role": "tool", "tool_call_id": "m", "content": _MILL},
        *more,
    ]
    return CallJudge(ChatJob(messages=messages, tools=_VISITS), policy or ToolPolicy(), auto=True)


def test_a_chains_step_is_asked_of_the_tool_the_asking_sentence_fits():
    question = (
        "I'd like to visit whichever bakery buys flour from Stone Mill. What hours is it open?"
    )
    judge = _chain(question)
    step = _call("bakery_record", {"bakery": "Rye Lane Bakery"})
    assert judge.of_its_kind(step) == ("visiting_hours", {"place": "Rye Lane Bakery"})
    # once the hours are in, the bakery's record is a step of nothing: the fitting call again
    asked = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "v", "type": "function", **_call("visiting_hours", {"place": "Rye Lane Bakery"})}
        ],
    }
    later = _chain(question, asked, {"role": "tool", "tool_call_id": "v", "content": "08:30–14:30"})
    moved = later.of_its_kind(step)
    assert moved is not None and later.history.redundant(_call(moved[0], moved[1])), moved
    # a tool of people is no tool of any place: the owner is looked up through the bakery
    owner = _chain("What year was the owner of the bakery that buys Stone Mill's flour born?")
    assert owner.of_its_kind(step) is None
    off = _chain(question, policy=ToolPolicy(chain_end_fits_asked=False, named_kinds=False))
    assert off.of_its_kind(step) is None
