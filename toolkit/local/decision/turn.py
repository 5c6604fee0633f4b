"""Where a conversation's last turn stands: its question, its results, what it still needs. Pure.

A turn begins at the last user message. The decoder asks of it: has a tool answered yet
(:func:`has_results`)? What was the question (:func:`last_question`)? And does the question
still hold numbers no step has used (:func:`unused_numbers`) — a sign that its answer would be
premature.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolkit.local.decision.arithmetic import Tools, arithmetic_tools
from toolkit.local.decision.asking import asks_arithmetic, asks_unordered_difference
from toolkit.local.decision.chains import (
    PEOPLE,
    doubled_in_place,
    failed_step_to_resume,
    fields_in_place,
    fields_of_one_record,
    first_step_for,
    is_value,
    kind_named,
    named_next_step,
    number_parameters,
    other_field,
    points_past,
    results_in_place,
    says_its_kind,
    spent_numbers,
    takes_a_result_place,
    texts_in_place,
)
from toolkit.local.decision.clauses import without_conditions
from toolkit.local.decision.examples import borrowed_words, words_of
from toolkit.local.decision.fitting import asked_terms, fitting_tool, one_name_tools
from toolkit.local.decision.formats import in_described_formats
from toolkit.local.decision.forms import (
    in_hemisphere_signs,
    in_percent_form,
    in_stated_dates,
    without_dangling_joints,
    without_other_spans,
    without_parameter_word,
    without_possessive,
)
from toolkit.local.decision.grounding import (
    FUNCTION_WORDS,
    CallHistory,
    arguments_of,
    conversation_text,
    defaults_of,
    invented_texts,
    is_error,
    repeats,
    ungrounded_values,
    without_unfounded,
)
from toolkit.local.decision.kinds import (
    capitalised_from_lower_case,
    is_phrase,
    kind_of,
    lookup_keys,
    named_things,
    names_in_capitals,
    names_nothing,
    writes_place_name,
)
from toolkit.local.decision.known import refused_kind_named
from toolkit.local.decision.mentions import ACTION_WORDS, says_kind
from toolkit.local.decision.numbers import (
    chinese_numbers,
    first_stated,
    is_number,
    known_numbers,
    leaves,
    lone_number,
    numbers_for_calls,
    numbers_of,
    plain_number,
    result_numbers,
    run_together,
    stated_times,
    ungrounded_numbers,
)
from toolkit.local.decision.phrases import asking_sentence, in_another_script, writes_spaceless
from toolkit.local.decision.places import unplaced_texts
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.records import name_parts, name_words, root, stem, without_kind
from toolkit.local.format.job import ChatJob
from toolkit.wire import content_text

__all__ = [
    "CallJudge",
    "all_failed",
    "asked_for",
    "failed",
    "failed_off_the_question",
    "folded",
    "has_results",
    "holds_value",
    "is_error",
    "last_question",
    "last_step_at",
    "results_combined",
    "turn_calls",
    "turn_start",
    "turn_steps",
    "unfit_failures",
    "untried_after_failures",
    "unused_numbers",
]


def turn_start(messages: Sequence[Mapping[str, Any]]) -> int:
    """The position of the last user message: where this turn begins (0 when none).

    Args:
        messages: OpenAI messages.

    Returns:
        The index.
    """
    positions = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    return positions[-1] if positions else 0


def last_question(messages: Sequence[Mapping[str, Any]]) -> str:
    """The text of the last user message ("" when none).

    Args:
        messages: OpenAI messages.

    Returns:
        The text.
    """
    users = [m for m in messages if m.get("role") == "user"]
    return content_text(users[-1].get("content")) if users else ""


def turn_calls(
    messages: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The calls this turn made and the result text of each.

    Args:
        messages: OpenAI messages.

    Returns:
        The turn's calls (OpenAI tool calls, in order) and each one's result text (``None``
        when it has none).
    """
    turn = messages[turn_start(messages) + 1 :]
    calls = [c for m in turn for c in m.get("tool_calls") or []]
    answers = {
        m.get("tool_call_id"): content_text(m.get("content"))
        for m in turn
        if m.get("role") == "tool"
    }
    return calls, [answers.get(c.get("id")) for c in calls]


def asked_for(
    tool: str,
    called: Sequence[str],
    question: str,
    share: float,
    parameters: Sequence[str] = (),
    *,
    outside_conditions: bool = False,
) -> bool:
    """Whether the question asks for what ``tool`` does beyond the tools already called.

    An extra call of another tool with values the answer already used asks the same thing
    of another tool. The small model offers sibling tools eagerly (the largest city and the
    population after "the capital of Brazil?"), so such a call is kept only when the question
    names it: at least ``share`` of the words of its name that the called tools' names lack
    (in any form: ``PlayMovie`` after ``FindMovies`` lacks only "play")
    occur in the question ("interest coverage" for ``financial_ratios.interest_coverage``
    after ``sales_growth``). Words that name the called tools' parameters are taken out of the
    question first: in "a car's displacement from an initial speed of 20 m/s", "speed" is an
    input of ``calculate_displacement``, not a request for ``calculate_final_speed``.

    Args:
        tool: The candidate tool's name.
        called: Names of the tools this answer already called.
        question: The question's text.
        share: :attr:`~toolkit.local.decision.policy.ToolPolicy.asked_share`.
        parameters: Parameter names of the tools already called.
        outside_conditions: Read only the question's words outside the conditions it sets
            (:func:`~toolkit.local.decision.clauses.without_conditions`): "keeping the price
            the same" asks for no price.

    Returns:
        True when the question asks for it.
    """
    seen = {root(w) for name in called for w in name_words(name)}
    distinct = {w for w in name_words(tool) if root(w) not in seen}  # "Movie" of "Movies"
    if not distinct:
        return False
    text = (without_conditions(question) if outside_conditions else question).casefold()
    for word in set().union(*(name_words(name) for name in parameters)):
        text = re.sub(rf"(?<![a-z]){re.escape(stem(word))}[a-z]*", " ", text)
    hits = sum(re.search(rf"(?<![a-z]){re.escape(stem(w))}", text) is not None for w in distinct)
    return hits >= share * len(distinct)


#: A result that is a name: letters of any script and spaces, no digits ("Mia Chen", "李强";
#: not "3 hours" or "11").
_NAME = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")
#: A percentage as the question writes it ("15%", "4.5 %").
_PERCENT = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*%")


def has_results(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether any tool result is among the messages.

    Args:
        messages: OpenAI messages.

    Returns:
        True when a ``role="tool"`` message is there.
    """
    return any(message.get("role") == "tool" for message in messages)


def failed(message: Mapping[str, Any]) -> bool:
    """Whether a tool message is an error (:func:`is_error`).

    Args:
        message: An OpenAI tool message.

    Returns:
        True for an error.
    """
    return is_error(content_text(message.get("content")))


def turn_steps(messages: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[int]]:
    """This turn's messages after the user's, and where among them each step's calls are.

    Args:
        messages: OpenAI messages.

    Returns:
        The messages, and the indices of the assistant messages that make calls.
    """
    turn = list(messages[turn_start(messages) + 1 :])
    steps = [i for i, m in enumerate(turn) if m.get("role") == "assistant" and m.get("tool_calls")]
    return turn, steps


def step_results(
    messages: Sequence[Mapping[str, Any]],
) -> list[list[tuple[dict[str, Any], str | None]]]:
    """This turn's steps, each its calls with the result text of each (``None`` when it has
    none).

    Args:
        messages: OpenAI messages.

    Returns:
        The steps in order, each ``(call, result)`` per call.
    """
    calls, results = turn_calls(messages)
    answers = dict(zip((c.get("id") for c in calls), results, strict=True))
    turn, steps = turn_steps(messages)
    return [[(c, answers.get(c.get("id"))) for c in turn[i]["tool_calls"]] for i in steps]


#: Words of a parameter that takes a key: what a lookup is asked by.
_KEYS = frozenset({"name", "id", "title", "key", "code"})


def all_failed(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every tool result since the last user message is an error (:func:`failed`).

    Args:
        messages: OpenAI messages.

    Returns:
        True when there are results and all of them failed.
    """
    results = [m for m in messages[turn_start(messages) :] if m.get("role") == "tool"]
    return bool(results) and all(failed(m) for m in results)


