"""``toolkit schema TARGET...``: show what the model is sent for each tool.

A panel per tool with the highlighted OpenAI tool JSON (as ``convert_to_openai_tool`` builds it)
and a table of parameters: name, type, required, default, description. ``--json`` prints a JSON
list of the tool dicts instead, in TARGET order (a list, not an object keyed by name, so the order
is kept and duplicate names stay visible). ``--strict`` shows the strict-mode schemas.

Exit status: 0 success, 2 a TARGET that cannot be found, parsed or imported, or a tool that
LangChain cannot convert.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from rich.console import Console

from toolkit.render import render_schemas
from toolkit.schema import tool_schema
from toolkit.targets import load_targets

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


def _handle(args: argparse.Namespace) -> int:
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    schemas = [
        tool_schema(obj, strict=args.strict)
        for target in args.targets
        for obj in load_targets(target)
    ]
    if args.json:
        sys.stdout.write(json.dumps(schemas, indent=2, ensure_ascii=False) + "\n")
    else:
        render_schemas(schemas, Console())
    return 0
