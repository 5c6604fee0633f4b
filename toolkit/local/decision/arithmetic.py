"""A question of arithmetic, read as one expression and asked of the tools step by step. Pure.

"我有200元，买了3张电影票，每张45元，剩下的钱平均分给4个朋友，每人能分到多少元？" with
``add``/``subtract``/``multiply``/``divide`` offered: the small model, asked for calls, writes
``subtract(200, 3)`` or explains the steps in prose. Asked for the question as one arithmetic
expression over the question's numbers — what a code model writes well — it writes
``(200 - 3 * 45) / 4``. That expression is the plan: its operations, innermost first, are the
calls, each taking the numbers the question stated and the results of the calls before it
(:func:`steps_due`). The server asks for the expression under a grammar that admits only the
question's numbers (:func:`expression_grammar`), takes it only when it uses every number the
question states (:func:`read_plan`), and asks it again at each step of the turn: the same
question gives the same expression, and the calls made so far say which step is next. A turn
that made other calls than the plan's is left to the model.

Only for requests whose every tool is arithmetic (:func:`arithmetic_tools`): two-number tools
named for an operation (``add``, ``subtract``, ``multiply``, ``divide`` and their synonyms),
or a tool that evaluates an expression (``calculate(expression)``: the whole expression in one
call).
"""

from __future__ import annotations

import ast
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.local.decision.grounding import arguments_of
from toolkit.local.decision.numbers import (
    is_number,
    known_numbers,
    plain_number,
    spelled_numbers,
    stated_times,
    ungrouped,
    written_numbers,
)

__all__ = [
    "EXPRESSION_PROMPTS",
    "Plan",
    "Tools",
    "agreed_plan",
    "agreeing",
    "arithmetic_tools",
    "expression_grammar",
    "parsed_plan",
    "read_plan",
    "steps_due",
]

#: The two instructions the expression is asked for with (the question is the user's
#: message), chosen on the development questions ``tests/test_arithmetic.py`` lists
#: (:func:`agreed_plan` gives the figures).
EXPRESSION_PROMPTS = (
    "You are a careful calculator. Turn the question into one Python arithmetic expression "
    "using only the numbers in the question and + - * /. Reply with the expression only.",
    "You are a careful calculator. Write the question as one Python arithmetic expression "
    "using only the numbers in the question and + - * /, with parentheses so that each step "
    "is done in the order the question describes. Reply with the expression only.",
)

#: The words of a tool's name that say which operation it does.
_OPERATIONS = {
    "+": frozenset({"add", "added", "adding", "plus", "sum", "addition"}),
    "-": frozenset(
        {"subtract", "subtracted", "subtracting", "minus", "difference", "subtraction", "sub"}
    ),
    "*": frozenset(
        {"multiply", "multiplied", "multiplying", "times", "product", "multiplication", "mul"}
    ),
    "/": frozenset({"divide", "divided", "dividing", "quotient", "division", "div"}),
}
#: The names of an expression tool's parameter.
_EXPRESSION_NAMES = frozenset({"expression", "expr", "formula", "equation"})
_AST_OPERATIONS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


@dataclass(frozen=True)
class Tools:
    """The arithmetic tools of a request.

    Attributes:
        operations: Operation (``+ - * /``) -> ``(tool, first parameter, second parameter)``.
        expression: ``(tool, parameter)`` of a tool that evaluates an expression, if any.
        integers: The operation tools that take whole numbers only.
        totals: ``(tool, parameter)`` of a tool that adds up a list of numbers
            (``total(numbers=[12, 19])``), if any.
    """

    operations: dict[str, tuple[str, str, str]]
    expression: tuple[str, str] | None
    integers: frozenset[str] = frozenset()
    totals: tuple[str, str] | None = None

    @property
    def names(self) -> frozenset[str]:
        """The names of every arithmetic tool: operations, expression and totals."""
        found = {tool for tool, _, _ in self.operations.values()}
        found |= {self.expression[0]} if self.expression is not None else set()
        found |= {self.totals[0]} if self.totals is not None else set()
        return frozenset(found)


def _words(name: str) -> set[str]:
    return {w.casefold() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w}


