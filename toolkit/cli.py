"""The ``toolkit`` command: one parser, one sub-command module each under ``toolkit/commands``.

Every sub-command module exports ``register(subparsers)``, which adds its parser and sets
``handler`` to a function ``(args) -> int``. Errors the toolkit raises on purpose are printed as
one clear message (never a traceback) and exit with status 2; status 1 means "ran, found
problems" (lint findings).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from toolkit.commands import COMMAND_MODULES
from toolkit.errors import ToolkitError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every sub-command registered.

    Returns:
        The top-level parser.
    """
    parser = argparse.ArgumentParser(
        prog="toolkit",
        description="OpenAI-style tool calling on LangChain: run, inspect, lint, serve, eval.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``toolkit`` command.

    Args:
        argv: Arguments without the program name; default ``sys.argv[1:]``.

    Returns:
        The exit status: 0 success, 1 problems found, 2 an error, 130 interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except ToolkitError as exc:
        console = Console(stderr=True, highlight=False)
        console.print(Text.assemble(("error: ", "bold red"), str(exc)), soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        Console(stderr=True).print("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
