"""Find the tools in a Python source file without importing it, as ``ToolSpec`` objects.

Which functions count as tools, and how each is read, is documented in :mod:`toolkit.lint`.
"""

from __future__ import annotations

import ast
import re

from toolkit._lint_signature import docstring_of as _docstring
from toolkit._lint_signature import dotted as _dotted
from toolkit._lint_signature import literal as _literal
from toolkit._lint_signature import params_of as _params
from toolkit._lint_spec import ToolSpec

__all__ = ["collect_specs", "spec_for_function"]

_BIND_CALLS = {"bind_tools": 0, "convert_to_openai_tool": 0, "convert_to_openai_function": 0}
_AGENT_CALLS = {"create_agent": 1, "create_react_agent": 1, "ToolNode": 0}
_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# Lower wins when one function is reached in several ways.
_PRIORITY = {"decorator": 0, "call": 1, "agent": 2, "bound": 3, "listed": 4, "all": 5}


class _Names:
    """Which local names mean LangChain's ``tool``, ``StructuredTool``, ``Tool``, ``BaseTool``."""

    def __init__(self, tree: ast.Module) -> None:
        self.langchain_modules: set[str] = set()
        bound: dict[str, set[str]] = {"tool": set(), "StructuredTool": set(), "Tool": set()}
        bound["BaseTool"] = set()
        foreign: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("langchain"):
                        self.langchain_modules.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                from_langchain = (node.module or "").startswith("langchain")
                for alias in node.names:
                    local = alias.asname or alias.name
                    if alias.name in bound and from_langchain:
                        bound[alias.name].add(local)
                    elif from_langchain:
                        self.langchain_modules.add(local)
                    else:
                        foreign.add(local)
        for name, locals_ in bound.items():
            if name not in foreign:
                locals_.add(name)
        self.bound = bound

    def means(self, node: ast.AST, what: str) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.bound[what]
        if isinstance(node, ast.Attribute) and node.attr == what:
            return _dotted(node).split(".")[0] in self.langchain_modules
        return False


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


def _grows_list(node: ast.AST) -> bool:
    """``name.append(x)`` or ``name.extend(xs)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend")
        and isinstance(node.func.value, ast.Name)
        and len(node.args) == 1
    )


class _Collector:
    def __init__(self, tree: ast.Module, path: str) -> None:
        self.path = path
        self.names = _Names(tree)
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.defs: dict[tuple[int, str], ast.AST] = {}
        self.lists: dict[tuple[int, str], list[ast.AST]] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defs[(id(self.scope(node)), node.name)] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        key = (id(self.scope(node)), target.id)
                        self.lists[key] = [node.value]
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                key = (id(self.scope(node)), node.target.id)
                self.lists.setdefault(key, []).append(node.value)
            elif _grows_list(node):
                key = (id(self.scope(node)), node.func.value.id)
                added = node.args[0]
                self.lists.setdefault(key, []).append(
                    ast.List(elts=[added]) if node.func.attr == "append" else added
                )
        self.chosen: dict[int, tuple[int, ToolSpec]] = {}

    def scope(self, node: ast.AST) -> ast.AST:
        current = self.parent.get(node)
        while current is not None and not isinstance(current, _SCOPES):
            current = self.parent.get(current)
        return current if current is not None else node

    def lookup(self, name: str, at: ast.AST) -> ast.AST | None:
        scope = self.scope(at)
        while True:
            found = self.defs.get((id(scope), name)) or self.lists.get((id(scope), name))
            if found is not None:
                return found
            if scope not in self.parent:
                return None
            scope = self.scope(scope)

    def method(self, expr: ast.Attribute) -> ast.AST | None:
        if not (isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls")):
            return None
        scope = self.scope(expr)
        while scope in self.parent and not isinstance(scope, ast.ClassDef):
            scope = self.scope(scope)
        return self.defs.get((id(scope), expr.attr)) if isinstance(scope, ast.ClassDef) else None

    def elements(self, expr: ast.AST, depth: int = 0) -> list[tuple[ast.AST, bool]]:
        """Resolve a tools expression to (function node, is_bound_method) pairs."""
        if depth > 8:
            return []
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return [e for item in expr.elts for e in self.elements(item, depth + 1)]
        if isinstance(expr, ast.Starred):
            return self.elements(expr.value, depth + 1)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return self.elements(expr.left, depth + 1) + self.elements(expr.right, depth + 1)
        if isinstance(expr, ast.Attribute) and (method := self.method(expr)) is not None:
            return [(method, True)]
        if isinstance(expr, ast.Name):
            found = self.lookup(expr.id, expr)
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return [(found, False)]
            if isinstance(found, list):
                return [e for value in found for e in self.elements(value, depth + 1)]
        return []

    def add(self, node: ast.AST, how: str, spec: ToolSpec) -> None:
        rank = _PRIORITY[how]
        if id(node) not in self.chosen or rank < self.chosen[id(node)][0]:
            self.chosen[id(node)] = (rank, spec)

    def function_spec(
        self, func: ast.AST, *, origin: str, anchor: int, opts: dict, bound: bool
    ) -> ToolSpec:
        in_class = isinstance(self.scope(func), ast.ClassDef)
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
            ),
            returns_annotated=func.returns is not None,
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
        else:
            continue
        c.add(func, "decorator", spec)


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
        if target.id == "name" and isinstance(value, str):
            opts.update(name=value, name_line=stmt.value.lineno)
        elif target.id == "description":
            opts.update(description_given=True)
            if isinstance(value, str):
                opts.update(description=value)
    c.add(cls, "decorator", c.simple_spec(cls, "BaseTool subclass", opts, cls.name))


def collect_specs(tree: ast.Module, path: str, *, all_functions: bool = False) -> list[ToolSpec]:
    """Collect every tool a module defines or binds, without importing it.

    Args:
        tree: The parsed module.
        path: The file name to put in findings.
        all_functions: Also treat every public module-level function as a tool.

    Returns:
        One spec per tool, in source order.
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
    if all_functions:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not (
                node.name.startswith("_")
                or any(_dotted(d).endswith("overload") for d in node.decorator_list)
            ):
                spec = c.function_spec(
                    node, origin="a public function", anchor=node.lineno, opts=_BOUND, bound=False
                )
                c.add(node, "all", spec)
    return sorted((spec for _, spec in c.chosen.values()), key=lambda s: (s.line, s.name_line))


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
