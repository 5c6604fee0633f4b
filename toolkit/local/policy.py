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
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolkit.errors import PromptError
from toolkit.local.engine import Engine, Generation, SamplingOptions
from toolkit.local.grammar import calls_grammar, text_grammar
from toolkit.local.parser import ContentDelta, ToolCallEvent, ToolCallStream
from toolkit.local.template import render_prompt

__all__ = [
    "CALL_OPENERS",
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
        nudge: Sentence added to the system turn for ``tool_choice="auto"``; ``None`` or
            ``""`` adds nothing.
        drop_repeated_calls: Drop calls identical to one made earlier in the conversation.
    """

    text_threshold: float = 0.2
    nudge: str | None = DEFAULT_NUDGE
    drop_repeated_calls: bool = True

    def __post_init__(self) -> None:
        if not 0.0 <= self.text_threshold <= 1.0:
            raise ValueError(f"text_threshold must be within [0, 1], got {self.text_threshold}.")


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
        text_probability: The first-token text probability when it was measured.
        repeated: Calls dropped because the conversation already made them.
    """

    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    decision: str
    text_probability: float | None = None
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


def _signature(name: Any, arguments: Any) -> tuple[str, str]:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return str(name), arguments
    return str(name), json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def _earlier_calls(messages: Sequence[Mapping[str, Any]]) -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    for message in messages:
        if message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            fn = call.get("function") or {}
            seen.add(_signature(fn.get("name"), fn.get("arguments")))
    return seen


Event = ContentDelta | ToolCallEvent | Finished


def _stream_text(generation: Generation) -> Iterator[ContentDelta]:
    started = False
    for piece in generation:
        if not started:
            piece = piece.lstrip()
            started = bool(piece)
        if piece:
            yield ContentDelta(piece)


def answer(
    engine: Engine,
    job: ChatJob,
    policy: ToolPolicy = ToolPolicy(),
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    """Answer a chat request: content deltas and calls as they are decided, then
    :class:`Finished`.

    The caller must hold the engine's lock while iterating.

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
    names = job.tool_names
    if not job.tools or job.tool_choice == "none":
        yield from _answer_text(engine, job, tokens, "text", None)
        return
    if not job.constrained:
        generation = engine.generate(tokens, job.options, cancel=cancel)
        yield from _answer_calls(generation, names, set(), lenient=True, decision="calls")
        return
    most = None if job.parallel_tool_calls else 1
    if job.tool_choice == "required":
        grammar = calls_grammar(job.tools, max_calls=most)
    elif job.tool_choice != "auto":
        if job.tool_choice not in names:
            raise PromptError(
                f"tool_choice names {job.tool_choice!r}, which is not among the tools; "
                f"choose one of: {', '.join(names)}."
            )
        grammar = calls_grammar(job.tools, names=[job.tool_choice], max_calls=1)
    else:
        p_text = text_probability(engine, tokens)
        if p_text >= policy.text_threshold:
            yield from _answer_text(engine, job, tokens, "text", p_text)
            return
        grammar = calls_grammar(job.tools, max_calls=most)
        seen = _earlier_calls(job.messages) if policy.drop_repeated_calls else set()
        generation = engine.generate(tokens, job.options, grammar=grammar, cancel=cancel)
        for event in _answer_calls(generation, names, seen, lenient=False, decision="calls"):
            if not isinstance(event, Finished):
                yield event
                continue
            event.text_probability = p_text
            if event.finish_reason == "tool_calls" or not event.repeated:
                yield event
                return
            for retry in _answer_text(engine, job, tokens, "text", p_text, cancel=cancel):
                if isinstance(retry, Finished):
                    retry.completion_tokens += event.completion_tokens
                    retry.repeated = event.repeated
                yield retry
        return
    generation = engine.generate(tokens, job.options, grammar=grammar, cancel=cancel)
    yield from _answer_calls(generation, names, set(), lenient=False, decision="calls")


def _answer_text(
    engine: Engine,
    job: ChatJob,
    tokens: list[int],
    decision: str,
    p_text: float | None,
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Event]:
    grammar = text_grammar() if job.tools and job.constrained else None
    banned = engine.opening_tokens(CALL_OPENERS) if job.tools and job.constrained else None
    generation = engine.generate(
        tokens, job.options, grammar=grammar, cancel=cancel, ban_first=banned
    )
    yield from _stream_text(generation)
    yield Finished(
        finish_reason=generation.finish_reason or "stop",
        prompt_tokens=generation.prompt_tokens,
        completion_tokens=generation.completion_tokens,
        decision=decision,
        text_probability=p_text,
    )


def _answer_calls(
    generation: Generation,
    names: list[str],
    seen: set[tuple[str, str]],
    *,
    lenient: bool,
    decision: str,
) -> Iterator[Event]:
    stream = ToolCallStream(names, lenient=lenient)
    count = repeated = 0

    def relay(events: list[ContentDelta | ToolCallEvent]) -> Iterator[Event]:
        nonlocal count, repeated
        for event in events:
            if isinstance(event, ToolCallEvent):
                fn = event.call["function"]
                if _signature(fn["name"], fn["arguments"]) in seen:
                    repeated += 1
                    continue
                event = ToolCallEvent(index=count, call=event.call)
                count += 1
            yield event

    for piece in generation:
        yield from relay(stream.feed(piece))
    yield from relay(stream.finish())
    reason = "tool_calls" if count else (generation.finish_reason or "stop")
    yield Finished(
        finish_reason=reason,
        prompt_tokens=generation.prompt_tokens,
        completion_tokens=generation.completion_tokens,
        decision=decision,
        repeated=repeated,
    )
