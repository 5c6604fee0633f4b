"""Looked-up values combined by the arithmetic tools, as the model's expression says. Pure.

"What is the average temperature of Beijing, Shanghai and Guangzhou?" with ``get_weather`` and
``calculate``: the small model looks the three cities up (6, 12 and 22 °C), then writes
``calculate("(6 + 12) * 22")`` — each number it may write is one the conversation stated, but
it writes on after the sum, with a number it already used. Asked for the question as one
arithmetic expression over the numbers of the question and of the results, under a grammar
that lets each number be used no more often than it was stated (:func:`once_grammar`), that
takes at least one number from every result and every number the question states for the
arithmetic, and that admits the count of the values only when the question asks for an
average, it writes ``(6 + 12 + 22) / 3``. That expression is the plan, followed as the
expressions of :mod:`toolkit.local.decision.arithmetic` are (``steps_due``).

Only after this turn's lookups have answered, each with a number and none with an error
(:func:`looked_up`), and when arithmetic tools are offered beside them. The plan is read when
the model chooses an arithmetic call, and also when it would answer in text while the question
asks for a total, an average, a difference or a ratio
(:func:`~toolkit.local.decision.asking.asks_combination`: the small model answers "how many
kilograms is that in total?" with the first lookup's value); a question that asks for each
value on its own (:func:`~toolkit.local.decision.asking.asks_each`) gets no sum the model
chose.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.local.decision.arithmetic import Plan, Tools, agreeing, parsed_plan
from toolkit.local.decision.asking import asks_difference, asks_unordered_difference
from toolkit.local.decision.grounding import arguments_of, text_values
from toolkit.local.decision.numbers import (
    is_number,
    known_numbers,
    numbers_of,
    plain_number,
    result_numbers,
    stated_times,
    ungrouped,
    written_numbers,
)
from toolkit.local.decision.phrases import without_names
from toolkit.local.decision.prompt import call_label
from toolkit.local.decision.records import (
    RATE_WORDS,
    YEAR,
    asked_number,
    headcount_words,
    label_words,
    labelled_numbers,
    name_words,
    record_fields,
    record_labels,
    stem,
)
from toolkit.local.decision.retries import misread_name
from toolkit.local.decision.turn import is_error, last_question, turn_calls, turn_start

__all__ = [
    "COMBINING_PROMPTS",
    "Lookups",
    "agreed_combination",
    "arithmetic_calls",
    "asked_in_place",
    "asks_average",
    "asks_sum_only",
    "combining_text",
    "is_arithmetic",
    "larger_first",
    "looked_up",
    "once_grammar",
    "read_combination",
    "years_apart",
]

#: The instructions the expression is asked for with (the question and the results are the
#: user's message, :func:`combining_text`). One reading: under :func:`once_grammar`, a second
#: instruction ("Turn the question into one Python arithmetic expression using only the
#: numbers in the question and in the results…") agreed with it on all the development
#: conversations but one, where this one was right ("(284716 / 12)" against
#: "12 * 284716"); one reading takes half the time.
COMBINING_PROMPTS = (
    "You are a careful calculator. The results below were looked up to answer the question. "
    "Write one Python arithmetic expression over their numbers and the question's, with "
    "+ - * / and parentheses, whose value answers the question. Reply with the expression "
    "only.",
)

#: A question that asks for an average: the count of the looked-up values is then a number
#: the expression may use.
_AVERAGE = re.compile(r"\b(?:average|mean)\b|平均|均值", re.IGNORECASE)
#: Label words of a number that dates a thing (unless the label is a rate's,
#: :data:`~toolkit.local.decision.records.RATE_WORDS`: "visitors per year").
_DATING = frozenset(
    {*"founded built opened established since year born dated started launched".split(), "建", "年"}
)
#: A question about dates or ages: a record's years are then values to combine.
_ASKS_DATES = re.compile(
    r"(?<![a-z])(?:years?|old|older|oldest|age|ages|founded|built|opened|established|when|"
    r"since|dates?)(?![a-z])|年|岁|建|成立|开业|开馆",
    re.IGNORECASE,
)
#: The most states a grammar may have (the numbers' use counts, multiplied, times four).
_MOST_STATES = 4096


@dataclass(frozen=True)
class Lookups:
    """This turn's lookups and the numbers an expression over them may use.

    The numbers come from sources, each used no more often than its budget: a number of the
    question as often as the question states it; one number of each result (its value asked
    for, not the others it states beside it: "412 seats in 3 screens"; the one under the
    label the question names, when it names one); the count of the results, once, when the
    question asks for an average.

    Attributes:
        question: The user's question.
        results: Each lookup as ``call = result``.
        sources: Each source's numbers and budget.
        required: The sources the expression must use: every result, and every number the
            question states for the arithmetic (one the lookups did not take).
    """

    question: str
    results: tuple[str, ...]
    sources: tuple[tuple[frozenset[float], int], ...]
    required: tuple[int, ...]

    def charged(self, value: float, used: Sequence[int]) -> int | None:
        """The source a use of ``value`` is charged to, given each source's uses so far:
        the first that holds it and has budget left (``None``: none has)."""
        for at, (values, budget) in enumerate(self.sources):
            if value in values and used[at] < budget:
                return at
        return None

    @property
    def values(self) -> list[float]:
        """Every number the expression may use, each once, in order."""
        return list(dict.fromkeys(v for values, _ in self.sources for v in sorted(values)))


def is_arithmetic(call: Mapping[str, Any], tools: Tools) -> bool:
    """Whether a call is of one of the arithmetic tools.

    Args:
        call: An OpenAI tool call.
        tools: The request's arithmetic tools.

    Returns:
        True for a call of an operation, expression or totals tool.
    """
    return (call.get("function") or {}).get("name") in tools.names


def arithmetic_calls(
    messages: Sequence[Mapping[str, Any]], tools: Tools
) -> tuple[list[dict[str, Any]], list[str | None]]:
    """This turn's calls of the arithmetic tools and the result text of each.

    Args:
        messages: OpenAI messages.
        tools: The request's arithmetic tools.

    Returns:
        The calls (in order) and their results (``None`` when one has none).
    """
    calls, results = turn_calls(messages)
    kept = [i for i, call in enumerate(calls) if is_arithmetic(call, tools)]
    return [calls[i] for i in kept], [results[i] for i in kept]


def _answered_later(lookups: Sequence[tuple[Mapping[str, Any], str | None, int]], at: int) -> bool:
    """Whether a call of the same tool as the lookup ``at`` was answered in a later step, or
    a call of another tool with the same text values in any step (the value asked of the tool
    that knows it: each of two names asked of both tools at once)."""
    tool, step = lookups[at][0]["function"]["name"], lookups[at][2]
    texts = text_values(lookups[at][0])
    return any(
        i != at
        and answer is not None
        and not is_error(answer)
        and (
            (call["function"]["name"] == tool and later > step)
            or (bool(texts) and text_values(call) == texts)
        )
        for i, (call, answer, later) in enumerate(lookups)
    )


def _misread(
    lookups: Sequence[tuple[Mapping[str, Any], str | None, int]], at: int, question: str
) -> bool:
    """Whether the refused lookup ``at`` asked of no thing the question names, beside a call of
    its tool that got an answer (:func:`~toolkit.local.decision.retries.misread_name`)."""
    tool = lookups[at][0]["function"]["name"]
    answered = [
        value
        for call, answer, _ in lookups
        if call["function"]["name"] == tool and answer is not None and not is_error(answer)
        for value in text_values(call)
    ]
    return any(misread_name(v, answered, question) for v in text_values(lookups[at][0]))


def _named_at(question: str, call: Mapping[str, Any]) -> int:
    """Where the question names the thing a call asked about (its first text value the
    question holds, case aside); after the question's end when it names none."""
    folded = question.casefold()
    found = [folded.find(v.strip().casefold()) for v in text_values(call) if v.strip()]
    return min((at for at in found if at >= 0), default=len(question))


