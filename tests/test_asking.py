"""What a question asks of its looked-up values: arithmetic, or the values themselves."""

from __future__ import annotations

import json

import pytest

from toolkit.local.decision.arithmetic import parsed_plan
from toolkit.local.decision.asking import (
    asked_order,
    asked_parts,
    asks_arithmetic,
    asks_combination,
    asks_difference,
    asks_each,
)
from toolkit.local.decision.combining import larger_first, years_apart
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.turn import CallJudge
from toolkit.local.format.job import ChatJob


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How high does a boat get lifted at Fennick Lock, and at Wenlow Lock?", False),
        ("What are the capacities of Ely Ice House and Ash Ice House?", False),
        ("Ely Mill 和 Ash Mill 各有多少名工人？", False),
        ("How many boats get through Kessel Lock and Marrow Lock put together?", True),
        ("By how much does Fennick Lock lift more than Wenlow Lock?", True),
        ("How many years apart were the two mills founded?", True),
        ("Which lock lifts boats higher?", True),
        ("How many seats are left at the Ely theatre tonight?", True),
        ("How many boats pass through Kessel Lock in a 7-day week?", True),
        ("How many boats pass through Kessel Lock in two weeks?", True),
        ("芬尼克船闸一周能放行多少条船？", True),
        ("芬尼克船闸比凯瑟尔船闸高出多少米？", True),
    ],
)
def test_a_question_asks_for_arithmetic_only_by_its_words_or_numbers(question, asks):
    assert asks_arithmetic(question) is asks


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("灯芯沼和脂灯，哪一家历史更悠久？", ("更老", True, False)),
        ("这三家哪家历史最长？", ("最老", True, True)),
        ("哪家开业最久？", ("最老", True, True)),
        ("哪家经营得更久？", ("更老", True, False)),
        ("哪一座更久远？", ("更老", True, False)),
        ("哪座桥更长？", ("更长", True, False)),  # a length, not an age
        ("哪家店营业时间更长？", ("更长", True, False)),  # opening hours
        ("哪家成立得更早？", ("更早", False, False)),
    ],
)
def test_a_chinese_question_of_how_long_a_thing_has_lasted_asks_its_age(question, order):
    assert asked_order(question) == order


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("哪一家历史更悠久？早成立了多少年？", True),
        ("哪家开得早？早开了几年？", True),
        ("哪家更大？大了多少？", True),
        ("哪一家历史更悠久？", False),
        ("哪家早上几点开门？", False),
        # "比" then the order, a verb between it and how many
        ("蕨岭农场比卵石农场多养了几头羊驼？", True),
        ("甲店比乙店少卖出了多少瓶？", True),
        ("甲店比乙店大吗？有多少人在甲店工作？", False),
    ],
)
def test_a_chinese_difference_may_put_a_verb_between_the_order_and_how_much(question, asks):
    assert asks_difference(question) is asks


def _tool(name: str, *params: str) -> dict:
    properties = {p: {"type": "number" if len(p) == 1 else "string"} for p in params}
    parameters = {"type": "object", "properties": properties, "required": list(params)}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


_TOOLS = [_tool("get_lock", "name"), _tool("subtract", "a", "b"), _tool("add", "a", "b")]


def _after_lookups(
    question: str, *earlier: tuple[str, dict, str], policy: ToolPolicy | None = None
) -> CallJudge:
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        for i, (name, arguments, _) in enumerate(earlier)
    ]
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(
            {"role": "tool", "tool_call_id": f"c{i}", "content": result}
            for i, (_, _, result) in enumerate(earlier)
        ),
    ]
    job = ChatJob(messages=messages, tools=_TOOLS)
    return CallJudge(job, policy or ToolPolicy(), auto=True)


