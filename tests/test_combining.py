"""Looked-up values combined by the arithmetic tools (decision.combining): what the expression
over a turn's lookups may use, the grammar that holds it to that, and the calls it makes.

The development conversations the instructions were chosen on are the dev set's tasks that
look values up and then combine them (``toolkit eval agent dev``) and
:data:`DEVELOPMENT_LOOKUPS`; the model's readings of them are measured, not tested here.
"""

from __future__ import annotations

import json

import pytest
from helpers import typed_tool
from test_grammar import GrammarEngine, engine  # noqa: F401  (the grammar sampler fixture)

from toolkit.local.decision.arithmetic import arithmetic_tools, steps_due
from toolkit.local.decision.asking import asks_combination, asks_difference, asks_each
from toolkit.local.decision.combining import (
    agreed_combination,
    arithmetic_calls,
    asked_in_place,
    asks_average,
    asks_sum_only,
    combining_text,
    is_arithmetic,
    looked_up,
    once_grammar,
    read_combination,
)

#: Conversations (question, lookup results, answer) the instruction was chosen on, besides
#: the dev set's and a studied held-out set's: 7 of 9 read right and 2 wrong (the swimming
#: lanes read as the pools' lengths; the rice's price paired with the potatoes' weight).
DEVELOPMENT_LOOKUPS = [
    ("How many seats do Orion Cinema, Starlight Theatre and Galaxy Plaza Cinema have "
     "altogether?", ["Orion Cinema: 412 seats in 3 screens", "Starlight Theatre: 287 seats in "
     "2 screens", "Galaxy Plaza Cinema: 635 seats in 5 screens"], 1334),
    ("蓝湾游泳馆、清泉游泳池和东湖游泳中心一共有多少条泳道？", ["Clear Spring Pool (清泉游泳池): "
     "25 m long, 6 lanes", "East Lake Swim Center (东湖游泳中心): 50 m long, 12 lanes",
     "Blue Bay Natatorium (蓝湾游泳馆): 50 m long, 8 lanes"], 26),
    ("我今天要在东门停车场、中心广场停车场和南湖停车场各停一小时，停车费一共多少元？",
     ["东门停车场：每小时8元，营业时间 06:30–23:00", "中心广场停车场：每小时12元，24小时营业",
      "南湖停车场：每小时6元，营业时间 07:00–21:30"], 26),
    ("计算一下北京和西安的气温的总和", ["北京: 6 摄氏度", "西安: 5 摄氏度"], 11),
    ("I want to rent a bike for 3 hours at Mill Street Station. How much will it cost?",
     ["Mill Street Station: $4.50 per hour, deposit $20"], 13.5),
    ("What is the average temperature of Beijing, Shanghai and Guangzhou?", ["北京 (Beijing): "
     "6 °C, sunny", "上海 (Shanghai): 12 °C, cloudy", "广州 (Guangzhou): 22 °C, light rain"],
     40 / 3),
    ("买5公斤大米和2公斤土豆一共多少钱？", ["大米 (rice): 5 元/公斤",
     "土豆 (potato): 4 元/公斤"], 33),
    ("How much colder is Harbin than Guangzhou right now?", ["哈尔滨 (Harbin): -12 °C, snow",
     "广州 (Guangzhou): 22 °C, light rain"], 34),
    ("两个仓库一共有多少箱货？平均分给4家门店，每家多少箱？", ["一号仓库: 库存 138 箱",
     "二号仓库: 库存 214 箱"], 88),
]  # fmt: skip


_tool = typed_tool


LOOKUP = _tool("lookup", name="string")
CALCULATE = _tool("calculate", expression="string")
ADD, DIVIDE = _tool("add", x="number", y="number"), _tool("divide", a="number", b="number")


def _call(name: str, arguments: dict, at: int) -> dict:
    function = {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}
    return {"id": f"c{at}", "type": "function", "function": function}