def _numeric(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") in ("number", "integer")


def _numbers(schema: Any) -> bool:
    """Whether a parameter takes a list of numbers (its items' type unsaid, or numeric)."""
    if not isinstance(schema, Mapping) or schema.get("type") != "array":
        return False
    items = schema.get("items")
    return not isinstance(items, Mapping) or not items.get("type") or _numeric(items)


def arithmetic_tools(tools: Sequence[Mapping[str, Any]], *, among: bool = False) -> Tools | None:
    """The request's arithmetic tools, when every tool offered is one.

    A tool does an operation when its name says which (``add``, ``subtract_numbers``,
    ``multiply``, ``divide``…) and it requires exactly two numbers, the first operand first;
    it evaluates an expression when it requires one string named for one (``expression``);
    it adds up a list when its name or description says addition and it requires one array
    of numbers (``total(numbers)``: "Add up a list of numbers").

    Args:
        tools: OpenAI tools.
        among: Take the arithmetic tools among tools of other kinds too (a lookup beside
            ``add``), instead of none when one of another kind is offered.

    Returns:
        The tools, or ``None`` when none is offered or (without ``among``) a tool of another
        kind is.
    """
    operations: dict[str, tuple[str, str, str]] = {}
    expression: tuple[str, str] | None = None
    totals: tuple[str, str] | None = None
    integers: set[str] = set()
    for tool in tools:
        function = tool.get("function") or {}
        name = function.get("name", "")
        parameters = function.get("parameters") or {}
        properties = parameters.get("properties") or {}
        required = list(parameters.get("required") or [])
        if len(required) == 1 and _words(required[0]) & _EXPRESSION_NAMES:
            if (properties.get(required[0]) or {}).get("type") == "string":
                expression = expression or (name, required[0])
                continue
        kinds = _operations_said(name, required, function.get("description") or "")
        if kinds == ["+"] and len(required) == 1 and _numbers(properties.get(required[0])):
            totals = totals or (name, required[0])
            continue
        numeric = [p for p in required if _numeric(properties.get(p))]
        if len(kinds) != 1 or len(required) != 2 or len(numeric) != 2:
            if among:
                continue
            return None
        operations.setdefault(kinds[0], (name, required[0], required[1]))
        if any((properties.get(p) or {}).get("type") == "integer" for p in required):
            integers.add(name)
    if not operations and expression is None and totals is None:
        return None
    return Tools(operations, expression, frozenset(integers), totals)


def _operations_said(name: str, required: Sequence[str], description: str) -> list[str]:
    """The operations a tool's name says, else its parameters' names, each an operand's
    (``minuend`` and ``subtrahend``), else the verb its description opens with ("Subtract
    one number from another." of ``take_away``), else what its description writes or names
    (:func:`_described_operation`: "Return the sum of two numbers, a + b." of ``total``)."""
    said = [op for op, words in _OPERATIONS.items() if _words(name) & words]
    if said:
        return said
    said = [op for op, words in _OPERANDS.items() if all(_words(p) & words for p in required)]
    if said:
        return said
    verb = _OPENING_VERB.match(description.strip())  # "Subtract one number from another."
    if verb:
        return [_VERBS[verb.group(1).casefold()]]
    return _described_operation(description, required)


def _described_operation(description: str, required: Sequence[str]) -> list[str]:
    """The operation a description writes between the two operands ("a + b"), else the one
    operation its first sentence names by its result ("Return the sum of two numbers.",
    ``total(a, b)``); none when it names several or none."""
    if len(required) == 2:
        first, second = (re.escape(p) for p in required)
        written = re.search(rf"\b{first}\s*([-+*/×÷])\s*{second}\b", description)
        if written:
            return [{"×": "*", "÷": "/"}.get(written.group(1), written.group(1))]
    sentence = re.split(r"(?<=[.!?])\s", description.strip(), maxsplit=1)[0]
    named = [op for op, said in _RESULTS.items() if said.search(sentence)]
    words = {w.casefold() for w in re.findall(r"[A-Za-z]+", sentence)}
    if len([op for op, nouns in _RESULT_NOUNS.items() if words & nouns]) > 1:
        return []  # "the sum and the difference of two numbers": no one operation
    return named if len(named) == 1 else []


#: How a description names an operation's result, in its first sentence ("Return the sum of
#: two numbers", "a minus b"); not its verbs, which a formula's description uses too ("mass
#: divided by volume" of a density), nor a noun alone ("the price of a product").
_RESULT_NOUNS = {
    "+": frozenset({"sum", "plus"}),
    "-": frozenset({"difference", "minus"}),
    "*": frozenset({"product"}),
    "/": frozenset({"quotient"}),
}
_RESULTS = {
    "+": re.compile(r"\bsum of\b|\bplus\b", re.IGNORECASE),
    "-": re.compile(r"\bdifference (?:of|between)\b|\bminus\b", re.IGNORECASE),
    "*": re.compile(r"\bproduct of\b", re.IGNORECASE),
    "/": re.compile(r"\bquotient of\b", re.IGNORECASE),
}


#: The operation a description opens with, as a verb ("Subtract …", "Multiplies …").
_VERBS = {
    "add": "+",
    "adds": "+",
    "subtract": "-",
    "subtracts": "-",
    "multiply": "*",
    "multiplies": "*",
    "divide": "/",
    "divides": "/",
}
_OPENING_VERB = re.compile(rf"({'|'.join(_VERBS)})\b", re.IGNORECASE)
#: The names of each operation's operands.
_OPERANDS = {
    "+": frozenset({"addend", "augend", "summand"}),
    "-": frozenset({"minuend", "subtrahend"}),
    "*": frozenset({"multiplicand", "multiplier", "factor"}),
    "/": frozenset({"dividend", "divisor", "numerator", "denominator"}),
}


def _spellings(question: str) -> list[str]:
    """The question's numbers as an expression writes them ("1,250" as 1250, "5%" as 5 and
    0.05, "halve" as 2, "four friends" as 4), each once; "2,340" is no 2 and 340."""
    folded = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", question.casefold())
    numbers = sorted(known_numbers(folded) | spelled_numbers(folded))
    return [json.dumps(plain_number(n)) for n in numbers if n >= 0]


def expression_grammar(question: str) -> str | None:
    """A GBNF grammar of arithmetic expressions over the question's numbers only.

    Args:
        question: The user's question.

    Returns:
        The grammar, or ``None`` when the question states fewer than two numbers.
    """
    numbers = _spellings(question)
    if len(numbers) < 2:
        return None
    alternatives = " | ".join(json.dumps(n) for n in sorted(numbers, key=len, reverse=True))
    return "\n".join(
        [
            'root ::= expr "\\n"?',
            "expr ::= term (sp op sp term)*",
            'term ::= number | "(" sp expr sp ")"',
            'op ::= "+" | "-" | "*" | "/"',
            'sp ::= " "?',
            f"number ::= {alternatives}",
        ]
    )


@dataclass(frozen=True)
class Step:
    """One operation of a plan: its operation and operands (a number, or the index of an
    earlier step whose result it takes)."""

    operation: str
    left: float | int | Step
    right: float | int | Step


@dataclass(frozen=True)
class Plan:
    """An expression read as steps, innermost first; the last is the answer's.

    Attributes:
        expression: The expression as written.
        steps: The operations, each after the steps whose results it takes.
        value: What the expression comes to.
    """

    expression: str
    steps: tuple[Step, ...]
    value: float


def _read(node: ast.AST, steps: list[Step]) -> float | int | Step:
    if isinstance(node, ast.Constant) and is_number(node.value):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):  # "(-5)": a number
        if isinstance(node.operand, ast.Constant) and is_number(node.operand.value):
            return -node.operand.value
    if isinstance(node, ast.BinOp) and type(node.op) in _AST_OPERATIONS:
        left, right = _read(node.left, steps), _read(node.right, steps)
        step = Step(_AST_OPERATIONS[type(node.op)], left, right)
        steps.append(step)
        return step
    raise ValueError("not an expression of numbers and + - * /")


