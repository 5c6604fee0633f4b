"""A scripted OpenAI-compatible HTTP server on loopback, for tests that need exact replies.

:class:`ScriptedServer` is a real HTTP server (standard library, one thread) on ``127.0.0.1`` and
a free port. Every ``POST /v1/chat/completions`` takes the next item of its script, which can be a
chat-completion body, an HTTP error, bytes that are not JSON, server-sent-event chunks, a delay,
or a connection closed without any reply. Every request is recorded (method, path, headers, body),
so a test can assert exactly what a client sent. ``GET /v1/models`` answers without using the
script; anything else is a 404.

Example::

    with ScriptedServer([completion("hi"), Reply.error(503, "overloaded")]) as server:
        client = LLM(base_url=server.base_url)
        ...
        assert server.requests[0].json["messages"][0]["content"] == "hello"
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toolkit.testing._bodies import SCRIPTED_MODEL, completion, completion_chunks, tool_call

__all__ = [
    "RecordedRequest",
    "Reply",
    "ScriptItem",
    "ScriptedServer",
    "completion",
    "completion_chunks",
    "tool_call",
]


@dataclass(frozen=True)
class Reply:
    """One scripted answer; build it with the class methods.

    Attributes:
        status: The HTTP status code.
        body: The response body, sent as is.
        content_type: The ``Content-Type`` header.
        headers: Extra response headers, e.g. ``{"Retry-After": "1"}``.
        delay: Seconds to wait before answering (to run past a client's timeout).
        chunks: For a streamed reply, the pieces written one by one; ``None`` otherwise.
        disconnect: Close the connection without sending anything.
    """

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    chunks: tuple[bytes, ...] | None = None
    disconnect: bool = False

    @classmethod
    def json(cls, body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Reply:
        """A JSON reply.

        Args:
            body: Any JSON-serialisable value, usually from :func:`completion`.
            status: The HTTP status code.
            headers: Extra response headers.

        Returns:
            The reply.
        """
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        return cls(status=status, body=data, headers=dict(headers or {}))

    @classmethod
    def error(
        cls,
        status: int,
        message: str,
        error_type: str = "server_error",
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """An error in the OpenAI shape ``{"error": {"message", "type", "param", "code"}}``.

        Args:
            status: The HTTP status code, e.g. 429, 500 or 503.
            message: The provider's error message.
            error_type: The error ``type`` field.
            code: The error ``code`` field.
            headers: Extra response headers, e.g. ``{"Retry-After": "0"}``.

        Returns:
            The reply.
        """
        error = {"message": message, "type": error_type, "param": None, "code": code}
        return cls.json({"error": error}, status=status, headers=headers)

    @classmethod
    def raw(
        cls, data: bytes | str, status: int = 200, content_type: str = "application/json"
    ) -> Reply:
        """A reply whose body is sent byte for byte (e.g. something that is not JSON).

        Args:
            data: The body; text is encoded as UTF-8.
            status: The HTTP status code.
            content_type: The ``Content-Type`` header to claim.

        Returns:
            The reply.
        """
        body = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        return cls(status=status, body=body, content_type=content_type)

    @classmethod
    def sse(cls, chunks: Iterable[Mapping[str, Any] | str | bytes], done: bool = True) -> Reply:
        """A streamed reply of server-sent events.

        Args:
            chunks: Each chunk dict is sent as ``data: <json>`` plus a blank line; text and bytes
                are sent verbatim (include the newlines yourself), for malformed streams.
            done: Whether to end with ``data: [DONE]``.

        Returns:
            The reply.
        """
        pieces = [_sse_piece(chunk) for chunk in chunks]
        if done:
            pieces.append(b"data: [DONE]\n\n")
        return cls(content_type="text/event-stream", chunks=tuple(pieces))

    @classmethod
    def drop(cls) -> Reply:
        """Close the connection without any reply (the client sees a protocol error).

        Returns:
            The reply.
        """
        return cls(disconnect=True)

    def after(self, seconds: float) -> Reply:
        """Return this reply, sent only after waiting.

        Args:
            seconds: How long to wait before answering.

        Returns:
            A copy of the reply with the delay set.
        """
        return replace(self, delay=seconds)


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received.

    Attributes:
        method: ``GET`` or ``POST``.
        path: The request path, e.g. ``/v1/chat/completions``.
        headers: The request headers, with lower-case names (left out of the repr, since they
            carry API keys).
        body: The raw request body.
    """

    method: str
    path: str
    headers: dict[str, str] = field(repr=False)
    body: bytes = field(repr=False)

    @property
    def json(self) -> Any:
        """The body parsed as JSON, or ``None`` when it is empty or not JSON."""
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None


#: What a script may hold: a reply, a JSON body (sent with status 200), or a function of the
#: request returning either.
ScriptItem = Reply | Mapping[str, Any] | Callable[[RecordedRequest], "Reply | Mapping[str, Any]"]


def _sse_piece(chunk: Mapping[str, Any] | str | bytes) -> bytes:
    if isinstance(chunk, bytes):
        return chunk
    if isinstance(chunk, str):
        return chunk.encode("utf-8")
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()


class ScriptedServer:
    """A real OpenAI-compatible endpoint on ``127.0.0.1`` that answers from a script.

    Use it as a context manager; ``base_url`` ends in ``/v1``. When the script runs out, further
    chat requests get HTTP 500 with a message saying so.

    Args:
        script: The replies, in order, one per ``POST /v1/chat/completions``.
    """

    def __init__(self, script: Iterable[ScriptItem] = ()) -> None:
        self._script: list[ScriptItem] = list(script)
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self.requests: list[RecordedRequest] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The TCP port the server listens on."""
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been used yet."""
        with self._lock:
            return len(self._script)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The recorded ``POST /v1/chat/completions`` requests, in order."""
        return [r for r in self.requests if r.method == "POST" and r.path == _CHAT_PATH]

    def add(self, *items: ScriptItem) -> None:
        """Append replies to the script.

        Args:
            *items: The replies to append.
        """
        with self._lock:
            self._script.extend(items)

    def start(self) -> ScriptedServer:
        """Start serving in a background thread.

        Returns:
            The server itself.
        """
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.02},
                name="scripted-server",
                daemon=True,
            )
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; replies still waiting out a delay are abandoned."""
        self._closing.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ScriptedServer(base_url={self.base_url!r}, remaining={self.remaining})"

    def _next(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            number = len(self.chat_requests)
            item = self._script.pop(0) if self._script else None
        if item is None:
            return Reply.error(
                500,
                f"ScriptedServer has no scripted reply left for chat request #{number}; "
                "add more replies to the script.",
            )
        if callable(item) and not isinstance(item, Reply):
            item = item(request)
        return item if isinstance(item, Reply) else Reply.json(item)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


_CHAT_PATH = "/v1/chat/completions"
_MODELS = {
    "object": "list",
    "data": [{"id": SCRIPTED_MODEL, "object": "model", "created": 0, "owned_by": "toolkit"}],
}


def _handler_class(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet: tests read the recorded requests instead."""

        def _recorded(self) -> RecordedRequest:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {name.lower(): value for name, value in self.headers.items()}
            return RecordedRequest(self.command, self.path.split("?")[0], headers, body)

        def do_GET(self) -> None:
            request = self._recorded()
            server._record(request)
            if request.path == "/v1/models":
                self._send(Reply.json(_MODELS))
            else:
                self._send(Reply.error(404, f"no route for GET {request.path}", "not_found"))

        def do_POST(self) -> None:
            request = self._recorded()
            if request.path != _CHAT_PATH:
                server._record(request)
                self._send(Reply.error(404, f"no route for POST {request.path}", "not_found"))
                return
            reply = server._next(request)
            if reply.delay and server._closing.wait(reply.delay):
                return
            if reply.disconnect:
                self.close_connection = True
                return
            self._send(reply)

        def _send(self, reply: Reply) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            if reply.chunks is None:
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
                return
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for piece in reply.chunks:
                self.wfile.write(piece)
                self.wfile.flush()

    return Handler