def _conversation(question: str, results: list[str], *, arguments: list[dict] | None = None):
    arguments = arguments or [{"name": r.split(":")[0]} for r in results]
    calls = [_call("lookup", a, i) for i, a in enumerate(arguments)]
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *({"role": "tool", "tool_call_id": f"c{i}", "content": r} for i, r in enumerate(results)),
    ]


AVERAGE = _conversation(*DEVELOPMENT_LOOKUPS[5][:2])
SEATS = _conversation(*DEVELOPMENT_LOOKUPS[0][:2])


def test_arithmetic_tools_are_found_among_lookups():
    assert arithmetic_tools([LOOKUP, CALCULATE]) is None  # not every tool is arithmetic
    tools = arithmetic_tools([LOOKUP, CALCULATE, ADD], among=True)
    assert tools is not None and tools.expression == ("calculate", "expression")
    assert tools.operations == {"+": ("add", "x", "y")}
    assert arithmetic_tools([LOOKUP], among=True) is None
    inflected = [
        _tool("divided_by", first="number", second="number"),
        _tool("multiplied_by", a="number", b="number"),
    ]
    assert set(arithmetic_tools(inflected).operations) == {"/", "*"}
    assert is_arithmetic(_call("add", {}, 0), tools)
    assert not is_arithmetic(_call("lookup", {}, 0), tools)


def test_each_result_is_a_source_and_the_count_only_for_an_average():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    average = looked_up(AVERAGE, tools)
    assert average is not None
    assert average.sources[-1] == (frozenset({3.0}), 1)  # three values averaged
    assert [s for s, _ in average.sources[:3]] == [{6.0}, {12.0}, {22.0}]
    assert average.required == (0, 1, 2)
    seats = looked_up(SEATS, tools)
    assert seats is not None and 3.0 not in seats.values[-1:]
    # one value of each result: the seats the question names ("412 seats in 3 screens")
    assert seats.sources[0] == (frozenset({412.0}), 1)
    assert "Question: How many seats" in combining_text(seats)
    assert 'lookup(name="Orion Cinema") = Orion Cinema: 412 seats in 3 screens' in (
        combining_text(seats)
    )


def test_question_numbers_the_lookups_took_are_not_required():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    messages = _conversation(
        "How many tickets did Hall A and Hall B sell in 2024, shared among 4 clubs?",
        ["Hall A: 1380 tickets", "Hall B: 2140 tickets"],
        arguments=[{"name": "Hall A", "year": 2024}, {"name": "Hall B", "year": 2024}],
    )
    lookups = looked_up(messages, tools)
    assert lookups is not None
    required = [lookups.sources[at][0] for at in lookups.required]
    assert {4.0} in required and {2024.0} not in required
    assert read_combination("(1380 + 2140) / 4", lookups).value == 880
    assert read_combination("1380 + 2140", lookups) is None  # the 4 clubs left out


def test_the_lookups_are_read_in_the_order_the_question_names_them():
    # B was called first; "A比B深多少米？" subtracts B from A
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    messages = _conversation(
        "格兰顿采石场比费尔伍德采石场深多少米？",
        ["Fairwood Quarry: 52 m deep", "Grandon Quarry: 96 m deep"],
        arguments=[{"name": "费尔伍德采石场"}, {"name": "格兰顿采石场"}],
    )
    lookups = looked_up(messages, tools)
    assert lookups is not None
    assert [s for s, _ in lookups.sources] == [{96.0}, {52.0}]
    assert lookups.results[0].endswith("Grandon Quarry: 96 m deep")


def test_a_percentage_may_be_used_either_way():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    messages = _conversation("What is the Red Lamp's price with 20% off?", ["Red Lamp: 45 yuan"])
    lookups = looked_up(messages, tools)
    assert lookups is not None
    assert read_combination("45 * (1 - 0.2)", lookups) is None  # 1 is no number stated
    assert read_combination("45 - 45 * 0.2", lookups) is None  # the price used twice
    assert read_combination("45 * 0.2", lookups).value == 9
    assert read_combination("45 * 20 / 100", lookups) is None