def parsed_plan(expression: str) -> Plan | None:
    """An expression of numbers and ``+ - * /`` as a plan, operations in Python's order.

    Args:
        expression: The expression (a negative number written ``(-5)``).

    Returns:
        The plan; ``None`` when the expression is no such expression, has no operation, or
        divides by zero.
    """
    steps: list[Step] = []
    try:
        _read(ast.parse(expression.strip(), mode="eval").body, steps)
    except (SyntaxError, ValueError, RecursionError):
        return None
    value = _value(steps[-1]) if steps else None
    return None if value is None else Plan(expression.strip(), tuple(steps), value)


def read_plan(expression: str, question: str) -> Plan | None:
    """The expression as a plan, when it is one the question asks for — or, written with a
    factor common to two products taken out (:func:`factored_out`: "(45 * 3) + (45 * 5)" is
    "(3 + 5) * 45" for "45 litres an hour, 3 hours in the morning and 5 in the
    afternoon"), that plan.

    Args:
        expression: What the model wrote.
        question: The user's question.

    Returns:
        The plan; ``None`` when the expression cannot be read, has no operation, leaves out a
        number the question writes in digits or uses one more often than it does (the model
        misread the question, or it asks for something else), or — when the question is a
        chain of steps ("then", "the result", "然后", "再") — does not take each step's result
        in the next step.
    """
    plan = _as_plan(expression, question)
    if plan is None and not _told_in_steps(question):
        factored = factored_out(expression)
        plan = _as_plan(factored, question) if factored is not None else None
    return plan


