"""Decoder events -> chat-completion bodies: one JSON completion, or SSE chunks.

The decoder (:func:`toolkit.local.decision.decoding.answer`) runs in a worker thread and hands
its events to the event loop (:func:`start`); :func:`collect` gathers them into one
:class:`~toolkit.local.server.schemas.ChatCompletion`, :func:`stream` writes one
:class:`~toolkit.local.server.schemas.ChatCompletionChunk` per SSE ``data:`` line as they come.
Every body is validated against its model before it is sent.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from fastapi.responses import JSONResponse

from toolkit.errors import ContextWindowError, PromptError
from toolkit.local.format.events import ContentDelta, Finished, TokenLogprob, ToolCallEvent
from toolkit.local.server.schemas import ChatCompletion, ChatCompletionChunk, ErrorBody, to_json

__all__ = ["END", "Events", "collect", "error_response", "failure", "start", "stream"]

#: Put after the last event.
END = object()


def error_response(
    status: int,
    message: str,
    *,
    kind: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> JSONResponse:
    """An error in OpenAI's shape ``{"error": {"message", "type", "param", "code"}}``.

    Args:
        status: The HTTP status.
        message: What went wrong and what to do.
        kind: OpenAI's error ``type``.
        param: The request field at fault, if any.
        code: A machine-readable code, if any.

    Returns:
        The response.
    """
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(to_json(ErrorBody, body), status_code=status)


def failure(exc: BaseException) -> JSONResponse:
    """The error response for an exception raised while answering.

    Args:
        exc: The exception.

    Returns:
        400 for a request that cannot be answered as sent, 500 otherwise.
    """
    if isinstance(exc, PromptError):
        return error_response(400, str(exc), param=getattr(exc, "param", None))
    if isinstance(exc, ContextWindowError):
        return error_response(400, str(exc), param="messages", code="context_length_exceeded")
    message = f"the model failed: {type(exc).__name__}: {exc}"
    return error_response(500, message, kind="server_error")


class Events:
    """Events produced by a worker thread, consumed by the event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.cancel = threading.Event()

    def put(self, item: Any) -> None:
        """Hand an item to the event loop (from any thread)."""
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    async def get(self) -> Any:
        """The next item: an event, an exception, or :data:`END`."""
        return await self.queue.get()


def start(
    run: Callable[[threading.Event, Callable[[Any], None]], None],
) -> tuple[Events, asyncio.Future]:
    """Run ``run(cancel, emit)`` in a worker thread; its events arrive on the returned queue.

    Args:
        run: Answers the request, passing each event to ``emit`` and stopping when ``cancel``
            is set.

    Returns:
        The queue, and a future of its first item.
    """
    events = Events()

    def work() -> None:
        try:
            run(events.cancel, events.put)
        except BaseException as exc:  # handed to the event loop, which answers with an error
            events.put(exc)
        finally:
            events.put(END)

    events.loop.run_in_executor(None, work)
    return events, asyncio.ensure_future(events.get())


def _logprobs(entries: Iterable[TokenLogprob]) -> dict[str, Any]:
    def top(token: str, data: tuple[int, ...], value: float) -> dict[str, Any]:
        return {"token": token, "logprob": value, "bytes": list(data)}

    content = [
        {**top(e.token, e.bytes, e.logprob), "top_logprobs": [top(*t) for t in e.top]}
        for e in entries
    ]
    return {"content": content}


def _usage(finished: Finished) -> dict[str, int]:
    total = finished.prompt_tokens + finished.completion_tokens
    return {
        "prompt_tokens": finished.prompt_tokens,
        "completion_tokens": finished.completion_tokens,
        "total_tokens": total,
    }


