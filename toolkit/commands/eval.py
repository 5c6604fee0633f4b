"""``toolkit eval``: measure a model as a tool caller.

``toolkit eval bfcl`` scores single replies on the Berkeley Function Calling Leaderboard;
``toolkit eval agent TASKS`` runs whole agent tasks through the tool loop and checks each final
answer (``dev`` names the task set shipped with the toolkit).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.errors import ConfigError
from toolkit.eval.agent_report import summarize_tasks, task_table
from toolkit.eval.agent_runner import TaskResult, run_tasks
from toolkit.eval.agent_tasks import DEV_TASKS, AgentTask, load_tasks
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
    _add_model_options(bfcl)
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
    agent = verbs.add_parser(
        "agent",
        help="whole agent tasks through the tool loop, each final answer checked",
        description="Run each task of TASKS (a .jsonl or .yaml task file, or 'dev' for the "
        "toolkit's own development set) through the tool loop on the configured model and "
        "check its final answer: the task's regexes and expected calls, no call written as "
        "text. Reports success, model calls, generated tokens and seconds per task.",
    )
    agent.add_argument("tasks", metavar="TASKS", help="task file, or 'dev'")
    agent.add_argument("--limit", type=int, metavar="N", help="only the first N tasks")
    agent.add_argument("--ids", nargs="+", metavar="ID", help="only these task ids")
    _add_model_options(agent)
    agent.add_argument("--json", action="store_true", help="print every result as JSON")
    agent.add_argument(
        "--save",
        type=Path,
        metavar="DIR",
        help="write each task's result and transcript to DIR/<id>.json as it finishes",
    )
    agent.add_argument(
        "--show-failures", action="store_true", help="list each failed task with the reasons"
    )
    agent.set_defaults(handler=_run_agent)


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="model name to ask the provider for (TOOLKIT_MODEL)")
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint (OPENAI_BASE_URL)")
    parser.add_argument(
        "--local", action="store_true", help="use the embedded model even if a provider is set"
    )
    parser.add_argument("--timeout", type=float, metavar="S", help="seconds per model reply")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help="requests (or tasks) in flight for remote endpoints; the embedded model serves one "
        "at a time",
    )


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


def _concurrency(args: argparse.Namespace, settings: Settings, err: Console) -> int:
    if args.concurrency < 1:
        raise ConfigError(f"--concurrency {args.concurrency} must be at least 1.")
    if settings.is_local and args.concurrency > 1:
        err.print("note: the embedded model serves one request at a time; --concurrency is 1.")
        return 1
    return args.concurrency


def _model_kwargs(settings: Settings) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"temperature": 0}
    if settings.is_local:
        kwargs["max_retries"] = 0  # a retry would only repeat the same slow generation
    return kwargs


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


@contextmanager
def _tally(label: str, total: int, console: Console) -> Iterator[Callable[[bool], None]]:
    """A progress bar of ``total`` runs headed "N/M right"; yields what counts one run."""
    passed = 0
    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(
        TextColumn(f"[bold]{label}[/] {{task.description}}"), *columns, console=console
    ) as progress:
        bar = progress.add_task("", total=total)

        def count(right: bool) -> None:
            nonlocal passed
            passed += right
            done = int(progress.tasks[0].completed) + 1
            progress.update(bar, advance=1, description=f"{passed}/{done} right")

        yield count


def _run_bfcl(args: argparse.Namespace) -> int:
    ids = _read_ids(args.ids) if args.ids else None
    categories = _categories(args.categories, ids)
    cases = load_cases(categories, limit=args.limit, ids=ids, data_dir=args.data_dir)
    settings = _settings(args)
    err = Console(stderr=True, highlight=False)
    concurrency = _concurrency(args, settings, err)
    model_kwargs = _model_kwargs(settings)
    if args.no_grammar:
        model_kwargs["extra_body"] = NO_GRAMMAR_BODY
    save = _open_save(args.save) if args.save else None
    model = load_chat_model(settings, **model_kwargs)
    with _tally("BFCL", len(cases), err) as count:

        def advance(result: CaseResult) -> None:
            count(result.passed)
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


def _agent_tasks(args: argparse.Namespace) -> list[AgentTask]:
    tasks = load_tasks(DEV_TASKS if args.tasks == "dev" else Path(args.tasks), limit=args.limit)
    if args.ids:
        known = {task.id for task in tasks}
        unknown = [i for i in args.ids if i not in known]
        if unknown:
            raise ConfigError(f"--ids: no task has the id {', '.join(map(repr, unknown))}.")
        tasks = [task for task in tasks if task.id in set(args.ids)]
    return tasks


def _save_task(directory: Path, result: TaskResult) -> None:
    name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in result.id)
    text = json.dumps(asdict(result), ensure_ascii=False, indent=2)
    (directory / f"{name}.json").write_text(text + "\n", encoding="utf-8")


def _agent_failures(results: Sequence[TaskResult]) -> Table:
    table = Table(title="failed tasks", show_lines=False)
    for name in ("id", "problems", "answer"):
        table.add_column(name, overflow="fold")
    for result in results:
        if not result.passed:
            answer = (result.answer or "")[:160]
            table.add_row(result.id, "; ".join(result.problems), answer)
    return table


def _run_agent(args: argparse.Namespace) -> int:
    tasks = _agent_tasks(args)
    settings = _settings(args)
    err = Console(stderr=True, highlight=False)
    concurrency = _concurrency(args, settings, err)
    if args.save:
        try:
            args.save.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create --save directory {args.save}: {exc}.") from None
    model = load_chat_model(settings, **_model_kwargs(settings))
    with _tally("agent", len(tasks), err) as count:

        def advance(result: TaskResult) -> None:
            count(result.passed)
            if args.save:
                _save_task(args.save, result)

        results = run_tasks(model, tasks, concurrency=concurrency, on_result=advance)
    summaries = summarize_tasks(results)
    if args.json:
        body = {
            "model": settings.model,
            "provider": settings.provider,
            "base_url": settings.base_url,
            "tasks": args.tasks,
            "summary": [{**asdict(row), "success_rate": row.success_rate} for row in summaries],
            "results": [asdict(result) for result in results],
        }
        sys.stdout.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
    else:
        out = Console(highlight=False)
        if args.show_failures and any(not result.passed for result in results):
            out.print(_agent_failures(results))
        out.print(task_table(summaries, title=f"agent tasks · {settings.model}"))
    return 1 if any(result.error for result in results) else 0
