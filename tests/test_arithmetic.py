"""A question of arithmetic read as one expression and asked of the tools step by step
(decision.arithmetic).

The development questions the two instructions of ``EXPRESSION_PROMPTS`` were chosen on are
:data:`DEVELOPMENT_QUESTIONS`; the model's readings of them are measured, not tested here
(they need the model): 11 right and 4 wrong with the first instruction alone, 9 right and 1
wrong when both instructions must agree.
"""

from __future__ import annotations

import json

import pytest
from helpers import typed_tool

from toolkit.local.decision.arithmetic import (
    agreed_plan,
    arithmetic_tools,
    expression_grammar,
    read_plan,
    steps_due,
)

#: The questions (and answers) the instructions were chosen on.
DEVELOPMENT_QUESTIONS = [
    ("我有200元，买了3张电影票，每张45元，剩下的钱平均分给4个朋友，每人能分到多少元？", 16.25),
    ("A community garden has 12 rows of 18 tulips. 41 of the tulips wilted and were removed. "
     "The remaining tulips are shared equally among 7 vases. How many tulips go into each "
     "vase?", 25),
    ("一个社团上个月收入1250元，这个月收入375元，两个月的收入合起来平均分给5个小组，"
     "每个小组分到多少元？", 325),
    ("Use the calculator tools to compute (17 × 23) − 48.", 343),
    ("Add 17 and 25, then multiply the result by 3.", 126),
    ("先计算 48 减去 19，再把结果乘以 4。", 116),
    ("What is (12 + 30) * 5 - 10?", 200),
    ("一个班有 23 个男生和 19 个女生，每人发 3 支笔，一共要多少支笔？", 126),
    ("帮我算一下：128 加 76，然后把结果除以 4，等于多少？", 51),
    ("Take 36 times 7, subtract 58 from that, and then halve the result.", 97),
    ("I had 120 dollars, spent 35, then doubled what was left. How much do I have?", 170),
    ("72 先减掉 15，再变成原来的三倍，是多少？", 171),
    ("先取 250 的一半，加上 37，之后再乘以 3。", 486),
    ("Divide 144 by 12, add 7 to that, then multiply the result by 3.", 57),
    ("A bakery sells 24 muffins a day for six days and 30 on Sunday. How many muffins in a "
     "week?", 174),
    ("小明有 50 元，买了 2 本书，每本 13 元，还剩多少元？", 24),
    ("Five friends split a bill of 85 dollars and a tip of 15 dollars equally. How much does "
     "each pay?", 20),
    ("一箱苹果有 36 个，买了 4 箱，吃掉 25 个，还剩多少个？", 119),
]  # fmt: skip


_tool = typed_tool


FOUR = [
    _tool("add", x="integer", y="integer"),
    _tool("subtract_numbers", a="number", b="number"),
    _tool("multiply", x="number", y="number"),
    _tool("divide", a="number", b="number"),
]