def test_no_lookups_to_combine():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    failed = _conversation("Sum of A and B?", ["A: 5", "Error: not found: B"])
    assert looked_up(failed, tools) is None  # an error: the plan would rest on a guess
    wordy = _conversation("Are A and B open?", ["A: open", "B: closed"])
    assert looked_up(wordy, tools) is None  # no number to combine
    assert looked_up(AVERAGE[:2], tools) is None  # the lookups have not answered
    refused = _conversation("A and B?", ["not found: A and B. Known: A, B"])
    refused[1]["tool_calls"][0]["function"]["arguments"] = '{"name": "A and B"}'
    asked_again = _conversation("A and B?", ["A: 22", "B: 25"])
    retried = [*refused, *asked_again[1:]]
    for message in retried[3:]:  # new ids for the second step
        for call in message.get("tool_calls") or []:
            call["id"] = "d" + call["id"]
        if message["role"] == "tool":
            message["tool_call_id"] = "d" + message["tool_call_id"]
    lookups = looked_up(retried, tools)
    assert lookups is not None and len(lookups.results) == 2  # the refusal was asked again
    # a value refused by one tool and answered by another (the caves asked as bridges)
    wrong = _conversation(
        "A and B?", ["not found: A", "not found: B"], arguments=[{"name": "A"}, {"name": "B"}]
    )
    for call in wrong[1]["tool_calls"]:
        call["function"]["name"] = "get_bridge"
    rerouted = [*wrong, *asked_again[1:]]
    for message in rerouted[4:]:
        for call in message.get("tool_calls") or []:
            call["id"] = "d" + call["id"]
        if message["role"] == "tool":
            message["tool_call_id"] = "d" + message["tool_call_id"]
    lookups = looked_up(rerouted, tools)
    assert lookups is not None and len(lookups.results) == 2
    assert looked_up(wrong, tools) is None  # nothing answered yet


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(6 + 12 + 22) / 3", 40 / 3),
        ("6+12+22", 40),
        ("(6 + 12 + 22) / 22", None),  # a value used twice
        ("6 + 12", None),  # a result left out
        ("(6 + 12 + 22) * 5", None),  # a number nobody stated
        ("6 + (-12) + 22", None),  # a sign the result did not have
    ],
)
def test_the_grammar_and_the_reading_agree(engine, expression, value):  # noqa: F811
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    lookups = looked_up(AVERAGE, tools)
    grammar = once_grammar(lookups)
    assert grammar is not None
    plan = read_combination(expression, lookups)
    assert (plan is None) == (value is None)
    assert plan is None or plan.value == pytest.approx(value)
    assert engine.accepts(grammar, expression) == (value is not None)


def test_a_sum_may_not_use_the_count_nor_a_results_other_numbers(engine):  # noqa: F811
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    lookups = looked_up(SEATS, tools)
    grammar = once_grammar(lookups)
    assert engine.accepts(grammar, "412 + 287 + 635")
    assert not engine.accepts(grammar, "(412 + 287 + 635) * 5")  # 5 screens: the same result
    assert not engine.accepts(grammar, "(412 + 287 + 635) / 3")  # no average asked
    negative = looked_up(_conversation(*DEVELOPMENT_LOOKUPS[7][:2]), tools)
    assert engine.accepts(once_grammar(negative), "22 - (-12)")


def test_a_total_asked_alone_is_planned_with_additions_only(engine):  # noqa: F811
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    lookups = looked_up(SEATS, tools)
    grammar = once_grammar(lookups, sum_only=True)
    assert engine.accepts(grammar, "412 + 287 + 635")
    assert not engine.accepts(grammar, "412 * 287 + 635")
    assert asks_sum_only("How many people work at Orrin Kiln and Corwen Pits put together?")
    assert asks_sum_only("这三家窑一共有多少名工人？")  # 三家 counts the things asked about
    for question in (
        "What is the total cost of 3 nights at each inn?",  # a number of its own, "each"
        "三天一共要花多少钱？",
        "What is the average depth of the two mines?",
        "Which has more staff, and how many more?",
    ):
        assert not asks_sum_only(question), question


