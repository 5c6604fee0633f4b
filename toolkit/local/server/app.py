"""The embedded model's OpenAI-compatible HTTP API (FastAPI).

Routes:

* ``POST /v1/chat/completions`` — non-streaming, or SSE with ``stream: true`` (``data: {...}``
  chunks; a call arrives as a ``tool_calls`` delta with ``index``, ``id``, ``type`` and
  ``function.name``, then one with its ``arguments``; a last chunk with ``finish_reason``;
  a usage chunk when ``stream_options.include_usage``; ``data: [DONE]``).
* ``GET /v1/models``, ``GET /health``.
* ``POST /v1/prompt`` — the same body as a chat completion; answers the prompt text the
  model reads (template, tools and the decision nudge applied) and its token count.

Requests are read the way OpenAI clients send them (``content: null`` on assistant messages,
``max_tokens`` or ``max_completion_tokens``, ``tool_choice`` in every form, unknown fields
ignored). Errors use OpenAI's shape ``{"error": {"message", "type", "param", "code"}}`` with a
4xx status naming what to fix. The model serves one request at a time (a lock), generating in
a worker thread so the event loop stays responsive; a streaming client that goes away stops
its generation. With ``Settings.server_api_key`` set every ``/v1`` route needs
``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.errors import ContextWindowError, PromptError
from toolkit.local.decision.decoding import answer
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.format.events import ContentDelta, Finished, ToolCallEvent
from toolkit.local.format.job import ChatJob
from toolkit.local.runtime.engine import Engine
from toolkit.local.runtime.weights import resolve_model_path
from toolkit.local.server.protocol import parse_chat_request

__all__ = ["MAX_BODY_BYTES", "create_app"]

#: Largest request body accepted, in bytes.
MAX_BODY_BYTES = 4 * 1024 * 1024


def _error(
    status: int,
    message: str,
    *,
    kind: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> JSONResponse:
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(body, status_code=status)


class _Service:
    """The loaded engine, its lock, and the settings the routes need."""

    def __init__(self, settings: Settings, engine: Engine, policy: ToolPolicy) -> None:
        self.settings = settings
        self.engine = engine
        self.policy = policy
        self.lock = engine.lock
        self.model_name = _model_name(settings, engine)
        key = settings.server_api_key
        self.api_key = key.get_secret_value().encode() if key is not None else None

    def authorized(self, request: Request) -> bool:
        if self.api_key is None:
            return True
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.strip().encode(), self.api_key
        )

    def run(self, job: ChatJob, cancel: threading.Event, emit: Callable[[Any], None]) -> None:
        """Answer a job under the lock, passing each event to ``emit`` (worker thread)."""
        with self.lock:
            for event in answer(self.engine, job, self.policy, cancel=cancel):
                emit(event)
                if cancel.is_set():
                    break


def _model_name(settings: Settings, engine: Engine) -> str:
    if settings.local_model_path is not None and settings.model == LOCAL_MODEL_NAME:
        return engine.model_path.stem
    return settings.model


async def _read_body(request: Request) -> bytes | JSONResponse:
    declared = request.headers.get("content-length")
    too_big = _error(
        413,
        f"request body is larger than {MAX_BODY_BYTES:,} bytes; send fewer or shorter messages.",
        code="request_too_large",
    )
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return too_big
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY_BYTES:
            return too_big
    return bytes(body)


async def _job_from(request: Request) -> tuple[ChatJob, dict[str, Any]] | JSONResponse:
    body = await _read_body(request)
    if isinstance(body, JSONResponse):
        return body
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        return _error(400, f"the request body is not valid JSON: {exc}.", code="invalid_json")
    try:
        return parse_chat_request(payload)
    except PromptError as exc:
        return _error(400, str(exc), param=getattr(exc, "param", None))


def _chunk(base: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return "data: " + json.dumps({**base, "choices": [choice]}, ensure_ascii=False) + "\n\n"


def _usage(finished: Finished) -> dict[str, int]:
    total = finished.prompt_tokens + finished.completion_tokens
    return {
        "prompt_tokens": finished.prompt_tokens,
        "completion_tokens": finished.completion_tokens,
        "total_tokens": total,
    }


def _sse(event: Any, base: dict[str, Any]) -> list[str]:
    if isinstance(event, ContentDelta):
        return [_chunk(base, {"content": event.text})]
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


def create_app(
    settings: Settings | None = None,
    *,
    engine: Engine | None = None,
    policy: ToolPolicy | None = None,
) -> FastAPI:
    """Build the server application, loading the model unless an engine is given.

    Args:
        settings: Resolved settings; default :func:`toolkit.config.load_settings`.
        engine: An already loaded model to serve (it is then shared, not closed).
        policy: The tool-versus-text decision settings; default :class:`ToolPolicy()`.

    Returns:
        The FastAPI application.

    Raises:
        LocalModelError: The model cannot be located or loaded.
    """
    settings = settings or load_settings()
    if engine is None:
        engine = Engine.from_settings(settings, resolve_model_path(settings))
    service = _Service(settings, engine, policy or ToolPolicy())
    app = FastAPI(title="toolkit embedded model", docs_url=None, redoc_url=None)
    app.state.service = service

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, f"{exc.detail}: {request.method} {request.url.path}")

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"the server failed: {type(exc).__name__}: {exc}", kind="server_error")

    @app.middleware("http")
    async def _auth(request: Request, call_next: Callable) -> Any:
        if request.url.path.startswith("/v1") and not service.authorized(request):
            return _error(
                401,
                "missing or wrong API key: send 'Authorization: Bearer <key>' with the key set "
                "in TOOLKIT_SERVER_API_KEY.",
                kind="authentication_error",
                code="invalid_api_key",
            )
        return await call_next(request)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok", "model": service.model_name}

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        entry = {"id": service.model_name, "object": "model", "created": 0, "owned_by": "toolkit"}
        return {"object": "list", "data": [entry]}

    @app.post("/v1/prompt")
    async def prompt(request: Request) -> Any:
        parsed = await _job_from(request)
        if isinstance(parsed, JSONResponse):
            return parsed
        job, _ = parsed
        try:
            text = build_prompt(job, service.policy, engine.chat_template)
        except PromptError as exc:
            return _error(400, str(exc))
        with service.lock:
            count = engine.count_tokens(text)
        return {"model": service.model_name, "prompt": text, "prompt_tokens": count}

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Any:
        parsed = await _job_from(request)
        if isinstance(parsed, JSONResponse):
            return parsed
        job, extras = parsed
        base = {
            "id": "chatcmpl-" + uuid.uuid4().hex,
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": service.model_name,
            "system_fingerprint": "toolkit-local",
        }
        events, first = _start(service, job)
        head = await first
        if isinstance(head, BaseException):
            return _failure(head)
        if extras["stream"]:
            stream = _stream(head, events, base, extras["include_usage"])
            return StreamingResponse(stream, media_type="text/event-stream")
        return await _collect(head, events, base)

    return app


class _Events:
    """Events produced by a worker thread, consumed by the event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.cancel = threading.Event()

    def put(self, item: Any) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    async def get(self) -> Any:
        return await self.queue.get()