def _question_sources(
    question: str, passed: set[float]
) -> tuple[list[tuple[frozenset[float], int]], list[int]]:
    """The question's numbers as sources (each as often as it is stated; a percentage as
    either spelling, "5%" as 5 or 0.05), and which of them the expression must use: those
    written in digits that no lookup took ("4 supermarkets", not the year a lookup was
    asked about)."""
    sources: list[tuple[frozenset[float], int]] = []
    required: list[int] = []
    told = known_numbers(question.casefold())
    plain = ungrouped(question)
    digits = {abs(float(n)) for n in written_numbers(plain)}
    percents = {v for v in digits if re.search(rf"(?<![\d.]){v:g}\s*%", plain)}
    fractions = {round(v / 100, 12) for v in percents} - digits
    for value in sorted(n for n in told if n >= 0 and n not in fractions):
        if value in digits and value not in passed:
            required.append(len(sources))
        spelled = {value, round(value / 100, 12)} if value in percents else {value}
        sources.append((frozenset(spelled), max(1, stated_times(value, question))))
    return sources, required


def asked_in_place(arguments: Mapping[str, Any], lookups: Lookups) -> dict[str, Any] | None:
    """An arithmetic call's numbers moved to the ones their records give the arithmetic:
    each number that one record states, where that record gives another (the one under the
    label the question names: :func:`looked_up`), replaced by it. Asked "If the whole staff
    of A and everyone working at B sat down to one dinner, how many people would be at the
    table?", the small model wrote ``add(1884, 1911)``, the records' founding years; their
    staff were 27 and 12.

    Args:
        arguments: The call's arguments.
        lookups: The turn's lookups.

    Returns:
        The arguments with the numbers moved; ``None`` when none moved, or a number of the
        call is stated by no record or several, or its record gives no one number.
    """
    records = [result.partition(" = ")[2] for result in lookups.results]
    stated = [{float(n.replace(",", "")) for _, n in record_fields(r)} for r in records]
    given = [
        [next(iter(values)) for values, _ in lookups.sources if len(values) == 1 and values <= own]
        for own in stated
    ]
    moved, changed = dict(arguments), False
    for key, value in arguments.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        holders = [i for i, own in enumerate(stated) if float(value) in own]
        if len(holders) != 1 or len(given[holders[0]]) != 1:
            return None
        asked = given[holders[0]][0]
        if asked != float(value):
            moved[key], changed = plain_number(asked), True
    return moved if changed else None


