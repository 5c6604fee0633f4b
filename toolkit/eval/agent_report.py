"""Summaries of an agent evaluation, by kind and in total, as a rich table or plain data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.table import Table

from toolkit.eval.agent_runner import TaskResult

__all__ = ["AgentSummary", "summarize_tasks", "task_table"]


@dataclass(frozen=True)
class AgentSummary:
    """Success and costs of a group of tasks.

    Attributes:
        kind: The tasks' label, or ``all``.
        tasks: Tasks run.
        passed: Tasks whose final answer passed every check.
        leaked: Answers holding a call written as text.
        ungrounded: Answers stating a number no question or result gave.
        mean_model_calls: Model calls per task.
        mean_output_tokens: Generated tokens per task.
        mean_latency_s: Seconds per task.
    """

    kind: str
    tasks: int
    passed: int
    leaked: int
    ungrounded: int
    mean_model_calls: float
    mean_output_tokens: float
    mean_latency_s: float

    @property
    def success_rate(self) -> float:
        """Passed tasks over tasks (0.0 for none)."""
        return self.passed / self.tasks if self.tasks else 0.0


def _summary(kind: str, results: Sequence[TaskResult]) -> AgentSummary:
    count = len(results) or 1
    return AgentSummary(
        kind=kind,
        tasks=len(results),
        passed=sum(r.passed for r in results),
        leaked=sum(r.leaked_call for r in results),
        ungrounded=sum(bool(r.ungrounded) for r in results),
        mean_model_calls=sum(r.model_calls for r in results) / count,
        mean_output_tokens=sum(r.output_tokens for r in results) / count,
        mean_latency_s=sum(r.latency_s for r in results) / count,
    )


def summarize_tasks(results: Sequence[TaskResult]) -> list[AgentSummary]:
    """One summary per kind (in first-seen order), then ``all``.

    Args:
        results: The task results.

    Returns:
        The summaries.
    """
    kinds = list(dict.fromkeys(r.kind or "-" for r in results))
    rows = [_summary(k, [r for r in results if (r.kind or "-") == k]) for k in kinds]
    return [*rows, _summary("all", results)]


def task_table(summaries: Sequence[AgentSummary], *, title: str) -> Table:
    """The summaries as a table.

    Args:
        summaries: From :func:`summarize_tasks`.
        title: The table's title.

    Returns:
        A rich table.
    """
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for name in ("kind", "tasks", "right", "leaked call", "ungrounded", "model calls", "tokens"):
        table.add_column(name, justify="left" if name == "kind" else "right")
    table.add_column("seconds", justify="right")
    for row in summaries:
        table.add_row(
            f"[bold]{row.kind}[/]" if row.kind == "all" else row.kind,
            str(row.tasks),
            f"{row.passed} ({row.success_rate:.0%})",
            str(row.leaked),
            str(row.ungrounded),
            f"{row.mean_model_calls:.1f}",
            f"{row.mean_output_tokens:.0f}",
            f"{row.mean_latency_s:.1f}",
        )
    return table