def factored_out(expression: str) -> str | None:
    """The expression with each factor two added or subtracted products share taken out
    ("(45 * 3) + (45 * 5)" → "(3 + 5) * 45"): one quantity at two rates uses its number once,
    as the question states it.

    Args:
        expression: An expression of numbers and ``+ - * /``.

    Returns:
        The expression written so, or ``None`` when it cannot be read or has no such factor.
    """
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    factored = _factor(tree)
    return ast.unparse(factored) if factored is not tree else None


def _factor(node: ast.AST) -> ast.AST:
    """The node with common factors of added products taken out, inside first."""
    if not isinstance(node, ast.BinOp):
        return node
    left, right = _factor(node.left), _factor(node.right)
    if isinstance(node.op, (ast.Add, ast.Sub)):
        for shared, (a, b) in _shared_factors(left, right):
            return ast.BinOp(ast.BinOp(a, node.op, b), ast.Mult(), shared)
    if left is node.left and right is node.right:
        return node
    return ast.BinOp(left, node.op, right)


def _shared_factors(left: ast.AST, right: ast.AST) -> list[tuple[ast.AST, tuple[ast.AST, ast.AST]]]:
    """The number two products both multiply by, with what each multiplies it by."""
    products = []
    for side in (left, right):
        if not (isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mult)):
            return []
        products.append(side)
    found = []
    for one, other_one in (
        (products[0].left, products[0].right),
        (products[0].right, products[0].left),
    ):
        for two, other_two in (
            (products[1].left, products[1].right),
            (products[1].right, products[1].left),
        ):
            if _same_number(one, two):
                found.append((one, (other_one, other_two)))
    return found[:1]


def _same_number(a: ast.AST, b: ast.AST) -> bool:
    return (
        isinstance(a, ast.Constant)
        and isinstance(b, ast.Constant)
        and is_number(a.value)
        and is_number(b.value)
        and a.value == b.value
    )


def _as_plan(expression: str, question: str) -> Plan | None:
    """The expression as a plan, when it is one the question asks for (:func:`read_plan`)."""
    step_by_step = _told_in_steps(question)
    steps: list[Step] = []
    try:
        if step_by_step:  # told in order: read in order ("58 * 7 - 146 / 13" is (58*7-146)/13)
            _read_in_order(_tokens(expression), steps)
        else:
            _read(ast.parse(expression.strip(), mode="eval").body, steps)
        numbers = [float(n) for n in _tokens(expression) if n[0].isdigit()]
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not steps:
        return None
    text = ungrouped(question)
    stated = {float(n) for n in written_numbers(text) if not n.startswith("-")}
    if any(n not in numbers and round(n / 100, 12) not in numbers for n in stated):
        return None  # "5%" may be used as 5 or as 0.05
    if any(numbers.count(n) > max(1, stated_times(n, text)) for n in set(numbers)):
        return None  # "24 muffins a day for six days" is no 24 * 24
    if step_by_step and not _chained(steps):
        return None  # "(a + b) * (c + d)" is no chain of steps
    value = _value(steps[-1])
    if value is None:
        return None
    return Plan(expression.strip(), tuple(steps), value)


#: Words that make a question a chain of steps, each on the result of the one before.
_STEP_BY_STEP = re.compile(
    r"\b(?:then|the result|that result|to that|from that|after that|finally|next|the sum"
    r"|the product|the difference|the quotient|what you get|what remains)\b"
    r"|然后|再|最后|之后|接着|结果|所得|把和|把差|把积|把商",
    re.IGNORECASE,
)
#: Chinese words that name an operation: a chain of steps tells them ("把结果除以 4"); a
#: story's "之后" or "再" without them is time, not a step ("之后 15 天每天又送来 46 公斤").
_ZH_OPERATIONS = re.compile(r"加|减|乘|除|一半|平方|翻倍|[两三四五六七八九十]倍|百分")