_END = object()


def _start(service: _Service, job: ChatJob) -> tuple[_Events, asyncio.Future]:
    events = _Events()

    def work() -> None:
        try:
            service.run(job, events.cancel, events.put)
        except BaseException as exc:  # handed to the event loop, which answers with an error
            events.put(exc)
        finally:
            events.put(_END)

    events.loop.run_in_executor(None, work)
    return events, asyncio.ensure_future(events.get())


def _failure(exc: BaseException) -> JSONResponse:
    if isinstance(exc, PromptError):
        return _error(400, str(exc))
    if isinstance(exc, ContextWindowError):
        return _error(400, str(exc), param="messages", code="context_length_exceeded")
    return _error(500, f"the model failed: {type(exc).__name__}: {exc}", kind="server_error")


async def _collect(head: Any, events: _Events, base: dict[str, Any]) -> JSONResponse:
    content: list[str] = []
    calls: list[dict[str, Any]] = []
    finished: Finished | None = None
    item = head
    while item is not _END:
        if isinstance(item, BaseException):
            return _failure(item)
        if isinstance(item, ContentDelta):
            content.append(item.text)
        elif isinstance(item, ToolCallEvent):
            calls.append(item.call)
        elif isinstance(item, Finished):
            finished = item
        item = await events.get()
    if finished is None:
        return _error(500, "the model stopped without finishing.", kind="server_error")
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content).strip() or None}
    if calls:
        message["tool_calls"] = calls
    choice = {
        "index": 0,
        "message": message,
        "logprobs": None,
        "finish_reason": finished.finish_reason,
    }
    body = {**base, "object": "chat.completion", "choices": [choice], "usage": _usage(finished)}
    return JSONResponse(body)


async def _stream(
    head: Any, events: _Events, base: dict[str, Any], include_usage: bool
) -> AsyncIterator[str]:
    item = head
    try:
        yield _chunk(base, {"role": "assistant", "content": ""})
        while item is not _END:
            if isinstance(item, BaseException):
                failure = json.loads(_failure(item).body)
                yield "data: " + json.dumps(failure, ensure_ascii=False) + "\n\n"
            elif isinstance(item, Finished):
                yield _chunk(base, {}, item.finish_reason)
                if include_usage:
                    usage = {**base, "choices": [], "usage": _usage(item)}
                    yield "data: " + json.dumps(usage) + "\n\n"
            else:
                for line in _sse(item, base):
                    yield line
            item = await events.get()
        yield "data: [DONE]\n\n"
    finally:
        events.cancel.set()
