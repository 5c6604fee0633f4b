"""Run the embedded server in-process: uvicorn in a background thread on a free loopback port.

:class:`EmbeddedServer` owns one server (start, wait for ``/health``, stop). :func:`shared_server`
keeps one per process and configuration, started on first use (a spinner shows while the model
loads on a terminal) and stopped when the process exits.
"""

from __future__ import annotations

import atexit
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

import httpx
import uvicorn
from rich.console import Console

from toolkit.config import Settings
from toolkit.errors import LocalModelError

if TYPE_CHECKING:  # llama.cpp loads only when a server starts
    from toolkit.local.decision.policy import ToolPolicy
    from toolkit.local.runtime.engine import Engine

__all__ = ["EmbeddedServer", "shared_server", "stop_shared_servers"]

_STARTUP_TIMEOUT = 60.0


class EmbeddedServer:
    """The embedded OpenAI-compatible server, running in a background thread.

    Example:
        >>> with EmbeddedServer(load_settings()) as server:  # doctest: +SKIP
        ...     ChatOpenAI(base_url=server.base_url, api_key=server.api_key or "local")

    Args:
        settings: Resolved settings (model file, threads, context, optional server key).
        host: Interface to bind; loopback by default.
        port: Port to bind; 0 picks a free one.
        engine: An already loaded model to serve instead of loading one (it is shared).
        policy: The tool-versus-text decision settings; default ``ToolPolicy()``.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        engine: Engine | None = None,
        policy: ToolPolicy | None = None,
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.policy = policy
        self.host = host
        self._requested_port = port
        self._port: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"EmbeddedServer({self.host}:{self._port or self._requested_port}, {state})"

    @property
    def port(self) -> int:
        """The bound port (only once started)."""
        if self._port is None:
            raise LocalModelError("the embedded server is not started; call start() first.")
        return self._port

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL, e.g. ``http://127.0.0.1:PORT/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def api_key(self) -> str | None:
        """The key clients must send, or ``None`` when the server requires none."""
        key = self.settings.server_api_key
        return key.get_secret_value() if key is not None else None

    @property
    def running(self) -> bool:
        """Whether the server thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = _STARTUP_TIMEOUT) -> EmbeddedServer:
        """Load the model, start serving, and wait until ``/health`` answers.

        Args:
            timeout: Seconds to wait for the server to answer once the model is loaded.

        Returns:
            The server itself, started.

        Raises:
            LocalModelError: The model cannot be loaded, the port cannot be bound, or the
                server did not come up in time.
        """
        if self.running:
            return self
        from toolkit.local.server.app import create_app  # loads FastAPI and llama.cpp

        app = create_app(self.settings, engine=self.engine, policy=self.policy)
        self.engine = app.state.service.engine
        sock = _bind(self.host, self._requested_port)
        self._port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._failure = None
        self._thread = threading.Thread(
            target=self._serve,
            args=(self._server, sock),
            name=f"toolkit-server-{self._port}",
            daemon=True,
        )
        self._thread.start()
        self._wait_until_healthy(timeout)
        return self

    def _serve(self, server: uvicorn.Server, sock: socket.socket) -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # reported to start() through _failure
            self._failure = exc
        finally:
            sock.close()

    def _wait_until_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if not self.running:
                    raise LocalModelError(
                        f"the embedded server stopped while starting: {self._failure!r}"
                    )
                try:
                    if client.get(self.base_url[:-3] + "/health", headers=headers).is_success:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.02)
        self.stop()
        raise LocalModelError(
            f"the embedded server did not answer on {self.base_url} within {timeout:.0f} s."
        )

    def wait(self) -> None:
        """Block until the server stops (Ctrl-C raises ``KeyboardInterrupt`` here)."""
        while self.running and self._thread is not None:
            self._thread.join(0.5)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and wait for the server thread to end.

        Args:
            timeout: Seconds to wait for the thread.
        """
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None
        self._server = None

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise LocalModelError(
            f"cannot listen on {host}:{port}: {exc}; choose another --port."
        ) from exc
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


_SHARED: dict[tuple, EmbeddedServer] = {}
_SHARED_LOCK = threading.Lock()


def _key(settings: Settings) -> tuple:
    secret = settings.server_api_key.get_secret_value() if settings.server_api_key else None
    return (
        settings.local_model_path,
        settings.cache_dir,
        settings.n_ctx,
        settings.n_threads,
        settings.model,
        hash(secret),
    )


def shared_server(settings: Settings) -> EmbeddedServer:
    """Return this process's embedded server for these settings, starting it on first use.

    The first call loads the model (with a spinner on a terminal) and starts the server on a
    free loopback port; later calls return the same running server. Servers stop at exit.

    Args:
        settings: Resolved settings.

    Returns:
        A running :class:`EmbeddedServer`.

    Raises:
        LocalModelError: The model cannot be loaded or the server cannot start.
    """
    key = _key(settings)
    with _SHARED_LOCK:
        server = _SHARED.get(key)
        if server is not None and server.running:
            return server
        server = EmbeddedServer(settings)
        console = Console(file=sys.stderr)
        if console.is_terminal:
            with console.status("loading the embedded model…", spinner="dots"):
                server.start()
        else:
            server.start()
        _SHARED[key] = server
        return server


def stop_shared_servers() -> None:
    """Stop every server started by :func:`shared_server` (also run at interpreter exit)."""
    with _SHARED_LOCK:
        for server in _SHARED.values():
            server.stop()
        _SHARED.clear()


atexit.register(stop_shared_servers)
