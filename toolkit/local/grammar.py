"""Tool JSON schemas -> llama.cpp GBNF grammars for constrained decoding.

A calls grammar admits exactly the format the chat template teaches, one block per call,
blocks separated by one newline, and nothing else (no text before, between or after)::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "西安"}}
    </tool_call>
    <tool_call>
    {"name": "add", "arguments": {"a": 6, "b": 5}}
    </tool_call>

``"name"`` is one of the allowed tool names and ``"arguments"`` is a JSON object that fits
*that* tool's ``parameters`` schema. The envelope is fixed text (``{"name": "<name>",
"arguments": `` ... ``}``); inside the arguments one optional space may follow ``,`` and ``:``.
Objects list their declared properties in schema order, every required one present, optional
ones skippable; an object schema with ``properties`` admits no other keys unless
``additionalProperties`` allows them, one without (``{"type": "object"}``) admits any object.
Strings are JSON strings (no raw control characters); integers have no fraction or exponent.

Schema support: ``type`` (also a list of types), ``enum``, ``const``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``prefixItems``, ``minItems``/``maxItems``,
``minLength``/``maxLength``, ``anyOf``/``oneOf``, ``allOf`` (merged objects), local ``$ref``
(recursive ones too), OpenAPI's ``nullable``, ``minimum``/``exclusiveMinimum`` at or above 0.
A schema without ``type`` is read from its keywords (``properties`` -> object, ``items`` ->
array), and ``{}`` admits any JSON value. ``pattern``, ``format`` and other numeric bounds are
not enforced; annotations (``title``, ``description``, ``default``, ``examples``) are ignored.

The text grammar admits any text that never contains ``<tool_call>``; "auto" is the union of
text and calls, so the first token decides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit.errors import PromptError

__all__ = ["build_grammar", "calls_grammar", "text_grammar"]

_OPEN = "<tool_call>"

_PRIMITIVES = {
    "ws": '" "?',
    "char": r'[^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})',
    "string": r'"\"" char* "\""',
    "uint": '"0" | [1-9] [0-9]{0,15}',
    "integer": '"-"? uint',
    "posint": "[1-9] [0-9]{0,15}",
    "number": '"-"? uint ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?',
    "unumber": 'uint ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?',
    "boolean": '"true" | "false"',
    "null": '"null"',
    "value": "object | array | string | number | boolean | null",
    "object": '"{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}"',
    "array": '"[" ws ( value ( "," ws value )* )? "]"',
}
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _literal(text: str) -> str:
    """A GBNF string literal matching ``text`` exactly."""
    return '"' + text.translate(_ESCAPES) + '"'


def _json_literal(value: Any) -> str:
    return _literal(json.dumps(value, ensure_ascii=False))


class _Builder:
    """Collects named GBNF rules; one instance builds one grammar."""

    def __init__(self) -> None:
        self.rules: dict[str, str] = {}
        self._memo: dict[tuple[int, str], str] = {}

    def primitive(self, name: str) -> str:
        if name not in self.rules:
            self.rules[name] = _PRIMITIVES[name]
            for dep in re.findall(r"\b[a-z]+\b(?![\"\]])", _PRIMITIVES[name]):
                if dep in _PRIMITIVES:
                    self.primitive(dep)
        return name

    def add(self, hint: str, body: str) -> str:
        base = re.sub(r"[^a-zA-Z0-9-]+", "-", hint).strip("-").lower() or "r"
        if base in _PRIMITIVES or base == "root":
            base += "-r"
        name, n = base, 1
        while name in self.rules and self.rules[name] != body:
            n += 1
            name = f"{base}{n}"
        self.rules[name] = body
        return name

    def schema(self, schema: Any, root: Mapping[str, Any], hint: str) -> str:
        """The rule name of a JSON value matching ``schema`` (resolved against ``root``)."""
        if schema is True or schema is None:
            return self.primitive("value")
        if schema is False or not isinstance(schema, Mapping):
            schema = {}
        key = (id(root), json.dumps(schema, sort_keys=True, default=str))
        if key in self._memo:
            return self._memo[key]
        # Reserve the name first, so that a recursive $ref can point at it.
        name = self.add(hint, f"pending-{len(self._memo)}")
        self._memo[key] = name
        self.rules[name] = self._body(schema, root, name)
        return name

    def _body(self, schema: Mapping[str, Any], root: Mapping[str, Any], hint: str) -> str:
        if "$ref" in schema:
            return self.schema(_resolve(schema["$ref"], root), root, hint + "-ref")
        if schema.get("nullable") is True:
            rest = {k: v for k, v in schema.items() if k != "nullable"}
            return f"{self.schema(rest, root, hint + '-value')} | {self.primitive('null')}"
        if "const" in schema:
            return _json_literal(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return " | ".join(_json_literal(v) for v in schema["enum"])
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                rest = {k: v for k, v in schema.items() if k != key}
                alts = [{**rest, **a} if isinstance(a, Mapping) else a for a in schema[key]]
                return " | ".join(self.schema(a, root, f"{hint}-{i}") for i, a in enumerate(alts))
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            return self.schema(_merge_all_of(schema, root), root, hint + "-all")
        kind = schema.get("type")
        if isinstance(kind, list) and kind:
            rest = {k: v for k, v in schema.items() if k != "type"}
            return " | ".join(self.schema({**rest, "type": t}, root, f"{hint}-{t}") for t in kind)
        if kind is None:
            kind = _infer_type(schema)
        if kind == "object":
            return self._object(schema, root, hint)
        if kind == "array":
            return self._array(schema, root, hint)
        if kind == "string":
            return self._string(schema)
        if kind in ("integer", "number"):
            return self._number(schema, kind)
        if kind in ("boolean", "null"):
            return self.primitive(kind)
        return self.primitive("value")

    def _string(self, schema: Mapping[str, Any]) -> str:
        low, high = schema.get("minLength"), schema.get("maxLength")
        if not isinstance(low, int) and not isinstance(high, int):
            return self.primitive("string")
        self.primitive("char")
        low = max(low, 0) if isinstance(low, int) else 0
        high = f"{max(high, low)}" if isinstance(high, int) else ""
        return rf'"\"" char{{{low},{high}}} "\""'

    def _number(self, schema: Mapping[str, Any], kind: str) -> str:
        minimum, exclusive = schema.get("minimum"), schema.get("exclusiveMinimum")
        non_negative = _is_num(minimum) and minimum >= 0
        positive = _is_num(exclusive) and exclusive >= 0
        if kind == "integer":
            if positive or (_is_num(minimum) and minimum >= 1):
                return self.primitive("posint")
            return self.primitive("uint" if non_negative else "integer")
        return self.primitive("unumber" if non_negative or positive else "number")

    def _array(self, schema: Mapping[str, Any], root: Mapping[str, Any], hint: str) -> str:
        ws = self.primitive("ws")
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and prefix:
            items = [self.schema(s, root, f"{hint}-{i}") for i, s in enumerate(prefix)]
            return '"[" ' + f' "," {ws} '.join(items) + ' "]"'
        item = self.schema(schema.get("items", True), root, hint + "-item")
        low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
        high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
        if high is not None and high <= 0:
            return '"[" "]"'
        low = max(low, 0)
        if high is not None:
            low = min(low, high)
        tail_high = "" if high is None else str(max(high - 1, 0))
        tail = f'( "," {ws} {item} ){{{max(low - 1, 0)},{tail_high}}}'
        body = f'"[" {ws} {item} {tail} "]"'
        return body if low >= 1 else f'"[" {ws} "]" | {body}'

    def _object(self, schema: Mapping[str, Any], root: Mapping[str, Any], hint: str) -> str:
        props = schema.get("properties")
        props = dict(props) if isinstance(props, Mapping) else {}
        required = [r for r in schema.get("required", []) or [] if isinstance(r, str)]
        for name in required:
            props.setdefault(name, True)
        closed = "properties" in schema or bool(props)
        extra = schema.get("additionalProperties", None if closed else True)
        ws = self.primitive("ws")
        extra_kv = None
        if extra is not None and extra is not False:
            string = self.primitive("string")
            value = self.schema(extra, root, hint + "-extra")
            extra_kv = self.add(hint + "-extra-kv", f'{string} ":" {ws} {value}')
        keys = list(props)
        kvs = [
            self.add(
                f"{hint}-{k}-kv",
                f'{_json_literal(k)} ":" {ws} {self.schema(props[k], root, f"{hint}-{k}")}',
            )
            for k in keys
        ]
        # first[i]: members from keys[i:] when none is written yet; after[i]: after one is.
        after_extra = f'( "," {ws} {extra_kv} )*' if extra_kv else ""
        first_extra = f"( {extra_kv} {after_extra} )?" if extra_kv else ""
        after, first = after_extra, first_extra
        for i in reversed(range(len(keys))):
            optional = keys[i] not in required
            after_rest = self.add(f"{hint}-after-{i + 1}", after) if after else ""
            with_key = f"{kvs[i]} {after_rest}".strip()
            after_i = f'"," {ws} {with_key}'
            first_i = with_key
            if optional:
                after_i = f"( {after_i} )?" if not after else f"( {after_i} | {after_rest} )"
                first_rest = self.add(f"{hint}-first-{i + 1}", first) if first else ""
                first_i = f"{with_key} | {first_rest}" if first_rest else f"( {with_key} )?"
            after, first = after_i, first_i
        if not first:
            return '"{" "}"'
        return f'"{{" ( {first} ) "}}"'

    def render(self, root_body: str) -> str:
        lines = [f"root ::= {root_body}"]
        lines += [f"{name} ::= {body}" for name, body in self.rules.items()]
        return "\n".join(lines) + "\n"


def _is_num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _infer_type(schema: Mapping[str, Any]) -> str | None:
    if any(k in schema for k in ("properties", "required", "additionalProperties")):
        return "object"
    if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems")):
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern")):
        return "string"
    return None


def _resolve(ref: Any, root: Mapping[str, Any]) -> Any:
    """A local ``#/...`` reference -> the schema it names (any value when unresolvable)."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return True
    node: Any = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return True
        node = node[part]
    return node


