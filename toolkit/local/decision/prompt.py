"""The prompt the embedded model reads for a request, the decision's sentences included. Pure.

:func:`build_prompt` renders a job's messages and tools with the model's chat template after
:func:`prompt_messages` has added the policy's nudge (for ``tool_choice="auto"``);
:func:`results_nudge` is the sentence that asks for the final answer once the conversation
holds every result it needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit.local.decision.policy import RESULTS_NUDGE, ToolPolicy
from toolkit.local.format.job import ChatJob
from toolkit.local.format.template import render_prompt
from toolkit.wire import content_text

__all__ = ["build_prompt", "prompt_messages", "results_nudge"]

_DEFAULT_SYSTEM = "You are a helpful assistant."


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
        base = content_text(first.get("content")).rstrip()
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
            question = content_text(message.get("content")).strip()
            if question:
                return f"{RESULTS_NUDGE} The question was: {question}"
            break
    return RESULTS_NUDGE
