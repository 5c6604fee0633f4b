"""JSON schemas -> llama.cpp GBNF rules: the grammar of a JSON value that fits a schema. Pure.

:class:`GrammarBuilder` collects named rules; :meth:`GrammarBuilder.schema` returns the rule of
a JSON value matching a schema, and :meth:`GrammarBuilder.render` writes the grammar with a
given start rule. :mod:`toolkit.local.format.grammar` builds the tool-call and text grammars
from it.

Objects list their declared properties in schema order, every required one present, optional
ones skippable; an object schema with ``properties`` admits no other keys unless
``additionalProperties`` allows them, one without (``{"type": "object"}``) admits any object.
Strings are JSON strings (no raw control characters); integers have no fraction or exponent;
one optional space may follow ``,`` and ``:``.

Schema support: ``type`` (also a list of types), ``enum``, ``const``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``prefixItems``, ``minItems``/``maxItems``,
``minLength``/``maxLength``, ``format`` ``date``/``time``/``date-time``/``uuid``
(:data:`STRING_FORMATS`), ``anyOf``/``oneOf`` (``oneOf`` decoded as ``anyOf``), ``allOf``
(merged objects), local ``$ref`` (recursive ones too), OpenAPI's ``nullable``, and numeric
bounds (:mod:`toolkit.local.format.json_numbers`): any ``minimum``/``maximum`` and exclusive
bounds on integers; on numbers, whole bounds with a lower one at or above 0. A schema without
``type`` is read from its keywords (``properties`` -> object, ``items`` -> array), and ``{}``
admits any JSON value. Other keywords (``pattern``, other formats, other numeric bounds...)
are not enforced here: :mod:`toolkit.local.format.structured` tells which, for the answers
that must follow a schema exactly. Annotations (``title``, ``description``, ``default``,
``examples``) are ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from toolkit.local.format.json_numbers import (
    integer_bounds,
    integer_range,
    number_bounds,
    number_range,
)

__all__ = [
    "STRING_FORMATS",
    "GrammarBuilder",
    "gbnf_literal",
    "is_json_number",
    "json_literal",
    "resolve_ref",
]

_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
_YEAR = '( [1-9] [0-9]{3} | "0" [1-9] [0-9]{2} | "00" [1-9] [0-9] | "000" [1-9] )'
_BY_FOUR = '( "0" [48] | [2468] [048] | [13579] [26] )'  # two digits, a multiple of 4, not 00
_LEAP_YEAR = f'( [0-9] [0-9] {_BY_FOUR} | {_BY_FOUR} "00" )'
_D31 = '( "0" [1-9] | [12] [0-9] | "3" [01] )'
_D30 = '( "0" [1-9] | [12] [0-9] | "30" )'
_DATE = (
    f'( {_YEAR} "-" ( ( "0" [13578] | "1" [02] ) "-" {_D31} | ( "0" [469] | "11" ) "-" {_D30}'
    f' | "02-" ( "0" [1-9] | "1" [0-9] | "2" [0-8] ) ) | {_LEAP_YEAR} "-02-29" )'
)
_HOUR = '( [01] [0-9] | "2" [0-3] )'
_TIME = (
    f'{_HOUR} ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{{1,9}} )?'
    f' ( "Z" | [+-] {_HOUR} ":" [0-5] [0-9] )'
)
#: ``format`` values enforced by the grammar (RFC 3339 dates and times, lowercase UUIDs):
#: GBNF for the string's content, between the quotes. Dates are real days of the years 1-9999
#: (29 February in leap years only); times have no leap second.
_PLACE = r'[^",\\\x7F\x00-\x1F]+ ", " '  # a place's name, then its region after a comma
_CODE = "[A-Z] [A-Z]"  # a region's two-letter code: "CA", "FR"
_WORD = '[A-Z] [a-z]+ (" " [A-Z] [a-z]+)*'  # a region's name: "France", "New Mexico"
STRING_FORMATS = {
    "date": _DATE,
    "time": _TIME,
    "date-time": f'{_DATE} "T" {_TIME}',
    "uuid": '[0-9a-f]{8} "-" [0-9a-f]{4} "-" [0-9a-f]{4} "-" [0-9a-f]{4} "-" [0-9a-f]{12}',
    # The toolkit's own: a place and its region, as a description's examples show them
    # ("Berkeley, CA"; "Paris, France"; either) — :mod:`toolkit.local.decision.examples`.
    "x-place-code": f"{_PLACE}{_CODE}",
    "x-place-name": f"{_PLACE}{_WORD}",
    "x-place-code-or-name": f"{_PLACE}({_CODE} | {_WORD})",
}

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
#: A JSON answer written in full (``answer_layout``): strings are words separated by one space
#: or one escaped newline or tab, none leading, trailing or doubled, so that a string cannot run
#: on as blank space; between tokens, the layout a model writes by habit (one space, or one
#: newline and at most 16 spaces or tabs of indentation), also before a closing bracket. A
#: model kept from the newline it wants after ``",`` otherwise writes on inside the string.
_ANSWER = {
    "ws": '( " " | "\\n" [ \\t]{0,16} )?',
    "object": '"{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? ws "}"',
    "array": '"[" ws ( value ( "," ws value )* )? ws "]"',
    "string": r'"\"" ( word ( gap word )* )? "\""',
    "word": "wchar+",
    "wchar": r'[^"\\\x7F\x00-\x20] | "\\" (["\\/bf] | "u" [0-9a-fA-F]{4})',
    "gap": r'" " | "\\n" | "\\t"',
}
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def gbnf_literal(text: str) -> str:
    """A GBNF string literal matching ``text`` exactly.

    Args:
        text: The text.

    Returns:
        The literal, quoted and escaped.
    """
    return '"' + text.translate(_ESCAPES) + '"'


def json_literal(value: Any) -> str:
    """A GBNF literal matching a value's JSON text exactly.

    Args:
        value: A JSON value.

    Returns:
        The literal.
    """
    return gbnf_literal(json.dumps(value, ensure_ascii=False))


class GrammarBuilder:
    """Collects named GBNF rules; one instance builds one grammar.

    Args:
        answer_layout: Write strings and whitespace as :data:`_ANSWER` does, for a JSON answer
            a small model writes in full; without it, strings are any JSON string and
            whitespace is one optional space after ``,`` and ``:`` (tool-call arguments).
    """

    def __init__(self, *, answer_layout: bool = False) -> None:
        self.rules: dict[str, str] = {}
        self._memo: dict[tuple[int, str], str] = {}
        self._primitives = {**_PRIMITIVES, **(_ANSWER if answer_layout else {})}
        self._close = "ws " if answer_layout else ""  # before a closing bracket

    def primitive(self, name: str) -> str:
        """Add a primitive rule (``string``, ``number``, ``value``...) and those it uses.

        Args:
            name: A key of the primitive rules.

        Returns:
            The rule's name.
        """
        if name not in self.rules:
            body = self.rules[name] = self._primitives[name]
            for dep in re.findall(r"\b[a-z]+\b(?![\"\]])", body):
                if dep in self._primitives:
                    self.primitive(dep)
        return name

    def add(self, hint: str, body: str) -> str:
        """Add a rule under a name made from ``hint`` (numbered when taken by another body).

        Args:
            hint: What the rule is for, e.g. ``"get_weather-args"``.
            body: The rule's GBNF body.

        Returns:
            The rule's name.
        """
        base = re.sub(r"[^a-zA-Z0-9-]+", "-", hint).strip("-").lower() or "r"
        if base in self._primitives or base == "root":
            base += "-r"
        name, n = base, 1
        while name in self.rules and self.rules[name] != body:
            n += 1
            name = f"{base}{n}"
        self.rules[name] = body
        return name

    def schema(self, schema: Any, root: Mapping[str, Any], hint: str) -> str:
        """The rule of a JSON value matching ``schema``.

        Args:
            schema: A JSON schema (``True``/``None``: any value).
            root: The document ``$ref`` pointers are resolved against.
            hint: What the value is, for the rule names.

        Returns:
            The rule's name.
        """
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
            return json_literal(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return " | ".join(json_literal(v) for v in schema["enum"])
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
        fmt = schema.get("format")
        shape = STRING_FORMATS.get(fmt) if isinstance(fmt, str) else None
        if shape is not None:
            return '"\\"" ' + shape + ' "\\""'
        low, high = schema.get("minLength"), schema.get("maxLength")
        if not isinstance(low, int) and not isinstance(high, int):
            return self.primitive("string")
        self.primitive("char")
        low = max(low, 0) if isinstance(low, int) else 0
        high = f"{max(high, low)}" if isinstance(high, int) else ""
        return rf'"\"" char{{{low},{high}}} "\""'

    def _number(self, schema: Mapping[str, Any], kind: str) -> str:
        if not any(k in schema for k in _BOUNDS):
            return self.primitive(kind)
        if kind == "integer":
            bounds = integer_bounds(schema)
            return integer_range(*bounds) if bounds else self.primitive("integer")
        bounds = number_bounds(schema)
        if bounds is not None:
            return number_range(*bounds)
        minimum, exclusive = schema.get("minimum"), schema.get("exclusiveMinimum")
        non_negative = is_json_number(minimum) and minimum >= 0
        return self.primitive("unumber" if non_negative or is_json_number(exclusive) else "number")

    def _array(self, schema: Mapping[str, Any], root: Mapping[str, Any], hint: str) -> str:
        ws = self.primitive("ws")
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and prefix:
            items = [self.schema(s, root, f"{hint}-{i}") for i, s in enumerate(prefix)]
            return f'"[" {self._close}' + f' "," {ws} '.join(items) + f' {self._close}"]"'
        item = self.schema(schema.get("items", True), root, hint + "-item")
        low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
        high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
        if high is not None and high <= 0:
            return f'"[" {self._close}"]"'
        low = max(low, 0)
        if high is not None:
            low = min(low, high)
        tail_high = "" if high is None else str(max(high - 1, 0))
        tail = f'( "," {ws} {item} ){{{max(low - 1, 0)},{tail_high}}}'
        body = f'"[" {ws} {item} {tail} {self._close}"]"'
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
                f'{json_literal(k)} ":" {ws} {self.schema(props[k], root, f"{hint}-{k}")}',
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
            return f'"{{" {self._close}"}}"'
        return f'"{{" {self._close}( {first} ) {self._close}"}}"'

    def render(self, root_body: str) -> str:
        """The whole grammar, with ``root`` defined as ``root_body``.

        Args:
            root_body: The start rule's body (often one rule name).

        Returns:
            GBNF text.
        """
        lines = [f"root ::= {root_body}"]
        lines += [f"{name} ::= {body}" for name, body in self.rules.items()]
        return "\n".join(lines) + "\n"


def is_json_number(value: Any) -> bool:
    """Whether a value is a JSON number (an int or a float; booleans are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _infer_type(schema: Mapping[str, Any]) -> str | None:
    if any(k in schema for k in ("properties", "required", "additionalProperties")):
        return "object"
    if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems")):
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern")):
        return "string"
    return None


def resolve_ref(ref: Any, root: Any) -> Any:
    """The schema a local ``#/...`` reference names.

    Args:
        ref: The ``$ref`` value.
        root: The document it points into.

    Returns:
        The schema, or ``None`` when the reference is not local or names nothing.
    """
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node: Any = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _resolve(ref: Any, root: Mapping[str, Any]) -> Any:
    """:func:`resolve_ref`, with any value where the reference names nothing."""
    found = resolve_ref(ref, root)
    return True if found is None else found


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