def _merge_all_of(schema: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for part in schema["allOf"]:
        if isinstance(part, Mapping) and "$ref" in part:
            part = _resolve(part["$ref"], root)
        if not isinstance(part, Mapping):
            continue
        for key, value in part.items():
            if key == "properties" and isinstance(value, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = [*merged.get("required", []), *value]
            else:
                merged.setdefault(key, value)
    return merged


def _functions(tools: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """OpenAI tools -> ``{name: parameters schema}``, in order."""
    found: dict[str, Mapping[str, Any]] = {}
    for i, tool in enumerate(tools):
        fn = tool.get("function", tool) if isinstance(tool, Mapping) else None
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise PromptError(
                f"tools[{i}] must look like "
                '{"type": "function", "function": {"name": ..., "parameters": {...}}}.'
            )
        params = fn.get("parameters")
        if params is None:
            params = {"type": "object", "properties": {}}
        if not isinstance(params, Mapping):
            raise PromptError(
                f"tools[{i}] ({fn['name']}): parameters must be a JSON schema object."
            )
        found[fn["name"]] = params
    return found


def _calls_rule(
    builder: _Builder,
    tools: Sequence[Mapping[str, Any]],
    names: Iterable[str] | None,
    min_calls: int,
    max_calls: int | None,
) -> str:
    functions = _functions(tools)
    chosen = list(functions) if names is None else list(dict.fromkeys(names))
    unknown = [n for n in chosen if n not in functions]
    if unknown or not chosen:
        raise PromptError(
            f"tool_choice names {', '.join(map(repr, unknown)) or 'no tool'}; "
            f"choose one of: {', '.join(functions) or '(no tools were sent)'}."
        )
    if min_calls < 1 or (max_calls is not None and max_calls < min_calls):
        raise PromptError(f"cannot make between {min_calls} and {max_calls} tool calls.")
    bodies = []
    for name in chosen:
        params = functions[name]
        args = builder.schema({**params, "type": "object"}, params, f"{name}-args")
        head = _literal(f'{{"name": {json.dumps(name, ensure_ascii=False)}, "arguments": ')
        bodies.append(builder.add(f"{name}-call", f'{head} {args} "}}"'))
    call = builder.add("call", f'"{_OPEN}\\n" ( {" | ".join(bodies)} ) "\\n</tool_call>"')
    more_high = "" if max_calls is None else str(max_calls - 1)
    if max_calls == 1:
        return call
    return builder.add("calls", f'{call} ( "\\n" {call} ){{{min_calls - 1},{more_high}}}')


def calls_grammar(
    tools: Sequence[Mapping[str, Any]],
    *,
    names: Iterable[str] | None = None,
    min_calls: int = 1,
    max_calls: int | None = None,
) -> str:
    """A grammar admitting only ``<tool_call>`` blocks whose calls fit the tools' schemas.

    Args:
        tools: OpenAI tools (``{"type": "function", "function": {...}}``) or bare functions.
        names: Restrict the calls to these tool names (default: every tool).
        min_calls: Fewest calls (at least 1).
        max_calls: Most calls; ``None`` for no limit.

    Returns:
        GBNF text whose start rule is ``root``.

    Raises:
        PromptError: A tool is malformed, a name is not among the tools, or the bounds are
            impossible.
    """
    builder = _Builder()
    root = _calls_rule(builder, tools, names, min_calls, max_calls)
    return builder.render(root)


def _text_rules(builder: _Builder, plain_start: bool) -> str:
    """Rules for text never containing ``<tool_call>``; returns the start rule's name.

    Rule ``text-k`` reads the rest of the text when what came before ends with the first ``k``
    characters of the tag (a right-linear grammar, so the parser's stack does not grow). With
    ``plain_start`` the text may not begin with whitespace, ``{``, ``[`` or a backtick, so a
    JSON or fenced call cannot pass as text.
    """
    tag = _OPEN
    names = [f"text-{k}" for k in range(len(tag))]
    builder.rules[names[0]] = f'| [^<] {names[0]} | "<" {names[1]}'
    for k in range(1, len(tag)):
        nxt = tag[k]
        alts = ["", f'"<" {names[1]}']
        if k + 1 < len(tag):
            alts.append(f"{_literal(nxt)} {names[k + 1]}")
        alts.append(f"[^<{nxt}] {names[0]}")
        builder.rules[names[k]] = " | ".join(alts)
    if not plain_start:
        return names[0]
    builder.rules["text"] = f'| [^<{{[`\\x20\\t\\r\\n] {names[0]} | "<" {names[1]}'
    return "text"


def text_grammar(*, plain_start: bool = True) -> str:
    """A grammar admitting any text that never opens a ``<tool_call>`` (``tool_choice="none"``).

    Args:
        plain_start: Also refuse text that begins with whitespace, ``{``, ``[`` or a backtick,
            the ways a small model starts a JSON or fenced call outside the template format.

    Returns:
        GBNF text whose start rule is ``root``.
    """
    builder = _Builder()
    return builder.render(_text_rules(builder, plain_start))


def _choice_name(tool_choice: Any) -> str | None:
    if isinstance(tool_choice, str):
        return tool_choice
    if isinstance(tool_choice, Mapping):
        fn = tool_choice.get("function")
        if isinstance(fn, Mapping) and isinstance(fn.get("name"), str):
            return fn["name"]
        if tool_choice.get("type") == "function" and isinstance(tool_choice.get("name"), str):
            return tool_choice["name"]
        if tool_choice.get("type") in ("auto", "none", "required", "any"):
            return tool_choice["type"]
    raise PromptError(
        'tool_choice must be "auto", "none", "required" or '
        '{"type": "function", "function": {"name": ...}}; got ' + repr(tool_choice) + "."
    )


def build_grammar(
    tools: Sequence[Mapping[str, Any]] | None,
    tool_choice: Any = "auto",
    parallel_tool_calls: bool = True,
    *,
    plain_start: bool = True,
) -> str | None:
    """The grammar for a chat request's ``tools`` / ``tool_choice`` / ``parallel_tool_calls``.

    * ``"auto"`` (or ``None``): plain text (never opening ``<tool_call>``) or one or more calls;
    * ``"required"`` (or ``"any"``): one or more calls;
    * a named tool (``{"type": "function", "function": {"name": ...}}`` or the bare name):
      calls of that tool only;
    * ``"none"``: plain text only.

    ``parallel_tool_calls=False`` allows at most one call. Text follows :func:`text_grammar`
    (by default it may not begin like a JSON or fenced call, so every call the model makes is
    a ``<tool_call>`` block that fits its schema).

    Args:
        tools: The request's OpenAI tools.
        tool_choice: The request's ``tool_choice`` in any OpenAI form.
        parallel_tool_calls: Whether several calls may be made in one answer.
        plain_start: As for :func:`text_grammar`.

    Returns:
        GBNF text, or ``None`` when there are no tools and nothing to constrain.

    Raises:
        PromptError: ``tool_choice`` is malformed, names an unknown tool, or requires a call
            while no tools were sent.
    """
    choice = "auto" if tool_choice is None else _choice_name(tool_choice)
    if not tools:
        if choice in ("auto", "none"):
            return None
        raise PromptError(f"tool_choice {choice!r} needs tools, but the request sent none.")
    builder = _Builder()
    most = None if parallel_tool_calls else 1
    if choice == "none":
        return builder.render(_text_rules(builder, plain_start))
    if choice == "auto":
        text = _text_rules(builder, plain_start)
        return builder.render(f"{text} | {_calls_rule(builder, tools, None, 1, most)}")
    names = None if choice in ("required", "any") else [choice]
    return builder.render(_calls_rule(builder, tools, names, 1, most))
