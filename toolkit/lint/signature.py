"""A function's signature and docstring read from its AST, as the schema sees them. Pure.

Each parameter becomes a :class:`~toolkit.lint.catalogue.Param`: its annotation text, whether it
has a (mutable) default, a description given by ``Annotated[..., "text"]`` or
``Field(description=...)``, and whether LangChain hides it from the model (``callbacks``,
``run_manager``, injected arguments, ``RunnableConfig``, the ``self`` of a bound method).
"""

from __future__ import annotations

import ast

from toolkit.lint.catalogue import Param

__all__ = ["docstring_of", "dotted", "literal", "params_of"]

_HIDDEN_NAMES = frozenset({"callbacks", "run_manager"})
_MUTABLE_CALLS = frozenset(
    {"list", "dict", "set", "defaultdict", "OrderedDict", "deque", "bytearray", "Counter"}
)
_MUTABLE_NODES = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def dotted(node: ast.AST) -> str:
    """Return ``a.b.c`` for a name or attribute chain, "" for anything else.

    Args:
        node: An expression node.

    Returns:
        The dotted name.
    """
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def literal(node: ast.AST | None) -> object:
    """Return a constant's value, or ``...`` when the node is not a constant.

    Args:
        node: An expression node, or None.

    Returns:
        The value, or ``Ellipsis`` for anything that is not a literal constant.
    """
    if isinstance(node, ast.Constant):
        return node.value
    return ...


def _annotated_parts(annotation: ast.AST) -> list[ast.AST]:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:  # a string annotation, "Annotated[str, 'the city']"
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return []
    if isinstance(annotation, ast.Subscript) and dotted(annotation.value).endswith("Annotated"):
        inner = annotation.slice
        return list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
    return []


def _annotated_description(annotation: ast.AST) -> str | None:
    for meta in _annotated_parts(annotation)[1:]:
        if isinstance(meta, ast.Constant) and isinstance(meta.value, str):
            return meta.value
        if isinstance(meta, ast.Call) and dotted(meta.func).endswith("Field"):
            for kw in meta.keywords:
                if kw.arg == "description" and isinstance(literal(kw.value), str):
                    return kw.value.value
    return None


def _type_name(annotation: ast.AST) -> str:
    """The bare name of an annotation's outer type: ``RunContext`` for ``RunContext[Deps]``."""
    root = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if isinstance(root, ast.Constant) and isinstance(root.value, str):
        return root.value.split("[")[0].split(".")[-1].strip()
    return dotted(root).split(".")[-1]


def _injected(annotation: ast.AST, context_types: frozenset[str]) -> bool:
    for meta in _annotated_parts(annotation)[1:]:
        target = meta.func if isinstance(meta, ast.Call) else meta
        if dotted(target).split(".")[-1].startswith("Injected"):
            return True
    return _type_name(annotation) in {"ToolRuntime", *context_types}


def _annotation_text(annotation: ast.AST | None) -> str | None:
    if annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value
    return ast.unparse(annotation)


def _mutable(default: ast.AST | None) -> str | None:
    if isinstance(default, _MUTABLE_NODES) or (
        isinstance(default, ast.Call) and dotted(default.func).split(".")[-1] in _MUTABLE_CALLS
    ):
        return ast.unparse(default)
    return None


def params_of(
    func: ast.FunctionDef,
    *,
    skip_first: bool,
    hide_config: bool,
    injected_names: frozenset[str] = frozenset(),
    context_types: frozenset[str] = frozenset(),
) -> tuple[Param, ...]:
    """Read a function's parameters as the tool schema sees them.

    Args:
        func: The function definition.
        skip_first: Hide the first positional parameter (the ``self`` of a bound method).
        hide_config: Hide a parameter annotated ``RunnableConfig``.
        injected_names: Parameter names the tool's framework fills in itself (strands'
            ``agent``).
        context_types: Annotation types the tool's framework fills in itself (pydantic-ai's
            ``RunContext``).

    Returns:
        Every parameter, ``*args``/``**kwargs`` last, each saying whether it is hidden.
    """
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.AST | None] = [None] * (len(positional) - len(a.defaults)) + a.defaults
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(a.kwonlyargs, a.kw_defaults, strict=True),
    ]
    params = []
    for index, (arg, default) in enumerate(pairs):
        text = _annotation_text(arg.annotation)
        hidden = None
        if index == 0 and skip_first and arg in positional:
            hidden = "bound method"
        elif arg.arg in _HIDDEN_NAMES:
            hidden = "passed by LangChain"
        elif arg.arg in injected_names or (
            arg.annotation is not None and _injected(arg.annotation, context_types)
        ):
            hidden = "injected at run time"
        elif hide_config and text is not None and text.split(".")[-1] == "RunnableConfig":
            hidden = "RunnableConfig"
        params.append(
            Param(
                name=arg.arg,
                line=arg.lineno,
                annotation=text,
                has_default=default is not None,
                mutable_default=_mutable(default),
                annotated_description=(
                    _annotated_description(arg.annotation) if arg.annotation else None
                ),
                hidden=hidden,
            )
        )
    for arg, kind in ((a.vararg, "var_positional"), (a.kwarg, "var_keyword")):
        if arg is not None:
            text = _annotation_text(arg.annotation)
            params.append(Param(arg.arg, arg.lineno, kind, text, has_default=True))
    return tuple(params)


def docstring_of(func: ast.AST) -> tuple[str | None, int]:
    """Return a definition's raw docstring literal and the line where it starts.

    Args:
        func: A function or class definition.

    Returns:
        The literal's value (None without a docstring) and its first line.
    """
    body = getattr(func, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(literal(body[0].value), str):
        return body[0].value.value, body[0].value.lineno
    return None, getattr(func, "lineno", 0)
