"""Long-lived daemon threads that run tool calls which must be able to time out.

A call that may time out cannot run on the caller's thread: the caller must be free to give up
on it. Starting a thread per call costs more than the call of a fast tool, so the threads are
kept and reused (:class:`DaemonWorkers`); :data:`WORKERS` is the one pool the executor uses.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["WORKERS", "DaemonWorkers"]


class DaemonWorkers:
    """Reusable daemon threads: a call runs on an idle one, or on a new one when none is idle.

    Unlike a ``ThreadPoolExecutor`` the threads are daemons, so a tool that never returns cannot
    keep the process alive, and there is no cap: a call never waits for a free thread. Threads
    idle for ``idle_seconds`` exit. Each call runs in a copy of the submitter's context (as
    ``asyncio.to_thread`` does), so LangChain's context variables reach the tool.

    Args:
        idle_seconds: How long an idle thread waits for work before it exits.
    """

    def __init__(self, idle_seconds: float = 60.0) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0
        self._idle_seconds = idle_seconds

    def submit(self, function: Callable[[], Any], gate: threading.Event | None = None) -> Future:
        """Run ``function`` on a worker thread.

        Args:
            function: What to run.
            gate: When given, the call starts only once it is set (to start several together).

        Returns:
            A future for the function's result (or exception).
        """
        future: Future = Future()
        job = (future, contextvars.copy_context(), function, gate)
        with self._lock:
            self._jobs.put(job)
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="toolkit-tool", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            try:
                future, context, function, gate = self._jobs.get(timeout=self._idle_seconds)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._idle -= 1
                        return
                continue
            if gate is not None:
                gate.wait()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(context.run(function))
                except BaseException as exc:  # delivered to the waiting caller, never lost
                    future.set_exception(exc)
            with self._lock:
                self._idle += 1


#: The worker threads timed tool calls and timed runs (:mod:`toolkit.loop.watch`) run on.
WORKERS = DaemonWorkers()
