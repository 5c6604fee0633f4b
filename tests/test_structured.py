"""Structured answers: which schemas the grammar enforces, and that what it admits is valid.

The engine are compiled by llama.cpp against the shipped model's vocabulary (no weights):
numeric ranges are checked number by number, and random walks (uniform choices among the
tokens the grammar allows) must always end in JSON that ``jsonschema`` accepts, with strings
that never run on as blank space.
"""

from __future__ import annotations

import datetime
import json
import random
import re
import uuid
from typing import Literal

import jsonschema
import pytest
import test_grammar
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field
from test_grammar import GrammarEngine

from toolkit.errors import PromptError
from toolkit.local.format.json_grammar import GrammarBuilder
from toolkit.local.format.json_numbers import integer_range, number_range
from toolkit.local.format.structured import (
    ANY_OBJECT,
    answer_grammar,
    check_schema,
    unsupported_keywords,
    with_format_instruction,
)

#: llama.cpp's grammar sampler over the shipped model's vocabulary (``test_grammar``'s fixture).
engine = test_grammar.engine


class Address(BaseModel):
    """Where someone lives."""

    city: str
    zip_code: str | None = None


class Person(BaseModel):
    """A person, with the schema features pydantic emits."""

    name: str = Field(description="Full name.")
    age: int = Field(ge=0, le=130)
    rating: int = Field(ge=1, le=5)
    score: float = Field(ge=0, le=1)
    mood: Literal["happy", "sad"]
    tags: list[str] = Field(max_length=3)
    home: Address | None = None
    born: datetime.date
    seen: datetime.datetime
    key: uuid.UUID


SCHEMAS = {
    "pydantic": Person.model_json_schema(),
    "any-object": dict(ANY_OBJECT),
    "recursive": {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "v": {"type": "integer", "minimum": -3, "exclusiveMaximum": 40},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2},
                },
                "required": ["v"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    },
    "tuple-and-union": {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]},
            "either": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]},
            "tag": {"const": "v1"},
            "times": {"type": "array", "items": {"type": "string", "format": "time"}},
        },
        "required": ["pair", "either", "tag", "times"],
        "additionalProperties": False,
    },
}


def _closed(schema: dict) -> dict:
    """pydantic's schema with objects closed as the grammar closes them (for validation)."""
    text = json.dumps(schema)
    out = json.loads(text)
    for node in [out, *out.get("$defs", {}).values()]:
        if "properties" in node:
            node.setdefault("additionalProperties", False)
    return out


def _check_formats(value: object, schema: dict) -> None:
    checker = jsonschema.FormatChecker()
    checker.checks("date-time")(lambda v: bool(datetime.datetime.fromisoformat(v)))
    checker.checks("time")(lambda v: bool(datetime.time.fromisoformat(v)))
    jsonschema.validate(value, _closed(schema), format_checker=checker)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_random_walks_end_in_valid_compact_json(engine: GrammarEngine, name: str) -> None:
    schema = SCHEMAS[name]
    check_schema(schema)
    assert unsupported_keywords(schema) == []
    grammar = answer_grammar(schema)
    rng = random.Random(name)
    finished = [t for t in (engine.walk(grammar, rng, steps=400) for _ in range(40)) if t]
    assert len(finished) >= 15
    for text in finished:
        value = json.loads(text)
        _check_formats(value, schema)
        for run in re.findall(r"\s+", re.sub(r'"(?:[^"\\]|\\.)*"', "S", text)):
            assert len(run) <= 34 and run.count("\n") <= 2, text  # at most two layouts in a row
        for string in _strings(value):
            assert string == string.strip() and "  " not in string, text


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ('{\n  "v": 3,\n  "kids": []\n}', True),
        ('{"v": 39}', True),
        ('{"v": 40}', False),
        ('{"v": -4}', False),
        ('{ "v": 1 }', True),
        ('{"v":  1}', False),  # two spaces
        ('{"v": 1}\n', False),  # nothing after the value
        ('{"v": 1, "w": 2}', False),
        ("  " + '{"v": 1}', False),
    ],
)
def test_layout_and_bounds_of_an_answer(engine: GrammarEngine, text: str, ok: bool) -> None:
    assert engine.accepts(answer_grammar(SCHEMAS["recursive"]), text) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("Why did the cat sit?", True),
        ("line one\\nline two", True),
        ("", True),
        (" leading", False),
        ("trailing ", False),
        ("two  spaces", False),
        ("\\n\\n", False),
    ],
)
def test_answer_strings_cannot_run_on_as_blank_space(
    engine: GrammarEngine, value: str, ok: bool
) -> None:
    grammar = answer_grammar({"type": "object", "properties": {"s": {"type": "string"}}})
    assert engine.accepts(grammar, '{"s": "' + value + '"}') is ok


@pytest.mark.parametrize(
    ("fmt", "text", "ok"),
    [
        ("date", "2024-02-29", True),
        ("date", "2023-02-29", False),
        ("date", "2000-02-29", True),
        ("date", "1900-02-29", False),
        ("date", "2023-04-31", False),
        ("date", "0000-01-01", False),
        ("date-time", "2024-05-01T13:45:00Z", True),
        ("date-time", "2024-05-01T13:45:00.25+05:30", True),
        ("date-time", "2024-05-01 13:45:00", False),
        ("time", "24:00:00Z", False),
        ("uuid", "3f2b8c1e-0a4d-4e5f-9a6b-7c8d9e0f1a2b", True),
        ("uuid", "3f2b8c1e0a4d4e5f9a6b7c8d9e0f1a2b", False),
    ],
)
def test_string_formats(engine: GrammarEngine, fmt: str, text: str, ok: bool) -> None:
    grammar = answer_grammar({"type": "string", "format": fmt})
    assert engine.accepts(grammar, json.dumps(text)) is ok


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    low=st.none() | st.integers(-1200, 1200),
    span=st.none() | st.integers(0, 2500),
    probes=st.lists(st.integers(-3000, 3000), min_size=6, max_size=6),
)
def test_integer_ranges_are_exact(engine, low, span, probes) -> None:
    high = None if span is None else (low or 0) + span
    grammar = GrammarBuilder().render(integer_range(low, high))
    edges = [v for v in (low, high) if v is not None]
    for value in [*probes, *edges, *[v + 1 for v in edges], *[v - 1 for v in edges]]:
        inside = (low is None or value >= low) and (high is None or value <= high)
        assert engine.accepts(grammar, str(value)) is inside, (low, high, value)
    assert not engine.accepts(grammar, "007")


