"""What the model sent as a tool call's arguments: decode it, check it, say what is wrong.

Used by :mod:`toolkit.execution` to turn every bad call into a message the model can act on (the
schema each tool shows the model is computed once per tool and kept).

Plus one repair for ``ChatOpenAI``. Given a response whose arguments are valid JSON but not an
object (``[1, 2]``, ``"text"``) or a double-encoded object (``"{\\"city\\": ..}"``),
``ChatOpenAI.invoke`` raises a pydantic ``ValidationError`` while building the ``AIMessage``
(``_convert_dict_to_message`` puts the decoded value in ``tool_calls[].args``, which must be a
dict), and the whole reply is lost. :func:`recover_tool_calls` fixes the raw response before
LangChain parses it, and :func:`recovering_chat_model` installs it in a copy of the model.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, InvalidToolCall
from langchain_core.messages.tool import invalid_tool_call
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_openai.chat_models.base import BaseChatOpenAI
from pydantic import BaseModel, ValidationError

from toolkit.errors import InvalidArgumentsError

__all__ = [
    "check_arguments",
    "decode_arguments",
    "describe_parameters",
    "recover_tool_calls",
    "recovering_chat_model",
]

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
    shown = _json_schema(tool)
    properties = shown.get("properties", {})
    schema = tool.tool_call_schema
    pydantic = isinstance(schema, type) and issubclass(schema, BaseModel)
    if not pydantic or set(schema.model_fields) != set(properties):
        return _check_against_json_schema(shown, args)  # e.g. a single-input ``Tool``
    problems = []
    if schema.model_config.get("extra") != "allow":
        accepted = set(schema.model_fields) | {f.alias for f in schema.model_fields.values()}
        problems += [
            f"unexpected argument {key!r} (accepted: {', '.join(sorted(properties)) or 'none'})"
            for key in args
            if key not in accepted
        ]
    try:
        schema.model_validate(args)
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


#: id(tool) -> (tool, parameters schema); the tool is kept so that its id is never reused.
_SHOWN: dict[int, tuple[BaseTool, dict[str, Any]]] = {}


def _json_schema(tool: BaseTool) -> dict[str, Any]:
    """The parameters schema the model is shown for ``tool`` (as ``bind_tools`` sends it)."""
    cached = _SHOWN.get(id(tool))
    if cached is not None and cached[0] is tool:
        return cached[1]
    try:
        shown = dict(convert_to_openai_tool(tool)["function"].get("parameters") or {})
    except Exception:  # an unusual tool is still called; it validates its own input
        shown = {}
    _SHOWN[id(tool)] = (tool, shown)
    return shown


def _properties(tool: BaseTool) -> dict[str, Any]:
    return dict(_json_schema(tool).get("properties", {}))


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
    spec = _json_schema(tool)
    required = set(spec.get("required", []))
    params = []
    for name, prop in spec.get("properties", {}).items():
        default = "" if "default" not in prop else f" = {_stringify(prop['default'])}"
        optional = "" if name in required or default else " (optional)"
        params.append(f"{name}: {_expected(prop)}{default}{optional}")
    return f"The tool takes: {tool.name}({', '.join(params)})."


def _stringify(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def _clip(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}… ({len(text)} characters)"


def _show(value: Any) -> str:
    return _clip(_stringify(value))


def _json_kind(value: Any) -> str:
    kinds = {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}
    return kinds.get(type(value), type(value).__name__)


def recover_tool_calls(response: Mapping[str, Any]) -> tuple[dict, list[list[InvalidToolCall]]]:
    """Make a chat-completions response safe for LangChain to parse.

    A double-encoded object is decoded in place; a call whose arguments are JSON but not an object
    is taken out of ``tool_calls`` and returned as an ``InvalidToolCall`` (raw text + the reason),
    so the loop can answer it with an error instead of losing the reply. Calls that are not valid
    JSON at all are left alone: LangChain already turns them into ``invalid_tool_calls``.

    Args:
        response: The response body as a dict (``choices[].message.tool_calls[]``).

    Returns:
        The repaired response (the input is not modified) and, per choice, the calls taken out.
    """
    fixed = copy.deepcopy(dict(response))
    removed: list[list[InvalidToolCall]] = []
    for choice in fixed.get("choices") or []:
        message = choice.get("message") or {}
        kept, taken = [], []
        for raw in message.get("tool_calls") or []:
            function = raw.get("function") or {}
            text = function.get("arguments")
            try:
                value = json.loads(text) if isinstance(text, str) and text.strip() else None
            except json.JSONDecodeError:
                value = None  # LangChain reports invalid JSON itself
            if value is None or isinstance(value, dict):
                kept.append(raw)
                continue
            try:
                function["arguments"] = json.dumps(decode_arguments(text), ensure_ascii=False)
                kept.append(raw)
            except InvalidArgumentsError as exc:
                name, call_id = function.get("name"), raw.get("id")
                taken.append(invalid_tool_call(name=name, args=text, id=call_id, error=str(exc)))
        if taken:
            message["tool_calls"] = kept or None
        removed.append(taken)
    return fixed, removed


@functools.cache
def _recovering_class(cls: type[BaseChatOpenAI]) -> type[BaseChatOpenAI]:
    def _create_chat_result(self: BaseChatOpenAI, response: Any, generation_info: Any = None):
        if not _needs_recovery(response):
            return cls._create_chat_result(self, response, generation_info)
        body = response if isinstance(response, Mapping) else response.model_dump(warnings=False)
        fixed, removed = recover_tool_calls(body)
        result = cls._create_chat_result(self, fixed, generation_info)
        for generation, choice, taken in zip(
            result.generations, body.get("choices") or [], removed, strict=False
        ):
            message = generation.message
            if taken and isinstance(message, AIMessage):
                raw = (choice.get("message") or {}).get("tool_calls") or []
                order = {call.get("id"): n for n, call in enumerate(raw)}
                calls = [*message.invalid_tool_calls, *taken]
                message.invalid_tool_calls = sorted(calls, key=lambda c: order.get(c["id"], 0))
        return result

    namespace = {"_create_chat_result": _create_chat_result, "__module__": __name__}
    return type(f"Recovering{cls.__name__}", (cls,), namespace)


def _needs_recovery(response: Any) -> bool:
    """Whether some call's arguments are valid JSON but not an object (LangChain would raise).

    Reads a dict body or the typed ``openai`` response alike, without converting it.
    """

    def get(item: Any, key: str) -> Any:
        return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)

    for choice in get(response, "choices") or []:
        for raw in get(get(choice, "message"), "tool_calls") or []:
            text = get(get(raw, "function"), "arguments")
            try:
                value = json.loads(text) if isinstance(text, str) and text.strip() else None
            except json.JSONDecodeError:
                continue
            if value is not None and not isinstance(value, dict):
                return True
    return False


def recovering_chat_model(model: BaseChatModel) -> BaseChatModel:
    """Return ``model``, or for a ``ChatOpenAI``-family model a copy that recovers bad arguments.

    The copy shares the original's settings and HTTP clients; only the step that turns the raw
    response into an ``AIMessage`` changes (see :func:`recover_tool_calls`). Other models are
    returned as they are.

    Args:
        model: Any LangChain chat model.

    Returns:
        A chat model whose replies never fail on non-object or double-encoded arguments.
    """
    if not isinstance(model, BaseChatOpenAI) or type(model).__module__ == __name__:
        return model
    fields = {name: getattr(model, name) for name in model.model_fields_set}
    return _recovering_class(type(model))(**fields)
