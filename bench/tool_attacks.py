"""How quickly the example tools refuse attacks, next to an ordinary call of the same tool.

For each attack the median time of ``tool.invoke`` (which raises ``ToolException``) is printed
beside the median time of an ordinary call of that tool, measured in the same run, and the ratio
of the two. A refusal should cost about what an ordinary call costs: the bounds are checked
before any work is done. Two attacks are different by design and are marked: the runaway
recursive SQL query is stopped by the time limit (``tools.database.TIME_LIMIT``), so it costs
that limit. Run: ``python bench/tool_attacks.py [repeat]`` (default 15).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from langchain_core.tools import BaseTool, ToolException

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tools
from bench.common import Result, print_table
from tools.database import TIME_LIMIT

__all__ = ["main", "measure", "median_seconds"]

REPEAT = 15

#: (tool, ordinary arguments, {attack name: attack arguments})
CASES: list[tuple[BaseTool, dict, dict[str, dict]]] = [
    (
        tools.calculate,
        {"expression": "(6 + 5) * 2"},
        {
            "9**9**9": {"expression": "9**9**9"},
            "2**10**10": {"expression": "2**10**10"},
            "deep nesting": {"expression": "(1+" * 90 + "1" + ")" * 90},
            "100 kB input": {"expression": "1+" * 50_000 + "1"},
            "__import__('os')": {"expression": "__import__('os')"},
            "attribute access": {"expression": "(1).__class__"},
        },
    ),
    (
        tools.read_file,
        {"path": "notes/todo.txt"},
        {
            "../": {"path": "../../../etc/passwd"},
            "absolute": {"path": "/etc/passwd"},
            "..%2f": {"path": "..%2f..%2fetc/passwd"},
            "NUL byte": {"path": "notes/todo.txt\x00.png"},
        },
    ),
    (
        tools.query_database,
        {"sql": "SELECT count(*) FROM orders"},
        {
            "INSERT": {"sql": "INSERT INTO products VALUES (99, 'x', 'y', 1)"},
            "DROP": {"sql": "DROP TABLE orders"},
            "ATTACH": {"sql": "ATTACH DATABASE 'evil.db' AS evil"},
            "PRAGMA writable_schema": {"sql": "PRAGMA writable_schema = 1"},
            "two statements": {"sql": "SELECT 1; DROP TABLE orders"},
            "runaway recursion (time limit)": {
                "sql": "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                "SELECT count(*) FROM r"
            },
        },
    ),
]


def median_seconds(tool: BaseTool, arguments: dict, repeat: int = REPEAT) -> float:
    """Median wall time of ``tool.invoke(arguments)``, refused or not.

    Args:
        tool: The tool to call.
        arguments: Its arguments.
        repeat: How many calls to time.

    Returns:
        The median, in seconds.
    """
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            tool.invoke(arguments)
        except ToolException:
            pass
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _symlink_case() -> tuple[BaseTool, dict, dict]:
    folder = Path(tempfile.mkdtemp())
    (folder / "root").mkdir()
    (folder / "root" / "ok.txt").write_text("ok", encoding="utf-8")
    (folder / "secret.txt").write_text("secret", encoding="utf-8")
    (folder / "root" / "out.txt").symlink_to(folder / "secret.txt")
    _, read = tools.make_file_tools(folder / "root")
    return read, {"path": "ok.txt"}, {"symlink out": {"path": "out.txt"}}


def measure(repeat: int = REPEAT) -> list[Result]:
    """Time every attack next to an ordinary call of its tool.

    Args:
        repeat: Calls timed per attack and per ordinary call (3 for the time-limited attack).

    Returns:
        One row per attack: the refused call against an ordinary call, in milliseconds.
    """
    rows = []
    for tool, ordinary, attacks in [*CASES, _symlink_case()]:
        baseline = median_seconds(tool, ordinary, repeat)
        for name, arguments in attacks.items():
            refused = median_seconds(
                tool, arguments, min(3, repeat) if "time limit" in name else repeat
            )
            rows.append(
                Result(
                    "tool_attacks",
                    f"{tool.name} refuses {name} vs ordinary call",
                    "ms",
                    refused * 1e3,
                    baseline * 1e3,
                )
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print one line per attack: refusal time, ordinary time, ratio.

    Args:
        argv: ``[repeat]`` optionally; default 15.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    print_table(
        measure(int(args[0]) if args else REPEAT),
        f"(the runaway query is stopped by TIME_LIMIT = {TIME_LIMIT:g} s, as designed)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