def _call(name: str, arguments: dict, at: int) -> dict:
    return {"id": f"c{at}", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_the_arithmetic_tools_of_a_request():
    tools = arithmetic_tools(FOUR)
    assert tools is not None
    assert tools.operations == {
        "+": ("add", "x", "y"),
        "-": ("subtract_numbers", "a", "b"),
        "*": ("multiply", "x", "y"),
        "/": ("divide", "a", "b"),
    }
    calculator = arithmetic_tools([_tool("calculate", expression="string")])
    assert calculator is not None and calculator.expression == ("calculate", "expression")
    # one lookup among them, and the request is not one of arithmetic alone
    assert arithmetic_tools([*FOUR, _tool("get_price", item="string")]) is None
    assert arithmetic_tools([_tool("add", x="integer", y="integer", z="integer")]) is None
    assert arithmetic_tools([]) is None
    # a name that says no operation: its operands' names, else the verb its description opens
    take_away = _tool("take_away", minuend="number", subtrahend="number")
    scaled = _tool("scale_by", a="number", b="number")
    scaled["function"]["description"] = "Multiplies one number by another."
    per_share = _tool("payout", shares="integer", dividend_per_share="number")
    per_share["function"]["description"] = "Calculate the total dividend payout."
    found = arithmetic_tools([take_away, scaled, per_share], among=True)
    assert found is not None
    assert found.operations == {
        "-": ("take_away", "minuend", "subtrahend"),
        "*": ("scale_by", "a", "b"),
    }
    # else what the description writes between the operands, or names as the result
    total = _tool("total", a="number", b="number")
    total["function"]["description"] = "Return the sum of two numbers, a + b."
    ratio = _tool("ratio_of", x="number", y="number")
    ratio["function"]["description"] = "Gives x / y for two readings."
    density = _tool("density", mass="number", volume="number")
    density["function"]["description"] = "Density of a body: its mass divided by its volume."
    both = _tool("spread", a="number", b="number")
    both["function"]["description"] = "The sum and the difference of two numbers."
    priced = _tool("price_of", product_id="integer", quantity="integer")
    priced["function"]["description"] = "The price of a product times its quantity."
    found = arithmetic_tools([total, ratio, density, both, priced], among=True)
    assert found is not None
    assert found.operations == {"+": ("total", "a", "b"), "/": ("ratio_of", "x", "y")}


def test_the_expression_grammar_admits_only_the_questions_numbers():
    grammar = expression_grammar("我有200元，买了3张电影票，每张45元，剩下的钱平均分给4个朋友")
    assert grammar is not None
    assert 'number ::= "200" | "45" | "3" | "4"' in grammar
    assert expression_grammar("What is 5 squared?") is None  # one number: nothing to plan
    assert '"1250"' in (expression_grammar("收入1,250元，分给5个小组") or "")
    # and only as one number: its digits either side of the separator are none of its own
    grammar = expression_grammar("3,120 pages, 16 pages to a booklet: how many booklets?")
    assert 'number ::= "3120" | "16"' in (grammar or ""), grammar
    # a number written as a word is an operand too: "four friends" split a bill
    grammar = expression_grammar("Four friends split a bill of $86.60 and a tip of $13.40.")
    assert 'number ::= "13.4" | "86.6" | "4"' in (grammar or ""), grammar


@pytest.mark.parametrize(
    ("expression", "question", "value"),
    [
        ("(200 - 3 * 45) / 4", "我有200元，买了3张票，每张45元，平均分给4个朋友", 16.25),
        ("(17 + 25) * 3", "Add 17 and 25, then multiply the result by 3.", 126),
        ("1250 * 0.05", "5% of 1,250", 62.5),  # a percentage either way
        # one rate for two stretches of time: the rate taken out of the two products
        (
            "(45 * 3) + (45 * 5)",
            "每小时能榨45升，上午开了3个小时，下午又开了5个小时，一共多少升？",
            360,
        ),
        ("12 * 9 - 12 * 2", "12 crates a day for 9 days, less 2 days off", 84),
    ],
)
def test_a_plan_of_the_question(expression, question, value):
    plan = read_plan(expression, question)
    assert plan is not None and plan.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("expression", "question"),
    [
        ("17 + 25", "Add 17 and 25, then multiply the result by 3."),  # leaves out the 3
        ("(24 * 30) + 24 * 24", "24 muffins a day for six days and 30 on Sunday"),  # 24 thrice
        ("17", "Add 17 and 25"),  # no operation
        ("17 / (25 - 25)", "17, 25 and 25"),  # a division by zero
        ("17 +", "Add 17 and 25"),  # not an expression
        ("__import__('os')", "Add 17 and 25"),
    ],
)
def test_what_is_no_plan(expression, question):
    assert read_plan(expression, question) is None


def test_readings_that_are_plans_must_agree():
    question = "Take 36 times 7, subtract 58 from that, and then halve the result."
    both = agreed_plan(["(36 * 7 - 58) / 2", "((36 * 7) - 58) / 2"], question)
    assert both is not None and both.expression == "(36 * 7 - 58) / 2"
    # a reading that is no plan (it breaks the order of the steps) leaves the other
    one = agreed_plan(["(36 * 7) - 58 / 2", "(36 * 7 - 58) / 2"], question)
    assert one is not None and one.value == 97
    spent = "I had 120 dollars, spent 35, then doubled what was left. How much do I have?"
    assert agreed_plan(["120 * 2 - 35", "(120 - 35) * 2"], spent) is None  # 205 or 170
    assert agreed_plan(["", "17 +"], question) is None


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(13.5 * 8 + 27) / 6", 22.5),
        ("13.5 * 8 + 27 / 6", 22.5),  # told in order, read in order
        ("(13.5 * 8) + 27 / 6", 22.5),
        ("6 / (13.5 * 8 + 27)", 6 / 135),  # the result may be either operand
        ("(13.5 * 8) + (27 / 6)", None),  # two chains: no step-by-step reading
        ("13.5 * 8 + 27 /", None),
        ("13.5 * 8 + 27 / 6)", None),
        ("13.5 x 8 + 27 / 6", None),
    ],
)
def test_a_step_by_step_question_is_read_in_the_order_it_is_told(expression, value):
    plan = read_plan(expression, "Multiply 13.5 by 8, add 27, then divide the result by 6.")
    if value is None:
        assert plan is None
    else:
        assert plan is not None and plan.value == pytest.approx(value)


def test_a_question_that_is_no_chain_of_steps_keeps_the_order_of_operations():
    plan = read_plan("23 * 2 + 19 * 3", "23 boys get 2 pens each and 19 girls 3 each")
    assert plan is not None and plan.value == 103
    tickets = read_plan("(200 - 3 * 45) / 4", "我有200元，买了3张票，每张45元，平均分给4个朋友")
    assert tickets is not None and tickets.value == 16.25