def test_readings_must_agree():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    lookups = looked_up(AVERAGE, tools)
    assert agreed_combination(["(6 + 12 + 22) / 3", "(6+12+22)/3"], lookups).value == 40 / 3
    assert agreed_combination(["(6 + 12 + 22) / 3", "6 + 12 + 22"], lookups) is None
    assert agreed_combination(["6 + 12", "(6 + 12 + 22) / 3"], lookups).value == 40 / 3


def test_the_plan_is_followed_with_operation_tools_after_the_lookups():
    tools = arithmetic_tools([LOOKUP, ADD, DIVIDE], among=True)
    lookups = looked_up(AVERAGE, tools)
    plan = read_combination("(6 + 12 + 22) / 3", lookups)
    made, results = arithmetic_calls(AVERAGE, tools)
    assert made == [] and results == []
    assert steps_due(plan, tools, made, results) == [("add", {"x": 6, "y": 12})]
    messages = [
        *AVERAGE,
        {"role": "assistant", "content": "", "tool_calls": [_call("add", {"x": 6, "y": 12}, 9)]},
        {"role": "tool", "tool_call_id": "c9", "content": "18"},
    ]
    assert looked_up(messages, tools) == lookups  # the plan is read over the lookups alone
    made, results = arithmetic_calls(messages, tools)
    assert [c["function"]["name"] for c in made] == ["add"] and results == ["18"]
    assert steps_due(plan, tools, made, results) == [("add", {"x": 18, "y": 22})]


def test_a_tool_of_whole_numbers_takes_no_step_with_decimals():
    whole = _tool("add", x="integer", y="integer")
    tools = arithmetic_tools([LOOKUP, whole], among=True)
    assert tools is not None and tools.integers == {"add"}
    messages = _conversation("A and B together?", ["A: 21.9 million", "B: 24.9 million"])
    lookups = looked_up(messages, tools)
    plan = read_combination("21.9 + 24.9", lookups)
    assert steps_due(plan, tools, [], []) is None  # add(21.9, 24.9) would fail its schema
    plan = read_combination(
        "22 + 25", looked_up(_conversation("A and B?", ["A: 22", "B: 25"]), tools)
    )
    assert steps_due(plan, tools, [], []) == [("add", {"x": 22, "y": 25})]


def test_a_record_gives_the_number_under_the_label_the_question_names():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    records = ['{"图书馆": "柳湖图书馆", "藏书": 48213, "会员": 5210}',
               '{"图书馆": "翠鸟图书馆", "藏书": 52904, "会员": 6377}']  # fmt: skip
    messages = _conversation(
        "柳湖图书馆和翠鸟图书馆一共有多少名会员？",
        records,
        arguments=[{"name": "柳湖图书馆"}, {"name": "翠鸟图书馆"}],
    )
    lookups = looked_up(messages, tools)
    assert [set(s) for s, _ in lookups.sources[-2:]] == [{5210.0}, {6377.0}]
    assert read_combination("48213 + 52904", lookups) is None  # the books, not the members
    seats = ["A: 412 seats in 3 screens", "B: 287 seats in 2 screens"]
    unnamed = looked_up(_conversation("Seats in A and B?", seats), tools)
    # one part, each number labelled by the words after it: the seats, not the screens
    assert set(unnamed.sources[-1][0]) == {287.0}


def test_a_record_number_with_thousands_separators_is_read_whole():
    # "2,400" in a record is one number; read as "2" and "400", the sum took 400 + 150.
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    records = [
        "Copperkettle Brewery: founded 1851, output 2,400 litres per day, staff 31",
        "Blackwater Brewery: founded 1907, output 3,150 litres per day, staff 44",
    ]
    question = "How many litres a day do Copperkettle and Blackwater turn out together?"
    lookups = looked_up(_conversation(question, records), tools)
    assert [set(s) for s, _ in lookups.sources[-2:]] == [{2400.0}, {3150.0}]
    assert read_combination("2400 + 3150", lookups) is not None
    assert read_combination("400 + 150", lookups) is None


