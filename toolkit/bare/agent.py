"""The seed's ``Agent`` done properly: the loop that grows and yields the history (listing 7.10)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from toolkit.bare.client import LLM
from toolkit.bare.tool import Tool, tool
from toolkit.errors import ToolDefinitionError, UnknownToolError
from toolkit.wire import new_call_id

__all__ = ["Agent", "create_agent"]

_STOP_DETAILS = {
    "stop": "The model answered.",
    "length": "The reply was cut off at the token limit (finish_reason 'length'); raise "
    "max_tokens (LLM(max_tokens=...)) or shorten the conversation.",
    "content_filter": "The provider's content filter stopped the reply (finish_reason "
    "'content_filter'); rephrase the request.",
}


def _assistant_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """Keep what the API accepts back: role, content and the tool calls (each with an id)."""
    cleaned: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    calls = []
    for call in message.get("tool_calls") or ():
        function = dict(call.get("function") or {})
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str):
            function["arguments"] = json.dumps(arguments, ensure_ascii=False)
        call_id = call.get("id") or new_call_id()
        calls.append({"id": call_id, "type": "function", "function": function})
    if calls:
        cleaned["tool_calls"] = calls
    return cleaned


class Agent:
    """A tool-calling loop over an :class:`LLM` that yields the history as it grows.

    After :meth:`run` ends, :attr:`stop_reason` says why (``"stop"``, ``"length"``,
    ``"content_filter"``, ``"max_steps"`` or another ``finish_reason``) and :attr:`stop_detail`
    says it in a sentence, with what to change. The history is kept across runs (multi-turn).

    Args:
        model: The client to ask.
        tools: The tools (``Tool`` objects, or functions that :func:`tool` accepts).
        system_prompt: A system message text or dict; default "You are a helpful assistant".
        max_steps: Most model calls in one run.
        tool_choice: Passed to every request (``"auto"``, ``"none"``, ``"required"`` or a name).
        parallel_tool_calls: Passed to every request.
    """

    def __init__(
        self,
        model: LLM,
        tools: Sequence[Tool | Callable[..., Any]],
        system_prompt: str | Mapping[str, Any] | None = None,
        *,
        max_steps: int = 8,
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> None:
        self.model = model
        self.tools = [t if isinstance(t, Tool) else tool(t) for t in tools]
        self.tools_dict = {t.name: t for t in self.tools}
        if len(self.tools_dict) != len(self.tools):
            names = [t.name for t in self.tools]
            duplicates = sorted({n for n in names if names.count(n) > 1})
            raise ToolDefinitionError(duplicates[0], ["two tools share this name; rename one."])
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.max_steps = max_steps
        self.tool_choice = tool_choice
        self.parallel_tool_calls = parallel_tool_calls
        self.system_prompt = _message(system_prompt or "You are a helpful assistant", "system")
        self.history: list[dict[str, Any]] = [self.system_prompt]
        self.stop_reason: str | None = None
        self.stop_detail: str | None = None

    def invoke_tool(self, call: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one tool call with exactly one ``role: tool`` message.

        Args:
            call: A tool call from an assistant message (with ``id`` and ``function``).

        Returns:
            The tool message; an unknown tool name gets an error message listing the valid ones.
        """
        function = call.get("function") or {}
        name = function.get("name")
        chosen = self.tools_dict.get(name)
        if chosen is None:
            error = UnknownToolError(str(name), list(self.tools_dict))
            return {"role": "tool", "tool_call_id": call["id"], "content": f"Error: {error}"}
        return chosen.invoke(function.get("arguments"), call["id"])

    def run(self, message: str | Mapping[str, Any]) -> Iterator[list[dict[str, Any]]]:
        """Ask one question and run the loop; yield the history after every new message.

        Args:
            message: The user's text, or a ``{"role": "user", "content": ...}`` dict.

        Yields:
            The history (the same list each time, one message longer).

        Raises:
            EndpointError: The model endpoint failed; the history keeps every message so far.
        """
        self.stop_reason = self.stop_detail = None
        self.history.append(_message(message, "user"))
        yield self.history
        for _ in range(self.max_steps):
            choice = self.model.chat_completion(
                self.history, self.tools, self.tool_choice, self.parallel_tool_calls
            )
            reply = _assistant_message(choice["message"])
            reason = choice.get("finish_reason") or (
                "tool_calls" if "tool_calls" in reply else "stop"
            )
            self.history.append(reply)
            yield self.history
            runnable = reason in ("stop", "tool_calls")
            for call in reply.get("tool_calls", ()):
                self.history.append(self.invoke_tool(call) if runnable else _not_run(call, reason))
                yield self.history
            if not runnable or "tool_calls" not in reply:
                self._stop("stop" if runnable else reason)
                return
        self._stop("max_steps")

    def _stop(self, reason: str) -> None:
        self.stop_reason = reason
        if reason == "max_steps":
            self.stop_detail = (
                f"Stopped after {self.max_steps} model calls without a final answer; raise "
                "max_steps (Agent(max_steps=...)) or make the tools' answers more useful."
            )
        else:
            self.stop_detail = _STOP_DETAILS.get(
                reason,
                f"The model stopped with finish_reason {reason!r}, which this agent does not "
                "handle; the run ended there.",
            )


def _not_run(call: Mapping[str, Any], reason: str) -> dict[str, Any]:
    return {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": f"Error: not run, because the reply ended with finish_reason {reason!r} "
        "(its arguments may be incomplete).",
    }


def _message(message: str | Mapping[str, Any], role: str) -> dict[str, Any]:
    if isinstance(message, str):
        return {"role": role, "content": message}
    if isinstance(message, Mapping) and message.get("role") == role and "content" in message:
        return dict(message)
    raise ValueError(
        f"expected the {role} message as text or {{'role': '{role}', 'content': ...}}, "
        f"got {str(message)[:80]!r}"
    )


def create_agent(
    model: LLM,
    tools: Sequence[Tool | Callable[..., Any]],
    system_prompt: str | Mapping[str, Any] | None = None,
) -> Agent:
    """Build an :class:`Agent`, as the seed's ``create_agent`` does.

    Args:
        model: The client to ask.
        tools: The tools the model may call.
        system_prompt: A system message text or dict.

    Returns:
        The agent.
    """
    return Agent(model, tools, system_prompt)
