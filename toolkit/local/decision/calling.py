"""Writing the calls of an answer: the first one, checked against the conversation, and more.

:class:`CallWriter` is the half of the embedded server's decoder that decodes ``<tool_call>``
blocks (the other half, in :mod:`toolkit.local.decision.decoding`, writes text and chooses
between the two). The first call opens with the name of the tool the model is likeliest to
name, written with the prompt in one batch. A first call that repeats the conversation —
stopped at the value that makes it a repeat — or uses values the conversation never gave
(:class:`~toolkit.local.decision.turn.CallJudge`) gives way to the next most likely tool. After
tool results, a repeat that a lookup chain's answer belongs in is written with that answer in
its place (:mod:`~toolkit.local.decision.chains`), a call whose only fault is unstated numbers
is written again with only the stated numbers, and when no tool does better a call whose only
faults are the user's words translated or a description's example copied is written again in
the user's words (:mod:`~toolkit.local.decision.phrases`). A first call whose text borrows
words from its description's example is written again without them
(:mod:`~toolkit.local.decision.examples`). When parallel calls are allowed the model is made to
write one more call after each, of the same tool and then of another, kept only when it is new
and grounded. The calls returned leave out the optional arguments whose values nobody gave.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from toolkit.errors import LocalModelError
from toolkit.local.decision.clauses import step_prefix
from toolkit.local.decision.coordination import listed_calls
from toolkit.local.decision.examples import borrowed_words, unshaped_values
from toolkit.local.decision.grounding import (
    adds_new_grounded_values,
    arguments_of,
    conversation_text,
    moves_values,
    needs_unstated_number,
    occurs,
    placed_anew,
    qualifies_earlier,
    repeats,
    rules_out_extra_call,
    uses_given_values,
)
from toolkit.local.decision.kinds import (
    heads_of,
    is_phrase,
    name_before_kind,
    place_head,
    place_names,
)
from toolkit.local.decision.mentions import refuses, writes_out
from toolkit.local.decision.numbers import (
    known_numbers,
    leaves,
    number_spellings,
    numbers_of,
)
from toolkit.local.decision.ordering import as_written
from toolkit.local.decision.parts import (
    best_fitting_tools,
    part_to_write,
    restates,
    states_value,
    texts_of_its_own,
    unasked_parts,
)
from toolkit.local.decision.phrases import conversation_phrases, slip_of, writes_spaceless
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.decision.records import name_words
from toolkit.local.decision.retries import (
    ampersand_name,
    failure_to_retry,
    forms_of,
    holds_key,
    keys_held,
    listed_by_question,
    listed_items,
    listed_names,
    named_keys,
    parts_of,
)
from toolkit.local.decision.siblings import asked_sibling, said_parameters
from toolkit.local.decision.signals import name_probabilities
from toolkit.local.decision.stated import (
    stated_choices,
    stated_flags,
    stated_optionals,
    stated_spellings,
)
from toolkit.local.decision.turn import (
    CallJudge,
    folded,
    has_results,
    last_question,
    turn_start,
    untried_after_failures,
)
from toolkit.local.format.events import ContentDelta, Event, Finished, ToolCallEvent
from toolkit.local.format.grammar import call_opening, calls_grammar, written_call
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.json_scan import JsonScanner
from toolkit.local.format.parser import ToolCallStream, parse_tool_calls
from toolkit.local.format.stops import repetition_start
from toolkit.wire import content_text

if TYPE_CHECKING:  # calls are decoded on a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["CallWriter", "Doom"]


#: The tool a call being written names.
_NAMED = re.compile(r'"name": "([^"]+)"')


def _named_tool(pieces: list[str]) -> str | None:
    """The tool the text of a call being written names (``None`` before its name is out)."""
    named = _NAMED.search("".join(pieces))
    return named.group(1) if named else None


#: Says, of a completed argument value (with the values so far and the tool's name), that the
#: call being written will be discarded.
Doom = Callable[[Any, dict[str, Any], str | None], bool]
#: How many pieces of a call apart it is read for a loop: a value that runs on repeating one
#: phrase is given up, not written to the token limit.
_LOOP_CHECK = 8


class CallWriter:
    """Decodes the calls of one answer; mixed into the decoder, whose state it shares."""

    engine: Engine
    job: ChatJob
    policy: ToolPolicy
    tokens: list[int]
    names: dict[str, float] | None
    repeated: int
    used: int
    #: Whether a sound call was looked for in place of a text answer (``sound_only``).
    sound_tried: bool = False
    #: Whether the failed call :meth:`failure_retried` wrote again held a list as one value.
    retried_list: bool = False
    #: Whether the call given to :meth:`calls` is a chain's step :meth:`failed_step_resumed`
    #: chose the tool of: no kind read in the name moves it.
    resumed_step: bool = False
    #: Before any result, the likeliest rejected first call that states no number nobody
    #: gave and shares a word with the user's: made when the text answer instead says
    #: nothing (:meth:`_no_answer`).
    unread_call: tuple[list[str], Any, list[dict]] | None = None
    #: A text answer a call may replace: given as it is when none is made.
    kept_text: tuple[str, str] | None = None

    if TYPE_CHECKING:  # the decoder this is mixed into provides these

        def _options(self) -> SamplingOptions: ...

        def _finished(self, reason: str, decision: str) -> Finished: ...

        def measure_names(self) -> None: ...

        def text(self, *, from_results: bool = False) -> Iterator[Event]: ...

        def checked_text(self) -> Iterator[Event]: ...

        def _answering(self, text: str) -> str: ...

        def echo_ends(self, answer: str) -> list[str]: ...

        def stating_result(self, events: list[Event], ends: Sequence[str]) -> list[Event]: ...

        def _stated_numbers(self) -> list[str] | None: ...

        def planned_steps(
            self, chosen: Sequence[Mapping[str, Any]] = ()
        ) -> list[tuple[str, dict[str, Any]]] | None: ...

        def combined_steps(
            self, chosen: Sequence[Mapping[str, Any]] = (), *, asked: bool = False
        ) -> list[tuple[str, dict[str, Any]]] | None: ...

        def asked_combination(self) -> list[tuple[str, dict[str, Any]]] | None: ...

        def unasked_combination(self, chosen: Sequence[Mapping[str, Any]]) -> bool: ...

        def written_calls(self, calls: list[tuple[str, dict[str, Any]]]) -> Iterator[Event]: ...

    def _attempt(
        self,
        context: list[int],
        grammar: str,
        doomed: Doom | None = None,
        names: list[str] | None = None,
        opening: str | None = None,
    ) -> tuple[list[str], Any, list[dict], bool]:
        """One call under a grammar of the tools ``names`` (default: every tool): its pieces,
        generation, calls and whether it was given up because ``doomed`` said so of a
        completed argument value, or because it ran on in a loop. The grammar's opening
        (:func:`call_opening`), or the given ``opening``, is written, not chosen."""
        generation = self.engine.generate(
            context,
            self._options(),
            grammar=grammar,
            cancel=self.cancel,
            opening=call_opening(names or self.job.tool_names) if opening is None else opening,
        )
        pieces: list[str] = []
        scanner = JsonScanner(values_under="arguments", skip_prefix=True)
        written: dict[str, Any] = {}
        same: list[Any] = []  # the run of equal values just written
        items: list[Any] = []  # the keys of the values just written, in a run of one key
        longest = self._longest_list()
        for piece in generation:
            pieces.append(piece)
            if len(pieces) % _LOOP_CHECK == 0 and repetition_start("".join(pieces)) is not None:
                generation.close()  # a value run on in a loop ("Morgan Freeman, Morgan …")
                self.used += generation.completion_tokens - generation.written
                return pieces, generation, [], True
            values = scanner.feed(piece)
            keys = scanner.keys[len(scanner.keys) - len(values) :]
            for value, key in zip(values, keys, strict=True):
                if key is not None:
                    written.setdefault(key, value)
                same = [*same, value] if same and same[-1] == value else [value]
                items = [*items, key] if items and items[-1] == key else [key]  # a list's
                looping = len(same) >= self.policy.max_same_values  # [1984, 1984, 1984, ...
                looping = looping or len(items) > longest  # [12, 23, …, 131, 132, …
                if looping or (doomed is not None and doomed(value, written, _named_tool(pieces))):
                    generation.close()
                    self.used += generation.completion_tokens - generation.written
                    return pieces, generation, [], True
        # The opening the engine wrote counts once the call is kept (it is output then): an
        # attempt given up spent only the tokens the model chose.
        self.used += generation.completion_tokens - generation.written
        text = "".join(pieces)
        found = parse_tool_calls(text, self.job.tool_names, lenient=False).tool_calls
        return pieces, generation, found, False

    def _longest_list(self) -> int:
        """The most items a call's list may hold before it is a loop: the user's words and
        numbers, counted, or :attr:`~ToolPolicy.max_list_items` when that is more."""
        said = " ".join(
            content_text(m.get("content")) for m in self.job.messages if m.get("role") == "user"
        )
        return max(self.policy.max_list_items, len(re.findall(r"\w+", said)))

    def _probes(
        self, turn: CallJudge, made: list[tuple[str, dict]], grammar: str
    ) -> list[tuple[str, list[str]]]:
        """The grammars one more call is tried under, with their tools, in order: the tools
        the question names that no call of the answer used yet (the debt ratio asked for
        after the profit margin), the same tool as the call before (the second city of a
        parallel request), then the other tools; with only the numbers of
        :attr:`CallJudge.numbers_only` when the first call's were confined to them."""
        last = made[-1][0]
        others = [n for n in self.job.tool_names if n != last]
        numbers = turn.numbers_only
        if not others:
            if numbers is not None:
                grammar = calls_grammar(self.job.tools, max_calls=1, numbers=numbers)
            return [(grammar, [last])]
        called = [n for n, _ in made]
        asked = [n for n in others if n not in called and turn.asks_for(n, called)]
        rest = [n for n in others if n not in asked]
        tools = self.job.tools
        groups = [asked, [last], rest]
        return [
            (calls_grammar(tools, names=names, max_calls=1, numbers=numbers), names)
            for names in groups
            if names
        ]

    def calls(
        self,
        name: str | None,
        *,
        sound_only: bool = False,
        first: tuple[list[str], Any, list[dict]] | None = None,
        among: list[str] | None = None,
    ) -> Iterator[Event]:
        """Calls, one ``<tool_call>`` block at a time.

        With ``tool_choice="auto"`` a first call that repeats one the conversation already
        made, or uses values the conversation never gave, gives way to a call of the next most
        likely tool; when no tool does better the answer is text from the results (or, before
        any result, the model's own first call if it uses a value the user gave or the question
        names its tool). When several calls are allowed the model is then made to write one
        more (first of the tools the question names, then of the same tool, then of the
        others), kept only when it is no repeat and :func:`adds_new_grounded_values` (or, for
        another tool with the answer's values, when
        the question names it); otherwise the answer ends. ``among`` narrows the first call to
        those tools, still the model's choice (its optional guesses left out as for any). The
        calls returned leave out the optional arguments whose values nobody gave
        (:meth:`CallJudge.without_guesses`).
        With ``sound_only`` (the model preferred text), a first call is made only when it is
        sound — no repeat, every value one the conversation gave — else the answer is the
        checked text answer the model preferred. A ``first`` call already written (a failed
        call tried again: :meth:`failure_retried`) opens the answer instead.
        """
        job = self.job
        self.sound_tried = self.sound_tried or sound_only
        turn = CallJudge(job, self.policy, auto=name is None and job.tool_choice == "auto")
        names = [name] if name else among  # ``among``: the model's choice, of these tools
        grammar = calls_grammar(job.tools, names=names, max_calls=1)
        # A value that listed items, tried again as one of them: the others may follow.
        listed = first is not None and self.retried_list
        retried = first is not None and not listed  # a failed call tried again: the step
        if first is None:
            first = self._first_call(turn, grammar, names, sound_only)
            if first is not None and turn.auto and not turn.turn_calls:
                first = self._sibling_asked(turn, first)
                first = self._in_its_part(turn, first)
        if sound_only and (first is None or not first[2]) and not turn.turn_calls:
            # the call meant, its name garbled: the thing the question names, looked up
            first = self._first_named_written(turn) if self.policy.named_lookups else None
        if sound_only and (first is None or not first[2]):  # no sound call, or none at all
            yield from self.checked_text()
            return
        if first is None and turn.auto and (combined := self.asked_combination()):
            yield from self.written_calls(combined)  # the total the question asks for
            return
        if first is None and self.kept_text is not None and not has_results(job.messages):
            yield from self.checked_text()  # no call at all: the model's known number stands
            return
        if first is None:
            text = list(self.text(from_results=True))  # the answer is already in the results
            written = "".join(e.text for e in text if isinstance(e, ContentDelta))
            first = self.unread_call if self._no_answer(turn, written) else None
            if first is None:
                ends = self.echo_ends(written) if turn.turn_calls else []
                if ends:  # the question copied out: written again, opening and ending anew
                    text = list(self.text(from_results=True, any_numbers=True, avoid=ends))
                if not turn.turn_calls and (answer := self._answering(written)) != written:
                    # the text talked about the tools: the answer written without them
                    text = [ContentDelta(answer), *(e for e in text if isinstance(e, Finished))]
                yield from self.stating_result(text, ends) if turn.turn_calls else text
                return
        first = self._with_results_in_place(turn, first)
        # A chain's step keeps the tool it was chosen for: "Oxhallow Roundabout Makers", a
        # carousel workshop the accordion maker's record names, is no accordion "maker".
        resumed = self.resumed_step and self.policy.resumed_steps_kept
        kept = first if resumed else self._of_its_kind(turn, first)
        if kept is None:  # the name's own tool already asked: a step of nothing
            combined = self.asked_combination() if turn.auto else None
            yield from self.written_calls(combined) if combined else self.text(from_results=True)
            return
        first = kept
        if turn.auto and self.unasked_combination(first[2]):
            yield from self.text(from_results=True)  # each value was asked for, not a sum
            return
        if turn.auto and turn.turn_calls and any(turn.writes_twice(c) for c in first[2]):
            # A step of nothing: the answer is there, or the total the question asks for.
            combined = self.asked_combination()
            yield from self.written_calls(combined) if combined else self.text(from_results=True)
            return
        if turn.auto and not turn.turn_calls and (planned := self.planned_steps(first[2])):
            yield from self.written_calls(planned)  # arithmetic, a lookup offered beside it
            return
        if turn.auto and (planned := self.combined_steps(first[2])):
            yield from self.written_calls(planned)  # looked-up values, combined as planned
            return
        first = self._in_shape(turn, self._in_own_words(turn, first))
        first = self._as_stated(turn, self._as_written(turn, first))
        pieces, generation, found = self._with_stated(turn, first)
        self.used += generation.written  # the kept call's opening is output
        stream = ToolCallStream(job.tool_names, lenient=False)
        count = 0
        for piece in pieces:
            for event in _calls_only(stream.feed(piece), turn):
                count += 1
                yield event
        context = self.tokens + generation.tokens
        made = [(c["function"]["name"], arguments_of(c)) for c in found]
        chosen = list(made)  # the calls the model chose: the question's lists are read in them
        newline = self.engine.tokenize("\n", bos=False)
        # One more call is probed for in a turn's first step, or while numbers stated in the
        # question or the results wait for a call to use them.
        # A list refused as one value and tried again as its first item is a first step
        # again: "gears" follows "bolts" ("bolts and gears").
        first_step = listed or not has_results(job.messages[turn_start(job.messages) :])
        more = name is None and job.parallel_tool_calls and len(found) == 1
        more = more and (first_step or bool(_unused_after(job.messages, found)))
        # A failed call tried again leads a step of its own tool: the results' numbers wait
        # for its answer ("Kessly Key & Ribbon" tried whole, no ``plus(118, 525)`` beside it).
        alone = retried and self.policy.retry_alone
        more = more and not resumed  # a chain's step is one call: its record leads on
        asked_parts: set[str] = set()  # the parts of the question a call was tried from
        while more and generation.finish_reason == "stop" and len(made) < self.policy.max_calls:
            if self._options().max_tokens < self.policy.min_extra_call_tokens:
                break
            attempt = context + newline
            kept = self._extra_call(turn, attempt, made, grammar, same_only=alone)
            listed = kept is None
            if listed:
                kept = self._listed_call(turn, attempt, chosen, made)
            if kept is None and first_step and not alone:
                kept = self._part_call(turn, attempt, made, asked_parts)
            if kept is None:
                break  # nothing new to ask for: not by the model, the lists, nor the parts
            pieces, generation, call = kept
            self.used += generation.written
            for piece in ["\n", *pieces]:
                for event in _calls_only(stream.feed(piece), turn):
                    count += 1
                    yield event
            made.append((call["function"]["name"], arguments_of(call)))
            if not listed:
                chosen.append(made[-1])
            context = attempt + generation.tokens
        for event in _calls_only(stream.finish(), turn):
            count += 1
            yield event
        reason = "tool_calls" if count else (generation.finish_reason or "stop")
        yield self._finished(reason, "calls")

    def _first_call(
        self, turn: CallJudge, grammar: str, names: list[str] | None, sound_only: bool = False
    ) -> tuple[list[str], Any, list[dict]] | None:
        """The first call of the answer, or ``None`` when the answer should be text (with
        ``sound_only``: when no sound call is found, a rejected call is no fallback)."""
        self.unread_call = None
        opening = self._likeliest_opening(turn, names)
        pieces, generation, found, doomed = self._attempt(
            self.tokens, grammar, turn.repeat_doom, names, opening
        )
        if doomed and repetition_start("".join(pieces)) is not None:
            # a value run on in a loop: written again, its strings the conversation's phrases
            phrases = conversation_phrases(self.job.messages)
            again = calls_grammar(self.job.tools, names=names, max_calls=1, phrases=phrases)
            pieces, generation, found, doomed = self._attempt(
                self.tokens, again, turn.repeat_doom, names, opening
            )
            doomed = doomed or not found  # ran on again (to the token limit): given up
        tried = {c["function"]["name"] for c in found} | ({turn.doomed_name} - {None})
        tried |= {_named_tool(pieces)} - {None} if doomed else set()  # a repeat, or a loop
        # Calls rejected only for values the conversation never gave: should no tool do better,
        # the one the model was likeliest to name is made (before any result is there), if it
        # uses at least one value the user gave; failing that, one that only translated the
        # user's words or copied a description's example is written again in the user's
        # words; failing that, a call of a tool the
        # question names (the population asked for, of the wrong city) is made as it is.
        fallbacks: list[tuple[bool, float, int, tuple[list[str], Any, list[dict]]]] = []
        worded: list[tuple[float, str]] = []  # tools whose calls translated or copied words
        retried: set[str] = set()
        floor = self.policy.alternative_threshold
        if turn.turn_calls and (
            turn.waiting  # after results, the question needs another step
            or untried_after_failures(self.job.messages, self.job.tool_names)
        ):  # or every call failed: each tool not tried yet may be the one
            floor = self.policy.waiting_alternative_threshold
        while doomed or (found and all(turn.rejected(c) for c in found)):
            if doomed or all(turn.history.redundant(c) or turn.asks_again(c) for c in found):
                self.repeated += max(1, len(found))
                moved = self._texts_moved(turn, found if not doomed else [])
                if moved is not None:
                    return moved
            else:
                tool = found[0]["function"]["name"]
                retry = self._grounded_retry(turn, tool, found[0], retried)
                if retry is None:
                    retry = self._first_item(turn, tool, found[0])
                if retry is None and self.policy.stated_spellings:  # a word misspelt
                    retry = self._rewritten_call(
                        turn,
                        found[0],
                        lambda arguments, schema: stated_spellings(
                            arguments, schema, turn.question
                        ),
                    )
                if retry is None and self.policy.phrases_to_names:  # a sentence as the name
                    retry = self._rewritten_call(
                        turn, found[0], lambda given, _: heads_of(given, turn.question)
                    )
                    retry = retry if retry is None else self._of_its_kind(turn, retry)
                if retry is not None:
                    return retry
                p = (self.names or {}).get(tool, 0.0)
                if turn.only_foreign_words(found[0]):
                    worded.append((p, tool))
                given = uses_given_values(
                    arguments_of(found[0]),
                    turn.grounding,
                    self.policy,
                    turn.schemas.get(tool),
                    turn.descriptions.get(tool),
                )
                fits = given or turn.asks_for(tool, [])
                stated = not self._holds_unstated_number(turn, found[0])
                stated = stated and not self._holds_invented_text(turn, found[0])
                stated = stated and not turn.names_no_thing(found[0])  # a phrase is no name
                if fits and stated:
                    fallbacks.append((given, p, -len(fallbacks), (pieces, generation, found)))
                if self.unread_call is None and stated and turn.shares_words(found[0]):
                    self.unread_call = (pieces, generation, found)
            others = sorted(
                (p, n) for n, p in (self.names or {}).items() if n not in tried and p >= floor
            )
            if not others:
                # A rejected call is made only before any result, and not when it is to be
                # sound or nothing (the model preferred text).
                fall_back = not has_results(self.job.messages) and not sound_only
                if not (fall_back and self.policy.unread_text_calls):
                    self.unread_call = None
                thing = self._named_thing_looked_up(turn)
                if thing is not None:  # a sound lookup beats a refused call
                    return thing
                if fall_back and any(f[0] for f in fallbacks):
                    return max(fallbacks)[3]
                reworded = self._in_their_words(turn, max(worded)[1]) if worded else None
                if reworded is not None:
                    return reworded
                named = self._named_by_question(turn, tried)
                if named is not None:
                    return named
                if fallbacks and fall_back:
                    return max(fallbacks)[3]
                return None
            tried.add(others[-1][1])
            chosen = [others[-1][1]]
            narrow = calls_grammar(self.job.tools, names=chosen, max_calls=1)
            turn.doomed_name = None
            pieces, generation, found, doomed = self._attempt(
                self.tokens, narrow, turn.repeat_doom, chosen
            )
            tried |= {turn.doomed_name} - {None}
        return self._one_name_first(turn, (pieces, generation, found))

    def _in_its_part(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """The first call written again from the part of a question of several requests it
        belongs to (:func:`~toolkit.local.decision.parts.part_to_write`,
        :attr:`~ToolPolicy.calls_in_their_parts`): its strings only phrases of that part, its
        numbers only that part's. Kept when it is sound, its values are that part's, and the
        values the first call took from that part are unchanged."""
        if not self.policy.calls_in_their_parts or len(first[2]) != 1:
            return first
        if writes_spaceless(turn.question):
            return first
        call = turn.without_guesses(first[2][0])
        tool = call["function"]["name"]
        part = part_to_write(turn.question, tool, arguments_of(call), turn.schemas)
        if part is None:
            return first
        numbers = number_spellings(part)
        phrases = conversation_phrases([{"role": "user", "content": part}])
        grammar = calls_grammar(
            self.job.tools, names=[tool], max_calls=1, numbers=numbers or None, phrases=phrases
        )
        try:
            pieces, generation, found, _ = self._attempt(self.tokens, grammar, names=[tool])
        except LocalModelError:
            return first
        if len(found) != 1 or turn.rejected(found[0]):
            return first
        again = arguments_of(turn.without_guesses(found[0]))
        if part_to_write(turn.question, tool, again, turn.schemas) is not None:
            return first
        kept = {k: v for k, v in arguments_of(call).items() if states_value(part, v)}
        if any(again.get(k) != v for k, v in kept.items()):
            return first  # the values the call took from its part are its own: they stay
        return pieces, generation, found

    def _sibling_asked(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """The first call written again as a call of the sibling tool the question asks for
        (:func:`~toolkit.local.decision.siblings.asked_sibling`), when the model's pick says
        nothing the question says. The sibling's parameters that told it apart and that the
        question says are written, optional or not
        (:func:`~toolkit.local.decision.siblings.said_parameters`); the model writes the call
        under that grammar, or, should its call not be sound, after the values of the
        parameters the two tools share, as the model wrote them. ``first`` when there is no
        such sibling, or neither call is sound."""
        if not self.policy.siblings_asked or len(first[2]) != 1:
            return first
        call = first[2][0]
        chosen = call["function"]["name"]
        sibling = asked_sibling(chosen, turn.schemas, turn.question)
        if sibling is None:
            return first
        said = said_parameters(sibling, chosen, turn.schemas, turn.question)
        tools = [
            _requiring(t, said) if t["function"]["name"] == sibling else t for t in self.job.tools
        ]
        narrow = calls_grammar(tools, names=[sibling], max_calls=1)
        pieces, generation, found, doomed = self._attempt(
            self.tokens, narrow, turn.repeat_doom, [sibling]
        )
        if not doomed and len(found) == 1 and not turn.rejected(turn.without_guesses(found[0])):
            return pieces, generation, found
        written = arguments_of(call)
        properties = (turn.schemas.get(sibling) or {}).get("properties") or {}
        shared = {p: written[p] for p in properties if p in written}
        again = self._written_with(turn, sibling, shared, tools=tools) if shared else None
        return first if again is None else again

    def _one_name_first(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A turn's first call that looks up several names the question lists as one
        (``archery_range_lookup("Hartsell, Ebbington and Roscarrow")``), written with the first
        of them in its place (:attr:`~ToolPolicy.names_apart`); the others follow as the
        question's lists (:meth:`_listed_call`). A lookup by name takes one name: the tool
        refused the list, and the small model retried it cut short ("Ebbington and
        Roscarrow"). The call as it was when it is not such a call, or the first name's call
        is not sound."""
        found = first[2]
        if not self.policy.names_apart or turn.turn_calls or len(found) != 1 or not turn.auto:
            return first
        tool = found[0]["function"]["name"]
        key = turn.lookups.get(tool)
        value = arguments_of(found[0]).get(key) if key is not None else None
        if not isinstance(value, str):
            return first
        question = last_question(self.job.messages)
        if not (listed_names(value, name_words(tool)) or listed_by_question(value, question)):
            return first
        parts = parts_of(value)
        if not occurs(parts[0].casefold(), turn.grounding):
            return first
        written = self._written_with(turn, tool, {**arguments_of(found[0]), key: parts[0]})
        return written if written is not None else first

    def _no_answer(self, turn: CallJudge, text: str) -> bool:
        """Whether a text answer, given when every call was rejected, answers nothing: it
        writes the call out in code (:func:`~toolkit.local.decision.mentions.writes_out`),
        copies the question ("Answer: get unique identifier for …?") or declines ("I'm
        sorry, but I can't assist with that.": :func:`~toolkit.local.decision.mentions.
        refuses`, :attr:`~ToolPolicy.refusals_looked_up`). The rejected call it
        stands for (:attr:`unread_call`) is made then (:attr:`~ToolPolicy.unread_text_calls`)."""
        if self.unread_call is None:
            return False
        said = re.sub(r"(?i)^\s*answer\s*:\s*", "", text)
        echo = bool(said) and folded(said) == folded(turn.question)
        declined = self.policy.refusals_looked_up and refuses(text)
        return echo or declined or bool(writes_out(text, self.job.tool_names))

    def _first_item(
        self, turn: CallJudge, tool: str, call: dict[str, Any]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A call rejected for a text value that joins items the question lists, as one
        (``get_wind_farm("灰谷和盐沼岭风电场")`` asked "灰谷和盐沼岭这两个风电场，谁的轮毂更高？"),
        written with the first item in its place (:meth:`_written_with`,
        :attr:`~ToolPolicy.first_listed_item`); the other items follow as the question's
        lists (:meth:`_listed_call`). ``None`` unless each joined value's first item is the
        question's words and the call is then sound."""
        if not self.policy.first_listed_item:
            return None
        arguments, changed = arguments_of(call), False
        for key, value in arguments.items():
            parts = parts_of(value) if isinstance(value, str) else []
            if parts and not occurs(value.casefold(), turn.grounding):
                if not occurs(parts[0].casefold(), turn.grounding):
                    return None
                arguments, changed = {**arguments, key: parts[0]}, True
        return self._written_with(turn, tool, arguments) if changed else None

    def _holds_unstated_number(self, turn: CallJudge, call: dict[str, Any]) -> bool:
        """Whether a call holds, once its optional guesses are left out, a number nobody
        stated in digits or words (:attr:`~ToolPolicy.stated_numbers_fallback`): it is no
        fallback then."""
        if not self.policy.stated_numbers_fallback:
            return False
        return bool(turn.unstated_numbers(turn.without_guesses(call)))

    def _holds_invented_text(self, turn: CallJudge, call: dict[str, Any]) -> bool:
        """Whether a call holds a required text that shares no word with the conversation
        (:attr:`~ToolPolicy.invented_texts_fallback`), or a place value that names no place
        (:attr:`~ToolPolicy.places_named`): it is no fallback then."""
        invented = self.policy.invented_texts_fallback and bool(turn.invented(call))
        return invented or bool(turn.unplaced(call))  # no place for a place: no fallback

    def _named_by_question(
        self, turn: CallJudge, tried: set[str]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """When every call the model would make was rejected, one sound call of a tool not
        tried yet whose name the question says (:meth:`CallJudge.asks_for`), however unlikely
        the model is to name it: "What is the time zone of the capital of Japan?" is asked of
        ``get_timezone("Tokyo")`` — the model's own first step, a value nobody gave — and
        ``get_capital`` is named with p under 0.001. ``None`` when there is none."""
        if not turn.auto:
            return None
        for tool in self.job.tool_names:
            if tool in tried or not turn.asks_for(tool, []):
                continue
            tried.add(tool)
            turn.doomed_name = None
            again = self._written_again(turn, tool)
            if again is not None:
                return again
        return None

    def _named_thing_looked_up(self, turn: CallJudge) -> tuple[list[str], Any, list[dict]] | None:
        """Before any call of the turn, when every call the model would make was refused: the
        first thing the question names of a lookup's kind, looked up before any refused call
        is made as a fallback
        (:meth:`CallJudge.first_named_thing`, :attr:`~ToolPolicy.named_things_first`).
        "琥珀山蜂蜜合作社把蜂蜡卖给了一家锻坊。照那家锻坊每周打马掌的数量，连续干两周一共能打
        多少只马掌？" had ``product_of(12, 2)`` and ``difference_between(12, 2)`` tried, both
        of a number nobody gave; the chain starts at the co-op's record."""
        if not self.policy.named_things_first or turn.turn_calls:
            return None
        return self._first_named_written(turn)

    def _first_named_written(self, turn: CallJudge) -> tuple[list[str], Any, list[dict]] | None:
        """The lookup of the first thing the question names of a lookup's kind
        (:meth:`CallJudge.first_named_thing`), written when it is sound; ``None`` otherwise."""
        named = turn.first_named_thing()
        return self._written_with(turn, *named) if named is not None else None

    def _likeliest_opening(self, turn: CallJudge, names: list[str] | None) -> str | None:
        """The first call's opening with the name of the tool the model is likeliest to name
        (:attr:`names`, when they were measured and any tool may be called) — or the tool of
        the question's step (:meth:`_step_tool`): the model would spend a token on each piece
        of the name and of the envelope after it, which the grammar allows only one way;
        written, they are evaluated with the prompt in one batch. ``None`` (the grammar's own
        opening) otherwise."""
        if names is not None or not self.names:
            return None
        likeliest = max(self.names, key=self.names.__getitem__)
        return call_opening([self._step_tool(turn, likeliest) or likeliest])

    def _step_tool(self, turn: CallJudge, likeliest: str) -> str | None:
        """The tool the model is sure it would name for the question read only up to the
        clause that states the first number no step used yet
        (:func:`~toolkit.local.decision.clauses.step_prefix`), when that is not
        ``likeliest``, the tool it names for the whole question: "128 加 76，然后把结果除以 4"
        starts with the addition, and once it answered, "add 7 to that, then multiply the
        result by 3" goes on with the addition (:attr:`~ToolPolicy.first_clause_threshold`).
        ``None`` otherwise."""
        threshold = self.policy.first_clause_threshold
        if threshold >= 1.0 or self.engine.token_id("<tool_call>") is None:
            return None
        prefix = step_prefix(turn.question, turn.unused)
        if prefix is None:
            return None
        messages = self.job.messages
        start = turn_start(messages)
        cut = [*messages[:start], {**messages[start], "content": prefix}, *messages[start + 1 :]]
        job = replace(self.job, messages=cut)
        tokens = self.engine.tokenize(build_prompt(job, self.policy, self.engine.chat_template))
        names = name_probabilities(
            self.engine, tokens, self.job.tool_names, floor=self.policy.name_floor
        )
        step = max(names, key=names.__getitem__)
        return step if step != likeliest and names[step] >= threshold else None

    def _of_its_kind(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A first call that looks a name up in a tool of another kind than the name states,
        written as the call of the tool of its kind (:meth:`CallJudge.of_its_kind`). When
        that call was made already this turn, the way on: the tool the model chose, asked
        about the thing of its kind a record of the turn names
        (:meth:`CallJudge.named_by_records`: ``get_dye_works("Threlkeld Dye Works")`` for
        ``get_dye_works("Grisdale Weaving Shed")`` once the shed's record named it); ``None``
        when there is none (a step of nothing). The call as it was when the new one is not
        sound, or when that tool refused the name already (厂 "factory" read 铸钟厂 as a toy
        factory's: the bell foundry tool is the next try)."""
        if len(first[2]) != 1 or (moved := turn.of_its_kind(first[2][0])) is None:
            return first
        tool, arguments = moved
        call = {"function": {"name": tool, "arguments": json.dumps(arguments, ensure_ascii=False)}}
        if turn.refused(tool, arguments):
            return first  # the name's own tool refused it: the model's choice is the next try
        if turn.history.redundant(call):
            onward = turn.named_by_records(first[2][0]["function"]["name"])
            return None if onward is None else self._written_with(turn, *onward)
        again = self._written_with(turn, tool, arguments)
        return first if again is None else again

    def _with_results_in_place(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """After results, a first call that puts a spent number where a result belongs
        (:meth:`CallJudge.results_in_place`: ``add(144, 7)`` after ``divide(144, 12)``
        answered 12.0) is written with the result in its place, ``add(12, 7)``: the engine
        writes the call up to its last brace, under the tool's grammar. One that asks only
        spent numbers again while the question still holds unused ones (``plus(12, 7)``
        after ``times(12, 7)`` answered 84.0, "then add 16") is written with the result and
        the unused numbers, ``plus(84, 16)`` (:meth:`CallJudge.next_step_arguments`). A
        number written more often than the question states it takes the place of the
        question's next unused one, before results too (``divide(250, 250)`` for "250 的一半":
        ``divide(250, 2)``, :meth:`CallJudge.doubled_in_place`). One that combines two fields
        of one record while records of its kind wait takes the first field of each
        (:meth:`CallJudge.fields_in_place`: ``add(95, 130)`` for one train's
        ``add(130, 92)``). The new call is taken when the grammar admits it and it is
        sound."""
        found = first[2]
        if not turn.auto or len(found) != 1:
            return first
        arguments = None
        if turn.turn_calls:
            arguments = (
                turn.next_step_arguments(found[0])
                or turn.results_in_place(found[0])
                or turn.fields_in_place(found[0])
            )
        arguments = arguments or turn.doubled_in_place(found[0])
        if arguments is None:
            return first
        written = self._written_with(turn, found[0]["function"]["name"], arguments)
        return first if written is None else written

    def _texts_moved(
        self, turn: CallJudge, found: list[dict]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A repeated first call (the one ``found``, or the one stopped as a repeat) written
        with the results in the places of the text values an earlier call of another tool
        took (:meth:`CallJudge.texts_in_place`: ``get_email("Dave")`` for ``get_email("Carol")``
        once ``get_manager("Carol")`` answered "Dave"); ``None`` unless there is such a
        place and the new call is sound."""
        if len(found) == 1:
            tool, arguments = found[0]["function"]["name"], arguments_of(found[0])
        elif not found and turn.doomed_name is not None:
            tool, arguments = turn.doomed_name, turn.doomed_arguments
        else:
            return None
        moved = turn.texts_in_place(tool, arguments)
        return None if moved is None else self._written_with(turn, tool, moved)

    def _written_with(
        self,
        turn: CallJudge,
        tool: str,
        arguments: dict[str, Any],
        *,
        whole: bool = False,
        tools: list[dict[str, Any]] | None = None,
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A call of ``tool`` with ``arguments``: the engine writes it up to its last brace,
        under the tool's grammar (from ``tools``, default the request's), and the model closes
        it (or adds an optional argument; with ``whole``, the engine writes that brace too);
        ``None`` unless the grammar admits it and the call is sound."""
        grammar = calls_grammar(tools or self.job.tools, names=[tool], max_calls=1)
        opening = written_call(tool, arguments, whole=whole)
        try:
            pieces, generation, again, _ = self._attempt(
                self.tokens, grammar, names=[tool], opening=opening
            )
        except LocalModelError:
            return None  # a value does not fit the parameter's schema
        if len(again) != 1 or turn.rejected(again[0]):
            return None
        return pieces, generation, again

    def _in_own_words(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call whose text borrows words from its descriptions' examples ("Tel Aviv,
        CA" after "such as 'San Francisco, CA'") is written again with those words excluded
        from its strings; the new call is taken when it is sound and borrows nothing."""
        found = first[2]
        if not self.policy.own_words or len(found) != 1:
            return first
        tool = found[0]["function"]["name"]
        schema = turn.schemas.get(tool)
        borrowed = borrowed_words(arguments_of(found[0]), schema, turn.grounding)
        if not borrowed:
            return first
        again = self._written_again(turn, tool, excluded=borrowed)
        if again is None or borrowed_words(arguments_of(again[2][0]), schema, turn.grounding):
            return first
        return again

    def _in_shape(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call whose text value lacks the shape every quoted example of its
        parameter's description shows ("Pleasanton" where the examples read 'Berkeley, CA'
        and 'New York, NY': :func:`~toolkit.local.decision.examples.unshaped_values`) is
        written again with that value held to the shape; the new call is taken when it is
        sound."""
        found = first[2]
        if not self.policy.example_shapes or len(found) != 1:
            return first
        tool = found[0]["function"]["name"]
        unshaped = unshaped_values(arguments_of(found[0]), turn.schemas.get(tool))
        if not unshaped:
            return first
        tools = [
            _shaped(t, unshaped) if t["function"]["name"] == tool else t for t in self.job.tools
        ]
        again = self._written_again(turn, tool, tools=tools)
        return first if again is None else again

    def _as_written(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call with a list the question writes in another order (sorted by the model:
        :func:`~toolkit.local.decision.ordering.as_written`) is written again with the list in
        the user's order; the new call is taken when it is sound."""
        if not self.policy.lists_as_written:
            return first
        return self._rewritten(
            turn, first, lambda arguments, _: as_written(arguments, turn.question)
        )

    def _as_stated(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call that chose an offered value the question does not say while it says
        another (:func:`~toolkit.local.decision.stated.stated_choices`,
        :attr:`~ToolPolicy.stated_choices`), or misspelt a word of the question
        (:func:`~toolkit.local.decision.stated.stated_spellings`,
        :attr:`~ToolPolicy.stated_spellings`), or wrote a yes-or-no otherwise than the
        question says it or left it out (:func:`~toolkit.local.decision.stated.stated_flags`,
        :attr:`~ToolPolicy.stated_flags`), is written again as the question states it; the
        new call is taken when it is sound."""
        rewrites = [
            (self.policy.stated_choices, stated_choices),
            (self.policy.stated_spellings, stated_spellings),
            (self.policy.stated_flags, stated_flags),
        ]
        for wanted, rewrite in rewrites:
            if wanted:
                first = self._rewritten(
                    turn,
                    first,
                    lambda arguments, schema, rewrite=rewrite: rewrite(
                        arguments, schema, turn.question
                    ),
                )
        return first

    def _with_stated(
        self, turn: CallJudge, first: tuple[list[str], Any, list[dict]]
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call that left out an optional number the question states for it ("with
        maximum cost of $50": :func:`~toolkit.local.decision.stated.stated_optionals`) is
        written again with it; the new call is taken when it is sound."""
        if not self.policy.stated_optionals:
            return first
        return self._rewritten(
            turn,
            first,
            lambda arguments, schema: stated_optionals(arguments, schema, turn.question),
        )

    def _rewritten(
        self,
        turn: CallJudge,
        first: tuple[list[str], Any, list[dict]],
        rewrite: Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any] | None],
    ) -> tuple[list[str], Any, list[dict]]:
        """A first call of one tool written again whole, with the values ``rewrite`` makes of
        the ones it keeps (without its guesses) and of its tool's schema, in the order the
        grammar writes them; ``first`` when ``rewrite`` gives ``None`` or the new call is not
        sound."""
        found = first[2]
        if len(found) != 1:
            return first
        again = self._rewritten_call(turn, found[0], rewrite)
        return first if again is None else again

    def _rewritten_call(
        self,
        turn: CallJudge,
        call: dict[str, Any],
        rewrite: Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any] | None],
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A call written again whole (:meth:`_rewritten`); ``None`` when ``rewrite`` gives
        ``None`` or the new call is not sound."""
        call = turn.without_guesses(call)  # what the call keeps
        tool = call["function"]["name"]
        schema = turn.schemas.get(tool) or {}
        written = rewrite(arguments_of(call), schema)
        if written is None:
            return None
        order = list(schema.get("properties") or {})  # the order the grammar writes them in
        written = {key: written[key] for key in order if key in written}
        return self._written_with(turn, tool, written, whole=True)

    def _in_their_words(
        self, turn: CallJudge, tool: str
    ) -> tuple[list[str], Any, list[dict]] | None:
        """When no tool did better, the likeliest call whose only faults were the user's words
        translated or a description's example copied (:meth:`CallJudge.only_foreign_words`:
        "广州" asked "Is it raining in Guangzhou?", the description's "Everest" asked about
        Mount Fuji) is written again with its strings made of the conversation's
        own phrases; ``None`` unless that call is sound."""
        if not self.policy.user_words:
            return None
        phrases = conversation_phrases(self.job.messages)
        if not phrases:
            return None
        return self._written_again(turn, tool, phrases=phrases)

    def _written_again(
        self,
        turn: CallJudge,
        tool: str,
        tools: list[dict[str, Any]] | None = None,
        **restriction: Any,
    ) -> tuple[list[str], Any, list[dict]] | None:
        """One call of ``tool`` written again under a narrower grammar (``restriction``: the
        keyword arguments of :func:`calls_grammar`; ``tools``: the tools' schemas narrowed);
        ``None`` unless it is one sound call."""
        offered = self.job.tools if tools is None else tools
        grammar = calls_grammar(offered, names=[tool], max_calls=1, **restriction)
        pieces, generation, found, doomed = self._attempt(
            self.tokens, grammar, turn.repeat_doom, [tool]
        )
        if doomed or len(found) != 1 or turn.rejected(found[0]):
            return None
        return pieces, generation, found

    def failure_retried(self) -> tuple[list[str], Any, list[dict]] | None:
        """After results, a call of the last step that failed at a text value
        (:func:`~toolkit.local.decision.retries.failure_to_retry`) written again with its
        strings confined to the other forms of its values
        (:func:`~toolkit.local.decision.retries.forms_of`: ``get_stock("widgets")`` after
        ``get_stock("widget")`` failed, asked about "widgets"; but first the question's
        span up to the word of the tool's kind in it:
        :func:`~toolkit.local.decision.kinds.name_before_kind`); kept when it is no repeat
        and each value it changed is one of those forms — a form of a value the model chose
        to call with, so no other grounding is asked of it — else ``None``."""
        if not self.policy.retry_failures or self.job.tool_choice != "auto":
            return None
        asked = last_question(self.job.messages)
        failure = failure_to_retry(self.job.messages, asked)
        if failure is None:
            return None
        tool, arguments, error = failure
        refused = [v for v in leaves(arguments) if isinstance(v, str)]
        self.retried_list = any(parts_of(v) for v in refused)
        said, listed = conversation_phrases(self.job.messages), listed_items(error)
        turn = CallJudge(self.job, self.policy, auto=True)
        properties = (turn.schemas.get(tool) or {}).get("properties") or {}
        offered = {  # a value the schema offers (an enum's "celsius") is not what failed
            v
            for k, v in arguments.items()
            for spec in [properties.get(k)]
            if isinstance(v, str)
            and isinstance(spec, dict)
            and v in [*(spec.get("enum") or []), spec.get("default")]
        }
        quoted = [v for v in refused if v.casefold() in error.casefold()]

        def named(value: str) -> list[str]:  # the listed keys the user names, for the value
            if value not in (quoted if len(refused) > 1 else refused):  # the error quotes
                return []
            return named_keys(error, value, asked)

        formed = {
            v: forms_of(v, said, self.policy.slip_ratio, listed, named(v), asked)
            if v not in offered
            else []
            for v in refused
        }
        for value in refused:  # "哈罗盖特煤矿福利" refused by get_coal_mine: "哈罗盖特煤矿"
            if holds_key(value, named(value)):
                continue  # a key the tool listed, held whole: "芦岸船屋" of "包下芦岸船屋"
            cut = name_before_kind(value, tool) if self.policy.named_kinds else None
            if cut is not None and cut in asked and not parts_of(value) and not is_phrase(cut):
                formed[value] = [cut]  # before the question's other spans; a list is its items
            places = place_names(value) if is_phrase(value) and writes_spaceless(value) else []
            if places and self.policy.places_in_phrases:  # the question sent: its names
                formed[value] = places
            head = place_head(value) if not places and self.policy.places_in_phrases else None
            if head is not None:  # "奎雷尔织房" of "奎雷尔织房最大的客户是一家攀岩馆。"
                formed[value] = [head]
            whole = ampersand_name(value, asked) if self.policy.ampersand_names else None
            if whole is not None:  # "Kessly Key" of "Kessly Key & Ribbon": the name whole
                formed[value] = [whole]
        forms = [f for v in refused for f in formed[v]]
        if not forms:
            return None  # no other form of the values it failed with: nothing to try
        # The strings the call may hold: the forms, and, when it has more than one, its own
        # that have no other form (which of them the tool refused is not known; a value with
        # forms is the likelier one: "数学和物理" beside the student's name) — all its own
        # when each has forms. The call again as it was is a repeat.
        kept = [v for v in refused if not formed[v]] or refused
        phrases = list(dict.fromkeys([*forms, *(kept if len(refused) > 1 else [])]))
        # A value that holds several of the tool's keys whole ("Oatridge Dairy and of
        # Brackenford Dairy all rode in…") is asked again as each of them, one call each.
        held = []
        if self.policy.held_keys_each and len(refused) == 1:
            held = keys_held(refused[0], named(refused[0]))
        grammar = calls_grammar(
            self.job.tools, names=[tool], max_calls=max(1, len(held)), phrases=phrases
        )
        pieces, generation, found, doomed = self._attempt(
            self.tokens, grammar, turn.repeat_doom, [tool]
        )
        if doomed or len(found) != max(1, len(held)):
            return None
        if any(turn.history.redundant(call) for call in found):
            return None
        changes = []
        for call in found:
            written = arguments_of(call)
            changed = [v for k, v in written.items() if v != arguments.get(k)]
            if not changed or not set(written) <= set(arguments):
                return None
            if not all(v in forms for v in changed):
                return None
            changes.append(tuple(map(str, changed)))
        if held and len(set(changes)) != len(found):
            return None  # the same key twice: one of those held left unasked
        return pieces, generation, found

    def failed_step_resumed(self) -> tuple[list[str], Any, list[dict]] | None:
        """After results, a chain's step that failed because it was asked first, of the wrong
        value, written again with the value a later record gave for it
        (:meth:`CallJudge.step_to_resume`); ``None`` when there is none or it is not sound."""
        if not self.policy.resume_failed_steps or self.job.tool_choice != "auto":
            return None
        turn = CallJudge(self.job, self.policy, auto=True)
        resumed = turn.step_to_resume(pick=self.likeliest_tool)
        written = None if resumed is None else self._written_with(turn, *resumed)
        self.resumed_step = written is not None  # a step not written leaves the model's call
        return written

    def likeliest_tool(self, tools: Sequence[str]) -> str | None:
        """The one of ``tools`` the model would most likely name next; ``None`` when it can
        name none of them."""
        self.measure_names()
        names = self.names or {}
        likeliest = max(tools, key=lambda tool: names.get(tool, 0.0), default=None)
        return likeliest if likeliest is not None and names.get(likeliest, 0.0) > 0 else None

    def _grounded_retry(
        self, turn: CallJudge, tool: str, call: dict[str, Any], retried: set[str]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """A call whose only fault is numbers nobody stated is written again with the stated
        numbers (as written, and as :func:`number_spellings`) as the only ones its grammar
        admits: after tool results (a small model copies the examples of a tool's
        description: ``calculate("(6 + 5) * 2")`` for "21.9 + 24.9"), and before them when it
        ran the question's numbers together (``factorial(510)`` for "5,10 and 15")."""
        if tool in retried:
            return None
        if not has_results(self.job.messages) and not turn.runs_numbers_together(call):
            return None
        retried.add(tool)
        if not turn.only_numbers_ungrounded(call):
            return None  # text values the conversation never gave too: not only numbers
        stated = self._stated_numbers()
        if not stated:
            return None
        numbers = list(dict.fromkeys([*stated, *number_spellings(turn.grounding)]))
        again = self._written_again(turn, tool, numbers=numbers)
        if again is not None and not has_results(self.job.messages):
            turn.numbers_only = numbers  # the extra calls write the list's other numbers
        return again

    def _extra_call(
        self,
        turn: CallJudge,
        context: list[int],
        made: list[tuple[str, dict]],
        grammar: str,
        *,
        same_only: bool = False,
    ) -> tuple[list[str], Any, dict] | None:
        """One more call, tried under each probe grammar (with ``same_only``, of the last
        call's tool alone); ``None`` when none is kept."""
        previous = [arguments for _, arguments in made]
        dooming: list[Any] = []  # the value that doomed the last attempt

        def earlier(tool: str | None) -> list[dict[str, Any]]:  # the tool's calls so far
            return [a for n, a in made if n == tool] + turn.history.answered.get(tool, [])

        def placed(arguments: dict[str, Any], tool: str | None) -> bool:  # the way back
            if not self.policy.stated_places:
                return False
            return placed_anew(arguments, earlier(tool), turn.grounding)

        def doomed(value: Any, written: dict[str, Any], tool: str | None) -> bool:
            exempt = turn.defaults.get(tool or "", frozenset())
            key = next(reversed(written), None)  # the argument being written
            if rules_out_extra_call(
                value, previous, turn.grounding, self.policy, exempt
            ) and not turn.optional_guess(tool, key):
                dooming[:] = [value]
                return True
            required = turn.required.get(tool or "", [])
            if self.policy.optional_news:  # the call is judged whole: "…, in air"
                required = list((turn.schemas.get(tool or "") or {}).get("properties") or {})
            if tool is None or not repeats(written, required, earlier(tool), rearranged=True):
                return False
            return not placed(written, tool)

        probes = self._probes(turn, made, grammar)
        if same_only:
            probes = [(probe, names) for probe, names in probes if names == [made[-1][0]]]
        for probe, names in probes:
            schemas = [turn.schemas.get(n) for n in names]
            counts = self.policy.counted_numbers
            if all(needs_unstated_number(s, previous, turn.grounding, counts) for s in schemas):
                continue  # any call of these tools would be doomed at a number nobody gave
            dooming.clear()
            pieces, generation, found, given_up = self._attempt(context, probe, doomed, names)
            phrases = self._slip_phrases(dooming[0], previous) if given_up and dooming else None
            if phrases:
                # "Cater Lake" for the question's "Crater Lake": written again in its phrases
                again = calls_grammar(
                    self.job.tools,
                    names=names,
                    max_calls=1,
                    numbers=turn.numbers_only,
                    phrases=phrases,
                )
                pieces, generation, found, _ = self._attempt(context, again, doomed, names)
            if generation.finish_reason != "stop" or len(found) != 1:
                continue
            call = turn.without_guesses(found[0])
            if (moved := turn.of_its_kind(call)) is not None:  # the name's own tool
                return self._written_at(turn, context, *moved, made)
            if turn.history.redundant(call) or turn.takes_a_result_place(call, made):
                continue  # a repeat, or a later step that needs a result not there yet
            if turn.made_up_name(call):
                continue  # "Total Beekeepers": the question's words, no name it gives
            if turn.other_field(call, made):
                continue  # the records' other quantity, beside the one the answer combined
            if self.policy.one_record_extras and turn.combines_one_record(call):
                continue  # two fields of one record combined: the record answers
            arguments, tool = arguments_of(call), call["function"]["name"]
            if self.policy.own_words and borrowed_words(
                arguments,
                turn.schemas.get(tool),
                turn.grounding,
                whole=True,
                described=turn.descriptions.get(tool),
            ):
                continue  # a description's example copied ("Carrow Dye Works"), no thing asked
            same = [a for n, a in made if n == tool]
            if qualifies_earlier(arguments, same):
                continue  # "3 kg of apples" after "apples": the same item, qualified
            if placed(arguments, tool):
                return pieces, generation, call  # the way back: values stated again, moved
            if self.policy.values_keep_places and moves_values(arguments, same):
                continue  # the earlier calls' values, one of them in another place
            exempt = turn.defaults.get(tool, frozenset())
            if adds_new_grounded_values(
                arguments, previous, turn.grounding, self.policy, exempt, turn.named
            ):
                if not (
                    self.policy.values_asked_before
                    and turn.turn_calls
                    and turn.asks_another_tool(tool, arguments, made)
                ):
                    return pieces, generation, call
                continue  # an earlier step's value asked of a tool the question never asks
            # The answer's values asked of another tool: kept when the question names that
            # tool (the interest coverage of the company whose sales growth was asked for).
            called = [n for n, _ in made]
            if (
                tool not in called
                and adds_new_grounded_values(arguments, same, turn.grounding, self.policy, exempt)
                and turn.asks_for(tool, called, outside_conditions=self.policy.conditions_unasked)
                and not (self.policy.extras_judged and turn.rejected(call))
            ):  # but not with values nobody gave ("The Mill of China")
                return pieces, generation, call
        return None

    def _part_call(
        self,
        turn: CallJudge,
        context: list[int],
        made: list[tuple[str, dict]],
        tried: set[str],
    ) -> tuple[list[str], Any, dict] | None:
        """When neither the model nor the question's lists have one more call, the call of
        the first part of a question of several requests that no call asks yet
        (:func:`~toolkit.local.decision.parts.unasked_parts`,
        :attr:`~ToolPolicy.parts_each_called`): the model writes it with only that part's
        phrases as strings and the question's numbers as numbers (a request may go on from
        the one before: "And calculate my interest after 5 years" of the $5000 transferred),
        of the tools whose words the part says the most of. Kept when it
        is sound, its texts are the part's own values or its schema's choices
        (:func:`~toolkit.local.decision.parts.texts_of_its_own`), it asks that part, and it
        adds grounded values; each part is tried once (``tried``); ``None`` when no part gives
        such a call."""
        if not self.policy.parts_each_called or not turn.auto:
            return None
        if writes_spaceless(turn.question):
            return None
        previous = [arguments for _, arguments in made]
        for part in unasked_parts(turn.question, previous):
            if part in tried:
                continue
            tried.add(part)
            kept = self._part_attempts(turn, context, part, made)
            if kept is not None:
                return kept
        return None

    def _part_attempts(
        self, turn: CallJudge, context: list[int], part: str, made: list[tuple[str, dict]]
    ) -> tuple[list[str], Any, dict] | None:
        """One call for a part (:meth:`_part_call`), of the tools whose words the part says
        the most of; none when it says no tool's words ("My access token is MS_key321." asks
        nothing of ``get_current_weather``)."""
        fitting = best_fitting_tools(part, turn.schemas)
        if not fitting:
            return None
        numbers = number_spellings(turn.question)  # a request may go on from the last
        phrases = conversation_phrases([{"role": "user", "content": part}])
        grammar = calls_grammar(
            self.job.tools, names=fitting, max_calls=1, numbers=numbers or None, phrases=phrases
        )
        pieces, generation, found, doomed = self._attempt(
            context, grammar, turn.repeat_doom, fitting
        )
        if not doomed and generation.finish_reason == "stop" and len(found) == 1:
            call = turn.without_guesses(found[0])
            arguments, tool = arguments_of(call), call["function"]["name"]
            previous = [a for _, a in made]
            if (
                not turn.rejected(call)
                # "Apple Inc" for the "AAPL" of a call with the same numbers: no new request
                and not restates(arguments, [a for n, a in made if n == tool])
                and not turn.made_up_name(call)
                # "You want the slope": a phrase of the part, no value it gives
                and texts_of_its_own(part, arguments, turn.question, turn.schemas.get(tool))
                # a call that takes none of the part's values is another part's
                and part not in unasked_parts(turn.question, [*previous, arguments])
                and adds_new_grounded_values(
                    arguments,
                    previous,
                    turn.grounding,
                    self.policy,
                    turn.defaults.get(tool, frozenset()),
                    turn.named,
                )
            ):
                return pieces, generation, call
        return None

    def _listed_call(
        self,
        turn: CallJudge,
        context: list[int],
        chosen: list[tuple[str, dict]],
        made: list[tuple[str, dict]],
    ) -> tuple[list[str], Any, dict] | None:
        """When the model has nothing new to ask for, the next call the question's lists still
        ask for (:func:`~toolkit.local.decision.coordination.listed_calls`, read in the calls
        the model ``chosen``, beside all calls ``made``): the engine writes it up to its last
        brace under the tool's grammar and the model closes it; ``None`` when there is none,
        or it is no new call (:attr:`~ToolPolicy.listed_items`)."""
        if not self.policy.listed_items or not turn.auto:
            return None
        for tool, arguments in listed_calls(
            turn.question, chosen, turn.schemas, made, members=self.policy.named_members
        ):
            kept = self._written_at(turn, context, tool, arguments)
            if kept is None:
                continue
            same = [a for n, a in made if n == tool]
            if self.policy.values_keep_places and moves_values(arguments_of(kept[2]), same):
                continue  # "8:20 and 11:50" read as hours 8 and minutes 11
            return kept
        return None

    def _written_at(
        self,
        turn: CallJudge,
        context: list[int],
        tool: str,
        arguments: dict[str, Any],
        made: Sequence[tuple[str, dict]] = (),
    ) -> tuple[list[str], Any, dict] | None:
        """One more call of ``tool`` with ``arguments`` after ``context``: the engine writes it
        up to its last brace under the tool's grammar and the model closes it; ``None`` when
        it is no new sound call (a repeat of the conversation's or of ``made``)."""
        grammar = calls_grammar(self.job.tools, names=[tool], max_calls=1)
        try:
            pieces, generation, found, _ = self._attempt(
                context, grammar, names=[tool], opening=written_call(tool, arguments)
            )
        except LocalModelError:
            return None  # a value does not fit the parameter's schema
        if generation.finish_reason != "stop" or len(found) != 1:
            return None
        if turn.rejected(found[0]):  # a repeat of the conversation's, or unsound
            return None
        if any(n == tool and a == arguments_of(found[0]) for n, a in made):
            return None
        return pieces, generation, found[0]

    def _slip_phrases(self, value: Any, previous: list[dict[str, Any]]) -> list[str] | None:
        """The conversation's phrases when a text value that doomed an extra call is a slip
        of one of them that no call of the answer used (:func:`slip_of`), else ``None``."""
        if not self.policy.user_words:
            return None
        taken = {str(v).casefold() for arguments in previous for v in leaves(arguments)}
        phrases = conversation_phrases(self.job.messages)
        return phrases if slip_of(value, phrases, self.policy.slip_ratio, taken) else None


def _calls_only(events: Iterable[Event], turn: CallJudge) -> Iterator[ToolCallEvent]:
    """The calls among a calls grammar's events, their values in their parameters' forms and
    without the optional arguments the model guessed (:meth:`CallJudge.tidied`). The grammar
    admits no text, so text there is a call the token budget cut short (``<tool_call>`` and no
    more): it is no answer."""
    return (
        ToolCallEvent(event.index, turn.tidied(event.call))
        for event in events
        if isinstance(event, ToolCallEvent)
    )


def _unused_after(messages: list[dict[str, Any]], calls: list[dict[str, Any]]) -> list[float]:
    """Numbers this turn stated (question and results) that no call, these ones included, used."""
    start = turn_start(messages)
    turn = [*messages[start:], {"role": "assistant", "tool_calls": calls}]
    text = conversation_text([m for m in turn if m.get("role") != "assistant"])
    stated = known_numbers(text, words=False)
    used = {v for m in turn for c in m.get("tool_calls") or [] for v in numbers_of(arguments_of(c))}
    return sorted(stated - used)


def _requiring(tool: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """An OpenAI tool whose named top-level parameters are required."""
    if not names:
        return tool
    function = tool["function"]
    parameters = dict(function.get("parameters") or {})
    required = list(parameters.get("required") or [])
    required += [name for name in names if name not in required]
    return {**tool, "function": {**function, "parameters": {**parameters, "required": required}}}


def _shaped(tool: dict[str, Any], formats: Mapping[str, str]) -> dict[str, Any]:
    """An OpenAI tool whose named top-level string parameters must take the given formats."""
    function = tool["function"]
    parameters = dict(function.get("parameters") or {})
    properties = dict(parameters.get("properties") or {})
    for key, shape in formats.items():
        properties[key] = {**properties[key], "type": "string", "format": shape}
    return {
        **tool,
        "function": {**function, "parameters": {**parameters, "properties": properties}},
    }
