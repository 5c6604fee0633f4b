"""Run every benchmark in one process and print one table of ratios measured side by side.

Each benchmark compares the toolkit with a baseline measured in the same run, on the same
machine, at the same time; the table shows both absolute figures (labelled "absolute", with
their unit), their ratio (ours / baseline), the goal where there is one and whether this run
met it. Rows without a baseline are absolute figures only.

Benchmarks (each also runs alone, e.g. ``python bench/cold_start.py``):

* ``loop_overhead``: per-step overhead of ``ToolLoop`` against the seed's loop and LangChain's
  ``create_agent``, and the speed-up of parallel tool calls;
* ``server_vs_llama``: the embedded server against raw llama.cpp, and the seed question end to
  end (loads the embedded model);
* ``cold_start``: ``toolkit run`` as a fresh process, against the bare interpreter, with a
  provider endpoint and with the embedded model;
* ``schema_conversion``: 1,000 tools to OpenAI schemas, the toolkit against LangChain;
* ``tool_attacks``: how quickly the example tools refuse attacks, against an ordinary call.

Run from the repository root: ``python -m bench`` or ``python bench/run.py``, with
``--only NAME[,NAME]``, ``--quick`` (fewer repeats), ``--no-model`` (leave out everything that
loads the embedded model) and ``--json``. Exit status: 0, or 1 when a benchmark failed to run
(the others still run; a goal not met is information, not a failure).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

if __package__ in (None, ""):  # run as ``python bench/run.py``: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

__all__ = ["BENCHMARKS", "Result", "collect", "main", "render_table"]


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


_LOOPS = {"seed": "the seed's loop", "create_agent": "create_agent"}


def _loop_overhead(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    step, fan = module.measure(3 if quick else 15)
    name = "loop_overhead"
    rows = [
        Result(
            name,
            f"per-step overhead: ToolLoop vs {_LOOPS[other]}",
            "ms/step",
            step.toolkit,
            getattr(step, other),
            f"<= {limit:g}x",
            step.toolkit <= limit * getattr(step, other),
        )
        for other, limit in module.STEP_GOALS.items()
    ]
    rows.append(
        Result(
            name,
            "per-step overhead: ToolLoop untimed vs the seed's loop",
            "ms/step",
            step.untimed,
            step.seed,
        )
    )
    rows += [
        Result(
            name,
            f"{module.PARALLEL_CALLS} parallel {module.NAP_SECONDS:g}-s tool calls: "
            f"ToolLoop vs {_LOOPS[other]}",
            "s",
            fan.toolkit,
            getattr(fan, other),
            f"<= {1 / factor:.2f}x ({factor:g}x faster)",
            getattr(fan, other) >= factor * fan.toolkit,
        )
        for other, factor in module.SPEEDUP_GOALS.items()
    ]
    return rows


def _server_vs_llama(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    return [
        Result(
            "server_vs_llama",
            f"server vs raw llama.cpp, {row.name} ({row.tokens} tokens)"
            if row.raw is not None
            else row.name,
            "s",
            row.server,
            row.raw,
            row.goal,
            row.met,
        )
        for row in module.measure(1 if quick else 3)
    ]


def _cold_start(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    rows = module.measure(2 if quick else 5, model=not no_model)
    return [
        Result("cold_start", row.name, "s", row.ours, row.baseline, row.goal, row.met)
        for row in rows
    ]


def _schema_conversion(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    return [
        Result(
            "schema_conversion",
            row.name,
            "ms/1,000 tools",
            row.ours,
            row.baseline,
            row.goal,
            row.met,
        )
        for row in module.measure(1 if quick else 5)
    ]


def _tool_attacks(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    return [
        Result(
            "tool_attacks",
            f"{row.tool} refuses {row.attack} vs ordinary call",
            "ms",
            row.refused * 1e3,
            row.ordinary * 1e3,
        )
        for row in module.measure(3 if quick else module.REPEAT)
    ]


#: Every benchmark in the order it runs: name (a module of ``bench``) -> (what turns its
#: measurements into results, whether it loads the embedded model).
BENCHMARKS: dict[str, tuple[Callable[[ModuleType, bool, bool], list[Result]], bool]] = {
    "loop_overhead": (_loop_overhead, False),
    "server_vs_llama": (_server_vs_llama, True),
    "cold_start": (_cold_start, False),
    "schema_conversion": (_schema_conversion, False),
    "tool_attacks": (_tool_attacks, False),
}


def collect(
    names: Sequence[str], *, quick: bool = False, no_model: bool = False
) -> tuple[list[Result], dict[str, str], list[str]]:
    """Run the named benchmarks one after another, each in this process.

    Args:
        names: Benchmark names, keys of :data:`BENCHMARKS`.
        quick: Fewer repeats (rougher numbers, a shorter run).
        no_model: Leave out everything that loads the embedded model.

    Returns:
        The results, the benchmarks that failed (name -> the error), and those skipped.
    """
    results: list[Result] = []
    errors: dict[str, str] = {}
    skipped: list[str] = []
    for name in names:
        collector, needs_model = BENCHMARKS[name]
        if needs_model and no_model:
            skipped.append(name)
            continue
        print(f"running {name}…", file=sys.stderr, flush=True)
        start = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")  # only what runs is imported
            results += collector(module, quick, no_model)
        except Exception as exc:  # one broken benchmark must not hide the others' numbers
            traceback.print_exc(file=sys.stderr)
            errors[name] = f"{type(exc).__name__}: {exc}"
        print(f"  {name}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return results, errors, skipped


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


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown benchmark {', '.join(unknown) or text!r}; choose from {', '.join(BENCHMARKS)}"
        )
    return names


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the table (or JSON).

    Args:
        argv: Command-line arguments; default ``sys.argv[1:]``.

    Returns:
        0, or 1 when a benchmark failed to run.
    """
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        type=_names,
        default=list(BENCHMARKS),
        metavar="NAME[,NAME]",
        help=f"run only these ({', '.join(BENCHMARKS)})",
    )
    parser.add_argument(
        "--quick", action="store_true", help="fewer repeats: rougher numbers, sooner"
    )
    parser.add_argument(
        "--no-model", action="store_true", help="leave out everything that loads the embedded model"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results, errors, skipped = collect(args.only, quick=args.quick, no_model=args.no_model)
    if args.json:
        report = {
            "quick": args.quick,
            "results": [r.to_dict() for r in results],
            "errors": errors,
            "skipped": skipped,
        }
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(render_table(results))
        print(
            "ratio = ours / baseline, both measured in this run; absolute figures depend on "
            "the machine and its load."
        )
        for name in skipped:
            print(f"skipped {name}: it loads the embedded model (--no-model)")
        for name, error in errors.items():
            print(f"FAILED {name}: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