def test_an_average_is_asked_in_either_language():
    assert asks_average(AVERAGE)
    assert asks_average([{"role": "user", "content": "三个仓库平均每个有多少箱？"}])
    assert not asks_average(SEATS)


def test_a_question_asks_for_its_values_combined_by_its_words() -> None:
    for question in (
        "How many kilograms of honey is that in total?",
        "How many years older is Anna than Ben?",
        "What is the sum of the two prices?",
        "What is the mean of their depths?",
        "黑水船闸的落差比芬尼克船闸大多少米？",
        "三座盐矿的平均深度是多少米？",
        "两段船一共要坐多少分钟？",
        "东塔比西塔的海拔高出多少米？",
        "How many degrees Celsius warmer is Shenzhen than Harbin?",
        # the difference asked after the order: "more staff, and by how many?", "多出几个？"
        "Which mill has more looms, and by how many?",
        "东磨坊和西磨坊哪个织机更多？多出几台？",
        "哪个船闸更深？深出多少米？",
    ):
        assert asks_combination(question), question
    for question in (
        "蓟绒养蜂场和蕨岭养蜂场各有多少个蜂箱？",
        "Which is deeper, Lake Tahoe or Crater Lake?",
        "哪一座的年产盐量更高？",
        "公司总部在哪里？",
        "How much does the Wrenfield honey cost?",
        "What does the warning on the Wrenfield label mean?",
        "磨坊至少多少台织机？",
        "这座塔身高多少米？",
    ):
        assert not asks_combination(question), question


def test_a_question_asks_for_each_value_on_its_own() -> None:
    assert asks_each("蓟绒养蜂场、金盏谷养蜂场和蕨岭养蜂场各有多少个蜂箱？")
    assert asks_each("两座电台的功率分别是多少？")
    assert asks_each("How deep is each of the three mines?")
    assert not asks_each("If they split the total evenly, how much does each pay?")
    assert not asks_each("各种水果的总价是多少？")  # a total, of every kind
    assert not asks_each("How deep are the three mines?")


_LOCKS = [
    "Kestle Lock: built 1794, rise of 2.4 m, 38 boats per day",
    "Orrin Lock: built 1812, rise of 3.1 m, 52 boats per day",
    "Brackwater Lock: built 1788, rise of 1.7 m, 27 boats per day",
]


def test_a_records_years_are_no_quantity_to_combine_unless_the_question_asks_of_dates():
    tools = arithmetic_tools([LOOKUP, ADD], among=True)
    total = looked_up(_conversation("三座船闸一共怎么样？", _LOCKS[:2]), tools)
    assert total is not None
    assert [s for s, _ in total.sources] == [{2.4, 38.0}, {3.1, 52.0}]  # 1794, 1812 left out
    dated = looked_up(_conversation("两座船闸的建造年份相差多少年？", _LOCKS[:2]), tools)
    assert dated is not None and 1794.0 in dated.sources[0][0]
    # a rate per year is no date
    rated = ["Ash Hall: 1500 visitors per year, 12 rooms", "Elm Hall: 1800 visitors per year"]
    kept = looked_up(_conversation("Both halls together?", rated), tools)
    assert kept is not None and 1500.0 in kept.sources[0][0]


def test_the_label_of_the_models_chosen_numbers_picks_each_records_number():
    tools = arithmetic_tools([LOOKUP, ADD], among=True)
    messages = _conversation("三座船闸每天一共通过多少艘船？", _LOCKS)
    plain = looked_up(messages, tools)
    assert plain is not None and plain.sources[2][0] == {1.7, 27.0}
    hinted = looked_up(messages, tools, hinted={38.0, 52.0})  # add(38, 52): boats per day
    assert hinted is not None
    assert [s for s, _ in hinted.sources] == [{38.0}, {52.0}, {27.0}]
    # numbers under two labels, or under none, choose no label
    mixed = looked_up(messages, tools, hinted={38.0, 3.1})
    assert mixed is not None and mixed.sources[0][0] == {2.4, 38.0}
    assert looked_up(messages, tools, hinted={7.0}).sources[0][0] == {2.4, 38.0}