async def collect(
    head: Any, events: Events, base: dict[str, Any], logprobs: bool, headers: dict[str, str]
) -> JSONResponse:
    """Gather an answer's events into one chat completion.

    Args:
        head: The first item.
        events: The queue of the rest.
        base: ``id``, ``created``, ``model``, ``system_fingerprint``.
        logprobs: Whether the request asked for log-probabilities.
        headers: Extra response headers.

    Returns:
        The completion, or an error response.
    """
    content: list[str] = []
    scores: list[TokenLogprob] = []
    calls: list[dict[str, Any]] = []
    finished: Finished | None = None
    item = head
    while item is not END:
        if isinstance(item, BaseException):
            return failure(item)
        if isinstance(item, ContentDelta):
            content.append(item.text)
            scores.extend(item.logprobs)
        elif isinstance(item, ToolCallEvent):
            calls.append({"index": item.index, **item.call})
        elif isinstance(item, Finished):
            finished = item
        item = await events.get()
    if finished is None:
        return error_response(500, "the model stopped without finishing.", kind="server_error")
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content).strip() or None}
    if calls:
        message["tool_calls"] = calls
    choice = {
        "index": 0,
        "message": message,
        "logprobs": _logprobs(scores) if logprobs else None,
        "finish_reason": finished.finish_reason,
    }
    body = {**base, "object": "chat.completion", "choices": [choice], "usage": _usage(finished)}
    return JSONResponse(to_json(ChatCompletion, body), headers=headers)


def _line(data: dict[str, Any]) -> str:
    return "data: " + json.dumps(data, ensure_ascii=False) + "\n\n"


def _chunk(
    base: dict[str, Any],
    delta: dict[str, Any],
    finish: str | None = None,
    logprobs: dict[str, Any] | None = None,
) -> str:
    choice = {"index": 0, "delta": delta, "logprobs": logprobs, "finish_reason": finish}
    body = {**base, "object": "chat.completion.chunk", "choices": [choice]}
    return _line(to_json(ChatCompletionChunk, body))


def _sse(event: Any, base: dict[str, Any], logprobs: bool) -> list[str]:
    if isinstance(event, ContentDelta):
        scores = _logprobs(event.logprobs) if logprobs else None
        return [_chunk(base, {"content": event.text}, logprobs=scores)]
    if isinstance(event, ToolCallEvent):
        fn = event.call["function"]
        head = {
            "index": event.index,
            "id": event.call["id"],
            "type": "function",
            "function": {"name": fn["name"], "arguments": ""},
        }
        rest = {"index": event.index, "function": {"arguments": fn["arguments"]}}
        return [_chunk(base, {"tool_calls": [head]}), _chunk(base, {"tool_calls": [rest]})]
    return []


async def stream(
    head: Any, events: Events, base: dict[str, Any], extras: dict[str, Any]
) -> AsyncIterator[str]:
    """An answer's events as SSE lines, ending with ``data: [DONE]``.

    A call arrives as a ``tool_calls`` delta with ``index``, ``id``, ``type`` and
    ``function.name``, then one with its ``arguments``; then a chunk with the
    ``finish_reason``, a usage chunk when ``include_usage`` was asked for, and ``[DONE]``. An
    error after the first chunk is sent as an :class:`ErrorBody` line. Leaving early (the
    client went away) stops the generation.

    Args:
        head: The first item.
        events: The queue of the rest.
        base: ``id``, ``created``, ``model``, ``system_fingerprint``.
        extras: The transport options (``include_usage``, ``logprobs``).

    Yields:
        SSE lines.
    """
    item = head
    try:
        yield _chunk(base, {"role": "assistant", "content": ""})
        while item is not END:
            if isinstance(item, BaseException):
                yield _line(json.loads(failure(item).body))
            elif isinstance(item, Finished):
                yield _chunk(base, {}, item.finish_reason)
                if extras["include_usage"]:
                    usage = {**base, "object": "chat.completion.chunk", "choices": []}
                    yield _line(to_json(ChatCompletionChunk, {**usage, "usage": _usage(item)}))
            else:
                for line in _sse(item, base, extras["logprobs"]):
                    yield line
            item = await events.get()
        yield "data: [DONE]\n\n"
    finally:
        events.cancel.set()
