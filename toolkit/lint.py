"""Docstring linter: every pitfall that silently degrades the schema LangChain sends the model.

The linter reads source with :mod:`ast` and never imports it, so a file whose tools fail to
import because of these very pitfalls still gets a full report. For each tool it replays what
LangChain (``@tool``, ``StructuredTool.from_function``, ``convert_to_openai_tool``) does with
the docstring and the signature, and reports each problem with a rule code, ``file:line``,
what the model will see instead, and the fix. The replay follows langchain-core 1.x (checked
against 1.8.3; a property test compares it with LangChain's own docstring parser).

Which functions are tools:

* decorated with LangChain's ``@tool`` / ``@tool(...)`` (under any alias, or written
  ``@langchain_core.tools.tool``), or wrapped by ``tool(f)``, ``tool(...)(f)`` or
  ``StructuredTool.from_function(f, ...)``: linted with that call's ``parse_docstring`` and
  ``error_on_invalid_docstring`` settings;
* plain functions (or ``self.method``) passed to ``bind_tools``, ``convert_to_openai_tool`` or
  ``convert_to_openai_function`` (directly or through a list variable), or listed in a
  list/tuple assigned to a name containing ``tool`` (``ALL_TOOLS``, ``tools``): linted as
  ``convert_to_openai_tool`` reads them (docstring parsed, never raising on its layout);
* plain functions passed to ``create_agent``, ``create_react_agent`` or ``ToolNode``: those wrap
  them with ``tool()``, which does not parse the docstring;
* ``BaseTool`` subclasses and ``Tool(...)`` objects: name and description only;
* with ``all_functions=True`` (``toolkit lint --all-functions``): every public module-level
  function too, read as ``convert_to_openai_tool`` would.

Parameters LangChain never shows the model are skipped: ``self``/``cls`` of bound methods,
``callbacks``, ``run_manager``, ``InjectedToolArg``/``InjectedState``/``ToolRuntime``
parameters and, for ``@tool`` and agents, a parameter annotated exactly ``RunnableConfig``.

Rules (severity ``error`` unless marked; errors make ``toolkit lint`` exit 1):

=====  =========================================================================================
TK100  a file found while walking a directory does not parse (a file named on the command line
       that does not parse is a usage error instead)
TK101  no docstring (LangChain raises, or the description is empty), or no summary before Args:
TK102  ``Args:`` with no blank line before it: folded into the description, or LangChain raises
       ``Found invalid Google-Style docstring.``
TK103  header LangChain does not recognise: ``args:``, ``Arguments:``, ``Params:``,
       ``Parameters:``, ``Arg:``, misspellings, an indented ``Args:``, NumPy or reST fields
TK104  a parameter the model sees has no description
TK105  ``Args:`` documents a name that is not a parameter (``Arg x in docstring not found ...``)
TK106  a documented parameter has no type annotation (LangChain raises the same error)
TK107  a parameter without annotation: the model sees the empty schema ``{}``
TK108  ``@tool`` / ``from_function`` / agent tools without ``parse_docstring=True``: the whole
       docstring becomes the description and no parameter gets one
TK109  a parameter named ``_x``: dropped from the schema (warning when it has a default)
TK110  ``Returns:``/``Raises:``... right after the last argument: read as an argument, raises
TK111  ``name(type):`` without a space: read as the name ``name(type)``, raises
TK112  a blank line inside ``Args:``: LangChain stops reading there (warning when only
       description text is lost)
TK113  a tool name outside ``^[a-zA-Z0-9_-]{1,64}$`` (also ``@tool("my tool")``, ``name=``)
TK114  two tools with the same name in one file (or one package)
TK115  warning: a one-word, empty or name-repeating description (tool or argument)
TK116  warning: a list/dict/set default value
TK117  warning: a section before ``Args:`` (``Raises:``, ``Note:``...) folded into the description
=====  =========================================================================================
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import inspect
import os
import re
import textwrap
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.tools import BaseTool, StructuredTool

from toolkit._lint_ast import collect_specs, spec_for_function
from toolkit._lint_docstring import parse_docstring
from toolkit._lint_rules import check_duplicates, check_spec
from toolkit._lint_spec import RULES, Finding, Rule, ToolSpec
from toolkit.errors import TargetError

__all__ = [
    "RULES",
    "Finding",
    "LintReport",
    "Rule",
    "lint_paths",
    "lint_source",
    "lint_tools",
    "resolve_lint_target",
]

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


@dataclass(frozen=True)
class LintReport:
    """The result of linting some files.

    Args:
        findings: Every finding, sorted by file and line.
        files: How many files were read.
    """

    findings: list[Finding] = field(default_factory=list)
    files: int = 0

    @property
    def errors(self) -> int:
        """The number of error findings."""
        return sum(f.severity == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        """The number of warning findings."""
        return sum(f.severity == "warning" for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        """Return the report as a JSON-ready dict: files, errors, warnings and findings."""
        return {
            "files": self.files,
            "errors": self.errors,
            "warnings": self.warnings,
            "findings": [f.to_dict() for f in self.findings],
        }


def _check_all(specs: Sequence[ToolSpec]) -> list[Finding]:
    found = [f for spec in specs for f in check_spec(spec)]
    found += check_duplicates(list(specs))
    return sorted(found, key=lambda f: (f.path, f.line, f.code))


def _parse(source: str, path: str) -> ast.Module:
    try:
        return ast.parse(source, filename=path)
    except SyntaxError as exc:
        raise TargetError(f"{path}:{exc.lineno or 0}: syntax error: {exc.msg}") from None


def lint_source(source: str, path: str = "<string>", *, all_functions: bool = False) -> list:
    """Lint Python source text.

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
    return _check_all(collect_specs(tree, path, all_functions=all_functions))


