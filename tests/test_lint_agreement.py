"""``toolkit schema`` and ``toolkit lint`` agree: what LangChain cannot convert, lint reports.

Over every lint fixture, each tool that fails (when its file is imported, or when it is
converted) must come with a hint naming a ``toolkit lint`` command, and that command's report
must hold an error finding for it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from toolkit.errors import TargetError, ToolDefinitionError
from toolkit.lint import lint_paths
from toolkit.schema import tool_schema
from toolkit.targets import load_targets

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
_HINT = re.compile(r"`(toolkit lint [^`]+)` shows why: (TK\d{3}) at line (\d+)")


def _errors_reported_by(command: str, tool: str | None) -> list:
    words = shlex.split(command)
    assert words[:2] == ["toolkit", "lint"]
    report = lint_paths(words[-1:], all_functions="--all-functions" in words)
    return [
        f for f in report.findings if f.severity == "error" and (tool is None or f.tool == tool)
    ]


def _failures(target: str) -> list[tuple[str | None, str]]:
    """(tool name or None for the whole file, the error text) for each failure of a TARGET."""
    try:
        objects = load_targets(target)
    except TargetError as exc:
        return [(None, str(exc))]
    failed = []
    for obj in objects:
        try:
            tool_schema(obj)
        except ToolDefinitionError as exc:
            failed.append((exc.tool_name, str(exc)))
    return failed


def test_every_tool_schema_cannot_convert_is_an_error_lint_reports() -> None:
    cases, disagreements = 0, []
    for path in sorted(FIXTURES.glob("*.py")):
        for tool, text in _failures(str(path)):
            cases += 1
            hint = _HINT.search(text)
            if hint is None:
                disagreements.append((path.name, tool, "no lint command named", text))
                continue
            reported = _errors_reported_by(hint.group(1), tool)
            where = {(f.code, f.line) for f in reported}
            if (hint.group(2), int(hint.group(3))) not in where:
                disagreements.append((path.name, tool, hint.group(0), sorted(where)))
    assert disagreements == []
    assert cases >= 9  # the fixtures break LangChain in at least this many ways


def test_a_hint_needs_all_functions_only_when_the_default_leaves_the_tool_out(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.py"
    path.write_text(
        "from langchain_core.tools import tool\n\n\n"
        '@tool(parse_docstring=True)\ndef ok(x: int) -> int:\n    """Return x.\n\n'
        '    Args:\n        x: Any whole number.\n    """\n    return x\n\n\n'
        'def helper(city):\n    """Look up a city.\n\n    Args:\n        city: The city.\n'
        '    """\n    return city\n'
    )
    ((tool, text),) = _failures(f"{path}:helper")
    hint = _HINT.search(text)
    assert hint is not None and hint.group(1).startswith("toolkit lint --all-functions ")
    assert (hint.group(2), hint.group(3)) == ("TK106", "18")
    assert [f.code for f in _errors_reported_by(hint.group(1), tool)] == ["TK106"]
    assert [f.code for f in lint_paths([str(path)]).findings] == []
