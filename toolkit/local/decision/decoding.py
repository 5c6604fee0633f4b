"""Answer one chat request on the embedded model: text or calls, decided and decoded.

:func:`answer` applies :mod:`toolkit.local.decision.policy` (its docstring gives the reasons):

* no tools, or ``tool_choice="none"``: text, never opening a call;
* ``"auto"``: text when the model's first-token text probability reaches
  ``text_threshold`` or its probability of naming an offered tool is under
  ``name_threshold``; calls otherwise — and, before any result, a sound call when the model
  prefers text but names a tool with at least ``sure_call_threshold``;
* ``"auto"`` with only arithmetic tools and a question stating two numbers or more: the
  calls of the expression the model reads the question as, step by step, then the answer
  (:class:`~toolkit.local.decision.planning.PlanWriter`);
* ``"required"``: calls; a named tool: one call of that tool;
* ``constrained=False``: free decoding, read by the tolerant parser.

With ``"auto"``, a text answer is kept back until it is complete and checked
(:meth:`_Decoder.checked_text`); once this turn's tools have answered, the answer comes from the
final-answer step (:func:`~toolkit.local.decision.prompt.answer_messages`), and a question whose
numbers no step has used yet, or a turn whose every result failed while a tool is untried,
keeps the turn calling; a turn whose last step combined the
earlier results is answered, not called again, when the model would name a tool it already
called (:meth:`_Decoder.answer_due`). A call of the last step that a tool refused at a text
value is first tried once more in another form of that value
(:meth:`~toolkit.local.decision.calling.CallWriter.failure_retried`).

Calls are decoded one ``<tool_call>`` block at a time under the calls grammar. A first call that
repeats the conversation (stopped at the value that makes it a repeat) or uses values it never
gave (:class:`~toolkit.local.decision.turn.CallJudge`) gives way to the next most likely tool,
and to a text answer from the results when no tool does better. When parallel calls are allowed
the model is made to write one more call after each — of the same tool, then of another — kept
only when it is new and grounded in the conversation (:mod:`toolkit.local.decision.grounding`);
it is given up at the first argument value that rules it out.
A text answer is decoded under :func:`answer_text_grammar`: the JSON of the job's response
format when it has one, whatever the decision (a call stays a call).

"""

from __future__ import annotations

import difflib
import json
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from toolkit.errors import PromptError
from toolkit.local.decision.arithmetic import Tools, arithmetic_tools
from toolkit.local.decision.asking import (
    asked_order,
    asked_parts,
    asks_arithmetic,
    asks_combination,
    asks_difference,
    asks_each,
)
from toolkit.local.decision.calling import CallWriter
from toolkit.local.decision.chains import (
    kind_named,
    linked_names,
    refers_back,
)
from toolkit.local.decision.combining import arithmetic_calls
from toolkit.local.decision.comparison import compared_entries, comparison
from toolkit.local.decision.coordination import listed_calls
from toolkit.local.decision.fields import FieldReader, asking_sentence
from toolkit.local.decision.grounding import arguments_of, conversation_text
from toolkit.local.decision.kinds import (
    lookup_keys,
    named_things,
    names_a_thing,
    names_listed,
    names_of_a_kind,
    writes_place_name,
)
from toolkit.local.decision.known import kind_lookups_skipped
from toolkit.local.decision.mentions import (
    declines_tools,
    named_tools,
    question_names,
    refuses,
    says_kind,
    talks_about_tools,
    writes_out,
)
from toolkit.local.decision.naming import names_record, reached_record, said_name
from toolkit.local.decision.numbers import (
    is_number,
    known_numbers,
    lone_number,
    magnitude,
    numbers_of,
    plain_number,
    said_numbers,
    signs_restored,
    stated_numbers,
    ungrounded_numbers,
    whole_spelling,
    with_roundings,
)
from toolkit.local.decision.phrases import writes_spaceless
from toolkit.local.decision.planning import PlanWriter
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import (
    answer_messages,
    build_prompt,
    listed_values,
    results_nudge,
)
from toolkit.local.decision.records import (
    asked_number,
    asked_text,
    asked_year,
    labelled_numbers,
    labelled_texts,
    record_name,
)
from toolkit.local.decision.retries import renamed_failures, rerouted_failures
from toolkit.local.decision.searching import asks_information, web_search_tools
from toolkit.local.decision.signals import NOT_TEXT_STARTS, name_probabilities, text_probability
from toolkit.local.decision.turn import (
    CallJudge,
    failed,
    failed_off_the_question,
    folded,
    has_results,
    is_error,
    last_question,
    last_step_at,
    results_combined,
    turn_calls,
    turn_start,
    unfit_failures,
    untried_after_failures,
    unused_numbers,
)
from toolkit.local.format.events import ContentDelta, Event, Finished, ToolCallEvent
from toolkit.local.format.grammar import text_grammar
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.parser import ToolCallStream
from toolkit.local.format.stops import repetition_start
from toolkit.local.format.structured import answer_grammar
from toolkit.local.format.template import render_prompt
from toolkit.wire import content_text

if TYPE_CHECKING:  # decoding drives a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["answer", "answer_text_grammar"]


#: A question in Latin letters that asks for a number: no words of a record answer it.
_ASKS_QUANTITY = re.compile(
    r"(?<![a-z])(?:how (?:many|much|old|long|far|tall|high|deep|big|large|wide|heavy)"
    r"|what (?:year|number|percentage|share)|when)(?![a-z])",
    re.IGNORECASE,
)

#: A Chinese question's pointer at a thing by a demonstrative and its measure word ("那家厂",
#: "这座塔"), not "它" (it), which as often means the thing the question names.
_POINTED_AT = re.compile(r"[那这](?:个|座|家|片|条|间|所|位)")


def answer_text_grammar(
    job: ChatJob,
    *,
    forbidden: Sequence[str] = (),
    numbers: Sequence[str] | None = None,
    required: Sequence[str] = (),
    passing: Sequence[str] = (),
    plain_start: bool = True,
) -> str | None:
    """The grammar a text answer is decoded under: the response format's JSON when the job
    has one (:mod:`toolkit.local.format.structured`), else text that never opens a call (nor
    holds ``forbidden``, nor states numbers outside ``numbers``, and states ``required``)
    when tools were offered, else none.

    Args:
        job: The request.
        forbidden: Strings a text answer to a tool prompt may not contain.
        numbers: The only numbers it may state; ``None`` for any.
        required: Spellings of a number it must state, its first but for ``passing``.
        passing: Numbers it may state before the required one.
        plain_start: Refuse text that opens with whitespace or JSON (``False`` for the rest
            of an answer whose opening is given).

    Returns:
        GBNF text, or ``None`` for free decoding.
    """
    if job.text_schema is not None:
        return answer_grammar(job.text_schema)
    if job.tools and job.constrained:
        return text_grammar(
            plain_start=plain_start,
            forbidden=forbidden,
            numbers=numbers,
            required=required,
            passing=passing,
        )
    return None


