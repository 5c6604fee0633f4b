"""One chat request as the embedded model takes it: plain, validated data. Pure.

:class:`ChatJob` is what the HTTP layer (:mod:`toolkit.local.server.protocol`) makes of a
chat-completions body and what the decision layer (:mod:`toolkit.local.decision`) answers;
:class:`SamplingOptions` is how tokens are picked, read by the runtime's engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ChatJob", "SamplingOptions"]


@dataclass(frozen=True)
class SamplingOptions:
    """How to pick tokens.

    Attributes:
        max_tokens: Most tokens to generate (capped by the context window).
        temperature: 0 for greedy decoding; above 0 samples with this temperature.
        top_p: Nucleus sampling mass (only when sampling).
        seed: Seed of the sampler, for reproducible sampling.
        stop: Strings that end the generation; they are not part of the text.
        top_logprobs: Record each generated token's log-probability and this many most
            likely alternatives (0-20); ``None`` records none.
    """

    max_tokens: int = 512
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None
    stop: tuple[str, ...] = ()
    top_logprobs: int | None = None


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
        text_schema: The JSON schema a text answer must be valid against (OpenAI's
            ``response_format``; :data:`~toolkit.local.format.structured.ANY_OBJECT` for
            ``json_object``), or ``None`` for free text. Calls are not affected.
    """

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str = "auto"
    parallel_tool_calls: bool = True
    options: SamplingOptions = field(default_factory=SamplingOptions)
    constrained: bool = True
    text_schema: Mapping[str, Any] | None = None

    @property
    def tool_names(self) -> list[str]:
        """The names of the offered tools, in order."""
        return [t["function"]["name"] for t in self.tools or []]

    @property
    def schemas(self) -> dict[str, Any]:
        """Each offered tool's ``parameters`` schema, by name."""
        return {t["function"]["name"]: t["function"].get("parameters") for t in self.tools or []}