@pytest.mark.parametrize(
    ("bounds", "text", "ok"),
    [
        ((0, False, 1, False), "0", True),
        ((0, False, 1, False), "0.75", True),
        ((0, False, 1, False), "1.0", True),
        ((0, False, 1, False), "1.01", False),
        ((0, True, None, False), "0", False),
        ((0, True, None, False), "0.0", False),
        ((0, True, None, False), "0.001", True),
        ((0, True, None, False), "12.5", True),
        ((2, False, 5, True), "4.999", True),
        ((2, False, 5, True), "5", False),
        ((2, False, 5, True), "1.9", False),
        ((2, False, 5, True), "2", True),
    ],
)
def test_number_ranges(engine: GrammarEngine, bounds, text: str, ok: bool) -> None:
    assert engine.accepts(GrammarBuilder().render(number_range(*bounds)), text) is ok


@pytest.mark.parametrize(
    ("schema", "found"),
    [
        ({"type": "string", "pattern": "^a"}, ["'pattern' at #"]),
        ({"type": "string", "format": "email"}, ["'format' at #"]),
        ({"type": "number", "maximum": 5}, ["'maximum' at #"]),  # a number needs a lower bound
        ({"type": "number", "minimum": 0.5}, ["'minimum' at #"]),
        ({"type": "integer", "minimum": 3, "maximum": 2}, ["'minimum' at #"]),
        ({"type": "integer", "multipleOf": 2}, ["'multipleOf' at #"]),
        ({"type": "array", "uniqueItems": True}, ["'uniqueItems' at #"]),
        ({"type": "array", "uniqueItems": False}, []),
        ({"not": {"type": "null"}}, ["'not' at #"]),
        (
            {"type": "object", "properties": {"a/b": {"type": "string", "pattern": "x"}}},
            ["'pattern' at #/properties/a~1b"],
        ),
        ({"$ref": "https://example.org/s.json"}, ["'$ref' at #"]),
        (
            {"$defs": {"x": {"type": "string", "pattern": "x"}}, "$ref": "#/$defs/x"},
            ["'pattern' at #/$defs/x"],
        ),
        ({"$defs": {"unused": {"pattern": "x"}}, "type": "string"}, []),
        ({"$defs": {"x": {}}, "$ref": "#/$defs/x", "required": ["a"]}, ["'required' at #"]),
        (
            {"$defs": {"x": {"type": "string"}}, "$ref": "#/$defs/x", "minLength": 2},
            ["'minLength' at #"],
        ),
        ({"allOf": [{"type": "integer", "minimum": 1}, {"minimum": 3}]}, ["'allOf' at #"]),
        ({"allOf": [{"type": "integer", "minimum": 1}, {"maximum": 3}]}, []),
        ({"type": "object", "properties": {"gone": False}}, ["'false' at #/properties/gone"]),
        ({"type": "object", "additionalProperties": False}, []),
        (
            {"type": "array", "prefixItems": [{"type": "string"}], "minItems": 2},
            ["'minItems' at #"],
        ),
        ({"type": "string", "title": "T", "examples": ["a"], "x-extra": 1, "deprecated": True}, []),
        ({"type": "object", "patternProperties": {"^a": {}}}, ["'patternProperties' at #"]),
        ({"if": {}, "then": {}}, ["'if' at #", "'then' at #"]),
    ],
)
def test_unsupported_keywords_are_named_with_their_path(schema: dict, found: list[str]) -> None:
    check_schema(schema)
    assert [str(u) for u in unsupported_keywords(schema)] == found


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "strnig"}, "at #/type"),
        ({"properties": {"a": {"minLength": -1}}}, "at #/properties/a/minLength"),
        ([1], "must be a JSON object"),
    ],
)
def test_invalid_schemas_are_refused(schema, words: str) -> None:
    with pytest.raises(PromptError, match=re.escape(words)):
        check_schema(schema)


def test_a_deep_schema_is_refused_before_it_is_walked() -> None:
    deep: dict = {"type": "string"}
    for _ in range(80):
        deep = {"type": "array", "items": deep}
    with pytest.raises(PromptError, match="deeper than 64"):
        check_schema(deep)


def test_the_instruction_joins_the_system_message_or_comes_first() -> None:
    user = [{"role": "user", "content": "hi"}]
    alone = with_format_instruction(user, ANY_OBJECT)
    assert alone == [
        {"role": "system", "content": "Answer with one JSON object and nothing else."},
        *user,
    ]
    system = [{"role": "system", "content": "Be brief."}, *user]
    joined = with_format_instruction(system, {"type": "array"})
    assert joined[0]["content"].startswith("Be brief.\n\nAnswer with one JSON value valid")
    assert joined[0]["content"].endswith('{"type": "array"}') and joined[1:] == user
    assert system[0]["content"] == "Be brief."  # not modified
