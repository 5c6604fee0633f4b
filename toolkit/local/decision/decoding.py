"""Answer one chat request on the embedded model: text or calls, decided and decoded.

:func:`answer` applies :mod:`toolkit.local.decision.policy` (its docstring gives the reasons):

* no tools, or ``tool_choice="none"``: text, never opening a call;
* ``"auto"``: text when the model's first-token text probability reaches
  ``text_threshold`` or its probability of naming an offered tool is under
  ``name_threshold``; calls otherwise;
* ``"required"``: calls; a named tool: one call of that tool;
* ``constrained=False``: free decoding, read by the tolerant parser.

With ``"auto"``, a text answer is kept back until it is complete and checked
(:meth:`_Decoder.checked_text`); once this turn's tools have answered, the answer comes from the
final-answer step (:func:`~toolkit.local.decision.prompt.answer_messages`), and a question whose
numbers no step has used yet keeps the turn calling.

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

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from toolkit.errors import PromptError
from toolkit.local.decision.grounding import (
    adds_new_grounded_values,
    arguments_of,
    conversation_text,
    known_numbers,
    numbers_of,
    repeats,
    rules_out_extra_call,
    stated_numbers,
    ungrounded_numbers,
)
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import answer_messages, build_prompt, results_nudge
from toolkit.local.decision.signals import NOT_TEXT_STARTS, name_probabilities, text_probability
from toolkit.local.decision.turn import (
    CallJudge,
    has_results,
    last_question,
    turn_start,
    unused_numbers,
)
from toolkit.local.format.events import ContentDelta, Event, Finished, ToolCallEvent
from toolkit.local.format.grammar import calls_grammar, text_grammar
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.json_scan import JsonScanner
from toolkit.local.format.parser import ToolCallStream, parse_tool_calls
from toolkit.local.format.stops import repetition_start
from toolkit.local.format.structured import answer_grammar
from toolkit.local.format.template import render_prompt
from toolkit.wire import content_text

if TYPE_CHECKING:  # decoding drives a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["answer", "answer_text_grammar"]


def answer_text_grammar(
    job: ChatJob, *, forbidden: Sequence[str] = (), numbers: Sequence[str] | None = None
) -> str | None:
    """The grammar a text answer is decoded under: the response format's JSON when the job
    has one (:mod:`toolkit.local.format.structured`), else text that never opens a call (nor
    holds ``forbidden``, nor states numbers outside ``numbers``) when tools were offered, else
    none.

    Args:
        job: The request.
        forbidden: Strings a text answer to a tool prompt may not contain.
        numbers: The only numbers it may state; ``None`` for any.

    Returns:
        GBNF text, or ``None`` for free decoding.
    """
    if job.text_schema is not None:
        return answer_grammar(job.text_schema)
    if job.tools and job.constrained:
        return text_grammar(forbidden=forbidden, numbers=numbers)
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
    tokens = engine.tokenize(build_prompt(job, policy, engine.chat_template))
    decoder = _Decoder(engine, job, policy, tokens, cancel)
    answered = has_results(job.messages[turn_start(job.messages) :])
    if not job.tools or job.tool_choice == "none":
        yield from decoder.text(from_results=answered and job.constrained)
    elif not job.constrained:
        yield from decoder.free()
    elif job.tool_choice == "auto":
        decoder.p_text = text_probability(engine, tokens)
        if decoder.p_text < policy.text_threshold:
            decoder.measure_names()
        p_name = 1.0 if decoder.p_name is None else decoder.p_name
        if answered and unused_numbers(job.messages):
            decoder.measure_names()  # the question still has numbers no step has used
            yield from decoder.calls(None)
        elif decoder.p_text >= policy.text_threshold or p_name < policy.name_threshold:
            if job.text_schema is not None:
                yield from decoder.text(from_results=answered)  # the response format's JSON
            elif answered:
                yield from decoder.final_answer()
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


class _Decoder:
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

    def checked_text(self) -> Iterator[Event]:
        """A text answer that is checked before it is given (``tool_choice="auto"``).

        The text is kept back until it is complete and then read for what shows the model
        should have called a tool: a call written out (a ``{`` and a quote: generation stops
        there), a repeat of the question, or — before any tool result — a number nobody
        stated while the model would name an offered tool. Then the answer is decoded as
        calls instead; otherwise the text is given as it is.
        """
        generation = self.engine.generate(
            self.tokens,
            self._options(),
            grammar=text_grammar(forbidden=self._forbidden()),
            cancel=self.cancel,
            ban_first=self._not_text(),
        )
        text, leaked = "", False
        for piece in generation:
            text += piece
            if _CALL_OPENING.search(text):
                leaked = True
                generation.close()
                break
        self.used += generation.completion_tokens
        text = text.strip()
        echo = bool(text) and _folded(text) == _folded(last_question(self.job.messages))
        if leaked or echo or self._invents_numbers(text):
            self.measure_names()
            p_name = 1.0 if self.p_name is None else self.p_name
            if leaked or echo or p_name >= self.policy.name_threshold:
                yield from self.calls(None)
                return
        if text:
            yield ContentDelta(text)
        yield self._finished(generation.finish_reason or "stop", "text")

    def _invents_numbers(self, text: str) -> bool:
        """Before any tool result: whether the text states a number nobody gave."""
        if has_results(self.job.messages):
            return False
        known = known_numbers(conversation_text(self.job.messages))
        return bool(ungrounded_numbers({"text": text.casefold()}, known))

    def final_answer(self) -> Iterator[Event]:
        """The answer once this turn's tools have answered (``tool_choice="auto"``).

        Written from the final-answer step's prompt and checked: when it states a number the
        question and the results never stated, the model did arithmetic a tool should do, so
        the answer is decoded as calls instead (and, should no call do, written again stating
        only numbers that were stated).
        """
        events = list(self.text(from_results=True, any_numbers=True))
        answer = "".join(e.text for e in events if isinstance(e, ContentDelta))
        stated = {n.lstrip("-") for n in self._stated_numbers() or []}
        written = [n.lstrip("-") for n in stated_numbers([answer])]
        if self.policy.grounded_numbers and any(n not in stated for n in written):
            self.measure_names()
            yield from self.calls(None)
            return
        yield from events

    def _stated_numbers(self) -> list[str] | None:
        if not self.policy.grounded_numbers:
            return None
        texts = [
            content_text(m.get("content"))
            for m in self.job.messages
            if m.get("role") != "assistant"
        ]
        return stated_numbers(texts)

    def _forbidden(self) -> list[str]:
        """What a text answer may not contain: call JSON, or a call written as ``name(``."""
        words = list(self.policy.forbidden_in_text)
        return words + [f"{name}(" for name in self.job.tool_names]

    def _answer_from_results(self) -> list[int]:
        """The final-answer step's prompt (:func:`~toolkit.local.decision.prompt.
        answer_messages`), or with that step turned off the prompt with
        :func:`~toolkit.local.decision.prompt.results_nudge` at its end (the same prompt if
        the template refuses a late system message)."""
        own_step = self.policy.answer_step and self.job.text_schema is None
        step = answer_messages(self.job.messages) if own_step else None
        if step is not None:
            return self.engine.tokenize(render_prompt(step, None, template=self.template))
        nudge = results_nudge(self.job.messages)
        messages = [*self.job.messages, {"role": "system", "content": nudge}]
        try:
            text = build_prompt(replace(self.job, messages=messages), self.policy, self.template)
        except PromptError:
            return self.tokens
        return self.engine.tokenize(text)

    def text(self, *, from_results: bool = False, any_numbers: bool = False) -> Iterator[Event]:
        structured = self.job.text_schema is not None
        plain = bool(self.job.tools) and self.job.constrained and not structured
        forbidden = [*self._forbidden(), "{"]  # no JSON at all in a text answer to a tool prompt
        # An answer from results states only numbers the question or the results stated.
        numbers = self._stated_numbers() if from_results and not any_numbers else None
        generation = self.engine.generate(
            self._answer_from_results() if from_results else self.tokens,
            self._options(),
            grammar=answer_text_grammar(self.job, forbidden=forbidden, numbers=numbers),
            cancel=self.cancel,
            ban_first=self._not_text() if plain else None,
        )
        started, scored, written, reason = False, 0, "", None
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
        if written.strip():
            yield ContentDelta(written.rstrip(), tuple(generation.logprobs or ()))
        self.used += generation.completion_tokens
        yield self._finished(reason or generation.finish_reason or "stop", "text")

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

    def _attempt(
        self, context: list[int], grammar: str, doomed: Doom | None = None
    ) -> tuple[list[str], Any, list[dict], bool]:
        """One grammar-constrained call: its pieces, generation, calls and whether it was
        given up because ``doomed`` said so of a completed argument value."""
        generation = self.engine.generate(
            context, self._options(), grammar=grammar, cancel=self.cancel
        )
        pieces: list[str] = []
        scanner = JsonScanner(values_under="arguments", skip_prefix=True) if doomed else None
        written: dict[str, Any] = {}
        for piece in generation:
            pieces.append(piece)
            if scanner is None:
                continue
            values = scanner.feed(piece)
            keys = scanner.keys[len(scanner.keys) - len(values) :]
            for value, key in zip(values, keys, strict=True):
                if key is not None:
                    written.setdefault(key, value)
                named = _NAMED.search("".join(pieces))
                if doomed(value, written, named.group(1) if named else None):
                    generation.close()
                    self.used += generation.completion_tokens
                    return pieces, generation, [], True
        self.used += generation.completion_tokens
        text = "".join(pieces)
        found = parse_tool_calls(text, self.job.tool_names, lenient=False).tool_calls
        return pieces, generation, found, False

    def _probes(self, last: str, grammar: str) -> list[str]:
        """The grammars one more call is tried under: the same tool as the call before (the
        second city of a parallel request), then the other tools."""
        others = [n for n in self.job.tool_names if n != last]
        if not others:
            return [grammar]
        tools = self.job.tools
        return [
            calls_grammar(tools, names=[last], max_calls=1),
            calls_grammar(tools, names=others, max_calls=1),
        ]

    def calls(self, name: str | None) -> Iterator[Event]:
        """Calls, one ``<tool_call>`` block at a time.

        With ``tool_choice="auto"`` a first call that repeats one the conversation already
        made, or uses values the conversation never gave, gives way to a call of the next most
        likely tool; when no tool does better the answer is text from the results (or, before
        any result, the model's own first call). When several calls are allowed the model is
        then made to write one more, first of the same tool and then of another, kept only
        when it is no repeat and :func:`adds_new_grounded_values`; otherwise the answer ends.
        """
        job = self.job
        turn = CallJudge(job, self.policy, auto=name is None and job.tool_choice == "auto")
        grammar = calls_grammar(job.tools, names=[name] if name else None, max_calls=1)
        first = self._first_call(turn, grammar)
        if first is None:
            yield from self.text(from_results=True)  # the answer is already in the results
            return
        pieces, generation, found = first
        stream = ToolCallStream(job.tool_names, lenient=False)
        count = 0
        for piece in pieces:
            for event in stream.feed(piece):
                count += isinstance(event, ToolCallEvent)
                yield event
        context = self.tokens + generation.tokens
        made = [(c["function"]["name"], arguments_of(c)) for c in found]
        newline = self.engine.tokenize("\n", bos=False)
        # One more call is probed for in a turn's first step, or while numbers stated in the
        # question or the results wait for a call to use them.
        first_step = not has_results(job.messages[turn_start(job.messages) :])
        more = name is None and job.parallel_tool_calls and len(found) == 1
        more = more and (first_step or bool(_unused_after(job.messages, found)))
        while more and generation.finish_reason == "stop" and len(made) < self.policy.max_calls:
            if self._options().max_tokens < self.policy.min_extra_call_tokens:
                break
            attempt = context + newline
            kept = self._extra_call(turn, attempt, made, grammar)
            if kept is None:
                break  # the model had nothing new to ask for
            pieces, generation, call = kept
            for piece in ["\n", *pieces]:
                for event in stream.feed(piece):
                    count += isinstance(event, ToolCallEvent)
                    yield event
            made.append((call["function"]["name"], arguments_of(call)))
            context = attempt + generation.tokens
        for event in stream.finish():
            count += isinstance(event, ToolCallEvent)
            yield event
        reason = "tool_calls" if count else (generation.finish_reason or "stop")
        yield self._finished(reason, "calls")

    def _first_call(
        self, turn: CallJudge, grammar: str
    ) -> tuple[list[str], Any, list[dict]] | None:
        """The first call of the answer, or ``None`` when the answer should be text."""
        pieces, generation, found, doomed = self._attempt(self.tokens, grammar, turn.repeat_doom)
        tried = {c["function"]["name"] for c in found} | ({turn.doomed_name} - {None})
        # Calls rejected only for values the conversation never gave: should no tool do better,
        # the one the model was likeliest to name is made (before any result is there).
        fallbacks: list[tuple[float, int, tuple[list[str], Any, list[dict]]]] = []
        retried: set[str] = set()
        while doomed or (found and all(turn.rejected(c) for c in found)):
            if doomed or all(turn.history.redundant(c) for c in found):
                self.repeated += max(1, len(found))
            else:
                tool = found[0]["function"]["name"]
                retry = self._grounded_retry(turn, tool, found[0], retried)
                if retry is not None:
                    return retry
                p = (self.names or {}).get(tool, 0.0)
                fallbacks.append((p, -len(fallbacks), (pieces, generation, found)))
            others = sorted(
                (p, n)
                for n, p in (self.names or {}).items()
                if n not in tried and p >= self.policy.alternative_threshold
            )
            if not others:
                if fallbacks and not has_results(self.job.messages):
                    return max(fallbacks)[2]
                return None
            tried.add(others[-1][1])
            narrow = calls_grammar(self.job.tools, names=[others[-1][1]], max_calls=1)
            turn.doomed_name = None
            pieces, generation, found, doomed = self._attempt(self.tokens, narrow, turn.repeat_doom)
            tried |= {turn.doomed_name} - {None}
        return pieces, generation, found

    def _grounded_retry(
        self, turn: CallJudge, tool: str, call: dict[str, Any], retried: set[str]
    ) -> tuple[list[str], Any, list[dict]] | None:
        """After tool results, a call whose only fault is numbers nobody stated is written again
        with the stated numbers as the only ones its grammar admits (a small model copies the
        examples of a tool's description: ``calculate("(6 + 5) * 2")`` for "21.9 + 24.9")."""
        if tool in retried or not has_results(self.job.messages):
            return None
        retried.add(tool)
        if not turn.only_numbers_ungrounded(call):
            return None  # text values the conversation never gave too: not only numbers
        stated = self._stated_numbers()
        if not stated:
            return None
        grammar = calls_grammar(self.job.tools, names=[tool], max_calls=1, numbers=stated)
        pieces, generation, found, doomed = self._attempt(self.tokens, grammar, turn.repeat_doom)
        if doomed or not found or any(turn.rejected(c) for c in found):
            return None
        return pieces, generation, found

    def _extra_call(
        self, turn: CallJudge, context: list[int], made: list[tuple[str, dict]], grammar: str
    ) -> tuple[list[str], Any, dict] | None:
        """One more call, tried under each probe grammar; ``None`` when none is kept."""
        previous = [arguments for _, arguments in made]

        def doomed(value: Any, written: dict[str, Any], tool: str | None) -> bool:
            if rules_out_extra_call(value, previous, turn.grounding, self.policy):
                return True
            earlier = [a for n, a in made if n == tool] + turn.history.arguments.get(tool, [])
            required = turn.required.get(tool or "", [])
            return tool is not None and repeats(written, required, earlier, rearranged=True)

        for probe in self._probes(made[-1][0], grammar):
            pieces, generation, found, _ = self._attempt(context, probe, doomed)
            if generation.finish_reason != "stop" or len(found) != 1:
                continue
            call = found[0]
            # New against the earlier calls of the same tool: another tool asks for something
            # else even with the same values (the interest coverage of the company whose sales
            # growth was asked for), so its values need only be grounded.
            same = [a for n, a in made if n == call["function"]["name"]]
            if not turn.history.redundant(call) and adds_new_grounded_values(
                arguments_of(call), same, turn.grounding, self.policy
            ):
                return pieces, generation, call
        return None


#: The tool a call being written names.
_NAMED = re.compile(r'"name": "([^"]+)"')
#: Says, of a completed argument value (with the values so far and the tool's name), that the
#: call being written will be discarded.
Doom = Callable[[Any, dict[str, Any], str | None], bool]


#: A call written out in a text answer: a brace, then a quoted key.
_CALL_OPENING = re.compile(r"\{\s*[\"']")


def _folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _unused_after(messages: list[dict[str, Any]], calls: list[dict[str, Any]]) -> list[float]:
    """Numbers this turn stated (question and results) that no call, these ones included, used."""
    start = turn_start(messages)
    turn = [*messages[start:], {"role": "assistant", "tool_calls": calls}]
    stated = known_numbers(conversation_text([m for m in turn if m.get("role") != "assistant"]))
    used = {v for m in turn for c in m.get("tool_calls") or [] for v in numbers_of(arguments_of(c))}
    return sorted(stated - used)
