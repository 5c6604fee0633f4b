"""The linter's entry points on source: :func:`lint_source` for text, :func:`lint_paths` for
CLI TARGETs, and the :class:`LintReport` they make.

Files are read, never imported (:func:`toolkit.targets.source_files` locates a module name
without running it), so a file whose tools fail to import still gets a full report.
"""

from __future__ import annotations

import ast
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.errors import TargetError
from toolkit.lint.catalogue import RULES, Finding, NotLinted, ToolSpec
from toolkit.lint.checks import check_all, check_duplicates
from toolkit.lint.discovery import collect_specs
from toolkit.target_files import display_path, source_files

__all__ = ["LintReport", "lint_paths", "lint_source"]


@dataclass(frozen=True)
class LintReport:
    """The result of linting some files.

    Args:
        findings: Every finding, sorted by file and line.
        files: How many files were read.
        not_linted: The public module-level functions that were not linted because nothing
            makes them tools (``all_functions=True`` lints them too).
        tools: How many tools were linted.
    """

    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    not_linted: list[NotLinted] = field(default_factory=list)
    tools: int = 0

    @property
    def errors(self) -> int:
        """The number of error findings."""
        return sum(f.severity == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        """The number of warning findings."""
        return sum(f.severity == "warning" for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        """Return the report as a JSON-ready dict: files, tools, errors, warnings, findings, and
        the functions not linted."""
        return {
            "files": self.files,
            "tools": self.tools,
            "errors": self.errors,
            "warnings": self.warnings,
            "findings": [f.to_dict() for f in self.findings],
            "not_linted": [n.to_dict() for n in self.not_linted],
        }


def _parse(source: str, path: str) -> ast.Module:
    try:
        return ast.parse(source, filename=path)
    except SyntaxError as exc:
        raise TargetError(f"{path}:{exc.lineno or 0}: syntax error: {exc.msg}") from None


def lint_source(source: str, path: str = "<string>", *, all_functions: bool = False) -> list:
    """Lint Python source text.

    The source is read as a file named on the command line: when it declares no tool at all,
    its public module-level functions are linted as tools.

    Args:
        source: The module's source.
        path: The file name to put in findings.
        all_functions: Also lint every public module-level function.

    Returns:
        The list of :class:`Finding`, sorted by line.

    Raises:
        TargetError: The source does not parse (the message gives ``path:line``).
    """
    tree = _parse(source, path)
    return check_all(collect_specs(tree, path, all_functions=all_functions, named=True).specs)


def lint_paths(targets: Iterable[str], *, all_functions: bool = False) -> LintReport:
    """Lint files, directories and modules (see :func:`toolkit.targets.source_files`).

    Args:
        targets: What to lint.
        all_functions: Also lint every public module-level function.

    Returns:
        The report. A file named directly that does not parse raises; one found in a
        directory becomes a TK100 finding so the rest is still linted. Tool names must be
        unique within a file, and across all the files of a package. A file named directly
        that declares no tool at all has its public module-level functions linted as tools.

    Raises:
        TargetError: A target does not exist or a named file does not parse.
    """
    findings: list[Finding] = []
    not_linted: list[NotLinted] = []
    tools = 0
    seen: set[Path] = set()
    for target in targets:
        sources = source_files(target)
        group: list[ToolSpec] = []
        for path in sources.files:
            if path.resolve() in seen:
                continue
            seen.add(path.resolve())
            shown = display_path(path)
            try:
                with tokenize.open(path) as handle:
                    tree = _parse(handle.read(), shown)
            except (TargetError, SyntaxError, UnicodeDecodeError) as exc:
                if not sources.directory:
                    raise TargetError(str(exc)) from None
                findings.append(_unparsable(shown, exc))
                continue
            found = collect_specs(
                tree, shown, all_functions=all_functions, named=not sources.directory
            )
            findings += check_all(found.specs)
            tools += len(found.specs)
            not_linted += [NotLinted(shown, line, name) for name, line in found.not_linted]
            group += found.specs
        if sources.package:
            flagged = {(f.path, f.line) for f in findings if f.code == "TK114"}
            findings += [f for f in check_duplicates(group) if (f.path, f.line) not in flagged]
    ordered = sorted(findings, key=lambda f: (f.path, f.line, f.code))
    return LintReport(findings=ordered, files=len(seen), not_linted=not_linted, tools=tools)


def _unparsable(shown: str, exc: Exception) -> Finding:
    rule = RULES["TK100"]
    message = f"Cannot be parsed, so it was not linted: {exc}"
    return Finding(rule.code, rule.severity, shown, 1, "", message, "Fix the syntax error.")
