"""Reading a module's source for tools: which names mean LangChain, and where names are bound.

:class:`ToolNames` follows the imports (``from langchain_core.tools import tool as t``,
``import langchain_core.tools``) so LangChain's decorator or call is recognised under any alias,
and tells it apart from another framework's ``@tool`` (``from smolagents import tool``,
``@agent.tool``, ``@mcp.tool()``).
:class:`Scopes` knows, for every scope of the module, which functions and classes it defines and
which values are assigned (or appended) to each name, so an expression such as ``[a, b]``,
``tools + [self.c]`` or a list variable resolves to the function definitions it holds.
"""

from __future__ import annotations

import ast

from toolkit.lint.signature import dotted as _dotted

__all__ = ["Scopes", "ToolNames"]

_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_LANGCHAIN_NAMES = ("tool", "StructuredTool", "Tool", "BaseTool")
#: Decorator names other frameworks use for tools (``tool_plain`` is pydantic-ai's).
_TOOL_DECORATORS = frozenset({"tool", "tool_plain"})


class ToolNames:
    """Which local names of a module mean LangChain's ``tool``, ``StructuredTool``, ``Tool``,
    ``BaseTool``, and which decorators are another framework's ``@tool``.

    Args:
        tree: The parsed module.
    """

    def __init__(self, tree: ast.Module) -> None:
        self.langchain_modules: set[str] = set()
        bound: dict[str, set[str]] = {name: set() for name in _LANGCHAIN_NAMES}
        foreign: dict[str, str] = {}
        #: Local names of another framework's ``tool`` decorator -> the module it comes from.
        self.foreign_tools: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("langchain"):
                        self.langchain_modules.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                for alias in node.names:
                    local = alias.asname or alias.name
                    if alias.name in bound and module.startswith("langchain"):
                        bound[alias.name].add(local)
                    elif module.startswith("langchain"):
                        self.langchain_modules.add(local)
                    else:
                        foreign[local] = module or "."
                        if alias.name in _TOOL_DECORATORS:
                            self.foreign_tools[local] = module or "."
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                foreign.setdefault(node.name, "this module")
                if node.name in _TOOL_DECORATORS:
                    self.foreign_tools.setdefault(node.name, "this module")
        for name, locals_ in bound.items():
            if name not in foreign:
                locals_.add(name)
        self.bound = bound

    def means(self, node: ast.AST, what: str) -> bool:
        """Tell whether an expression names one of LangChain's tool factories.

        Args:
            node: A name or attribute expression.
            what: ``"tool"``, ``"StructuredTool"``, ``"Tool"`` or ``"BaseTool"``.

        Returns:
            True for a local bound to it (``from langchain_core.tools import tool as t``), or
            an attribute of an imported LangChain module (``langchain_core.tools.tool``).
        """
        if isinstance(node, ast.Name):
            return node.id in self.bound[what]
        if isinstance(node, ast.Attribute) and node.attr == what:
            return _dotted(node).split(".")[0] in self.langchain_modules
        return False

    def foreign_tool(self, decorator: ast.AST) -> tuple[str, str | None] | None:
        """Tell whether a decorator is another framework's ``@tool``.

        Args:
            decorator: A decorator expression, called (``@mcp.tool()``) or not (``@tool``).

        Returns:
            The decorator as written (``agent.tool``) and the module it was imported from when
            known (``smolagents``), or None for LangChain's ``tool`` and any other decorator.
        """
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if self.means(target, "tool"):
            return None
        if isinstance(target, ast.Name) and target.id in self.foreign_tools:
            return target.id, self.foreign_tools[target.id]
        if isinstance(target, ast.Attribute) and target.attr in _TOOL_DECORATORS:
            return _dotted(target) or target.attr, None
        return None


def _grows_list(node: ast.AST) -> bool:
    """``name.append(x)`` or ``name.extend(xs)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend")
        and isinstance(node.func.value, ast.Name)
        and len(node.args) == 1
    )


class Scopes:
    """Where each name of a module is defined: functions, classes and the lists bound to names.

    Args:
        tree: The parsed module.
    """

    def __init__(self, tree: ast.Module) -> None:
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

    def scope(self, node: ast.AST) -> ast.AST:
        """Return the scope a node belongs to.

        Args:
            node: Any node of the module.

        Returns:
            The innermost module, class, function or lambda around it (the node itself for
            the module).
        """
        current = self.parent.get(node)
        while current is not None and not isinstance(current, _SCOPES):
            current = self.parent.get(current)
        return current if current is not None else node

    def lookup(self, name: str, at: ast.AST) -> ast.AST | list[ast.AST] | None:
        """Resolve a name as Python would at a node, from the inner scope outwards.

        Args:
            name: The name used.
            at: The node that uses it.

        Returns:
            Its function or class definition, the values assigned to it (a list), or None.
        """
        scope = self.scope(at)
        while True:
            found = self.defs.get((id(scope), name)) or self.lists.get((id(scope), name))
            if found is not None:
                return found
            if scope not in self.parent:
                return None
            scope = self.scope(scope)

    def method(self, expr: ast.Attribute) -> ast.AST | None:
        """Resolve ``self.name`` / ``cls.name`` to a method of the enclosing class.

        Args:
            expr: An attribute expression.

        Returns:
            The method's definition, or None when it is not ``self.``/``cls.`` of a method
            defined in the class.
        """
        if not (isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls")):
            return None
        scope = self.scope(expr)
        while scope in self.parent and not isinstance(scope, ast.ClassDef):
            scope = self.scope(scope)
        return self.defs.get((id(scope), expr.attr)) if isinstance(scope, ast.ClassDef) else None

    def elements(self, expr: ast.AST, depth: int = 0) -> list[tuple[ast.AST, bool]]:
        """Resolve a tools expression to the definitions it holds.

        Args:
            expr: A list, tuple, set, name, ``self.method``, ``*xs`` or ``a + b`` expression.
            depth: How deep the resolution already is (it stops at 8).

        Returns:
            ``(definition, is_bound_method)`` pairs, in order.
        """
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