def answer(
    engine: Engine,
    job: ChatJob,
    policy: ToolPolicy | None = None,
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """Answer a chat request: content deltas and calls as they are decided, then
    :class:`Finished`.

    The caller must hold ``engine.lock`` while iterating.

    Args:
        engine: The loaded model.
        job: The request.
        policy: The decision settings; default ``ToolPolicy()``.
        cancel: Set it to stop generating early.

    Yields:
        :class:`~toolkit.local.format.events.ContentDelta` and
        :class:`~toolkit.local.format.events.ToolCallEvent` (indices counting only the calls
        returned), then one :class:`Finished`.

    Raises:
        PromptError: The request cannot become a prompt or a grammar.
        LocalModelError: The prompt does not fit the context window.
    """
    policy = policy or ToolPolicy()
    answered = has_results(job.messages[turn_start(job.messages) :])
    if (
        job.tools
        and job.constrained
        and job.tool_choice == "auto"
        and not answered
        and policy.declined_calls
        and declines_tools(last_question(job.messages))
    ):
        # The user asked for no lookup: the answer is written as though no tool were offered
        # (with the tools in the prompt the small model writes a call's values out), before
        # any plan of arithmetic calls is drawn from the question.
        yield from answer(engine, replace(job, tools=None), policy, cancel=cancel)
        return
    if (
        job.tools
        and job.constrained
        and job.tool_choice == "auto"
        and answered
        and policy.unfit_tools_aside
        and unfit_failures(job.messages, job.tools)
    ):
        # Every call failed and no offered tool is the question's: it is answered as though
        # none were offered, from the question alone.
        asked = list(job.messages[: turn_start(job.messages) + 1])
        yield from answer(engine, replace(job, tools=None, messages=asked), policy, cancel=cancel)
        return
    tokens = engine.tokenize(build_prompt(job, policy, engine.chat_template))
    decoder = _Decoder(engine, job, policy, tokens, cancel)
    if not job.tools or job.tool_choice == "none":
        yield from decoder.text(from_results=answered and job.constrained)
    elif not job.constrained:
        yield from decoder.free()
    elif (
        job.tool_choice == "auto"
        and answered
        and policy.rerouted_failures
        and (rerouted := rerouted_failures(job.messages, job.tools))
    ):  # the values one tool failed at, asked of the tool that answered for one of them
        yield from decoder.written_calls(rerouted)
    elif (
        job.tool_choice == "auto"
        and answered
        and policy.renamed_failures
        and (renamed := renamed_failures(job.messages))
    ):  # the values refused, asked again as the keys the refusals list and the user names
        yield from decoder.written_calls(renamed)
    elif (
        job.tool_choice == "auto"
        and answered
        and policy.kind_lookups_used
        and (skipped := decoder.kind_lookups_skipped())
    ):  # names of a lookup's kind, asked of another lookup only
        yield from decoder.written_calls(skipped)
    elif job.tool_choice == "auto" and (planned := decoder.planned_steps()) is not None:
        if planned:  # the plan's next operations, asked of the arithmetic tools
            yield from decoder.written_calls(planned)
        else:  # the plan's last step has its result: the answer, which the result states
            yield from decoder.final_answer(result=decoder.last_result())
    elif job.tool_choice == "auto" and answered and (divided := decoder.rate_steps()) is not None:
        if divided:  # one number of the record per another, as asked
            yield from decoder.written_calls(divided)
        else:  # the division has its result: the answer's
            yield from decoder.final_answer(result=decoder.last_result(), worked=decoder.worked)
    elif job.tool_choice == "auto" and answered and (scaled := decoder.scaled_steps()) is not None:
        if scaled:  # the reached record's number taken on by the question's own
            yield from decoder.written_calls(scaled)
        else:  # the last step has its result: the answer's
            yield from decoder.final_answer(result=decoder.last_result(), worked=decoder.worked)
    elif (
        job.tool_choice == "auto"
        and answered
        and policy.difference_before_plan
        and (difference := decoder.difference_step()) is not None
    ):  # larger minus smaller, as asked, before any plan the model draws over the records
        yield from decoder.written_calls([difference])
    elif (
        job.tool_choice == "auto"
        and answered
        and (combined := decoder.combined_steps()) is not None
    ):
        if combined:  # the plan of looked-up values goes on
            yield from decoder.written_calls(combined)
        else:  # its last step has its result: the answer's
            yield from decoder.final_answer(result=decoder.last_result())
    elif job.tool_choice == "auto":
        decoder.p_text = text_probability(engine, tokens)
        if decoder.p_text < policy.text_threshold or not answered:
            decoder.measure_names()
        p_name = 1.0 if decoder.p_name is None else decoder.p_name
        # A Chinese chain that reached the thing the question refers back to is answered
        # before any failed step of its way is resumed.
        reached = answered and decoder.chained_field() is not None
        retry = None
        if answered and not reached:
            retry = decoder.failure_retried() or decoder.failed_step_resumed()
        if retry is not None:  # a failed value in another form, or a failed step resumed
            yield from decoder.calls(None, first=retry)
        elif (
            answered
            and not reached
            and policy.refused_names_elsewhere
            and not untried_after_failures(job.messages, job.tool_names)
            and (elsewhere := decoder.untried_lookup()) is not None
        ):  # beside answers, the name one lookup refused, of a lookup not tried yet
            yield from decoder.written_calls([elsewhere])
        elif (
            answered
            and not policy.difference_before_plan  # else it was asked for before the plan
            and (difference := decoder.difference_step()) is not None
        ):
            yield from decoder.written_calls([difference])  # larger minus smaller, as asked
        elif answered and (subtracted := decoder.difference_found()) is not None:
            decoder.difference = True  # the order and by how much, in one sentence
            yield from decoder.final_answer(result=subtracted)
        elif answered and decoder.compared():  # the order asked for is in the results
            yield from decoder.final_answer()
        elif answered and (named := decoder.asked_words()) is not None:
            yield from decoder.final_answer(result=named, words=named)  # asked by their label
        elif answered and decoder.asked_found():  # the number asked for is in the results
            yield from decoder.final_answer()
        elif answered and (
            unused_numbers(job.messages, words=False)  # numbers no step has used yet
            or untried_after_failures(job.messages, job.tool_names)  # another tool may help
        ):
            decoder.measure_names()
            untried = None
            if untried_after_failures(job.messages, job.tool_names):
                untried = decoder.untried_lookup()  # the refused name, of a lookup not tried
            yield from decoder.written_calls([untried]) if untried else decoder.calls(None)
        elif not answered and (
            (  # a tool over recall: the model all but sure of it, or the question names it
                decoder.p_text >= policy.text_threshold
                and (decoder.sure() or decoder.named_by_question())
            )
            or (  # a call preferred, its name unsure, the tool the question's own subject
                decoder.p_text < policy.text_threshold
                and p_name < policy.name_threshold
                and policy.preferred_named_calls
                and decoder.named_by_question()
            )
            or (  # a call meant, its name unsure
                decoder.p_text < policy.call_intent_threshold
                and policy.call_intent_name_floor <= p_name < policy.name_threshold
            )
        ):
            yield from decoder.calls(None, sound_only=True)  # made only if it is sound
        elif (
            not answered
            and decoder.p_text >= policy.text_threshold
            and (searches := decoder.searched_for())
        ):  # the web searched, not recall
            yield from decoder.calls(None, sound_only=True, among=searches)
        elif (
            decoder.p_text >= policy.text_threshold
            or p_name < policy.name_threshold
            or (answered and decoder.answer_due())
        ):
            if job.text_schema is not None:
                yield from decoder.text(from_results=answered)  # the response format's JSON
            elif answered and (combined := decoder.asked_combination()):
                yield from decoder.written_calls(combined)  # the total the question asks for
            elif answered:  # a last step that combined the results has the answer's
                known = decoder.last_result() if results_combined(job.messages) else None
                yield from decoder.final_answer(stated=known)
            else:
                yield from decoder.checked_text()
        else:
            yield from decoder.calls(None)
    elif job.tool_choice == "required":
        yield from decoder.calls(None)
    else:
        if job.tool_choice not in job.tool_names:
            raise PromptError(
                f"tool_choice names {job.tool_choice!r}, which is not among the tools; "
                f"choose one of: {', '.join(job.tool_names)}."
            )
        yield from decoder.calls(job.tool_choice)


class _Decoder(CallWriter, PlanWriter, FieldReader):
    """Decoding strategies for one request (text, calls, free), sharing their bookkeeping."""

    def __init__(
        self,
        engine: Engine,
        job: ChatJob,
        policy: ToolPolicy,
        tokens: list[int],
        cancel: threading.Event | None,
    ) -> None:
        self.engine, self.job, self.policy, self.tokens = engine, job, policy, tokens
        self.template = engine.chat_template
        self.cancel = cancel
        self.used = 0  # completion tokens spent so far, over every attempt
        self.p_text: float | None = None
        self.p_name: float | None = None
        self.names: dict[str, float] | None = None
        self.repeated = 0  # calls dropped because the conversation already made them
        self.result: str | None = None  # the result that answers the question, when known
        self.parts: list[str] = []  # the results of a question's parts, when it asks several
        self.difference = False  # the last step subtracted the smaller compared value
        self.kept_text: tuple[str, str] | None = None  # a text answer a call may replace

    def _options(self) -> SamplingOptions:
        left = max(1, self.job.options.max_tokens - self.used)
        return replace(self.job.options, max_tokens=left)

    def _finished(self, reason: str, decision: str) -> Finished:
        return Finished(
            reason, len(self.tokens), self.used, decision, self.p_text, self.p_name, self.repeated
        )

    def _not_text(self) -> np.ndarray:
        """First tokens a text answer may not start with: markup, JSON, or the end of turn."""
        return np.concatenate(
            [self.engine.opening_tokens(NOT_TEXT_STARTS), self.engine.end_tokens()]
        )

    def measure_names(self) -> None:
        """The model's probability of naming each offered tool (when it can write the tag)."""
        if self.names is None and self.engine.token_id("<tool_call>") is not None:
            self.names = name_probabilities(
                self.engine, self.tokens, self.job.tool_names, floor=self.policy.name_floor
            )
            self.p_name = min(1.0, sum(self.names.values()))

    def sure(self) -> bool:
        """Whether the model, preferring text, is all but sure which offered tool it would
        call (:attr:`~ToolPolicy.sure_call_threshold`): then the call is tried, and kept
        when it is sound (:meth:`calls` with ``sound_only``)."""
        return self.p_name is not None and self.p_name >= self.policy.sure_call_threshold

    def named_by_question(self) -> bool:
        """Whether the question says in its own words what an offered tool is about
        (:func:`~toolkit.local.decision.mentions.question_names`,
        :attr:`~ToolPolicy.question_named_tools`), or names a thing of the kind of a tool
        that looks things up by name (:func:`~toolkit.local.decision.kinds.names_a_thing`:
        "鸦林酒厂" of ``get_distillery``, :attr:`~ToolPolicy.named_kinds`): then, the model
        preferring text, the call is tried and kept when it is sound, as when the model is
        all but sure of a tool."""
        if not self.policy.question_named_tools:
            return False
        question = last_question(self.job.messages)
        if question_names(question, self.job.tool_names):
            return True
        if not self.policy.named_kinds:
            return False
        return names_a_thing(question, lookup_keys(self.job.schemas))

    def searched_for(self) -> list[str]:
        """Before results, the one offered tool that searches the web
        (:func:`~toolkit.local.decision.searching.web_search_tools`), when the question asks
        for information (:func:`~toolkit.local.decision.searching.asks_information`,
        :attr:`~ToolPolicy.web_searched`): then, the model preferring text, its call is tried
        and kept when it is sound, as for a tool the question names. ``[]`` otherwise."""
        if not self.policy.web_searched:
            return []
        searches = web_search_tools(self.job.tools)
        if len(searches) != 1 or not asks_information(last_question(self.job.messages)):
            return []
        return searches

    def answer_due(self) -> bool:
        """After results: whether the last step combined them and left nothing unused
        (:func:`~toolkit.local.decision.turn.results_combined`) while the tool the model
        would name is one this turn already called — the small model's way back to the
        call it just made (``add(6, 5)`` again once it answered 11). Then the answer is
        written (:attr:`~ToolPolicy.answer_when_combined`); a new tool named is a new step."""
        if not self.policy.answer_when_combined or not self.names:
            return False
        turn = self.job.messages[turn_start(self.job.messages) + 1 :]
        called = {c["function"]["name"] for m in turn for c in m.get("tool_calls") or []}
        likeliest = max(self.names, key=self.names.__getitem__)
        return likeliest in called and results_combined(self.job.messages)

    def kind_lookups_skipped(self) -> list[tuple[str, dict[str, Any]]]:
        """The question's names of a lookup's kind that the turn asked of another lookup
        only (:func:`~toolkit.local.decision.known.kind_lookups_skipped`), each asked of its
        kind's lookup, the calls the job's grammar admits."""
        turn = CallJudge(self.job, self.policy, auto=True)
        failures = [r is None or is_error(r) for r in turn.turn_results]
        due = kind_lookups_skipped(
            turn.turn_calls,
            turn.turn_results,
            failures,
            turn.question,
            lookup_keys(self.job.schemas),
        )
        return [call for call in due if not turn.history.redundant(_as_call(*call))]

    def untried_lookup(self) -> tuple[str, dict[str, Any]] | None:
        """Once every lookup of the turn failed at the one name the question gives, that name
        asked of a lookup not tried yet (:meth:`~toolkit.local.decision.turn.CallJudge.
        names_for_untried`): of the one such tool, or of the one the model would name most
        likely among several. The small model, told the name was unknown, wrote arithmetic
        on the question's "one" and "each", or answered that nothing could be found."""
        options = CallJudge(self.job, self.policy, auto=True).names_for_untried()
        if len(options) > 1:
            self.measure_names()
            if not self.names:
                return None
            return max(options, key=lambda option: self.names.get(option[0], 0.0))
        return options[0] if options else None

    def difference_step(self) -> tuple[str, dict[str, Any]] | None:
        """After results, for a question that asks which value is larger and by how much
        ("Which has more staff, and by how many?", "哪家更大？大多少吨？",
        :func:`~toolkit.local.decision.asking.asks_difference`): the subtraction of the
        smaller of the two compared values from the larger
        (:func:`~toolkit.local.decision.comparison.compared_entries`), when a subtracting tool
        is offered and the turn made no arithmetic call yet
        (:attr:`~ToolPolicy.difference_of_order`). The small model added the records'
        numbers, or stated the order alone."""
        tools = self._difference_tools()
        if tools is None or arithmetic_calls(self.job.messages, tools)[0]:
            return None
        entries = compared_entries(self.job.messages, self.reading(), self.picked_number)
        if entries is None or len(entries) != 2:
            return None
        tool, first, second = tools.operations["-"]
        larger, smaller = sorted((entries[0][0], entries[1][0]), reverse=True)
        return tool, {first: plain_number(larger), second: plain_number(smaller)}

    def _difference_tools(self) -> Tools | None:
        """The offered arithmetic tools, when the question asks which value is larger and by
        how much and one of them subtracts (:attr:`~ToolPolicy.difference_of_order`)."""
        if not self.policy.difference_of_order or self.job.text_schema is not None:
            return None
        question = last_question(self.job.messages)
        if asked_order(question) is None or not asks_difference(question):
            return None
        tools = arithmetic_tools(self.job.tools, among=True)
        return tools if tools is not None and "-" in tools.operations else None

    def difference_found(self) -> str | None:
        """After the subtraction :meth:`difference_step` writes (or the model wrote: the
        larger of the two compared values less the smaller, in the last step, alone): its
        result, which with the order of the two is the answer ("哪一家占地更小？小多少公顷？"
        answered 34 once 95 − 61 was taken; the small model, asked anew of the records,
        named the larger dairy and its cows). ``None`` otherwise."""
        tools = self._difference_tools()
        if tools is None:
            return None
        messages = self.job.messages
        at = last_step_at(messages)
        last = (messages[at].get("tool_calls") or []) if at is not None else []
        tool, first, second = tools.operations["-"]
        if len(last) != 1 or last[0]["function"]["name"] != tool:
            return None
        # the values compared, as the steps before the subtraction looked them up
        entries = compared_entries(messages[:at], self.reading(), self.picked_number)
        if entries is None or len(entries) != 2:
            return None
        arguments = arguments_of(last[0])
        larger, smaller = sorted((float(entries[0][0]), float(entries[1][0])), reverse=True)
        taken = [arguments.get(first), arguments.get(second)]
        if not all(is_number(v) for v in taken) or [float(v) for v in taken] != [larger, smaller]:
            return None
        return self.last_result()

    def compared(self) -> bool:
        """After results: whether the question asks which value is larger, not by how much
        (:func:`~toolkit.local.decision.asking.asks_combination`), this turn's results
        order the values (:func:`~toolkit.local.decision.comparison.comparison`) and the
        question's lists ask for no call not yet made: the answer is due, with no arithmetic
        step (:attr:`~ToolPolicy.answer_comparisons`). The small model subtracts the records'
        other quantity ("谁的风机轮毂更高？" answered by ``subtract`` of the capacities)."""
        if not self.policy.answer_comparisons or self.job.text_schema is not None:
            return False
        question = last_question(self.job.messages)
        if asked_order(question) is None or asks_combination(question):
            return False
        if (
            comparison(self.job.messages) is None
            and comparison(self.job.messages, self.reading(), self.picked_number) is None
        ):
            return False
        turn = CallJudge(self.job, self.policy, auto=True)
        made = turn.turn_calls
        return not listed_calls(
            question, made, turn.schemas, made, members=self.policy.named_members
        )

    def asked_values(self) -> list[str] | None:
        """For a question that asks for one value of each of several records ("each", "各",
        "分别": :func:`~toolkit.local.decision.asking.asks_each`; no combination, no
        order — "between them" is a sum): the number each record of one tool gives for the
        label the question names (:func:`~toolkit.local.decision.records.asked_number`,
        :attr:`~ToolPolicy.asked_fields`), when every record of that tool gives one and it
        is the only such tool: "how many fragrances each of these houses offers" over three
        perfumeries' records is 74, 112 and 89. A question that asks for no arithmetic at all
        (:func:`~toolkit.local.decision.asking.asks_arithmetic`) asks for each value too
        ("the monthly bottle output of Amberwick Distillery and of Saffir & Dune",
        :attr:`~ToolPolicy.values_without_arithmetic`). ``None`` otherwise."""
        entries = self.asked_entries()
        return None if entries is None else [number for _, number in entries]

    def asked_entries(self) -> list[tuple[str, str]] | None:
        """The values of :meth:`asked_values`, each with what its call asked about (the call's
        one text value, else the record's name): ``("Maison Orvelle", "74")``."""
        if not self.policy.asked_fields:
            return None
        question = last_question(self.job.messages)
        each = asks_each(question) or (
            self.policy.values_without_arithmetic and not asks_arithmetic(question)
        )
        if not each or asks_combination(question) or asked_order(question):
            return None
        calls, results = turn_calls(self.job.messages)
        by_tool: dict[str, dict[str, str]] = {}
        for call, result in zip(calls, results, strict=True):
            text = result or ""
            if result is not None and not is_error(text) and len(labelled_numbers(text)) >= 2:
                texts = [v for v in arguments_of(call).values() if isinstance(v, str)]
                name = texts[0] if len(texts) == 1 else record_name(text)
                by_tool.setdefault(call["function"]["name"], {}).setdefault(text, name)
        found = []
        for records in by_tool.values():
            if len(records) < 2:
                continue
            numbers = self._asked_of(list(records), picks=True)
            pairs = list(zip(records.values(), numbers, strict=True))
            if all(n is not None for _, n in pairs):
                found.append([(name, n) for name, n in pairs if n is not None])
        return found[0] if len(found) == 1 else None

    def chained_field(self) -> str | None:
        """For a Chinese question that refers back to a thing it does not name ("给西蕾娜香坊
        供应龙涎香的那个船队有多少名船员？", :func:`~toolkit.local.decision.chains.refers_back`):
        the number of the chain's last record under the field the model picks
        (:meth:`~FieldReader.picked_number`), when an earlier record of the turn, of another
        tool, named the entity that last step looked up
        (:meth:`_names_step`: the perfumery's record names "Crannach Isle Fleet", the fleet
        tool was asked about it). For a question in Latin letters
        (:attr:`~ToolPolicy.english_chains_asked`), the last record's number whose label the
        question says (:func:`~toolkit.local.decision.records.asked_number`), the words of
        the label the way led under left out: "In what year was the master luthier of
        Corvell Violin Workshop born?" is the luthier's ``"born": 1949``, though "year" and
        "luthier" are the workshop's ``violins_per_year`` and ``luthiers`` too (the small
        model answered with the workshop's founding year). ``None`` otherwise."""
        question = last_question(self.job.messages)
        if not self.policy.asked_fields:
            return None
        chinese = writes_spaceless(question)
        if chinese and not refers_back(question):
            return None
        if not chinese and not self.policy.english_chains_asked:
            return None
        calls, results = turn_calls(self.job.messages)
        answered = [
            (c["function"]["name"], arguments_of(c), r)
            for c, r in zip(calls, results, strict=True)
            if r is not None and not is_error(r)
        ]
        if len(answered) < 2:
            return None
        tool, arguments, record = answered[-1]
        texts = [v for v in arguments.values() if isinstance(v, str)]
        if len(texts) != 1:
            return None
        leading = [
            earlier
            for other, _, earlier in answered[:-1]
            if other != tool and self._names_step(earlier, tool, texts[0])
        ]
        if not leading:
            return None
        if chinese:
            return self.picked_number(record)
        # The words of the label the way led under ("the master luthier of …" for
        # ``"master_luthier": "Ilse Marrow"``) name the thing, not what is asked of it.
        way = {
            w
            for earlier in leading
            for label, text in labelled_texts(earlier)
            if text.strip().casefold() == texts[0].strip().casefold()
            for w in re.findall(r"[a-z]+", label.casefold())
        }
        return asked_number(record, question, self._tool_words() | way)

    def _names_step(self, record: str, tool: str, name: str) -> bool:
        """Whether an earlier record named the thing a later step looked up: as a thing of
        the step tool's kind (:func:`~toolkit.local.decision.chains.kind_named`), or, with
        :attr:`~ToolPolicy.linked_entities`, as another thing it names, whatever its words
        ("Students land at Quillon Dune Sanctuary." for ``tortoise_sanctuary_record``)."""
        if (kind_named(record, tool) or "").casefold() == name.casefold():
            return True
        if not self.policy.linked_entities:
            return False
        question = last_question(self.job.messages)
        return any(
            n.casefold() == name.casefold() for n, _ in linked_names(record, set(), question)
        )

    def asked_found(self) -> bool:
        """After results, in a question in Latin letters: whether the number the question asks
        for by its label is in this turn's records (:meth:`asked_field`; or, asked of each of
        several records, in every one of them: :meth:`asked_values`), every offered tool
        whose kind the question names has answered ("the canal lock" once
        ``get_canal_lock`` did) and the question asks for no combination: the answer is due
        (:attr:`~ToolPolicy.answer_when_found`). Once a chain's two records were in, the
        small model looked the word "Lock" up in an unrelated tool. A Chinese question names
        no English kind: its answer is due only when it asks for a value of each record and
        every record of one tool gives the one it asks for (the field the model picks,
        :meth:`~FieldReader.picked_number`): "各有多少名学员？" over two fencing schools'
        records, which the small model answered by copying the question out — or, over one
        call's one record, when the model picks its field ("每周开多少节滑冰课？" over a
        rink's record: "lessons per week"; the small model stated the year it opened).
        Never while the question states a number no step has used and a tool takes numbers:
        the number found is an operand of a step to come."""
        if not self.policy.answer_when_found or self.job.text_schema is not None:
            return False
        question = last_question(self.job.messages)
        if asks_combination(question):
            return False
        if self._numbers_waiting():  # "… after 12 years?": the number found is an operand
            return False
        if writes_spaceless(question):
            if self.asked_values() is not None or self.chained_field() is not None:
                return True
            if self._one_record() and self.policy.chains_lead_on and self._leads_on():
                return False  # "那家厂有多少名员工？" of the supplier the record names
            return self._one_record() and self.asked_field() is not None
        if self._kind_unanswered(question, self._answered_records()):
            return False
        return self.asked_field() is not None or self.asked_values() is not None

    def _answered_records(self) -> list[tuple[str, str]]:
        """``(tool, result)`` of each call of this turn that answered, in order."""
        calls, results = turn_calls(self.job.messages)
        return [
            (c["function"]["name"], r)
            for c, r in zip(calls, results, strict=True)
            if r is not None and not is_error(r)
        ]

    def _kind_unanswered(self, question: str, answered: Sequence[tuple[str, str]]) -> bool:
        """Whether an offered tool whose kind the question names has not answered yet ("the
        canal lock" before ``get_canal_lock`` did)."""
        tools = {tool for tool, _ in answered}
        return any(says_kind(question, t) and t not in tools for t in self.job.tool_names)

    def asked_words(self) -> str | None:
        """After results, in a question in Latin letters that asks for no number (no
        combination, no order, no "how many", "what year", "when"): the words the turn's
        last record gives under the label the question says
        (:func:`~toolkit.local.decision.records.asked_text`, :attr:`~ToolPolicy.asked_texts`),
        when no earlier record of the turn gives any (or the last is the record a chain
        reached: :func:`~toolkit.local.decision.naming.reached_record`, "what city is that
        nursery in?" past the distillery's own city) and every offered tool whose kind the
        question names has answered. "Who's the head falconer at that place?" once the
        falconry centre's record ("head falconer: Tobias Venn") is in: the small model had
        named the centre as its own head falconer."""
        if not (self.policy.answer_when_found and self.policy.asked_texts):
            return None
        question = last_question(self.job.messages)
        if self.job.text_schema is not None or writes_spaceless(question):
            return None
        if asks_combination(question) or asked_order(question) is not None:
            return None
        if _ASKS_QUANTITY.search(question) is not None:
            return None  # a number is asked ("How many smiths…?"), not words
        answered = self._answered_records()
        if not answered or self._kind_unanswered(question, answered):
            return None
        ignore = self._tool_words()
        found = [asked_text(record, question, ignore) for _, record in answered]
        reached = reached_record(self.job.messages)
        last = reached is not None and reached[1] == answered[-1][1]  # a chain's last record
        if any(words is not None for words in found[:-1]) and not last:
            return None  # each record's words, or the way to the thing asked about
        return found[-1]

    def _leads_on(self) -> bool:
        """Whether a Chinese question points at a thing by a demonstrative and its measure
        word ("那家厂", "这座塔") while the turn's one record names another thing
        (:func:`~toolkit.local.decision.chains.linked_names`): the thing pointed at is the
        one the record names, a chain's next step, not the record's own."""
        question = last_question(self.job.messages)
        if _POINTED_AT.search(question) is None:
            return False
        calls, results = turn_calls(self.job.messages)
        asked = {str(v).casefold() for c in calls for v in arguments_of(c).values()}
        return bool(linked_names(results[0] or "", asked, question))

    def _one_record(self) -> bool:
        """Whether this turn has one call, answered with a record (no chain passed through
        another record to it, no other record beside it)."""
        calls, results = turn_calls(self.job.messages)
        return len(calls) == 1 and results[0] is not None and not is_error(results[0])

    def _numbers_waiting(self) -> bool:
        """Whether the question states a number no step has used yet, while a tool that
        takes numbers is offered: the record's number is an operand of a step still to come
        ("how many boats will it have built after 12 years?" over "7 boats per year")."""
        numeric = any(
            (p or {}).get("type") in ("number", "integer")
            for t in self.job.tools
            for p in ((t["function"].get("parameters") or {}).get("properties") or {}).values()
        )
        return numeric and bool(unused_numbers(self.job.messages, words=False))

    def checked_text(self) -> Iterator[Event]:
        """A text answer that is checked before it is given (``tool_choice="auto"``).

        The text is kept back until it is complete (or runs into a loop, cut at its start) and
        then read for what shows the model should have called a tool: a call written out (a
        ``{`` and a quote: generation stops there), a repeat of the question, or — before any
        tool result — a number nobody stated while the model would name an offered tool. Then
        the answer is decoded as calls instead (for a number nobody stated, only a sound call:
        else the text stands, :attr:`~ToolPolicy.known_numbers_kept`); otherwise the text is
        given as it is. A call
        written out while the model would hardly name an offered tool
        (``foreign_call_threshold``) is of a function these tools do not have: the answer is
        the text before it, when there is any.
        """
        if self.kept_text is not None:  # written before a sound call was looked for
            text, reason = self.kept_text
            text = self._answering(text)
            if text:
                yield ContentDelta(text)
            yield self._finished(reason, "text")
            return
        text, leaked, reason = self._written_text(self.tokens, ban_first=self._not_text())
        before = text[: leaked.start()].strip() if leaked else ""
        text = text.strip()
        if not leaked and self._wordless(text):
            text, reason = self._plain_answer(), "stop"  # "1" for the months of a year
        echo = bool(text) and folded(text) == folded(last_question(self.job.messages))
        if leaked or echo or self._invents_numbers(text):
            self.measure_names()
            p_name = 1.0 if self.p_name is None else self.p_name
            # A call written out while the model would hardly name any offered tool is of a
            # function these tools do not have: the words before it are the answer.
            foreign = leaked and p_name < self.policy.foreign_call_threshold and bool(before)
            if not foreign and (leaked or echo or p_name >= self.policy.name_threshold):
                if not (leaked or echo) and self._known_number_asked():
                    # A number from what the model knows: a sound call of a fitting tool
                    # beats it, but no call of numbers nobody gave does.
                    self.kept_text = (text, reason or "stop")
                    yield from self.calls(None, sound_only=True)
                    return
                if not (leaked or echo) and self._asks_known_number():
                    # A call may still replace it; should none at all be made, it stands.
                    self.kept_text = (text, reason or "stop")
                yield from self.calls(None)
                return
            if foreign:
                text = before
        reason = reason or "stop"
        if self._writes_call_out(text):
            yield from self.calls(None)  # the call, written out in a form no parser reads
            return
        if (
            self._describes_call(text)
            or self._orders_unlooked(text)
            or self._values_unlooked(text)
            or self._refused_unlooked(text)
        ):
            self.kept_text = (text, reason)  # the answer, should no sound call be found
            yield from self.calls(None, sound_only=True)
            return
        text = self._answering(text)
        if text:
            yield ContentDelta(text)
        yield self._finished(reason, "text")

    def _answering(self, text: str) -> str:
        """Before any result, a text answer that talks about the tools instead of answering —
        names an offered tool, a function to call or its name, or writes code or markup
        ("Mark the function as "ThinQ_Connect" and call it", "you can use the `math.sin`
        function … Here's the JSON object") — written again as though no tool were offered
        (:attr:`~ToolPolicy.tool_talk_answered`); the text as it is otherwise, or when the
        answer without the tools talks about them too."""
        if not self.policy.tool_talk_answered or not text or has_results(self.job.messages):
            return text
        if self.job.text_schema is not None or not self._talks_about_tools(text):
            return text
        plain = self._plain_answer()
        return plain if plain and not self._talks_about_tools(plain) else text

    def _talks_about_tools(self, text: str) -> bool:
        return talks_about_tools(text, self.job.tool_names)

    def _writes_call_out(self, text: str) -> bool:
        """Before any result, and once per request: whether a text answer names an offered
        tool in code (:func:`~toolkit.local.decision.mentions.writes_out`,
        :attr:`~ToolPolicy.named_tool_calls`): the answer is decoded as calls then, as a
        call written out in JSON is."""
        return self._reads_mentions() and bool(writes_out(text, self.job.tool_names))

    def _describes_call(self, text: str) -> bool:
        """Before any result, and once per request: whether a text answer names an offered
        tool (:attr:`~ToolPolicy.named_tool_calls`), the call it describes not yet tried."""
        return self._reads_mentions() and bool(named_tools(text, self.job.tool_names))

    def _orders_unlooked(self, text: str) -> bool:
        """Before any result, once per request: whether a text answer says which value is
        larger ("老堰的工人最少") when the question asks it
        (:func:`~toolkit.local.decision.asking.asked_order`) and the model would name an
        offered tool with at least :attr:`~ToolPolicy.name_threshold`: the order is a fact no
        tool gave, so a sound call is looked for first
        (:attr:`~ToolPolicy.comparisons_looked_up`)."""
        if not self.policy.comparisons_looked_up or not text or not self._first_read():
            return False
        question = last_question(self.job.messages)
        if asked_order(question) is None:
            return False
        self.measure_names()
        if self.p_name is not None and self.p_name >= self.policy.name_threshold:
            return True
        # or the question names things of a lookup's kind, and says the kind ("Between
        # Pellory and Dunmarrow, which clockmaker has built more clocks?"), or lists names
        if self.policy.listed_names_looked_up and names_listed(question, self.job.schemas):
            return True
        return self.policy.named_kinds_compared and names_of_a_kind(question, self.job.schemas)

    def _values_unlooked(self, text: str) -> bool:
        """Before any result, once per request: whether a text answer states numbers nobody
        gave while the question names things of an offered lookup's kind, saying the kind
        (:func:`~toolkit.local.decision.kinds.names_of_a_kind`: "I'm torn between Wrenfield
        and Lirrick for a new harp. How long is the waiting list at each?" answered "10
        minutes" and "5 minutes" beside ``harp_workshop_info``), or, in Chinese, writes a
        business's name (:func:`~toolkit.local.decision.kinds.writes_place_name`), or, in
        Latin letters, a name whose own words state a lookup's kind
        (:func:`~toolkit.local.decision.kinds.named_things`: "If every worker from Grayshore
        Saltworks and every worker from Whitlow Flats turns up, how many seats do we need?"
        answered "2 + 2 = 4" beside ``salt_pan_info``): the values
        are facts no tool gave, so a sound call is looked for first
        (:attr:`~ToolPolicy.named_values_looked_up`).
        """
        if not self.policy.named_values_looked_up or not text or not self._first_read():
            return False
        question = last_question(self.job.messages)
        if not self._invents_numbers(text):
            return False
        if writes_spaceless(question) and writes_place_name(question):
            return True  # "拉瑟威克簧片风箱行给一家旋转木马工坊供应音乐…": a business named
        if self.policy.listed_names_looked_up and names_listed(question, self.job.schemas):
            return True  # "between Dunmorrow and Wrennock", of no kind the question says
        if names_of_a_kind(question, self.job.schemas):
            return True
        # a name whose own words state a lookup's kind ("every worker from Grayshore
        # Saltworks" beside ``salt_pan_info``), though the question says no kind apart
        lookups = lookup_keys(self.job.schemas)
        return bool(lookups) and bool(named_things(question, lookups))

    def _refused_unlooked(self, text: str) -> bool:
        """Before any result, once per request: whether a text answer declines ("I'm sorry,
        but I can't assist with that.": :func:`~toolkit.local.decision.mentions.refuses`)
        while the model would name an offered tool with at least
        :attr:`~ToolPolicy.refusal_name_threshold`: a sound call is looked for first
        (:attr:`~ToolPolicy.refusals_looked_up`); the text stands should none be found."""
        if not self.policy.refusals_looked_up or not text or not self._first_read():
            return False
        if not refuses(text):
            return False
        self.measure_names()
        return self.p_name is not None and self.p_name >= self.policy.refusal_name_threshold

    def _reads_mentions(self) -> bool:
        """Whether a text answer's mentions of tools are read: before any result, once per
        request (:attr:`~ToolPolicy.named_tool_calls`)."""
        return self.policy.named_tool_calls and self._first_read()

    def _first_read(self) -> bool:
        """Whether a text answer is read for a call it stands for: before any result, and
        only while no sound call was looked for in this request."""
        return not self.sound_tried and not has_results(self.job.messages)

    def _known_number_asked(self) -> bool:
        """Whether a question that writes no number in digits asks for one the model may
        know ("一小时有多少分钟？"), not for a tool's sum of the user's figures ("the sales
        tax on $59.99", answered "$14.99" in text): :attr:`~ToolPolicy.known_numbers_kept`."""
        return self.policy.known_numbers_kept and _writes_no_digit(self.job.messages)

    def _asks_known_number(self) -> bool:
        """Whether a text answer stating a number nobody gave, to a question that writes no
        number in digits, stands when no call at all is made in its place
        (:attr:`~ToolPolicy.known_numbers_stand`)."""
        return self.policy.known_numbers_stand and _writes_no_digit(self.job.messages)

    def _wordless(self, text: str) -> bool:
        """Before any tool result: whether a text answer is only a number or signs, no word
        (:attr:`~ToolPolicy.worded_answers`)."""
        if not self.policy.worded_answers or self.job.text_schema is not None:
            return False
        return bool(text) and not _LETTER.search(text) and not has_results(self.job.messages)

    def _off_the_question(self) -> bool:
        """Whether every result of this turn failed off the question
        (:func:`~toolkit.local.decision.turn.failed_off_the_question`,
        :attr:`~ToolPolicy.off_question_failures_plain`): the answer is then the one written
        as though no tool were offered, unless it states a number the question does not (a
        price or a temperature no tool gave)."""
        if not self.policy.off_question_failures_plain or self.job.text_schema is not None:
            return False
        return failed_off_the_question(self.job.messages)

    def _plain_answer(self, asked_only: bool = False) -> str:
        """The model's answer to the conversation written without the tools' prompt: with
        the tools before it the small model answers "How many months are in a year?" with
        "1", without them "There are 12 months in a year." A call it writes there is
        nothing (the text stops at it). With ``asked_only``, the conversation up to the
        question (this turn's calls and results left out)."""
        messages = self.job.messages
        if asked_only:
            messages = messages[: turn_start(messages) + 1]
        tokens = self.engine.tokenize(render_prompt(messages, None, template=self.template))
        text, opening, _ = self._written_text(tokens)
        return (text[: opening.start()] if opening else text).strip()

    def _written_text(
        self, tokens: list[int], ban_first: Any = None
    ) -> tuple[str, re.Match[str] | None, str | None]:
        """A text answer decoded after ``tokens`` under the text grammar, kept back until it
        is complete: stopped at a call written out (whose opening is returned), cut at the
        start of a small model's loop ("0.000000…", reason "stop"). Returns the text, the
        opening and the finish reason."""
        generation = self.engine.generate(
            tokens,
            self._options(),
            grammar=text_grammar(forbidden=self._forbidden()),
            cancel=self.cancel,
            ban_first=ban_first,
        )
        text, leaked, reason = "", None, None
        for piece in generation:
            text += piece
            leaked = _CALL_OPENING.search(text)
            if leaked:
                generation.close()
                break
            loop = repetition_start(text)
            if loop is not None:
                generation.close()
                text, reason = text[:loop], "stop"
                break
        self.used += generation.completion_tokens
        return text, leaked, reason or generation.finish_reason

    def _invents_numbers(self, text: str) -> bool:
        """Before any tool result: whether the text states a number nobody gave."""
        if has_results(self.job.messages):
            return False
        known = known_numbers(conversation_text(self.job.messages))
        return bool(ungrounded_numbers({"text": text.casefold()}, known))

    def final_answer(
        self,
        result: str | None = None,
        stated: str | None = None,
        worked: str | None = None,
        words: str | None = None,
    ) -> Iterator[Event]:
        """The answer once this turn's tools have answered (``tool_choice="auto"``).

        Written from the final-answer step's prompt (which names the ``result`` that answers
        the question, when it is known) and checked: an answer that copies the question out
        is written again, neither opening nor ending as the question does; when it states a
        number the question and the results never stated (in any spelling of its value, with
        or without its sign: "84 years older" for a difference of -84.0 is no new number), the
        model did arithmetic a tool should do, so the answer is decoded as calls instead (and,
        should no call do, written again stating only numbers that were stated). An answer
        that leaves out the ``result``, or the ``stated`` result (the answer's, though the
        prompt does not name it: a last step that combined the results), is written again
        stating it (:attr:`~ToolPolicy.state_result`).

        Args:
            result: The result that answers the question, named in the prompt.
            stated: The result the answer must state, not named in the prompt.
            worked: How the ``result`` was worked out ("245 * 3 = 735"), named in the prompt
                in its place: the answer then states the record's number it rests on too.
            words: Words the answer must state (a record's "head falconer: Tobias Venn"); an
                answer that leaves them out is written again opening with them.
        """
        self.result = worked if worked is not None and result is not None else result
        last = result if result is not None else stated if stated is not None else None
        self.parts = self.part_results(last if last is not None else self.last_result())
        events = list(self.text(from_results=True, any_numbers=True))
        answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        ends = self.echo_ends(answer)
        if ends:  # the question copied out is no answer
            events = list(self.text(from_results=True, any_numbers=True, avoid=ends))
            answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        events = self._restating(events, result if result is not None else stated, ends)
        events = self._stating_parts(events, ends)
        answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        if words is not None and words.casefold() not in answer.casefold():
            events = list(self.text(from_results=True, any_numbers=True, avoid=ends, opening=words))
        if words is not None:  # the sentence that states them, not the records recited after
            events = first_sentence(events, words)
        events = without_label(events)
        answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        texts = self._stated_texts() or []
        grounds = {magnitude(n) for t in texts for n in with_roundings(said_numbers(t))}
        said = [magnitude(n) for n in said_numbers(answer)]
        if self.policy.grounded_numbers and any(n not in grounds for n in said):
            self.measure_names()
            yield from self.calls(None)
            return
        if worked is not None and result is not None and self.policy.working_shown:
            spaceless = writes_spaceless(last_question(self.job.messages))
            events = with_working(events, worked, spaceless)
        yield from events

    def _stating_parts(self, events: list[Event], ends: Sequence[str]) -> list[Event]:
        """The answer's events, written again while it leaves out a part's result
        (:meth:`part_results`): each time stating the first part left out, the parts before
        it and the question's numbers allowed before it — once per part at most."""
        asked = _WRITTEN_NUMBER.findall(last_question(self.job.messages))
        for _ in self.parts:
            answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
            stated = [_states(answer, result_spellings(part)) for part in self.parts]
            if all(stated) or not self.policy.state_result:
                break
            left = stated.index(False)
            before = [s for part in self.parts[:left] for s in result_spellings(part)]
            events = list(
                self.text(
                    from_results=True,
                    avoid=ends,
                    required=result_spellings(self.parts[left]),
                    passing=[*before, *asked],
                )
            )
        return events

    def part_results(self, result: str | None) -> list[str]:
        """The results that answer a question of several parts, one each, in order
        (:attr:`~ToolPolicy.each_part_stated`): "How many shades does it make in a week, and
        … how many crates does a week's output fill?" (:func:`~toolkit.local.decision.
        asking.asked_parts`: two) answered by ``times(14, 6)`` = 84 and then
        ``split_evenly(84, 4)`` = 21 has the parts 84 and 21 — the turn's last results that
        are one number each, as many as the parts asked, the last of them ``result``. The
        small model, named the last result alone, left the first part out ("一个架子上的奶酪
        总共是630公斤。" for "每个架子放几个？… 一个架子上的奶酪总共多重？"). None when the
        question asks one thing, or fewer results than its parts came."""
        if result is None or not self.policy.each_part_stated:
            return []
        parts = asked_parts(last_question(self.job.messages))
        if parts < 2:
            return []
        texts = self._turn_results()
        numbers = [t for t in texts if not is_error(t) and result_spellings(t)]
        if len(numbers) < parts or numbers[-1] != result.strip():
            return []
        return numbers[-parts:]

    def _asked_numbers(self) -> set[float]:
        """The numbers the question states, by value without their signs."""
        return {magnitude(n) for n in said_numbers(last_question(self.job.messages))}

    def echo_ends(self, answer: str) -> list[str]:
        """When an answer copies the question out, what its rewrite may neither open nor end
        with: the question's opening and ending, and a question mark; else nothing. An answer
        that states a number the question does not is no copy
        (:attr:`~ToolPolicy.numbered_answers_no_echo`): "蕨岭羊驼徒步比卵石羊驼徒步多养了14头
        羊驼。" answers "…多养了几头羊驼？" in its words, and written again avoiding them it
        had come out as "蕨岭羊.camel徒步"."""
        asked = last_question(self.job.messages).strip()
        question, said = folded(asked), folded(answer)
        if len(question) < _ECHO:
            return []
        # the question whole, or all but a word changed ("分到几本" copied as "分到多少本")
        copied = said.startswith(question) or (
            said[:_ECHO] == question[:_ECHO]
            and difflib.SequenceMatcher(None, said, question).ratio() >= _ECHO_RATIO
        )
        if not copied:
            return []
        if self.policy.numbered_answers_no_echo and _states_beyond(answer, self._asked_numbers()):
            return []  # it states a number the question does not: it answers in its words
        return [asked[:_ECHO], asked.rstrip("?？!！。. ")[-_ECHO:], "?", "？"]

    def stating_result(self, events: list[Event], ends: Sequence[str]) -> list[Event]:
        """A text answer after results, written again to state the last step's result when
        that step combined the results and the answer leaves it out
        (:attr:`~ToolPolicy.state_result`): a word problem's chain ended at 15, and the small
        model, still wanting a call, wrote the question out again."""
        known = self.last_result() if results_combined(self.job.messages) else None
        if known is not None:
            self.result = known  # named in the final-answer step's prompt, as the answer
        return self._restating(events, known, ends)

    def _restating(
        self, events: list[Event], known: str | None, ends: Sequence[str]
    ) -> list[Event]:
        """The answer's events, written again stating ``known`` (the result that answers
        the question) before any other number when the answer left it out
        (:attr:`~ToolPolicy.state_result`); as they are otherwise."""
        answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        spellings = result_spellings(known)
        if not spellings or not self.policy.state_result or _states(answer, spellings):
            return events
        return list(self.text(from_results=True, avoid=ends, required=spellings))

    def asked_field(self) -> str | None:
        """The number of this turn's records that the question asks for by its label
        (:func:`~toolkit.local.decision.records.asked_number`,
        :attr:`~ToolPolicy.asked_fields`), when exactly one answered record has it: the
        record a chain's last step looked up ("How many boats pass through that lock each
        day?" after the tannery's record and the lock's). ``None`` when none has it, or
        several (each value is asked for, or a combination of them), or only a record before
        the last (the question asks the way to the entity, then of the entity). A Chinese
        question over one record alone gets its field as the model picks it
        (:meth:`~FieldReader.picked_number`), as for the values of each. ``None`` too when a
        call took the number (``divide(72, 8)``): the answer is a later step's.
        """
        if not self.policy.asked_fields:
            return None
        chained = self.chained_field()
        if chained is not None:
            return chained
        turn = self.job.messages[turn_start(self.job.messages) :]
        answered = [m for m in turn if m.get("role") == "tool" and not failed(m)]
        records = [content_text(m.get("content")) for m in answered]
        records = [r for r in records if len(labelled_numbers(r)) >= 2]  # a number to choose
        if not records:
            return None
        # One record alone: a Chinese question's field is the model's pick, as for each value.
        found = self._asked_of(records, picks=len(records) == 1)
        if sum(n is not None for n in found) != 1:
            return None
        number = found[-1]  # a chain's last record's, not a number of the records before it
        calls, _ = turn_calls(self.job.messages)
        if number is not None and any(  # a later step took it: the answer is that step's
            magnitude(number) in {abs(n) for n in numbers_of(arguments_of(c))} for c in calls
        ):
            return None
        return number

    def _turn_results(self) -> list[str]:
        """The texts of this turn's tool results, stripped."""
        turn = self.job.messages[turn_start(self.job.messages) :]
        return [content_text(m.get("content")).strip() for m in turn if m.get("role") == "tool"]

    def _asked_of(self, records: Sequence[str], *, picks: bool = False) -> list[str | None]:
        """The number each record gives for the label the question names (its English reading
        for a Chinese question), the words of the offered tools' names naming things; with
        ``picks`` (the question asks for a number of each record), a Chinese question's
        field as the model picks it first (:meth:`~FieldReader.picked_number`: the reading is
        asked for only when the model picks none)."""
        tool_words = self._tool_words()
        question = last_question(self.job.messages)
        asking: str | None = None  # the reading's sentence that asks, not the way there
        found: list[str | None] = []
        for record in records:
            # one record alone: the one year it states, when the question asks for a year
            picked = asked_year(record, question) if len(records) == 1 else None
            if picked is None and picks:
                picked = self.picked_number(record)
            if picked is None and asking is None:
                asking = asking_sentence(self.reading())
            found.append(picked or asked_number(record, asking or "", tool_words))
        return found

    def _results_copied(self, answer: str) -> list[str]:
        """When an answer is two lines or more, each one of this turn's results all but whole —
        the results copied out, not an answer (:attr:`~ToolPolicy.answer_in_sentences`) —
        or one line of two results or more and nothing else but punctuation and numbers
        (:attr:`~ToolPolicy.one_line_recitals`: "Cloudstep Terrace: open to visitors
        08:00–17:30, Misty Ridge Terrace: open to visitors 09:00–18:00, …"), what a sentence
        answer leaves out: the line break, a question mark (the question copied out before
        the results) and the colon the results write after their names, with the space after
        it; else nothing."""
        if not self.policy.answer_in_sentences:
            return []
        results = self._turn_results()
        lines = [line.strip() for line in answer.splitlines() if line.strip()]
        whole = [any(line in r and len(line) >= 0.8 * len(r) for r in results) for line in lines]
        recited = self.policy.one_line_recitals and _recites(answer, results)
        if not recited and (len(lines) < 2 or not all(whole)):
            return []
        # the colon after a name ("Cloudstep Terrace:"), with the space after it: a time's
        # colon ("08:00") stays
        separators = {m.group() for r in results if (m := re.search(r"[:：]\s*", r))}
        named = {m[1] for r in results if (m := re.match(r"\s*([^:：\n]{2,80}?[:：])", r))}
        return ["\n", "?", "？", *sorted(separators), *sorted(named)]

    def _results_listed(self) -> str | None:
        """This turn's results written "name: what it says" each, listed as the question's
        language lists ("Cloudstep Terrace (open to visitors 08:00–17:30), …"); ``None``
        when a result is not so written."""
        entries = [_NAMED_RESULT.match(r) for r in self._turn_results()]
        if len(entries) < 2 or any(e is None or "\n" in e[2] for e in entries):
            return None
        question = last_question(self.job.messages)
        return listed_values([(e[1], e[2]) for e in entries if e is not None], question)

    def _stated_texts(self) -> list[str] | None:
        """The texts an answer's numbers must come from (``None``: any number will do)."""
        if not self.policy.grounded_numbers:
            return None
        return [
            content_text(m.get("content"))
            for m in self.job.messages
            if m.get("role") != "assistant"
        ]

    def _stated_numbers(self) -> list[str] | None:
        texts = self._stated_texts()
        return None if texts is None else stated_numbers(texts)

    def _answer_numbers(self) -> list[str] | None:
        """The numbers a text answer from results may state: those stated, and the roundings
        of a long decimal (:func:`~toolkit.local.decision.numbers.with_roundings`)."""
        stated = self._stated_numbers()
        return None if stated is None else with_roundings(stated)

    def _forbidden(self) -> list[str]:
        """What a text answer may not contain: call JSON, or a call written as ``name(``."""
        words = list(self.policy.forbidden_in_text)
        return words + [f"{name}(" for name in self.job.tool_names]

    def _answer_from_results(self, opening: str = "") -> list[int]:
        """The final-answer step's prompt (:func:`~toolkit.local.decision.prompt.
        answer_messages`), or with that step turned off the prompt with
        :func:`~toolkit.local.decision.prompt.results_nudge` at its end (the same prompt if
        the template refuses a late system message); ``opening``, the answer's given start,
        after it."""
        own_step = self.policy.answer_step and self.job.text_schema is None
        step = (
            answer_messages(
                self.job.messages,
                compare=self.policy.compare_results,
                result=self.result,
                parts=self.parts,
                reading=self.reading,
                picked=self.picked_number,
                values=self.asked_entries(),
                difference=self.difference,
            )
            if own_step
            else None
        )
        if step is not None:
            return self.engine.tokenize(render_prompt(step, None, template=self.template) + opening)
        nudge = results_nudge(self.job.messages)
        messages = [*self.job.messages, {"role": "system", "content": nudge}]
        try:
            text = build_prompt(replace(self.job, messages=messages), self.policy, self.template)
        except PromptError:
            given = self.engine.tokenize(opening, bos=False) if opening else []
            return [*self.tokens, *given]
        return self.engine.tokenize(text + opening)

    def text(
        self,
        *,
        from_results: bool = False,
        any_numbers: bool = False,
        avoid: Sequence[str] = (),
        required: Sequence[str] = (),
        passing: Sequence[str] = (),
        only: Sequence[str] = (),
        opening: str = "",
    ) -> Iterator[Event]:
        if from_results and self._off_the_question():
            plain = self._plain_answer(asked_only=True)  # nothing of the question looked up
            if plain and not _states_beyond(plain, self._asked_numbers()):
                yield ContentDelta(plain)
                yield self._finished("stop", "text")
                return
        structured = self.job.text_schema is not None
        plain = bool(self.job.tools) and self.job.constrained and not structured
        # No JSON at all in a text answer to a tool prompt, nor what ``avoid`` names.
        forbidden = [*self._forbidden(), "{", *avoid]
        # An answer from results states only numbers the question or the results stated.
        numbers = self._answer_numbers() if from_results and not any_numbers else None
        if only:  # the asked values alone, and the question's own numbers
            numbers = [*only, *_WRITTEN_NUMBER.findall(last_question(self.job.messages))]
        opening = opening if from_results and plain else ""  # given: the rest is decoded
        prompt = self._answer_from_results(opening) if from_results else self.tokens
        generation = self.engine.generate(
            prompt,
            self._options(),
            grammar=answer_text_grammar(
                self.job,
                forbidden=forbidden,
                numbers=numbers,
                required=required,
                passing=passing,
                plain_start=not opening,
            ),
            cancel=self.cancel,
            ban_first=self._not_text() if plain and not opening else None,
        )
        started, scored, written, reason = bool(opening), 0, opening, None
        for piece in generation:
            if not started:
                piece = piece.lstrip()
                started = bool(piece)
            if not plain:
                if piece:
                    scores = tuple((generation.logprobs or [])[scored:])
                    scored += len(scores)
                    yield ContentDelta(piece, scores)
                continue
            # A text answer to a tool prompt is one sentence, kept back until it is complete:
            # a small model's loop (the same few characters over and over) is cut at its start.
            written += piece
            loop = repetition_start(written)
            if loop is not None:
                generation.close()
                written, reason = written[:loop], "stop"
                break
        if from_results and self.policy.grounded_numbers:
            written = signs_restored(written, self._stated_texts() or [])
        copied = self._results_copied(written) if from_results and "\n" not in avoid else []
        if copied:
            # The results copied out line by line are no answer: written again as a sentence,
            # without a line break or the separator the results put after their names.
            again = [*avoid, *copied]
            events = list(
                self.text(
                    from_results=True,
                    any_numbers=any_numbers,
                    avoid=again,
                    required=required,
                    passing=passing,
                    opening=opening,
                )
            )
            rewritten = "".join(e.text for e in events if isinstance(e, ContentDelta))
            if self.policy.one_line_recitals:  # every number the copied answer stated
                kept = len(set(said_numbers(rewritten))) >= len(set(said_numbers(written)))
            else:
                kept = bool(said_numbers(rewritten))
            if kept or not said_numbers(written):
                self.used += generation.completion_tokens
                yield from events
                return
            listed = self._results_listed() if self.policy.one_line_recitals else None
            if listed is not None:  # each result after its name, as a list of them
                self.used += generation.completion_tokens
                yield ContentDelta(listed, ())
                yield self._finished("stop", "text")
                return
            # The sentence lost the values the results stated: the results copied out are
            # the better answer.
        asked = self.asked_field() if plain and from_results and not required else None
        spellings = result_spellings(asked)
        if spellings and not _states(written, spellings):
            # The record's number the question asks for by its label is left out: the answer
            # is written again, stating it first but for the question's own numbers ("Route 7
            # has 38 stops"; a plan's result, stated the same way, keeps the question's numbers
            # out: with them the small model copied the question out before it).
            yield from self._text_again(
                generation.completion_tokens,
                any_numbers=any_numbers,
                avoid=avoid,
                required=spellings,
                passing=_WRITTEN_NUMBER.findall(last_question(self.job.messages)),
                opening=opening,
            )
            return
        entries = self.asked_entries() if plain and from_results and not required else None
        values = [number for _, number in entries or []]
        asked_numbers = self._asked_numbers()
        if values and not only and _short_of(written, values, asked_numbers):
            # A value of each record asked for, some left out or another label's numbers
            # stated: written again with those values as the only numbers it may state.
            events = list(
                self.text(
                    from_results=True,
                    avoid=avoid,
                    only=[*values],
                    passing=passing,
                    opening=opening,
                )
            )
            rewritten = "".join(e.text for e in events if isinstance(e, ContentDelta))
            more, before = _stated_count(rewritten, values), _stated_count(written, values)
            kept = more > before or (
                more == before and not _short_of(rewritten, values, asked_numbers)
            )
            if kept:
                written = rewritten
            if self.policy.listed_values and _stated_count(written, values) < len(values):
                # Neither the answer nor its rewrite states each value ("各有38名装卸工" for
                # 38 and 45): the answer lists them, each after what its call asked about.
                self.used += generation.completion_tokens
                question = last_question(self.job.messages)
                yield ContentDelta(listed_values(entries or [], question), ())
                yield self._finished("stop", "text")
                return
            if kept:
                self.used += generation.completion_tokens
                yield from events
                return
        said = self._reached_unnamed(written) if plain and from_results and not opening else None
        if said is not None:
            # The record a chain reached is left out ("The studio has 1425 metres of lead"):
            # the answer is written again opening with its name — kept unless it copies the
            # question out or asks one after the name ("罗斯卡罗靶场的门票一共要多少钱？").
            events = list(
                self.text(
                    from_results=True,
                    any_numbers=any_numbers,
                    avoid=avoid,
                    required=required,
                    passing=passing,
                    only=only,
                    opening=said,
                )
            )
            named = "".join(e.text for e in events if isinstance(e, ContentDelta)).strip()
            if not (self.echo_ends(named) or named.endswith(("?", "？"))):
                self.used += generation.completion_tokens  # the answer it replaces
                yield from events
                return
        if written.strip():
            yield ContentDelta(written.rstrip(), tuple(generation.logprobs or ()))
        self.used += generation.completion_tokens
        yield self._finished(reason or generation.finish_reason or "stop", "text")

    def _text_again(self, spent: int, **arguments: Any) -> Iterator[Event]:
        """The answer from the results written again (``arguments``: :meth:`text`'s), the
        ``spent`` tokens of the answer it replaces counted."""
        self.used += spent
        yield from self.text(from_results=True, **arguments)

    def _reached_unnamed(self, answer: str) -> str | None:
        """The name of the record this turn's chain reached, as the answer is to state it, when
        the answer leaves it out (:attr:`~ToolPolicy.name_reached`,
        :mod:`~toolkit.local.decision.naming`); ``None`` when it names it or the turn reached
        no record by a chain."""
        if not self.policy.name_reached:
            return None
        reached = reached_record(self.job.messages)
        if reached is None or names_record(answer, *reached):
            return None
        return said_name(*reached, writes_spaceless(last_question(self.job.messages)))

    def free(self) -> Iterator[Event]:
        generation = self.engine.generate(self.tokens, self._options(), cancel=self.cancel)
        stream = ToolCallStream(self.job.tool_names, lenient=True)
        count = 0
        for piece in generation:
            for event in stream.feed(piece):
                count += isinstance(event, ToolCallEvent)
                yield event
        for event in stream.finish():
            count += isinstance(event, ToolCallEvent)
            yield event
        self.used += generation.completion_tokens
        reason = "tool_calls" if count else (generation.finish_reason or "stop")
        yield self._finished(reason, "free")


#: How many characters of the question a final answer must copy, from its start, to echo it;
#: a second try may write neither the question's first nor its last this many.
_ECHO = 4
#: How alike an answer must be to the question to be a copy of it, a word changed.
_ECHO_RATIO = 0.85


#: A number as a question writes it ("7", "1,200", "2.5").
_WRITTEN_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")

#: A call written out in a text answer: a brace, then a quoted key.
_CALL_OPENING = re.compile(r"\{\s*[\"']")
#: A letter of any script: a word's mark in a text answer.
_LETTER = re.compile(r"[^\W\d_]")


#: A result written "name: what it says", what it says to its end, lines and all (a result
#: of several lines is no entry of a one-line list).
_NAMED_RESULT = re.compile(r"([^:：\n]{2,80}?)\s*[:：]\s*(\S.*)", re.DOTALL)


def _recites(answer: str, results: Sequence[str]) -> bool:
    """Whether an answer is two tool results or more copied out, and nothing else but
    numbers and punctuation."""
    rest, copied = answer, 0
    for result in sorted((r.strip() for r in results if r.strip()), key=len, reverse=True):
        if result in rest:
            rest, copied = rest.replace(result, " "), copied + 1
    return copied >= 2 and not re.sub(r"[\d\s\W_]+", "", rest)


def _writes_no_digit(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the last question writes no number in digits."""
    return re.search(r"\d", last_question(messages)) is None


def with_working(events: list[Event], worked: str, spaceless: bool) -> list[Event]:
    """An answer's events, with how its result was worked out after them ("(245 * 3 = 735)")
    when the answer leaves out the record's number it rests on, or the result
    (:attr:`~ToolPolicy.working_shown`).

    Args:
        events: The answer's events.
        worked: The working, each record's number with its label ("245 (ticket price eur) * 3
            = 735").
        spaceless: Whether the question is written without spaces (Chinese brackets then).

    Returns:
        The events, the working added when it is needed.
    """
    plain = re.sub(r"\s*\([^()]*\)", "", worked)
    answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
    rested = [*re.findall(r"(\d+(?:\.\d+)?) \(", worked), worked.rsplit("=", 1)[-1].strip()]
    needed = [n for n in rested if not _states(answer, [n])]
    if not needed:
        return events
    shown = ContentDelta(f"（{plain}）" if spaceless else f" ({plain})")
    at = next((i for i, e in enumerate(events) if not isinstance(e, ContentDelta)), len(events))
    return [*events[:at], shown, *events[at:]]


def first_sentence(events: list[Event], words: str) -> list[Event]:
    """An answer's events with its text cut after its first sentence when that states the
    ``words`` asked for: the small model runs on, reciting the records ("Ada Crane is the
    master smith at the forge. She is also the master smith at …").

    Args:
        events: The answer's events.
        words: The words the answer states.

    Returns:
        The events, the text after the first sentence's end left out.
    """
    answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
    end = _SENTENCE_END.search(answer)
    if end is None or words.casefold() not in answer[: end.end()].casefold():
        return events
    rest = [e for e in events if not isinstance(e, ContentDelta)]
    return [ContentDelta(answer[: end.end()].rstrip()), *rest]


#: The end of an answer's first sentence: a full stop before a space or the end, or "。".
_SENTENCE_END = re.compile(r"(?<!\b[A-Z])[.!?](?=\s|$)|[。！？]")


def without_label(events: list[Event]) -> list[Event]:
    """An answer without the label of the comparison line it copied ("Comparison: A (455) is
    more than B (198), by 257." → "A (455) is more than B (198), by 257."): the line names the
    order for the answer to state, its label is the prompt's.

    Args:
        events: The answer's events.

    Returns:
        The events, the label cut from the first text when the answer opens with it.
    """
    answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
    label = _COMPARISON_LABEL.match(answer)
    if label is None:
        return events
    cut, kept = label.end(), []
    for event in events:
        if cut and isinstance(event, ContentDelta):
            taken = min(cut, len(event.text))
            cut -= taken
            if taken == len(event.text):
                continue  # all of it the label
            event = replace(event, text=event.text[taken:])
        kept.append(event)
    return kept


#: The label of the comparison line the final-answer step is shown, copied at an answer's start.
_COMPARISON_LABEL = re.compile(r"\s*(?:Comparison\s*:|比较\s*[:：])\s*")


def result_spellings(result: str | None) -> list[str]:
    """The ways an answer may state a result that is one number, or a short text that states
    one ("Each part: 9.6"): as written, and rounded to one or two decimals when it has more
    ("13.33", "13.3") — only rounded when it has more than four (a tool's float,
    "13.333333333333334", is not read out whole).

    Args:
        result: A tool result's text.

    Returns:
        The spellings; none when the result is not one number.
    """
    text = (result or "").strip()
    if not re.fullmatch(r"-?\d+(?:\.\d+)?", text):  # "Each part: 9.6": its one number
        lone = lone_number(text)
        if lone is None:
            return []
        text = lone
    unsigned = text.lstrip("-")
    whole = whole_spelling(unsigned)
    if whole is not None:
        return [whole, unsigned]  # "42.0" is said "42"
    decimals = unsigned.partition(".")[2]
    spellings = with_roundings([unsigned])
    return spellings[1:] if len(decimals) > 4 else spellings


def _short_of(answer: str, values: Sequence[str], question: set[float]) -> bool:
    """Whether an answer that should state each of the values leaves one out, or states a
    number that is none of them nor the question's (another label's: the length of each
    chairlift beside its riders per hour)."""
    if _stated_count(answer, values) < len(values):
        return True
    allowed = {magnitude(s) for v in values for s in result_spellings(v) or [v]} | question
    return _states_beyond(answer, allowed)


def _states_beyond(text: str, allowed: set[float]) -> bool:
    """Whether a text states a number (by value, without its sign) that is none of
    ``allowed``."""
    return any(magnitude(n) not in allowed for n in said_numbers(text))


def _stated_count(answer: str, values: Sequence[str]) -> int:
    """How many of the values (numbers as records write them) an answer states."""
    return sum(_states(answer, result_spellings(v) or [v]) for v in values)


def _states(answer: str, spellings: Sequence[str]) -> bool:
    """Whether an answer states one of a number's spellings (by value, without its sign)."""
    values = {magnitude(s) for s in spellings}
    return any(magnitude(n) in values for n in said_numbers(answer))


def _as_call(tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A call as the conversation holds it, for the checks that read one."""
    return {"function": {"name": tool, "arguments": json.dumps(arguments, ensure_ascii=False)}}
