"""The tool-versus-text decision of the embedded server, and the signals it rests on.

The small embedded model has habits that a grammar alone does not fix (measured, see
``shared/DESIGN.md``): it writes a call as a fenced ```` ```json ```` block rather than the
``<tool_call>`` block its template teaches, never opens a second call by itself, calls some
tool even when none fits, and asks again for what a tool result just told it. The signals here
all come from the model's own probabilities, read at a few decision points:

1. **Nudge.** For ``tool_choice="auto"`` one sentence joins the system turn: call a function
   only when one fits, otherwise answer in text (:data:`DEFAULT_NUDGE`, appended to the
   client's own system message when there is one).
2. **Text or call?** :func:`text_probability`: the first-token probability of everything that
   does not open a call (``<tool_call>``, a code fence, ``{``, ``[``). Text when it reaches
   :attr:`ToolPolicy.text_threshold`.
3. **Is it for these tools?** :func:`name_probabilities`: with ``<tool_call>`` and
   ``{"name": "`` appended, the probability that the model names an offered tool. When the
   question needs a function that is not offered, the model reaches for a name of its own
   and this total is low: text when it is under :attr:`ToolPolicy.name_threshold`.
4. **One more call?** The model never opens a second ``<tool_call>`` by itself, but made to
   write one it writes the second city, the other artist — or a copy, shuffled values or
   invented ones. :func:`adds_new_grounded_values` keeps an extra call only when it brings
   values the conversation mentions and no earlier call of the answer used.
5. **Already answered?** :class:`CallHistory`: a call that repeats an earlier one, or asks only
   for what its earlier results already say, is redundant.

:mod:`toolkit.local.decoding` turns these into decoding; every threshold lives in
:class:`ToolPolicy`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolkit.local.engine import Engine, SamplingOptions
from toolkit.local.template import render_prompt

__all__ = [
    "CALL_OPENERS",
    "DEFAULT_NUDGE",
    "NAME_PREFIX",
    "NOT_TEXT_STARTS",
    "RESULTS_NUDGE",
    "CallHistory",
    "ChatJob",
    "ToolPolicy",
    "adds_new_grounded_values",
    "arguments_of",
    "build_prompt",
    "conversation_text",
    "name_probabilities",
    "prompt_messages",
    "results_nudge",
    "rules_out_extra_call",
    "text_probability",
]

#: Added to the system turn when tools are offered with ``tool_choice="auto"``.
DEFAULT_NUDGE = (
    "Call a function only when one of the functions below can do what the user asks; "
    "otherwise answer directly in plain text without calling any function."
)
#: Appended as a last system message when every call the model wants repeats an earlier one
#: (see :func:`results_nudge`).
RESULTS_NUDGE = "Answer the user's question in plain text using the function results above."
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

    text_threshold: float = 0.3
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
#: How a text answer (when tools were offered) may not start: markup, JSON or a fence.
NOT_TEXT_STARTS = (b"<", b">", b"{", b"}", b"[", b"]", b"`")


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


def results_nudge(messages: Sequence[Mapping[str, Any]]) -> str:
    """:data:`RESULTS_NUDGE`, restating the user's last question when there is one.

    After several rounds of calls the question is far back in the prompt, and the small model
    then tends to recite the first results instead of answering; the question restated right
    before the answer keeps it on the question (measured on the seed question: with the tools
    in either order the answer states the sum, where without it one order only recited the
    weather).

    Args:
        messages: The conversation (OpenAI messages).

    Returns:
        The sentence to append as a system message.
    """
    for message in reversed(messages):
        if message.get("role") == "user":
            question = _content_text(message).strip()
            if question:
                return f"{RESULTS_NUDGE} The question was: {question}"
            break
    return RESULTS_NUDGE


def _content_text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return content if isinstance(content, str) else ""


def conversation_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """All message text of a conversation, case-folded (what a call may be grounded in).

    Args:
        messages: OpenAI messages.

    Returns:
        The contents joined by newlines.
    """
    return "\n".join(_content_text(m) for m in messages).casefold()


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


def _occurs(value: str, text: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole word or number.

    An end of the value that is a Latin letter or a digit must not touch another one ("m" is
    not in "maximum", "1" is not in "15" or "0.1", but "4" is in "4cm"); scripts written
    without spaces (Chinese, Japanese) match anywhere.
    """
    if not value:
        return False
    pattern = _EDGE_BEFORE.get(_edge(value[0]), "")
    pattern += re.escape(value) + _EDGE_AFTER.get(_edge(value[-1]), "")
    return re.search(pattern, text) is not None


def _edge(char: str) -> str:
    if char.isdigit():
        return "digit"
    return "latin" if char.isascii() and char.isalnum() else "other"


_EDGE_BEFORE = {"digit": r"(?<![0-9.])", "latin": r"(?<![A-Za-z0-9])"}
_EDGE_AFTER = {"digit": r"(?![0-9]|\.[0-9])", "latin": r"(?![A-Za-z0-9])"}


def _mentioned(value: str, text: str) -> bool:
    if _occurs(value, text):
        return True
    words = re.findall(r"\w+", value)
    return bool(words) and 2 * sum(_occurs(word, text) for word in words) >= len(words)


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


def rules_out_extra_call(value: Any, previous: Sequence[Mapping[str, Any]], text: str) -> bool:
    """Whether one argument value of a candidate extra call already dooms it.

    A value no earlier call of the answer used and the conversation does not mention makes
    :func:`adds_new_grounded_values` false whatever the rest of the call says, so generation
    can stop at that value.

    Args:
        value: A completed argument value (string, number, boolean or ``None``).
        previous: The arguments of the calls already made in this answer.
        text: :func:`conversation_text` of the conversation.

    Returns:
        True when the call will be discarded.
    """
    spelled = "" if value is None else _spelled(value)
    if not spelled or spelled in {_spelled(v) for call in previous for v in _leaves(call)}:
        return False
    return not _mentioned(spelled, text)


def arguments_of(call: Mapping[str, Any]) -> dict[str, Any]:
    """The decoded arguments of an OpenAI tool call (``{}`` when they are not an object).

    Args:
        call: An OpenAI tool call.

    Returns:
        The arguments.
    """
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
                    arguments = arguments_of({"function": fn})
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
        novel = {_spelled(v) for v in _leaves(arguments_of(call))} - self._values[fn["name"]]
        results = "\n".join(self._results.get(fn["name"], []))
        return bool(results) and all(_mentioned(v, results) for v in novel - {""})