def looked_up(
    messages: Sequence[Mapping[str, Any]],
    tools: Tools,
    reading: Callable[[], str] | None = None,
    hinted: Collection[float] = (),
    picked: Callable[[str], str | None] | None = None,
    *,
    misread_aside: bool = True,
) -> Lookups | None:
    """This turn's lookups (its calls of tools that are not arithmetic) and the numbers an
    expression over them may use.

    Args:
        messages: OpenAI messages.
        tools: The request's arithmetic tools.
        reading: The question as the records' labels can be read against (its English
            reading, for a question in Chinese over English records), asked for only when
            the question's own words name no one label of a record of several numbers.
        hinted: The numbers of the arithmetic calls the model chose or the turn made: when
            those the records state stand under one label, each record of several numbers
            gives the number under it (:func:`_hinted_label`).
        picked: Gives the number under the label the model picks as the field of a question
            in another language (:mod:`~toolkit.local.decision.fields`), asked for before
            the reading.
        misread_aside: Leave out a refused lookup that asked of no thing the question names
            (:attr:`~toolkit.local.decision.policy.ToolPolicy.misread_lookups_aside`).

    Returns:
        The lookups; ``None`` when the turn made none, one has no result yet or an error
        (other than a refusal its tool answered when asked again), or none states a number.
    """
    question = last_question(messages)
    calls, answers = turn_calls(messages)
    steps = [
        step
        for step, message in enumerate(messages[turn_start(messages) + 1 :])
        for _ in message.get("tool_calls") or []
    ]
    stepped = [
        (call, answer, step)
        for call, answer, step in zip(calls, answers, steps, strict=True)
        if not is_arithmetic(call, tools)
    ]
    lookups = [  # a refusal the tool answered when asked again (a list one part at a time)
        (call, answer)
        for i, (call, answer, _) in enumerate(stepped)
        if not (answer is not None and is_error(answer) and _answered_later(stepped, i))
        and not (
            misread_aside
            and answer is not None
            and is_error(answer)
            and _misread(stepped, i, question)
        )
    ]
    if not question or not lookups:
        return None
    if any(answer is None or is_error(answer) for _, answer in lookups):
        return None
    # In the question's order: "A比B深多少米？" reads A's result first, whichever was called first.
    lookups.sort(key=lambda lookup: _named_at(question, lookup[0]))
    passed = {n for call, _ in lookups for n in numbers_of(arguments_of(call))}
    sources, required = _question_sources(question, passed)
    stating = 0
    arguments = [arguments_of(call) for call, _ in lookups]
    named = _asked_words(question, arguments)
    dated = _ASKS_DATES.search(question) is not None
    candidates = []
    naming = {w for call, _ in lookups for w in name_words(call["function"]["name"])}
    names = [v for call, _ in lookups for v in text_values(call)]
    unnamed = without_names(question, names)  # "Island" of "Island Ferry" is no label's word
    for _, answer in lookups:
        numbers = _asked_numbers(answer or "", named)
        said = asked_number(answer or "", unnamed, naming) if len(numbers) > 1 else None
        if said is not None and float(said) in numbers:  # the one label the words say most
            numbers = frozenset({float(said)})
        if len(numbers) > 1 and picked is not None and (number := picked(answer or "")):
            numbers = (frozenset({float(number)}) & numbers) or numbers
        if len(numbers) > 1 and reading is not None and (read := reading()) != question:
            numbers = _asked_numbers(answer or "", named | _asked_words(read, arguments))
        if len(numbers) > 1 and not dated:  # a year is a date, no quantity to add up
            numbers = (numbers - _dates(answer or "")) or numbers
        candidates.append(numbers)
    records = [_record_labels(answer or "") for _, answer in lookups]
    label = _hinted_label(hinted, candidates, records)
    for numbers, record in zip(candidates, records, strict=True):
        if label is not None and len(numbers) > 1:
            numbers = frozenset(n for key, n in record if key == label and n in numbers) or numbers
        if numbers:
            stating += 1
            required.append(len(sources))
            sources.append((numbers, 1))
    if not stating:
        return None
    if _AVERAGE.search(question) and stating >= 2:
        sources.append((frozenset({float(stating)}), 1))
    results = tuple(
        f"{call_label(call['function']['name'], arguments_of(call))} = {(answer or '').strip()}"
        for call, answer in lookups
    )
    return Lookups(question, results, tuple(sources), tuple(required))


