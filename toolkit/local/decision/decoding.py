"""Answer one chat request on the embedded model: text or calls, decided and decoded.

:func:`answer` applies :mod:`toolkit.local.decision.policy` (its docstring gives the reasons):

* no tools, or ``tool_choice="none"``: text, never opening a call;
* ``"auto"``: text when the model's first-token text probability reaches
  ``text_threshold`` or its probability of naming an offered tool is under
  ``name_threshold``; calls otherwise;
* ``"required"``: calls; a named tool: one call of that tool;
* ``constrained=False``: free decoding, read by the tolerant parser.

Calls are decoded one ``<tool_call>`` block at a time under the calls grammar. With ``"auto"``
a first call whose answer the conversation already holds
(:class:`~toolkit.local.decision.grounding.CallHistory`) gives way to the next most likely tool,
and to a text answer built from the results when every likely tool is redundant. When parallel
calls are allowed the model is made to write one more call after each, kept only when it is new
and grounded in the conversation (:mod:`toolkit.local.decision.grounding`); it is given up at
the first argument value that rules it out.

A text answer is decoded under :func:`answer_text_grammar`: the JSON of the job's response
format when it has one, whatever the decision (a call stays a call).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from toolkit.errors import PromptError
from toolkit.local.decision.grounding import (
    CallHistory,
    adds_new_grounded_values,
    arguments_of,
    conversation_text,
    rules_out_extra_call,
)
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt, results_nudge
from toolkit.local.decision.signals import NOT_TEXT_STARTS, name_probabilities, text_probability
from toolkit.local.format.events import ContentDelta, Event, Finished, ToolCallEvent
from toolkit.local.format.grammar import calls_grammar, text_grammar
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.json_scan import JsonScanner
from toolkit.local.format.parser import ToolCallStream, parse_tool_calls
from toolkit.local.format.structured import answer_grammar

if TYPE_CHECKING:  # decoding drives a loaded engine; the llama.cpp module is the runtime's
    from toolkit.local.runtime.engine import Engine

__all__ = ["answer", "answer_text_grammar"]


def answer_text_grammar(job: ChatJob) -> str | None:
    """The grammar a text answer is decoded under: the response format's JSON when the job
    has one (:mod:`toolkit.local.format.structured`), else text that never opens a call when
    tools were offered, else none.

    Args:
        job: The request.

    Returns:
        GBNF text, or ``None`` for free decoding.
    """
    if job.text_schema is not None:
        return answer_grammar(job.text_schema)
    return text_grammar() if job.tools and job.constrained else None


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
    if not job.tools or job.tool_choice == "none":
        yield from decoder.text()
    elif not job.constrained:
        yield from decoder.free()
    elif job.tool_choice == "auto":
        decoder.p_text = text_probability(engine, tokens)
        if decoder.p_text < policy.text_threshold and engine.token_id("<tool_call>") is not None:
            decoder.names = name_probabilities(
                engine, tokens, job.tool_names, floor=policy.name_floor
            )
            decoder.p_name = min(1.0, sum(decoder.names.values()))
        p_name = 1.0 if decoder.p_name is None else decoder.p_name
        if decoder.p_text >= policy.text_threshold or p_name < policy.name_threshold:
            yield from decoder.text()
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

    def _answer_from_results(self) -> list[int]:
        """The prompt with :func:`~toolkit.local.decision.prompt.results_nudge` at its end (the same
        prompt if the template refuses a late system message)."""
        nudge = results_nudge(self.job.messages)
        messages = [*self.job.messages, {"role": "system", "content": nudge}]
        try:
            text = build_prompt(replace(self.job, messages=messages), self.policy, self.template)
        except PromptError:
            return self.tokens
        return self.engine.tokenize(text)

    def text(self, *, from_results: bool = False) -> Iterator[Event]:
        plain = bool(self.job.tools) and self.job.constrained and self.job.text_schema is None
        generation = self.engine.generate(
            self._answer_from_results() if from_results else self.tokens,
            self._options(),
            grammar=answer_text_grammar(self.job),
            cancel=self.cancel,
            ban_first=self._not_text() if plain else None,
        )
        started, scored = False, 0
        for piece in generation:
            if not started:
                piece = piece.lstrip()
                started = bool(piece)
            if piece:
                scores = tuple((generation.logprobs or [])[scored:])
                scored += len(scores)
                yield ContentDelta(piece, scores)
        self.used += generation.completion_tokens
        yield self._finished(generation.finish_reason or "stop", "text")

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
        self, context: list[int], grammar: str, doomed: Callable[[Any], bool] | None = None
    ) -> tuple[list[str], Any, list[dict]]:
        """One grammar-constrained call; with ``doomed``, given up (no calls found) as soon
        as a completed argument value satisfies it."""
        generation = self.engine.generate(
            context, self._options(), grammar=grammar, cancel=self.cancel
        )
        pieces: list[str] = []
        scanner = JsonScanner(values_under="arguments", skip_prefix=True) if doomed else None
        for piece in generation:
            pieces.append(piece)
            if scanner is not None and any(map(doomed, scanner.feed(piece))):
                generation.close()
                self.used += generation.completion_tokens
                return pieces, generation, []
        self.used += generation.completion_tokens
        text = "".join(pieces)
        found = parse_tool_calls(text, self.job.tool_names, lenient=False).tool_calls
        return pieces, generation, found

    def calls(self, name: str | None) -> Iterator[Event]:
        """Calls, one ``<tool_call>`` block at a time.

        With ``tool_choice="auto"`` a first call that repeats one the conversation already
        made is replaced by a call of the next most likely tool, and when every likely tool
        only repeats, the answer is text. When several calls are allowed the model is then
        made to write one more, kept only when it is no repeat and
        :func:`adds_new_grounded_values`; otherwise it is discarded and the answer ends.
        """
        job, auto = self.job, name is None and self.job.tool_choice == "auto"
        history = CallHistory(
            job.messages if auto and self.policy.drop_repeated_calls else [], self.policy
        )
        grammar = calls_grammar(job.tools, names=[name] if name else None, max_calls=1)
        pieces, generation, found = self._attempt(self.tokens, grammar)
        tried = {c["function"]["name"] for c in found}
        while found and all(history.redundant(c) for c in found):
            self.repeated += len(found)
            others = sorted(
                (p, n)
                for n, p in (self.names or {}).items()
                if n not in tried and p >= self.policy.alternative_threshold
            )
            if not others:
                yield from self.text(from_results=True)  # the results are already there
                return
            tried.add(others[-1][1])
            narrow = calls_grammar(job.tools, names=[others[-1][1]], max_calls=1)
            pieces, generation, found = self._attempt(self.tokens, narrow)
        stream = ToolCallStream(job.tool_names, lenient=False)
        count = 0
        for piece in pieces:
            for event in stream.feed(piece):
                count += isinstance(event, ToolCallEvent)
                yield event
        context = self.tokens + generation.tokens
        made = [arguments_of(c) for c in found]
        grounding = conversation_text(job.messages)
        newline = self.engine.tokenize("\n", bos=False)
        more = name is None and job.parallel_tool_calls and len(found) == 1
        while more and generation.finish_reason == "stop" and len(made) < self.policy.max_calls:
            if self._options().max_tokens < self.policy.min_extra_call_tokens:
                break
            attempt = context + newline
            doomed = partial(
                rules_out_extra_call, previous=list(made), text=grounding, policy=self.policy
            )
            pieces, extra, found = self._attempt(attempt, grammar, doomed)
            if not (
                extra.finish_reason == "stop"
                and len(found) == 1
                and not history.redundant(found[0])
                and adds_new_grounded_values(arguments_of(found[0]), made, grounding, self.policy)
            ):
                break  # discarded: the model had nothing new to ask for
            for piece in ["\n", *pieces]:
                for event in stream.feed(piece):
                    count += isinstance(event, ToolCallEvent)
                    yield event
            made.append(arguments_of(found[0]))
            context, generation = attempt + extra.tokens, extra
        for event in stream.finish():
            count += isinstance(event, ToolCallEvent)
            yield event
        reason = "tool_calls" if count else (generation.finish_reason or "stop")
        yield self._finished(reason, "calls")
