"""Bounded concurrency for evaluations: at most N items in flight, results in input order."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

__all__ = ["run_bounded"]

Item = TypeVar("Item")
Result = TypeVar("Result")


def run_bounded(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    concurrency: int,
    on_result: Callable[[Result], None] | None = None,
) -> list[Result]:
    """Apply ``work`` to every item with at most ``concurrency`` calls in flight.

    Args:
        work: What to do with one item (it runs in a worker thread).
        items: The items.
        concurrency: Calls in flight at once (at least 1).
        on_result: Called with each result as it arrives (e.g. to advance a progress bar).

    Returns:
        The results, in the order of ``items``.

    Raises:
        Exception: The first exception ``work`` raised; queued items are not started.
    """
    results: dict[int, Result] = {}
    pending = iter(enumerate(items))
    width = max(1, concurrency)
    pool = ThreadPoolExecutor(max_workers=width, thread_name_prefix="eval")
    running: dict[Future[Result], int] = {}
    try:
        for index, item in itertools.islice(pending, width):
            running[pool.submit(work, item)] = index
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                results[index] = future.result()
                if on_result is not None:
                    on_result(results[index])
                following = next(pending, None)
                if following is not None:
                    running[pool.submit(work, following[1])] = following[0]
    finally:
        # On an error or Ctrl-C, do not wait for queued items; calls in flight finish alone.
        pool.shutdown(wait=not running, cancel_futures=True)
    return [results[index] for index in range(len(items))]
