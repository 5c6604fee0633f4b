"""Structured answers: the JSON schema of a ``response_format`` -> the grammar of the text. Pure.

OpenAI's ``response_format`` asks that a text answer be a JSON object (``json_object``) or a
JSON value valid against a schema (``json_schema``). The embedded model decodes such an answer
under the grammar of :func:`answer_grammar`, so it is valid by construction, as far as the
grammar can express the schema (:mod:`toolkit.local.format.json_grammar`):

* **Enforced**: ``type`` (and lists of types), ``enum``, ``const``, ``properties``,
  ``required``, ``additionalProperties``, ``items``, ``prefixItems``, ``minItems``/``maxItems``,
  ``minLength``/``maxLength``, ``anyOf``, ``oneOf`` (as ``anyOf``: give the alternatives a
  ``const`` tag to make them exclusive, as pydantic's discriminated unions do), ``allOf`` whose
  parts do not set the same keyword, local ``$ref`` (recursion included) with no assertion
  beside it, ``nullable``, ``format`` ``date``/``time``/``date-time``/``uuid``, integer
  ``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``, and number bounds that
  are whole numbers with a lower bound at or above 0 (``0 <= x <= 1``).
* **Ignored** (annotations, which do not change what is valid): ``title``, ``description``,
  ``default``, ``examples``, ``$comment``, ``deprecated``, ``readOnly``, ``writeOnly``,
  ``$schema``, ``$id``, ``contentEncoding``, ``contentMediaType``, ``discriminator``, ``x-*``
  and keywords JSON Schema does not define.
* **Not expressible** (:func:`unsupported_keywords`): ``pattern``, other formats, other
  numeric bounds, ``multipleOf``, ``not``, ``if``/``then``/``else``, ``patternProperties``,
  ``propertyNames``, ``dependentRequired``/``dependentSchemas``, ``unevaluated*``,
  ``contains``, ``uniqueItems``, ``minProperties``/``maxProperties``, remote ``$ref``, the
  ``false`` schema (but ``additionalProperties: false``), array-form ``items``.

Strings inside an answer are words separated by single spaces (or one escaped newline or tab),
and whitespace between tokens is one space or one newline with at most 16 spaces of indentation,
so an answer cannot drift into endless blank space (the layout is
``GrammarBuilder(answer_layout=True)``'s). The model is also shown the schema
(:func:`with_format_instruction`): under the grammar alone a small model, forced to open
``{"setup": "`` without knowing why, tends to ramble until ``max_tokens``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import SchemaError
from jsonschema.validators import validator_for

from toolkit.errors import PromptError
from toolkit.local.format.json_grammar import STRING_FORMATS, GrammarBuilder, resolve_ref
from toolkit.local.format.json_numbers import integer_bounds, number_bounds
from toolkit.wire import content_text

__all__ = [
    "ANY_OBJECT",
    "Unsupported",
    "answer_grammar",
    "check_schema",
    "unsupported_keywords",
    "with_format_instruction",
]

#: The schema of ``{"type": "json_object"}``: any JSON object.
ANY_OBJECT: Mapping[str, Any] = {"type": "object"}
#: Deepest nesting of schemas read (deeper ones are refused, not walked).
MAX_DEPTH = 64

_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "example",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$vocabulary",
        "contentEncoding",
        "contentMediaType",
        "discriminator",
        "externalDocs",
        "xml",
    }
)
_NOT_EXPRESSIBLE = frozenset(
    {
        "pattern",
        "multipleOf",
        "not",
        "if",
        "then",
        "else",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "contentSchema",
        "additionalItems",
        "$dynamicRef",
        "$recursiveRef",
    }
)
_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
_CONTAINERS = frozenset({"$defs", "definitions"})  # read through $ref only
_MERGED = frozenset({"properties", "required", "allOf", *_ANNOTATIONS, *_CONTAINERS})


@dataclass(frozen=True)
class Unsupported:
    """A schema keyword the grammar cannot enforce.

    Attributes:
        keyword: The keyword, e.g. ``"pattern"``.
        path: Where it is, as a JSON pointer into the schema (``"#/properties/code"``).
    """

    keyword: str
    path: str

    def __str__(self) -> str:
        return f"'{self.keyword}' at {self.path}"


def check_schema(schema: Any) -> None:
    """Refuse a schema that is not a JSON schema (checked against its metaschema).

    Args:
        schema: The schema (a mapping or a boolean).

    Raises:
        PromptError: It is not a valid JSON schema, or it nests deeper than 64 levels.
    """
    if not isinstance(schema, (Mapping, bool)):
        raise PromptError("the schema must be a JSON object (a JSON schema).")
    if _depth(schema) > MAX_DEPTH:
        raise PromptError(f"the schema nests deeper than {MAX_DEPTH} levels; flatten it.")
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        where = "#/" + "/".join(map(str, exc.path)) if exc.path else "#"
        message = f"the schema is not a valid JSON schema at {where}: {exc.message}."
        raise PromptError(message) from None


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, Mapping):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level


def unsupported_keywords(schema: Any) -> list[Unsupported]:
    """The keywords of a (valid) schema that :func:`answer_grammar` cannot enforce.

    Definitions are read where a ``$ref`` points at them, so an unused one does not count.

    Args:
        schema: A JSON schema that passed :func:`check_schema`.

    Returns:
        Each offending keyword with its path, in the order met.
    """
    found: list[Unsupported] = []
    _walk(schema, schema, "#", found, set())
    return found


def _walk(
    node: Any,
    root: Any,
    path: str,
    found: list[Unsupported],
    seen: set[str],
    *,
    part: bool = False,
) -> None:
    """Collect what the grammar cannot enforce under ``node``; an allOf ``part`` has its
    numeric bounds checked with the parts merged, where its type may come from another."""
    if node is False:
        found.append(Unsupported("false", path))
    if not isinstance(node, Mapping):
        return
    kinds = node.get("type")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or [])
    for key, value in node.items():
        here = f"{path}/{key}"
        if key in _ANNOTATIONS or key in _CONTAINERS or key.startswith("x-"):
            continue
        if key in _NOT_EXPRESSIBLE and not (key == "uniqueItems" and value is False):
            found.append(Unsupported(key, path))
        elif key == "uniqueItems" and value is True:
            found.append(Unsupported(key, path))
        elif key == "format" and (not kinds or "string" in kinds):
            if not ("string" in kinds and value in STRING_FORMATS):
                found.append(Unsupported(key, path))
        elif key == "$ref":
            _walk_ref(node, root, path, found, seen)
        elif key == "properties" and isinstance(value, Mapping):
            for name, sub in value.items():
                _walk(sub, root, f"{here}/{_escape(name)}", found, seen)
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            for i, sub in enumerate(value):
                _walk(sub, root, f"{here}/{i}", found, seen, part=key == "allOf")
        elif key == "items":
            if isinstance(value, list):
                found.append(Unsupported(key, path))
            else:
                _walk(value, root, here, found, seen)
        elif key == "additionalProperties" and value is not False:
            _walk(value, root, here, found, seen)
    parts = node.get("allOf")
    if isinstance(parts, list) and _overlapping(node, root):
        found.append(Unsupported("allOf", path))
    elif isinstance(parts, list):
        merged = dict(node)
        for sub in parts:
            merged.update(sub if isinstance(sub, Mapping) else {})
        merged_kinds = merged.get("type")
        merged_kinds = {merged_kinds} if isinstance(merged_kinds, str) else set(merged_kinds or [])
        found.extend(_number_problems(merged, merged_kinds, path))
    elif not part:
        found.extend(_number_problems(node, kinds, path))
    if isinstance(node.get("prefixItems"), list):
        size = len(node["prefixItems"])
        if node.get("minItems", 0) > size:
            found.append(Unsupported("minItems", path))
        if node.get("maxItems", size) < size:
            found.append(Unsupported("maxItems", path))


def _walk_ref(
    node: Mapping[str, Any], root: Any, path: str, found: list[Unsupported], seen: set[str]
) -> None:
    ref = node["$ref"]
    target = resolve_ref(ref, root)
    if target is None:
        found.append(Unsupported("$ref", path))
        return
    ignored = _ANNOTATIONS | _CONTAINERS
    beside = [k for k in node if k not in ignored and k != "$ref" and not k.startswith("x-")]
    found.extend(Unsupported(k, path) for k in beside)
    if ref not in seen:
        seen.add(ref)
        _walk(target, root, ref, found, seen)


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _number_problems(node: Mapping[str, Any], kinds: set[str], path: str) -> list[Unsupported]:
    present = [k for k in _BOUNDS if k in node]
    if not present:
        return []
    if not kinds:  # the grammar reads no type from bounds alone
        return [Unsupported(present[0], path)]
    if "integer" in kinds:
        bounds = integer_bounds(node)
        if bounds is None or (None not in bounds and bounds[0] > bounds[1]):
            return [Unsupported(present[0], path)]
    if "number" in kinds and number_bounds(node) is None:
        return [Unsupported(present[0], path)]
    return []


def _overlapping(node: Mapping[str, Any], root: Any) -> bool:
    """Whether allOf's parts set one keyword twice (merging them would keep only one)."""
    counts: dict[str, int] = {}
    parts = [p for p in node["allOf"] if isinstance(p, Mapping)]
    for part in [node, *[resolve_ref(p["$ref"], root) if "$ref" in p else p for p in parts]]:
        for key in part if isinstance(part, Mapping) else ():
            if key not in _MERGED:
                counts[key] = counts.get(key, 0) + 1
    return any(n > 1 for n in counts.values())


