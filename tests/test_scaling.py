"""The record a turn reached, taken on by the question's own numbers."""

from __future__ import annotations

import json

from toolkit.local.decision.arithmetic import Tools
from toolkit.local.decision.combining import once_grammar, read_combination
from toolkit.local.decision.planning import _worked
from toolkit.local.decision.scaling import reached_lookups, told_numbers

_PORT = "name: Ashgrove Ferry | ferries: 4 | crossings_per_day: 36 | fare_eur: 18 | founded: 1952"
_TOOLS = Tools({"*": ("multiply_by", "value", "factor"), "+": ("add_up", "a", "b")}, None)


def _turn(question: str, steps: list[tuple[str, dict, str]]) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": question}]
    for at, (tool, arguments, result) in enumerate(steps):
        function = {"name": tool, "arguments": json.dumps(arguments)}
        call = {"id": f"c{at}", "type": "function", "function": function}
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{at}", "content": result})
    return messages


def test_the_numbers_a_question_states_for_arithmetic():
    assert told_numbers("What would fares for a family of three cost?", set(), set()) == [3.0]
    assert told_numbers("要是明年翻一番，会是多少？", set(), set()) == [2.0]
    assert told_numbers("再招8个工人，一共会有多少名工人？", set(), set()) == [8.0]
    # Chinese numerals before what they count; "一" alone is "a", "两" alone counts time
    assert told_numbers("照那家锻坊每周的数量，连续干两周一共能打多少只？", set(), set()) == [2.0]
    assert told_numbers("一家四口买了三张票", set(), set()) == [3.0, 4.0]
    assert told_numbers("两家酒厂一共有多少名员工？", set(), set()) == []
    # a year, a number a lookup took and one the record states are no operands
    assert told_numbers("How many crossings did it make in 2023?", set(), set()) == []
    assert told_numbers("How busy is Route 7 today?", {7.0}, set()) == []
    assert told_numbers("Does it still charge 18 euros?", set(), {18.0}) == []
    # unless the number asked for is a year and the question asks how many years
    question = "How many years will that railway have been open in 2025?"
    assert told_numbers(question, set(), {1905.0}, dated=True) == [2025.0]
    assert told_numbers(question, set(), {1905.0}) == []


def test_the_reached_records_asked_number_and_the_questions_make_one_expression():
    question = "What is the fare at Ashgrove Ferry, and what would four fares cost?"
    messages = _turn(question, [("get_ferry", {"name": "Ashgrove Ferry"}, _PORT)])
    lookups = reached_lookups(messages, _TOOLS, "18")
    assert lookups is not None
    assert lookups.values == [4.0, 18.0]
    assert once_grammar(lookups) is not None
    assert read_combination("18 * 4", lookups) is not None
    assert read_combination("18 * 4 * 4", lookups) is None  # each number once
    assert read_combination("36 * 4", lookups) is None  # not the number asked for
    # no number asked for, one the record does not state, or no number of the question
    assert reached_lookups(messages, _TOOLS, None) is None
    assert reached_lookups(messages, _TOOLS, "99") is None
    plain = _turn("What is the fare?", [("get_ferry", {"name": "Ashgrove Ferry"}, _PORT)])
    assert reached_lookups(plain, _TOOLS, "18") is None


def test_a_worked_result_names_its_records_labels():
    assert _worked("18 * 4", "72", {"18": "fare eur"}) == "18 (fare eur) * 4 = 72"
    assert _worked("640 / 7", "Each part: 91.43", {}) == "640 / 7 = 91.43"
    assert _worked("640 / 7", "no result", {}) is None


def test_an_answer_that_leaves_out_the_working_ends_with_it():
    from toolkit.local.decision.decoding import with_working
    from toolkit.local.format.events import ContentDelta, Finished

    worked = "245 (ticket price eur) * 3 = 735"
    done = Finished("stop", 10, 5, "text")
    short = with_working([ContentDelta("Three tickets cost 735 euros."), done], worked, False)
    assert [e.text for e in short if isinstance(e, ContentDelta)] == [
        "Three tickets cost 735 euros.",
        " (245 * 3 = 735)",
    ]
    assert short[-1] is done
    whole = [ContentDelta("A ticket is 245 euros; three cost 735.")]
    assert with_working(whole, worked, False) == whole
    chinese = with_working([ContentDelta("一共735欧元。")], worked, True)
    assert chinese[-1].text == "（245 * 3 = 735）"


def test_a_worked_expression_is_shown_without_the_brackets_around_it():
    assert _worked("(4 * 120)", "480", {"120": "nightly rate"}) == "4 * 120 (nightly rate) = 480"
    assert _worked("(2 + 3) * (4 + 5)", "45", {}) == "(2 + 3) * (4 + 5) = 45"