def test_the_steps_due_follow_the_calls_made():
    question = "我有200元，买了3张电影票，每张45元，剩下的钱平均分给4个朋友，每人能分到多少元？"
    plan = read_plan("(200 - 3 * 45) / 4", question)
    tools = arithmetic_tools(FOUR)
    assert plan is not None and tools is not None
    assert steps_due(plan, tools, [], []) == [("multiply", {"x": 3, "y": 45})]
    made = [_call("multiply", {"x": 3, "y": 45}, 0)]
    assert steps_due(plan, tools, made, ["135"]) == [("subtract_numbers", {"a": 200, "b": 135})]
    made.append(_call("subtract_numbers", {"a": 200, "b": 135}, 1))
    assert steps_due(plan, tools, made, ["135", "65"]) == [("divide", {"a": 65, "b": 4})]
    made.append(_call("divide", {"a": 65, "b": 4}, 2))
    assert steps_due(plan, tools, made, ["135", "65", "16.25"]) == []
    # a call the plan does not ask for leaves the turn to the model
    assert steps_due(plan, tools, [_call("add", {"x": 3, "y": 45}, 0)], ["48"]) is None
    # a step whose result is no number cannot be followed
    assert steps_due(plan, tools, made[:1], ["Error: too large"]) is None


def test_independent_steps_are_due_together_and_an_expression_tool_takes_the_whole():
    question = "一个班有 23 个男生和 19 个女生，每个男生发 2 支笔，每个女生发 3 支笔"
    plan = read_plan("23 * 2 + 19 * 3", question)
    tools = arithmetic_tools(FOUR)
    assert plan is not None and tools is not None
    assert steps_due(plan, tools, [], []) == [
        ("multiply", {"x": 23, "y": 2}),
        ("multiply", {"x": 19, "y": 3}),
    ]
    calculator = arithmetic_tools([_tool("calculate", expression="string")])
    assert calculator is not None
    assert steps_due(plan, calculator, [], []) == [("calculate", {"expression": "23 * 2 + 19 * 3"})]
    done = [_call("calculate", {"expression": "23 * 2 + 19 * 3"}, 0)]
    assert steps_due(plan, calculator, done, ["103"]) == []


def test_every_development_question_states_the_numbers_a_plan_needs():
    for question, _ in DEVELOPMENT_QUESTIONS:
        grammar = expression_grammar(question)
        assert grammar is not None, question


def _total_tool() -> dict:
    total = _tool("total", numbers="array")
    total["function"]["parameters"]["properties"]["numbers"]["items"] = {"type": "number"}
    total["function"]["description"] = "Add up a list of numbers and return their total."
    return total


def test_a_tool_that_adds_up_a_list_takes_a_sum_in_one_call():
    product = _tool("product", a="number", b="number")
    tools = arithmetic_tools([_total_tool(), product, _tool("get_cave", name="string")], among=True)
    assert tools is not None and tools.totals == ("total", "numbers")
    assert "+" not in tools.operations and tools.names == {"total", "product"}
    # a list of words is no list of numbers
    worded = _tool("total", labels="array")
    worded["function"]["parameters"]["properties"]["labels"]["items"] = {"type": "string"}
    worded["function"]["description"] = "Add up a list of labels."
    assert arithmetic_tools([worded]) is None
    question = "How many performers do the three circuses have between them: 44, 38 and 26?"
    plan = read_plan("44 + 38 + 26", question)
    assert plan is not None
    assert steps_due(plan, tools, [], []) == [("total", {"numbers": [44, 38, 26]})]
    made = [_call("total", {"numbers": [26, 44, 38]}, 0)]
    assert steps_due(plan, tools, made, ["108"]) == []
    assert steps_due(plan, tools, [_call("total", {"numbers": [44, 38]}, 0)], ["82"]) is None


def test_a_sum_inside_a_plan_of_other_steps_is_a_list_of_two():
    tools = arithmetic_tools([_total_tool(), _tool("product", a="number", b="number")])
    assert tools is not None
    plan = read_plan("(23 + 19) * 3", "23 boys and 19 girls get 3 pens each: how many pens?")
    assert plan is not None
    assert steps_due(plan, tools, [], []) == [("total", {"numbers": [23, 19]})]
    made = [_call("total", {"numbers": [19, 23]}, 0)]
    assert steps_due(plan, tools, made, ["42"]) == [("product", {"a": 42, "b": 3})]


def test_a_story_told_in_time_is_read_by_precedence_a_chain_of_operations_in_order() -> None:
    # "之后" and "又" tell the story's time, not a step on a result: 75 + (46 * 15)
    story = (
        "仓库里原本存着75公斤茶叶，之后茶园连续15天每天又送来46公斤，现在仓库里一共有多少公斤茶叶？"
    )
    plan = read_plan("75 + 46 * 15", story)
    assert plan is not None and plan.value == 765
    # a chain that names its operations is read in the order it is told
    chain = "128 加 76，然后把结果除以 4"
    plan = read_plan("128 + 76 / 4", chain)
    assert plan is not None and plan.value == 51
