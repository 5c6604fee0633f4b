"""The seed's ``@tool`` done properly: a function -> its OpenAI description and a safe ``invoke``.

Both of the seed's forms are accepted: one parameter annotated with a pydantic model (listing
7.8), or ordinary typed parameters described under ``Args:`` in a Google-style docstring. The
description dict equals what LangChain's ``convert_to_openai_tool`` produces for the same function
under ``@tool(parse_docstring=True)``: the docstring is split the same way, the parameters model is
built with pydantic, ``$ref``s are inlined and ``title`` keys dropped.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from toolkit.errors import ToolDefinitionError

__all__ = ["Tool", "tool"]

_SECTION_HEADERS = ("Returns:", "Example:")
_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and ``Args:`` entries.

    Blocks are separated by blank lines; the description is every block before ``Args:`` (or
    ``Returns:``) joined by spaces; an ``Args:`` line is ``name: text`` or ``name (type): text``,
    and deeper-indented lines continue the previous argument.
    """
    descriptors: list[str] = []
    args_block = None
    past = False
    for block in doc.split("\n\n"):
        if block.startswith("Args:"):
            args_block = block
            break
        past = past or block.startswith(_SECTION_HEADERS)
        if not past:
            descriptors.append(block)
    arguments: dict[str, str] = {}
    name = None
    indent = None
    for line in (args_block or "").split("\n")[1:]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None and ":" in line:
            indent = depth
        if name is not None and (depth > indent or ":" not in line):
            arguments[name] += " " + line.strip()
        elif ":" in line:
            head, text = line.split(":", 1)
            name, _, annotation = head.strip().partition(" ")
            name = name if annotation.startswith("(") and annotation.endswith(")") else head.strip()
            arguments[name] = text.strip()
    return " ".join(descriptors).strip(), arguments


