"""What answering a chat request produces, event by event. Pure data.

The decoder (:mod:`toolkit.local.decision.decoding`) yields :class:`ContentDelta` and
:class:`ToolCallEvent` as the answer is decided and decoded, then one :class:`Finished`; the
server turns them into one chat completion or into SSE chunks. The tool-call parser
(:mod:`toolkit.local.format.parser`) produces the first two from generated text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ContentDelta", "Event", "Finished", "TokenLogprob", "ToolCallEvent"]


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token's log-probability, and the most likely tokens at its place.

    Attributes:
        token: The token's text (invalid UTF-8, part of a character, replaced by U+FFFD).
        bytes: The token's bytes.
        logprob: Its natural-log probability under the distribution it was drawn from.
        top: The most likely tokens there, ``(text, bytes, logprob)``, most likely first.
    """

    token: str
    bytes: tuple[int, ...]
    logprob: float
    top: tuple[tuple[str, tuple[int, ...], float], ...] = ()


@dataclass(frozen=True)
class ContentDelta:
    """A piece of content that is certainly not part of a call.

    Attributes:
        text: The text to append to the message content.
        logprobs: The tokens generated for this piece, when log-probabilities were asked for.
    """

    text: str
    logprobs: tuple[TokenLogprob, ...] = ()


@dataclass(frozen=True)
class ToolCallEvent:
    """A completed tool call.

    Attributes:
        index: Position of the call among the message's calls (0-based), as in SSE deltas.
        call: The OpenAI-shaped call: ``{"id", "type": "function",
            "function": {"name", "arguments"}}`` with ``arguments`` as JSON text.
    """

    index: int
    call: dict[str, Any]


@dataclass
class Finished:
    """The last event of an answer.

    Attributes:
        finish_reason: ``"tool_calls"``, ``"stop"`` or ``"length"``.
        prompt_tokens: Tokens of the prompt the model read.
        completion_tokens: Tokens generated (all attempts).
        decision: ``"text"``, ``"calls"`` or ``"free"``: how the answer was decoded.
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


Event = ContentDelta | ToolCallEvent | Finished
