"""Linting tools that are already imported: the object says how LangChain built it.

:func:`lint_tools` reads each object's source file to find its ``def`` (the checks need the
source lines), and takes from the object what the source cannot say for sure: the tool name,
whether its docstring was parsed, and a description given apart from the docstring.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import tokenize
from collections.abc import Iterable
from pathlib import Path

from langchain_core.tools import BaseTool, StructuredTool

from toolkit.lint.catalogue import Finding, ToolSpec
from toolkit.lint.checks import check_all
from toolkit.lint.discovery import spec_for_function
from toolkit.lint.docstrings import parse_docstring
from toolkit.target_files import display_path

__all__ = ["lint_tools"]


def _read_docstring(obj: StructuredTool, function: object) -> tuple[bool, str | None]:
    """Tell how a built tool read its docstring: (parsed?, the description if given apart)."""
    raw = getattr(function, "__doc__", None) or ""
    parsed = parse_docstring(inspect.cleandoc(raw)) if raw.strip() else None
    described = [p for p in obj.args.values() if isinstance(p, dict) and p.get("description")]
    parse = parsed is None or not parsed.entries or bool(described)
    known = {textwrap.dedent(raw).strip(), parsed.description if parsed else ""}
    return parse, None if obj.description.strip() in known else obj.description


def _live_spec(obj: object) -> ToolSpec | None:
    """Build a spec for an imported tool from its source, with the object's real settings."""
    function, name, description = obj, getattr(obj, "__name__", None), None
    parse, bound = True, inspect.ismethod(obj)
    if isinstance(obj, BaseTool):
        name = obj.name
        if not isinstance(obj, StructuredTool) or not (obj.func or obj.coroutine):
            return None
        function = obj.func or obj.coroutine
        bound = inspect.ismethod(function)
        parse, description = _read_docstring(obj, function)
    target = inspect.unwrap(getattr(function, "__func__", function))
    try:
        path = inspect.getsourcefile(target)
        line = target.__code__.co_firstlineno
        with tokenize.open(path) as handle:
            tree = ast.parse(handle.read())
    except (TypeError, OSError, AttributeError, SyntaxError):
        return None
    return spec_for_function(
        tree,
        display_path(Path(path)),
        line,
        name=name,
        parse=parse,
        bound=bound,
        origin="the tool" if isinstance(obj, BaseTool) else "convert_to_openai_tool",
        config_visible=not isinstance(obj, BaseTool),
        description=description,
    )


def lint_tools(objects: Iterable[object]) -> list[Finding]:
    """Lint tools that are already imported: ``@tool`` objects and plain functions.

    Each object's source file is read to locate its ``def``; the object supplies the real tool
    name and how its docstring was read. Objects without Python source (built in a REPL, or
    tools that are not ``StructuredTool``) are checked by name only.

    Args:
        objects: Tool objects or functions, e.g. ``tools.ALL_TOOLS``.

    Returns:
        The findings, duplicates across the objects included.
    """
    specs: list[ToolSpec] = []
    for obj in objects:
        spec = _live_spec(obj)
        if spec is None:
            name = getattr(obj, "name", None) or getattr(obj, "__name__", None)
            description = getattr(obj, "description", None)
            spec = ToolSpec(
                name=name,
                function=str(name),
                path="<object>",
                line=0,
                name_line=0,
                anchor_line=0,
                origin="the tool",
                description=description if isinstance(description, str) else None,
                description_given=isinstance(description, str),
                params_known=False,
            )
        specs.append(spec)
    return check_all(specs)
