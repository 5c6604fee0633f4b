"""What the planner keeps of the model's own arithmetic calls."""

from __future__ import annotations

import json

from toolkit.local.decision.arithmetic import arithmetic_tools, parsed_plan
from toolkit.local.decision.combining import looked_up
from toolkit.local.decision.planning import _adds_for_difference, _in_place


def _tool(name: str, *numbers: str) -> dict:
    properties = {n: {"type": "number"} for n in numbers} or {"name": {"type": "string"}}
    parameters = {"type": "object", "properties": properties, "required": list(properties)}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


def _call(name: str, arguments: dict, at: int) -> dict:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"id": f"c{at}", "type": "function", "function": function}


def test_a_plan_that_only_adds_is_no_plan_for_how_many_more():
    added, taken = parsed_plan("29 + 15"), parsed_plan("29 - 15")
    assert added is not None and taken is not None
    question = "蕨岭农场比卵石农场多养了几头羊驼？"
    assert _adds_for_difference(added, question)
    assert not _adds_for_difference(taken, question)
    assert not _adds_for_difference(added, "两家农场一共养了多少头羊驼？")
    assert _adds_for_difference(added, "How many more llamas does Fernridge keep than Pebble?")
    # a combination that names no total is no difference in so many words
    between = "Between the two of them, how many weavers do Velmora and Thistlegate employ?"
    assert not _adds_for_difference(added, between)


def test_the_models_arithmetic_call_takes_the_numbers_its_records_give():
    tools = [_tool("cellar_record"), _tool("add_amounts", "a", "b")]
    arithmetic = arithmetic_tools(tools, among=True)
    assert arithmetic is not None
    records = [
        "Name: Ashcombe\nfounded: 1884\nstaff: 27",
        "Name: Hollowmere\nfounded: 1911\nstaff: 12",
    ]
    messages = [
        {"role": "user", "content": "How many staff do Ashcombe and Hollowmere have between them?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                _call("cellar_record", {"name": "Ashcombe"}, 0),
                _call("cellar_record", {"name": "Hollowmere"}, 1),
            ],
        },
        *({"role": "tool", "tool_call_id": f"c{i}", "content": r} for i, r in enumerate(records)),
    ]
    lookups = looked_up(messages, arithmetic)
    assert lookups is not None
    chosen = [_call("add_amounts", {"a": 1884, "b": 1911}, 2)]
    assert _in_place(chosen, lookups) == [("add_amounts", {"a": 27, "b": 12})]
    assert _in_place([_call("add_amounts", {"a": 27, "b": 12}, 2)], lookups) is None