def answer_grammar(schema: Any) -> str:
    """The grammar of a JSON answer valid against ``schema`` (any JSON object for
    :data:`ANY_OBJECT`).

    The answer starts at its first character (no leading space) and ends with the value.

    Args:
        schema: A JSON schema that passed :func:`check_schema`.

    Returns:
        GBNF text whose start rule is ``root``.
    """
    builder = GrammarBuilder(answer_layout=True)
    root = schema if isinstance(schema, Mapping) else {}
    return builder.render(builder.schema(schema, root, "answer"))


def with_format_instruction(
    messages: list[dict[str, Any]], schema: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The messages with the answer's format stated at the end of the system message.

    Args:
        messages: OpenAI messages (not modified).
        schema: The answer's schema (:data:`ANY_OBJECT` for any object).

    Returns:
        A new list: the first system or developer message extended, or a system message put
        first.
    """
    if dict(schema) == dict(ANY_OBJECT):
        instruction = "Answer with one JSON object and nothing else."
    else:
        shown = json.dumps(schema, ensure_ascii=False)
        instruction = f"Answer with one JSON value valid against this JSON schema:\n{shown}"
    if messages and messages[0].get("role") in ("system", "developer"):
        first = dict(messages[0])
        base = content_text(first.get("content")).rstrip()
        first["content"] = f"{base}\n\n{instruction}" if base else instruction
        return [first, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]
