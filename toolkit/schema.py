"""What the model is sent for a tool: the OpenAI tool schema.

:func:`tool_schema` is the one entry point: any tool-like object (a ``@tool`` object, another
``BaseTool``, a plain function, a pydantic model, or an OpenAI tool dict) becomes the dict
LangChain's ``convert_to_openai_tool`` produces for it, which is what ``bind_tools`` sends.
:func:`parameters_table` flattens such a dict into rows for display. The tools a CLI TARGET
names are imported by :func:`toolkit.targets.load_targets` (also importable from here).
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import (
    convert_to_openai_function,
    convert_to_openai_tool,
)
from pydantic import BaseModel
from typing_extensions import is_typeddict

from toolkit.errors import ToolDefinitionError
from toolkit.targets import load_targets

__all__ = ["ParameterRow", "load_targets", "parameters_table", "tool_schema"]

_ALTERNATIVES = ("anyOf", "oneOf")


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
            (for example a docstring argument missing from the signature); the problems then
            name the ``toolkit lint`` command that reports the cause, and its rule codes.
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
        failure = f"{type(exc).__name__}: {exc}"
    from toolkit.lint.explain import explain_tool  # only on failure: it reads the source

    explanation = explain_tool(obj)
    hint = (
        explanation.summary
        if explanation is not None
        else "no `toolkit lint` rule reports this failure: the exception above is the cause"
    )
    raise ToolDefinitionError(_name_of(obj), [failure, hint])


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
