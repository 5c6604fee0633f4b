"""How the embedded server answers one chat request: text or tool calls, and which grammar.

The small embedded model has habits that a grammar alone does not fix (measured, see
``shared/DESIGN.md``): it writes a call as a fenced ```` ```json ```` block rather than the
``<tool_call>`` block its template teaches, stops after one such block (so parallel requests
get one call), calls some tool even when none fits, and repeats a call after its result came
back. With ``tool_choice="auto"`` the server therefore *decides* before it decodes:

1. **Nudge.** One sentence is added to the system turn: call a function only when one fits,
   otherwise answer in text (:data:`DEFAULT_NUDGE`; the client's own system message is kept
   and the sentence appended).
2. **Decide.** The prompt is evaluated once and the model's own next-token distribution is
   split into *call openers* (``<tool_call>``, a code fence, ``{`` or ``[``: every way it
   starts a call) and everything else, *text*. When the text probability reaches
   :attr:`ToolPolicy.text_threshold` the answer is text, otherwise calls.
3. **Decode under the matching grammar.** Calls: ``<tool_call>`` blocks only, each fitting its
   tool's schema, as many as the model writes (at most one with
   ``parallel_tool_calls=false``); in that format the model does go on to a second call.
   Text: no ``<tool_call>``, and the first token may not open a call.
4. **No repeats.** A call identical (name and arguments) to one already made earlier in the
   conversation is dropped: its result is already there. When nothing is left, the model
   answers in text instead. Genuine multi-step chains (new calls) are untouched.

``required`` and a named tool decode calls directly (the named one only, one call); ``none``
decodes text. With ``constrained=False`` (for measuring) the model decodes freely and the
tolerant parser reads whatever it wrote. Every threshold lives in :class:`ToolPolicy`.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from toolkit.errors import PromptError
from toolkit.local.engine import Engine, SamplingOptions
from toolkit.local.grammar import calls_grammar, text_grammar
from toolkit.local.parser import ContentDelta, ToolCallEvent, ToolCallStream, parse_tool_calls
from toolkit.local.template import render_prompt

__all__ = [
    "CALL_OPENERS",
    "CallHistory",
    "DEFAULT_NUDGE",
    "ChatJob",
    "Finished",
    "ToolPolicy",
    "answer",
    "build_prompt",
    "prompt_messages",
]

#: Added to the system turn when tools are offered with ``tool_choice="auto"``.
DEFAULT_NUDGE = (
    "Call a function only when one of the functions below can do what the user asks; "
    "otherwise answer directly in plain text without calling any function."
)
_DEFAULT_SYSTEM = "You are a helpful assistant."


@dataclass(frozen=True)
class ToolPolicy:
    """Settings of the tool-versus-text decision (see the module docstring).

    Attributes:
        text_threshold: Answer in text when the model's first-token probability of text
            (not opening a call) is at least this; lower means more calls.
        name_threshold: Answer in text when the model's probability of naming one of the
            offered tools (:func:`name_probability`) is below this.
        max_calls: Most calls in one answer (when parallel calls are allowed).
        nudge: Sentence added to the system turn for ``tool_choice="auto"``; ``None`` or
            ``""`` adds nothing.
        drop_repeated_calls: Drop calls identical to one made earlier in the conversation.
    """

    text_threshold: float = 0.2
    name_threshold: float = 0.5
    max_calls: int = 8
    nudge: str | None = DEFAULT_NUDGE
    drop_repeated_calls: bool = True

    def __post_init__(self) -> None:
        for name in ("text_threshold", "name_threshold"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], got {value}.")
        if self.max_calls < 1:
            raise ValueError(f"max_calls must be at least 1, got {self.max_calls}.")


@dataclass(frozen=True)
class ChatJob:
    """One chat request, validated and normalised by the server.

    Attributes:
        messages: OpenAI messages (dicts).
        tools: OpenAI tools, or ``None``.
        tool_choice: ``"auto"``, ``"none"``, ``"required"`` or the name of one tool.
        parallel_tool_calls: Whether several calls may be made in one answer.
        options: Sampling options.
        constrained: Decode under grammars and decide text versus calls (``False`` decodes
            freely, for measuring the model alone).
    """

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str = "auto"
    parallel_tool_calls: bool = True
    options: SamplingOptions = field(default_factory=SamplingOptions)
    constrained: bool = True

    @property
    def tool_names(self) -> list[str]:
        """The names of the offered tools, in order."""
        return [t["function"]["name"] for t in self.tools or []]


@dataclass
class Finished:
    """The last event of an answer.

    Attributes:
        finish_reason: ``"tool_calls"``, ``"stop"`` or ``"length"``.
        prompt_tokens: Tokens of the prompt the model read.
        completion_tokens: Tokens generated (all attempts).
        decision: ``"text"`` or ``"calls"``: how the answer was decoded.
        text_probability: The first-token text probability, when it was measured.
        name_probability: The probability of naming an offered tool, when it was measured.
        repeated: Calls dropped because the conversation already made them.
    """

    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    decision: str
    text_probability: float | None = None
    name_probability: float | None = None
    repeated: int = 0


def prompt_messages(job: ChatJob, policy: ToolPolicy) -> list[dict[str, Any]]:
    """The messages the template renders: the job's, with the policy's nudge when it applies.

    Args:
        job: The request.
        policy: The decision settings.

    Returns:
        A new list of messages (the job's are not modified).
    """
    messages = [dict(m) for m in job.messages]
    if not (job.tools and job.tool_choice == "auto" and job.constrained and policy.nudge):
        return messages
    if messages and messages[0].get("role") in ("system", "developer"):
        first = messages[0]
        base = first.get("content")
        if isinstance(base, list):
            base = "".join(p.get("text", "") for p in base if isinstance(p, Mapping))
        base = (base or "").rstrip()
        first["content"] = f"{base}\n\n{policy.nudge}" if base else policy.nudge
        first["role"] = "system"
    else:
        messages.insert(0, {"role": "system", "content": f"{_DEFAULT_SYSTEM} {policy.nudge}"})
    return messages


def build_prompt(job: ChatJob, policy: ToolPolicy, template: str | None) -> str:
    """Render the prompt the model reads for a job.

    Args:
        job: The request.
        policy: The decision settings (its nudge may be added).
        template: The model's chat template; ``None`` for Qwen2.5's.

    Returns:
        The prompt text.

    Raises:
        PromptError: The messages or tools cannot be rendered.
    """
    return render_prompt(prompt_messages(job, policy), job.tools, template=template)


#: How a call can start: the template's tag, a code fence, or bare JSON.
CALL_OPENERS = (b"<tool_call>", b"```", b"{", b"[")


def text_probability(engine: Engine, tokens: Sequence[int]) -> float:
    """The model's probability that its answer starts as text rather than as a call.

    Args:
        engine: The loaded model.
        tokens: The prompt tokens.

    Returns:
        One minus the probability mass of the call-opening tokens.
    """
    logprobs = engine.next_token_logprobs(tokens)
    return float(max(0.0, 1.0 - np.exp(logprobs[engine.opening_tokens(CALL_OPENERS)]).sum()))


#: What the model writes before a function name in its call format.
NAME_PREFIX = '<tool_call>\n{"name": "'


def name_probabilities(
    engine: Engine, tokens: Sequence[int], names: Sequence[str], *, floor: float = 1e-3
) -> dict[str, float]:
    """The model's probability of naming each tool if it writes a call now.

    The prompt is extended with ``<tool_call>`` and ``{"name": "`` and each tool name is
    scored token by token (then the closing quote), shared prefixes once; a name whose running
    probability falls below ``floor`` is not followed further and counts as zero. A low total
    means the model would call a function that is not offered: the question is not for these
    tools.

    Args:
        engine: The loaded model.
        tokens: The prompt tokens.
        names: The offered tool names.
        floor: Probability under which a name is counted as zero.

    Returns:
        Each name's probability.
    """
    head = list(tokens)
    base = engine.tokenize(NAME_PREFIX, bos=False)
    quotes = engine.opening_tokens((b'"',))
    cache: dict[tuple[int, ...], np.ndarray] = {}

    def logprobs(suffix: list[int]) -> np.ndarray:
        key = tuple(suffix)
        if key not in cache:
            cache[key] = engine.next_token_logprobs(head + suffix)
        return cache[key]

    found: dict[str, float] = {}
    for name in dict.fromkeys(names):
        full = engine.tokenize(NAME_PREFIX + name, bos=False)
        start = next(
            (i for i, (a, b) in enumerate(zip(base, full, strict=False)) if a != b), len(base)
        )
        probability = 1.0
        for j in range(min(start, len(full)), len(full)):
            probability *= float(np.exp(logprobs(full[:j])[full[j]]))
            if probability < floor:
                break
        ends = float(np.exp(logprobs(full)[quotes]).sum()) if probability >= floor else 0.0
        found[name] = probability * ends
    return found


def conversation_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """All message text of a conversation, case-folded (what a call may be grounded in).

    Args:
        messages: OpenAI messages.

    Returns:
        The contents joined by newlines.
    """
    parts: list[str] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return "\n".join(parts).casefold()


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif value is not None:
        yield value


def _spelled(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip().casefold()


def _mentioned(value: str, text: str) -> bool:
    if value in text:
        return True
    words = re.findall(r"\w+", value)
    return bool(words) and 2 * sum(word in text for word in words) >= len(words)


def adds_new_grounded_values(
    arguments: Mapping[str, Any], previous: Sequence[Mapping[str, Any]], text: str
) -> bool:
    """Whether one more call asks for something new that the conversation mentions.

    The small model, once made to write another call, writes one whatever the request: a
    copy of the first, the same values shuffled, or invented values. A genuine extra call
    (the second city, the other artist) differs from the calls before it in values the user
    wrote. So: the call's argument values not already used by an earlier call of this
    answer must exist, and each must appear in the conversation (a multi-word value: at
    least half of its words).

    Args:
        arguments: The candidate call's arguments.
        previous: The arguments of the calls already made in this answer.
        text: :func:`conversation_text` of the conversation.

    Returns:
        True to keep the call.
    """
    before = {_spelled(v) for call in previous for v in _leaves(call)}
    novel = {_spelled(v) for v in _leaves(arguments)} - before - {""}
    return bool(novel) and all(_mentioned(value, text) for value in novel)


def _arguments(call: Mapping[str, Any]) -> dict[str, Any]:
    try:
        value = json.loads(call["function"]["arguments"])
    except (KeyError, TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _signature(name: Any, arguments: Any) -> tuple[str, str]:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return str(name), arguments
    return str(name), json.dumps(arguments, sort_keys=True, ensure_ascii=False)


class CallHistory:
    """The calls a conversation already made, and what their results said.

    A new call is *redundant* when the conversation already holds its answer: the same tool
    was called before with the same arguments, or every argument value the new call does not
    share with those earlier calls already appears in their results (``"Xi'an"`` after a
    result reading ``"西安 (Xi'an): 5 °C"``). Small models ask again for what they were just
    told; a redundant call is dropped rather than executed twice.

    Args:
        messages: OpenAI messages.
    """

    def __init__(self, messages: Sequence[Mapping[str, Any]]) -> None:
        self.signatures: set[tuple[str, str]] = set()
        self._values: dict[str, set[str]] = {}
        self._results: dict[str, list[str]] = {}
        names_by_id: dict[str, str] = {}
        for message in messages:
            if message.get("role") == "assistant":
                for call in message.get("tool_calls") or []:
                    fn = call.get("function") or {}
                    name = str(fn.get("name"))
                    self.signatures.add(_signature(name, fn.get("arguments")))
                    arguments = _arguments({"function": fn})
                    self._values.setdefault(name, set()).update(map(_spelled, _leaves(arguments)))
                    names_by_id[str(call.get("id"))] = name
            elif message.get("role") == "tool":
                name = names_by_id.get(str(message.get("tool_call_id")), "")
                text = conversation_text([message])
                self._results.setdefault(name, []).append(text)

    def redundant(self, call: Mapping[str, Any]) -> bool:
        """Whether the conversation already holds the answer to a call.

        Args:
            call: An OpenAI tool call.

        Returns:
            True for a call that repeats an earlier one or asks only for what its results said.
        """
        fn = call["function"]
        if _signature(fn["name"], fn["arguments"]) in self.signatures:
            return True
        if fn["name"] not in self._values:
            return False
        novel = {_spelled(v) for v in _leaves(_arguments(call))} - self._values[fn["name"]]
        results = "\n".join(self._results.get(fn["name"], []))
        return bool(results) and all(_mentioned(v, results) for v in novel - {""})


Event = ContentDelta | ToolCallEvent | Finished


def answer(
    engine: Engine,
    job: ChatJob,
    policy: ToolPolicy = ToolPolicy(),
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """Answer a chat request: content deltas and calls as they are decided, then
    :class:`Finished`.

    The caller must hold ``engine.lock`` while iterating.

    Args:
        engine: The loaded model.
        job: The request.
        policy: The decision settings.
        cancel: Set it to stop generating early.

    Yields:
        :class:`~toolkit.local.parser.ContentDelta` and
        :class:`~toolkit.local.parser.ToolCallEvent` (indices counting only the calls
        returned), then one :class:`Finished`.

    Raises:
        PromptError: The request cannot become a prompt or a grammar.
        LocalModelError: The prompt does not fit the context window.
    """
    tokens = engine.tokenize(build_prompt(job, policy, engine.chat_template))
    decoder = _Decoder(engine, job, policy, tokens, cancel)
    if not job.tools or job.tool_choice == "none":
        yield from decoder.text()
    elif not job.constrained:
        yield from decoder.free()
    elif job.tool_choice == "auto":
        decoder.p_text = text_probability(engine, tokens)
        if decoder.p_text < policy.text_threshold and engine.token_id("<tool_call>") is not None:
            decoder.names = name_probabilities(engine, tokens, job.tool_names)
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
        """First tokens a text answer may not start with: a call opener or the end of turn."""
        return np.concatenate([self.engine.opening_tokens(CALL_OPENERS), self.engine.end_tokens()])

    def text(self) -> Iterator[Event]:
        constrained = bool(self.job.tools) and self.job.constrained
        generation = self.engine.generate(
            self.tokens,
            self._options(),
            grammar=text_grammar() if constrained else None,
            cancel=self.cancel,
            ban_first=self._not_text() if constrained else None,
        )
        started = False
        for piece in generation:
            if not started:
                piece = piece.lstrip()
                started = bool(piece)
            if piece:
                yield ContentDelta(piece)
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

    def _attempt(self, context: list[int], grammar: str) -> tuple[list[str], Any, list[dict]]:
        generation = self.engine.generate(
            context, self._options(), grammar=grammar, cancel=self.cancel
        )
        pieces = list(generation)
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
        history = CallHistory(job.messages if auto and self.policy.drop_repeated_calls else [])
        grammar = calls_grammar(job.tools, names=[name] if name else None, max_calls=1)
        pieces, generation, found = self._attempt(self.tokens, grammar)
        tried = {c["function"]["name"] for c in found}
        while found and all(history.redundant(c) for c in found):
            self.repeated += len(found)
            others = sorted(
                (p, n) for n, p in (self.names or {}).items() if n not in tried and p >= 0.01
            )
            if not others:
                yield from self.text()  # only repeats: the results are already there
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
        made = [_arguments(c) for c in found]
        grounding = conversation_text(job.messages)
        newline = self.engine.tokenize("\n", bos=False)
        more = name is None and job.parallel_tool_calls and len(found) == 1
        while more and generation.finish_reason == "stop" and len(made) < self.policy.max_calls:
            if self._options().max_tokens <= 8:
                break
            attempt = context + newline
            pieces, extra, found = self._attempt(attempt, grammar)
            if not (
                extra.finish_reason == "stop"
                and len(found) == 1
                and not history.redundant(found[0])
                and adds_new_grounded_values(_arguments(found[0]), made, grounding)
            ):
                break  # discarded: the model had nothing new to ask for
            for piece in ["\n", *pieces]:
                for event in stream.feed(piece):
                    count += isinstance(event, ToolCallEvent)
                    yield event
            made.append(_arguments(found[0]))
            context, generation = attempt + extra.tokens, extra
        for event in stream.finish():
            count += isinstance(event, ToolCallEvent)
            yield event
        reason = "tool_calls" if count else (generation.finish_reason or "stop")
        yield self._finished(reason, "calls")
