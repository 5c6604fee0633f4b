"""Per-category summaries of an eval run, as a rich table or a JSON-ready dict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rich import box
from rich.table import Table

from toolkit.eval.runner import CaseResult

__all__ = ["CategorySummary", "report_dict", "summarize", "summary_table"]


@dataclass(frozen=True)
class CategorySummary:
    """Accuracy, schema validity and latency of one category (or ``all``).

    Attributes:
        category: The BFCL category, or ``all`` for the total.
        cases: Cases run.
        passed: Cases whose calls matched the accepted answer.
        calls: Calls the model made.
        valid_calls: Calls whose arguments fit the tool's JSON schema.
        errors: Cases whose request failed.
        mean_latency_s: Mean seconds per model call.
    """

    category: str
    cases: int
    passed: int
    calls: int
    valid_calls: int
    errors: int
    mean_latency_s: float

    @property
    def accuracy(self) -> float:
        """Passed cases over cases (0.0 for no cases)."""
        return self.passed / self.cases if self.cases else 0.0

    @property
    def schema_valid_rate(self) -> float | None:
        """Schema-valid calls over calls; ``None`` when no call was made."""
        return self.valid_calls / self.calls if self.calls else None


def _summary(category: str, results: Sequence[CaseResult]) -> CategorySummary:
    return CategorySummary(
        category=category,
        cases=len(results),
        passed=sum(result.passed for result in results),
        calls=sum(len(result.calls) for result in results),
        valid_calls=sum(result.valid_calls for result in results),
        errors=sum(result.error is not None for result in results),
        mean_latency_s=sum(r.latency_s for r in results) / len(results) if results else 0.0,
    )


def summarize(results: Sequence[CaseResult]) -> list[CategorySummary]:
    """Summarise results per category (in order of first appearance), then ``all``.

    Args:
        results: The results of a run.

    Returns:
        One summary per category, followed by the total when there are several categories.
    """
    by_category: dict[str, list[CaseResult]] = {}
    for result in results:
        by_category.setdefault(result.category, []).append(result)
    rows = [_summary(name, rows) for name, rows in by_category.items()]
    if len(rows) > 1:
        rows.append(_summary("all", results))
    return rows


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def summary_table(summaries: Sequence[CategorySummary], title: str = "BFCL") -> Table:
    """Render summaries as a table: accuracy, schema-valid rate, mean latency per category.

    Args:
        summaries: From :func:`summarize`.
        title: The table's title.

    Returns:
        A rich table.
    """
    errors = any(row.errors for row in summaries)
    table = Table(
        title=title,
        caption="valid: calls whose arguments fit the tool's JSON schema; "
        "latency: mean seconds per model call",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("category", no_wrap=True)
    names = ["cases", "passed", "accuracy", "calls", "valid", "latency"]
    for name in [*names, "errors"] if errors else names:
        table.add_column(name, justify="right", no_wrap=True)
    for row in summaries:
        cells = [
            row.category,
            str(row.cases),
            str(row.passed),
            _percent(row.accuracy),
            str(row.calls),
            _percent(row.schema_valid_rate),
            f"{row.mean_latency_s:.2f}s",
        ]
        if errors:
            cells.append(str(row.errors))
        table.add_row(*cells, style="bold" if row.category == "all" else None)
    return table


def report_dict(results: Sequence[CaseResult], **meta: Any) -> dict[str, Any]:
    """Everything about a run as plain data for ``--json``.

    Args:
        results: The results of a run.
        **meta: Facts about the run to include (model, grammar, ...).

    Returns:
        ``{**meta, "summary": [...], "cases": [...]}``.
    """
    summary = [
        {
            **asdict(row),
            "accuracy": row.accuracy,
            "schema_valid_rate": row.schema_valid_rate,
        }
        for row in summarize(results)
    ]
    return {**meta, "summary": summary, "cases": [asdict(result) for result in results]}