def _walk(directory: Path) -> list[Path]:
    files = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d not in _SKIPPED_DIRS and not d.endswith("venv")
        )
        files += [Path(root, n) for n in sorted(names) if n.endswith(".py")]
    return files


def _module_location(name: str) -> Path:
    """Find a module's file or package directory without importing it."""
    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        spec = None
    for index, part in enumerate(parts[1:], start=1):
        locations = list(spec.submodule_search_locations or []) if spec else []
        if not locations:
            break
        spec = importlib.machinery.PathFinder.find_spec(part, locations)
        if spec is None:
            raise TargetError(
                f"no module named {name!r}: {'.'.join(parts[:index])} has no {part!r}"
            )
    if spec is None:
        raise TargetError(
            f"{name!r} is not a file, a directory or an importable module; check the spelling "
            "or run from the directory that contains it"
        )
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin and spec.origin.endswith(".py"):
        return Path(spec.origin)
    raise TargetError(f"module {name!r} has no Python source file to lint ({spec.origin})")


def resolve_lint_target(target: str) -> tuple[list[Path], bool]:
    """Turn a TARGET into the files to lint, without importing anything.

    Args:
        target: A ``.py`` file, a directory (searched recursively, skipping hidden, cache and
            virtualenv directories) or a module name (``tools``, ``pkg.mod``).

    Returns:
        The files, and whether they form one package (tool names must then be unique across
        all of them).

    Raises:
        TargetError: Nothing of that name exists.
    """
    path = Path(target)
    if not path.exists() and _MODULE_NAME.fullmatch(target) and not target.endswith(".py"):
        path = _module_location(target)
    if path.is_dir():
        return _walk(path), (path / "__init__.py").is_file()
    if path.is_file():
        return [path], False
    raise TargetError(f"{target}: no such file or directory")


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def lint_paths(targets: Iterable[str], *, all_functions: bool = False) -> LintReport:
    """Lint files, directories and modules (see :func:`resolve_lint_target`).

    Args:
        targets: What to lint.
        all_functions: Also lint every public module-level function.

    Returns:
        The report. A file named directly that does not parse raises; one found in a
        directory becomes a TK100 finding so the rest is still linted.

    Raises:
        TargetError: A target does not exist or a named file does not parse.
    """
    findings: list[Finding] = []
    seen: set[Path] = set()
    for target in targets:
        files, package = resolve_lint_target(target)
        group: list[ToolSpec] = []
        for path in files:
            if path.resolve() in seen:
                continue
            seen.add(path.resolve())
            shown = _display(path)
            try:
                with tokenize.open(path) as handle:
                    tree = _parse(handle.read(), shown)
            except (TargetError, SyntaxError, UnicodeDecodeError) as exc:
                if not Path(target).is_dir() and not package:
                    raise TargetError(str(exc)) from None
                message = f"Cannot be parsed, so it was not linted: {exc}"
                rule = RULES["TK100"]
                findings.append(
                    Finding(
                        rule.code, rule.severity, shown, 1, "", message, "Fix the syntax error."
                    )
                )
                continue
            specs = collect_specs(tree, shown, all_functions=all_functions)
            findings += _check_all(specs)
            group += specs
        if package:
            flagged = {(f.path, f.line) for f in findings if f.code == "TK114"}
            findings += [f for f in check_duplicates(group) if (f.path, f.line) not in flagged]
    ordered = sorted(findings, key=lambda f: (f.path, f.line, f.code))
    return LintReport(findings=ordered, files=len(seen))


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
        _display(Path(path)),
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
    return _check_all(specs)
