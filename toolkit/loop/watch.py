"""A run with time limits on one worker thread, its tool calls inline, kept to time by the caller.

A tool call that may time out cannot run on the thread that must give up on it. Handing each
call to a worker thread does that, but on a machine with idle cores every hand-off wakes a cold
core for a call of a few hundred microseconds, which can double the cost of a fast tool. So
:meth:`ToolLoop.run` turns it around: the whole run moves to one worker thread once (the
*carrier*), which calls the model and runs each single tool call inline, warm, while the caller's
thread waits and keeps the time. The carrier tells the caller nothing per call; the caller wakes
only when the call in flight can have run out of time (every ``tool_timeout`` seconds at most,
sooner only when the run's deadline comes first), or, with ``on_message``, to pass each new
message on (on the caller's thread, in order).

When a call outlives its limit the caller takes over: it answers the call with the timeout
message, hands the run to a fresh carrier and goes on waiting. The abandoned carrier finishes
the tool in the background and, finding the run no longer its own, drops the result. Each
carrier holds a token; whoever changes the run checks the token under one lock, so exactly one
thread advances the run at a time and no message is lost or doubled.

Several calls in one assistant message still run side by side on worker threads
(:func:`toolkit.loop.execution.execute_tool_calls`), the carrier waiting for them with their
limits; :meth:`ToolLoop.steps`, a generator on the caller's thread, hands each timed call to a
worker as before.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage

from toolkit.loop.answers import InlineCall, inline_call
from toolkit.loop.execution import execute_tool_calls
from toolkit.loop.flow import Bound, CallModel, RunCalls, close_trace, open_trace, run_steps
from toolkit.loop.record import RunRecord
from toolkit.loop.result import LoopResult
from toolkit.loop.workers import WORKERS

__all__ = ["WatchedRun"]

_LOOK = object()  # tells the caller to look at the clock now (a call is due before it would wake)


@dataclass(frozen=True)
class _End:
    """The carrier's last word: the run ended, normally or with an exception to re-raise."""

    error: BaseException | None = None


class WatchedRun:
    """One run carried on worker threads and kept to time by the thread that calls :meth:`result`.

    Args:
        run: The run's record.
        bound: What the run calls.
        on_message: Called on the caller's thread with every new message, in order.
    """

    def __init__(
        self,
        run: RunRecord,
        bound: Bound,
        on_message: Callable[[BaseMessage], None] | None = None,
    ) -> None:
        self._run, self._bound, self._on_message = run, bound, on_message
        self._steps = run_steps(run, bound)
        self._lock = threading.Lock()
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._token = 0  # the carrier that owns the run; a new one after every take-over
        self._watched: InlineCall | None = None  # the inline call in flight
        self._backlog: list[dict[str, Any]] = []  # calls of the current message not yet answered
        self._wake_at: float | None = None  # when the caller looks next (None: when told)
        self._ended = False
        self._tracer, self._child = open_trace(run)
        self._options = run.tool_options(self._child)  # the same for every call of the run
        self._parallel = self._options.pop("parallel")

    def result(self) -> LoopResult:
        """Carry the run out and wait for it, giving up on any call that outlives its limit.

        Returns:
            The result of the run.

        Raises:
            BaseException: Whatever ended the run abnormally (an exception the model or a tool
                let through), re-raised here; an interrupt here, or an exception from
                ``on_message``, ends the run (its trace with the error) and stops the carrier
                at its next step. ``on_message`` runs behind the carrier: a run that has already
                ended by then keeps the end it had.
        """
        self._next_wait()
        self._carry_on()
        try:
            while True:
                try:
                    item = self._inbox.get(timeout=self._next_wait())
                except queue.Empty:
                    item = _LOOK
                if item is _LOOK:
                    self._take_over_if_due()
                elif isinstance(item, _End):
                    break
                elif self._on_message is not None:
                    self._on_message(item)
        except BaseException as exc:  # an interrupt, or on_message raised: the run ends here
            self._end(None, exc)
            raise
        if item.error is not None:
            raise item.error
        return self._run.result()

    # -- the caller's side ------------------------------------------------------------------

    def _next_wait(self) -> float | None:
        """Seconds until the caller must look at the clock (``None``: until told)."""
        with self._lock:
            now = time.monotonic()
            if self._watched is not None:
                wake_at = self._watched.due
            else:  # no call in flight: one that starts now is due no sooner than this
                timeout, deadline = self._run.settings.tool_timeout, self._run.deadline
                own = None if timeout is None else now + timeout
                ends = [t for t in (own, deadline) if t is not None]
                wake_at = min(ends) if ends else None
            self._wake_at = wake_at
            return None if wake_at is None else max(wake_at - now, 0.0)

    def _take_over_if_due(self) -> None:
        with self._lock:
            call = self._watched
            if call is None or call.due is None or time.monotonic() < call.due:
                return
            self._token += 1  # the stuck carrier's result will be dropped
            self._watched = None
            self._backlog.pop(0)
            self._emit(self._run.record(call.give_up()))
        self._carry_on()

    def _carry_on(self) -> None:
        WORKERS.submit(partial(self._carry, self._token))

    # -- the carrier's side -----------------------------------------------------------------

    def _owns(self, token: int) -> bool:
        with self._lock:
            return token == self._token

    def _end(self, token: int | None, error: BaseException | None = None) -> bool:
        """End the run, once: by the carrier holding ``token``, or by the caller (``None``).

        Returns:
            False when the run was not this carrier's to end, or has ended already.
        """
        with self._lock:
            if self._ended or (token is not None and token != self._token):
                return False
            self._ended = True
            self._token += 1  # any carrier stops at its next step
        close_trace(self._tracer, self._run, error)
        return True

    def _emit(self, message: BaseMessage) -> None:
        if self._on_message is not None:
            self._inbox.put(message)

    def _carry(self, token: int) -> None:
        """Advance the run until it ends, or until it is no longer this carrier's."""
        try:
            while self._owns(token):
                if self._backlog:
                    self._answer_next(token)
                    continue
                step = next(self._steps, None)
                if step is None:
                    if self._end(token):
                        self._inbox.put(_End())
                    return
                self._do(step, token)
        except BaseException as exc:  # re-raised on the caller's thread, if still its run
            if self._end(token, exc):
                self._inbox.put(_End(exc))

    def _do(self, step: BaseMessage | CallModel | RunCalls, token: int) -> None:
        run = self._run
        if isinstance(step, CallModel):
            try:
                step.reply = step.model.invoke(run.transcript, self._child)
            except Exception as exc:
                step.reply = exc
        elif isinstance(step, RunCalls):
            if self._parallel and len(step.calls) > 1:  # side by side, on workers
                calls = execute_tool_calls(step.calls, self._bound.tools, **self._options)
                for message in calls:
                    if not self._owns(token):
                        return
                    self._emit(run.record(message))
            else:
                self._backlog = list(step.calls)
        else:
            self._emit(step)

    def _answer_next(self, token: int) -> None:
        call = inline_call(self._backlog[0], self._bound.tools, **self._options)
        with self._lock:
            if token != self._token:
                return
            self._watched = call
            early = call.due is not None and (self._wake_at is None or call.due < self._wake_at)
        if early:  # due before the caller would look: tell it
            self._inbox.put(_LOOK)
        answer: ToolMessage = call.run()
        with self._lock:
            if token != self._token:  # given up on while it ran: the answer is dropped
                return
            self._watched = None
            self._backlog.pop(0)
            message = self._run.record(answer)
        self._emit(message)