def test_a_question_names_a_label_in_its_plural_and_a_chinese_reading_is_asked_lazily():
    tools = arithmetic_tools([LOOKUP, ADD], among=True)
    tanneries = [
        "Harrowby Tannery: founded 1871, 14 workers, 320 hides per week",
        "Marlwick Tannery: founded 1903, 22 workers, 275 hides per week",
    ]
    question = "What is the combined weekly hide output of Harrowby Tannery and Marlwick Tannery?"
    lookups = looked_up(_conversation(question, tanneries), tools)
    assert lookups is not None and [s for s, _ in lookups.sources] == [{320.0}, {275.0}]
    asked: list[str] = []

    def reading() -> str:
        asked.append("read")
        return "How many workers do the two tanneries have in total?"

    zh = looked_up(_conversation("两家制革厂一共有多少？", tanneries), tools, reading)
    assert zh is not None and [s for s, _ in zh.sources] == [{14.0}, {22.0}]
    assert asked  # read: the Chinese words named no label
    asked.clear()
    assert looked_up(_conversation(question, tanneries), tools, reading) is not None
    assert not asked  # the question's own words chose: no reading


def test_a_records_field_the_model_picks_comes_before_the_reading():
    tools = arithmetic_tools([LOOKUP, ADD], among=True)
    messages = _conversation("三座船闸每天一共通过多少艘船？", _LOCKS)
    asked: list[str] = []

    def reading() -> str:
        asked.append("read")
        return "How many keepers do the locks have?"

    def picked(record: str) -> str | None:  # the model's pick: boats per day
        return {"Kestle": "38", "Orrin": "52"}.get(record.split()[0])

    lookups = looked_up(messages, tools, reading, picked=picked)
    assert lookups is not None
    # the first two records by the pick; the third, with none picked, by the reading
    assert [s for s, _ in lookups.sources][:2] == [{38.0}, {52.0}]
    assert asked == ["read"]
    # a pick that is no number of the record leaves its numbers as they were
    stray = looked_up(messages, tools, picked=lambda record: "999")
    assert stray is not None and stray.sources[2][0] == {1.7, 27.0}


def test_a_comparison_asks_by_how_much_its_values_differ() -> None:
    for question in (
        "Which ropewalk has more spinners, and by how many?",
        "彭穆尔绳索厂和卡文绳索厂哪家工人更多？多出几个人？",
        "How many more ropes does Penmoor make than Corran?",
        "Which ropewalk spins more rope a week? And how big is the gap?",
        # "average" names the field compared, not a mean asked for
        "哪家的绳子平均卖得更贵？贵多少？",
        "Which ropewalk's average rope is longer, and by how much?",
    ):
        assert asks_difference(question), question
    for question in (
        "How many spinners do the two ropewalks have in total?",
        "两家绳索厂一共有多少名工人？",
        "Which ropewalk has more spinners?",
        "What is the average length of the two ropewalks?",
    ):
        assert not asks_difference(question), question


def test_a_refusal_of_no_thing_the_question_names_is_left_out():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    question = "How many tortoises are at Marlowe Shell Haven and Quillon Dune Sanctuary?"
    results = ["Marlowe: 142 tortoises", "Quillon: 213 tortoises", "No sanctuary called 'both'."]
    names = [{"name": "Marlowe Shell Haven"}, {"name": "Quillon Dune Sanctuary"}, {"name": "both"}]
    messages = _conversation(question, results, arguments=names)
    lookups = looked_up(messages, tools)
    assert lookups is not None and len(lookups.results) == 2  # "both" names nothing
    assert looked_up(messages, tools, misread_aside=False) is None
    # a piece of an answered name, refused, is the same thing asked again
    pieces = [{"name": "布拉克韦尔"}, {"name": "芬尼莫尔"}, {"name": "布拉克韦尔蔓越莓"}]
    bogs = ["布拉克韦尔: 312 t", "芬尼莫尔: 198 t", "ERROR | unknown bog | 布拉克韦尔蔓越莓"]
    lookups = looked_up(
        _conversation("布拉克韦尔和芬尼莫尔一共多少吨？", bogs, arguments=pieces), tools
    )
    assert lookups is not None and len(lookups.results) == 2
    # a thing the question names, refused, keeps the plan from resting on a guess
    named = [{"name": "Marlowe Shell Haven"}, {"name": "Quillon Dune Sanctuary"}]
    refused = _conversation(question, [results[0], "No sanctuary called Quillon."], arguments=named)
    assert looked_up(refused, tools) is None


