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
from pathlib import Path
from types import ModuleType

if __package__ in (None, ""):  # run as ``python bench/run.py``: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Result, print_table, render_table

__all__ = ["BENCHMARKS", "Result", "collect", "main", "render_table"]


def _repeats(quick: int) -> Callable[[ModuleType, bool, bool], list[Result]]:
    """Run a benchmark's ``measure`` with ``quick`` repeats under ``--quick``, else its default."""
    return lambda module, fast, no_model: module.measure(quick) if fast else module.measure()


def _cold_start(module: ModuleType, quick: bool, no_model: bool) -> list[Result]:
    return module.measure(2 if quick else 5, model=not no_model)


#: Every benchmark in the order it runs: name (a module of ``bench``) -> (how to run its
#: ``measure`` given ``--quick`` and ``--no-model``, whether it loads the embedded model).
BENCHMARKS: dict[str, tuple[Callable[[ModuleType, bool, bool], list[Result]], bool]] = {
    "loop_overhead": (_repeats(3), False),
    "server_vs_llama": (_repeats(1), True),
    "cold_start": (_cold_start, False),
    "schema_conversion": (_repeats(1), False),
    "tool_attacks": (_repeats(3), False),
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
        print_table(
            results,
            *(f"skipped {name}: it loads the embedded model (--no-model)" for name in skipped),
            *(f"FAILED {name}: {error}" for name, error in errors.items()),
        )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
