"""The embedded model's OpenAI-compatible HTTP API (FastAPI).

Routes (request and response bodies are pydantic models, documented in ``/openapi.json``):

* ``POST /v1/chat/completions`` — :class:`~toolkit.local.server.protocol.ChatCompletionRequest`
  in; a :class:`~toolkit.local.server.schemas.ChatCompletion`, or with ``stream: true`` SSE
  ``data:`` lines of :class:`~toolkit.local.server.schemas.ChatCompletionChunk`
  (:mod:`toolkit.local.server.bodies`). A ``json_schema`` response format without ``strict``
  whose schema has keywords the grammar cannot enforce is answered with the header
  ``x-toolkit-unenforced``: a JSON list of those keywords and their paths.
* ``GET /v1/models``, ``GET /health``.
* ``POST /v1/prompt`` — the same body as a chat completion; answers the prompt text the
  model reads (template, tools and the decision nudge applied) and its token count.

Requests are read the way OpenAI clients send them (``content: null`` on assistant messages,
``max_tokens`` or ``max_completion_tokens``, ``tool_choice`` in every form, unknown fields
ignored). Errors use OpenAI's shape ``{"error": {"message", "type", "param", "code"}}`` with a
4xx status naming what to fix, validation errors included (400, not FastAPI's 422). Bodies
over :data:`MAX_BODY_BYTES` are refused with 413 before they are parsed. The model serves one
request at a time (a lock), generating in a worker thread so the event loop stays responsive;
a streaming client that goes away stops its generation. With ``Settings.server_api_key`` set
every ``/v1`` route needs ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import hmac
import json
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.errors import PromptError
from toolkit.local.decision.decoding import answer
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.format.job import ChatJob
from toolkit.local.runtime.engine import Engine
from toolkit.local.runtime.weights import resolve_model_path
from toolkit.local.server.bodies import collect, error_response, failure, start, stream
from toolkit.local.server.protocol import ChatCompletionRequest, describe_errors, job_from_request
from toolkit.local.server.schemas import (
    ChatCompletion,
    ChatCompletionChunk,
    ErrorBody,
    Health,
    ModelList,
    PromptAnswer,
    to_json,
)

__all__ = ["MAX_BODY_BYTES", "create_app"]

#: Largest request body accepted, in bytes.
MAX_BODY_BYTES = 4 * 1024 * 1024
_UNENFORCED = "x-toolkit-unenforced"


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    described = {
        400: "The request is invalid; the message says what to fix and `param` names the field.",
        401: "The server has an API key and the request did not send it.",
        413: f"The body is larger than {MAX_BODY_BYTES:,} bytes.",
        500: "The server or the model failed.",
    }
    return {s: {"model": ErrorBody, "description": described[s]} for s in statuses}


#: One event of a streamed completion: its ``data`` is a chunk (or an error) as JSON text, or
#: the closing ``[DONE]``.
_SSE_EVENT = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "anyOf": [
                {"const": "[DONE]"},
                {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": {
                        "anyOf": [
                            {"$ref": "#/components/schemas/ChatCompletionChunk"},
                            {"$ref": "#/components/schemas/ErrorBody"},
                        ]
                    },
                },
            ]
        }
    },
}
_CHAT_RESPONSES: dict[int | str, dict[str, Any]] = {
    **_errors(400, 401, 413, 500),
    200: {
        "description": "The completion; with `stream: true`, SSE `data:` lines each holding a "
        "ChatCompletionChunk (or an ErrorBody), then `data: [DONE]`.",
        "content": {"text/event-stream": {"schema": _SSE_EVENT}},
        "headers": {
            _UNENFORCED: {
                "description": "With a non-strict json_schema response format: the schema "
                "keywords the grammar did not enforce, as a JSON list.",
                "schema": {"type": "string"},
            }
        },
    },
}


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

    def runner(self, job: ChatJob) -> Callable[[threading.Event, Callable[[Any], None]], None]:
        """What the worker thread runs: answer a job under the lock, emitting each event."""

        def run(cancel: threading.Event, emit: Callable[[Any], None]) -> None:
            with self.lock:
                for event in answer(self.engine, job, self.policy, cancel=cancel):
                    emit(event)
                    if cancel.is_set():
                        break

        return run


def _model_name(settings: Settings, engine: Engine) -> str:
    if settings.local_model_path is not None and settings.model == LOCAL_MODEL_NAME:
        return engine.model_path.stem
    return settings.model


class _BodyLimit:
    """Read each request body up front, refusing with 413 past :data:`MAX_BODY_BYTES`; every
    body is read as JSON whatever its ``Content-Type`` (``curl -d`` sends a form type)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = error_response(
            413,
            f"request body is larger than {MAX_BODY_BYTES:,} bytes; "
            "send fewer or shorter messages.",
            code="request_too_large",
        )
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            await too_big(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body.extend(message.get("body", b""))
            if len(body) > MAX_BODY_BYTES:
                await too_big(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        replayed = False
        headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
        scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


def _document_chunks(app: FastAPI) -> None:
    """Add :class:`ChatCompletionChunk` (the SSE lines) to the OpenAPI components, and drop
    FastAPI's 422 (validation errors are answered with 400 in OpenAI's shape)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes
            )
            chunk = ChatCompletionChunk.model_json_schema(
                ref_template="#/components/schemas/{model}"
            )
            components = spec.setdefault("components", {}).setdefault("schemas", {})
            for operations in spec.get("paths", {}).values():  # validation errors are 400s
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            for name in ("HTTPValidationError", "ValidationError"):
                components.pop(name, None)
            for name, schema in {**chunk.pop("$defs", {}), "ChatCompletionChunk": chunk}.items():
                components.setdefault(name, schema)
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


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
    app = FastAPI(
        title="toolkit embedded model",
        version="1",
        description="OpenAI-compatible chat completions on the embedded model.",
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    _document_chunks(app)
    app.add_middleware(_BodyLimit)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, f"{exc.detail}: {request.method} {request.url.path}")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        param, message = describe_errors(errors)
        code = "invalid_json" if errors[0]["type"] == "json_invalid" else None
        return error_response(400, message, param=param, code=code)

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> JSONResponse:
        message = f"the server failed: {type(exc).__name__}: {exc}"
        return error_response(500, message, kind="server_error")

    @app.middleware("http")
    async def _auth(request: Request, call_next: Callable) -> Any:
        if request.url.path.startswith("/v1") and not service.authorized(request):
            return error_response(
                401,
                "missing or wrong API key: send 'Authorization: Bearer <key>' with the key set "
                "in TOOLKIT_SERVER_API_KEY.",
                kind="authentication_error",
                code="invalid_api_key",
            )
        return await call_next(request)

    @app.get("/health", response_model=Health, responses=_errors(500))
    async def health() -> Any:
        return to_json(Health, {"status": "ok", "model": service.model_name})

    @app.get("/v1/models", response_model=ModelList, responses=_errors(401, 500))
    async def models() -> Any:
        entry = {"id": service.model_name, "object": "model", "created": 0, "owned_by": "toolkit"}
        return to_json(ModelList, {"object": "list", "data": [entry]})

    @app.post("/v1/prompt", response_model=PromptAnswer, responses=_errors(400, 401, 413, 500))
    async def prompt(body: ChatCompletionRequest) -> Any:
        try:
            job, _ = job_from_request(body)
            text = build_prompt(job, service.policy, engine.chat_template)
        except PromptError as exc:
            return error_response(400, str(exc), param=getattr(exc, "param", None))
        with service.lock:
            count = engine.count_tokens(text)
        answer_ = {"model": service.model_name, "prompt": text, "prompt_tokens": count}
        return to_json(PromptAnswer, answer_)

    @app.post("/v1/chat/completions", response_model=ChatCompletion, responses=_CHAT_RESPONSES)
    async def chat_completions(body: ChatCompletionRequest) -> Any:
        try:
            job, extras = job_from_request(body)
        except PromptError as exc:
            return error_response(400, str(exc), param=getattr(exc, "param", None))
        base = {
            "id": "chatcmpl-" + uuid.uuid4().hex,
            "created": int(time.time()),
            "model": service.model_name,
            "system_fingerprint": "toolkit-local",
        }
        headers = {_UNENFORCED: json.dumps(extras["unenforced"])} if extras["unenforced"] else {}
        events, first = start(service.runner(job))
        head = await first
        if isinstance(head, BaseException):
            return failure(head)
        if extras["stream"]:
            lines = stream(head, events, base, extras)
            return StreamingResponse(lines, media_type="text/event-stream", headers=headers)
        return await collect(head, events, base, extras["logprobs"], headers)

    return app
