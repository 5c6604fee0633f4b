"""A rate of two numbers of one record, as the question asks for it."""

from __future__ import annotations

import json

from toolkit.local.decision.arithmetic import Tools
from toolkit.local.decision.decoding import result_spellings
from toolkit.local.decision.rates import asked_rate, rated_record

_ORCHARD = "orchard: Pembry Orchard\ntrees: 1840\npickers: 23\nacres: 46\nfounded: 1961"
_TOOLS = Tools({"/": ("divide_by", "dividend", "divisor")}, None)


def _call(call_id: str, tool: str, arguments: dict) -> dict:
    function = {"name": tool, "arguments": json.dumps(arguments)}
    return {"id": call_id, "type": "function", "function": function}


def _turn(question: str, steps: list[tuple[str, dict, str]]) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": question}]
    for at, (tool, arguments, result) in enumerate(steps):
        call = _call(f"c{at}", tool, arguments)
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{at}", "content": result})
    return messages


def test_a_rate_divides_the_named_number_by_the_thing_after_per():
    question = "How many trees does Pembry Orchard have per acre?"
    assert asked_rate(question, _ORCHARD, ["orchard"]) == ("1840", "46")


def test_each_and_for_each_name_the_divisor_and_a_span_of_time_is_skipped():
    each = "Each year, how many trees does every picker at that orchard look after?"
    assert asked_rate(each, _ORCHARD, ["orchard"]) == ("1840", "23")
    for_each = "The cider comes from an orchard. How many trees are there for each picker?"
    assert asked_rate(for_each, _ORCHARD, ["orchard"]) == ("1840", "23")


def test_no_rate_is_read_where_the_record_states_it_or_none_is_asked():
    stated = '{"name": "Pembry Orchard", "trees": 1840, "trees_per_acre": 40, "acres": 46}'
    assert asked_rate("How many trees per acre does it have?", stated, []) is None
    assert asked_rate("How many trees does Pembry Orchard have?", _ORCHARD, []) is None
    assert asked_rate("How many acres does each of them have?", _ORCHARD, []) is None
    # a word after "per" that names no number of the record
    assert asked_rate("How many trees are there per village?", _ORCHARD, []) is None


def test_the_record_is_a_chains_last_or_the_one_looked_up():
    cider = "Brackley Cider Press | casks: 310 | apples from: Pembry Orchard"
    chain = _turn(
        "Brackley Cider Press gets its apples from an orchard. How many trees per acre?",
        [
            ("cider_press_info", {"name": "Brackley Cider Press"}, cider),
            ("orchard_info", {"name": "Pembry Orchard"}, _ORCHARD),
        ],
    )
    assert rated_record(chain, _TOOLS) == (_ORCHARD, [], [])
    division = _call("d0", "divide_by", {"dividend": 1840, "divisor": 46})
    divided = [
        *chain,
        {"role": "assistant", "content": "", "tool_calls": [division]},
        {"role": "tool", "tool_call_id": "d0", "content": "40"},
    ]
    record, made, results = rated_record(divided, _TOOLS) or ("", [], [])
    assert record == _ORCHARD
    assert [c["function"]["name"] for c in made] == ["divide_by"]
    assert results == ["40"]
    one = _turn("How many trees per acre?", [("orchard_info", {"name": "Pembry"}, _ORCHARD)])
    assert rated_record(one, _TOOLS) == (_ORCHARD, [], [])


def test_no_record_is_rated_beside_two_lookups_of_no_chain():
    other = "orchard: Quarle Orchard\ntrees: 900\npickers: 12\nacres: 30\nfounded: 1990"
    two = _turn(
        "Which has more trees per acre, Pembry or Quarle?",
        [
            ("orchard_info", {"name": "Pembry"}, _ORCHARD),
            ("orchard_info", {"name": "Quarle"}, other),
        ],
    )
    assert rated_record(two, _TOOLS) is None


def test_a_short_result_that_states_one_number_is_read_as_it():
    assert result_spellings("Each part: 9.6") == ["9.6"]
    assert result_spellings("15") == ["15"]
    assert result_spellings("Each of 4 parts: 9.6") == []
    assert result_spellings("orchard: Pembry Orchard, trees: 1840, founded in the year 1961") == []


def test_what_the_question_counts_names_the_dividend_where_a_tool_says_it_too():
    record = (
        "Brindle Noodle Bar (布林德面馆) opened in 1990, seats 60 diners, employs 6 cooks and "
        "makes about 1,800 noodles a day from flour it buys from Quarle Mill."
    )
    question = "On an average day, how many noodles does each cook at that place make?"
    assert asked_rate(question, record, ["noodle", "bar", "lookup"]) == ("1800", "6")


def test_a_difference_of_two_things_one_record_counts():
    from toolkit.local.decision.rates import asked_gap

    record = '{"name": "Tessary Knot Guild", "members": 21, "looms": 8, "founded": 1978}'
    more = "The curtains were woven by a guild. How many more members than looms does it have?"
    assert asked_gap(more, record) == ("21", "8")
    assert asked_gap("How many fewer looms than members are there?", record) == ("21", "8")
    assert asked_gap("How many more members does it have than Ardley?", record) is None
    assert asked_gap("How many members does it have?", record) is None