def _told_in_steps(question: str) -> bool:
    """Whether a question is a chain of steps (:data:`_STEP_BY_STEP`): in English by its words
    alone ("and then a neighbour gives him 30 more"), in Chinese when it also names its
    operations (:data:`_ZH_OPERATIONS`)."""
    cue = _STEP_BY_STEP.search(question)
    if cue is None:
        return False
    return cue.group().isascii() or _ZH_OPERATIONS.search(question) is not None


#: A number, an operation or a parenthesis of an expression.
_TOKEN = re.compile(r"\s*(\d+(?:\.\d+)?|[-+*/()])")


def _tokens(expression: str) -> list[str]:
    """The expression's numbers, operations and parentheses (``SyntaxError`` for anything
    else)."""
    tokens: list[str] = []
    at = 0
    while at < len(expression.rstrip()):
        match = _TOKEN.match(expression, at)
        if match is None:
            raise SyntaxError(f"not an arithmetic expression: {expression!r}")
        tokens.append(match.group(1))
        at = match.end()
    return tokens


def _read_in_order(tokens: list[str], steps: list[Step]) -> float | int | Step:
    """The expression read left to right, operations in the order written (parentheses
    kept): the order a step-by-step question tells them in."""

    def term(at: int) -> tuple[float | int | Step, int]:
        if at >= len(tokens):
            raise SyntaxError("the expression ends too soon")
        if tokens[at] == "(":
            value, at = expression(at + 1)
            if at >= len(tokens) or tokens[at] != ")":
                raise SyntaxError("a parenthesis is not closed")
            return value, at + 1
        if not tokens[at][0].isdigit():
            raise SyntaxError(f"a number was expected, not {tokens[at]!r}")
        return _number(tokens[at]), at + 1

    def expression(at: int) -> tuple[float | int | Step, int]:
        left, at = term(at)
        while at < len(tokens) and tokens[at] in _OPERATION_SIGNS:
            right, after = term(at + 1)
            left = Step(tokens[at], left, right)
            steps.append(left)
            at = after
        return left, at

    value, at = expression(0)
    if at != len(tokens):
        raise SyntaxError("the expression goes on after its end")
    return value


_OPERATION_SIGNS = frozenset("+-*/")


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _chained(steps: Sequence[Step]) -> bool:
    """Whether each step takes the result of the step before it and one number."""
    return all(
        (a is before and not isinstance(b, Step)) or (b is before and not isinstance(a, Step))
        for before, step in itertools.pairwise(steps)
        for a, b in [(step.left, step.right)]
    )


def _value(step: float | int | Step) -> float | None:
    """What a step comes to (``None`` for a division by zero)."""
    if not isinstance(step, Step):
        return float(step)
    left, right = _value(step.left), _value(step.right)
    if left is None or right is None or (step.operation == "/" and right == 0):
        return None
    if step.operation == "+":
        return left + right
    if step.operation == "-":
        return left - right
    return left * right if step.operation == "*" else left / right


def agreed_plan(expressions: Sequence[str], question: str) -> Plan | None:
    """The plan the readings of the question make: the first expression that is a plan of it
    (:func:`read_plan`), when every other one that is a plan comes to the same value.

    On the development questions ``tests/test_arithmetic.py`` lists, the first instruction
    alone read 11 of 18 right and 4 wrong; followed this way (step-by-step questions read in
    order), 12 right and 1 wrong, the other 5 left to the model's own calls: the wrong
    reading of two that disagree leaves out a number, uses one twice, or takes a step out
    of a step-by-step question's order, and is no plan.

    Args:
        expressions: The expressions the model wrote for the question, one per instruction.
        question: The user's question.

    Returns:
        The plan, or ``None``.
    """
    return agreeing([p for p in (read_plan(e, question) for e in expressions) if p is not None])


def agreeing(readings: Sequence[Plan]) -> Plan | None:
    """The first of the plans, when every other comes to the same value.

    Args:
        readings: The plans the readings made.

    Returns:
        The plan, or ``None`` when there is none or two disagree.
    """
    if not readings:
        return None
    first = readings[0].value
    if any(abs(plan.value - first) > 1e-9 * max(1.0, abs(first)) for plan in readings):
        return None
    return readings[0]