def _record_labels(result: str) -> list[tuple[frozenset[str], float]]:
    """Each number of a result, as a number, with the stems of its label's words
    (:func:`~toolkit.local.decision.records.record_labels`)."""
    return [(label, float(n)) for label, n in record_labels(result)]


def _dates(result: str) -> frozenset[float]:
    """The years a record dates its thing by: whole numbers 1000–2100 under a label that says
    so ("founded 1871", "built 1794", "建于1794年"), not a rate ("per year")."""
    return frozenset(
        n
        for key, n in _record_labels(result)
        if key & _DATING and not key & RATE_WORDS and n.is_integer() and 1000 <= n <= 2100
    )


def _hinted_label(
    hinted: Collection[float],
    candidates: Sequence[frozenset[float]],
    records: Sequence[list[tuple[frozenset[str], float]]],
) -> frozenset[str] | None:
    """The one label the model's chosen numbers stand under in the records (``add(38, 27)``
    over three canal locks' records: "boats per day"); ``None`` when they stand under none or
    under several."""
    keys = {
        key
        for numbers, record in zip(candidates, records, strict=True)
        for key, n in record
        if n in hinted and n in numbers and key
    }
    return next(iter(keys)) if len(keys) == 1 else None


def _asked_words(question: str, arguments: Sequence[Mapping[str, Any]]) -> set[str]:
    """The words of the question that may name a result's label: its words of four letters or
    more and its Chinese characters, less those of the values the lookups were asked about
    ("柳湖图书馆" names no label)."""
    given = {stem(w) for w in label_words(" ".join(str(v) for a in arguments for v in a.values()))}
    words = {stem(w) for w in label_words(question) if len(w) >= 4 or not w.isascii()}
    return (words | headcount_words(question)) - given  # "how many people work": the staff