def _call(name: str, **arguments: float) -> dict:
    return {
        "id": "x",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


_LOCKS = (
    ("get_lock", {"name": "Fennick Lock"}, "Fennick Lock: lift 9.5 m"),
    ("get_lock", {"name": "Wenlow Lock"}, "Wenlow Lock: lift 3.1 m"),
)


def test_a_subtraction_nobody_asked_for_is_rejected():
    question = "How high does a boat get lifted at Fennick Lock, and at Wenlow Lock?"
    each = _after_lookups(question, *_LOCKS)
    assert each.unasked_difference(_call("subtract", a=9.5, b=3.1))
    assert each.rejected(_call("subtract", a=9.5, b=3.1))
    assert not each.unasked_difference(_call("add", a=9.5, b=3.1))  # no subtraction
    off = _after_lookups(question, *_LOCKS, policy=ToolPolicy(differences_when_asked=False))
    assert not off.unasked_difference(_call("subtract", a=9.5, b=3.1))
    asked = _after_lookups("How much higher does Fennick Lock lift than Wenlow Lock?", *_LOCKS)
    assert not asked.unasked_difference(_call("subtract", a=9.5, b=3.1))
    # a plan of arithmetic already under way goes on
    planned = _after_lookups(
        question,
        *_LOCKS,
        ("add", {"a": 9.5, "b": 3.1}, "12.6"),
    )
    assert not planned.unasked_difference(_call("subtract", a=12.6, b=3.1))


def test_a_difference_asked_in_no_order_is_the_larger_less_the_smaller():
    built = (
        ("get_lock", {"name": "Fennick Lock"}, "Fennick Lock: built 1861"),
        ("get_lock", {"name": "Wenlow Lock"}, "Wenlow Lock: built 1879"),
    )
    apart = _after_lookups("How many years apart were Fennick Lock and Wenlow Lock built?", *built)
    tidied = apart.tidied(_call("subtract", a=1861, b=1879))
    assert json.loads(tidied["function"]["arguments"]) == {"a": 1879, "b": 1861}
    # asked in an order, or no difference at all: as written
    later = _after_lookups("How much later than Wenlow Lock was Fennick Lock built?", *built)
    kept = later.tidied(_call("subtract", a=1861, b=1879))
    assert json.loads(kept["function"]["arguments"]) == {"a": 1861, "b": 1879}
    off = _after_lookups(
        "How many years apart were Fennick Lock and Wenlow Lock built?",
        *built,
        policy=ToolPolicy(differences_when_asked=False),
    )
    as_written = off.tidied(_call("subtract", a=1861, b=1879))
    assert json.loads(as_written["function"]["arguments"]) == {"a": 1861, "b": 1879}


def test_a_plan_of_one_subtraction_asked_in_no_order_is_the_larger_less_the_smaller():
    plan = parsed_plan("1861 - 1879")
    assert plan is not None
    apart = larger_first(plan, "How many years apart were the two ice houses built?")
    assert (apart.expression, apart.value) == ("1879 - 1861", 18)
    for question in (
        "How much later than Wenlow Lock was Fennick Lock built?",  # an order
        "What were the two ice houses built for?",  # no difference
    ):
        assert larger_first(plan, question) == plan
    longer = parsed_plan("(1861 - 1879) * 2")
    assert longer is not None
    assert larger_first(longer, "How many years apart were they built?") == longer


def test_two_years_added_are_their_difference():
    added = parsed_plan("1905 + 2025")
    assert added is not None
    assert years_apart(added).expression == "2025 - 1905"
    kept = parsed_plan("1905 + 25")  # a year and a span: as written
    assert kept is not None and years_apart(kept).expression == "1905 + 25"
    subtracted = parsed_plan("2025 - 1905")
    assert subtracted is not None and years_apart(subtracted) is subtracted


@pytest.mark.parametrize(
    ("question", "combined"),
    [
        (
            "If the whole staff of Brackenford Dairy and of Hollowmere Dairy came to one harvest "
            "supper, how many people would be there?",
            True,
        ),
        (
            "Brackenford Dairy and Oatridge Dairy are merging their herds. How many cows will "
            "the new herd have?",
            True,
        ),
        (
            "If the staff of A and of B all rode in a single coach, how many seats would they "
            "fill?",
            True,
        ),
        ("石溪牧场和枫塘牧场的员工如果一起去春游，会有多少人参加？", True),
        ("把柳湾牧场和枫塘牧场的奶牛赶到同一片草场上，那里会有多少头奶牛？", True),
        (
            "If every milker from Brackenford Dairy and every milker from Oatridge Dairy turns "
            "up at the fair, how many milkers will be there?",
            True,
        ),
        # each thing's own number, or one of them: no gathering
        ("How many cows do Hollowmere Dairy and Oatridge Dairy have?", False),
        ("Which one of the two dairies keeps more cows?", False),
        ("Book a table at one of the dairies in Oatridge.", False),
        ("云岭乳品厂和白沙乳品厂分别是哪一年开业的？", False),
        # every one of two groups, but no count asked
        ("When do all the dairies of Oatridge and all those of Brackenford open?", False),
    ],
)
def test_things_gathered_into_one_ask_for_their_total(question, combined):
    assert asks_combination(question) is combined
    if combined:  # a total, not a difference, and not each value on its own
        assert not asks_difference(question)
        assert not asks_each(question)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "A glassblowing studio turns out 14 lamp shades a day and works 6 days a week. How "
            "many shades does it make in a week, and if they're packed 4 to a crate, how many "
            "crates does a week's output fill?",
            2,
        ),
        (
            "奶酪窖里有1260个奶酪轮，要平均摆到18个架子上。每个架子放几个？如果每个奶酪轮重9公斤，一个架子上的奶酪总共多重？",
            2,
        ),
        ("What is 144 divided by 12, plus 7?", 1),
        ("计算一下北京和西安的气温的总和", 0),
    ],
)
def test_the_parts_a_question_asks_are_counted(question: str, parts: int) -> None:
    assert asked_parts(question) == parts
