"""``toolkit lint TARGET...``: find docstring and signature pitfalls that degrade tool schemas.

TARGET is a ``.py`` file, a directory (searched recursively) or a module name (located, never
imported). Files are read statically, so a file whose tools fail to import is still reported in
full. Which functions are tools is said in :mod:`toolkit.lint.discovery`: by default those a
``@tool`` decorator (LangChain's or another framework's), a LangChain call or a tools list makes
tools, and every public function of a file named alone that declares none. The public functions
left out are counted in a note (``not_linted`` in ``--json``); ``--all-functions`` lints them.
The rules are listed in :mod:`toolkit.lint.catalogue` and by ``toolkit lint --rules``.

Exit status: 0 no errors (warnings allowed), 1 at least one error finding, 2 a TARGET that does
not exist or a named file that does not parse.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from rich.console import Console
from rich.table import Table

from toolkit.errors import ConfigError
from toolkit.lint import RULES, lint_paths
from toolkit.render import render_findings

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lint`` to the CLI.

    Args:
        subparsers: The top-level sub-parsers.
    """
    parser = subparsers.add_parser(
        "lint",
        help="find docstring pitfalls that silently degrade tool schemas",
        description="Lint the tools in each TARGET (a file, a directory, or a module name) "
        "without importing them. Exit 1 when there are errors.",
    )
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="file, directory or module")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--all-functions",
        action="store_true",
        help="also lint the public module-level functions nothing makes a tool (by default "
        "they are only counted, except in a file named alone that declares no tool)",
    )
    parser.add_argument(
        "--select", metavar="CODES", help="only these codes or prefixes, comma-separated (TK1)"
    )
    parser.add_argument("--ignore", metavar="CODES", help="skip these codes or prefixes")
    parser.add_argument("--rules", action="store_true", help="list the rules and exit")
    parser.set_defaults(handler=_handle)


def _codes(text: str | None, option: str) -> tuple[str, ...]:
    if not text:
        return ()
    codes = tuple(c.strip().upper() for c in text.split(",") if c.strip())
    unknown = [c for c in codes if not any(code.startswith(c) for code in RULES)]
    if unknown:
        raise ConfigError(
            f"{option}: unknown rule code {', '.join(unknown)}; see `toolkit lint --rules`"
        )
    return codes


def _print_rules(console: Console) -> None:
    table = Table("code", "name", "severity", "finds")
    for rule in RULES.values():
        table.add_row(rule.code, rule.name, rule.severity, rule.summary)
    console.print(table)


def _handle(args: argparse.Namespace) -> int:
    if args.rules:
        _print_rules(Console())
        return 0
    if not args.targets:
        raise ConfigError("toolkit lint needs at least one TARGET (a file, directory or module)")
    select, ignore = _codes(args.select, "--select"), _codes(args.ignore, "--ignore")
    report = lint_paths(args.targets, all_functions=args.all_functions)
    kept = [
        f
        for f in report.findings
        if (not select or f.code.startswith(select)) and not f.code.startswith(ignore or ("\0",))
    ]
    report = replace(report, findings=kept)
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        render_findings(
            report.findings, Console(), files=report.files, not_linted=len(report.not_linted)
        )
    return 1 if report.errors else 0