def _asked_numbers(result: str, named: set[str]) -> frozenset[float]:
    """The numbers of a result the expression may take: those under the label the question
    names most (``{"藏书": 48213, "会员": 5210}`` asked "一共有多少名会员" gives 5210), or every
    number it states when no label is named more than the others."""
    numbers = frozenset(float(n) for n in result_numbers(result))
    scored = [
        (len({stem(w) for w in words} & named), float(n)) for words, n in labelled_numbers(result)
    ]
    best = max((score for score, _ in scored), default=0)
    chosen = {n for score, n in scored if score == best}
    if best and len(chosen) == 1 and chosen <= numbers:
        return frozenset(chosen)
    return numbers


def asks_average(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the last question asks for an average (a sum of the values is not its answer).

    Args:
        messages: OpenAI messages.

    Returns:
        True for "average", "mean", "平均", "均值".
    """
    return _AVERAGE.search(last_question(messages)) is not None


def combining_text(lookups: Lookups) -> str:
    """The user's message the expression is asked for with: the question and the results.

    Args:
        lookups: This turn's lookups.

    Returns:
        The text.
    """
    return f"Question: {lookups.question}\n\nResults:\n" + "\n".join(lookups.results)


def _spelling(value: float) -> str:
    text = str(int(value)) if value.is_integer() else repr(value)
    return f"(-{text.lstrip('-')})" if value < 0 else text


def _accepting(used: Sequence[int], required: Sequence[int]) -> bool:
    return all(used[at] for at in required)


def once_grammar(lookups: Lookups, *, sum_only: bool = False) -> str | None:
    """A GBNF grammar of the expressions over the lookups: each source's numbers no more
    often than its budget, parentheses one deep, ending only once every required source has
    been used.

    Its states are the uses of each source so far, whether a parenthesis is open and whether
    a number or an operation comes next; states from which no end can be reached are left
    out.

    Args:
        lookups: This turn's lookups.
        sum_only: Addition is the only operation (the question asks for a total and nothing
            else: :func:`asks_sum_only`).

    Returns:
        The grammar; ``None`` when it would have more than :data:`_MOST_STATES` states or
        admits no expression.
    """
    size = 4
    for _, budget in lookups.sources:
        size *= budget + 1
    if size > _MOST_STATES:
        return None
    values = lookups.values
    start = ((0,) * len(lookups.sources), 0, "term")
    moves: dict[tuple, list[tuple[str, tuple | None]]] = {}
    pending = [start]
    while pending:
        state = pending.pop()
        if state in moves:
            continue
        used, depth, next_is = state
        found: list[tuple[str, tuple | None]] = []
        usable = [v for v in values if lookups.charged(v, used) is not None]
        if next_is == "term":
            for value in usable:
                at = lookups.charged(value, used)
                more = tuple(n + (i == at) for i, n in enumerate(used))
                found.append((json.dumps(_spelling(value)), (more, depth, "op")))
            if depth == 0:
                found.append(('"("', (used, 1, "term")))
        else:
            if usable:
                found.append(("op", (used, depth, "term")))
            if depth == 1:
                found.append(('")"', (used, 0, "op")))
            elif _accepting(used, lookups.required):
                found.append(('"\\n"?', None))
        moves[state] = found
        pending += [target for _, target in found if target is not None]
    live = {s for s, found in moves.items() if any(t is None for _, t in found)}
    while True:
        grown = live | {s for s, found in moves.items() if any(t in live for _, t in found)}
        if grown == live:
            break
        live = grown
    if start not in live:
        return None
    names = {state: f"s{i}" for i, state in enumerate(sorted(live, key=str))}
    rules = [f"root ::= {names[start]}"]
    for state, name in names.items():
        alternatives = [
            text if target is None else f"{text} {names[target]}"
            for text, target in moves[state]
            if target is None or target in live
        ]
        rules.append(f"{name} ::= {' | '.join(alternatives)}")
    operations = '"+"' if sum_only else '("+" | "-" | "*" | "/")'
    rules += [f"op ::= sp {operations} sp", 'sp ::= " "?']
    return "\n".join(rules)


def asks_sum_only(question: str) -> bool:
    """Whether a question asks for its looked-up values added up and for nothing else: it
    says a total ("put together", "一共") and states no number of its own, no rate, average,
    ratio or difference ("How many people work at A and B put together?": ``12 + 7``, never
    ``12 * 7``).

    Args:
        question: The user's question.

    Returns:
        True when the only operation its plan may use is addition.
    """
    if _SUM.search(question) is None or re.search(r"\d", question):
        return False
    counted = _THINGS_COUNTED.sub("", question)  # "这三家酒坊": the things looked up, counted
    return _NOT_ONLY_SUM.search(counted) is None and not asks_difference(question)


#: A question's words for a total.
_SUM = re.compile(
    r"(?<![a-z])(?:totals?|in all|altogether|all together|combined|put together|together|sum|"
    r"add(?:s|ed)? up)(?![a-z])|一共|总共|总计|加起来|加在一起|合计|共计|之和",
    re.IGNORECASE,
)
#: A Chinese count of the things a question names ("这三家", "两座").
_THINGS_COUNTED = re.compile(r"[这那]?[两二三四五六七八九十]+[家座所间个位条处艘]")
#: A question's words that ask for more than a sum: an average, a rate, a ratio, a product.
_NOT_ONLY_SUM = re.compile(
    r"(?<![a-z])(?:average|mean|each|per|every|times|ratio|twice|double|triple|half|percent|"
    r"multipl\w*|divid\w*|share)(?![a-z])|平均|均值|每|倍|比例|百分|一半|乘|除|[二两三四五六七八九十百千万]",
    re.IGNORECASE,
)


def _constants(node: ast.AST) -> list[float]:
    if isinstance(node, ast.Constant) and is_number(node.value):
        return [float(node.value)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return [-float(node.operand.value)]
    return [n for child in ast.iter_child_nodes(node) for n in _constants(child)]


def read_combination(expression: str, lookups: Lookups) -> Plan | None:
    """The expression as a plan over the lookups, when it is one :func:`once_grammar` admits.

    Args:
        expression: What the model wrote.
        lookups: This turn's lookups.

    Returns:
        The plan; ``None`` when the expression cannot be read, has no operation, uses a
        number no source has budget left for, or leaves a required source unused.
    """
    plan = parsed_plan(expression)
    if plan is None:
        return None
    used = [0] * len(lookups.sources)
    for number in _constants(ast.parse(expression.strip(), mode="eval")):
        at = lookups.charged(number, used)
        if at is None:
            return None
        used[at] += 1
    return plan if _accepting(used, lookups.required) else None


def agreed_combination(expressions: Sequence[str], lookups: Lookups) -> Plan | None:
    """The plan the readings make: the first that is a plan (:func:`read_combination`), when
    every other one that is a plan comes to the same value.

    Args:
        expressions: The expressions the model wrote, one per instruction.
        lookups: This turn's lookups.

    Returns:
        The plan, or ``None``.
    """
    return agreeing([p for p in (read_combination(e, lookups) for e in expressions) if p])


def years_apart(plan: Plan) -> Plan:
    """A plan that adds two years, written as the later less the earlier: two years added
    are no quantity ("1905 + 2025" for how many years a railway opened in 1905 will have been
    open in 2025). Any other plan is as it was.

    Args:
        plan: The plan the readings agreed on.

    Returns:
        The plan, a sum of two years made their difference.
    """
    if len(plan.steps) != 1 or plan.steps[0].operation != "+":
        return plan
    step = plan.steps[0]
    operands = [step.left, step.right]
    if not all(isinstance(n, int | float) and YEAR.fullmatch(f"{n:g}") for n in operands):
        return plan
    later, earlier = max(operands), min(operands)
    apart = parsed_plan(f"{later:g} - {earlier:g}")
    return plan if apart is None else apart


def larger_first(plan: Plan, question: str) -> Plan:
    """A plan of one subtraction written the larger less the smaller, when the question asks
    a difference in no order
    (:func:`~toolkit.local.decision.asking.asks_unordered_difference`: "how many years apart
    were they built?"). The small model wrote ``1861 - 1879`` and answered "-18 years
    apart". Any other plan is as it was.

    Args:
        plan: The plan the readings agreed on.
        question: The user's question.

    Returns:
        The plan, its operands swapped when they should be.
    """
    if len(plan.steps) != 1 or plan.steps[0].operation != "-" or plan.value >= 0:
        return plan
    if not asks_unordered_difference(question):
        return plan
    step = plan.steps[0]
    swapped = parsed_plan(f"{step.right} - {step.left}")
    return plan if swapped is None else swapped
