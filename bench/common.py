"""What every benchmark shares: the row of the table, the table, and the order of the turns.

Each benchmark's ``measure()`` returns :class:`Result` rows; its ``main()`` and ``python -m
bench`` print them with :func:`print_table`. The contenders of one benchmark take turns in the
order :func:`rotations` gives, so that load from other processes hits all of them alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["RATIO_NOTE", "Result", "print_table", "render_table", "rotations"]

#: Printed under every table.
RATIO_NOTE = (
    "ratio = ours / baseline, both measured in this run; absolute figures depend on the machine "
    "and its load."
)


@dataclass(frozen=True)
class Result:
    """One line of the table.

    Attributes:
        benchmark: The benchmark (script) name.
        measure: What was measured, "ours vs baseline".
        unit: The unit of ``ours`` and ``baseline``.
        ours: The toolkit's absolute figure.
        baseline: The baseline's absolute figure, or ``None`` for an absolute figure alone.
        goal: The goal in words, or ``""`` for information only.
        met: Whether this run met the goal; ``None`` without a goal.
    """

    benchmark: str
    measure: str
    unit: str
    ours: float
    baseline: float | None = None
    goal: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        """Ours over baseline, or ``None`` without a baseline."""
        return self.ours / self.baseline if self.baseline else None

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data, the ratio included.

        Returns:
            The fields plus ``ratio``.
        """
        return {**asdict(self), "ratio": self.ratio}


def rotations(names: Sequence[str], rounds: int) -> Iterator[str]:
    """Every name once a round, each round starting one name further along.

    Args:
        names: The contenders, in their first round's order.
        rounds: How many rounds.

    Yields:
        The names in the order they take their turns.
    """
    for turn in range(rounds):
        shift = turn % len(names)
        yield from [*names[shift:], *names[:shift]]


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2 if abs(value) >= 1 else 3
    return f"{value:.{digits}f}"


def render_table(results: Sequence[Result]) -> str:
    """Format the results as one plain-text table.

    Args:
        results: The results, in order.

    Returns:
        The table, one line per result under a header line.
    """
    header = (
        "benchmark",
        "measure",
        "unit",
        "ours (absolute)",
        "baseline (absolute)",
        "ratio",
        "goal",
        "met?",
    )
    lines = [
        (
            r.benchmark,
            r.measure if r.baseline is not None else f"{r.measure} (absolute only)",
            r.unit,
            _number(r.ours),
            _number(r.baseline),
            f"{r.ratio:.2f}x" if r.ratio is not None else "-",
            r.goal or "-",
            "-" if r.met is None else "yes" if r.met else "NO",
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    right = {3, 4, 5}
    return "\n".join(
        "  ".join(
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in [header, *lines]
    )


def print_table(results: Sequence[Result], *notes: str) -> None:
    """Print the table, how to read its ratios, and any notes, one a line.

    Args:
        results: The results, in order.
        *notes: Lines to print after the table.
    """
    print(render_table(results))
    print(RATIO_NOTE)
    for note in notes:
        print(note)