#: The words of any refusal ("No sawmill named …. Known: …"), and words that join others.
_REFUSAL_WORDS = frozenset(
    root(w) for w in ["named", "known", "found", "unknown", "error", "available", *FUNCTION_WORDS]
)
#: What a refusal quotes: the value it refused ("No sawmill named '主要记录'").
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")


def _topic(text: str) -> set[str]:
    """A text's words that say what it is about: Latin words of four letters or more, by their
    roots (function words aside), and each two characters in a row of a script written
    without spaces."""
    latin = {root(w) for w in re.findall(r"[a-z]{4,}", text.casefold())} - _REFUSAL_WORDS
    spaceless = {
        run[i : i + 2]
        for run in re.findall(r"[\u3040-\u30ff\u3400-\u9fff]+", text)
        for i in range(len(run) - 1)
    }
    return latin | spaceless


def failed_off_the_question(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every result of this turn failed, and no failure shares a word with the question
    once the value it refused is left out: the lookup was of nothing the question is about.
    "《论语》主要记录的是哪位古代思想家…？" asked of ``sawmill_record("主要记录")`` ("No sawmill
    named '主要记录'. Known: Hollow Pine Sawmill (空松锯木厂), …"), "Who painted The Starry
    Night?" of a distillery lookup. A name the tool does not know, of a kind the question says
    ("Amberwik Distillery", refused among "Amberwick Distillery (琥珀溪香水坊)"), shares the
    kind's word; a question that says a word of a failed tool's name ("What's the weather in
    Paris?" of ``get_weather``) is about what the tool does.

    Args:
        messages: OpenAI messages.

    Returns:
        True when every result failed off the question.
    """
    if not all_failed(messages):
        return False
    question = last_question(messages)
    asked = _topic(question)
    tools = {c["function"]["name"] for c in turn_calls(messages)[0]}
    if any(_topic(" ".join(name_words(t) - ACTION_WORDS)) & asked for t in tools):
        return False  # the tool is about what the question asks ("weather" of get_weather)
    results = [m for m in messages[turn_start(messages) :] if m.get("role") == "tool"]
    return all(
        not (_topic(_QUOTED.sub(" ", content_text(m.get("content")))) & asked) for m in results
    )


#: A result that is a number alone (an arithmetic tool's).
_BARE_NUMBER = re.compile(r"\s*-?\d[\d,]*(?:\.\d+)?\s*")


def untried_after_failures(messages: Sequence[Mapping[str, Any]], tools: Sequence[str]) -> bool:
    """Whether every result of this turn failed (a bare value aside) while an offered tool was
    not called yet.

    "法国首都的时区是什么？" asked of ``get_timezone("法国")`` failed (unknown city): the value is
    one another tool takes first (``get_capital("法国")``, the chain's first step). Before the
    answer says nothing could be found, each tool not yet tried may be the next step.

    Args:
        messages: OpenAI messages.
        tools: The offered tools' names.

    Returns:
        True when every result failed and some tool is untried.
    """
    turn = messages[turn_start(messages) + 1 :]
    called = {c["function"]["name"] for m in turn for c in m.get("tool_calls") or []}
    # a bare value beside the failures ("2" of a stray ``add(1, 1)``) is no lookup that answered
    results = [
        m
        for m in turn
        if m.get("role") == "tool" and not _BARE_NUMBER.fullmatch(content_text(m.get("content")))
    ]
    if not results or not all(failed(m) for m in results):
        return False
    return any(name not in called for name in tools)


def unfit_failures(
    messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether every call of this turn failed and the question, in Latin letters, shares no
    word with any offered tool's name or description: "What's the capital city of Japan?"
    asked of ``get_mountain_hut("Japan")``. No offered tool is about the question; it is
    answered as though none were offered.

    Words of four letters or more count, but those any tool may say ("look", "return",
    "name"); one word that begins another is the same ("cook" of "cooking"); a name's words
    are also looked for in the question with its spaces taken out ("time zone" says
    ``get_timezone``). A Chinese question shares no word with English tools: it is unfit
    only when every call asked about the question itself, a clause of it or more
    (``get_rice_mill("一年十二个月里，哪个月的天数最少？")``), and it writes no name of a
    place or business (:func:`~toolkit.local.decision.kinds.writes_place_name`): no thing
    was named to look up.

    Args:
        messages: OpenAI messages.
        tools: The offered tools (OpenAI ``tools`` entries).

    Returns:
        True when the calls failed and no offered tool is the question's.
    """
    question = last_question(messages)
    if not question or not all_failed(messages):
        return False
    if writes_spaceless(question):  # unless it writes a name: the call should have taken it
        return _asked_the_question(messages, question) and not writes_place_name(question)
    squeezed = re.sub(r"[\W_]+", "", question.casefold())
    asked = _content_words(question)
    for tool in tools:
        function = tool.get("function") or {}
        name = str(function.get("name") or "")
        if any(w in squeezed for w in name_words(name) - ACTION_WORDS):
            return False
        said = _content_words(f"{' '.join(name_parts(name))} {function.get('description') or ''}")
        if any(q.startswith(t) or t.startswith(q) for q in asked for t in said):
            return False
    return True


def _asked_the_question(messages: Sequence[Mapping[str, Any]], question: str) -> bool:
    """Whether every text value this turn's calls asked is the question, or a clause of it
    and more: one that ends where a clause ends or holds a clause's punctuation."""
    calls, _ = turn_calls(messages)
    values = [v for c in calls for v in arguments_of(c).values() if isinstance(v, str)]
    if not values:
        return False
    folded = question.strip().rstrip("？?。！!")
    return all(
        len(v.strip()) >= 0.8 * len(folded) or re.search(r"[，,；;？?]", v) is not None
        for v in values
    )


#: Words any tool's description may say, of no subject.
_GENERIC_WORDS = frozenset(
    "look looks return returns given about that this with from what which their them each "
    "name names value values number numbers kind kinds list information details data tool "
    "function query current into when where there here have does will your more most some "
    "many much "
    # the words that describe a result's or a parameter's format, not a subject
    "string strings json text texts record records line lines sentence sentences format "
    "integer float result results error errors full short chinese english".split()
)


def _content_words(text: str) -> set[str]:
    """The words of four letters or more of a text, case-folded, but the generic ones."""
    words = {w for w in re.findall(r"[a-z]+", text.casefold()) if len(w) >= 4}
    return words - _GENERIC_WORDS - ACTION_WORDS


def unused_numbers(messages: Sequence[Mapping[str, Any]], *, words: bool = True) -> list[float]:
    """Numbers of the last question that no call of this turn used and no result repeats.

    "Add 17 and 25, then multiply the result by 3" answered after ``add(17, 25)`` still has
    its 3: the question needs another step before its answer. A percentage is one number in
    either spelling ("15%" is used by a call of 15 or of 0.15).

    Args:
        messages: OpenAI messages.
        words: Whether factors written as words count ("halve" states 2). They are operands a
            step may take, but not numbers the answer waits for: the model may take a half
            its own way (``multiply(250, 0.5)``), and a turn waiting for the 2 would not end.

    Returns:
        The unused numbers, sorted.
    """
    start = turn_start(messages)
    asked = (
        known_numbers(content_text(messages[start].get("content")).casefold(), words=words)
        if messages
        else frozenset()
    )
    turn = messages[start + 1 :]
    used = {
        value
        for message in turn
        for call in message.get("tool_calls") or []
        for value in numbers_of(arguments_of(call))
    }
    said = known_numbers(conversation_text([m for m in turn if m.get("role") == "tool"]))
    done = used | said
    # "15%" states 15 and 0.15: one number, used when either spelling is.
    question = content_text(messages[start].get("content")) if messages else ""
    for percent in {float(p) for p in _PERCENT.findall(question)}:
        fraction = round(percent / 100, 12)
        if fraction in done or percent in done:
            done = done | {fraction, percent}
    return sorted(v for v in asked if v not in done)


def results_combined(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether this turn's last step combined the results before it and left nothing unused.

    "计算一下北京和西安的气温的总和" answered by the two temperatures, then ``add(6, 5)`` = 11:
    the last step's calls took values that only earlier results stated (6 and 5), and every
    number the question and those results state went into some call. What is left is the
    last step's own result — the answer, unless a new step uses it. A step that uses no earlier
    result (the first lookups, or a conversion of a value the question gave) combines nothing;
    a result number no call took yet (a third city's temperature) is still to be combined.

    Args:
        messages: OpenAI messages.

    Returns:
        True when the last step combined earlier results and left no number unused.
    """
    start = turn_start(messages)
    turn, steps = turn_steps(messages)
    if len(steps) < 2 or unused_numbers(messages):  # a factor in words too ("then halve it")
        return False
    question = content_text(messages[start].get("content")).casefold() if messages else ""
    earlier = conversation_text([m for m in turn[: steps[-1]] if m.get("role") == "tool"])
    from_results = known_numbers(earlier) - known_numbers(question)
    last = [arguments_of(c) for c in turn[steps[-1]].get("tool_calls") or []]
    took = {n for arguments in last for n in numbers_of(arguments)} & from_results
    took_text = any(
        isinstance(v, str)
        and len(v.strip()) > 1
        and v.casefold() in earlier
        and v.casefold() not in question
        for arguments in last
        for v in leaves(arguments)
    )
    if not (took or took_text):
        return False
    used = {
        n
        for m in turn
        for call in m.get("tool_calls") or []
        for n in numbers_of(arguments_of(call))
    }
    return not from_results - used


class CallJudge:
    """What the calls of one answer are judged against: the conversation's calls and results,
    its text, and the tools' schemas.

    Args:
        job: The request.
        policy: The decision settings.
        auto: Whether the model chose to call (``tool_choice="auto"``): only then are calls
            with values the conversation never gave rejected.
    """

    def __init__(self, job: ChatJob, policy: ToolPolicy, *, auto: bool) -> None:
        self.auto, self.policy = auto, policy
        self.history = CallHistory(
            job.messages if auto and policy.drop_repeated_calls else [], policy
        )
        #: What the calls' values may come from: the conversation but its errors (a refusal
        #: that lists the tool's known values asks for none of them: "北京" after "东京" failed).
        given = [m for m in job.messages if m.get("role") != "tool" or not failed(m)]
        self.grounding = conversation_text(given)
        #: The same text as written (the case of its words tells a name from a word).
        self.written = "\n".join(content_text(m.get("content")) for m in given)
        self.schemas = job.schemas
        self.descriptions = {
            t["function"]["name"]: t["function"].get("description") for t in job.tools
        }
        self.required = {n: list((s or {}).get("required") or []) for n, s in self.schemas.items()}
        self.defaults = {n: defaults_of(s) for n, s in self.schemas.items()}
        #: The words of the offered tools' names (what a value made of them asks for).
        self.named = frozenset().union(*(name_words(n) for n in self.schemas))
        self.question = last_question(job.messages)
        calls, results = turn_calls(job.messages)
        #: ``(tool, arguments)`` of the calls this turn made before this answer.
        self.turn_calls = [(c["function"]["name"], arguments_of(c)) for c in calls]
        #: The result text of each of :attr:`turn_calls` (``None`` when it has none).
        self.turn_results = results
        last = last_step_at(job.messages)
        #: The index in :attr:`turn_calls` of the last step's first call.
        self.last_step = len(calls) - len(job.messages[last]["tool_calls"]) if calls else 0
        #: Whether the question still holds numbers no step used (:func:`unused_numbers`),
        #: or a result is a name no call took yet (a captain's name, when the question asks
        #: the captain's age): the turn may need another step.
        taken = {str(v).strip() for _, a in self.turn_calls for v in leaves(a)}
        unused_value = any(
            is_value(r) and _NAME.fullmatch(r.strip()) is not None and r.strip() not in taken
            for r in self.turn_results
            if r is not None
        )
        #: The question's numbers no step used yet (:func:`unused_numbers`).
        self.unused = unused_numbers(job.messages)
        self.waiting = (
            bool(unused_numbers(job.messages, words=False))
            or unused_value
            or untried_after_failures(job.messages, job.tool_names)
        )
        #: Whether this turn's last step combined the results and left nothing unused
        #: (:func:`results_combined`).
        self.combined = bool(self.turn_calls) and results_combined(job.messages)
        self.tools = job.tools
        self.doomed_name: str | None = None
        #: The values the call :meth:`repeat_doom` stopped had written.
        self.doomed_arguments: dict[str, Any] = {}
        #: The only numbers this answer's calls may write, once a call ran the question's
        #: numbers together (set by the call writer's rewrite); ``None``: any.
        self.numbers_only: list[str] | None = None

    def asks_for(
        self, tool: str, called: Sequence[str], *, outside_conditions: bool = False
    ) -> bool:
        """:func:`asked_for` on this turn's question, with the called tools' parameter names.

        Args:
            tool: The candidate tool's name.
            called: Names of the tools this answer already called.
            outside_conditions: Read only the question outside the conditions it sets.

        Returns:
            True when the question asks for it.
        """
        parameters = [
            p for n in called for p in (self.schemas.get(n) or {}).get("properties") or {}
        ]
        return asked_for(
            tool,
            called,
            self.question,
            self.policy.asked_share,
            parameters,
            outside_conditions=outside_conditions,
        )

    def takes_a_result_place(
        self, call: dict[str, Any], made: Sequence[tuple[str, dict[str, Any]]] = ()
    ) -> bool:
        """:func:`~toolkit.local.decision.chains.takes_a_result_place` after this turn's
        calls and ``made``, the answer's calls so far."""
        tool, arguments = call["function"]["name"], arguments_of(call)
        return takes_a_result_place(tool, arguments, [*self.turn_calls, *made], self.question)

    def writes_twice(self, call: dict[str, Any]) -> bool:
        """Whether a call writes a number more often than the question and this turn's
        results state it together (``subtract(135, 135)`` once the sum answered 135): a step
        of nothing, the answer already there. Of BFCL's 2,005 ground-truth calls two do so
        (a default repeated).

        Args:
            call: The call (OpenAI-shaped).

        Returns:
            True when it does.
        """
        numbers = [n for _, n in number_parameters(arguments_of(call))]
        texts = [self.question, *(r for r in self.turn_results if r and not is_error(r))]
        for number in set(numbers):
            stated = sum(stated_times(number, text) for text in texts)
            if 0 < stated < numbers.count(number):
                return True
        return False

    def doubled_in_place(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """The call's arguments with a number it writes more often than the question states
        it replaced by the question's next unused number
        (:func:`~toolkit.local.decision.chains.doubled_in_place`); ``None`` when there is
        none."""
        return doubled_in_place(arguments_of(call), self.turn_calls, self.question)

    def results_in_place(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """The call's arguments with this turn's results in the places of its spent numbers
        (:func:`~toolkit.local.decision.chains.results_in_place`); ``None`` when it takes no
        result's place or a result to put there is not one number."""
        tool, arguments = call["function"]["name"], arguments_of(call)
        spent = spent_numbers(tool, arguments, self.turn_calls, self.question)
        return results_in_place(arguments, spent, self.turn_results)

    def _faults(self, call: dict[str, Any]) -> list[Any]:
        """The call's values the conversation never gave (:func:`ungrounded_values`); a name
        the question gives as a list's item with its kind's word after the list is given
        ("布雷肯里奇种马场" of "布雷肯里奇、哈洛威和昆比这三家种马场", :meth:`named_names`)."""
        schema = self.schemas.get(call["function"]["name"])
        described = self.descriptions.get(call["function"]["name"])
        faults = ungrounded_values(
            arguments_of(call), schema, self.grounding, self.policy, described
        )
        if faults and self.policy.named_kinds:
            faults = [f for f in faults if not (isinstance(f, str) and f in self.named_names)]
        if self.policy.invented_texts_fallback:  # a list's texts are checked for invention
            listed = [v for v in arguments_of(call).values() if isinstance(v, list)]
            faults += [t for t in self.invented(call) if any(t in v for v in listed)]
        return faults + self.unplaced(call)

    def unplaced(self, call: dict[str, Any]) -> list[str]:
        """The call's place values that name no place (:func:`~toolkit.local.decision.places.
        unplaced_texts`, :attr:`~ToolPolicy.places_named`)."""
        if not self.policy.places_named:
            return []
        return unplaced_texts(arguments_of(call), self.schemas.get(call["function"]["name"]))

    def invented(self, call: dict[str, Any]) -> list[str]:
        """The call's required texts that share no word with the conversation
        (:func:`~toolkit.local.decision.grounding.invented_texts`)."""
        schema = self.schemas.get(call["function"]["name"])
        return invented_texts(arguments_of(call), schema, self.grounding)

    @functools.cached_property
    def operations(self) -> dict[str, tuple[str, str, str]]:
        """The offered tools that do one operation: tool -> (operation, first, second)."""
        found = self._arithmetic.operations.items() if self._arithmetic is not None else []
        return {tool: (operation, first, second) for operation, (tool, first, second) in found}

    @functools.cached_property
    def arithmetic(self) -> frozenset[str]:
        """The offered tools that do arithmetic (an operation, an expression, a total)."""
        tools = self._arithmetic
        return tools.names if tools is not None else frozenset()

    @functools.cached_property
    def _arithmetic(self) -> Tools | None:
        """The offered arithmetic tools, among the others
        (:func:`~toolkit.local.decision.arithmetic.arithmetic_tools`)."""
        return arithmetic_tools(self.tools, among=True)

    @functools.cached_property
    def lookups(self) -> dict[str, str]:
        """The offered tools that look things up by name alone, each with the parameter it
        takes the name in (:func:`~toolkit.local.decision.kinds.lookup_keys`)."""
        return lookup_keys(self.schemas)

    @functools.cached_property
    def named_names(self) -> frozenset[str]:
        """The names of things the question names, each of a lookup's kind
        (:func:`~toolkit.local.decision.kinds.named_things`)."""
        return frozenset(name for name, _ in named_things(self.question, self.lookups))

    def asks_again(self, call: dict[str, Any]) -> bool:
        """With "auto", after results and with no number of the question still waiting:
        whether a call asks another tool what this turn's calls already asked — its numbers
        all spent by them, none a result no call took yet (``multiply(240, 15)`` after
        ``percent_of(240, 15)`` answered 36.0; ``add(194, 2)`` once ``divide(194, 2)``
        answered 97.0 the halving asked for). Once the last step combined the results and
        left nothing unused, a call that takes a number of the question more often than the
        question states it runs the finished chain on (``subtract(97, 58)`` after "subtract
        58 from that, and then halve the result" answered 97.0): it asks again too. So does
        a call of a tool the question does not ask for (:meth:`asks_for`) whose text values
        are all ones this turn asked other tools already (``get_train_service("Cinnamon
        Roll")`` once ``get_bakery_item("cinnamon roll")`` answered) or, once the last step
        combined the results, only values the results gave. A call that only combines fields
        of one record the question states no number of asks again whatever still waits
        (:func:`~toolkit.local.decision.chains.fields_of_one_record`: ``multiply(888, 4)``, a
        suite's rate times its guests, asked the rate), unless other records' fields or the
        question's unused numbers can take its places (:meth:`fields_in_place`)."""
        if not self.auto or not self.turn_calls:
            return False
        tool, arguments = call["function"]["name"], arguments_of(call)
        if self.combines_one_record(call):  # whatever waits: the record answers
            return True
        if self.waiting:
            return False
        if self.asks_another_tool(tool, arguments):
            return True
        mine = {n for _, n in number_parameters(arguments)}
        spent = {n for t, a in self.turn_calls if t != tool for _, n in number_parameters(a)}
        uses = [n for _, a in self.turn_calls for _, n in number_parameters(a)]
        said = known_numbers(conversation_text([{"content": r} for r in self.turn_results if r]))
        if bool(mine) and mine <= spent and not mine & (said - set(uses)):
            return True
        # A chain done (its last step combined the results and used every number): a call that
        # takes a number of the question again, more often than the question states it, is
        # the chain run on (``subtract(97, 58)`` once "subtract 58, then halve" answered 97).
        exhausted = {n for n in mine if 0 < stated_times(n, self.question) <= uses.count(n)}
        return bool(exhausted) and self.combined

    def asks_another_tool(
        self,
        tool: str,
        arguments: dict[str, Any],
        made: Sequence[tuple[str, dict[str, Any]]] = (),
    ) -> bool:
        """Whether a call of a tool this turn did not call, and the question does not ask for,
        asks only text values that calls of other tools took (case aside).

        Args:
            tool: The call's tool.
            arguments: Its arguments.
            made: ``(tool, arguments)`` of the answer's calls so far, beside the turn's.

        Returns:
            True when it asks again, of another tool, what the turn already asked.
        """
        calls = [*self.turn_calls, *made]
        called = [t for t, _ in calls]
        if tool in called:
            return False

        def folded(values: Any) -> list[str]:
            return [v.strip().casefold() for v in leaves(values) if isinstance(v, str)]

        texts, taken = folded(arguments), {v for _, a in calls for v in folded(a)}
        said = "\n".join(r for r in self.turn_results if r and not is_error(r)).casefold()
        question = self.question.casefold()
        # Once the last step combined the results, a value only a result gave is one the
        # answer already holds ("Bamboo Sea Old Path" of a trail, asked of the car rental).
        from_results = self.combined and all(v in said and v not in question for v in texts)
        if not texts or not (all(v in taken for v in texts) or from_results):
            return False
        return not self.asks_for(tool, list(dict.fromkeys(called)))

    def next_step_arguments(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """A chain's next step written with the latest result and the question's unused
        numbers, when the call asks again only numbers this turn's calls spent: "Multiply 12
        by 7 and then add 16" answered ``times(12, 7)`` = 84.0, and the model writes
        ``plus(12, 7)``; the step meant is ``plus(84, 16)`` — the result in the first place
        (a chain goes on from its result: "then add", "then multiply the result by"), the
        unused numbers in the others, in the question's order. The result written in every
        place is the same fault: "What do 3 tickets cost?" answered 120 a ticket, and the
        model writes ``multiply(120, 120)`` for ``multiply(120, 3)``.

        Args:
            call: The call (OpenAI-shaped).

        Returns:
            The new arguments; ``None`` unless the call's numbers are all spent or the
            latest result (which states one number), none of them unused, it has one
            top-level number place for that result and each unused number, and the question
            still holds unused numbers.
        """
        if not self.auto or not self.turn_calls:
            return None
        arguments = arguments_of(call)
        places = [k for k, v in arguments.items() if is_number(v)]
        mine = {abs(float(arguments[k])) for k in places}
        spent = {n for _, a in self.turn_calls for _, n in number_parameters(a)}
        results = [r for r in self.turn_results if r and not is_error(r)]
        latest = result_numbers(results[-1]) if results else []
        question = self.question.casefold()
        waiting = sorted(self.unused, key=lambda n: first_stated(n, question))
        if not waiting or not places or len(latest) != 1:
            return None
        result = abs(float(latest[0]))
        if not mine <= spent | {result} or mine & {abs(n) for n in waiting}:
            return None  # a number of its own, or it takes a waiting one: a step of its own
        if len(places) != 1 + len(waiting):
            return None
        values = [float(latest[0]), *waiting]
        written = dict(arguments)
        for key, value in zip(places, values, strict=True):
            written[key] = plain_number(value)
        return written

    def of_its_kind(self, call: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The call a lookup by name is meant to be, when the name states another offered
        tool's kind (:func:`~toolkit.local.decision.kinds.kind_of`,
        :attr:`~ToolPolicy.named_kinds`): the same name asked of that tool
        (``get_tram_depot("奥斯特维克电车场")`` for ``get_quarry("奥斯特维克电车场")``). A
        Chinese value that is a phrase of the question, not a name
        (:func:`~toolkit.local.decision.kinds.is_phrase`: "马厩一共有多少匹"), or a value that
        is the words of the tool's kind alone
        (:func:`~toolkit.local.decision.kinds.names_nothing`: "植物园", "Monastery"), is the
        first thing the question names that no call asked yet, asked of the tool of its kind
        (:func:`~toolkit.local.decision.kinds.named_things`). Both tools must look things up
        by name alone
        (:func:`~toolkit.local.decision.kinds.name_parameter`); ``None`` otherwise."""
        if not self.auto:
            return None
        tool, arguments = call["function"]["name"], arguments_of(call)
        fitting = self.fitting_call(tool, arguments)
        if fitting is not None:  # the question's words ask for this tool's answer, or another's
            return None if fitting[0] == tool else fitting
        if self._linked_value(arguments):  # a chain's step: asked of the tool the ask fits
            moved = self._asked_of_fitting(tool, arguments, made_too=True)
            if moved is not None:  # made already: a step of nothing, the answer is there
                return moved
        if not self.policy.named_kinds:
            return None
        key = self.lookups.get(tool)
        if key is None and self.policy.things_to_their_kind:
            return self._thing_asked_elsewhere(tool, arguments)
        value = arguments.get(key) if key is not None else None
        if not isinstance(value, str) or not value.strip() or set(arguments) != {key}:
            return None
        lookups = self.lookups
        kind = kind_of(value, lookups)
        if is_phrase(value) or names_nothing(value, kind or tool):  # "马厩一共有多少匹", "植物园"
            return self._first_unasked(named_things(self.question, lookups))
        if kind is None or kind == tool:
            return None
        return kind, {lookups[kind]: value}

    def fitting_call(
        self, tool: str, arguments: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        """The call a lookup of one of the names the question gives is meant to be, by the
        question's other words (:attr:`~ToolPolicy.asked_words_pick_tool`): the name asked of
        the one tool that takes one name whose own words those fit
        (:func:`~toolkit.local.decision.fitting.fitting_tool`) — the call itself when that
        is its tool. ``None`` when the call takes more than one value, its value is no name
        the question gives, the question gives fewer than two names (a chain's question
        names the thing it starts from, and asks of the one it leads to: "the birth year of
        the person who keeps Fennick Rock Lighthouse" is no person's name), or no tool fits
        alone."""
        if not self.policy.asked_words_pick_tool:
            return None
        value = self._one_name(tool, arguments)
        if value is None or set(arguments) != {self.one_name_tools[tool]}:
            return None
        if len(value.strip()) < 2 or value.strip().casefold() not in self.question.casefold():
            return None
        names = set(self.stated_names) | {value}
        if len({n.casefold() for n in names}) < 2:
            return None
        tools = self.one_name_tools
        asked = asked_terms(self.question, names, tools)
        chinese = writes_spaceless(self.question)
        fitting = fitting_tool(asked, tools, self.descriptions, self.schemas, names_only=chinese)
        if fitting is None:
            return None
        return fitting, {tools[fitting]: value}

    @functools.cached_property
    def one_name_tools(self) -> dict[str, str]:
        """The offered tools that take one name or place alone, each with its parameter
        (:func:`~toolkit.local.decision.fitting.one_name_tools`)."""
        return one_name_tools(self.schemas)

    def _one_name(self, tool: str, arguments: Mapping[str, Any]) -> str | None:
        """The text a call of a tool that takes one name gives it; ``None`` for another
        tool, or a value that is no text."""
        key = self.one_name_tools.get(tool)
        value = arguments.get(key) if key is not None else None
        return value if isinstance(value, str) else None

    @functools.cached_property
    def stated_names(self) -> list[str]:
        """The names the question gives: in capitals, or of a lookup's kind
        (:attr:`named_names`)."""
        found = [] if writes_spaceless(self.question) else names_in_capitals(self.question)
        return found + sorted(self.named_names)

    def _thing_asked_elsewhere(
        self, tool: str, arguments: dict[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        """The lookup a call of a tool that looks nothing up by name is meant to be, when the
        question does not ask for the tool (:meth:`asks_for`) and one of its text values
        names a thing of a lookup's kind (``tide_times(port="Wexcombe Bus Garage")``,
        ``count_letters(text="马洛游泳池")``), holds one ("Birch Dock takes a month.") or is
        a phrase of the question (its vowels counted in "古尔米尔港和克雷斯特黑文港的最大水深各是多
        少米？"). The thing — for a phrase, the first thing it or else the question names that no
        call asked yet — is asked of the lookup of its kind
        (:func:`~toolkit.local.decision.kinds.kind_of`, :attr:`~ToolPolicy.things_to_their_kind`);
        ``None`` otherwise."""
        lookups = self.lookups
        if not lookups or self.asks_for(tool, [t for t, _ in self.turn_calls]):
            return None
        for value in arguments.values():
            if not isinstance(value, str) or not value.strip():
                continue
            kind = kind_of(value, lookups)
            if kind is not None:
                return kind, {lookups[kind]: value}
            # a phrase: what it names ("Birch Dock takes a month."), or else the question does
            named = named_things(value, lookups) or (
                named_things(self.question, lookups) if is_phrase(value) else []
            )
            if (found := self._first_unasked(named)) is not None:
                return found
        return None

    def first_named_thing(self) -> tuple[str, dict[str, Any]] | None:
        """With "auto", the first thing the question names of a lookup's kind that no call
        of this turn asked about (:func:`~toolkit.local.decision.kinds.named_things`), as
        ``(lookup, arguments)``; ``None`` when there is none."""
        if not self.auto:
            return None
        return self._first_unasked(named_things(self.question, self.lookups))

    def _first_unasked(
        self, things: Sequence[tuple[str, str]]
    ) -> tuple[str, dict[str, Any]] | None:
        """The first of ``things`` (``(name, lookup)``, :func:`~toolkit.local.decision.kinds.
        named_things`) that no call of this turn asked about, as its lookup's call."""
        asked = self._asked_texts()
        for name, its in things:
            if name.casefold() not in asked:
                return its, {self.lookups[its]: name}
        return None

    def _asked_texts(self) -> set[str]:
        """The text values this turn's calls asked about, stripped and case-folded."""
        texts = [v for _, a in self.turn_calls for v in a.values() if isinstance(v, str)]
        return {v.strip().casefold() for v in texts}

    def names_for_untried(self) -> list[tuple[str, dict[str, Any]]]:
        """With "auto", once the one name this turn's lookups were asked about was refused
        ("Aldermoor Pottery" of "Aldermoor gets its tableware from one particular pottery",
        "Ashgrove Palm House" asked of ``get_weather_station``): that name, in the question's
        words, asked of each tool that looks things up by name and was not called yet — the
        chain's first step may be another kind's (:attr:`~ToolPolicy.named_kinds`). Beside
        lookups that answered for other names, a refused name goes on only when its words
        state no refusing tool's kind (:attr:`~ToolPolicy.refused_names_elsewhere`). Tools that
        take it as a key (a ``name``, ``id``, ``title``) come before those that take any text
        (``reverse_text(text)``), which are asked only when there is no such tool."""
        if not self.auto or not self.policy.named_kinds:
            return []
        lookups = self.lookups
        refused, known = [], set()
        for (tool, arguments), result in zip(self.turn_calls, self.turn_results, strict=True):
            value = arguments.get(lookups[tool]) if tool in lookups else None
            if not isinstance(value, str):
                continue
            if result is None or is_error(result):
                refused.append((_in_question_words(value, tool, self.question), tool))
            else:
                known.add(value.strip().casefold())
        names = list(dict.fromkeys(name for name, _ in refused))
        if len(names) != 1 or names[0] is None or names[0].casefold() in known:
            return []
        if known and (  # beside answers, only a name of no refusing tool's kind goes on
            not self.policy.refused_names_elsewhere
            or kind_of(names[0], lookups) in {tool for _, tool in refused}
        ):
            return []
        called = {tool for tool, _ in self.turn_calls}
        options = [(t, {k: names[0]}) for t, k in lookups.items() if t not in called]
        keyed = [o for o in options if set(re.findall(r"[a-z]+", lookups[o[0]].casefold())) & _KEYS]
        return keyed or options

    def refused(self, tool: str, arguments: Mapping[str, Any]) -> bool:
        """Whether a call of this turn asked the tool these arguments and failed."""
        return any(
            name == tool and dict(asked) == dict(arguments) and (r is None or is_error(r))
            for (name, asked), r in zip(self.turn_calls, self.turn_results, strict=True)
        )

    def named_by_records(self, tool: str) -> tuple[str, dict[str, Any]] | None:
        """A call of a tool that looks things up by name, asked about the thing of its kind
        the turn's last record that names one gives
        (:func:`~toolkit.local.decision.chains.kind_named`), when no call asked it yet;
        ``None`` otherwise."""
        key = self.lookups.get(tool)
        if key is None:
            return None
        asked = self._asked_texts()
        for result in reversed(self.turn_results):
            if result is None or is_error(result):
                continue
            name = kind_named(result, tool)
            if name and name.strip().casefold() not in asked:
                return tool, {key: name.strip()}
        return None

    def looks_past_the_question(self, call: dict[str, Any]) -> bool:
        """After results, every call of the turn answered: whether a call looks a thing up by
        name (:func:`~toolkit.local.decision.kinds.name_parameter`) that the question neither
        names (no word of the name in it) nor points at
        (:func:`~toolkit.local.decision.chains.points_past`: "那家酒厂", "that rink"): the
        ice rinks two breweries' records name, looked up when the question asked how much
        the breweries brew together (:attr:`~ToolPolicy.named_things_only`). A result that is
        the name alone is the way on ("Mia Chen", the captain asked about), not a thing aside.
        """
        if not self.auto or not self.policy.named_things_only or not self.turn_calls:
            return False
        if any(r is None or is_error(r) for r in self.turn_results):
            return False  # a failed step: its thing may go by another name
        tool = call["function"]["name"]
        key = self.lookups.get(tool)
        value = arguments_of(call).get(key) if key is not None else None
        if not isinstance(value, str) or _shares_a_word(value, self.question):
            return False
        if any((r or "").strip().casefold() == value.strip().casefold() for r in self.turn_results):
            return False  # a result that is the name alone (the captain "Mia Chen"): the way on
        if any(says_its_kind(r or "", value, self.question) for r in self.turn_results):
            return False  # "盐谷种子库的资助行会…" of a record's "Quillhaven Guild (羽港行会)"
        answered = {t for t, _ in self.turn_calls}
        return not points_past(self.question, [t for t in self.schemas if t not in answered])

    def rejected(self, call: dict[str, Any]) -> bool:
        """Whether a call repeats the conversation (or :meth:`asks_again`), looks up a thing
        the question has no part in (:meth:`looks_past_the_question`) or no thing at all
        (:meth:`names_no_thing`), takes a number more often than it was stated
        (:meth:`repeats_a_number`) or, with "auto", uses values it never gave (with
        :attr:`~ToolPolicy.judged_as_sent`, once the optional guesses are left out, as the
        call is sent)."""
        if self.history.redundant(call) or self.asks_again(call):
            return True
        if self.looks_past_the_question(call) or self.names_no_thing(call):
            return True
        if self.takes_a_question_word(call):
            return True
        if self.after_the_sum(call) or self.undoes_last_step(call):
            return True
        if self.repeats_a_number(call) or self.unasked_difference(call):
            return True
        if self.policy.judged_as_sent:  # the optional guesses are left out before it is sent
            call = self.without_guesses(call)
        return self.auto and bool(self._faults(call))

    def takes_a_question_word(self, call: dict[str, Any]) -> bool:
        """With "auto", whether a text value of the call is a question's word alone, no value
        of anything (:attr:`~ToolPolicy.question_words_no_values`): the small model wrote
        ``opening_hours(place="What")`` for "… What hours is that garden open?"."""
        if not self.auto or not self.policy.question_words_no_values:
            return False
        for value in leaves(arguments_of(call)):
            word = value.strip(" \t\n.,?!？。，").casefold() if isinstance(value, str) else ""
            quoted = rf"[\"'‘“「]{re.escape(word)}[\"'’”」]"  # the word itself asked about
            if word in _QUESTION_WORDS and not re.search(quoted, self.question, re.IGNORECASE):
                return True
        return False

    def unasked_difference(self, call: dict[str, Any]) -> bool:
        """With "auto", after results and before any arithmetic call of the turn: whether a
        call subtracts while the question asks for no arithmetic
        (:func:`~toolkit.local.decision.asking.asks_arithmetic`,
        :attr:`~ToolPolicy.differences_when_asked`): asked how high two locks lift a boat,
        the small model subtracted one lift from the other."""
        if not self.auto or not self.policy.differences_when_asked or not self.turn_calls:
            return False
        operation = self.operations.get(call["function"]["name"])
        if operation is None or operation[0] != "-":
            return False
        if any(tool in self.arithmetic for tool, _ in self.turn_calls):
            return False  # a plan of arithmetic is under way
        return not asks_arithmetic(self.question)

    def repeats_a_number(self, call: dict[str, Any]) -> bool:
        """With "auto", whether an arithmetic call takes one number more often than the
        conversation states it (:attr:`~ToolPolicy.numbers_as_often_as_stated`): ``plus(2,
        2)`` for "连续烤两天", as a plan of the question may not (``24 * 24`` is no reading of
        "24 muffins a day")."""
        if not self.auto or not self.policy.numbers_as_often_as_stated:
            return False
        if call["function"]["name"] not in self.operations:
            return False
        numbers = [abs(float(n)) for n in numbers_of(arguments_of(call))]
        text = self.grounding
        for number in set(numbers):
            told = stated_times(number, text) + chinese_numbers(text).count(number)
            if numbers.count(number) > max(1, told):
                return True
        return False

    def after_the_sum(self, call: dict[str, Any]) -> bool:
        """With "auto", after a turn of arithmetic calls whose last step combined the results
        and left no number unused (:attr:`combined`): whether a call of a tool that is no
        arithmetic is one the question does not ask for (:meth:`asks_for`; no word of its
        kind, :func:`~toolkit.local.decision.mentions.says_kind`;
        :attr:`~ToolPolicy.sums_end_turns`).
        ``count_words("180 words")`` came after ``split_evenly(180, 12)`` had answered "how
        many litres go in each pot?", and the answer recited its 2."""
        if not self.auto or not self.policy.sums_end_turns or not self.combined:
            return False
        tool = call["function"]["name"]
        if tool in self.arithmetic or not all(t in self.arithmetic for t, _ in self.turn_calls):
            return False
        return not self.asks_for(tool, []) and not says_kind(self.question, tool)

    def undoes_last_step(self, call: dict[str, Any]) -> bool:
        """With "auto", whether an arithmetic call undoes the turn's last step: the inverse
        operation of its result and one of its operands (``divide_amount(480, 4)`` after
        ``multiply_pair(120, 4)`` gave 480 — the nightly rate again, which the answer then
        gave as the total; :attr:`~ToolPolicy.sums_end_turns`)."""
        if not self.auto or not self.policy.sums_end_turns or not self.turn_calls:
            return False
        made = self.operations.get(self.turn_calls[-1][0])
        undo = self.operations.get(call["function"]["name"])
        result = _one_number(self.turn_results[-1])
        if made is None or undo is None or result is None or undo[0] != _INVERSE[made[0]]:
            return False
        operation, first, second = made
        arguments = self.turn_calls[-1][1]
        a, b = _as_number(arguments.get(first)), _as_number(arguments.get(second))
        values = arguments_of(call)
        left, right = _as_number(values.get(undo[1])), _as_number(values.get(undo[2]))
        if operation in "+*":  # 480 / 4 or 480 / 120 after 120 * 4 = 480
            return left == result and right is not None and right in (a, b)
        return {left, right} == {result, b}  # 100 + 20 or 20 + 100 after 120 - 20 = 100

    def names_no_thing(self, call: dict[str, Any]) -> bool:
        """With "auto", whether a lookup by name asks about the words of its tool's kind alone,
        no name (:func:`~toolkit.local.decision.kinds.names_nothing`: "修道院" of
        ``get_monastery``), or a phrase of the question
        (:func:`~toolkit.local.decision.kinds.is_phrase`: "太阳系里体积最大的", which no thing
        the question names took the place of: :meth:`of_its_kind`;
        :attr:`~ToolPolicy.named_kinds`), a refusal copied around the name it refused
        (:attr:`~ToolPolicy.refusals_not_names`), or a name in capitals made of words the
        question writes in lower case (:attr:`~ToolPolicy.names_as_written`)."""
        if not self.auto or not self.policy.named_kinds:
            return False
        tool = call["function"]["name"]
        key = self.lookups.get(tool)
        value = arguments_of(call).get(key) if key is not None else None
        if not isinstance(value, str):
            return False
        if self.policy.refusals_not_names and self._copies_refusal(value):
            return True  # "ERROR | unknown wharf | 宾德尔滚筒修理行": a refusal, no name
        if self.made_up_name(call):
            return True  # "Total Beekeepers" of "how many beekeepers is that in total?"
        kind = kind_of(value, self.lookups) or tool
        if not (names_nothing(value, kind) or is_phrase(value)):
            return False
        return self.of_its_kind(call) is None  # no thing the question names to ask instead

    def made_up_name(self, call: dict[str, Any]) -> bool:
        """With "auto", whether a lookup by name asks about a name in capitals made of words
        the question writes in lower case
        (:func:`~toolkit.local.decision.kinds.capitalised_from_lower_case`,
        :attr:`~ToolPolicy.names_as_written`)."""
        if not self.auto or not self.policy.names_as_written:
            return False
        key = self.lookups.get(call["function"]["name"])
        value = arguments_of(call).get(key) if key is not None else None
        return isinstance(value, str) and capitalised_from_lower_case(value, self.question)

    def _copies_refusal(self, value: str) -> bool:
        """Whether a value is a refusal's text around a name a failed call of the turn sent
        ("ERROR | unknown wharf | 宾德尔滚筒修理行" after ``get_wharf("宾德尔滚筒修理行")``)."""
        value = value.strip()
        refused = [
            (arguments, r)
            for (_, arguments), r in zip(self.turn_calls, self.turn_results, strict=True)
            if r is not None and is_error(r)
        ]
        if not any(value in r for _, r in refused):
            return False
        sent = [v.strip() for a, _ in refused for v in a.values() if isinstance(v, str)]
        return any(v and v in value and len(value) > len(v) for v in sent)

    def unstated_numbers(self, call: dict[str, Any]) -> list[float]:
        """The call's numbers the conversation never stated, in digits or in words
        (:func:`~toolkit.local.decision.numbers.numbers_for_calls`)."""
        stated = numbers_for_calls(self.grounding, self.policy.counted_numbers)
        return ungrounded_numbers(arguments_of(call), stated)

    def _only_numbers(self, call: dict[str, Any]) -> list[float]:
        """The call's unstated numbers when they are its only faults (else empty)."""
        faults = self._faults(call)
        numbers = self.unstated_numbers(call)
        return numbers if faults and len(faults) == len(numbers) else []

    def only_numbers_ungrounded(self, call: dict[str, Any]) -> bool:
        """Whether a call's only fault is numbers the conversation never stated."""
        return bool(self._only_numbers(call))

    def runs_numbers_together(self, call: dict[str, Any]) -> bool:
        """Whether a call's only fault is unstated numbers, one of them numbers of the
        conversation run together (:func:`~toolkit.local.decision.numbers.run_together`:
        ``factorial(510)`` asked about 5, 10 and 15)."""
        return any(run_together(n, self.grounding) for n in self._only_numbers(call))

    def only_foreign_words(self, call: dict[str, Any]) -> bool:
        """Whether a call's only faults are text values that are not the user's words but
        stand for them: written in a script the question does not use (the model's
        translation: "广州" for "Guangzhou"), or copying a quoted example of their
        description (``get_height("Everest")`` asked about Mount Fuji, after 'e.g.
        "Everest"'; :func:`~toolkit.local.decision.examples.borrowed_words`)."""
        faults = self._faults(call)
        schema = self.schemas.get(call["function"]["name"])
        described = self.descriptions.get(call["function"]["name"])
        copied = borrowed_words(
            arguments_of(call), schema, self.grounding, whole=True, described=described
        )
        return bool(faults) and all(
            isinstance(v, str)
            and (in_another_script(v, self.question) or bool(set(copied) & set(words_of(v))))
            for v in faults
        )

    def without_guesses(self, call: dict[str, Any]) -> dict[str, Any]:
        """The call without its optional arguments whose values the conversation never gave,
        inside its objects too (:func:`~toolkit.local.decision.grounding.without_unfounded`),
        when the model chose to call ("auto") and :attr:`~ToolPolicy.leave_out_guesses` is
        on; a call it names (``tool_choice``) is the requested output, every value of it
        wanted."""
        if not (self.auto and self.policy.leave_out_guesses):
            return call
        arguments = arguments_of(call)
        schema = self.schemas.get(call["function"]["name"])
        kept = without_unfounded(arguments, schema, self.grounding, self.policy)
        if kept == arguments:
            return call
        function = {**call["function"], "arguments": json.dumps(kept, ensure_ascii=False)}
        return {**call, "function": function}

    def shares_words(self, call: dict[str, Any]) -> bool:
        """Whether a text value of the call holds a word of three letters or more that the
        user's question says ("taskkill" of ``"taskkill /F /IM firefox.exe"``)."""
        question = set(re.findall(r"[^\W_]{3,}", self.question.casefold()))
        values = [v for v in leaves(arguments_of(call)) if isinstance(v, str)]
        return any(w in question for v in values for w in re.findall(r"[^\W_]{3,}", v.casefold()))

    def optional_guess(self, tool: str | None, key: str | None) -> bool:
        """Whether a value being written under ``key`` is one :meth:`without_guesses` would
        leave out if nobody gave it: the argument is optional, the model chose to call and
        :attr:`~ToolPolicy.leave_out_guesses` is on. An extra call is not given up at such a
        value (a third amenity nobody asked for), since the guess is left out after."""
        if not (self.auto and self.policy.leave_out_guesses) or tool is None or key is None:
            return False
        properties = (self.schemas.get(tool) or {}).get("properties") or {}
        return key in properties and key not in self.required.get(tool, [])

    def tidied(self, call: dict[str, Any]) -> dict[str, Any]:
        """The call with its values in the forms their parameters take
        (:mod:`~toolkit.local.decision.forms`: a percentage as a fraction where a rate is
        one, a text value without the words another argument holds, a date copied wrong from
        the user's one date written right — :attr:`~ToolPolicy.value_forms`; a date or time in
        the format its parameter's description asks for,
        :attr:`~ToolPolicy.described_formats`), then
        :meth:`without_guesses`."""
        if self.policy.value_forms:
            arguments = arguments_of(call)
            schema = self.schemas.get(call["function"]["name"])
            formed = in_percent_form(arguments, schema, self.written)
            formed = without_other_spans(formed, schema, self.written)
            formed = in_stated_dates(formed, self.written)
            if self.policy.described_formats:
                formed = in_described_formats(formed, schema, self.written)
            formed = without_dangling_joints(formed, self.written)
            if self.policy.hemisphere_signs:
                formed = in_hemisphere_signs(formed, self.written)
            if self.policy.parameter_words_aside:
                formed = without_parameter_word(formed, schema, self.written)
            tool = call["function"]["name"]
            if self.policy.possessives_bare:
                key = self.lookups.get(tool)
                formed = without_possessive(formed, key, name_words(tool), self.written)
            if self.policy.differences_when_asked:
                formed = self._larger_first(tool, formed)
            if formed != arguments:
                text = json.dumps(formed, ensure_ascii=False)
                call = {**call, "function": {**call["function"], "arguments": text}}
        return self.without_guesses(call)

    def _larger_first(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """After results, a subtraction of the smaller number from the larger when the
        question asks a difference in no order
        (:func:`~toolkit.local.decision.asking.asks_unordered_difference`: "how many years
        apart were they built?"), as :func:`~toolkit.local.decision.combining.larger_first`
        writes a plan. Other calls are as they were."""
        operation = self.operations.get(tool)
        if not self.auto or not self.turn_calls or operation is None or operation[0] != "-":
            return arguments
        _, first, second = operation
        a, b = arguments.get(first), arguments.get(second)
        if not (is_number(a) and is_number(b)) or float(a) >= float(b):
            return arguments
        if not asks_unordered_difference(self.question):
            return arguments
        return {**arguments, first: b, second: a}

    def repeat_doom(self, value: Any, written: dict[str, Any], tool: str | None) -> bool:
        """Stop a first call as soon as it repeats one the conversation made."""
        earlier = self.history.arguments.get(tool or "", [])
        if tool is not None and repeats(written, self.required.get(tool, []), earlier):
            self.doomed_name, self.doomed_arguments = tool, dict(written)
            return True
        return False

    def texts_in_place(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        """With "auto", a repeated call's arguments with the results of this turn's calls in
        the places of the text values they took
        (:func:`~toolkit.local.decision.chains.texts_in_place`: ``get_email("Dave")`` for
        ``get_email("Carol")`` again once ``get_manager("Carol")`` answered "Dave")."""
        if not self.auto or not self.turn_calls:
            return None
        return texts_in_place(tool, arguments, self.turn_calls, self.turn_results)

    def combines_one_record(self, call: dict[str, Any]) -> bool:
        """With "auto", whether a call only combines fields of one record the question states
        no number of (:func:`~toolkit.local.decision.chains.fields_of_one_record`: ``add(199,
        2)``, a game's price and its players), while no other record's fields or question's
        numbers can take its places (:meth:`fields_in_place`)."""
        if not self.auto or not self.turn_calls or not self.policy.record_fields:
            return False
        arguments = arguments_of(call)
        return (
            fields_of_one_record(arguments, self.turn_calls, self.turn_results, self.question)
            and self.fields_in_place(call) is None
        )

    def fields_in_place(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """With "auto", a call that combines two fields of one record while records of the
        same kind wait, written with the first field's value of each
        (:func:`~toolkit.local.decision.chains.fields_in_place`: ``add(95, 130)`` for
        ``add(130, 92)``, one train's minutes and fare); ``None`` when it mixes none."""
        if not self.auto or not self.turn_calls or not self.policy.record_fields:
            return None
        arguments = arguments_of(call)
        return fields_in_place(
            arguments, self.turn_calls, self.turn_results, self.question, self.unused
        )

    def other_field(self, call: dict[str, Any], made: Sequence[tuple[str, dict]]) -> bool:
        """With "auto", whether an extra call combines the records' values under another
        label than an earlier call of the answer of the same tool did
        (:func:`~toolkit.local.decision.chains.other_field`: the pastries' weights beside
        their prices)."""
        if not self.auto or not self.turn_calls or not self.policy.record_fields:
            return False
        tool = call["function"]["name"]
        same = [a for n, a in made if n == tool]
        return other_field(arguments_of(call), same, self.turn_calls, self.turn_results)

    def step_to_resume(
        self, pick: Callable[[Sequence[str]], str | None] | None = None
    ) -> tuple[str, dict[str, Any]] | None:
        """With "auto", a call that failed at a value another tool then answered with a record
        for it, written with the record's value in its place
        (:func:`~toolkit.local.decision.chains.failed_step_to_resume`:
        ``get_designer_hometown("周岚")`` after ``get_designer_hometown("竹简")`` failed and
        ``get_board_game("竹简")`` named the designer), or the first step of the chain another
        value went through, for a failed value that skipped it
        (:func:`~toolkit.local.decision.chains.first_step_for`), or the step to the entity a
        record names (:func:`~toolkit.local.decision.chains.named_next_step`), of the lookup
        ``pick`` chooses when the name states no kind (:attr:`~ToolPolicy.linked_entities`);
        ``None`` when there is none."""
        if not self.auto or not self.turn_calls:
            return None
        failures = [r is None or is_error(r) for r in self.turn_results]
        resumed = failed_step_to_resume(self.turn_calls, self.turn_results, failures, self.question)
        if resumed is None:  # the first step another value's chain made, for this one
            resumed = first_step_for(self.turn_calls, self.turn_results, failures)
        if resumed is None and self.policy.refused_names_followed:  # a refusal's known name
            resumed = refused_kind_named(
                self.turn_calls, self.turn_results, failures, self.question
            )
        if resumed is None and self.policy.follow_named_entities:  # the entity a record names
            resumed = named_next_step(
                self.turn_calls,
                self.turn_results,
                failures,
                self.question,
                self.schemas,
                pick=pick if self.policy.linked_entities else None,
                since=self.last_step if self.policy.linked_entities else 0,
                past_asked=self.policy.records_pointed_past,
                lone_links=self.policy.lone_links_followed,
            )
            if resumed is not None:
                resumed = self._asked_of_fitting(*resumed) or resumed
        return resumed

    def _linked_value(self, arguments: Mapping[str, Any]) -> bool:
        """Whether a call's one text value is a name a result of the turn gives and the
        question does not: a chain's later step."""
        texts = [v for v in arguments.values() if isinstance(v, str) and len(v.strip()) >= 3]
        if (
            len(texts) != 1
            or len(arguments) != 1
            or texts[0].casefold() in self.question.casefold()
        ):
            return False
        return any(r is not None and texts[0] in r for r in self.turn_results)

    def _asked_of_fitting(
        self, tool: str, arguments: dict[str, Any], *, made_too: bool = False
    ) -> tuple[str, dict[str, Any]] | None:
        """A chain's step to a thing a record names, asked of the tool that takes any place or
        thing by its name whose own words the sentence that asks fits
        (:attr:`~ToolPolicy.chain_end_fits_asked`,
        :func:`~toolkit.local.decision.fitting.fitting_tool`): "What hours is that garden
        open?" of the garden a paper mill's record names is ``opening_hours(place=…)``, not
        the gardens' record. A tool of people stays out of it: the owner of a rope walk is
        no person to look up by the rope walk's name. ``None`` when the step stays as it is,
        or when that call was made already (unless ``made_too``: the caller reads it as a
        step of nothing)."""
        if not self.policy.chain_end_fits_asked or writes_spaceless(self.question):
            return None
        value = self._one_name(tool, arguments)
        if value is None:
            return None
        tools = self.one_name_tools
        asking = asking_sentence(self.question)
        asked = asked_terms(asking, [value, *self.stated_names], tools)
        fitting = fitting_tool(asked, tools, self.descriptions, self.schemas)
        if fitting is None or fitting == tool:
            return None
        taken = set(re.findall(r"[a-z]+", tools[fitting].casefold()))
        if not taken & _ANY_THING_KEYS or _PEOPLE_TOOL.search(f"{fitting} {tools[fitting]}"):
            return None
        call = {"function": {"name": fitting, "arguments": json.dumps({tools[fitting]: value})}}
        if self.history.redundant(call) and not made_too:
            return None
        return fitting, {tools[fitting]: value}


#: Parameter words of a tool that takes any place or thing by its name (``opening_hours(place)``).
_ANY_THING_KEYS = frozenset(
    "place location site venue name title attraction facility establishment business".split()
)
#: The words of a lookup of people (:data:`~toolkit.local.decision.chains.PEOPLE`), and of
#: a tool of a place's staff or members.
_PEOPLE_TOOL = re.compile(rf"{PEOPLE.pattern}|staff|member", re.IGNORECASE)
#: Words that ask or point, alone no value of anything ("What", "Which", "哪家").
_QUESTION_WORDS = frozenset(
    "what which who whom whose where when why how whichever whatever "
    "什么 哪个 哪家 哪里 哪儿 谁 多少 那个 这个 那家 这家".split()
)


def _in_question_words(value: str, tool: str, question: str) -> str | None:
    """A name as the question writes it: whole, or without the words of the tool's kind a
    call added after it ("Aldermoor" of "Aldermoor Pottery" asked of ``get_pottery``);
    ``None`` when the question writes neither."""

    def written(text: str) -> bool:
        edge = "" if writes_spaceless(text) else r"(?<!\w)"
        end = "" if edge == "" else r"(?!\w)"
        return re.search(edge + re.escape(text) + end, question, re.IGNORECASE) is not None

    value = value.strip()
    if value and written(value):
        return value
    return next((stem for stem, _ in without_kind(value, tool) if written(stem)), None)


def _shares_a_word(value: str, question: str) -> bool:
    """Whether a name shares a word with the question: one of four letters or more, or two
    Chinese characters together ("Vossberg" of "Vossberg Ice Rink" in "Vossberg's seats")."""
    folded = question.casefold()
    words = [w for w in re.findall(r"[^\W\d_]+", value.casefold()) if len(w) >= 4]
    if any(w in folded for w in words):
        return True
    chinese = re.findall(r"[\u4e00-\u9fff]{2,}", value)
    return any(c[i : i + 2] in question for c in chinese for i in range(len(c) - 1))


def holds_value(value: str, failed: str) -> bool:
    """Whether a value that a tool answered is the failed value, or holds it whole with words
    added ("星井 Observatory" holds "星井"): the same thing asked in another form.

    Args:
        value: The answered call's text value.
        failed: The failed call's text value.

    Returns:
        True when ``value`` is ``failed`` (case aside) or holds it as whole words.
    """
    value, failed = value.casefold().strip(), failed.casefold().strip()
    if not failed:
        return False
    if value == failed:
        return True
    edge = r"(?<![^\W_])" if failed[0].isascii() else ""
    tail = r"(?![^\W_])" if failed[-1].isascii() else ""
    return re.search(rf"{edge}{re.escape(failed)}{tail}", value) is not None


def last_step_at(messages: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the last message that made tool calls (``None`` when none did).

    Args:
        messages: OpenAI messages.

    Returns:
        Its index in ``messages``.
    """
    return max((i for i, m in enumerate(messages) if m.get("tool_calls")), default=None)


def folded(text: str) -> str:
    """The text's letters and digits only, case-folded (a copy of the question is found
    however it is punctuated)."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


#: The operation that undoes each.
_INVERSE = {"+": "-", "-": "+", "*": "/", "/": "*"}


def _as_number(value: Any) -> float | None:
    """A call's value as a number (``None`` when it is none)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return round(float(value), 9)
    except ValueError:
        return None


def _one_number(result: str | None) -> float | None:
    """The one number a short result states ("480", "quotient: 120"), else ``None``."""
    lone = lone_number(result or "")
    return None if lone is None else round(float(lone), 9)