def _result_number(text: str | None) -> float | None:
    """A result that is one number ("11", "3.3333333333"), else ``None``."""
    if text is None or not re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", text):
        return None
    return float(text)


def _same(a: Any, b: Any) -> bool:
    return is_number(a) and is_number(b) and abs(float(a) - float(b)) <= 1e-9 * max(1, abs(b))


def steps_due(
    plan: Plan,
    tools: Tools,
    made: Sequence[Mapping[str, Any]],
    results: Sequence[str | None],
) -> list[tuple[str, dict[str, Any]]] | None:
    """The calls the plan asks for next.

    Args:
        plan: The plan.
        tools: The request's arithmetic tools.
        made: The calls this turn made (OpenAI tool calls), in order.
        results: Each call's result text (``None`` when it has none).

    Returns:
        ``(tool, arguments)`` of every step whose operands are known and that no call made
        yet — ``[]`` once the last step's result is there; ``None`` when the plan cannot be
        followed: a call made is none of its steps, a step's result is not a number, an
        operation has no tool, or its tool takes whole numbers and an operand is none.
    """
    if tools.expression is not None:
        tool, parameter = tools.expression
        if not made:
            return [(tool, {parameter: plan.expression})]
        return [] if len(made) == 1 and made[0]["function"]["name"] == tool else None
    if "+" not in tools.operations and tools.totals is not None:
        if all(step.operation == "+" for step in plan.steps):
            return _total_due(plan, tools.totals, made)
    values: dict[int, float] = {}  # id(step) -> its result
    matched: set[int] = set()
    due: list[tuple[str, dict[str, Any]]] = []

    def operand(value: float | int | Step) -> float | int | None:
        if isinstance(value, Step):
            found = values.get(id(value))
            return None if found is None else plain_number(found)
        return value

    for step in plan.steps:
        listed = step.operation == "+" and "+" not in tools.operations and bool(tools.totals)
        if not listed and step.operation not in tools.operations:
            return None
        left, right = operand(step.left), operand(step.right)
        if left is None or right is None:
            continue
        if listed:  # one addition, as a list of two
            tool, parameter = tools.totals
            arguments: dict[str, Any] = {parameter: [left, right]}
            index = _made_total(made, tool, parameter, [left, right], matched)
        else:
            tool, first, second = tools.operations[step.operation]
            if tool in tools.integers and not all(float(n).is_integer() for n in (left, right)):
                return None  # a tool of whole numbers cannot take this step
            arguments = {first: left, second: right}
            index = next(
                (
                    i
                    for i, call in enumerate(made)
                    if i not in matched
                    and call["function"]["name"] == tool
                    and _same(arguments_of(call).get(first), left)
                    and _same(arguments_of(call).get(second), right)
                ),
                None,
            )
        if index is None:
            due.append((tool, arguments))
            continue
        result = _result_number(results[index] if index < len(results) else None)
        if result is None:
            return None
        matched.add(index)
        values[id(step)] = result
    if len(matched) != len(made):
        return None  # the turn made calls the plan does not ask for
    return due


def _made_total(
    made: Sequence[Mapping[str, Any]],
    tool: str,
    listed: str,
    numbers: Sequence[float | int],
    matched: set[int],
) -> int | None:
    """The index of a call of the totals tool not matched yet that took ``numbers`` (in any
    order), or ``None``."""
    wanted = sorted(float(n) for n in numbers)
    for index, call in enumerate(made):
        taken = arguments_of(call).get(listed)
        if index in matched or call["function"]["name"] != tool or not isinstance(taken, list):
            continue
        try:
            if sorted(float(n) for n in taken) == wanted:
                return index
        except (TypeError, ValueError):
            continue
    return None


def _total_due(
    plan: Plan, totals: tuple[str, str], made: Sequence[Mapping[str, Any]]
) -> list[tuple[str, dict[str, Any]]] | None:
    """A plan of additions alone, as one call of the tool that adds up a list: due until it is
    made, then ``[]``; ``None`` when the turn made other calls."""
    tool, listed = totals
    numbers = _addends(plan.steps[-1])
    if not made:
        return [(tool, {listed: numbers})]
    if len(made) == 1 and _made_total(made, tool, listed, numbers, set()) == 0:
        return []
    return None


def _addends(step: Step | float | int) -> list[float | int]:
    """The numbers a sum adds, in order."""
    if isinstance(step, Step):
        return [*_addends(step.left), *_addends(step.right)]
    return [step]