def _without_titles(schema: Any, parent: str = "") -> Any:
    """Drop JSON-schema ``title`` keys, keeping a property that is itself named ``title``."""
    if isinstance(schema, list):
        return [_without_titles(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: _without_titles(value, key)
        for key, value in schema.items()
        if key != "title" or (isinstance(value, dict) and parent == "properties")
    }


def _inline_refs(schema: Any, definitions: Mapping[str, Any]) -> Any:
    """Replace every ``{"$ref": "#/$defs/X"}`` by the definition of ``X`` (recursively)."""
    if isinstance(schema, list):
        return [_inline_refs(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/$defs/"):
        target = dict(definitions[schema["$ref"].removeprefix("#/$defs/")])
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return _inline_refs(merged, definitions)
    return {key: _inline_refs(value, definitions) for key, value in schema.items()}


def _parameters(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAI ``parameters`` object of an arguments model."""
    schema = model.model_json_schema()
    schema = _inline_refs(schema, schema.pop("$defs", {}))
    for key in ("title", "description"):
        schema.pop(key, None)
    if schema.get("additionalProperties") is False:
        del schema["additionalProperties"]
    return _without_titles(schema)


def _single_model(signature: inspect.Signature, hints: dict[str, Any]) -> type[BaseModel] | None:
    params = list(signature.parameters.values())
    if len(params) != 1:
        return None
    annotation = hints.get(params[0].name)
    is_model = isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation if is_model else None


def _arguments_model(
    func: Callable[..., Any], hints: dict[str, Any], arguments: dict[str, str]
) -> type[BaseModel]:
    """Build the pydantic model of a function's typed, documented parameters."""
    name = func.__name__
    problems: list[str] = []
    fields: dict[str, Any] = {}
    params = inspect.signature(func).parameters
    for param in params.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            problems.append(f"*{param.name} cannot be described to a model; use named parameters.")
            continue
        if param.name.startswith("_"):
            problems.append(f"parameter {param.name!r} starts with '_'; rename it.")
        if param.name not in hints:
            problems.append(f"parameter {param.name!r} has no type annotation; add one.")
        if param.name not in arguments:
            problems.append(
                f"parameter {param.name!r} is not described; add '{param.name}: <what it is>' "
                "under 'Args:' in the docstring (after a blank line)."
            )
        default = ... if param.default is param.empty else param.default
        description = arguments.get(param.name)
        fields[param.name] = (hints.get(param.name, Any), Field(default, description=description))
    problems += [
        f"'Args:' documents {extra!r}, which is not a parameter; remove it or fix the name."
        for extra in arguments
        if extra not in params
    ]
    if problems:
        raise ToolDefinitionError(name, problems)
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    return create_model(f"{name}_arguments", __config__=config, **fields)


class Tool:
    """A function the model may call: its description dict and a validating ``invoke``.

    Build it with :func:`tool`. Calling the object calls the function unchanged.

    Attributes:
        func: The wrapped function.
        name: The tool name (the function's name).
        args_model: The pydantic model the arguments are validated with.
        description: The OpenAI tool description ``{"type": "function", "function": {...}}``
            (the seed's name for it).
        takes_model: Whether the function takes one pydantic model (the seed's form) rather
            than keyword arguments.
    """

    def __init__(self, func: Callable[..., Any]) -> None:
        name = getattr(func, "__name__", repr(func))
        doc = inspect.getdoc(func)
        if not _NAME.fullmatch(name):
            raise ToolDefinitionError(name, ["the name must match ^[a-zA-Z0-9_-]{1,64}$."])
        if not doc:
            raise ToolDefinitionError(name, ["it has no docstring; describe what it does."])
        try:
            hints = get_type_hints(func, include_extras=True)
        except (NameError, TypeError) as exc:
            raise ToolDefinitionError(
                name, [f"its type hints cannot be resolved: {exc}."]
            ) from None
        summary, arguments = _parse_docstring(doc)
        model = _single_model(inspect.signature(func), hints)
        self.func = func
        self.name = name
        self.takes_model = model is not None
        self.args_model = model or _arguments_model(func, hints, arguments)
        function = {"name": self.name, "description": summary, "parameters": {}}
        function["parameters"] = _parameters(self.args_model)
        self.description: dict[str, Any] = {"type": "function", "function": function}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Tool(name={self.name!r})"

    def invoke(
        self, arguments: str | Mapping[str, Any] | None, tool_call_id: str | None = None
    ) -> dict[str, Any]:
        """Validate the model's arguments, run the function and wrap the result.

        Args:
            arguments: The call's ``arguments``: JSON text as the API sends it (a double-encoded
                object and an empty string are accepted too), or an already parsed mapping.
            tool_call_id: The id of the call being answered, copied into the message.

        Returns:
            ``{"role": "tool", "tool_call_id": ..., "content": ...}``; on bad JSON, invalid
            arguments or an exception in the tool, the content starts with ``Error:`` and says
            what to send instead.
        """
        message: dict[str, Any] = {"role": "tool"}
        if tool_call_id is not None:
            message["tool_call_id"] = tool_call_id
        message["content"] = self._content(arguments)
        return message

    def _content(self, arguments: str | Mapping[str, Any] | None) -> str:
        try:
            values = _decode_arguments(arguments)
        except ValueError as exc:
            problem = f"the arguments for {self.name} are not a JSON object ({exc})"
            return f"Error: {problem}. {self._hint()}"
        try:
            parsed = self.args_model.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, error['loc'])) or 'arguments'}: {error['msg']}"
                for error in exc.errors()
            )
            return f"Error: invalid arguments for {self.name}: {problems}. {self._hint()}"
        try:
            if self.takes_model:
                result = self.func(parsed)
            else:
                result = self.func(
                    **{key: getattr(parsed, key) for key in self.args_model.model_fields}
                )
        except Exception as exc:  # a tool's failure is reported to the model, not raised
            if type(exc).__name__ == "ToolException":  # the tool's own message for the model
                return f"Error: {exc}"
            return f"Error: {self.name} failed: {type(exc).__name__}: {exc}"
        if isinstance(result, str):
            return result
        try:
            return json.dumps(result, ensure_ascii=False)
        except (TypeError, ValueError):
            return str(result)

    def _hint(self) -> str:
        schema = self.description["function"]["parameters"]
        required = set(schema.get("required", ()))
        listed = ", ".join(
            f"{name} ({_kind(prop)}{', required' if name in required else ''})"
            for name, prop in schema.get("properties", {}).items()
        )
        return f"Call {self.name} again with a JSON object of: {listed or 'no arguments'}."


def _kind(prop: Mapping[str, Any]) -> str:
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in prop["enum"])
    return str(prop.get("type", "any"))


def _decode_arguments(arguments: str | Mapping[str, Any] | None) -> dict[str, Any]:
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if arguments is None or not str(arguments).strip():
        return {}
    value = json.loads(arguments)
    if isinstance(value, str) and value.strip().startswith("{"):
        value = json.loads(value)
    if not isinstance(value, dict):
        raise ValueError(f"got {type(value).__name__} {str(arguments)[:60]!r}")
    return value


def tool(func: Callable[..., Any]) -> Tool:
    """Turn a function into a :class:`Tool` (use it as a decorator).

    Two forms are accepted: the seed's, one parameter annotated with a pydantic model (the model
    is the parameters schema; its field descriptions describe the arguments), and ordinary typed
    parameters described under ``Args:`` in a Google-style docstring.

    Args:
        func: The function; its docstring's first paragraphs become the tool description.

    Returns:
        The tool.

    Raises:
        ToolDefinitionError: Every problem found (no docstring, a parameter without a type or
            description, a documented name that is not a parameter...), listed at once.
    """
    return Tool(func)
