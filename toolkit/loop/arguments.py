"""What the model sent as a tool call's arguments: decode it, check it, say what is wrong.

Used by :mod:`toolkit.loop.execution` to turn every bad call into a message the model can act on
(the schema each tool shows the model is computed once per tool and kept).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ValidationError

from toolkit.errors import InvalidArgumentsError
from toolkit.wire import json_text

__all__ = ["check_arguments", "decode_arguments", "describe_parameters"]

_SHOWN_CHARS = 300  # how much raw model output an error message quotes


def decode_arguments(raw: str | None) -> dict[str, Any]:
    """Decode the ``arguments`` text of a tool call into a JSON object.

    Empty text and ``null`` mean no arguments, as in LangChain. A JSON string holding a JSON object
    (double-encoded arguments, a common model mistake) is decoded one level more.

    Args:
        raw: The ``function.arguments`` text the model produced.

    Returns:
        The arguments as a dict.

    Raises:
        InvalidArgumentsError: The text is not valid JSON, or is JSON but not an object.
    """
    if raw is None or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentsError(
            f"the arguments are not valid JSON ({exc.msg} at line {exc.lineno} column "
            f"{exc.colno}): {_clip(raw)}"
        ) from None
    if isinstance(value, str):
        try:
            inner = json.loads(value)
        except json.JSONDecodeError:
            inner = None
        if isinstance(inner, dict):
            return inner
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidArgumentsError(
            f"the arguments must be a JSON object of named parameters, got a JSON "
            f"{_json_kind(value)}: {_clip(raw)}"
        )
    return value


def check_arguments(tool: BaseTool, args: Mapping[str, Any]) -> list[str]:
    """Check decoded arguments against the schema the model was shown for ``tool``.

    Args:
        tool: The LangChain tool that would be called.
        args: The decoded arguments.

    Returns:
        One sentence per problem (missing, unexpected or wrongly typed argument, naming the field,
        what was expected and what came); empty when the arguments fit.
    """
    checks = _checks(tool)
    if checks.model is None:
        return _check_against_json_schema(checks.shown, args)  # e.g. a single-input ``Tool``
    properties = checks.shown.get("properties", {})
    problems = []
    if checks.accepted is not None:
        problems += [
            f"unexpected argument {key!r} (accepted: {', '.join(sorted(properties)) or 'none'})"
            for key in args
            if key not in checks.accepted
        ]
    try:
        checks.model.model_validate(args)
    except ValidationError as exc:
        problems += [_describe(error, properties) for error in exc.errors(include_url=False)]
    return problems


def _describe(error: Mapping[str, Any], properties: Mapping[str, Any]) -> str:
    loc = [str(part) for part in error.get("loc", ())]
    field = ".".join(loc) or "(arguments)"
    expected = _expected(properties.get(loc[0])) if len(loc) == 1 else None
    if error["type"] == "missing":
        wanted = f" (expected {expected})" if expected else ""
        return f"missing required argument {field!r}{wanted}"
    if error["type"] == "extra_forbidden":
        return f"unexpected argument {field!r}"
    wanted = f"expected {expected}, " if expected else ""
    return f"argument {field!r}: {wanted}got {_show(error.get('input'))} ({error['msg']})"


def _check_against_json_schema(schema: Mapping[str, Any], args: Mapping[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    problems = [
        f"missing required argument {key!r} (expected {_expected(properties.get(key))})"
        for key in schema.get("required", [])
        if key not in args
    ]
    if schema.get("additionalProperties") is not True:
        problems += [f"unexpected argument {key!r}" for key in args if key not in properties]
    checks = {"string": str, "boolean": bool, "object": dict, "array": list}
    for key, value in args.items():
        kind = properties.get(key, {}).get("type")
        ok = {
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        }.get(kind, isinstance(value, checks.get(kind, object)))
        if not ok:
            problems.append(f"argument {key!r}: expected {kind}, got {_show(value)}")
    return problems


@dataclass(frozen=True)
class _Checks:
    """How to check a tool's arguments, worked out once per tool.

    Attributes:
        shown: The parameters schema the model is shown (as ``bind_tools`` sends it).
        model: The pydantic model to validate with; ``None`` when it does not match what the
            model is shown (e.g. a single-input ``Tool``), so the JSON schema is checked instead.
        accepted: The argument names (and aliases) accepted; ``None`` when any is.
    """

    shown: dict[str, Any]
    model: type[BaseModel] | None
    accepted: frozenset[str] | None


#: id(tool) -> (tool, its checks); the tool is kept so that its id is never reused.
_CHECKS: dict[int, tuple[BaseTool, _Checks]] = {}


def _checks(tool: BaseTool) -> _Checks:
    cached = _CHECKS.get(id(tool))
    if cached is not None and cached[0] is tool:
        return cached[1]
    try:
        shown = dict(convert_to_openai_tool(tool)["function"].get("parameters") or {})
    except Exception:  # an unusual tool is still called; it validates its own input
        shown = {}
    schema = tool.tool_call_schema
    model, accepted = None, None
    pydantic = isinstance(schema, type) and issubclass(schema, BaseModel)
    if pydantic and set(schema.model_fields) == set(shown.get("properties", {})):
        model, fields = schema, schema.model_fields
        if schema.model_config.get("extra") != "allow":
            accepted = frozenset(fields) | {field.alias for field in fields.values()}
    checks = _Checks(shown, model, accepted)
    _CHECKS[id(tool)] = (tool, checks)
    return checks


def _expected(spec: Mapping[str, Any] | None) -> str:
    if not spec:
        return "any value"
    if "enum" in spec:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in spec["enum"])
    if "anyOf" in spec:
        return " or ".join(_expected(option) for option in spec["anyOf"])
    kind = spec.get("type", "any value")
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"array of {_expected(spec['items'])}"
    return str(kind)


def describe_parameters(tool: BaseTool) -> str:
    """Say in one line what a tool takes, for error messages fed back to the model.

    Args:
        tool: The LangChain tool.

    Returns:
        For example ``The tool takes: get_weather(city: string, unit: one of "c", "f" = "c").``
    """
    spec = _checks(tool).shown
    required = set(spec.get("required", []))
    params = []
    for name, prop in spec.get("properties", {}).items():
        default = "" if "default" not in prop else f" = {json_text(prop['default'])}"
        optional = "" if name in required or default else " (optional)"
        params.append(f"{name}: {_expected(prop)}{default}{optional}")
    return f"The tool takes: {tool.name}({', '.join(params)})."


def _clip(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}… ({len(text)} characters)"


def _show(value: Any) -> str:
    return _clip(json_text(value))


def _json_kind(value: Any) -> str:
    kinds = {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}
    return kinds.get(type(value), type(value).__name__)
