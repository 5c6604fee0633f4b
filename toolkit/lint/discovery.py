"""Find the tools in a Python source file without importing it, as ``ToolSpec`` objects.

Which functions are tools, by default:

* decorated with LangChain's ``@tool`` / ``@tool(...)`` (under any alias, or written
  ``@langchain_core.tools.tool``), or wrapped by ``tool(f)``, ``tool(...)(f)`` or
  ``StructuredTool.from_function(f, ...)``: linted with that call's ``parse_docstring`` and
  ``error_on_invalid_docstring`` settings (functions and methods alike);
* decorated with another framework's ``@tool``: a decorator named ``tool`` (or pydantic-ai's
  ``tool_plain``) that is not LangChain's, with or without arguments, on a function or a
  method (``from smolagents import tool``, crewai's ``@tool("Name")``, ``@agent.tool``,
  ``@mcp.tool()``). Linted as what LangChain makes of that function when it is handed to
  ``convert_to_openai_tool`` (as ``bind_tools`` does): the docstring is parsed and never
  raises on its layout, the name is the function's (the framework's own name is not
  LangChain's, so TK113 does not apply to it), a ``description=`` it is given counts as the
  description, and TK108 does not apply (``parse_docstring`` is LangChain's ``@tool`` option).
  What the framework fills in itself is not shown to the model: ``self``, a parameter
  annotated ``RunContext``, ``Context`` or ``ToolContext``, and strands' ``agent`` and
  ``tool_context``;
* plain functions (or ``self.method``) passed to ``bind_tools``, ``convert_to_openai_tool`` or
  ``convert_to_openai_function`` (directly or through a list variable), or listed in a
  list/tuple assigned to a name containing ``tool`` (``ALL_TOOLS``, ``tools``): linted as
  ``convert_to_openai_tool`` reads them (docstring parsed, never raising on its layout);
* plain functions passed to ``create_agent``, ``create_react_agent`` or ``ToolNode``: those wrap
  them with ``tool()``, which does not parse the docstring;
* ``BaseTool`` subclasses and ``Tool(...)`` objects: name and description only (a class
  default ``name = ""`` is a name set per instance, so it is not checked);
* in a file named on its own (on the command line, or :func:`toolkit.lint.lint_source`) that
  declares no tool in any of these ways: every public module-level function, read as
  ``convert_to_openai_tool`` would (a file of plain functions is a file of tools).

The other public module-level functions are counted as not linted (the report says how many);
``all_functions=True`` (``toolkit lint --all-functions``) lints them too.

Parameters LangChain never shows the model are skipped: ``self``/``cls`` of bound methods,
``callbacks``, ``run_manager``, ``InjectedToolArg``/``InjectedState``/``ToolRuntime``
parameters and, for ``@tool`` and agents, a parameter annotated exactly ``RunnableConfig``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from toolkit.lint.catalogue import ToolSpec
from toolkit.lint.signature import docstring_of as _docstring
from toolkit.lint.signature import dotted as _dotted
from toolkit.lint.signature import literal as _literal
from toolkit.lint.signature import params_of as _params
from toolkit.lint.source import Scopes, ToolNames

__all__ = ["Discovery", "collect_specs", "spec_for_function"]

_BIND_CALLS = {"bind_tools": 0, "convert_to_openai_tool": 0, "convert_to_openai_function": 0}
_AGENT_CALLS = {"create_agent": 1, "create_react_agent": 1, "ToolNode": 0}
# Lower wins when one function is reached in several ways.
_PRIORITY = {"decorator": 0, "call": 1, "agent": 2, "bound": 3, "listed": 4, "all": 5}


def _options(call: ast.Call, *, positional_name: int | None, defaults: dict) -> dict:
    """Read the keyword options of ``tool(...)`` / ``from_function(...)``."""
    opts = dict(defaults)
    opts.update(name=None, name_line=call.lineno, name_known=True, description=None)
    if positional_name is not None and len(call.args) > positional_name:
        value = call.args[positional_name]
        opts["name"], opts["name_line"] = _literal(value), value.lineno
    for kw in call.keywords:
        value = _literal(kw.value)
        if kw.arg in ("name", "name_or_callable"):
            opts["name"], opts["name_line"] = value, kw.value.lineno
        elif kw.arg in ("parse_docstring", "error_on_invalid_docstring"):
            opts[kw.arg] = value if isinstance(value, bool) else True
        elif kw.arg == "description":
            opts["description_given"] = True
            opts["description"] = value if isinstance(value, str) else None
        elif kw.arg == "args_schema" or (kw.arg == "infer_schema" and value is False):
            opts["infer_params"] = False
    if opts["name"] is not None and not isinstance(opts["name"], str):
        opts["name"], opts["name_known"] = None, False
    return opts


class _Collector(Scopes):
    """The tools of one module, kept by how directly each was made a tool."""

    def __init__(self, tree: ast.Module, path: str) -> None:
        super().__init__(tree)
        self.path = path
        self.names = ToolNames(tree)
        self.chosen: dict[int, tuple[int, ToolSpec]] = {}

    def add(self, node: ast.AST, how: str, spec: ToolSpec) -> None:
        rank = _PRIORITY[how]
        if id(node) not in self.chosen or rank < self.chosen[id(node)][0]:
            self.chosen[id(node)] = (rank, spec)

    def function_spec(
        self, func: ast.AST, *, origin: str, anchor: int, opts: dict, bound: bool
    ) -> ToolSpec:
        owner = self.scope(func)
        in_class = isinstance(owner, ast.ClassDef)
        static = any(_dotted(d) == "staticmethod" for d in func.decorator_list)
        doc, doc_line = _docstring(func)
        name = opts.get("name") if opts.get("name") is not None else func.name
        return ToolSpec(
            name=name if opts.get("name_known", True) else None,
            function=func.name,
            path=self.path,
            line=func.lineno,
            name_line=opts.get("name_line", func.lineno) if opts.get("name") else func.lineno,
            anchor_line=anchor,
            origin=origin,
            parse=opts["parse_docstring"],
            raise_invalid=opts["error_on_invalid_docstring"],
            docstring=doc,
            doc_line=doc_line,
            description=opts.get("description"),
            description_given=opts.get("description_given", False),
            infer_params=opts.get("infer_params", True),
            params=_params(
                func,
                skip_first=in_class and bound and not static,
                hide_config=not opts.get("config_visible", False),
                injected_names=opts.get("injected_names", frozenset()),
                context_types=opts.get("context_types", frozenset()),
            ),
            returns_annotated=func.returns is not None,
            owner=owner.name if in_class else None,
        )

    def simple_spec(self, node: ast.AST, origin: str, opts: dict, function: str) -> ToolSpec:
        return ToolSpec(
            name=opts.get("name") if isinstance(opts.get("name"), str) else None,
            function=function,
            path=self.path,
            line=node.lineno,
            name_line=opts.get("name_line", node.lineno),
            anchor_line=node.lineno,
            origin=origin,
            description=opts.get("description"),
            description_given=opts.get("description_given", False),
            params_known=False,
        )


_TOOL_DEFAULTS = {"parse_docstring": False, "error_on_invalid_docstring": True}
_FROM_FUNCTION_DEFAULTS = {"parse_docstring": False, "error_on_invalid_docstring": False}
_BOUND = {"parse_docstring": True, "error_on_invalid_docstring": False, "config_visible": True}
_AGENT = {"parse_docstring": False, "error_on_invalid_docstring": True}
#: Parameters a framework fills in itself, by the top-level module its ``@tool`` comes from.
_FRAMEWORK_PARAMS = {"strands": frozenset({"agent", "tool_context"})}
#: Annotation types frameworks fill in themselves: pydantic-ai's ``RunContext``, MCP's
#: ``Context``, strands' and Google ADK's ``ToolContext``.
_CONTEXT_TYPES = frozenset({"RunContext", "Context", "ToolContext"})


def _decorators(c: _Collector, func: ast.AST) -> None:
    for dec in func.decorator_list:
        if c.names.means(dec, "tool"):
            spec = c.function_spec(
                func, origin="@tool", anchor=dec.lineno, opts=dict(_TOOL_DEFAULTS), bound=False
            )
        elif isinstance(dec, ast.Call) and c.names.means(dec.func, "tool"):
            opts = _options(dec, positional_name=0, defaults=_TOOL_DEFAULTS)
            origin = "@tool(parse_docstring=True)" if opts["parse_docstring"] else "@tool(...)"
            spec = c.function_spec(func, origin=origin, anchor=dec.lineno, opts=opts, bound=False)
        elif (foreign := c.names.foreign_tool(dec)) is not None:
            spec = _foreign_spec(c, func, dec, *foreign)
        else:
            continue
        c.add(func, "decorator", spec)


def _foreign_spec(
    c: _Collector, func: ast.AST, dec: ast.AST, written: str, module: str | None
) -> ToolSpec:
    """Another framework's ``@tool``: read as ``convert_to_openai_tool`` reads the function.

    The framework's own name for the tool is not LangChain's, so the function name is used;
    a ``description=`` it is given counts as the description, and the parameters the
    framework fills in itself (``self``, a context, strands' ``agent``) are hidden.
    """
    opts = dict(_BOUND)
    root = (module or "").split(".")[0]
    opts["injected_names"] = _FRAMEWORK_PARAMS.get(root, frozenset())
    opts["context_types"] = _CONTEXT_TYPES
    if isinstance(dec, ast.Call):
        for kw in dec.keywords:
            if kw.arg == "description":
                value = _literal(kw.value)
                opts["description_given"] = True
                opts["description"] = value if isinstance(value, str) else None
    origin = f"@{written}" + (f" from {module}" if module else "")
    return c.function_spec(func, origin=origin, anchor=dec.lineno, opts=opts, bound=True)


def _call(c: _Collector, call: ast.Call) -> None:
    func = call.func
    names = c.names
    target: ast.AST | None = None
    if isinstance(func, ast.Call) and names.means(func.func, "tool") and call.args:
        opts = _options(func, positional_name=0, defaults=_TOOL_DEFAULTS)
        target, origin, how = call.args[0], "tool(...)", "call"
    elif names.means(func, "tool") and call.args and not isinstance(call.args[0], ast.Constant):
        opts = _options(call, positional_name=None, defaults=_TOOL_DEFAULTS)
        target, origin, how = call.args[0], "tool()", "call"
    elif isinstance(func, ast.Attribute) and func.attr == "from_function":
        if names.means(func.value, "StructuredTool"):
            opts = _options(call, positional_name=2, defaults=_FROM_FUNCTION_DEFAULTS)
            target = call.args[0] if call.args else None
            for kw in call.keywords:
                if kw.arg in ("func", "coroutine") and target is None:
                    target = kw.value
            origin, how = "StructuredTool.from_function", "call"
        elif names.means(func.value, "Tool"):
            opts = _options(call, positional_name=1, defaults=_FROM_FUNCTION_DEFAULTS)
            c.add(call, "call", c.simple_spec(call, "Tool.from_function", opts, "Tool"))
        if target is None:
            return
    elif names.means(func, "Tool") or names.means(func, "StructuredTool"):
        opts = _options(call, positional_name=None, defaults=_FROM_FUNCTION_DEFAULTS)
        if isinstance(opts.get("name"), str):
            c.add(call, "call", c.simple_spec(call, _dotted(func), opts, _dotted(func)))
        return
    else:
        _tool_list_call(c, call)
        return
    for node, bound in c.elements(target):
        spec = c.function_spec(node, origin=origin, anchor=call.lineno, opts=opts, bound=bound)
        c.add(node, how, spec)


def _tool_list_call(c: _Collector, call: ast.Call) -> None:
    name = _dotted(call.func).split(".")[-1]
    if name in _BIND_CALLS:
        position, opts, origin, how = _BIND_CALLS[name], _BOUND, name, "bound"
    elif name in _AGENT_CALLS:
        position, opts, origin, how = _AGENT_CALLS[name], _AGENT, "agent tools", "agent"
    else:
        return
    expr = call.args[position] if len(call.args) > position else None
    for kw in call.keywords:
        if kw.arg in ("tools", "tool"):
            expr = kw.value
    if expr is None:
        return
    for node, _ in c.elements(expr):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spec = c.function_spec(node, origin=origin, anchor=call.lineno, opts=opts, bound=True)
            c.add(node, how, spec)


def _tool_lists(c: _Collector, node: ast.AST) -> None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t.id for t in targets if isinstance(t, ast.Name) and re.search("tool", t.id, re.I)]
    if not names or not isinstance(node.value, (ast.List, ast.Tuple, ast.Set, ast.BinOp)):
        return
    for func, _ in c.elements(node.value):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            origin = f"listed in {names[0]}"
            spec = c.function_spec(func, origin=origin, anchor=node.lineno, opts=_BOUND, bound=True)
            c.add(func, "listed", spec)


def _base_tool_class(c: _Collector, cls: ast.ClassDef) -> None:
    if not any(c.names.means(base, "BaseTool") for base in cls.bases):
        return
    opts: dict = {"name_line": cls.lineno}
    for stmt in cls.body:
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
        if not isinstance(target, ast.Name) or stmt.value is None:
            continue
        value = _literal(stmt.value)
        if target.id == "name" and isinstance(value, str) and value:  # "": set per instance
            opts.update(name=value, name_line=stmt.value.lineno)
        elif target.id == "description":
            opts.update(description_given=True)
            if isinstance(value, str):
                opts.update(description=value)
    c.add(cls, "decorator", c.simple_spec(cls, "BaseTool subclass", opts, cls.name))


@dataclass(frozen=True)
class Discovery:
    """The tools found in one module, and its public functions that are not among them.

    Args:
        specs: One spec per tool, in source order.
        not_linted: ``(function name, line)`` of each public module-level function that nothing
            makes a tool (``--all-functions`` would lint them).
    """

    specs: list[ToolSpec]
    not_linted: list[tuple[str, int]]


def _public_functions(tree: ast.Module) -> list[ast.AST]:
    return [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not node.name.startswith("_")
        and not any(_dotted(d).endswith("overload") for d in node.decorator_list)
    ]


def collect_specs(
    tree: ast.Module, path: str, *, all_functions: bool = False, named: bool = False
) -> Discovery:
    """Collect every tool a module defines or binds, without importing it.

    Args:
        tree: The parsed module.
        path: The file name to put in findings.
        all_functions: Also treat every public module-level function as a tool.
        named: The file was named on its own (not found in a directory): when it declares no
            tool at all, its public module-level functions are its tools.

    Returns:
        The tools, and the public functions left out.
    """
    c = _Collector(tree, path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _decorators(c, node)
        elif isinstance(node, ast.Call):
            _call(c, node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            _tool_lists(c, node)
        elif isinstance(node, ast.ClassDef):
            _base_tool_class(c, node)
    public = _public_functions(tree)
    if all_functions or (named and not c.chosen):
        origin = "a public function" if all_functions else "a function of a file of functions"
        for node in public:
            spec = c.function_spec(
                node, origin=origin, anchor=node.lineno, opts=_BOUND, bound=False
            )
            c.add(node, "all", spec)
    specs = sorted((spec for _, spec in c.chosen.values()), key=lambda s: (s.line, s.name_line))
    left_out = [(node.name, node.lineno) for node in public if id(node) not in c.chosen]
    return Discovery(specs=specs, not_linted=left_out)


def spec_for_function(
    tree: ast.Module,
    path: str,
    line: int,
    *,
    name: str | None,
    parse: bool,
    bound: bool,
    origin: str,
    config_visible: bool = False,
    description: str | None = None,
) -> ToolSpec | None:
    """Build the spec of the function defined at a line, with settings known from elsewhere.

    Args:
        tree: The parsed module holding the function.
        path: The file name to put in findings.
        line: The function's first line (its ``def`` or its first decorator).
        name: The tool name, if known.
        parse: Whether the docstring is parsed for argument descriptions.
        bound: Whether the function is a bound method (``self`` hidden).
        origin: How it became a tool, in words.
        config_visible: Whether a ``RunnableConfig`` parameter is shown to the model.
        description: The description, when it was given apart from the docstring.

    Returns:
        The spec, or None when no function starts at that line.
    """
    c = _Collector(tree, path)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if line in (node.lineno, min([node.lineno, *(d.lineno for d in node.decorator_list)])):
            opts = {
                "parse_docstring": parse,
                "error_on_invalid_docstring": False,
                "config_visible": config_visible,
                "name": name,
                "name_line": node.lineno,
                "description": description,
                "description_given": description is not None,
            }
            return c.function_spec(node, origin=origin, anchor=node.lineno, opts=opts, bound=bound)
    return None
