"""``toolkit eval bfcl``: tool-calling accuracy on the Berkeley Function Calling Leaderboard."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.errors import ConfigError
from toolkit.eval.bfcl_data import CATEGORIES, DEFAULT_CATEGORIES, category_of, load_cases
from toolkit.eval.report import report_dict, summarize, summary_table
from toolkit.eval.runner import CaseResult, run_cases
from toolkit.models import load_chat_model

__all__ = ["NO_GRAMMAR_BODY", "register"]

#: The request field asking the toolkit's own server for unconstrained decoding.
NO_GRAMMAR_BODY: dict[str, Any] = {"grammar": False}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``eval`` (with its ``bfcl`` sub-command) to the CLI.

    Args:
        subparsers: The top-level sub-parsers.
    """
    parser = subparsers.add_parser("eval", help="measure tool-calling accuracy")
    verbs = parser.add_subparsers(dest="eval_command", metavar="BENCHMARK")
    parser.set_defaults(handler=lambda args: _missing_benchmark(parser))
    bfcl = verbs.add_parser(
        "bfcl",
        help="Berkeley Function Calling Leaderboard (AST categories)",
        description="Run BFCL cases through the configured model (the embedded model by default), "
        "one call per case, and score them with the toolkit's own AST checker. Needs the data: "
        "pip install --no-deps bfcl-eval==2026.3.23",
    )
    bfcl.add_argument(
        "--categories",
        nargs="+",
        metavar="CAT",
        help=f"categories, space or comma separated (default: {' '.join(DEFAULT_CATEGORIES)}; "
        f"all: {' '.join(CATEGORIES)})",
    )
    bfcl.add_argument("--limit", type=int, metavar="N", help="at most N cases per category")
    bfcl.add_argument(
        "--ids", type=Path, metavar="FILE", help="run only the ids in FILE, one a line"
    )
    bfcl.add_argument("--model", help="model name to ask the provider for (TOOLKIT_MODEL)")
    bfcl.add_argument("--base-url", help="an OpenAI-compatible endpoint (OPENAI_BASE_URL)")
    bfcl.add_argument(
        "--local", action="store_true", help="use the embedded model even if a provider is set"
    )
    bfcl.add_argument("--timeout", type=float, metavar="S", help="seconds per model reply")
    bfcl.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help="requests in flight for remote endpoints (the embedded model serves one at a time)",
    )
    bfcl.add_argument(
        "--no-grammar",
        action="store_true",
        help='unconstrained decoding on the embedded model: sends the request field "grammar": '
        "false, an extension only the toolkit's own server understands",
    )
    bfcl.add_argument("--json", action="store_true", help="print every result as JSON")
    bfcl.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write each case's result to FILE as one JSON line as soon as it is scored",
    )
    bfcl.add_argument(
        "--show-failures", action="store_true", help="list each failed case with the reason"
    )
    bfcl.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    bfcl.set_defaults(handler=_run_bfcl)


def _missing_benchmark(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _read_ids(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read --ids file {path}: {exc.strerror}.") from None
    ids = [line.strip() for line in text.splitlines()]
    ids = [line for line in ids if line and not line.startswith("#")]
    if not ids:
        raise ConfigError(f"--ids file {path} lists no ids; put one BFCL id on each line.")
    return ids


def _open_save(path: Path) -> TextIO:
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write --save file {path}: {exc.strerror}.") from None


def _categories(named: Sequence[str] | None, ids: Sequence[str] | None) -> list[str]:
    if named:
        chosen = [part for item in named for part in item.split(",") if part]
        return list(CATEGORIES) if chosen == ["all"] else list(dict.fromkeys(chosen))
    if ids:
        found = {category_of(case_id) for case_id in ids}
        return [name for name in CATEGORIES if name in found]
    return list(DEFAULT_CATEGORIES)


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings()
    changes: dict[str, Any] = {}
    if args.local:
        changes.update(provider="local", base_url=None, api_key=None, model=LOCAL_MODEL_NAME)
    elif args.base_url:
        changes.update(base_url=args.base_url.rstrip("/"))
        if settings.is_local:
            changes.update(provider="custom", model="default")
    if args.model:
        changes["model"] = args.model
    if args.timeout is not None:
        if args.timeout <= 0:
            raise ConfigError(f"--timeout {args.timeout} must be above 0.")
        changes["timeout"] = args.timeout
    return settings.with_overrides(**changes) if changes else settings


def _failures(results: Sequence[CaseResult]) -> Table:
    table = Table(title="failed cases", show_lines=False)
    for name in ("id", "reason", "calls (or reply)"):
        table.add_column(name, overflow="fold")
    for result in results:
        if not result.passed:
            calls = "; ".join(
                f"{call['name']}({json.dumps(call['arguments'], ensure_ascii=False)})"
                for call in result.calls
            )
            table.add_row(result.id, result.reason, calls or repr(result.content[:120]))
    return table


def _run_bfcl(args: argparse.Namespace) -> int:
    if args.concurrency < 1:
        raise ConfigError(f"--concurrency {args.concurrency} must be at least 1.")
    ids = _read_ids(args.ids) if args.ids else None
    categories = _categories(args.categories, ids)
    cases = load_cases(categories, limit=args.limit, ids=ids, data_dir=args.data_dir)
    settings = _settings(args)
    err = Console(stderr=True, highlight=False)
    concurrency = args.concurrency
    if settings.is_local and concurrency > 1:
        err.print("note: the embedded model serves one request at a time; --concurrency is 1.")
        concurrency = 1
    model_kwargs: dict[str, Any] = {"temperature": 0}
    if settings.is_local:
        model_kwargs["max_retries"] = 0  # a retry would only repeat the same slow generation
    if args.no_grammar:
        model_kwargs["extra_body"] = NO_GRAMMAR_BODY
    save = _open_save(args.save) if args.save else None
    model = load_chat_model(settings, **model_kwargs)
    passed = 0
    with Progress(
        TextColumn("[bold]BFCL[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    ) as progress:
        task = progress.add_task("", total=len(cases))

        def advance(result: CaseResult) -> None:
            nonlocal passed
            passed += result.passed
            done = int(progress.tasks[0].completed) + 1
            progress.update(task, advance=1, description=f"{passed}/{done} right")
            if save is not None:
                save.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")
                save.flush()

        try:
            results = run_cases(model, cases, concurrency=concurrency, on_result=advance)
        finally:
            if save is not None:
                save.close()
    out = Console(highlight=False)
    if args.json:
        meta = {
            "model": settings.model,
            "provider": settings.provider,
            "base_url": settings.base_url,
            "grammar": not args.no_grammar,
            "categories": categories,
        }
        sys.stdout.write(json.dumps(report_dict(results, **meta), ensure_ascii=False, indent=2))
        sys.stdout.write("\n")
    else:
        if args.show_failures and any(not result.passed for result in results):
            out.print(_failures(results))
        title = f"BFCL · {settings.model}" + (" · no grammar" if args.no_grammar else "")
        out.print(summary_table(summarize(results), title=title))
    return 1 if any(result.error for result in results) else 0
