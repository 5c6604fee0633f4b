"""Questions of arithmetic asked of the tools step by step, as the model's expression says.

:class:`PlanWriter` is mixed into the embedded server's decoder
(:mod:`toolkit.local.decision.decoding`): with only arithmetic tools offered and a question
that states two numbers or more, the model writes the question as one expression under each
of :data:`~toolkit.local.decision.arithmetic.EXPRESSION_PROMPTS` (greedy, under a grammar of
the question's numbers); when the readings agree, the expression's operations are the calls,
innermost first (:func:`~toolkit.local.decision.arithmetic.steps_due`), and once the last
has its result the answer rests on it.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolkit.local.decision.arithmetic import (
    EXPRESSION_PROMPTS,
    Plan,
    Tools,
    agreed_plan,
    arithmetic_tools,
    expression_grammar,
    read_plan,
    steps_due,
)
from toolkit.local.decision.asking import asks_combination, asks_each, says_difference
from toolkit.local.decision.combining import (
    COMBINING_PROMPTS,
    Lookups,
    agreed_combination,
    arithmetic_calls,
    asked_in_place,
    asks_average,
    asks_sum_only,
    combining_text,
    is_arithmetic,
    larger_first,
    looked_up,
    once_grammar,
    years_apart,
)
from toolkit.local.decision.grounding import arguments_of, text_values
from toolkit.local.decision.kinds import lookup_keys, names_a_thing
from toolkit.local.decision.mentions import question_names
from toolkit.local.decision.numbers import (
    known_numbers,
    lone_number,
    numbers_of,
    plain_number,
    written_numbers,
)
from toolkit.local.decision.phrases import asking_sentence, without_names, writes_spaceless
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import READING_INSTRUCTION, READING_REQUEST
from toolkit.local.decision.rates import asked_gap, asked_rate, rated_record
from toolkit.local.decision.records import asked_number, name_words, record_fields
from toolkit.local.decision.scaling import reached_lookups
from toolkit.local.decision.turn import last_question, results_combined, turn_calls
from toolkit.local.decision.units import regrouped
from toolkit.local.format.events import Event, Finished
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.parser import ToolCallStream
from toolkit.local.format.template import render_prompt
from toolkit.wire import content_text

if TYPE_CHECKING:  # plans are read on a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["PlanWriter"]


class PlanWriter:
    """Reads and follows the plan of a question of arithmetic; mixed into the decoder, whose
    state it shares."""

    engine: Engine
    job: ChatJob
    policy: ToolPolicy
    template: str | None
    cancel: threading.Event | None
    used: int
    #: How the answer's result was worked out ("245 * 3 = 735"), once a rate or a reached
    #: record's plan has it; ``None`` otherwise.
    worked: str | None = None

    if TYPE_CHECKING:  # the decoder this is mixed into provides it

        def _finished(self, reason: str, decision: str) -> Finished: ...

        def picked_number(self, record: str) -> str | None: ...

        def _one_record(self) -> bool: ...

        def _leads_on(self) -> bool: ...

    def planned_steps(
        self, chosen: Sequence[Mapping[str, Any]] = ()
    ) -> list[tuple[str, dict[str, Any]]] | None:
        """The calls a question of arithmetic asks for next, read from the expression the
        model writes for it (:mod:`toolkit.local.decision.arithmetic`,
        :attr:`~ToolPolicy.plan_arithmetic`): ``[]`` once its last step has a result,
        ``None`` when the request is no such question or the turn left the plan.

        With tools of other kinds offered beside the arithmetic ones (a lookup the question
        has no use for), the question is one of arithmetic when the model chose an
        arithmetic call for its first step (``chosen``: the calls it wrote, before any of
        the turn), the turn's calls so far are all arithmetic
        (:attr:`~ToolPolicy.plan_among_lookups`), or, before any call, the question names
        neither another tool's subject nor a thing of a lookup's kind
        (:attr:`~ToolPolicy.plan_unnamed_lookups`)."""
        if not self.policy.plan_arithmetic or not self.job.constrained:
            return None
        tools = arithmetic_tools(self.job.tools)
        if tools is not None and chosen:
            return None  # every tool arithmetic: the plan was read before the model's call
        if tools is None and self.policy.plan_among_lookups:
            among = arithmetic_tools(self.job.tools, among=True)
            made, _ = turn_calls(self.job.messages)
            steps = list(made) or list(chosen)
            if among is not None and steps and all(is_arithmetic(c, among) for c in steps):
                tools = among
            elif among is not None and not steps and self._names_no_lookup(among):
                tools = among
        if tools is None:
            return None
        question = last_question(self.job.messages)
        grammar = expression_grammar(question)
        if grammar is None:
            return None
        expressions = [self._expression(p, question, grammar) for p in EXPRESSION_PROMPTS]
        if self.policy.units_regrouped:  # each reading with its count out of the product
            expressions = [regrouped(e, question) or e for e in expressions]
        plan = agreed_plan(expressions, question)
        if plan is None:
            return None
        if self.policy.units_regrouped and (again := regrouped(plan.expression, question)):
            plan = read_plan(again, question) or plan  # a count taken out of the product
        due = steps_due(plan, tools, *turn_calls(self.job.messages))
        if due and not self.job.parallel_tool_calls:
            return due[:1]
        return due

    def _names_no_lookup(self, arithmetic: Tools) -> bool:
        """Whether the question names neither what an offered tool other than the arithmetic
        ones is about (:func:`~toolkit.local.decision.mentions.question_names`) nor a thing of
        the kind of one that looks things up by name
        (:func:`~toolkit.local.decision.kinds.names_a_thing`): "一块大理石板重 1350 千克，一辆
        卡车装了 6 块…" with a quarry's lookup offered is a question of arithmetic alone
        (:attr:`~ToolPolicy.plan_unnamed_lookups`)."""
        if not self.policy.plan_unnamed_lookups:
            return False
        own = {name for name, *_ in arithmetic.operations.values()}
        if arithmetic.expression is not None:
            own.add(arithmetic.expression[0])
        names = {t["function"]["name"] for t in self.job.tools} - own
        question = last_question(self.job.messages)
        if question_names(question, names):
            return False
        lookups = [tool for tool in lookup_keys(self.job.schemas) if tool in names]
        return not names_a_thing(question, lookups)

    def combined_steps(
        self, chosen: Sequence[Mapping[str, Any]] = (), *, asked: bool = False
    ) -> list[tuple[str, dict[str, Any]]] | None:
        """The calls that combine this turn's looked-up values, read from the expression the
        model writes over them (:mod:`toolkit.local.decision.combining`,
        :attr:`~ToolPolicy.combine_results`).

        The plan is read when the model has chosen to call an arithmetic tool next
        (``chosen``: the calls it wrote) and the turn made none yet, or when the turn's
        arithmetic calls so far are the plan's first steps — unless the last of them took
        every value (:func:`~toolkit.local.decision.turn.results_combined`) and no average
        is asked: then its result is the answer's.

        Args:
            chosen: The calls the model wrote for its next step, before any arithmetic call
                of the turn.
            asked: The model would answer in text and the question asks for the values
                combined (:func:`~toolkit.local.decision.asking.asks_combination`,
                :attr:`~ToolPolicy.combine_when_asked`): the plan is read though the model
                chose no arithmetic call.

        Returns:
            The plan's next calls; ``[]`` once its last step has a result; ``None`` when the
            turn has no lookups to combine, no plan is due, the readings are no plan or
            disagree, or the turn left the plan.
        """
        if not self.policy.combine_results or not self.job.constrained:
            return None
        tools = arithmetic_tools(self.job.tools, among=True)
        if tools is None:
            return None
        made, results = arithmetic_calls(self.job.messages, tools)
        if not made and not asked and not (chosen and all(is_arithmetic(c, tools) for c in chosen)):
            return None
        if made and results_combined(self.job.messages) and not asks_average(self.job.messages):
            return None  # the last step combined every value: its result is the answer's
        hinted = {n for call in [*chosen, *made] for n in numbers_of(arguments_of(call))}
        lookups = looked_up(
            self.job.messages,
            tools,
            self.reading,
            hinted,
            self.picked_number,
            misread_aside=self.policy.misread_lookups_aside,
        )
        if lookups is None:
            return None
        sum_only = self.policy.sums_added_only and asks_sum_only(lookups.question)
        followed = self._combination_followed(lookups, tools, made, results, sum_only=sum_only)
        if followed is None and chosen and not made and self.policy.asked_numbers_in_calls:
            return _in_place(chosen, lookups)
        return None if followed is None else followed[1]

    def rate_steps(self) -> list[tuple[str, dict[str, Any]]] | None:
        """The division a question asks of the one record the turn reached or looked up:
        one of its numbers per another ("how many dogs are there for each musher?" of a
        kennel's "dogs: 48" and "mushers: 5"; :mod:`toolkit.local.decision.rates`,
        :attr:`~ToolPolicy.rates_divided`), or the subtraction of one from another ("how
        many more members than looms"). A question in Chinese that says 每 is read in its
        English reading.

        Returns:
            The step's call; ``[]`` once it has its result; ``None`` when no such step is
            asked, no tool does it, or the turn made other calls after the record.
        """
        reached = self._reached_record() if self.policy.rates_divided else None
        if reached is None:
            return None
        tools, (record, made, results) = reached
        question = last_question(self.job.messages)
        ignore = self._tool_words()
        operation, rate = "/", asked_rate(question, record, ignore)
        if rate is None and writes_spaceless(question) and "每" in question:
            rate = asked_rate(self.reading(), record, ignore)
        if rate is None:  # "how many more members than looms"
            operation, rate = "-", asked_gap(question, record)
        if rate is None or operation not in tools.operations:
            return None
        tool, first, second = tools.operations[operation]
        dividend, divisor = (plain_number(float(n.replace(",", ""))) for n in rate)
        if tool in tools.integers and not all(float(n).is_integer() for n in (dividend, divisor)):
            return None
        if not made:
            return [(tool, {first: dividend, second: divisor})]
        arguments = arguments_of(made[0])
        if (
            len(made) == 1
            and made[0]["function"]["name"] == tool
            and arguments.get(first) == dividend
            and arguments.get(second) == divisor
            and results[0] is not None
        ):
            labels = {n.replace(",", ""): label for label, n in record_fields(record)}
            self.worked = _worked(f"{dividend} {operation} {divisor}", results[0], labels)
            return []
        return None

    def _tool_words(self) -> set[str]:
        """The words of the offered tools' names: things, not quantities, in a question."""
        return {w for t in self.job.tool_names for w in name_words(t)}

    def _reached_record(
        self,
    ) -> tuple[Tools, tuple[str, list[Mapping[str, Any]], list[str | None]]] | None:
        """The arithmetic tools and the record the turn reached or looked up, with the
        arithmetic calls after it (:func:`~toolkit.local.decision.rates.rated_record`)."""
        if not self.job.constrained:
            return None
        tools = arithmetic_tools(self.job.tools, among=True)
        rated = None if tools is None else rated_record(self.job.messages, tools)
        return None if tools is None or rated is None else (tools, rated)

    def _passed_on(self) -> bool:
        """Whether the turn's one record names the thing the question points at, a chain's
        next step (:attr:`~ToolPolicy.chains_lead_on`): no number of it is taken on yet.
        "琥珀山蜂蜜合作社把蜂蜡卖给了一家锻坊。照那家锻坊每周打马掌的数量，连续干两周…" had
        the co-op's 655 hives doubled."""
        return self.policy.chains_lead_on and self._one_record() and self._leads_on()

    def scaled_steps(self) -> list[tuple[str, dict[str, Any]]] | None:
        """The calls that take the record the turn reached on by the numbers the question
        states for it ("what would tickets for a family of three cost?" after the port's
        "ticket_price_eur: 245"; :mod:`toolkit.local.decision.scaling`,
        :attr:`~ToolPolicy.records_scaled`), read from the expression the model writes over
        the record's number the question asks for and the question's own.

        Returns:
            The plan's next calls; ``[]`` once its last step has a result; ``None`` when no
            record was reached, its number asked for is not known, the question states no
            number for it, the readings are no plan or disagree, or the turn left the plan.
        """
        reached = self._reached_record() if self.policy.records_scaled else None
        if reached is None or self._passed_on():
            return None
        tools, (record, made, results) = reached
        question = last_question(self.job.messages)
        if writes_spaceless(question):
            asked = self.picked_number(record)
        else:
            calls, _ = turn_calls(self.job.messages)
            names = [v for call in calls for v in text_values(call)]
            ignore = self._tool_words()
            asked = asked_number(record, without_names(asking_sentence(question), names), ignore)
        lookups = reached_lookups(self.job.messages, tools, asked)
        if lookups is None:
            return None
        followed = self._combination_followed(lookups, tools, made, results)
        if followed is None:
            return None
        plan, due = followed
        if due == [] and results:
            value = (asked or "").replace(",", "")
            labels = {n: label for label, n in record_fields(record) if n == value}
            self.worked = _worked(plan.expression, results[-1], labels)
        return due

    def _combination_followed(
        self,
        lookups: Lookups,
        tools: Tools,
        made: Sequence[Mapping[str, Any]],
        results: Sequence[str | None],
        *,
        sum_only: bool = False,
    ) -> tuple[Plan, list[tuple[str, dict[str, Any]]]] | None:
        """The plan the model's expressions over the lookups agree on, and its calls due
        next (only the first, without parallel calls); ``None`` when there is no such plan
        or the turn left it."""
        grammar = once_grammar(lookups, sum_only=sum_only)
        if grammar is None:
            return None
        text = combining_text(lookups)
        plan = agreed_combination(
            [self._expression(p, text, grammar) for p in COMBINING_PROMPTS], lookups
        )
        if plan is None:
            return None
        if self.policy.differences_kept and _adds_for_difference(plan, lookups.question):
            return None  # the question asks how much more: no plan that only adds
        if self.policy.differences_when_asked:
            plan = larger_first(years_apart(plan), lookups.question)
        due = steps_due(plan, tools, made, results)
        if due is None:
            return None
        return plan, due[:1] if due and not self.job.parallel_tool_calls else due

    def asked_combination(self) -> list[tuple[str, dict[str, Any]]] | None:
        """The calls that combine this turn's looked-up values when the model would answer in
        text but the question asks for their total, average, difference or ratio
        (:attr:`~ToolPolicy.combine_when_asked`): "How many kilograms is that in total?"
        answered by two lookups, which the small model answers with the first one's."""
        if not self.policy.combine_when_asked:
            return None
        if not asks_combination(last_question(self.job.messages)):
            return None
        return self.combined_steps(asked=True)

    def unasked_combination(self, chosen: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the calls the model chose after this turn's lookups combine the looked-up
        values while the question asks for each on its own
        (:func:`~toolkit.local.decision.asking.asks_each`,
        :attr:`~ToolPolicy.each_stays_apart`): ``add(46, 38)`` after "各有多少个蜂箱？"
        answered 46, 38 and 61. Only calls of the arithmetic tools, the turn's first, that use
        no number the question states."""
        if not self.policy.each_stays_apart or not chosen:
            return False
        tools = arithmetic_tools(self.job.tools, among=True)
        if tools is None or not all(is_arithmetic(c, tools) for c in chosen):
            return False
        question = last_question(self.job.messages)
        if arithmetic_calls(self.job.messages, tools)[0] or not asks_each(question):
            return False
        if looked_up(self.job.messages, tools) is None:
            return False
        told = known_numbers(question.casefold())
        used = {float(n) for c in chosen for n in written_numbers(json.dumps(arguments_of(c)))}
        return not used & told

    def _expression(self, instruction: str, question: str, grammar: str) -> str:
        """The question as one arithmetic expression, greedy under ``grammar`` (the same
        question asks for it at each step of its turn: the first answer is kept)."""
        key = (id(self.engine), instruction, question, grammar)
        if key not in _EXPRESSIONS:
            messages = [
                {"role": "system", "content": instruction},
                {"role": "user", "content": question},
            ]
            prompt = self.engine.tokenize(render_prompt(messages, None, template=self.template))
            with self.engine.aside():  # the conversation's evaluated prompt is kept
                generation = self.engine.generate(
                    prompt, SamplingOptions(max_tokens=64), grammar=grammar, cancel=self.cancel
                )
                text = "".join(generation)
            self.used += generation.completion_tokens
            if generation.finish_reason != "stop":
                return ""  # cut short: no expression
            while len(_EXPRESSIONS) >= _KEPT_EXPRESSIONS:
                _EXPRESSIONS.pop(next(iter(_EXPRESSIONS)))
            _EXPRESSIONS[key] = text
        return _EXPRESSIONS[key]

    def reading(self) -> str:
        """The question as the records' labels can be matched against: as it is, or — when it
        is written in Chinese — in the model's English translation (greedy, one question in
        plain English, read once per question; :attr:`~ToolPolicy.english_reading`)."""
        question = last_question(self.job.messages)
        if not self.policy.english_reading or not writes_spaceless(question):
            return question
        request = READING_REQUEST.format(question)
        return self._expression(READING_INSTRUCTION, request, _ENGLISH_LINE) or question

    def last_result(self) -> str | None:
        """The turn's last tool result (a plan's last step: the answer's)."""
        results = [m for m in self.job.messages if m.get("role") == "tool"]
        if not results:
            return None
        return content_text(results[-1].get("content")).strip() or None

    def written_calls(self, calls: list[tuple[str, dict[str, Any]]]) -> Iterator[Event]:
        """The calls a plan decided, written as the calls grammar writes them."""
        stream = ToolCallStream(self.job.tool_names, lenient=False)
        for tool, arguments in calls:
            call = json.dumps({"name": tool, "arguments": arguments}, ensure_ascii=False)
            yield from stream.feed(f"<tool_call>\n{call}\n</tool_call>\n")
        yield from stream.finish()
        yield self._finished("tool_calls", "calls")


def _adds_for_difference(plan: Plan, question: str) -> bool:
    """Whether a plan takes nothing away while the question asks by how much its values
    differ, in so many words (:func:`~toolkit.local.decision.asking.says_difference`,
    :attr:`~ToolPolicy.differences_kept`): "蕨岭羊驼徒步比卵石羊驼徒步多养了几头羊驼？" read as
    ``29 + 15``."""
    return "-" not in plan.expression and says_difference(question)


def _in_place(
    chosen: Sequence[Mapping[str, Any]], lookups: Lookups
) -> list[tuple[str, dict[str, Any]]] | None:
    """The arithmetic calls the model chose, each number of a record moved to the one its
    record gives (:func:`~toolkit.local.decision.combining.asked_in_place`,
    :attr:`~ToolPolicy.asked_numbers_in_calls`); ``None`` when no number moved."""
    calls = [(c["function"]["name"], arguments_of(c)) for c in chosen]
    moved = [asked_in_place(arguments, lookups) for _, arguments in calls]
    if all(m is None for m in moved):
        return None
    return [(tool, m if m is not None else a) for (tool, a), m in zip(calls, moved, strict=True)]


#: One question in plain English: what the question's English reading is decoded under (a
#: reading that runs on past the token limit is dropped).
_ENGLISH_LINE = 'root ::= [A-Z] [A-Za-z0-9 ,.\'"%()-]* "?"'

#: The expressions read for questions of arithmetic, by engine, instruction, question and
#: grammar.
_EXPRESSIONS: dict[tuple[int, str, str, str], str] = {}
#: How many of them are kept (the oldest goes first).
_KEPT_EXPRESSIONS = 64


def _worked(expression: str, result: str | None, labels: Mapping[str, str]) -> str | None:
    """An expression, each number of a record with its label after it, and the number its
    last step's result states ("245 (ticket price eur) * 3 = 735"); ``None`` when the result
    states no one number."""
    lone = lone_number(result or "", longest=None)
    if lone is None:
        return None
    while expression.startswith("(") and expression.endswith(")"):  # "(4 * 120)"
        inner = expression[1:-1]
        if inner.count("(") != inner.count(")") or inner.find(")") < inner.find("("):
            break
        expression = inner
    said = re.sub(
        r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])",
        lambda m: f"{m[0]} ({labels[m[0]]})" if m[0] in labels else m[0],
        expression,
    )
    return f"{said} = {lone}"
