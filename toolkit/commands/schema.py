"""``toolkit schema TARGET...``: show what the model is sent for each tool.

A panel per tool with the highlighted OpenAI tool JSON (as ``convert_to_openai_tool`` builds it)
and a table of parameters: name, type, required, default, description. ``--json`` prints a JSON
list of the tool dicts instead, in TARGET order (a list, not an object keyed by name, so the order
is kept and duplicate names stay visible). ``--strict`` shows the strict-mode schemas.

A TARGET that cannot be loaded, or a tool that LangChain cannot convert, is reported on stderr,
and the other tools are still shown. The message names the ``toolkit lint`` command that reports
the cause, with its rule codes. With ``--json`` each failure is also an entry of the list, where
the tool's dict would be: ``{"type": "error", "target", "tool", "errors": [...], "lint":
{"command", "findings"} | null}`` (``tool`` is null when the TARGET itself failed to load).

Exit status: 0 success, 2 a TARGET that cannot be found, parsed or imported, or a tool that
LangChain cannot convert.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from toolkit.errors import TargetError, ToolDefinitionError, ToolkitError
from toolkit.lint.explain import explain_tool
from toolkit.render import render_schemas
from toolkit.schema import tool_schema
from toolkit.targets import import_from_working_directory, load_targets

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``schema`` to the CLI.

    Args:
        subparsers: The top-level sub-parsers.
    """
    parser = subparsers.add_parser(
        "schema",
        help="show the OpenAI tool schema of each tool",
        description="Show the OpenAI tool schema LangChain sends for each tool in TARGET: a "
        "module (ALL_TOOLS if it has one, else its BaseTool objects, else its public "
        "functions), a path/to/file.py, or module:NAME.",
    )
    parser.add_argument("targets", nargs="+", metavar="TARGET", help="module, file or module:NAME")
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list of the tool dicts instead"
    )
    parser.add_argument(
        "--strict", action="store_true", help="show strict-mode schemas (bind_tools(strict=True))"
    )
    parser.set_defaults(handler=_handle)


def _failure(target: str, obj: object, exc: ToolkitError) -> dict[str, Any]:
    explanation = explain_tool(obj) if isinstance(exc, ToolDefinitionError) else None
    return {
        "type": "error",
        "target": target,
        "tool": exc.tool_name if isinstance(exc, ToolDefinitionError) else None,
        "errors": exc.problems if isinstance(exc, ToolDefinitionError) else [str(exc)],
        "lint": explanation.to_dict() if explanation is not None else None,
    }


def _handle(args: argparse.Namespace) -> int:
    import_from_working_directory()
    entries: list[dict[str, Any]] = []
    failures: list[ToolkitError] = []
    for target in args.targets:
        try:
            objects = load_targets(target)
        except TargetError as exc:
            failures.append(exc)
            entries.append(_failure(target, None, exc))
            continue
        for obj in objects:
            try:
                entries.append(tool_schema(obj, strict=args.strict))
            except ToolDefinitionError as exc:
                failures.append(exc)
                entries.append(_failure(target, obj, exc))
    if args.json:
        sys.stdout.write(json.dumps(entries, indent=2, ensure_ascii=False) + "\n")
    else:
        render_schemas([e for e in entries if e.get("type") != "error"], Console())
    errors = Console(stderr=True, highlight=False)
    for exc in failures:
        errors.print(Text.assemble(("error: ", "bold red"), str(exc)), soft_wrap=True)
    return 2 if failures else 0
