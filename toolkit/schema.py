"""What the model is sent for a tool: the OpenAI tool schema, and where TARGETs are found.

:func:`tool_schema` is the one entry point: any tool-like object (a ``@tool`` object, another
``BaseTool``, a plain function, a pydantic model, or an OpenAI tool dict) becomes the dict
LangChain's ``convert_to_openai_tool`` produces for it, which is what ``bind_tools`` sends.
:func:`parameters_table` flattens such a dict into rows for display, and
:func:`load_targets` imports the tools a CLI TARGET names.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import (
    convert_to_openai_function,
    convert_to_openai_tool,
)
from pydantic import BaseModel
from typing_extensions import is_typeddict

from toolkit.errors import TargetError, ToolDefinitionError

__all__ = ["ParameterRow", "load_targets", "parameters_table", "tool_schema"]

_ALTERNATIVES = ("anyOf", "oneOf")
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


@dataclass(frozen=True)
class ParameterRow:
    """One parameter of a tool schema, flattened for display.

    Args:
        name: The parameter name.
        type: Its JSON-schema type in words (``string``, ``array[integer]``, ``"a" | "b"``).
        required: Whether the model must pass it.
        default: The default as JSON text, or None when there is none.
        description: Its description ("" when the model gets none).
    """

    name: str
    type: str
    required: bool
    default: str | None
    description: str


def _name_of(obj: object) -> str:
    if isinstance(obj, BaseTool):
        return obj.name
    if isinstance(obj, Mapping):
        function = obj.get("function")
        return str(function.get("name") if isinstance(function, Mapping) else obj.get("name"))
    return getattr(obj, "__name__", type(obj).__name__)


def tool_schema(obj: object, *, strict: bool = False) -> dict[str, Any]:
    """Return the OpenAI tool schema LangChain sends the model for a tool-like object.

    Args:
        obj: A ``@tool`` object or other ``BaseTool``, a plain function (its docstring is
            parsed as ``convert_to_openai_tool`` does), a pydantic model or ``TypedDict``
            class, or an OpenAI tool dict (``{"type": "function", "function": {...}}``,
            passed through).
        strict: Produce the strict-mode schema (``"strict": true``, closed objects), as
            ``bind_tools(..., strict=True)`` does. When False, no ``strict`` key is set.

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters"}}``.

    Raises:
        ToolDefinitionError: The object is not tool-like, or LangChain cannot convert it
            (for example a docstring argument missing from the signature).
    """
    flag = True if strict else None
    if isinstance(obj, Mapping) and obj.get("type") == "function" and "function" in obj:
        function = copy.deepcopy(dict(obj["function"]))
        try:
            return {
                "type": "function",
                "function": convert_to_openai_function(function, strict=flag),
            }
        except (ValueError, KeyError, TypeError) as exc:
            raise ToolDefinitionError(_name_of(obj), [str(exc)]) from None
    tool_like = (
        isinstance(obj, (BaseTool, Mapping))
        or (isinstance(obj, type) and (issubclass(obj, BaseModel) or is_typeddict(obj)))
        or inspect.isfunction(obj)
        or inspect.ismethod(obj)
    )
    if not tool_like:
        raise ToolDefinitionError(
            _name_of(obj),
            [
                f"a {type(obj).__name__} is not a tool: pass a @tool object, a BaseTool, a "
                "function, a pydantic model class or an OpenAI tool dict"
            ],
        )
    try:
        return convert_to_openai_tool(obj, strict=flag)
    except Exception as exc:  # LangChain raises ValueError, TypeError, pydantic errors...
        raise ToolDefinitionError(
            _name_of(obj),
            [f"{type(exc).__name__}: {exc}", "run `toolkit lint` on its file to see why"],
        ) from None


def _type_text(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    for key in _ALTERNATIVES:
        if key in schema:
            return " | ".join(_type_text(option) for option in schema[key])
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(kind)
    if kind == "array":
        items = schema.get("items")
        return f"array[{_type_text(items)}]" if isinstance(items, Mapping) and items else "array"
    return str(kind) if kind else "any"


def parameters_table(schema: Mapping[str, Any]) -> list[ParameterRow]:
    """Flatten a tool schema's parameters into rows.

    Args:
        schema: An OpenAI tool dict (as from :func:`tool_schema`) or its ``function`` part.

    Returns:
        One row per property, in schema order.
    """
    function = schema.get("function", schema)
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or ())
    rows = []
    for name, prop in (parameters.get("properties") or {}).items():
        default = json.dumps(prop["default"], ensure_ascii=False) if "default" in prop else None
        rows.append(
            ParameterRow(
                name=name,
                type=_type_text(prop),
                required=name in required,
                default=default,
                description=str(prop.get("description", "")),
            )
        )
    return rows


def _import_error(what: str, exc: BaseException) -> TargetError:
    if isinstance(exc, SyntaxError):
        where = f"{exc.filename or what}:{exc.lineno or 0}"
        return TargetError(f"{where}: syntax error: {exc.msg}")
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return TargetError(
        f"importing {what} failed: {type(exc).__name__}" + (f": {detail}" if detail else "")
    )


def _import_file(path: Path) -> object:
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    name = f"_toolkit_target_{resolved.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise TargetError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(resolved.parent))
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        del sys.modules[name]
        raise _import_error(str(path), exc) from None
    finally:
        sys.path.remove(str(resolved.parent))
    return module


def _import_module(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise TargetError(
                f"{name}: no such module, file or directory; pass a module name that can be "
                "imported from here, a path to a .py file, or module:function"
            ) from None
        raise _import_error(name, exc) from None
    except (Exception, SystemExit) as exc:
        raise _import_error(name, exc) from None


def _defined_here(obj: object, module: object) -> bool:
    origin = obj.func or obj.coroutine if isinstance(obj, BaseTool) else obj
    owner = getattr(inspect.unwrap(origin), "__module__", None) if origin is not None else None
    if owner is None:
        return isinstance(obj, BaseTool)
    prefix = module.__name__
    return owner == prefix or (hasattr(module, "__path__") and owner.startswith(prefix + "."))


def _collect(module: object) -> list[object]:
    listed = getattr(module, "ALL_TOOLS", None)
    if isinstance(listed, (list, tuple)):
        return list(listed)
    members = [v for k, v in vars(module).items() if not k.startswith("_")]
    tools = [v for v in members if isinstance(v, BaseTool) and _defined_here(v, module)]
    if tools:
        return tools
    return [v for v in members if inspect.isfunction(v) and _defined_here(v, module)]


def load_targets(target: str) -> list[object]:
    """Import the tools a TARGET names.

    Args:
        target: A module name (``tools``), a file (``path/to/x.py``, imported under a unique
            module name with its directory on ``sys.path``), or either followed by
            ``:attribute`` (``tools:get_weather``, ``x.py:TOOLS``). A module or file gives its
            ``ALL_TOOLS`` list if it has one, else the ``BaseTool`` objects defined in it, else
            its public functions; an attribute gives that object (or the items of a list).

    Returns:
        The tool-like objects, in definition order.

    Raises:
        TargetError: Not found, a syntax error (with ``file:line``), or an exception while
            importing (its type and message).
    """
    source, attribute = target, ""
    head, _, tail = target.rpartition(":")
    if head and _DOTTED.fullmatch(tail):
        source, attribute = head, tail
    path = Path(source)
    if source.endswith(".py") or "/" in source or "\\" in source:
        if path.is_dir():
            raise TargetError(f"{source} is a directory: pass a .py file or a module name")
        if not path.is_file():
            raise TargetError(f"{source}: no such file")
        module = _import_file(path)
    else:
        module = _import_module(source)
    if not attribute:
        found = _collect(module)
        if not found:
            raise TargetError(f"{target} defines no tools (no ALL_TOOLS, BaseTool or function)")
        return found
    obj: object = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            names = ", ".join(sorted(k for k in vars(module) if not k.startswith("_")))
            raise TargetError(f"{source} has no attribute {attribute!r}; it defines: {names}")
        obj = getattr(obj, part)
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]