def test_a_refused_thing_of_the_names_before_it_is_left_out():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    question = "奎伦钟表坊和邓马罗钟表所手上积压的待修钟表，加起来一共有多少件？"
    names = [{"name": "奎伦钟表坊"}, {"name": "邓马罗钟表所"}, {"name": "待修钟表"}]
    results = [
        "奎伦钟表坊: 46 clocks waiting",
        "邓马罗钟表所: 71 clocks waiting",
        "error: no 待修钟表",
    ]
    lookups = looked_up(_conversation(question, results, arguments=names), tools)
    assert lookups is not None and len(lookups.results) == 2
    # a name after the others, but no thing of theirs (no 的 before it): the plan waits
    listed = "奎伦钟表坊、邓马罗钟表所和待修钟表一共有多少件？"
    assert looked_up(_conversation(listed, results, arguments=names), tools) is None


def test_a_name_refused_by_one_tool_and_answered_by_another_in_the_step_is_left_out():
    tools = arithmetic_tools([LOOKUP, CALCULATE], among=True)
    question = "How many people work at Cindermoss Roasters and Tumbleford Cart put together?"
    results = [
        "Cindermoss Roasters: staff 9",
        "Tumbleford Cart: staff 4",
        "error: no roastery matches 'Tumbleford Cart'",
        "There is no cart named 'Cindermoss Roasters'.",
    ]
    names = [
        {"name": "Cindermoss Roasters"},
        {"name": "Tumbleford Cart"},
        {"name": "Tumbleford Cart"},
        {"name": "Cindermoss Roasters"},
    ]
    messages = _conversation(question, results, arguments=names)
    messages[1]["tool_calls"][1]["function"]["name"] = "cart_lookup"
    messages[1]["tool_calls"][3]["function"]["name"] = "cart_lookup"
    lookups = looked_up(messages, tools)
    assert lookups is not None and len(lookups.results) == 2


def test_each_on_its_own_in_chinese():
    assert asks_each("阿什格罗夫调音行和德拉库尔服务社，各自负责多少座教堂？")


def test_an_arithmetic_calls_numbers_move_to_the_ones_their_records_give():
    tools = arithmetic_tools([LOOKUP, ADD], among=True)
    messages = _conversation(
        "If the whole staff of Ashcombe Foundry and everyone working at Hollowmere Cellars "
        "sat down to one dinner, how many people would be at the table?",
        [
            "Name: Ashcombe Foundry\nfounded: 1884\nstaff: 27\npipes cast per year: 1150",
            "Name: Hollowmere Cellars\nfounded: 1911\nstaff: 12\nyield per week: 640 kg",
        ],
        arguments=[{"name": "Ashcombe Foundry"}, {"name": "Hollowmere Cellars"}],
    )
    lookups = looked_up(messages, tools)
    assert lookups is not None
    assert asked_in_place({"x": 1884, "y": 1911}, lookups) == {"x": 27, "y": 12}
    assert asked_in_place({"x": 1884, "y": 12}, lookups) == {"x": 27, "y": 12}
    assert asked_in_place({"x": 27, "y": 12}, lookups) is None  # the asked ones already
    assert asked_in_place({"x": 27, "y": 99}, lookups) is None  # a number of no record
