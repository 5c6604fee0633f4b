"""Why LangChain cannot build a tool, in the linter's words: the command whose report shows it.

``toolkit schema`` (and every verb that loads tools) asks here when a tool cannot be converted
(:func:`explain_tool`) or when importing a file fails inside LangChain (:func:`explain_file`).
The answer is the exact ``toolkit lint`` command whose report holds the cause, with the error
findings it reports; ``--all-functions`` is in the command only when the default would not lint
that tool.
"""

from __future__ import annotations

import inspect
import shlex
from dataclasses import dataclass
from pathlib import Path

from langchain_core.tools import BaseTool

from toolkit.errors import TargetError
from toolkit.lint.catalogue import Finding
from toolkit.lint.report import lint_paths
from toolkit.target_files import display_path

__all__ = ["Explanation", "explain_file", "explain_tool"]

_SHOWN = 3
#: How every finding that predicts an exception words it.
_RAISES = "LangChain raises"


@dataclass(frozen=True)
class Explanation:
    """The ``toolkit lint`` command that reports a problem, and what it reports.

    Args:
        command: The command line, ready to paste (``toolkit lint my_tools.py``).
        findings: The error findings it reports for the tool (or the file), those that predict
            the exception LangChain raises first.
    """

    command: str
    findings: list[Finding]

    @property
    def summary(self) -> str:
        """One sentence: the command, then the first codes and lines it reports."""
        codes = ", ".join(f"{f.code} at line {f.line}" for f in self.findings[:_SHOWN])
        more = len(self.findings) - _SHOWN
        return f"`{self.command}` shows why: {codes}" + (f" and {more} more" if more > 0 else "")

    def to_dict(self) -> dict[str, object]:
        """Return it as a JSON-ready dict: the command and the findings."""
        return {"command": self.command, "findings": [f.to_dict() for f in self.findings]}


def explain_file(path: str | Path, tool: str | None = None) -> Explanation | None:
    """Find the ``toolkit lint`` command that reports errors in a file (for one tool, if named).

    Args:
        path: The source file.
        tool: The tool's name; None for every tool of the file.

    Returns:
        The command (``--all-functions`` added only when the default leaves the tool out) and
        its error findings, or None when neither reports an error (or the file cannot be
        read).
    """
    for all_functions in (False, True):
        try:
            report = lint_paths([str(path)], all_functions=all_functions)
        except TargetError:
            return None
        errors = [
            f for f in report.findings if f.severity == "error" and (tool is None or f.tool == tool)
        ]
        errors.sort(key=lambda f: _RAISES not in f.message)  # what makes LangChain raise first
        if errors:
            flag = " --all-functions" if all_functions else ""
            shown = shlex.quote(display_path(Path(path)))
            return Explanation(f"toolkit lint{flag} {shown}", errors)
        if not report.not_linted:
            return None
    return None


def _source_file(obj: object) -> str | None:
    function = obj
    if isinstance(obj, BaseTool):
        function = getattr(obj, "func", None) or getattr(obj, "coroutine", None)
    function = getattr(function, "__func__", function)
    if not callable(function) or isinstance(function, type):
        return None
    try:
        return inspect.getsourcefile(inspect.unwrap(function))
    except TypeError:
        return None


def explain_tool(obj: object) -> Explanation | None:
    """Find the ``toolkit lint`` command that reports why a tool cannot be converted.

    Args:
        obj: The tool: a ``BaseTool`` or a function (or bound method).

    Returns:
        The command and the error findings it reports for that tool, or None when the tool
        has no Python source or no rule reports it.
    """
    path = _source_file(obj)
    if path is None:
        return None
    name = obj.name if isinstance(obj, BaseTool) else getattr(obj, "__name__", None)
    return explain_file(path, tool=name)
